"""Page benchmark: load and interaction figures for dist/, against a plain Pyodide boot, in one run.

    .venv/bin/python bench/page.py [--runs 5] [--changes 200] [--dist dist]     (or: make bench)

Builds nothing for the page figures: it serves the existing dist/ (run `make` first) on localhost,
with the same dev server as `build.py serve`, and drives headless Chromium:

* cold: a fresh browser context per run; repeat: one context reused (HTTP cache, service worker);
* first contentful paint, and whether the server-rendered numbers were there at that moment;
* time to interactive: navigation start → <html data-ready="true"> (lab.js marks "raglab:ready");
* input latency: a slider change → every output updated (lab.js measures "raglab:input-to-view"), over
  states met again (k back and forth), over states never seen before, one step at a time (lab.js
  computes those ahead), and over states two steps away (computed only when asked);
* total blocking time during load (long tasks over 50 ms, the part beyond 50 ms, until ready);
* bytes transferred (as encoded on the wire, and decoded), first and repeat visit;
* the same load figures for a reference page that boots Pyodide the plain way on the main thread
  (loadPyodide() + loadPackage(core wheel) + compute(default)), served from the same dist/;
* build time: clean (empty snapshot cache) and with nothing changed, into a temporary directory;
* a throttled profile (--throttle, on by default): one cold load of each page over a slow network
  (1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip, via the DevTools protocol's
  Network.emulateNetworkConditions), time to interactive.

Prints a table with medians, min/max and ratios, and writes bench/results/page-<time>.json.
Absolute times on shared machines are noisy: read the ratios, measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from raglab_site.devserver import make_server  # noqa: E402
from raglab_site.runtime import PYODIDE_DIR  # noqa: E402
from raglab_site.snapshot import KEPT_CACHE  # noqa: E402

# Has the worker kept the decoded snapshot for the next visit (worker.js, after ready)?
HAS_KEPT_SNAPSHOT = f"self.caches ? caches.has({KEPT_CACHE!r}) : true"
from chromium import find_chromium  # noqa: E402

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]

# Long tasks and paint entries are buffered by the browser; this only has to read them at the end.
OBSERVE = """
window.__longTasks = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]); })
  .observe({type: "longtask", buffered: true});
