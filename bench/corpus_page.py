"""«Tu corpus» in the page: the sample (one document, 76 questions) with the panel's 6 configurations, timed.

    .venv/bin/python bench/corpus_page.py [--dist dist] [--runs 3] [--phone] [--screenshot docs/corpus-panel.png]

Loads the built page (the precompressed host), waits for Python, presses «Probar con datos de ejemplo» and
reports, from the click: when the first and the last configuration's row were shown, and when the whole panel
(comparisons, plot, reading) was. Each run is a fresh page in one browser (its HTTP cache warm, as a reader's
second visit). ``--phone``: Chromium held to half a CPU (harness.PhoneCpu). ``--screenshot``: the results at
1280 px, after the last run.

``--scifact``: instead of the sample, bench/corpus.py's SciFact-sized synthetic corpus (5,000 documents,
1.5 M tokens, 300 queries), written as BEIR ``corpus.jsonl`` and ``queries.jsonl`` with one 200-character
evidence span per query (in a document drawn at random: the measures' values mean nothing here, their
cost is the point), given to the panel's file inputs and measured with the 9 configurations of
bench/corpus.py. Also reports Chromium's memory (summed PSS of its processes, bench/byo.py's sampler):
its peak during the measurement, and how much above the page's before the click, which is the worker's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from harness import CHROMIUM_ARGS, ROOT, PhoneCpu, find_chromium, serve

NINE = "128:0 128:16 128:32 256:0 256:32 256:64 512:0 512:64 512:128"

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
  document.querySelector(ACTION).click();
})"""


def scifact_files(folder: Path) -> dict[str, Path]:
    """bench/corpus.py's synthetic corpus as the panel's three files: ``{slot: path}``."""
    import json
    import random

    from corpus import synthetic

    documents, queries = synthetic(1)
    rng = random.Random(7)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {slot: folder / name for slot, name in
             (("corpus", "corpus.jsonl"), ("queries", "queries.jsonl"), ("evidence", "evidence.jsonl"))}
    with paths["corpus"].open("w", encoding="utf-8") as out:
        for document in documents.values():
            out.write(json.dumps({"_id": document.id, "title": document.title, "text": document.text}) + "\n")
    with paths["queries"].open("w", encoding="utf-8") as out:
        for qid, text in queries.items():
            out.write(json.dumps({"_id": qid, "text": text}) + "\n")
    ids = list(documents)
    with paths["evidence"].open("w", encoding="utf-8") as out:
        for qid in queries:
            document = documents[rng.choice(ids)]
            start = rng.randrange(max(1, len(document.text) - 200))
            out.write(json.dumps({"query_id": qid, "doc_id": document.id, "start": start,
                                  "end": min(start + 200, len(document.text))}) + "\n")
    return paths


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--phone", action="store_true")
    parser.add_argument("--screenshot", type=Path)
    parser.add_argument("--scifact", action="store_true", help="the SciFact-sized synthetic corpus, 9 configurations")
    parser.add_argument("--data", type=Path, default=Path("/tmp/raglab-corpus-page"))
    args = parser.parse_args()
    files = scifact_files(args.data) if args.scifact else None
    action = '[data-action="corpus-run"]' if files else '[data-action="corpus-sample"]'
    sampler = None
    if files:
        from byo import PeakSampler
        sampler = PeakSampler()
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
                if files:
                    for slot, path in files.items():
                        page.set_input_files(f'[data-panel="corpus"] [data-file-for="{slot}"]', str(path))
                    page.fill('[data-setting="sweep"]', NINE)
                    sampler.reset()
                    before = sampler.peak
                results.append(page.evaluate(TIMING.replace("ACTION", repr(action))))
                if files:
                    error = page.locator("[data-corpus-error-text]").text_content()
                    results[-1]["memory"] = (sampler.peak, sampler.peak - before, error)
                if args.screenshot and len(results) == args.runs:
                    page.wait_for_selector('[data-corpus-detail="columns"] .query-detail-run')
                    page.locator('[data-panel="corpus"]').screenshot(path=str(args.screenshot))
                page.close()
            browser.close()
    finally:
        server.shutdown()
        if phone:
            phone.close()
        if sampler:
            sampler.stop()
    profile = "phone (half a CPU)" if args.phone else "desktop"
    what = "SciFact-sized synthetic corpus, 9 configurations" if files else "sample, 6 configurations"
    print(f"«Tu corpus», {what}, {profile}, {args.runs} runs (ms from the click, median):")
    for label, values in (("first row", [r["rows"][0] for r in results]), ("last row", [r["rows"][-1] for r in results]),
                          ("whole panel", [r["done"] for r in results])):
        print(f"  {label:<12} {statistics.median(values):8.0f}   ({', '.join(f'{v:.0f}' for v in values)})")
    for peak, above, error in (r["memory"] for r in results if "memory" in r):
        print(f"  Chromium's peak {peak / 1e6:.0f} MB (PSS), {above / 1e6:.0f} MB above the page's before the click"
              + (f"; error shown: {error}" if error and error.strip() else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
