"""What one page load costs the machine's CPU in the tests' browser (the headless shell, one shared
context as tests/browser/conftest.py makes it): with Python booting from the kept snapshot, with
the worker blocked (the page and the view table only), and about:blank.

    .venv/bin/python bench/page_cpu.py [--dist dist] [--rounds 3] [-- CHROMIUM_FLAG ...]

The figure is machine-wide (/proc/stat, every process), so run it on an idle machine: each load is
followed by a second of idle time, which its figure includes. A Pyodide boot a test avoids saves
the difference between the first two rows (docs/performance.md, «The test suite»). Extra
arguments go to Chromium (e.g. `--js-flags=--no-wasm-tier-up`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from harness import CHROMIUM_ARGS, ROOT, find_test_chromium
from playwright.sync_api import expect, sync_playwright

from raglab_site.devserver import serving

IDLE_AFTER_S = 1.0


def busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy since boot (all but idle and I/O wait)."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def load(context, url: str, kind: str) -> None:
    page = context.new_page()
    if kind == "python":
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=60_000)
    elif kind == "no worker":
        page.route("**/assets/worker.*.js", lambda route: route.abort())
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("data-views", "table", timeout=60_000)
    else:
        page.goto("about:blank")
    page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("chromium_flags", nargs="*")
    args = parser.parse_args()
    kinds = ("python", "no worker", "about:blank")
    spent: dict[str, list[float]] = {kind: [] for kind in kinds}
    with serving(args.dist.resolve()) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_test_chromium(), args=CHROMIUM_ARGS + args.chromium_flags)
        context = browser.new_context(service_workers="block")
        load(context, url, "python")  # the first boot keeps the decoded snapshot, as in the tests
        time.sleep(2.5)
        for _ in range(args.rounds):
            for kind in kinds:
                time.sleep(IDLE_AFTER_S)
                before = busy_seconds()
                load(context, url, kind)
                time.sleep(IDLE_AFTER_S)
                spent[kind].append(busy_seconds() - before)
        browser.close()
    print(f"machine CPU per page load, {args.rounds} rounds (each with {IDLE_AFTER_S:.0f} s of idle after it):")
    for kind in kinds:
        print(f"  {kind:12} median {statistics.median(spent[kind]):.2f} s  (" + ", ".join(f"{s:.2f}" for s in spent[kind]) + ")")


if __name__ == "__main__":
    main()
