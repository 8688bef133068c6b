"""Make the synthetic judge and the extra runs of «Tus datos»' sample (site_src/data/sample/), seeded.

Run: .venv/bin/python bench/make_judges_sample.py   (rewrites qrels-llm.txt, run-hibrida.txt, run-rerank.txt and
run-splade.txt; never qrels.txt, run-bm25.txt or run-densa.txt, which it reads)

Everything it writes is SYNTHETIC, built to show one thing: a lenient judge that keeps the runs' order
(Kendall's τ high) and yet flips one pair that people's judgments separate significantly.

* ``qrels-llm.txt``: an "LLM judge" over exactly the 1,000 (query, document) pairs of ``qrels.txt``. Some of the
  documents people graded 0 are *distractors*: on topic, but they do not answer the query (one in three,
  drawn per document). The judge grades a distractor 1 or 2, as UMBRELA-style judges do, and otherwise
  follows people's grade with some noise, a little upwards more often than downwards.
* ``run-hibrida.txt``: a hybrid retriever, better than both runs of the sample.
* ``run-splade.txt``: a learned sparse retriever, between ``run-densa.txt`` and ``run-hibrida.txt``.
* ``run-rerank.txt``: an LLM reranker that shares the judge's taste: it ranks the distractors high. People's
  judgments put it clearly below ``run-hibrida.txt``; the judge's put it above.

Each run holds 30 documents per query, from the same documents the sample's runs retrieve (``docNN-001`` to
``docNN-060``, judged or not), as ``run-bm25.txt`` and ``run-densa.txt`` do.
"""

import pathlib
import random

ROOT = pathlib.Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "site_src" / "data" / "sample"
SEED = 50
DEPTH = 30
DOCUMENTS = 60
DISTRACTORS = 1 / 3
"""The share of people's 0s that are on topic but do not answer the query."""

# the judge: its grade's distribution given people's (0 split in distractor / not)
JUDGE = {
    "distractor": ((1, 0.45), (2, 0.55)),
    0: ((0, 0.88), (1, 0.12)),
    1: ((0, 0.2), (1, 0.5), (2, 0.3)),
    2: ((1, 0.2), (2, 0.5), (3, 0.3)),
    3: ((2, 0.3), (3, 0.7)),
}

# each run's score: weight of people's grade, weight of "on topic" (a distractor), noise's sd
RUNS = {
    "hibrida": (1.0, 0.0, 0.9),
    "splade": (0.85, 0.0, 1.1),
    "rerank": (1.0, 1.8, 0.6),
}


def draw(rng, choices):
    x, total = rng.random(), 0.0
    for value, weight in choices:
        total += weight
        if x < total:
            return value
    return choices[-1][0]


def read_qrels(path):
    qrels = {}
    for line in path.read_text("utf-8").splitlines():
        qid, _, docid, grade = line.split()
        qrels.setdefault(qid, {})[docid] = int(grade)
    return qrels


def main():
    rng = random.Random(SEED)
    qrels = read_qrels(SAMPLE / "qrels.txt")
    distractor = {(qid, docid): grade == 0 and rng.random() < DISTRACTORS
                  for qid, judged in qrels.items() for docid, grade in judged.items()}
    lines = []
    for qid, judged in qrels.items():
        for docid, grade in judged.items():
            judge = draw(rng, JUDGE["distractor" if distractor[qid, docid] else grade])
            lines.append(f"{qid} 0 {docid} {judge}\n")
    (SAMPLE / "qrels-llm.txt").write_text("".join(lines), "utf-8")
    for name, (weight, topical, noise) in RUNS.items():
        lines = []
        for qid, judged in qrels.items():
            number = qid[1:]
            scores = {}
            for index in range(1, DOCUMENTS + 1):
                docid = f"doc{number}-{index:03d}"
                grade = judged.get(docid, 0)
                on_topic = 1.0 if distractor.get((qid, docid)) else 0.0
                # an unjudged document is one no pool found: it scores low on average
                base = weight * grade + topical * on_topic - (0.8 if docid not in judged else 0.0)
                scores[docid] = base + rng.gauss(0.0, noise)
            ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:DEPTH]
            low = ranked[-1][1]
            for rank, (docid, score) in enumerate(ranked, 1):
                lines.append(f"{qid} Q0 {docid} {rank} {score - low + 0.5:.4f} {name}\n")
        (SAMPLE / f"run-{name}.txt").write_text("".join(lines), "utf-8")


if __name__ == "__main__":
    main()
