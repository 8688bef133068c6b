"""Benchmark of the core in CPython: compute() on the default state, footprint() on 10**12 tokens.

Run: .venv/bin/python bench/core.py   (not a test; prints a table)
"""

import json
import pathlib
import statistics
import sys
import timeit

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from raglab_core import chunking, compute  # noqa: E402
from raglab_core.lab import default_state  # noqa: E402


def per_call(fn, repeat=7):
    """Median and min seconds per call over ``repeat`` timeit rounds."""
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    rounds = [t / number for t in timer.repeat(repeat=repeat, number=number)]
    return statistics.median(rounds), min(rounds)


def main():
    scenario = json.loads((ROOT / "site_src/data/scenario.json").read_text("utf-8"))
    state = default_state(scenario)
    cases = [
        ("compute(default state)", lambda: compute(state), 1e-3),
        ("compute(state with 3 invalid fields)", lambda: compute({**state, "k": "x", "solape": "9999", "grades": "1"}), 1e-3),
        ("footprint(10**6 docs x 10**6 tokens)", lambda: chunking.footprint(10**6, 10**6, 512, 64), None),
        # O(1): a loop over the 10**12 windows would take hours (this was a wall-clock test once).
        ("footprint(10**12 tokens, stride 1)", lambda: chunking.footprint(10**6, 10**6, 256, 255), 0.05),
    ]
    print(f"{'case':40} {'median':>12} {'min':>12} {'target':>10}")
    for name, fn, target in cases:
        median, best = per_call(fn)
        goal = f"<= {target * 1e3:.0f} ms" if target else ""
        print(f"{name:40} {median * 1e6:9.1f} µs {best * 1e6:9.1f} µs {goal:>10}")
    print(f"python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
