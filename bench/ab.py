"""A/B of two built sites the way bench/page.py's profiles load them, interleaved in one run.

    .venv/bin/python bench/ab.py OLD_DIST NEW_DIST [--profile desktop|phone] [--runs 8]

Build each side first (for a past commit: `git worktree add /tmp/old REV`, link node_modules into
it, then `python build.py --out /tmp/old-dist` there). One browser for the run; each round loads A,
B (the order alternates between rounds) and the plain Pyodide boot, each cold in a context of its
own, and presses the profiles' first key as soon as the page has painted (bench/loads.py's
profile_load). Prints each load, then medians: first contentful paint, first correct interaction,
Python ready, and their ratios to the plain boot of the same run; then the same figures paired
within each round (B − A), which a drift of the machine's speed between rounds does not blur.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

import harness
import loads
from playwright.sync_api import sync_playwright


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--profile", choices=("desktop", "phone"), default="desktop")
    parser.add_argument("--runs", type=int, default=8)
    args = parser.parse_args()
    servers = {"A": harness.serve(args.a), "B": harness.serve(args.b)}
    move = loads.first_move(args.b)
    chromium = harness.find_chromium()
    phone = harness.PhoneCpu(chromium) if args.profile == "phone" else None
    if phone and not phone.path:
        raise SystemExit(f"no phone CPU profile here: {phone.reason}")
    network = harness.FOUR_G if phone else None
    measured = {"A": [], "B": [], "plain": []}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=phone.path if phone else chromium, args=harness.CHROMIUM_ARGS)
            loads.warm_up(browser, servers["A"][1], network, None)
            for round_ in range(args.runs):
                order = ["A", "B"] if round_ % 2 == 0 else ["B", "A"]
                for name in order + ["plain"]:
                    base = servers["A" if name == "plain" else name][1]
                    context = browser.new_context(service_workers="block")
                    if name == "plain":
                        figures = loads.profile_load(context, base + "__plain/", network, None)
                        print(f"plain  ready {figures['tti']:6.0f} ms", flush=True)
                    else:
                        figures = loads.profile_load(context, base, network, None, move)
                        print(f"{name}      paint {figures['fcp']:5.0f}  key {figures['key_down']:5.0f}  correct "
                              f"{figures['first_correct']:5.0f}  ready {figures['tti']:6.0f}  worker created "
                              f"{figures['marks'].get('worker-created', float('nan')):5.0f} ms", flush=True)
                    context.close()
                    measured[name].append(figures)
            browser.close()
    finally:
        if phone:
            phone.close()
        for server, _ in servers.values():
            server.shutdown()
    plain = statistics.median(f["tti"] for f in measured["plain"])
    print(f"\n{args.profile}, {args.runs} rounds; plain ready {plain:.0f} ms (median)")
    print("side  paint  first correct  (plain / it)  ready  (plain / it)   dist")
    for name, dist in (("A", args.a), ("B", args.b)):
        median = lambda key: statistics.median(f[key] for f in measured[name])  # noqa: E731
        print(f"{name}    {median('fcp'):5.0f}  {median('first_correct'):13.0f}  {plain / median('first_correct'):11.1f}×"
              f"  {median('tti'):5.0f}  {plain / median('tti'):11.2f}×   {dist}")
    print("\nB − A within each round (the machine's speed drifts between rounds more than within one):")
    for key, label in (("fcp", "paint"), ("first_correct", "first correct"), ("tti", "Python ready")):
        print(f"  {label:14} {paired(measured['A'], measured['B'], key)}")


def paired(a: list[dict], b: list[dict], key: str) -> str:
    """The median of the rounds' differences B − A for ``key``, their range, and in how many rounds
    B came sooner: a drift of the machine's speed between rounds then cancels out."""
    differences = sorted(y[key] - x[key] for x, y in zip(a, b))
    sooner = sum(difference < 0 for difference in differences)
    return (f"median {statistics.median(differences):+6.0f} ms  [{differences[0]:+.0f} … {differences[-1]:+.0f}]"
            f"  B sooner in {sooner} of {len(differences)} rounds")


if __name__ == "__main__":
    main()
