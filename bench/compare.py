"""Time to interactive of two or more builds of the page, cold and repeat, loads interleaved.

    .venv/bin/python bench/compare.py [--runs 8] DIST DIST [DIST …]

Times on a shared 2-core machine drift by a third between runs, so a before/after comparison is
only fair within one run: this serves each directory (bench/harness.py) and loads them in
turn, run after run. Cold: a fresh browser context per load. Repeat: one context per build,
warmed by one load (service worker installed, decoded snapshot kept), then reloaded. Prints the
median, min and max of navigation start → "raglab:ready" for each, and of the first contentful
paint (cold). To build an older commit:
``git worktree add /tmp/old <commit> && cd /tmp/old && ln -s $PWD/../main/node_modules . &&
<main>/.venv/bin/python build.py build --out /tmp/dist-old``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from harness import CHROMIUM_ARGS, find_chromium, serve
from loads import make_repeat_visit

READY = "performance.getEntriesByName('raglab:ready')[0].startTime"
FCP = "(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: NaN}).startTime"


def load(context, url: str, paints: list[float] | None = None) -> float:
    """Time to interactive of one load; its first contentful paint goes to ``paints``."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("html[data-ready=true]", state="attached", timeout=120_000)
    ready = page.evaluate(READY)
    if paints is not None:
        paints.append(page.evaluate(FCP))
    page.close()
    return ready


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("dists", type=Path, nargs="+")
    args = parser.parse_args()
    for dist in args.dists:
        if not (dist / "index.html").exists():
            sys.exit(f"{dist}/index.html not found")

    from playwright.sync_api import sync_playwright

    servers = [(str(dist), *serve(dist)) for dist in args.dists]
    cold: dict[str, list[float]] = {}
    paint: dict[str, list[float]] = {}
    repeat: dict[str, list[float]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        for _ in range(args.runs):
            for name, _httpd, url in servers:
                context = browser.new_context()
                cold.setdefault(name, []).append(load(context, url, paint.setdefault(name, [])))
                context.close()
        contexts = []
        for name, _httpd, url in servers:
            context = browser.new_context()
            make_repeat_visit(context, url)
            contexts.append((name, context, url))
        for _ in range(args.runs):
            for name, context, url in contexts:
                repeat.setdefault(name, []).append(load(context, url))
        browser.close()
    for _name, httpd, _url in servers:
        httpd.shutdown()
    print(f"{args.runs} loads each, interleaved (ms: median [min–max])")
    for visit, results in (("cold, time to interactive", cold), ("repeat, time to interactive", repeat),
                           ("cold, first contentful paint", paint)):
        for name, values in results.items():
            print(f"{visit:29} {name:30} {statistics.median(values):7.0f} [{min(values):.0f}–{max(values):.0f}]")


if __name__ == "__main__":
    main()
