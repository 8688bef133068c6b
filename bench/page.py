"""Page benchmark: load and interaction figures for dist/, against a plain Pyodide boot, in one run.

    .venv/bin/python bench/page.py [--runs 5] [--changes 200] [--dist dist]     (or: make bench)

Builds nothing for the page figures: it serves the existing dist/ (run `make` first) on localhost
and drives headless Chromium:

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
* all of it behind both kinds of host (--hosts; bench/harness.py): one that sends the precompressed
  copies and one that sends every file as it is (python -m http.server); input latency behind the
  first only;
* build time: clean (empty snapshot cache) and with nothing changed, into a temporary directory;
* profiles (on unless --no-throttle; alone with --profiles-only): cold loads of both pages on the
  desktop as it is, a phone (every Chromium thread at half a CPU through a cgroup, 4G: 9 Mbit/s,
  60 ms) and a slow network; time to first correct interaction: a slider moved as soon as the page
  has painted, until the frame showing the outputs raglab_core.compute gives is presented (Event
  Timing), and when they were written; the view table's sizes. Each profile's browser first loads
  the lab once, uncounted (warm_up), so that the browser's own start is neither page's;
* a throttled load (--throttle, on by default): one cold load of each page over a slow network
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
import time
from pathlib import Path

from harness import CHROMIUM_ARGS, DEVTOOLS_CPU_RATE, FOUR_G, HOSTS, ROOT, SLOW_NETWORK, PhoneCpu, find_chromium, lab_config, serve
from loads import TRACE_CATEGORIES, first_move, make_repeat_visit, profile_load, throttle, warm_up

# Long tasks and paint entries are buffered by the browser; this only has to read them at the end.
OBSERVE = """
window.__longTasks = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]); })
  .observe({type: "longtask", buffered: true});
