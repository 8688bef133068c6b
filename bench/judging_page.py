"""The judging page (dist/juzgar/): a 50 MB corpus read into a job (with «Cancelar» once on the way), and the
next pair after a grade key, over 200 keys.

    .venv/bin/python bench/judging_page.py [--dist dist] [--keys 200]

The corpus: BEIR JSONL, 50 MB of 300-word documents; 50 queries, one run of 5 documents each (250 pairs).
The latency is measured in the page: from the key's keydown (a capturing listener) to the change of the
judging view's data-index/data-doc (a MutationObserver), which comes after the grade's IndexedDB
transaction has committed and Python has answered the next pair's view. Desktop profile, full Chromium.
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=pathlib.Path, default=ROOT / "dist")
    parser.add_argument("--keys", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary, serving(args.dist) as url, sync_playwright() as playwright:
        folder = pathlib.Path(temporary)
        pairs = make_files(folder)
        browser = playwright.chromium.launch(executable_path=find_test_chromium(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
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
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
