"""Evidence measures: Chroma's own scoring code is the judge of the character measures, brute force of the rest.

Chroma's ``BaseEvaluation._scores_from_dataset_and_retrievals`` and the four range helpers it calls
are copied below, unchanged but for their indentation, from ``brandonstarxel/chunking_evaluation``
(commit d451fc4, ``chunking_evaluation/evaluation_framework/base_evaluation.py``), © 2024 Brandon
Smith, MIT licence (``tests/data/chroma/LICENSE``). They run on a slice of Chroma's own dataset
(``tests/data/chroma``) with the chunks our BM25 retrieves, and on random chunks and spans.
"""

import csv
import json
import pathlib
import types

from hypothesis import given, settings
from hypothesis import strategies as st

from raglab_core.corpus.chroma import read_questions
from raglab_core.corpus.chunks import chunk_table
from raglab_core.corpus.documents import Document
from raglab_core.corpus.evaluate import evaluate_config, evaluate_runs, prepare
from raglab_core.corpus.measures import ChunkSpans, ceiling, character_scores, evidence_recall, held

DATA = pathlib.Path(__file__).resolve().parents[2] / "data" / "chroma"


# --- Chroma's code (MIT; see the module docstring) ---------------------------------------------------------------
def sum_of_ranges(ranges):
    return sum(end - start for start, end in ranges)


def union_ranges(ranges):
    # Sort ranges based on the starting index
    sorted_ranges = sorted(ranges, key=lambda x: x[0])

    # Initialize with the first range
    merged_ranges = [sorted_ranges[0]]

    for current_start, current_end in sorted_ranges[1:]:
        last_start, last_end = merged_ranges[-1]

        # Check if the current range overlaps or is contiguous with the last range in the merged list
        if current_start <= last_end:
            # Merge the two ranges
            merged_ranges[-1] = (last_start, max(last_end, current_end))
        else:
            # No overlap, add the current range as new
            merged_ranges.append((current_start, current_end))

    return merged_ranges


def intersect_two_ranges(range1, range2):
    # Unpack the ranges
    start1, end1 = range1
    start2, end2 = range2

    # Calculate the maximum of the starting indices and the minimum of the ending indices
    intersect_start = max(start1, start2)
    intersect_end = min(end1, end2)

    # Check if the intersection is valid (the start is less than or equal to the end)
    if intersect_start <= intersect_end:
        return (intersect_start, intersect_end)
    else:
        return None  # Return an None if there is no intersection


def difference(ranges, target):
    result = []
    target_start, target_end = target

    for start, end in ranges:
        if end < target_start or start > target_end:
            # No overlap
            result.append((start, end))
        elif start < target_start and end > target_end:
            # Target is a subset of this range, split it into two ranges
            result.append((start, target_start))
            result.append((target_end, end))
        elif start < target_start:
            # Overlap at the start
            result.append((start, target_start))
        elif end > target_end:
            # Overlap at the end
            result.append((target_end, end))
        # Else, this range is fully contained by the target, and is thus removed

    return result


def _scores_from_dataset_and_retrievals(self, question_metadatas, highlighted_chunks_count):
    iou_scores = []
    recall_scores = []
    precision_scores = []
    for (index, row), highlighted_chunk_count, metadatas in zip(self.questions_df.iterrows(), highlighted_chunks_count, question_metadatas):
        # Unpack question and references
        # question, references = question_references
        question = row['question']
        references = row['references']
        corpus_id = row['corpus_id']

        numerator_sets = []
        denominator_chunks_sets = []
        unused_highlights = [(x['start_index'], x['end_index']) for x in references]

        for metadata in metadatas[:highlighted_chunk_count]:
            # Unpack chunk start and end indices
            chunk_start, chunk_end, chunk_corpus_id = metadata['start_index'], metadata['end_index'], metadata['corpus_id']

            if chunk_corpus_id != corpus_id:
                continue

            # for reference, ref_start, ref_end in references:
            for ref_obj in references:
                reference = ref_obj['content']
                ref_start, ref_end = int(ref_obj['start_index']), int(ref_obj['end_index'])

                # Calculate intersection between chunk and reference
                intersection = intersect_two_ranges((chunk_start, chunk_end), (ref_start, ref_end))

                if intersection is not None:
                    # Remove intersection from unused highlights
                    unused_highlights = difference(unused_highlights, intersection)

                    # Add intersection to numerator sets
                    numerator_sets = union_ranges([intersection] + numerator_sets)

                    # Add chunk to denominator sets
                    denominator_chunks_sets = union_ranges([(chunk_start, chunk_end)] + denominator_chunks_sets)

        if numerator_sets:
            numerator_value = sum_of_ranges(numerator_sets)
        else:
            numerator_value = 0

        recall_denominator = sum_of_ranges([(x['start_index'], x['end_index']) for x in references])
        precision_denominator = sum_of_ranges([(x['start_index'], x['end_index']) for x in metadatas[:highlighted_chunk_count]])
        iou_denominator = precision_denominator + sum_of_ranges(unused_highlights)

        recall_score = numerator_value / recall_denominator
        recall_scores.append(recall_score)

        precision_score = numerator_value / precision_denominator
        precision_scores.append(precision_score)

        iou_score = numerator_value / iou_denominator
        iou_scores.append(iou_score)

    return iou_scores, recall_scores, precision_scores
