"""Benchmark of ``agree``: 100,000 judged pairs and 12 runs of 1,000 documents × 50 queries, against the reference
stack, interleaved in one run.

Run: .venv/bin/python bench/agree.py [--rounds 5] [--profile]   (not a test; prints a table)

The collection is synthetic and seeded: 50 queries, 2,000 documents judged per query by the reference (grades
0–3) and by a lenient, noisy judge (the same pairs), and 12 runs of different quality, each ranking 1,000 of a
query's 2,500 documents (some unjudged). Files are written once, as TREC text, to a temporary folder.

Contenders, each round in turn (the order reverses every other round, so a drift of the machine's speed
between rounds falls on both sides):

* **CLI**: ``python -m raglab_core agree REFERENCE JUDGE RUN×12 --json``, a fresh process, end to end (the
  interpreter's start, reading and evaluating every file twice, the label measures with κ's bootstrap interval,
  the systems' correlations and every pair's randomization test, the JSON);
* **core**: :func:`raglab_core.judges.agreement.agreement_report` alone, in this process, on the qrels and the
  runs' evaluations already read (what the page's worker calls once the files are in);
* **reference stack**: scikit-learn's ``cohen_kappa_score`` (unweighted, linear, quadratic, ``labels``
  0..3), ``krippendorff.alpha`` (ordinal and interval, ``value_domain`` 0..3), pytrec_eval for the 12 runs ×
  2 qrels (``ndcg_cut_10 recall_100 recip_rank success_10 map_cut_100``), scipy's ``kendalltau`` and
  ``spearmanr`` per measure; files parsed in Python, as ir_measures does. It computes less than ours (no
  bootstrap interval, no binary tables, no randomization test, no Holm), so the ratio flatters it.

``--profile`` prints the core call's cProfile, top 25 by cumulative time.
"""

import argparse
import cProfile
import json
import pathlib
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from raglab_core.judges.agreement import agreement_report  # noqa: E402
from raglab_core.runs.inputs import Reading, read_all, slots  # noqa: E402
from raglab_core.runs.decoding import read_text_chunks  # noqa: E402
from raglab_core.runs.measures import DEFAULT_MEASURES, parse_measures  # noqa: E402

QUERIES, JUDGED, POOL, DEPTH, RUNS = 50, 2000, 2500, 1000, 12
PYTREC_MEASURES = {"ndcg_cut_10", "recall_100", "recip_rank", "success_10", "map_cut_100"}


def write_collection(folder: pathlib.Path, seed=50):
    """The reference's and the judge's qrels and the 12 runs, as TREC files in ``folder``; their paths."""
    rng = random.Random(seed)
    reference, judge, lines = [], [], [[] for _ in range(RUNS)]
    for q in range(QUERIES):
        qid = f"q{q:02d}"
        grades = {}
        for d in rng.sample(range(POOL), JUDGED):
            grade = rng.choice((0, 0, 0, 0, 1, 1, 2, 3))
            lenient = grade + (1 if rng.random() < 0.3 else 0) - (1 if rng.random() < 0.1 else 0)
            grades[f"d{q:02d}-{d:04d}"] = grade
            reference.append(f"{qid} 0 d{q:02d}-{d:04d} {grade}\n")
            judge.append(f"{qid} 0 d{q:02d}-{d:04d} {min(3, max(0, lenient))}\n")
        for r in range(RUNS):
            quality = 0.2 + r / RUNS
            scores = {f"d{q:02d}-{d:04d}": 0.0 for d in range(POOL)}
            for docid in scores:
                scores[docid] = quality * grades.get(docid, 0) + rng.random() * 3
            ranked = sorted(scores.items(), key=lambda item: -item[1])[:DEPTH]
            lines[r] += [f"{qid} Q0 {docid} {rank} {score:.6f} r{r}\n" for rank, (docid, score) in enumerate(ranked, 1)]
    paths = [folder / "reference.txt", folder / "judge.txt"] + [folder / f"run{r:02d}.txt" for r in range(RUNS)]
    for path, text in zip(paths, [reference, judge, *lines]):
        path.write_text("".join(text), "utf-8")
    return [str(path) for path in paths]


def cli(paths):
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "raglab_core", "agree", *paths, "--json"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    elapsed = time.perf_counter() - started
    return elapsed, json.loads(done.stdout)


def read_inputs(paths):
    """The core's inputs, read as ``agree`` reads them: both qrels, and each run once, evaluated with both."""
    measures = parse_measures(DEFAULT_MEASURES)
    runs = paths[2:]
    judged = read_all(Reading(paths[1], [], measures), lambda slot: read_text_chunks(paths[1]))
    reading = Reading(paths[0], runs, measures, also=judged.qrels)
    files = dict(reading.files)
    read_all(reading, lambda slot: read_text_chunks(files[slot]))
    names = [pathlib.Path(path).name for path in runs]
    evaluated = [(name, reading.evaluations[slot], reading.also_evaluations[slot])
                 for slot, name in zip(slots(len(runs)), names)]
    return reading.qrels, judged.qrels, evaluated


