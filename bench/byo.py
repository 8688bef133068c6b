"""Benchmark: evaluating your own run, ours vs pytrec-eval-terrier vs ranx, 1,000 queries x 1,000 documents.

Run: .venv/bin/python bench/byo.py [--repeat 3]   (not a test; prints a table)

A fixed-seed collection (1 M run lines, 100 judgments per query) is written
to a temporary directory; each contender then reads the files and computes
P@10, R@10, MRR@10 and nDCG@10 means, as its users would:

* ours: ``raglab_core.__main__.main(["eval", QRELS, RUN, "--json"])`` in
  process (parse + evaluate + JSON, stdout captured), and once as a real
  ``python -m raglab_core eval`` subprocess (interpreter start included);
* pytrec-eval-terrier: ``pytrec_eval.parse_qrel`` / ``parse_run`` on the open
  files, ``RelevanceEvaluator(...).evaluate`` (trec_eval in C), means;
* ranx: ``Qrels.from_file`` / ``Run.from_file`` + ``evaluate`` after a
  warm-up call on a tiny collection (numba's JIT compilation, timed apart).

* the page (``--browser``, on by default; needs a built dist/): the «Tus
  datos» panel in headless Chromium, files given to its file inputs, timed
  from the click on «Evaluar» to «Evaluación terminada.», cold (a new worker
  restores Python first) and warm; meanwhile a slider is moved and the main
  thread's long tasks are summed, to show the page stays responsive.

Targets: ours <= 1.5 x pytrec-eval-terrier (median of the repeats); in the
browser, warm, <= 4 x ours in CPython.
"""

import argparse
import contextlib
import io
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from raglab_core.__main__ import main as cli  # noqa: E402
from tests.trec_data import big_collection, qrels_lines, run_lines, write_lines  # noqa: E402

SEED = 20261130
TARGET = 1.5
BROWSER_TARGET = 4.0


def ours(qrels, run, run2=None):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = cli(["eval", str(qrels), str(run), *([str(run2)] if run2 else []), "--json"])
    if status != 0:
        raise RuntimeError(f"CLI exited with {status}")
    return out.getvalue()


def pytrec(qrels_path, run_path):
    import pytrec_eval

    with open(qrels_path) as f:
        qrels = pytrec_eval.parse_qrel(f)
    with open(run_path) as f:
        run = pytrec_eval.parse_run(f)
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {"P.10", "recall.10", "ndcg_cut.10", "recip_rank"}).evaluate(run)
    names = ["P_10", "recall_10", "ndcg_cut_10", "recip_rank"]
    return {name: pytrec_eval.compute_aggregated_measure(name, [q[name] for q in per_query.values()]) for name in names}


RANX_METRICS = ["precision@10", "recall@10", "mrr@10", "ndcg_burges@10"]


def ranx_eval(qrels_path, run_path):
    from ranx import Qrels, Run, evaluate

    return evaluate(Qrels.from_file(str(qrels_path), kind="trec"), Run.from_file(str(run_path), kind="trec"), RANX_METRICS)


