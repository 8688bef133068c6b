"""The runtime's download on a profile: cold loads of one or more builds, interleaved, each to Python
ready, with the page's raglab marks and the resource timings of its big files.

    .venv/bin/python bench/downloads.py [--profile phone|desktop|slow] [--loads 3] [DIST …]

For each load: the first contentful paint, the marks in the order they came (boot-script,
views-table, worker-created, ready…), and for each file over 100 kB (the wasm, the snapshot, the
view table…) who asked for it (`link`: boot.js's preload, `other`: the worker), when its request
started and its last byte arrived, its bytes on the wire and the rate over that time; then
the same for all of them together (files downloading side by side share the link). This is what
docs/performance.md's «What bounds the phone's Python ready» reads: the network's rate against the
profile's. Service workers are blocked: every load is a first visit. Not a test: read the figures
of one run against each other.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import harness
import loads
from playwright.sync_api import sync_playwright

NETWORKS = {"phone": harness.FOUR_G, "desktop": None, "slow": harness.SLOW_NETWORK}
BIG_FILES = """() => performance.getEntriesByType("resource").filter((r) => r.transferSize > 100000)
  .map((r) => [r.name.split("/").pop(), r.initiatorType, r.startTime, r.responseEnd, r.transferSize])"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dists", type=Path, nargs="*", default=[harness.ROOT / "dist"])
    parser.add_argument("--profile", choices=tuple(NETWORKS), default="phone")
    parser.add_argument("--loads", type=int, default=3)
    args = parser.parse_args()
    servers = [harness.serve(dist.resolve()) for dist in args.dists]  # each its own server
    chromium = harness.find_chromium()
    phone = harness.PhoneCpu(chromium) if args.profile == "phone" else None
    if phone and not phone.path:
        raise SystemExit(f"no phone CPU profile here: {phone.reason}")
    network = NETWORKS[args.profile]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=phone.path if phone else chromium, args=harness.CHROMIUM_ARGS)
            loads.warm_up(browser, servers[0][1], network, None)
            for load in range(args.loads):
                for dist, (_, base) in zip(args.dists, servers):
                    context = browser.new_context(service_workers="block")
                    page = context.new_page()
                    loads.throttle(context, page, network)
                    page.goto(base, wait_until="commit")
                    page.wait_for_selector("html[data-ready=true]", state="attached", timeout=300_000)
                    paint = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")
                    marks, files = page.evaluate(loads.MARKS), page.evaluate(BIG_FILES)
                    context.close()
                    print(f"\n{dist.name}, load {load + 1} ({args.profile}): paint {paint:.0f} ms; "
                          + ", ".join(f"{name} {at:.0f}" for name, at in sorted(marks.items(), key=lambda m: m[1])), flush=True)
                    for name, initiator, start, end, size in files:
                        rate = size / (end - start) / 1e3 if end > start else float("nan")
                        print(f"  {name[:40]:40} {initiator:6} {start:7.0f} → {end:7.0f} ms  {size / 1e6:5.2f} MB  "
                              f"{rate:5.2f} MB/s")
                    if len(files) > 1:  # downloads side by side share the link: their sum is its rate
                        start, end = min(f[2] for f in files), max(f[3] for f in files)
                        total = sum(f[4] for f in files)
                        print(f"  {'together':47} {start:7.0f} → {end:7.0f} ms  {total / 1e6:5.2f} MB  "
                              f"{total / (end - start) / 1e3:5.2f} MB/s")
            browser.close()
    finally:
        if phone:
            phone.close()
        for httpd, _ in servers:
            httpd.shutdown()


if __name__ == "__main__":
    main()