def core(inputs):
    reference, judge, runs = inputs
    started = time.perf_counter()
    report = agreement_report("reference.txt", reference, "judge.txt", judge, runs)
    return time.perf_counter() - started, report


def parse_qrels(path):
    qrels = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            qid, _, docid, grade = line.split()
            qrels.setdefault(qid, {})[docid] = int(grade)
    return qrels


def parse_run(path):
    run = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            qid, _, docid, _, score, _ = line.split()
            run.setdefault(qid, {})[docid] = float(score)
    return run


def reference_stack(paths):
    import krippendorff
    import numpy as np
    import pytrec_eval
    from scipy.stats import kendalltau, spearmanr
    from sklearn.metrics import cohen_kappa_score

    started = time.perf_counter()
    ours, theirs = parse_qrels(paths[0]), parse_qrels(paths[1])
    pairs = [(qid, docid) for qid, judged in ours.items() for docid in judged if docid in theirs.get(qid, {})]
    a = np.array([ours[q][d] for q, d in pairs])
    b = np.array([theirs[q][d] for q, d in pairs])
    found = {"kappa": cohen_kappa_score(a, b)}
    for weights in ("linear", "quadratic"):
        found[f"kappa_{weights}"] = cohen_kappa_score(a, b, labels=range(4), weights=weights)
    for level in ("ordinal", "interval"):
        found[f"alpha_{level}"] = krippendorff.alpha(np.array([a, b]), value_domain=range(4),
                                                     level_of_measurement=level)
    runs = [parse_run(path) for path in paths[2:]]
    means = []
    for qrels in (ours, theirs):
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, PYTREC_MEASURES)
        side = []
        for run in runs:
            per_query = evaluator.evaluate(run)
            side.append({m: statistics.fmean(v[m] for v in per_query.values()) for m in next(iter(per_query.values()))})
        means.append(side)
    with warnings.catch_warnings():  # success_10 is 1 for every run: scipy warns, and gives nan
        warnings.simplefilter("ignore")
        for measure in means[0][0]:
            x = [run[measure] for run in means[0]]
            y = [run[measure] for run in means[1]]
            found[f"tau {measure}"] = kendalltau(x, y).statistic
            found[f"rho {measure}"] = spearmanr(x, y).statistic
    return time.perf_counter() - started, found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        paths = write_collection(pathlib.Path(folder))
        started = time.perf_counter()
        inputs = read_inputs(paths)
        print(f"{JUDGED * QUERIES:,} pairs, {RUNS} runs × {QUERIES} queries × {DEPTH} documents; "
              f"read and evaluated in process in {time.perf_counter() - started:.2f} s", file=sys.stderr)
        if args.profile:
            profile = cProfile.Profile()
            profile.runcall(agreement_report, "reference.txt", inputs[0], "judge.txt", inputs[1], inputs[2])
            pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
            return
        contenders = {"CLI, agree --json (fresh process)": lambda: cli(paths),
                      "core, agreement_report alone": lambda: core(inputs),
                      "reference stack": lambda: reference_stack(paths)}
        times = {name: [] for name in contenders}
        results = {}
        for round_ in range(args.rounds):
            order = list(contenders) if round_ % 2 == 0 else list(contenders)[::-1]
            for name in order:
                elapsed, results[name] = contenders[name]()
                times[name].append(elapsed)
                print(f"  round {round_ + 1}: {name:36} {elapsed:6.2f} s", file=sys.stderr, flush=True)
        labels = results["core, agreement_report alone"]["labels"]
        found = results["reference stack"]
        for key in ("kappa", "kappa_linear", "kappa_quadratic", "alpha_ordinal", "alpha_interval"):
            if abs(labels[key] - found[key]) >= 1e-9:  # a benchmark of different answers means nothing
                raise SystemExit(f"{key}: ours {labels[key]}, the reference stack's {found[key]}")
        if results["CLI, agree --json (fresh process)"]["labels"] != labels:
            raise SystemExit("the CLI's labels differ from the core call's")
        stack = statistics.median(times["reference stack"])
        print(f"\n| contender | median of {args.rounds} | min | ÷ reference stack |\n|---|---:|---:|---:|")
        for name, measured in times.items():
            median = statistics.median(measured)
            print(f"| {name} | {median:.2f} s | {min(measured):.2f} s | {median / stack:.2f} |")
        print("\nThe label measures equal the reference stack's to 1e-9, and the CLI's equal the core's.")


if __name__ == "__main__":
    main()