def timed(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def in_the_page(qrels_path, run_path, repeat):
    """Seconds for the panel to evaluate the files: (cold, [warm…]), plus responsiveness figures."""
    import threading

    from playwright.sync_api import sync_playwright

    from raglab_site.devserver import make_server
    from tests.chromium import find_chromium

    dist = ROOT / "dist"
    if not (dist / "index.html").exists():
        raise SystemExit("dist/ not built: run `make` first (or pass --no-browser)")
    httpd = make_server(dist, 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/?k=10&umbral=1"
    args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_chromium(), args=args)
            page = browser.new_page()
            page.add_init_script(
                "window.__longTasks = []; new PerformanceObserver(l => l.getEntries().forEach("
                "e => window.__longTasks.push(e.duration))).observe({type: 'longtask', buffered: true});"
            )
            page.goto(url)
            page.wait_for_selector("html[data-ready=true]", state="attached", timeout=120_000)
            page.set_input_files('[data-file-for="qrels"]', str(qrels_path))
            page.set_input_files('[data-file-for="run-a"]', str(run_path))
            status = page.locator("[data-data-status]")
            times, responsive = [], []
            for _ in range(repeat + 1):
                page.evaluate("window.__longTasks.length = 0; performance.clearMeasures('raglab:input-to-view')")
                start = time.perf_counter()
                page.click('[data-action="evaluate"]')
                page.wait_for_timeout(300)
                page.locator('[name="umbral"]').press("ArrowRight")  # the lab keeps answering meanwhile
                page.locator('[name="umbral"]').press("ArrowLeft")
                status.filter(has_text="Evaluación terminada.").wait_for(timeout=600_000)
                times.append(time.perf_counter() - start)
                responsive.append(page.evaluate(
                    "({longest: Math.max(0, ...window.__longTasks), "
                    "slider: performance.getEntriesByName('raglab:input-to-view').map(e => e.duration)})"
                ))
            browser.close()
    finally:
        httpd.shutdown()
    return times[0], times[1:], responsive


def main():
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--repeat", type=int, default=3)
    options.add_argument("--no-browser", action="store_true", help="skip the in-page measurement")
    parsed = options.parse_args()
    repeat = parsed.repeat

    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        start = time.perf_counter()
        qrels, run = big_collection(SEED)
        _, run2 = big_collection(SEED + 1)
        run2 = {qid: dict(zip(run[qid], scores.values())) for qid, scores in run2.items()}  # same docs, other scores
        qrels_path = write_lines(tmp / "qrels.txt", qrels_lines(qrels))
        run_path = write_lines(tmp / "run.txt", run_lines(run))
        run2_path = write_lines(tmp / "run2.txt", run_lines(run2))
        tiny_q = write_lines(tmp / "tiny_qrels.txt", ["1 0 a 1\n"])
        tiny_r = write_lines(tmp / "tiny_run.txt", ["1 Q0 a 1 1.0 t\n", "1 Q0 b 2 0.5 t\n"])
        lines = sum(1 for _ in open(run_path))
        print(f"collection: {len(run)} queries, {lines:,} run lines, "
              f"{sum(map(len, qrels.values())):,} judgments; written in {time.perf_counter() - start:.1f} s\n")

        results = {}
        results["pytrec-eval-terrier (parse_qrel/parse_run + evaluate)"] = timed(lambda: pytrec(qrels_path, run_path), repeat)
        results["ours, in process (main eval --json)"] = timed(lambda: ours(qrels_path, run_path), repeat)
        command = [sys.executable, "-m", "raglab_core", "eval", str(qrels_path), str(run_path), "--json"]
        start = time.perf_counter()
        subprocess.run(command, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        single = time.perf_counter() - start
        results["ours, subprocess python -m raglab_core (1 run)"] = (single, single)
        results["ours, two runs + comparison (10k permutations)"] = timed(lambda: ours(qrels_path, run_path, run2_path), repeat)

        start = time.perf_counter()
        import ranx  # noqa: F401  (import time counted with the warm-up)

        ranx_eval(tiny_q, tiny_r)
        warm_up = time.perf_counter() - start
        results["ranx (from_file + evaluate), after warm-up"] = timed(lambda: ranx_eval(qrels_path, run_path), repeat)
        results["ranx import + numba warm-up (once)"] = (warm_up, warm_up)
        page = None if parsed.no_browser else in_the_page(qrels_path, run_path, repeat)
        if page:
            cold, warm, responsive = page
            results["page (Pyodide worker), warm"] = (statistics.median(warm), min(warm))
            results["page (Pyodide worker), cold: restores Python first"] = (cold, cold)

    baseline = results["pytrec-eval-terrier (parse_qrel/parse_run + evaluate)"][0]
    print(f"{'case':52} {'median s':>9} {'min s':>8} {'/ pytrec':>9}")
    for name, (median, best) in results.items():
        print(f"{name:52} {median:9.3f} {best:8.3f} {median / baseline:8.2f}x")
    ratio = results["ours, in process (main eval --json)"][0] / baseline
    verdict = "met" if ratio <= TARGET else "MISSED"
    print(f"\ntarget ours <= {TARGET}x pytrec-eval-terrier: {ratio:.2f}x ({verdict}); "
          f"repeats {repeat}, python {sys.version.split()[0]}")
    if page:
        ours_cpython = results["ours, in process (main eval --json)"][0]
        in_page = results["page (Pyodide worker), warm"][0] / ours_cpython
        print(f"target page (warm) <= {BROWSER_TARGET}x ours in CPython: {in_page:.2f}x "
              f"({'met' if in_page <= BROWSER_TARGET else 'MISSED'})")
        longest = max(r["longest"] for r in responsive)
        slider = [d for r in responsive for d in r["slider"]]
        print(f"page responsiveness during the evaluations: longest main-thread task {longest:.0f} ms; "
              f"slider input → outputs {', '.join(f'{d:.0f}' for d in slider)} ms")


if __name__ == "__main__":
    main()
