"""Random TREC collections for the evaluation tests and the benchmarks (not a test module), and
runs near a run file (:func:`shaken`).

A collection is plain data: ``qrels`` ``{qid: {docid: rel}}`` and runs
``{qid: {docid: score}}``. The generator deliberately produces what breaks
naive evaluators: score ties (scores drawn from a few values, or differing
only beyond single precision, where trec_eval sees ties), unjudged
retrieved documents, judged documents never retrieved, queries only in the
run, queries only in the qrels, queries judged only non-relevant (grade 0),
and grades 0-3.
"""

import random


def random_collection(seed, queries=200, max_docs=40, only_run=10, only_qrels=10):
    """Return ``(qrels, run_a, run_b)``: two runs over the same qrels, run_b a noisy variant of run_a."""
    rng = random.Random(seed)
    qrels, run_a, run_b = {}, {}, {}
    for number in range(queries + only_run + only_qrels):
        qid = f"q{number}"
        pool = [f"d{number}_{i}" for i in range(rng.randint(1, max_docs))]
        if number < queries + only_qrels:  # judged
            judged = rng.sample(pool, rng.randint(1, len(pool)))
            no_relevant = rng.random() < 0.05
            qrels[qid] = {doc: 0 if no_relevant else rng.choice([0, 0, 0, 1, 1, 2, 3]) for doc in judged}
        if number < queries or number >= queries + only_qrels:  # retrieved
            retrieved = rng.sample(pool, rng.randint(1, len(pool)))
            levels = rng.choice([3, 10, 1000, 0])  # few levels -> many ties
            if levels:
                run_a[qid] = {doc: float(rng.randrange(levels)) / 4 for doc in retrieved}
            else:  # distinct doubles, yet equal as C floats (trec_eval's precision): ties again
                run_a[qid] = {doc: 1.0 + rng.randrange(8) * 1e-9 for doc in retrieved}
            run_b[qid] = {
                doc: score + rng.choice([0.0, 0.0, 0.25, -0.25, 1.0]) for doc, score in run_a[qid].items()
            }
    return qrels, run_a, run_b


def big_collection(seed, queries=1000, docs=1000, judged=100):
    """The benchmark's collection: every query ranks ``docs`` documents; ``judged`` of them are judged."""
    rng = random.Random(seed)
    qrels, run = {}, {}
    for number in range(queries):
        qid = str(100000 + number)
        pool = [f"doc{number:04d}-{i:05d}" for i in range(docs)]
        qrels[qid] = {doc: rng.choice((0, 0, 0, 1, 1, 2, 3)) for doc in rng.sample(pool, judged)}
        run[qid] = {doc: round(rng.random() * 30, 4) for doc in pool}
    return qrels, run


def reversed_judge_collection(seed=5, queries=25, docs=8):
    """Reference grades 0..3 and a judge that reverses them (3 − g) on most pairs: run A, which puts the
    reference's best documents first, sinks under the judge, below run C, which ranks at random."""
    rng = random.Random(seed)
    reference, judge, runs = {}, {}, [{}, {}, {}]
    for q in range(queries):
        qid = f"q{q}"
        grades = {f"d{d}": rng.choice([0, 0, 1, 2, 3]) for d in range(docs)}
        reference[qid] = grades
        judge[qid] = {doc: 3 - g if rng.random() < 0.8 else g for doc, g in grades.items()}
        for quality, run in zip((1.0, 0.5, 0.0), runs):
            run[qid] = {doc: quality * g + rng.random() for doc, g in grades.items()}
    return reference, judge, runs


def qrels_lines(qrels):
    """TREC qrels lines, ``qid 0 docid rel``, newline-terminated."""
    for qid, judged in qrels.items():
        for docid, rel in judged.items():
            yield f"{qid} 0 {docid} {rel}\n"


def run_lines(run, tag="test"):
    """TREC run lines, ``qid Q0 docid rank score tag``, each query ranked by score."""
    for qid, scores in run.items():
        ranked = sorted(scores.items(), key=lambda item: -item[1])
        for rank, (docid, score) in enumerate(ranked, start=1):
            yield f"{qid} Q0 {docid} {rank} {score!r} {tag}\n"


def write_lines(path, lines):
    with open(path, "w", encoding="utf-8") as out:
        out.writelines(lines)
    return path


def nudged_run(qrels, run, share, seed):
    """A copy of ``run`` where, in about ``share`` of the queries, one relevant document gains 1.0 in score."""
    rng = random.Random(seed)
    nudged = {}
    for qid, scores in run.items():
        scores = dict(scores)
        relevant = [docid for docid in scores if qrels.get(qid, {}).get(docid, 0) > 0]
        if relevant and rng.random() < share:
            scores[rng.choice(relevant)] += 1.0
        nudged[qid] = scores
    return nudged


def shaken(source, target, seed):
    """``source`` with every score moved by a random amount below 0.3: another run, close to it."""
    draw = random.Random(seed)
    lines = []
    for line in source.read_text().splitlines():
        fields = line.split()
        fields[4] = repr(float(fields[4]) + draw.random() * 0.3)
        lines.append(" ".join(fields))
    target.write_text("\n".join(lines) + "\n")
    return target
