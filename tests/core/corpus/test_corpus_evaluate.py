"""One configuration end to end: runs, MaxP, document measures through the run evaluator, and your own
chunks and run measured alike (export, then import: the same numbers)."""

import random

import pytest

from raglab_core.corpus.documents import Document
from raglab_core.corpus.evaluate import evaluate_chunks_run, evaluate_config, prepare
from raglab_core.corpus.exchange import chunk_lines, read_chunks, run_lines
from raglab_core.corpus.chunks import chunk_table
from raglab_core.corpus.spans import Span
from raglab_core.errors import LabError
from raglab_core.runs.evaluation import evaluate_run
from raglab_core.runs.trec import parse_run

from tests.support.corpus_data import zipf_corpus

MEASURES = "nDCG@10 R@100 P(rel=2)@5 RR"


@pytest.fixture(scope="module")
def case():
    corpus, queries = zipf_corpus(documents=60, queries=25, seed=7)
    documents = {doc_id: Document(doc_id, text, title) for doc_id, (title, text) in corpus.items()}
    rng = random.Random(7)
    spans, qrels = [], {}
    ids = [doc_id for doc_id, document in documents.items() if len(document.text) > 30]
    for qid in queries:
        if qid == "q3":
            continue  # a query without evidence or judgments
        for doc_id in rng.sample(ids, 2):
            text = documents[doc_id].text
            start = rng.randrange(len(text) - 20)
            spans.append(Span(qid, doc_id, start, start + rng.randint(1, 60) if start + 60 < len(text) else len(text)))
            qrels.setdefault(qid, {})[doc_id] = rng.randint(0, 2)
    return prepare(documents, queries, spans), qrels


def test_the_document_run_is_maxp_over_the_chunk_run_and_measured_by_the_run_evaluator(case):
    prepared, qrels = case
    result = evaluate_config(prepared, 24, 8, depth=30, cuts=[1, 5], qrels=qrels, measures=MEASURES)
    for qid, chunks in result.chunk_run.items():
        assert len(chunks) <= 30
        best = {}
        for chunk_id, score in chunks.items():
            doc_id = chunk_id.rsplit("#", 1)[0]
            best[doc_id] = max(best.get(doc_id, score), score)
        assert result.document_run[qid] == best
    direct = evaluate_run(qrels, result.document_run, MEASURES)
    for qid, values in direct.per_query.items():
        assert [result.per_query[qid][name] for name in direct.names] == list(values)
    assert [result.mean[name] for name in direct.names] == list(direct.mean)
    # A query whose words the corpus lacks retrieves nothing and scores 0; one without evidence has no evidence value.
    assert result.chunk_run["q-unknown"] == {} and "q-unknown" in qrels
    assert all(result.per_query["q-unknown"][name] in (0.0, None) for name in direct.names)
    assert result.per_query["q-unknown"]["CharIoU@5"] == 0.0
    assert "Ceiling" not in result.per_query.get("q3", {})
    assert result.names[:3] == ["Ceiling", "EvidenceRecall@1", "EvidenceRecall@5"] and result.names[-1] == "RR"
    assert 0 < result.mean["nDCG@10"] < 1 and 0 < result.mean["CharRecall@5"] < 1


def test_exported_chunks_and_run_read_back_to_the_same_numbers(case, tmp_path):
    prepared, qrels = case
    for chunk, overlap in ((16, 0), (40, 10)):
        result = evaluate_config(prepared, chunk, overlap, cuts=[1, 3, 5, 10], qrels=qrels, measures=MEASURES)
        table = chunk_table(prepared.corpus, chunk, overlap)
        exported = "\n".join(chunk_lines(table, prepared.documents)) + "\n"
        run = "\n".join(run_lines(result.chunk_run, "bm25")) + "\n"
        chunks = read_chunks(exported, prepared.documents)
        again = evaluate_chunks_run(prepared, chunks, parse_run(run), cuts=[1, 3, 5, 10], qrels=qrels,
                                    measures=MEASURES)
        assert again.per_query == result.per_query and again.mean == result.mean and again.names == result.names
        assert again.document_run == result.document_run and again.chunk_run == result.chunk_run
        assert again.footprint == result.footprint  # the windows' own tokens, counted from their characters


def test_any_chunks_are_measured_with_the_same_measures(case):
    prepared, qrels = case
    body = prepared.documents["doc-1"].body
    chunks = {"mine-1": ("doc-1", 0, len(body)), "mine-2": ("doc-2", 0, 5)}
    result = evaluate_chunks_run(prepared, chunks, {"q0": {"mine-2": 2.0, "mine-1": 1.0}}, cuts=[1, 2], qrels=qrels,
                                 measures="P@1")
    assert result.footprint.chunks == 2 and result.chunk is None
    assert result.document_run["q0"] == {"doc-2": 2.0, "doc-1": 1.0} and result.document_run["q1"] == {}


def test_a_run_over_unknown_chunks_is_an_error_naming_both_files(case):
    prepared, _ = case
    with pytest.raises(LabError) as caught:
        evaluate_chunks_run(prepared, {"c1": ("doc-1", 0, 3)}, {"q1": {"c9": 1.0}}, chunks_name="mine.jsonl",
                            run_name="dense.run")
    assert caught.value.render("en") == ("dense.run: chunk 'c9' (query 'q1') is not in mine.jsonl; a run over your "
                                         "chunks must use their chunk_id")
    assert str(caught.value) == ("«dense.run»: el chunk «c9» (consulta «q1») no está en «mine.jsonl»; un run sobre "
                                 "tus chunks debe usar su chunk_id")


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_during_a_configuration_and_left_as_it_was(case, enabled, monkeypatch):
    """evaluate_config pauses the garbage collector while it works (a collection would only walk the index's
    big tuples) and leaves it as it found it, also when the work fails."""
    import gc

    import raglab_core.corpus.evaluate as evaluate

    prepared, _ = case
    seen = []
    real = evaluate.chunk_table

    def table(*args):
        seen.append(gc.isenabled())
        return real(*args)

    monkeypatch.setattr(evaluate, "chunk_table", table)
    (gc.enable if enabled else gc.disable)()
    try:
        evaluate_config(prepared, 24, 8, cuts=[1])
        assert seen == [False] and gc.isenabled() == enabled
        monkeypatch.setattr(evaluate, "Bm25", None)  # the work fails: not callable
        with pytest.raises(TypeError):
            evaluate_config(prepared, 24, 8, cuts=[1])
        assert gc.isenabled() == enabled
    finally:
        gc.enable()
