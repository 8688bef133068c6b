"""«Tu corpus» in the page: the sample (one document, 76 questions) with the panel's 6 configurations, timed.

    .venv/bin/python bench/corpus_page.py [--dist dist] [--runs 3] [--phone] [--screenshot docs/corpus-panel.png]

Loads the built page (the precompressed host), waits for Python, presses «Probar con datos de ejemplo» and
reports, from the click: when the first and the last configuration's row were shown, and when the whole panel
(comparisons, plot, reading) was. Each run is a fresh page in one browser (its HTTP cache warm, as a reader's
second visit). ``--phone``: Chromium held to half a CPU (harness.PhoneCpu). ``--screenshot``: the results at
1280 px, after the last run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from harness import CHROMIUM_ARGS, ROOT, PhoneCpu, find_chromium, serve

TIMING = """() => new Promise((resolve) => {
  const rows = document.querySelector('[data-corpus-output="rows"]');
  const status = document.querySelector('[data-corpus-status]');
  const start = performance.now();
  const times = [];
  new MutationObserver(() => {
    const n = rows.querySelectorAll('tr').length;
    if (n > times.length) times.push(performance.now() - start);
  }).observe(rows, {childList: true});
  new MutationObserver(() => {
    if (status.textContent === 'Medición terminada.') resolve({rows: times, done: performance.now() - start});
  }).observe(status, {childList: true, characterData: true, subtree: true});
  document.querySelector('[data-action="corpus-sample"]').click();
})"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--phone", action="store_true")
    parser.add_argument("--screenshot", type=Path)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    chromium = find_chromium()
    phone = PhoneCpu(chromium) if args.phone else None
    executable = phone.path if phone and phone.path else chromium
    server, url = serve(args.dist)
    results = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
            for _ in range(args.runs):
                page = context.new_page()
                page.goto(url)
                page.wait_for_selector("html[data-ready=true]", timeout=120_000)
                results.append(page.evaluate(TIMING))
                if args.screenshot and len(results) == args.runs:
                    page.wait_for_selector('[data-corpus-detail="columns"] .query-detail-run')
                    page.locator('[data-panel="corpus"]').screenshot(path=str(args.screenshot))
                page.close()
            browser.close()
    finally:
        server.shutdown()
        if phone:
            phone.close()
    profile = "phone (half a CPU)" if args.phone else "desktop"
    print(f"«Tu corpus», sample, 6 configurations, {profile}, {args.runs} runs (ms from the click, median):")
    for label, values in (("first row", [r["rows"][0] for r in results]), ("last row", [r["rows"][-1] for r in results]),
                          ("whole panel", [r["done"] for r in results])):
        print(f"  {label:<12} {statistics.median(values):8.0f}   ({', '.join(f'{v:.0f}' for v in values)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