"""

PLAIN_HTML = """<!doctype html><html lang="es"><head><meta charset="utf-8"><title>plain Pyodide boot</title>
<script type="module" src="plain.js"></script></head><body><p id="out">…</p></body></html>"""

PLAIN_JS = """
import { loadPyodide } from "../%(runtime)s";
const config = %(config)s;
const py = await loadPyodide({ indexURL: new URL("../%(pyodide)s", location.href).href });
await py.loadPackage(new URL("../" + config.wheel.url, location.href).href);
py.globals.set("scenario_json", JSON.stringify(config.scenario));
const text = py.runPython(`
import json, raglab_core
raglab_core.compute({"scenario": json.loads(scenario_json)})["outputs"]["precision"]["text"]
`);
document.getElementById("out").textContent = text;
performance.mark("raglab:ready");
document.documentElement.dataset.ready = "true";
"""


def lab_config(dist: Path) -> dict:
    html = (dist / "index.html").read_text("utf-8")
    return json.loads(html.split('id="lab-config">', 1)[1].split("</script>", 1)[0])


def add_precompressed_copies(path: Path) -> None:
    import gzip

    import brotli

    data = path.read_bytes()
    path.with_name(path.name + ".br").write_bytes(brotli.compress(data, quality=11))
    path.with_name(path.name + ".gz").write_bytes(gzip.compress(data, compresslevel=9, mtime=0))


def serve(dist: Path):
    """dist/ plus the reference page under /__plain/ (in a temporary overlay, dist/ is untouched)."""
    config = lab_config(dist)
    overlay = Path(tempfile.mkdtemp(prefix="raglab-bench-"))
    for path in dist.rglob("*"):
        if path.is_file():
            target = overlay / path.relative_to(dist)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(path, target)
    # The plain boot reads Pyodide's stock lock file, which the lab itself does not ship; with its
    # precompressed copies, as every other file (119 KB as is, 22 KB brotli: a CDN compresses it too).
    lock = overlay / config["pyodide"] / "pyodide-lock.json"
    os.symlink(PYODIDE_DIR / "pyodide-lock.json", lock)
    add_precompressed_copies(lock)
    plain = overlay / "__plain"
    plain.mkdir()
    (plain / "index.html").write_text(PLAIN_HTML, "utf-8")
    (plain / "plain.js").write_text(
        PLAIN_JS % {"pyodide": config["pyodide"], "runtime": config["runtime"], "config": json.dumps({"wheel": config["wheel"], "scenario": config["scenario"]})},
        "utf-8",
    )
    httpd = make_server(overlay, 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


SLOW_NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}


def load_once(context, url: str, check_ssr: bool, network: dict | None = None) -> dict:
    """Navigate, wait for readiness, and collect timings and bytes for this load."""
    page = context.new_page()
    if network:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", network)
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    transfers = []

    def on_finished(request):
        response = request.response()
        if response is None:
            return
        sizes = request.sizes()
        transfers.append((request.url, sizes["responseBodySize"] + sizes["responseHeadersSize"],
                          len(response.body()), response.from_service_worker))

    page.on("requestfinished", on_finished)
    page.add_init_script(OBSERVE)
    page.goto(url, wait_until="commit")
    page.wait_for_selector("html[data-ready=true]", state="attached", timeout=300_000)
    figures = page.evaluate(
        """() => {
        const paint = performance.getEntriesByName('first-contentful-paint')[0];
        const ready = performance.getEntriesByName('raglab:ready')[0];
        const marks = {};
        for (const m of performance.getEntriesByType('mark')) if (m.name.startsWith('raglab:worker:')) marks[m.name.slice(14)] = m.startTime;
        return {fcp: paint ? paint.startTime : null, tti: ready ? ready.startTime : null,
                longTasks: window.__longTasks || [], marks};
    }"""
    )
    if check_ssr:
        # The numbers are in the HTML itself, so they are painted with the first contentful paint.
        figures["ssr_at_fcp"] = page.locator('[data-output="precision"]').get_attribute("data-value") not in (None, "")
    tti = figures["tti"]
    figures["tbt"] = sum(max(0.0, d - 50) for start, d in figures.pop("longTasks") if tti is None or start < tti)
    page.wait_for_timeout(300)  # let the last responses finish for the byte count
    figures["wire_bytes"] = sum(t[1] for t in transfers if not t[3])
    figures["wire_by_file"] = {t[0].rsplit("/", 1)[-1] or "(page)": t[1] for t in transfers if not t[3]}
    figures["decoded_bytes"] = sum(t[2] for t in transfers)
    figures["requests"] = len(transfers)
    page.close()
    return figures


def input_latency(context, url: str, changes: int) -> dict[str, list[float]]:
    """Input → outputs updated, in ms, for two walks of ``changes`` key presses each:

    * "back and forth": ArrowRight/ArrowLeft on the k slider, three each way, over the same few states
      (lab.js keeps the views Python computed, so most of these are shown from that store);
    * "never seen": a walk over (k, rerank, umbral) that meets every state once, one step at a time:
      lab.js computes the states one step away while Python is idle, so most are ready when asked;
    * "two steps at once": a walk that sets a slider two steps away each time (as a click on the track
      does), to states never met nor computed ahead, so each change waits for Python.
    """
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("html[data-ready=true]", state="attached", timeout=120_000)
    count = "performance.getEntriesByName('raglab:input-to-view').length"
    durations = "performance.getEntriesByName('raglab:input-to-view').slice(%d).map(e => e.duration)"

    def shown_after(change):
        """Make one change, then wait until the page has written the view it asked for."""
        before = page.evaluate(count)
        change()
        deadline = time.time() + 5
        while page.evaluate(count) <= before and time.time() < deadline:
            page.wait_for_timeout(1)

    def press(control, key):
        shown_after(lambda: page.locator(f'[name="{control}"]').press(key))

    def set_value(control, value):  # as a click on the slider's track: one input event
        shown_after(lambda: page.evaluate(
            "([name, value]) => { const slider = document.querySelector(`[name=\"${name}\"]`);"
            " slider.value = value; slider.dispatchEvent(new Event('input', {bubbles: true})); }",
            [control, str(value)]))

    def measured(change, walk):
        start = page.evaluate(count)
        for control, to in walk:
            change(control, to)
        return page.evaluate(durations % start)

    results = {"back and forth": measured(
        press, [("k", "ArrowRight" if (i // 3) % 2 == 0 else "ArrowLeft") for i in range(changes)])}
    for control in ("k", "rerank", "umbral"):  # to the walk's corner (1, 0, 1), not measured
        press(control, "Home")
    results["never seen"] = measured(press, never_seen_walk(changes))
    page.reload()  # a fresh store of views: the two-step walk meets none of the states above
    page.wait_for_selector("html[data-ready=true]", state="attached", timeout=120_000)
    for control, value in (("k", 1), ("rerank", 0), ("umbral", 1)):  # the corner, not measured
        set_value(control, value)
    results["two steps at once"] = measured(set_value, two_step_walk(changes))
    page.close()
    return results


def two_step_walk(changes: int) -> list[tuple[str, int]]:
    """Slider settings from (k, rerank, umbral) = (1, 0, 1), each two steps from the last one and at
    least two from every state set before, so none was computed ahead: k sweeps 1, 3, … 11 and back
    (or 12, 10, … 2), rerank goes up by two between sweeps, then umbral jumps to 3 and rerank comes
    down. 83 settings in all."""
    walk, k = [], 1
    for umbral, reranks in ((1, range(0, 13, 2)), (3, range(12, -1, -2))):
        for i, rerank in enumerate(reranks):
            if i:
                walk.append(("rerank", rerank))
            elif umbral == 3:
                walk.append(("umbral", 3))
            for k in range(k + 2, 13, 2) if k < 6 else range(k - 2, 0, -2):
                walk.append(("k", k))
    return walk[:changes]


def never_seen_walk(changes: int) -> list[tuple[str, str]]:
    """Key presses from (k, rerank, umbral) = (1, 0, 1) that never return to a state: k sweeps 1–12 and
    back, rerank steps between sweeps (0–12 and back), umbral steps when rerank has gone across."""
    walk, k_up, rerank_up = [], True, True
    k, rerank, umbral = 1, 0, 1
    while len(walk) < changes:
        if (k < 12) if k_up else (k > 1):
            k += 1 if k_up else -1
            walk.append(("k", "ArrowRight" if k_up else "ArrowLeft"))
        elif (rerank < 12) if rerank_up else (rerank > 0):
            rerank += 1 if rerank_up else -1
            walk.append(("rerank", "ArrowRight" if rerank_up else "ArrowLeft"))
            k_up = not k_up
        elif umbral < 3:
            umbral += 1
            walk.append(("umbral", "ArrowRight"))
            k_up, rerank_up = not k_up, not rerank_up
        else:
            break  # 12 × 13 × 3 states: more than any --changes asked of it
    return walk


def build_times() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "RAGLAB_CACHE": str(Path(tmp) / "cache")}
        command = [sys.executable, str(ROOT / "build.py"), "build", "--out", str(Path(tmp) / "dist")]
        times = {}
        for label in ("clean", "nothing changed"):
            start = time.perf_counter()
            subprocess.run(command, env=env, check=True, capture_output=True)
            times[label] = time.perf_counter() - start
        return times


def summary(values):
    values = [v for v in values if v is not None]
    if not values:
        return {"median": None, "min": None, "max": None}
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--changes", type=int, default=200)
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--skip-build", action="store_true", help="do not time build.py")
    parser.add_argument("--no-throttle", action="store_true", help="skip the slow-network profile")
    parser.add_argument("--latency-only", action="store_true", help="only the input latency figures")
    args = parser.parse_args()
    if not (args.dist / "index.html").exists():
        sys.exit(f"{args.dist}/index.html not found: run `make` first")

    from playwright.sync_api import sync_playwright

    httpd, base = serve(args.dist)
    results = {"runs": args.runs, "pages": {}}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        results["browser"] = browser.version
        for name, url in () if args.latency_only else (("lab", base), ("plain", base + "__plain/")):
            cold = []
            for _ in range(args.runs):
                context = browser.new_context()
                cold.append(load_once(context, url, check_ssr=name == "lab"))
                context.close()
            context = browser.new_context()
            load_once(context, url, check_ssr=False)  # the first visit fills caches
            if name == "lab":  # let the service worker finish precaching before the repeat visits
                page = context.new_page()
                page.goto(url)
                page.wait_for_selector("html[data-ready=true]", state="attached", timeout=120_000)
                page.evaluate("navigator.serviceWorker ? navigator.serviceWorker.ready.then(() => true) : true")
                # and the worker to keep the decoded snapshot in Cache Storage (a second after ready)
                for _ in range(100):
                    if page.evaluate(HAS_KEPT_SNAPSHOT):
                        break
                    page.wait_for_timeout(100)
                page.close()
            repeat = [load_once(context, url, check_ssr=False) for _ in range(args.runs)]
            context.close()
            results["pages"][name] = {"cold": cold, "repeat": repeat}
        context = browser.new_context()
        results["latency_ms"] = input_latency(context, base, args.changes)
        context.close()
        if not args.no_throttle and not args.latency_only:
            results["throttled"] = {}
            for name, url in (("lab", base), ("plain", base + "__plain/")):
                context = browser.new_context(service_workers="block")
                results["throttled"][name] = load_once(context, url, check_ssr=False, network=SLOW_NETWORK)
                context.close()
        browser.close()
    httpd.shutdown()
    if not args.skip_build and not args.latency_only:
        results["build_s"] = build_times()
    report(results)
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"page-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(json.dumps(results, indent=2), "utf-8")
    print(f"\nwritten {path.relative_to(ROOT)}")


def report(results):
    if not results["pages"]:  # --latency-only
        print(f"Chromium {results['browser']}")
        report_latency(results)
        return
    lab, plain = results["pages"]["lab"], results["pages"]["plain"]
    rows = []

    def add(label, key, visit, unit, scale=1.0):
        ours = summary([r[key] for r in lab[visit]])
        ref = summary([r[key] for r in plain[visit]])
        ratio = (ref["median"] / ours["median"]) if ours["median"] and ref["median"] else None
        rows.append((label, ours, ref, unit, scale, ratio))

    add("first contentful paint, cold", "fcp", "cold", "ms")
    add("time to interactive, cold", "tti", "cold", "ms")
    add("time to interactive, repeat", "tti", "repeat", "ms")
    add("total blocking time, cold", "tbt", "cold", "ms")
    add("bytes on the wire, first visit", "wire_bytes", "cold", "MB", 1e-6)
    add("bytes decoded, first visit", "decoded_bytes", "cold", "MB", 1e-6)
    add("bytes on the wire, repeat visit", "wire_bytes", "repeat", "MB", 1e-6)
    print(f"Chromium {results['browser']}, {results['runs']} runs each; medians [min–max]\n")
    print(f"{'figure':34} {'this page':>26} {'plain Pyodide boot':>26} {'plain / ours':>13}")

    def cell(s, scale, unit):
        if s["median"] is None:
            return "—"
        return f"{s['median'] * scale:8.2f} [{s['min'] * scale:.2f}–{s['max'] * scale:.2f}] {unit}"

    for label, ours, ref, unit, scale, ratio in rows:
        print(f"{label:34} {cell(ours, scale, unit):>26} {cell(ref, scale, unit):>26} {ratio and f'{ratio:10.2f}×' or '—':>13}")
    names = sorted({n for r in lab["cold"] for n in r.get("marks", {})}, key=lambda n: statistics.median(
        [r["marks"][n] for r in lab["cold"] if n in r.get("marks", {})]))
    if names:
        steps = ", ".join(f"{n} {statistics.median([r['marks'][n] for r in lab['cold'] if n in r['marks']]):.0f}"
                          for n in names)
        print(f"\nworker boot milestones, cold (ms after navigation start, medians): {steps}")
    wire = statistics.median(r["wire_bytes"] for r in lab["cold"]) / statistics.median(r["wire_bytes"] for r in plain["cold"])
    decoded = statistics.median(r["decoded_bytes"] for r in lab["cold"]) / statistics.median(
        r["decoded_bytes"] for r in plain["cold"])
    print(f"\nfirst-visit bytes, this page / plain boot: {wire:.3f}× on the wire (compressed), {decoded:.2f}× decoded")
    for name, page in (("this page", lab), ("plain boot", plain)):
        files = sorted(page["cold"][0]["wire_by_file"].items(), key=lambda item: -item[1])
        print(f"  {name}: " + ", ".join(f"{file} {size / 1e3:,.0f} kB" for file, size in files if size >= 1000))
    ssr = all(r.get("ssr_at_fcp") for r in lab["cold"])
    print(f"\nserver-rendered numbers present at first contentful paint: {'yes' if ssr else 'NO'}")
    report_latency(results)
    if "throttled" in results:
        lab_s, plain_s = (results["throttled"][n]["tti"] / 1000 for n in ("lab", "plain"))
        print(f"slow network (1.6 Mbit/s, 150 ms RTT), cold time to interactive: this page {lab_s:.1f} s, "
              f"plain boot {plain_s:.1f} s ({plain_s / lab_s:.2f}×)")
    if "build_s" in results:
        print("build: " + ", ".join(f"{k} {v:.2f} s" for k, v in results["build_s"].items()))


def report_latency(results):
    for walk, latency in results["latency_ms"].items():
        print(f"input → outputs updated, {walk} ({len(latency)} changes): p50 {percentile(latency, 50):.1f} ms, "
              f"p95 {percentile(latency, 95):.1f} ms, max {max(latency):.1f} ms")


if __name__ == "__main__":
    main()