"""


def profiles(p, chromium: str, bases: dict[str, str], dist: Path, runs: int) -> dict:
    """Cold loads of both pages behind each host (``bases``: {host: base URL}) on the desktop (as it
    is), phone (half a CPU, 4G) and slow-network profiles, the loads' order reversed every other
    round. Service workers are blocked: every load is a first visit. {profile: {host: {page: [figures, …]}}}."""
    move = first_move(dist)
    phone = PhoneCpu(chromium)
    results = {"phone_cpu": "cgroup: every thread at half a CPU" if phone.path else
               f"DevTools CPU throttle ×{DEVTOOLS_CPU_RATE}, main thread only: {phone.reason}"}
    loads = [(host, page, base + suffix) for host, base in bases.items() for page, suffix in (("lab", ""), ("plain", "__plain/"))]
    try:
        for name, network, launch_path, rate in (
            ("desktop", None, chromium, None),
            ("phone", FOUR_G, phone.path or chromium, None if phone.path else DEVTOOLS_CPU_RATE),
            ("slow network", SLOW_NETWORK, chromium, None),
        ):
            browser = p.chromium.launch(executable_path=launch_path, args=CHROMIUM_ARGS)
            warm_up(browser, loads[0][2], network, rate)
            found = {host: {"lab": [], "plain": []} for host in bases}
            for round_ in range(runs):  # no page always follows another
                for host, page, url in loads if round_ % 2 == 0 else loads[::-1]:
                    context = browser.new_context(service_workers="block")
                    figures = profile_load(context, url, network, rate, move if page == "lab" else None, wire=True)
                    context.close()
                    if figures["tti"] is None:  # reported, and left out of the medians
                        print(f"{name}, {host}, {page}: NOT READY after 300 s; status {figures['status']!r}, "
                              f"marks {figures['marks']}", file=sys.stderr, flush=True)
                    else:
                        found[host][page].append(figures)
            browser.close()
            results[name] = found
    finally:
        phone.close()
    return results


TRACE_WORK = {"ParseHTML": "parsing HTML", "UpdateLayoutTree": "style", "Layout": "layout",
              "PrePaint": "pre-paint", "Paint": "paint", "Layerize": "layerize", "EvaluateScript": "scripts",
              "v8.compile": "script compile", "FunctionCall": "scripts (calls)", "ParseAuthorStyleSheet": "parsing CSS",
              "HitTest": "hit test", "Commit": "commit"}


def trace_first_paint(p, chromium: str, base: str, launch_path: str | None, cpu_rate: int | None) -> dict:
    """One cold phone-profile load of the lab, traced: what the renderer's main thread did before the
    first contentful paint (ms per kind of work), and when the HTML and the stylesheet had arrived."""
    browser = p.chromium.launch(executable_path=launch_path or chromium, args=CHROMIUM_ARGS)
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    throttle(context, page, FOUR_G, cpu_rate)
    browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
    page.goto(base, wait_until="load")
    page.wait_for_timeout(500)
    events = json.loads(browser.stop_tracing())["traceEvents"]
    browser.close()
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    start = next(e["ts"] for e in events if e.get("name") == "navigationStart")
    fcp_event = next(e for e in events if e.get("name") == "firstContentfulPaint")
    fcp = fcp_event["ts"]
    main = (fcp_event["pid"], fcp_event["tid"])
    if names.get(main) != "CrRendererMain":
        raise RuntimeError(f"first paint traced on thread {names.get(main)!r}, not the renderer's main thread")
    work: dict[str, float] = {}
    for e in events:
        if (e["pid"], e["tid"]) != main or e.get("ph") != "X" or e["ts"] > fcp or e.get("name") not in TRACE_WORK:
            continue
        label = TRACE_WORK[e["name"]]
        work[label] = work.get(label, 0.0) + min(e.get("dur", 0), fcp - e["ts"]) / 1000
    arrived = {}
    for e in events:
        if e.get("name") == "ResourceFinish" and e["ts"] <= fcp + 5e6:
            request = e["args"]["data"]["requestId"]
            url = next((x["args"]["data"]["url"] for x in events if x.get("name") == "ResourceSendRequest"
                        and x["args"]["data"]["requestId"] == request), "")
            file = url.rsplit("/", 1)[-1] or "(page)"
            if file == "(page)" or file.endswith((".css", ".js")) and "lab" in file:
                arrived[file] = (e["ts"] - start) / 1000
    top_level = sum(e.get("dur", 0) for e in events if (e["pid"], e["tid"]) == main and e.get("ph") == "X"
                    and e.get("name") in ("RunTask", "ThreadControllerImpl::RunTask") and start <= e["ts"] <= fcp) / 1000
    return {"fcp": (fcp - start) / 1000, "main_thread_busy": top_level, "work": work, "arrived": arrived}


def table_sizes(dist: Path) -> dict:
    """The build-time view table's bytes: as shipped (gzip-compressed), and decoded."""
    import gzip

    url = lab_config(dist).get("views", {}).get("url")
    if not url:
        return {}
    shipped = (dist / url).read_bytes()
    return {"raw": len(gzip.decompress(shipped)), "gzip": len(shipped)}


