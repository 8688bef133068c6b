"""Chroma's whole chunking dataset: our character measures against Chroma's own code, question by question.

Run: .venv/bin/python bench/chroma_check.py DIR [C:O ...]
DIR is a copy of chunking_evaluation's ``evaluation_framework/general_evaluation_data`` folder
(https://github.com/brandonstarxel/chunking_evaluation, MIT): ``corpora/*.md`` (5 corpora) and
``questions_df.csv`` (472 questions, 790 references). Not a test (the dataset is 1.4 MB and stays out of
the repository): for each configuration (default 256:0 and 512:128) it retrieves each question's chunks with
our BM25 over all five corpora, then computes CharRecall, CharPrecision and CharIoU at k = 1, 3, 5 with
``raglab_core.corpus`` and with Chroma's ``_scores_from_dataset_and_retrievals`` (the copy in
``tests/core/corpus/test_corpus_measures.py``) on the same retrieved chunks, and prints how many of the
questions agree exactly, the means, and the ceiling.
"""

import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from raglab_core.corpus.chroma import read_questions  # noqa: E402
from raglab_core.corpus.chunks import chunk_table  # noqa: E402
from raglab_core.corpus.evaluate import evaluate_config, prepare  # noqa: E402
from raglab_core.corpus.files import read_folder, read_text  # noqa: E402
from tests.core.corpus.test_corpus_measures import chroma_scores  # noqa: E402

CUTS = (1, 3, 5)


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    folder = pathlib.Path(argv[0])
    configs = [tuple(map(int, item.split(":"))) for item in argv[1:]] or [(256, 0), (512, 128)]
    started = time.perf_counter()
    documents = read_folder(str(folder / "corpora"))
    queries, spans = read_questions(read_text(str(folder / "questions_df.csv"), "evidence"), documents)
    prepared = prepare(documents, queries, spans)
    print(f"{len(documents)} corpora, {prepared.corpus.tokens} tokens, {len(queries)} questions, {len(spans)} spans "
          f"(read and tokenized in {time.perf_counter() - started:.1f} s)")
    stems = {doc_id: doc_id.rsplit(".", 1)[0] for doc_id in documents}
    by_query = {}
    for span in spans:
        by_query.setdefault(span.query_id, (stems[span.doc_id], []))[1].append((span.start, span.end))
    questions = [by_query[qid] for qid in queries]
    print(f"{'config':>8} {'k':>2} {'agree':>9} {'CharRecall':>11} {'CharPrecision':>14} {'CharIoU':>9} "
          f"{'Ceiling':>8} {'seconds':>8}")
    failures = 0
    for chunk, overlap in configs:
        started = time.perf_counter()
        result = evaluate_config(prepared, chunk, overlap, cuts=CUTS)
        seconds = time.perf_counter() - started
        table = chunk_table(prepared.corpus, chunk, overlap)
        characters = {chunk_id: (stems[prepared.corpus.ids[table.documents[i]]], *table.characters(i))
                      for i, chunk_id in enumerate(table.chunk_ids)}
        for k in CUTS:
            retrieved = [[characters[chunk_id] for chunk_id in list(result.chunk_run[qid])[:k]] for qid in queries]
            theirs = chroma_scores(questions, retrieved, k)
            agree = sum(
                (result.per_query[qid][f"CharRecall@{k}"], result.per_query[qid][f"CharPrecision@{k}"],
                 result.per_query[qid][f"CharIoU@{k}"]) == scores
                for qid, scores in zip(queries, theirs))
            failures += len(queries) - agree
            print(f"{chunk}:{overlap:<4} {k:>2} {agree:>5}/{len(queries)} {result.mean[f'CharRecall@{k}']:>11.4f} "
                  f"{result.mean[f'CharPrecision@{k}']:>14.4f} {result.mean[f'CharIoU@{k}']:>9.4f} "
                  f"{result.mean['Ceiling']:>8.4f} {seconds:>8.1f}")
    print("every question agrees exactly" if not failures else f"{failures} question-cuts disagree")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
