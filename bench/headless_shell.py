"""What one test page costs in the full Chromium and in its headless shell: repeat-visit boots in
one context (as the browser tests boot), each followed by four moves of k, interleaved by browser.

    python bench/headless_shell.py [--dist dist] [--pages 7] [--rounds 2]

For each page: wall time from navigation until the moves' view is shown, and the CPU time of the
whole machine over that span (from /proc/stat, so every Chromium process and thread counts).
The first page of each launch fills the HTTP and wasm caches and is left out. Not a test:
absolute times on a shared machine are noisy, read the ratio within one run.
"""

import argparse
import os
import statistics
import time
from pathlib import Path

from harness import CHROMIUM_ARGS, ROOT, find_chromium, find_test_chromium

from raglab_site.devserver import serving


def machine_cpu_seconds() -> float:
    fields = [int(v) for v in open("/proc/stat").readline().split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")  # all but idle and iowait


def boots(p, executable: str, url: str, pages: int) -> list[tuple[float, float]]:
    from playwright.sync_api import expect

    browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
    context = browser.new_context(service_workers="block")
    measured = []
    for number in range(pages):
        page = context.new_page()
        wall, cpu = time.monotonic(), machine_cpu_seconds()
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=60_000)
        k = page.locator('[name="k"]')
        k.focus()
        for _ in range(4):
            k.press("ArrowRight")
        expect(page.locator("[data-busy-region][aria-busy]")).to_have_count(0)
        if number:
            measured.append((time.monotonic() - wall, machine_cpu_seconds() - cpu))
        page.close()
    browser.close()
    return measured


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--pages", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    browsers = {"full browser": find_chromium(), "headless shell": find_test_chromium()}
    from playwright.sync_api import sync_playwright

    results = {name: [] for name in browsers}
    with serving(args.dist) as url, sync_playwright() as p:
        for _ in range(args.rounds):
            for name, executable in browsers.items():
                results[name] += boots(p, executable, url, args.pages)
    print(f"repeat-visit boot + 4 moves of k, {len(results['full browser'])} pages each (medians)")
    medians = {}
    for name, values in results.items():
        medians[name] = (statistics.median(w for w, _ in values), statistics.median(c for _, c in values))
        print(f"{name:15} {browsers[name]:38} wall {medians[name][0]:.2f} s  CPU {medians[name][1]:.2f} s")
    full, shell = medians["full browser"], medians["headless shell"]
    print(f"full / shell: wall {full[0] / shell[0]:.2f}×, CPU {full[1] / shell[1]:.2f}×")


if __name__ == "__main__":
    main()
