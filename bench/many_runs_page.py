"""«Tus datos» with six runs in the page: how long every pair of runs takes to be compared.

    .venv/bin/python bench/many_runs_page.py [--runs 6] [--measures "nDCG@10 R@100 RR@10 AP@100"] [--repeat 3] [--dist dist]

Six runs of the sample's size (its two runs and four runs near them, scores moved at random) and
four measures: 15 pairs × 4 measures = 60 paired tests, each with its bootstrap interval, exact or
Monte Carlo randomization p-value and Holm's correction. The page is served from --dist and driven
in the full Chromium on the desktop profile; each repeat is timed from the click on «Evaluar» to
«Evaluación terminada.», on a warm worker (the sample evaluated once first), and the progress texts
seen on the way are printed. The same files through `python -m raglab_core eval --json` are timed
beside it, as the anchor.
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from tests.support.trec_data import shaken  # noqa: E402 (one definition, the browser test's too)

SAMPLE = ROOT / "site_src" / "data" / "sample"
SLOTS = "abcdefghijkl"


def make_runs(folder: pathlib.Path, count: int) -> list[pathlib.Path]:
    runs = [SAMPLE / "run-bm25.txt", SAMPLE / "run-densa.txt"]
    for i in range(count - 2):
        runs.append(shaken(runs[i % 2], folder / f"run-{i + 3}.txt", seed=i + 1))
    return runs[:count]


def in_the_page(dist: pathlib.Path, runs: list[pathlib.Path], measures: str, repeat: int) -> tuple[list[float], list[str]]:
    from playwright.sync_api import sync_playwright

    from harness import CHROMIUM_ARGS, find_chromium
    from raglab_site.devserver import make_server

    httpd = make_server(dist, 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    times, progress = [], []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(url)
            page.wait_for_selector("html[data-ready=true]", state="attached", timeout=120_000)
            status = page.locator("[data-data-status]")
            page.click('[data-action="sample"]')  # warms the evaluation worker
            status.filter(has_text="Evaluación terminada.").wait_for(timeout=120_000)
            for _ in range(len(runs) - 2):
                page.click('[data-action="add-run"]')
            page.set_input_files('[data-file-for="qrels"]', str(SAMPLE / "qrels.txt"))
            for letter, path in zip(SLOTS, runs):
                page.set_input_files(f'[data-file-for="run-{letter}"]', str(path))
            page.fill("#data-measures", measures)
            bar = page.locator("[data-data-progress]")
            for _ in range(repeat):
                start = time.perf_counter()
                page.click('[data-action="evaluate"]')
                while not status.filter(has_text="Evaluación terminada.").count():
                    text = (bar.text_content() or "").strip() or (status.text_content() or "").strip()
                    if text and (not progress or progress[-1] != text):
                        progress.append(text)
                    if page.locator("[data-data-error-text]").text_content():
                        raise RuntimeError(page.locator("[data-data-error]").text_content())
                    page.wait_for_timeout(100)
                times.append(time.perf_counter() - start)
            browser.close()
    finally:
        httpd.shutdown()
    return times, progress


def main():
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=6)
    options.add_argument("--measures", default="nDCG@10 R@100 RR@10 AP@100")
    options.add_argument("--repeat", type=int, default=3)
    options.add_argument("--dist", type=pathlib.Path, default=ROOT / "dist")
    parsed = options.parse_args()
    if not 2 <= parsed.runs <= len(SLOTS):
        raise SystemExit(f"--runs must be between 2 and {len(SLOTS)}")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="raglab-many-"))
    runs = make_runs(folder, parsed.runs)
    pairs = parsed.runs * (parsed.runs - 1) // 2
    tests = pairs * len(parsed.measures.split())
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "raglab_core", "eval", str(SAMPLE / "qrels.txt"), *map(str, runs),
                    "--measures", parsed.measures, "--json"], check=True, capture_output=True, cwd=ROOT)
    cli = time.perf_counter() - start
    times, progress = in_the_page(parsed.dist, runs, parsed.measures, parsed.repeat)
    print(f"{parsed.runs} runs, {pairs} pairs × {len(parsed.measures.split())} measures = {tests} paired tests")
    print(f"  the page (desktop, warm worker): " + ", ".join(f"{t:.2f} s" for t in times)
          + f"; median {sorted(times)[len(times) // 2]:.2f} s")
    print(f"  python -m raglab_core eval --json (CPython, one process): {cli:.2f} s")
    print(f"  page ÷ CLI: {sorted(times)[len(times) // 2] / cli:.2f}×")
    print("  progress seen: " + " | ".join(progress[:12]))


if __name__ == "__main__":
    main()
