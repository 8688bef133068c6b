"""Benchmark: your own run at scale, ours vs pytrec-eval-terrier, ir_measures and ranx, and the page.

Run: .venv/bin/python bench/byo.py [--sizes 1M 7M] [--no-browser] [--dist DIR] [--data DIR]
(not a test; prints a table; the 7 M case needs a few GB of RAM for the Python contenders).
Or: .venv/bin/python bench/byo.py --runs 6 [--lines 1M 250k] (many runs at once, see below).

With ``--runs N`` (issue 37): N runs of ``--lines`` lines each (1M by default: 40 queries x 25,000
documents) against qrels of the sample's size (40 queries x 25 judgments, 1,000 lines), scored
by one ``python -m raglab_core eval QRELS RUN1 … RUNN --json`` (every pair compared, Holm), against N
single-run evaluations of the same runs, each in a fresh process; prints both times, their ratio
(target <= 1.2) and each process's peak RSS. Given two sizes (``--lines 250k 1M``) it shows whether
memory stays flat in the number of lines.

For each size, a fixed-seed collection is written (1,000 documents per query,
100 judgments per query; 1M = 1,000 queries, 7M = 7,000 queries: the shape of
MS MARCO passage dev's 6,980 x 1,000) and each contender evaluates the same six
measures, ``nDCG@10 R@100 RR@10 Success@10 AP@100 Judged@10``, reading the
files itself, as its users would:

* **ours**: ``python -m raglab_core eval QRELS RUN --json`` (streaming: one
  query in memory at a time);
* **pytrec-eval-terrier**: ``parse_qrel`` / ``parse_run`` on the open files,
  ``RelevanceEvaluator(...).evaluate`` (trec_eval in C; no Judged);
* **ir_measures** 0.4.3: ``read_trec_qrels`` / ``read_trec_run`` +
  ``calc_aggregate`` with its default providers;
* **ranx**: ``Qrels.from_file`` / ``Run.from_file`` + ``evaluate`` (no
  Judged), after a warm-up call on a tiny collection (numba's compilation,
  not timed);
* **the page** (unless ``--no-browser``; needs a built site, ``--dist``): the
  «Tus datos» panel in headless Chromium, files given to its file inputs,
  timed from the click on «Evaluar» to «Evaluación terminada.» on a warm
  worker; Chromium's memory is the peak, sampled every 100 ms, of the summed
  proportional set size (PSS, ``/proc/PID/smaps_rollup``) of every Chromium
  process (browser, renderer with both Pyodide workers, GPU, utility), next to
  its value before the click, plus the page's main-thread JS heap from the
  DevTools protocol (``Performance.getMetrics``); the main
  thread's longest task meanwhile shows whether the lab stayed responsive.
  With ``--two-runs`` the page also compares two runs of that size (10,000
  permutations).

Every Python contender runs in a fresh subprocess: its time is parse +
evaluate measured inside it (interpreter start and imports excluded), its
memory the subprocess's peak RSS (``wait4``). Targets (issue 13): ours <= 1 x
pytrec-eval-terrier in time and peak RSS; the page <= 3 x ours in time and
<= 1.5 GB of Chromium memory.
"""

import argparse
import json
import os
import pathlib
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
SEED = 20261130
SIZES = {"1M": 1000, "2M": 2000, "7M": 7000}  # queries; 1,000 documents each
DOCS, JUDGED = 1000, 100
MEASURES = "nDCG@10 R@100 RR@10 Success@10 AP@100 Judged@10"


# --- the collection ------------------------------------------------------------------------------


def write_collection(folder: pathlib.Path, queries: int, seed: int = SEED):
    """Write qrels, run and run2 (same documents, other scores), one query at a time; reuse them if present."""
    paths = [folder / name for name in ("qrels.txt", "run.txt", "run2.txt")]
    if all(path.exists() for path in paths):
        return paths
    folder.mkdir(parents=True, exist_ok=True)
    rng, rng2 = random.Random(seed), random.Random(seed + 1)
    with open(paths[0], "w") as qrels, open(paths[1], "w") as run, open(paths[2], "w") as run2:
        for number in range(queries):
            qid = str(100000 + number)
            pool = [f"doc{number:05d}-{i:04d}" for i in range(DOCS)]
            qrels.writelines(f"{qid} 0 {doc} {rng.choice((0, 0, 0, 1, 1, 2, 3))}\n" for doc in rng.sample(pool, JUDGED))
            for out, generator in ((run, rng), (run2, rng2)):
                scored = sorted(((round(generator.random() * 30, 4), doc) for doc in pool), reverse=True)
                out.writelines(f"{qid} Q0 {doc} {rank} {score!r} bench\n" for rank, (score, doc) in enumerate(scored, 1))
    return paths


