"""Where the first move's time goes: cold loads of the lab on the desktop or phone profile, the key
pressed at first paint as bench/page.py's profiles do (bench/loads.py), each load traced or profiled.

    .venv/bin/python bench/first_move.py [--profile desktop|phone] [--loads 3] [--cpu-profile] [--dist dist]

Without --cpu-profile: a Chromium trace of each load, and the renderer main thread's tasks over
2 ms from navigation to the key's frame, each with the kinds of work that took most of it (layout,
scripts by file, event dispatch, GC…). With --cpu-profile: V8's sampling profiler (100 µs) over the
load instead, and the samples inside the slider's input handler by function, inclusive and self.
On the phone profile the cgroup stops every Chromium thread when its half CPU is spent, until the
next 100 ms period: the sampler charges such a stop to whatever was running, so a function's
share there is not its cost (docs/performance.md, «Where the first move's time goes»).
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

import harness
import loads
from playwright.sync_api import sync_playwright

TOP_LEVEL = ("RunTask", "ThreadControllerImpl::RunTask")
NAMED_BY_DATA = ("EvaluateScript", "v8.compile", "FunctionCall", "EventDispatch", "ParseHTML", "TimerFire")
CHANGED = "changed lab."  # lab.js's changed(), which a slider's input listener calls: the frames under it


def tasks(events: list[dict], painted_ms: float) -> list[tuple[float, float, list[tuple[str, float]]]]:
    """The renderer main thread's top-level tasks over 2 ms, from navigation to 20 ms after the key's
    frame: (start ms, duration ms, [(kind of work, ms), …] largest first)."""
    start = next(e["ts"] for e in events if e.get("name") == "navigationStart")
    paint = next(e for e in events if e.get("name") == "firstContentfulPaint")
    main = (paint["pid"], paint["tid"])
    end = start + (painted_ms + 20) * 1000
    mine = [e for e in events if (e["pid"], e["tid"]) == main and e.get("ph") == "X" and start <= e["ts"] <= end]
    found = []
    for task in (e for e in mine if e["name"] in TOP_LEVEL and e.get("dur", 0) > 2000):
        work: dict[str, float] = collections.Counter()
        for e in mine:
            if e is task or e["name"] in TOP_LEVEL or not task["ts"] <= e["ts"] <= task["ts"] + task["dur"]:
                continue
            label = e["name"]
            if label in NAMED_BY_DATA:
                data = e.get("args", {}).get("data", {}) or {}
                detail = data.get("url") or data.get("type") or data.get("functionName") or ""
                label += ":" + str(detail).rsplit("/", 1)[-1][:40]
            work[label] += e.get("dur", 0) / 1000
        found.append(((task["ts"] - start) / 1000, task["dur"] / 1000, work.most_common(6)))
    return found


def handler_samples(profile: dict) -> tuple[collections.Counter, collections.Counter]:
    """Milliseconds of the samples taken inside lab.js's changed() (a slider's change, up to its view
    written): by function, inclusive and self."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", [])}

    def frames(node_id):
        while node_id in nodes:
            frame = nodes[node_id]["callFrame"]
            yield f'{frame["functionName"] or "(anonymous)"} {frame["url"].rsplit("/", 1)[-1]}:{frame["lineNumber"] + 1}'
            node_id = parent.get(node_id)

    inclusive, own = collections.Counter(), collections.Counter()
    for sample, delta in zip(profile["samples"], profile["timeDeltas"][1:] + [0]):
        stack = list(frames(sample))
        outermost = [i for i, frame in enumerate(stack) if frame.startswith(CHANGED)]
        if not outermost:
            continue
        own[stack[0]] += delta / 1000
        for frame in set(stack[: outermost[-1] + 1]):
            inclusive[frame] += delta / 1000
    return inclusive, own


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", choices=("desktop", "phone"), default="desktop")
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--cpu-profile", action="store_true", help="V8's sampling profiler instead of a trace")
    parser.add_argument("--dist", type=Path, default=harness.ROOT / "dist")
    args = parser.parse_args()
    dist = args.dist.resolve()
    move = loads.first_move(dist)
    httpd, base = harness.serve(dist)
    chromium = harness.find_chromium()
    phone = harness.PhoneCpu(chromium) if args.profile == "phone" else None
    if phone and not phone.path:
        raise SystemExit(f"no phone CPU profile here: {phone.reason}")
    network = harness.FOUR_G if phone else None
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=phone.path if phone else chromium, args=harness.CHROMIUM_ARGS)
            loads.warm_up(browser, base, network, None)
            for load in range(args.loads):
                context = browser.new_context(service_workers="block")
                page = context.new_page()
                page.add_init_script(loads.WATCH_CORRECT % json.dumps(move[2]))
                cdp = loads.throttle(context, page, network)
                if args.cpu_profile:
                    cdp.send("Profiler.enable")
                    cdp.send("Profiler.setSamplingInterval", {"interval": 100})
                    cdp.send("Profiler.start")
                else:
                    browser.start_tracing(page=page, categories=loads.TRACE_CATEGORIES)
                page.goto(base, wait_until="commit")
                figures = loads.first_paint_then_move(page, move)
                marks = ", ".join(f"{name} {at:.0f}" for name, at in sorted(figures["marks"].items(), key=lambda m: m[1]))
                print(f"\nload {load + 1} ({args.profile}): paint {figures['fcp']:.0f} ms, paint seen {figures['moved_at']:.0f}, "
                      f"key {figures['key_down']:.0f}, outputs written {figures['correct_written']:.0f}, "
                      f"painted {figures['first_correct']:.0f}; marks: {marks}")
                if args.cpu_profile:
                    inclusive, own = handler_samples(cdp.send("Profiler.stop")["profile"])
                    print("  samples inside changed(), inclusive (ms): " + ", ".join(f"{f} {ms:.1f}" for f, ms in inclusive.most_common(8)))
                    print("  self (ms): " + ", ".join(f"{f} {ms:.1f}" for f, ms in own.most_common(8)))
                else:
                    page.wait_for_timeout(100)
                    events = json.loads(browser.stop_tracing())["traceEvents"]
                    for at, duration, work in tasks(events, figures["first_correct"]):
                        print(f"  {at:7.0f} ms +{duration:4.0f}  " + ", ".join(f"{kind} {ms:.0f}" for kind, ms in work))
                context.close()
            browser.close()
    finally:
        if phone:
            phone.close()
        httpd.shutdown()


if __name__ == "__main__":
    main()
