"""Benchmark: the evaluator's per-query scoring (its 7 M-line hot loop) at this tree against another revision.

Run: .venv/bin/python bench/kernel.py [--base REV] [--reps 21] [--each]   (not a test; prints two lines)

7,000 queries shaped like MS MARCO dev (1,000 scored documents, 100 judgments each, fixed seed) are
ranked once (``trec_order``, unchanged by the kernel's move), then every query's grades are scored
with ``nDCG@10`` and ``nDCG(dcg='exp-log2')@10`` alone, and with those plus the default measures.
The two trees (this one and ``REV``, default ``846b345``: before the DCG kernel moved into
``raglab_core.metrics``) alternate, run after run; each side's best CPU time (``process_time``: the
other processes on a shared machine do not count) is printed, with their ratio and whether every
value is identical. ``--each`` adds one line per measure, each scored alone (with ``P@10`` and
``R_cap@100``, which the default measures leave out).
"""

import argparse
import importlib
import io
import pathlib
import random
import subprocess
import sys
import tarfile
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
MEASURES = "nDCG@10 R@100 RR@10 Success@10 AP@100 Judged@10 nDCG(dcg='exp-log2')@10"
EACH = "P@10 R_cap@100"  # scored only with --each


def load(root):
    for name in [m for m in sys.modules if m == "raglab_core" or m.startswith("raglab_core.")]:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module("raglab_core.runs.evaluation")
    finally:
        sys.path.pop(0)


def collection(seed=7, queries=7000):
    rng = random.Random(seed)
    for _ in range(queries):
        judged = {f"d{i}": rng.choice([0, 0, 0, 1, 2, 3]) for i in rng.sample(range(1000), 100)}
        yield judged, {f"d{i}": rng.random() for i in range(1000)}


def prepare(evaluation, queries):
    measures = evaluation.parse_measures(MEASURES + " " + EACH)
    ranked = [([judged.get(d) for d in evaluation.trec_order(scores, 100)], list(judged.values()))
              for judged, scores in queries]
    return measures, ranked


def score(prepared, names):
    measures, ranked = prepared
    measures = [m for m in measures if str(m) in names]
    start = time.process_time()
    values = [tuple(m.value(grades, judgments) for m in measures) for grades, judgments in ranked]
    return time.process_time() - start, values


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="846b345")
    parser.add_argument("--reps", type=int, default=21)
    parser.add_argument("--each", action="store_true", help="also time each measure alone")
    args = parser.parse_args()
    queries = list(collection())
    with tempfile.TemporaryDirectory() as base:
        archive = subprocess.run(["git", "archive", args.base, "raglab_core"], cwd=ROOT, check=True, capture_output=True)
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(base, filter="data")
        sides = {"base": prepare(load(base), queries), "this": prepare(load(ROOT), queries)}
    ndcg = [name for name in MEASURES.split() if name.startswith("nDCG")]
    runs = [("nDCG@10, both gains", ndcg), ("all 7 measures     ", MEASURES.split())]
    if args.each:
        runs += [(f"{name:<19}", [name]) for name in MEASURES.split() + EACH.split()]
    for label, names in runs:
        best = {"base": float("inf"), "this": float("inf")}
        for rep in range(args.reps):
            for side in (("base", "this") if rep % 2 else ("this", "base")):
                best[side] = min(best[side], score(sides[side], names)[0])
        same = score(sides["base"], names)[1] == score(sides["this"], names)[1]
        print(f"{label}: {args.base} {best['base'] * 1000:.1f} ms, this tree {best['this'] * 1000:.1f} ms, "
              f"ratio {best['this'] / best['base']:.3f}, identical values: {same}")


if __name__ == "__main__":
    main()