def write_runs(folder: pathlib.Path, runs: int, lines: int, seed: int = SEED):
    """Sample-sized qrels (40 queries x 25 judgments) and ``runs`` runs of ``lines`` lines over those queries
    (``lines / 40`` documents each, other scores per run); reused if present."""
    queries, judged = 40, 25
    documents = lines // queries
    qrels = folder / "qrels.txt"
    paths = [folder / f"run{number + 1}.txt" for number in range(runs)]
    folder.mkdir(parents=True, exist_ok=True)
    if not qrels.exists():
        rng = random.Random(seed)
        with open(qrels, "w") as out:
            for number in range(queries):
                pool = [f"doc{number:02d}-{i:05d}" for i in range(documents)]
                out.writelines(f"q{number:02d} 0 {doc} {rng.choice((0, 1, 1, 2, 3))}\n" for doc in rng.sample(pool, judged))
    for number, path in enumerate(paths):
        if path.exists():
            continue
        rng = random.Random(seed + 1 + number)
        with open(path, "w") as out:
            for query in range(queries):
                pool = [f"doc{query:02d}-{i:05d}" for i in range(documents)]
                scored = sorted(((round(rng.random() * 30, 4), doc) for doc in pool), reverse=True)
                out.writelines(f"q{query:02d} Q0 {doc} {rank} {score!r} run{number + 1}\n"
                               for rank, (score, doc) in enumerate(scored, 1))
    return qrels, paths


def child_eval(qrels, *runs):
    """``python -m raglab_core eval QRELS RUN… --json`` in this process: its seconds (imports excluded)."""
    import contextlib
    import io

    sys.path.insert(0, str(ROOT))
    from raglab_core.__main__ import main

    out = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out):
        status = main(["eval", qrels, *runs, "--measures", MEASURES, "--json"])
    seconds = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"raglab_core eval exited with status {status}")
    data = json.loads(out.getvalue())
    print(json.dumps({"seconds": seconds, "runs": len(data["runs"]), "comparisons": len(data.get("comparisons", []))}))


def run_eval(qrels, runs):
    """``(seconds inside the child, peak RSS in bytes, answer)`` of one ``eval`` of ``runs`` in a fresh process;
    ``answer["cpu"]``: the child's CPU seconds (user + system, interpreter start included)."""
    with tempfile.TemporaryFile() as errors:  # the child's stderr: progress and warnings
        process = subprocess.Popen([sys.executable, __file__, "--child-eval", str(qrels), *map(str, runs)], cwd=ROOT,
                                   stdout=subprocess.PIPE, stderr=errors)
        output = process.stdout.read()
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = status
        if status != 0:
            errors.seek(0)
            raise RuntimeError(f"eval of {len(runs)} runs failed with status {status}: {errors.read().decode()[-2000:]}")
    answer = json.loads(output)
    answer["cpu"] = usage.ru_utime + usage.ru_stime
    return answer["seconds"], usage.ru_maxrss * 1024, answer