# --- end of Chroma's code ----------------------------------------------------------------------------------------


def chroma_scores(questions, retrieved, k):
    """Chroma's (recall, precision, IoU) per question: ``questions`` ``[(corpus_id, [(start, end), ...])]``,
    ``retrieved`` per question ``[(corpus_id, start, end), ...]`` in rank order."""
    rows = [{"question": "?", "references": [{"content": "", "start_index": s, "end_index": e} for s, e in refs],
             "corpus_id": corpus} for corpus, refs in questions]
    frame = types.SimpleNamespace(iterrows=lambda: enumerate(rows))  # what the code reads of its DataFrame
    metadatas = [[{"start_index": s, "end_index": e, "corpus_id": c} for c, s, e in chunks] for chunks in retrieved]
    iou, recall, precision = _scores_from_dataset_and_retrievals(
        types.SimpleNamespace(questions_df=frame), metadatas, [k] * len(questions))
    return list(zip(recall, precision, iou))


def chroma_slice():
    text = (DATA / "state_of_the_union.md").read_text(encoding="utf-8")
    documents = {
        "state_of_the_union.md": Document("state_of_the_union.md", text),
        "echo.md": Document("echo.md", text[6000:]),  # a distractor: its chunks are retrieved, and never evidence
    }
    queries, spans = read_questions((DATA / "questions_df.csv").read_text(encoding="utf-8"), documents)
    return documents, queries, spans


def test_the_slice_reads_as_chroma_wrote_it():
    """Chroma reads the file with pandas.read_csv (its row index, 0, 1, ..., is the query id) and json.loads."""
    documents, queries, spans = chroma_slice()
    with open(DATA / "questions_df.csv", newline="", encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream))
    assert queries == {str(index): row["question"] for index, row in enumerate(rows)}
    expected = [(str(index), "state_of_the_union.md", ref["start_index"], ref["end_index"])
                for index, row in enumerate(rows) for ref in json.loads(row["references"])]
    assert [tuple(span) for span in spans] == expected and len(spans) == 21


def test_character_measures_are_chromas_on_its_own_data_with_our_retrieved_chunks():
    documents, queries, spans = chroma_slice()
    prepared = prepare(documents, queries, spans)
    stem = {"state_of_the_union.md": "state_of_the_union", "echo.md": "echo"}
    questions = [("state_of_the_union", [(span.start, span.end) for span in spans if span.query_id == qid])
                 for qid in queries]
    checked = 0
    for chunk, overlap in ((64, 0), (128, 32), (40, 30)):
        result = evaluate_config(prepared, chunk, overlap, cuts=[1, 3, 5])
        characters = chunk_characters(prepared, chunk, overlap)
        for k in (1, 3, 5):
            retrieved = [[characters[chunk_id] for chunk_id in list(result.chunk_run[qid])[:k]] for qid in queries]
            theirs = chroma_scores(questions, [[(stem[doc], s, e) for doc, s, e in top] for top in retrieved], k)
            for qid, (recall, precision, iou) in zip(queries, theirs):
                values = result.per_query[qid]
                assert (values[f"CharRecall@{k}"], values[f"CharPrecision@{k}"], values[f"CharIoU@{k}"]) == (
                    recall, precision, iou), (chunk, overlap, k, qid)
                checked += 1
        # Not trivial: evidence partly retrieved, and chunks of the distractor among the retrieved.
        assert 0 < result.mean["CharRecall@1"] < 1
        assert any(doc == "echo.md" for top in retrieved for doc, _, _ in top)
    assert checked == 3 * 3 * 20