def load_once(context, url: str, check_ssr: bool, network: dict | None = None) -> dict:
    """Navigate, wait for readiness, and collect timings and bytes for this load."""
    page = context.new_page()
    if network:
        throttle(context, page, network)
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
    figures["wire_by_file"] = {}
    for url, size, _, from_service_worker in transfers:
        if not from_service_worker:  # (a file asked for twice, a preload and the worker's request, once)
            name = url.rsplit("/", 1)[-1] or "(page)"
            figures["wire_by_file"][name] = figures["wire_by_file"].get(name, 0) + size
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
    parser.add_argument("--profiles-only", action="store_true",
                        help="only the desktop, phone and slow-network profiles (time to first correct interaction)")
    parser.add_argument("--profile-runs", type=int, default=1, help="cold loads per page and profile (default 1)")
    parser.add_argument("--trace-paint", action="store_true",
                        help="only a trace of one phone-profile load: what the first paint waits for")
    parser.add_argument("--hosts", nargs="+", choices=tuple(HOSTS), default=list(HOSTS),
                        help="the kinds of host to serve dist/ as (default: both)")
    args = parser.parse_args()
    if not (args.dist / "index.html").exists():
        sys.exit(f"{args.dist}/index.html not found: run `make` first")

    from playwright.sync_api import sync_playwright

    servers = {host: serve(args.dist, host) for host in args.hosts}
    bases = {host: base for host, (_, base) in servers.items()}
    base = bases[args.hosts[0]]  # for what the host does not change: input latency, the paint's trace
    results = {"runs": args.runs, "hosts": args.hosts, "pages": {}, "table_bytes": table_sizes(args.dist)}
    try:
        with sync_playwright() as p:
            if args.trace_paint:
                phone = PhoneCpu(find_chromium())
                try:
                    trace = trace_first_paint(p, find_chromium(), base, phone.path, None if phone.path else DEVTOOLS_CPU_RATE)
                finally:
                    phone.close()
                print(f"phone profile ({'cgroup, half a CPU' if phone.path else 'DevTools CPU throttle, main thread only'}"
                      f", 4G), one cold load: first contentful paint at {trace['fcp']:.0f} ms; main thread busy "
                      f"{trace['main_thread_busy']:.0f} ms before it")
                print("  main-thread work before the first paint (ms): " + ", ".join(
                    f"{label} {ms:.0f}" for label, ms in sorted(trace["work"].items(), key=lambda item: -item[1])))
                print("  arrived (ms after navigation start): " + ", ".join(
                    f"{file} {ms:.0f}" for file, ms in sorted(trace["arrived"].items(), key=lambda item: item[1])))
                return
            if args.profiles_only:
                results["profiles"] = profiles(p, find_chromium(), bases, args.dist, args.profile_runs)
            browser = p.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
            results["browser"] = browser.version
            for host in () if args.latency_only or args.profiles_only else args.hosts:
                results["pages"][host] = {}
                for name, url in (("lab", bases[host]), ("plain", bases[host] + "__plain/")):
                    cold = []
                    for _ in range(args.runs):
                        context = browser.new_context()
                        cold.append(load_once(context, url, check_ssr=name == "lab"))
                        context.close()
                    context = browser.new_context()
                    load_once(context, url, check_ssr=False)  # the first visit fills caches
                    if name == "lab":  # and the service worker precaches, the worker keeps the decoded snapshot
                        make_repeat_visit(context, url)
                    repeat = [load_once(context, url, check_ssr=False) for _ in range(args.runs)]
                    context.close()
                    results["pages"][host][name] = {"cold": cold, "repeat": repeat}
            if not args.profiles_only:
                context = browser.new_context()
                results["latency_ms"] = input_latency(context, base, args.changes)
                context.close()
            if not args.no_throttle and not args.latency_only and not args.profiles_only:
                results["throttled"] = {}
                for host in args.hosts:
                    results["throttled"][host] = {}
                    for name, url in (("lab", bases[host]), ("plain", bases[host] + "__plain/")):
                        context = browser.new_context(service_workers="block")
                        results["throttled"][host][name] = load_once(context, url, check_ssr=False, network=SLOW_NETWORK)
                        context.close()
            browser.close()
            if not args.no_throttle and not args.latency_only and not args.profiles_only:
                results["profiles"] = profiles(p, find_chromium(), bases, args.dist, args.profile_runs)
    finally:
        for httpd, _ in servers.values():
            httpd.shutdown()
    if not args.skip_build and not args.latency_only and not args.profiles_only:
        results["build_s"] = build_times()
    report(results)
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"page-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(json.dumps(results, indent=2), "utf-8")
    print(f"\nwritten {path.relative_to(ROOT)}")


