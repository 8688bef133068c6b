"""The judging page (dist/juzgar/): a 50 MB corpus read into a job (with «Cancelar» once on the way), the
next pair after a grade key, over 200 keys, and a pool of 12 runs × 50 queries × 1,000 documents.

    .venv/bin/python bench/judging_page.py [--dist dist] [--keys 200]

The corpus: BEIR JSONL, 50 MB of 300-word documents; 50 queries, one run of 5 documents each (250 pairs).
The latency is measured in the page: from the key's keydown (a capturing listener) to the change of the
judging view's data-index/data-doc (a MutationObserver), which comes after the grade's IndexedDB
transaction has committed and Python has answered the next pair's view. The pool: 12 TREC runs of 50 queries ×
1,000 documents (600,000 lines, about 19 MB), depth 10, over a corpus of 2,000 short documents; timed from
«Empezar a juzgar» to the job shown (the runs read and pooled, the pooled pairs' texts kept). Desktop profile,
full Chromium.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from raglab_site.devserver import serving  # noqa: E402
from tests.support.chromium import CHROMIUM_ARGS, find_test_chromium  # noqa: E402

WORDS = "el gato duerme sobre la alfombra mientras la lluvia cae en la ciudad de noche recuperación consulta".split()


def make_files(folder: pathlib.Path, size: int = 50_000_000) -> int:
    rng = random.Random(1)
    count = 0
    with open(folder / "corpus.jsonl", "w", encoding="utf-8") as out:
        while out.tell() < size:
            text = " ".join(rng.choice(WORDS) for _ in range(300))
            out.write(json.dumps({"_id": f"d{count}", "title": f"Doc {count}", "text": text}) + "\n")
            count += 1
    (folder / "queries.tsv").write_text("".join(f"q{q}\tgato lluvia {q}\n" for q in range(50)), encoding="utf-8")
    lines = [f"q{q} Q0 d{rng.randrange(count)} {r} {10 - r} x\n" for q in range(50) for r in range(1, 6)]
    (folder / "run.txt").write_text("".join(lines), encoding="utf-8")
    return len({line.split()[0] + line.split()[2] for line in lines})


def make_pool_files(folder: pathlib.Path) -> int:
    """12 runs of 50 queries × 1,000 documents over a corpus of 2,000 short ones; the depth-10 pool's size."""
    rng = random.Random(2)
    with open(folder / "corpus.jsonl", "w", encoding="utf-8") as out:
        for doc in range(2000):
            out.write(json.dumps({"_id": f"d{doc}", "title": f"Doc {doc}", "text": "gato lluvia " * 20}) + "\n")
    pooled = set()
    for index in range(12):
        lines = []
        for q in range(50):
            docs = rng.sample(range(2000), 1000)
            lines += [f"q{q} Q0 d{doc} {rank} {1000 - rank} r{index}\n" for rank, doc in enumerate(docs, 1)]
            pooled.update((q, doc) for doc in docs[:10])
        (folder / f"run{index}.txt").write_text("".join(lines), encoding="utf-8")
    return len(pooled)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=pathlib.Path, default=ROOT / "dist")
    parser.add_argument("--keys", type=int, default=200)
    parser.add_argument("--pool-only", action="store_true", help="only the pool of 12 runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary, serving(args.dist) as url, sync_playwright() as playwright:
        folder = pathlib.Path(temporary)
        pairs = make_files(folder, 1_000_000 if args.pool_only else 50_000_000)
        browser = playwright.chromium.launch(executable_path=find_test_chromium(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        if args.pool_only:
            pool(browser, url, folder)
            browser.close()
            return 0
        page.goto(url + "juzgar/")
        expect(page.locator("html")).to_have_attribute("data-judge-ready", "true", timeout=90_000)
        for slot, name in (("queries", "queries.tsv"), ("corpus", "corpus.jsonl"), ("run-a", "run.txt")):
            page.locator(f'[data-file-for="{slot}"]').set_input_files(str(folder / name))
        status = page.locator("[data-judge-status]")
        page.locator('[data-action="start-judging"]').click()
        expect(status).to_contain_text("corpus.jsonl» (", timeout=60_000)
        print("on the way:", status.text_content())
        page.locator('[data-action="cancel"]').click()
        expect(status).to_have_text(page.evaluate("() => JSON.parse(document.getElementById('juzgar-config').textContent).words.cancelled"))
        expect(page.locator("html")).to_have_attribute("data-judge-ready", "true", timeout=90_000)
        started = time.monotonic()
        page.locator('[data-action="start-judging"]').click()
        progress = page.locator("[data-judging-progress]")
        expect(progress).to_have_attribute("data-total", str(pairs), timeout=300_000)
        print(f"50 MB corpus read and the job made: {time.monotonic() - started:.1f} s ({pairs} pairs)")
        page.evaluate("""() => {
          window.latencies = []; let pressed = 0;
          document.addEventListener("keydown", () => { pressed = performance.now(); }, true);
          new MutationObserver(() => { if (pressed) { window.latencies.push(performance.now() - pressed); pressed = 0; } })
            .observe(document.querySelector("[data-judging]"), {attributes: true, attributeFilter: ["data-doc", "data-index"]});
        }""")
        for index in range(min(args.keys, pairs - 1)):
            page.keyboard.press("0123"[index % 4])
            expect(progress).to_have_attribute("data-done", str(index + 1))
        latencies = sorted(page.evaluate("() => window.latencies"))
        p95 = latencies[max(0, round(0.95 * len(latencies)) - 1)]
        print(f"next pair after a grade key: median {statistics.median(latencies):.1f} ms, "
              f"95th percentile {p95:.1f} ms over {len(latencies)} keys")
        page.close()
        pool(browser, url, folder)
        browser.close()
    return 0


def pool(browser, url, folder) -> None:
    """Three rounds of the 12 runs' pool, each page with storage of its own."""
    pool_folder = folder / "pool"
    pool_folder.mkdir()
    pairs = make_pool_files(pool_folder)
    for round_ in range(3):
        context = browser.new_context(viewport={"width": 1280, "height": 900})  # storage of its own: no job kept
        page = context.new_page()
        page.goto(url + "juzgar/")
        expect(page.locator("html")).to_have_attribute("data-judge-ready", "true", timeout=90_000)
        page.locator('[data-file-for="queries"]').set_input_files(str(folder / "queries.tsv"))
        page.locator('[data-file-for="corpus"]').set_input_files(str(pool_folder / "corpus.jsonl"))
        for index in range(12):
            page.locator(f'[data-file-for="run-{"abcdefghijkl"[index]}"]').set_input_files(
                str(pool_folder / f"run{index}.txt"))
        page.locator('[data-setting="depth"]').fill("10")
        started = time.monotonic()
        page.locator('[data-action="start-judging"]').click()
        expect(page.locator("[data-judging-progress]")).to_have_attribute("data-total", str(pairs), timeout=300_000)
        print(f"pool of 12 runs × 50 queries × 1,000 documents, depth 10 ({pairs} pairs), round {round_ + 1}: "
              f"{time.monotonic() - started:.2f} s from the click to the job shown")
        context.close()


if __name__ == "__main__":
    sys.exit(main())