def chunk_characters(prepared, chunk, overlap):
    """``{chunk_id: (doc, start, end)}`` of a configuration's windows, straight from the chunk table."""
    table = chunk_table(prepared.corpus, chunk, overlap)
    return {chunk_id: (prepared.corpus.ids[table.documents[i]], *table.characters(i))
            for i, chunk_id in enumerate(table.chunk_ids)}


spans_and_chunks = st.integers(0, 60).flatmap(lambda size: st.tuples(
    st.lists(st.tuples(st.integers(0, size), st.integers(1, 12)), min_size=1, max_size=4),
    st.lists(st.tuples(st.sampled_from("de"), st.integers(0, size), st.integers(1, 25)), max_size=8),
    st.integers(1, 6),
))


@settings(max_examples=100)
@given(spans_and_chunks)
def test_character_measures_match_chromas_code_on_random_spans_and_chunks(data):
    """Overlapping and touching spans and chunks, chunks of another document, k beyond the run's length."""
    refs, chunks, k = data
    refs = [(start, start + length) for start, length in refs]
    chunks = [(doc, start, start + length) for doc, start, length in chunks]
    if not chunks:
        assert character_scores([("d", s, e) for s, e in refs], chunks, k) == (0.0, 0.0, 0.0)
        return
    (theirs,) = chroma_scores([("d", refs)], [chunks], k)
    assert character_scores([("d", s, e) for s, e in refs], chunks, k) == theirs


@settings(max_examples=80)
@given(spans_and_chunks)
def test_ceiling_and_evidence_recall_are_the_brute_force_count(data):
    refs, chunks, k = data
    spans = [("d", start, start + length) for start, length in refs]
    chunks = [(doc, start, start + length) for doc, start, length in chunks]
    brute_ceiling = sum(any(held(span, chunk) for chunk in chunks) for span in spans) / len(spans)
    brute_recall = sum(any(held(span, chunk) for chunk in chunks[:k]) for span in spans) / len(spans)
    assert ceiling(spans, ChunkSpans(chunks)) == brute_ceiling
    assert evidence_recall(spans, chunks, k) == brute_recall


def test_ceiling_and_evidence_recall_on_the_slice_are_the_brute_force_count():
    documents, queries, spans = chroma_slice()
    prepared = prepare(documents, queries, spans)
    for chunk, overlap in ((32, 0), (64, 16)):
        result = evaluate_config(prepared, chunk, overlap, cuts=[1, 5])
        every = chunk_characters(prepared, chunk, overlap)
        ceilings = []
        for qid, evidence in prepared.evidence.items():
            ceilings.append(sum(any(held(span, c) for c in every.values()) for span in evidence) / len(evidence))
            assert result.per_query[qid]["Ceiling"] == ceilings[-1]
            for k in (1, 5):
                top = [every[chunk_id] for chunk_id in list(result.chunk_run[qid])[:k]]
                brute = sum(any(held(span, c) for c in top) for span in evidence) / len(evidence)
                assert result.per_query[qid][f"EvidenceRecall@{k}"] == brute
        assert 0 < sum(ceilings) / len(ceilings) < 1  # small windows cut some evidence: the check can fail


def test_a_query_that_retrieves_nothing_scores_zero_on_every_evidence_measure():
    result = evaluate_runs("x", {"d#0": ("d", 0, 5)}, {"q1": {}}, {"q1": [("d", 1, 3)]}, cuts=[1, 3])
    assert result.per_query["q1"] == {
        "Ceiling": 1.0, "EvidenceRecall@1": 0.0, "EvidenceRecall@3": 0.0, "CharRecall@1": 0.0, "CharRecall@3": 0.0,
        "CharPrecision@1": 0.0, "CharPrecision@3": 0.0, "CharIoU@1": 0.0, "CharIoU@3": 0.0}