def report(results):
    print(f"Chromium {results['browser']}")
    for host, pages in results["pages"].items():
        report_pages(host, pages["lab"], pages["plain"], results["runs"])
    if "latency_ms" in results:
        print()
        report_latency(results)
    for host, loads in results.get("throttled", {}).items():
        lab_s, plain_s = (loads[name]["tti"] / 1000 for name in ("lab", "plain"))
        print(f"slow network (1.6 Mbit/s, 150 ms RTT), {host} host, cold time to interactive: this page {lab_s:.1f} s, "
              f"plain boot {plain_s:.1f} s ({plain_s / lab_s:.2f}×)")
    if "profiles" in results:
        report_profiles(results)
    if "build_s" in results:
        print("build: " + ", ".join(f"{k} {v:.2f} s" for k, v in results["build_s"].items()))


def report_pages(host: str, lab: dict, plain: dict, runs: int) -> None:
    """The load figures of both pages behind one host, cold and repeat."""
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
    print(f"\n{host} host, {runs} runs each; medians [min–max]\n")
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
    print(f"\nfirst-visit bytes, this page / plain boot: {wire:.3f}× on the wire, {decoded:.2f}× decoded")
    for name, page in (("this page", lab), ("plain boot", plain)):
        files = sorted(page["cold"][0]["wire_by_file"].items(), key=lambda item: -item[1])
        print(f"  {name}: " + ", ".join(f"{file} {size / 1e3:,.0f} kB" for file, size in files if size >= 1000))
    ssr = all(r.get("ssr_at_fcp") for r in lab["cold"])
    print(f"server-rendered numbers present at first contentful paint: {'yes' if ssr else 'NO'}")


def report_profiles(results):
    """Per profile and host, cold (medians over --profile-runs): first paint, first correct
    interaction, Python ready and bytes on the wire for the lab, Python ready for the plain boot,
    and the ratios."""
    found = results["profiles"]
    print(f"\nprofiles, cold, service workers blocked (phone CPU: {found['phone_cpu']}; phone network 9 Mbit/s, 60 ms;"
          " slow network 1.6 Mbit/s, 150 ms)")
    print(f"{'profile':14} {'host':14} {'lab paint':>10} {'first correct':>14} {'lab ready':>10} {'lab MB':>7} "
          f"{'plain ready':>12} {'plain MB':>9} {'plain ready / first correct':>28} {'plain / lab ready':>18}")
    for name in ("desktop", "phone", "slow network"):
        for host, pages in found.get(name, {}).items():
            med = lambda page, key: statistics.median(r[key] for r in pages[page])  # noqa: E731
            lab_first, lab_ready, plain_ready = med("lab", "first_correct"), med("lab", "tti"), med("plain", "tti")
            table = all(r.get("table") for r in pages["lab"])
            print(f"{name:14} {host:14} {med('lab', 'fcp'):8.0f}ms {lab_first:12.0f}ms {lab_ready:8.0f}ms "
                  f"{med('lab', 'wire_bytes') / 1e6:7.2f} {plain_ready:10.0f}ms {med('plain', 'wire_bytes') / 1e6:9.2f} "
                  f"{plain_ready / lab_first:27.1f}× {plain_ready / lab_ready:17.2f}×"
                  + ("" if table else "  (view table NOT in use)"))
            key_to_view = statistics.median(r["first_correct"] - r["key_down"] for r in pages["lab"])
            written = statistics.median(r["correct_written"] - r["key_down"] for r in pages["lab"])
            table_at = statistics.median(r["marks"].get("views-table", float("nan")) for r in pages["lab"])
            print(f"{'':29} (lab: view table in use at {table_at:.0f} ms, key pressed at {med('lab', 'key_down'):.0f} ms, "
                  f"key to correct outputs written {written:.0f} ms, painted {key_to_view:.0f} ms)")
    sizes = results.get("table_bytes")
    if sizes:
        print(f"view table: {sizes['raw'] / 1e3:.1f} kB raw, {sizes['gzip'] / 1e3:.1f} kB as shipped (gzip)")


def report_latency(results):
    for walk, latency in results["latency_ms"].items():
        print(f"input → outputs updated, {walk} ({len(latency)} changes): p50 {percentile(latency, 50):.1f} ms, "
              f"p95 {percentile(latency, 95):.1f} ms, max {max(latency):.1f} ms")


if __name__ == "__main__":
    main()