def many_runs(count: int, sizes, data: pathlib.Path):
    """Issue 37's benchmark: ``count`` runs scored at once against ``count`` single-run evaluations."""
    print(f"{'lines per run':>13} {'runs':>4} {'all at once s':>13} {'cpu s':>6} {'peak MB':>7} {'singles s':>9} "
          f"{'cpu s':>6} {'peak MB':>7} {'ratio':>6} {'cpu ratio':>9}")
    for size in sizes:
        lines = int(float(size.rstrip("kKmM")) * (1000 if size[-1] in "kK" else 1_000_000))
        qrels, runs = write_runs(data / f"runs-{size}", count, lines)
        # The single evaluations before and after the one of every run, so that a drift of a shared
        # machine's speed weighs on both sides.
        singles = [run_eval(qrels, [run]) for run in runs[: count // 2]]
        together, peak, answer = run_eval(qrels, runs)
        singles += [run_eval(qrels, [run]) for run in runs[count // 2:]]
        alone = sum(seconds for seconds, _, _ in singles)
        alone_cpu = sum(single["cpu"] for _, _, single in singles)
        print(f"{lines:>13,} {count:>4} {together:>13.2f} {answer['cpu']:>6.2f} {peak / 1e6:>7.0f} {alone:>9.2f} "
              f"{alone_cpu:>6.2f} {max(rss for _, rss, _ in singles) / 1e6:>7.0f} {together / alone:>6.2f} "
              f"{answer['cpu'] / alone_cpu:>9.2f}   ({answer['comparisons']} pairs compared)", flush=True)
    print(f"target: ratio <= 1.2; python {sys.version.split()[0]}, {os.cpu_count()} CPUs")


# --- the Python contenders, each in a child process ----------------------------------------------


def child_ours(qrels, run):
    import contextlib
    import io

    from raglab_core.__main__ import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["eval", qrels, run, "--measures", MEASURES, "--json"])
    if status != 0:
        raise SystemExit(f"raglab_core eval exited with status {status}")
    means = json.loads(out.getvalue())["runs"][0]["mean"]
    return {"nDCG@10": means["nDCG@10"], "AP@100": means["AP@100"]}


def child_pytrec(qrels, run):
    import pytrec_eval

    with open(qrels) as f:
        judged = pytrec_eval.parse_qrel(f)
    with open(run) as f:
        ranked = pytrec_eval.parse_run(f)
    names = {"ndcg_cut.10", "recall.100", "recip_rank", "success.10", "map_cut.100"}
    per_query = pytrec_eval.RelevanceEvaluator(judged, names).evaluate(ranked)
    return {name: statistics.fmean(q[key] for q in per_query.values())
            for name, key in (("nDCG@10", "ndcg_cut_10"), ("AP@100", "map_cut_100"))}


def child_ir_measures(qrels, run):
    import ir_measures

    means = ir_measures.calc_aggregate(
        [ir_measures.parse_measure(name) for name in MEASURES.split()],
        ir_measures.read_trec_qrels(qrels), ir_measures.read_trec_run(run),
    )
    return {str(measure): value for measure, value in means.items() if str(measure) in ("nDCG@10", "AP@100")}


def child_ranx(qrels, run):
    from ranx import Qrels, Run, evaluate

    means = evaluate(Qrels.from_file(qrels, kind="trec"), Run.from_file(run, kind="trec"),
                     ["ndcg@10", "recall@100", "mrr@10", "hit_rate@10", "map@100"])
    return {"nDCG@10": means["ndcg@10"], "AP@100": means["map@100"]}


def ranx_warm_up():
    from ranx import Qrels, Run, evaluate

    evaluate(Qrels({"q": {"a": 1}}), Run({"q": {"a": 1.0, "b": 0.5}}), ["ndcg@10", "recall@100", "mrr@10", "hit_rate@10", "map@100"])


CHILDREN = {
    "ours (python -m raglab_core eval, streaming)": ("ours", child_ours),
    "pytrec-eval-terrier (parse + evaluate)": ("pytrec", child_pytrec),
    "ir_measures 0.4.3 (read_trec_* + calc_aggregate)": ("ir_measures", child_ir_measures),
    "ranx (from_file + evaluate, after warm-up)": ("ranx", child_ranx),
}


def run_child(key, qrels, run):
    """``(seconds inside the child, peak RSS in bytes, means)`` of contender ``key`` in a fresh process."""
    process = subprocess.Popen([sys.executable, __file__, "--child", key, str(qrels), str(run)], cwd=ROOT,
                               stdout=subprocess.PIPE)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = status
    if status != 0:
        raise RuntimeError(f"{key} failed with status {status}")
    answer = json.loads(output)
    return answer["seconds"], usage.ru_maxrss * 1024, answer["means"]


def child_main(key, qrels, run):
    sys.path.insert(0, str(ROOT))
    function = dict(CHILDREN.values())[key]
    if key == "ranx":
        ranx_warm_up()
    start = time.perf_counter()
    means = function(qrels, run)
    print(json.dumps({"seconds": time.perf_counter() - start, "means": means}))


# --- the page ------------------------------------------------------------------------------------


def chromium_rss(root_pid: int) -> int:
    """Summed proportional resident memory (PSS, bytes) of every Chromium process below ``root_pid``.

    PSS charges each shared page to its sharers in proportion, so the sum over
    processes is the memory Chromium really holds (a sum of RSS would count
    shared libraries once per process).
    """
    parents, names = {}, {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            names[int(entry)] = stat[stat.index("(") + 1 : stat.rindex(")")]
            parents[int(entry)] = int(stat[stat.rindex(")") + 2 :].split()[1])
    below, frontier = set(), {root_pid}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - below
        below |= frontier
    total = 0
    for pid in below:
        if "chrom" not in names.get(pid, "") and "headless" not in names.get(pid, ""):
            continue
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                total += next(int(line.split()[1]) * 1024 for line in f if line.startswith("Pss:"))
        except (OSError, StopIteration):
            pass
    return total


class PeakSampler:
    """Samples :func:`chromium_rss` every 100 ms in a thread; ``peak`` is the largest sample."""

    def __init__(self):
        self.peak, self.running = 0, True
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        while self.running:
            self.peak = max(self.peak, chromium_rss(os.getpid()))
            time.sleep(0.1)

    def reset(self):
        self.peak = chromium_rss(os.getpid())

    def stop(self):
        self.running = False
        self.thread.join()


def in_the_page(dist, cases):
    """For each ``(label, [qrels, run, run2?])``: seconds, Chromium's peak memory, JS heap, longest main-thread task."""
    from playwright.sync_api import sync_playwright

    from harness import CHROMIUM_ARGS, find_chromium

    from raglab_site.devserver import make_server

    httpd = make_server(dist, 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    results = {}
    sampler = PeakSampler()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
            page = browser.new_page()
            cdp = page.context.new_cdp_session(page)
            cdp.send("Performance.enable")
            page.add_init_script(
                "window.__longTasks = []; new PerformanceObserver(l => l.getEntries().forEach("
                "e => window.__longTasks.push(e.duration))).observe({type: 'longtask', buffered: true});"
            )
            page.goto(url)
            page.wait_for_selector("html[data-ready=true]", state="attached", timeout=120_000)
            page.fill('#data-measures', MEASURES)
            status = page.locator("[data-data-status]")
            page.click('[data-action="sample"]')  # warm the evaluation worker
            status.filter(has_text="Evaluación terminada.").wait_for(timeout=120_000)
            for label, files in cases:
                for slot, path in zip(["qrels", "run-a", "run-b"], files):
                    page.set_input_files(f'[data-file-for="{slot}"]', str(path))
                if len(files) == 2:
                    page.set_input_files('[data-file-for="run-b"]', [])
                page.evaluate("window.__longTasks.length = 0")
                sampler.reset()
                before = sampler.peak
                heap = 0
                start = time.perf_counter()
                page.click('[data-action="evaluate"]')
                while not status.filter(has_text="Evaluación terminada.").count():
                    if page.locator("[data-data-error-text]").text_content():
                        raise RuntimeError(page.locator("[data-data-error]").text_content())
                    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
                    heap = max(heap, metrics.get("JSHeapUsedSize", 0))
                    page.wait_for_timeout(250)
                seconds = time.perf_counter() - start
                longest = page.evaluate("Math.max(0, ...window.__longTasks)")
                results[label] = (seconds, sampler.peak, before, heap, longest)
            browser.close()
    finally:
        sampler.stop()
        httpd.shutdown()
    return results


# --- the table -----------------------------------------------------------------------------------


def main():
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--sizes", nargs="+", default=["1M", "7M"], choices=list(SIZES))
    options.add_argument("--no-browser", action="store_true", help="skip the in-page measurement")
    options.add_argument("--page-sizes", nargs="+", choices=list(SIZES), help="sizes measured in the page (default: --sizes)")
    options.add_argument("--two-runs", action="store_true", help="also compare two runs in the page")
    options.add_argument("--skip", nargs="*", default=[], choices=[key for key, _ in CHILDREN.values()])
    options.add_argument("--dist", type=pathlib.Path, default=ROOT / "dist")
    options.add_argument("--data", type=pathlib.Path, default=pathlib.Path(tempfile.gettempdir()) / "raglab-byo")
    options.add_argument("--runs", type=int, help="score this many runs at once against as many single-run evaluations")
    options.add_argument("--lines", nargs="+", default=["1M"], help="lines per run with --runs (e.g. 250k 1M)")
    parsed = options.parse_args()
    if parsed.runs:
        return many_runs(parsed.runs, parsed.lines, parsed.data)

    rows, notes = [], []
    for size in parsed.sizes:
        start = time.perf_counter()
        qrels, run, run2 = write_collection(parsed.data / size, SIZES[size])
        lines = SIZES[size] * DOCS
        print(f"{size}: {SIZES[size]:,} queries, {lines:,} run lines ({run.stat().st_size / 1e6:.0f} MB), "
              f"{SIZES[size] * JUDGED:,} judgments; ready in {time.perf_counter() - start:.1f} s", flush=True)
        for label, (key, _) in CHILDREN.items():
            if key in parsed.skip:
                continue
            seconds, rss, means = run_child(key, qrels, run)
            rows.append((size, label, seconds, rss, None))
            notes.append(f"{size} {key}: nDCG@10 {means['nDCG@10']:.6f}, AP@100 {means['AP@100']:.6f}")
            print(f"  {label}: {seconds:.2f} s, {rss / 1e6:.0f} MB", flush=True)
    if not parsed.no_browser:
        if not (parsed.dist / "index.html").exists():
            raise SystemExit(f"{parsed.dist} is not a built site: run `make` first (or pass --no-browser)")
        cases = []
        for size in parsed.page_sizes or parsed.sizes:
            qrels, run, run2 = write_collection(parsed.data / size, SIZES[size])
            cases.append((size, f"page (Pyodide worker, warm): one run", [qrels, run]))
            if parsed.two_runs:
                cases.append((size, f"page: two runs compared (10,000 permutations)", [qrels, run, run2]))
        measured = in_the_page(parsed.dist, [((size, label), files) for size, label, files in cases])
        for (size, label), (seconds, peak, before, heap, longest) in measured.items():
            rows.append((size, label, seconds, peak, f"Chromium {before / 1e6:.0f} MB before; main-thread JS heap "
                                                     f"{heap / 1e6:.0f} MB; longest main-thread task {longest:.0f} ms"))

    print(f"\n{'size':4} {'contender':52} {'time s':>8} {'peak MB':>8}  notes")
    for size, label, seconds, memory, note in rows:
        print(f"{size:4} {label:52} {seconds:8.2f} {memory / 1e6:8.0f}  {note or ''}")
    print("\nmeans (should agree; pytrec/ranx RR and AP conventions aside):\n  " + "\n  ".join(notes))
    by = {(size, label): (seconds, memory) for size, label, seconds, memory, _ in rows}
    for size in parsed.sizes:
        ours = by.get((size, "ours (python -m raglab_core eval, streaming)"))
        pytrec = by.get((size, "pytrec-eval-terrier (parse + evaluate)"))
        if ours and pytrec:
            print(f"{size}: ours / pytrec-eval-terrier = {ours[0] / pytrec[0]:.2f}x time, {ours[1] / pytrec[1]:.2f}x peak RSS "
                  f"(target <= 1x both)")
        page = by.get((size, "page (Pyodide worker, warm): one run"))
        if ours and page:
            print(f"{size}: page / ours = {page[0] / ours[0]:.2f}x time (target <= 3x); Chromium peak "
                  f"{page[1] / 1e9:.2f} GB (target <= 1.5 GB)")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        child_main(*sys.argv[2:])
    elif len(sys.argv) >= 4 and sys.argv[1] == "--child-eval":
        child_eval(*sys.argv[2:])
    else:
        main()
