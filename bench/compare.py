"""Python ready of two or more builds of the page on each profile and kind of host, loads interleaved.

    .venv/bin/python bench/compare.py [--runs 5] [--profiles desktop phone] [--hosts precompressed uncompressed]
                                      [--no-repeat] DIST [DIST …]

Times on a shared 2-core machine drift by a third between runs, so a before/after comparison is
only fair within one run. For each profile (desktop: the machine as it is; phone: every Chromium
thread at half a CPU, on 4G; bench/harness.py) one browser is launched, and each round loads every
build, and the plain Pyodide boot served from the first build's files, cold (a fresh context,
service workers blocked) behind each kind of host: one that sends the precompressed copies and one
that sends every file as it is. The order of the loads reverses every other round.

Prints, per profile and host: each page's Python ready (navigation start → "raglab:ready"), first
contentful paint and bytes on the wire (medians [min–max]); the plain boot's Python ready over each
build's; and each build's Python ready over the first build's, as the median of the rounds' ratios
(a drift of the machine's speed between rounds cancels out). On the desktop, unless --no-repeat,
also repeat visits: one context per build and host, made a repeat visit first (service worker
installed, decoded snapshot kept), then reloaded in turn. To build an older commit:
``git worktree add ../old <commit> && cd ../old && ln -s <this clone>/node_modules . &&
<this clone>/.venv/bin/python build.py build --out ../dist-old``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from harness import CHROMIUM_ARGS, FOUR_G, HOSTS, PhoneCpu, find_chromium, serve
from loads import make_repeat_visit, profile_load, warm_up

PLAIN = "plain boot"


def launch(p, profile: str, chromium: str, phone: PhoneCpu | None):
    """The profile's browser, and the network its pages get."""
    if profile == "phone":
        return p.chromium.launch(executable_path=phone.path, args=CHROMIUM_ARGS), FOUR_G
    return p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS), None


def cold_rounds(browser, network, pages: list[tuple[str, str, str]], runs: int) -> dict:
    """``runs`` rounds of one cold load of each ``(host, name, url)``: {(host, name): [figures, …]}."""
    found = {(host, name): [] for host, name, _ in pages}
    for round_ in range(runs):
        for host, name, url in pages if round_ % 2 == 0 else pages[::-1]:
            context = browser.new_context(service_workers="block")
            figures = profile_load(context, url, network, None, wire=True)
            figures["round"] = round_
            context.close()
            if figures["tti"] is None:
                print(f"  {host:13} {name:30} NOT READY after 300 s (left out); status {figures['status']!r}, "
                      f"marks {figures['marks']}", file=sys.stderr, flush=True)
                continue
            found[host, name].append(figures)
            print(f"  {host:13} {name:30} ready {figures['tti']:7.0f} ms  {figures['wire_bytes'] / 1e6:5.2f} MB",
                  file=sys.stderr, flush=True)
    return found


def repeat_rounds(browser, pages: list[tuple[str, str, str]], runs: int) -> dict:
    """Repeat visits of each build: {(host, name): [{"tti": Python ready, "round": …}, …]}."""
    contexts = []
    for host, name, url in pages:
        context = browser.new_context()
        make_repeat_visit(context, url)
        contexts.append((host, name, url, context))
    found = {(host, name): [] for host, name, _ in pages}
    for round_ in range(runs):
        for host, name, url, context in contexts:
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector("html[data-ready=true]", state="attached", timeout=120_000)
            ready = page.evaluate("performance.getEntriesByName('raglab:ready')[0].startTime")
            found[host, name].append({"tti": ready, "round": round_})
            page.close()
    for *_, context in contexts:
        context.close()
    return found


def spread(values, scale=1.0, digits=0) -> str:
    values = [value * scale for value in values]
    return f"{statistics.median(values):.{digits}f} [{min(values):.{digits}f}–{max(values):.{digits}f}]"


def paired(first: list[dict], other: list[dict], key: str = "tti") -> str:
    """The median over rounds of other ÷ first, and in how many rounds ``other`` was sooner (rounds
    where either load was left out do not count)."""
    pairs = [(a[key], b[key]) for a, b in zip(by_round(first), by_round(other)) if a and b]
    ratios = [b / a for a, b in pairs]
    sooner = sum(b < a for a, b in pairs)
    return f"{statistics.median(ratios):.3f}× (sooner in {sooner} of {len(ratios)})"


def by_round(loads: list[dict]) -> list[dict | None]:
    """``loads`` at their round's place (None where a load was left out)."""
    rounds = [None] * (max((f["round"] for f in loads), default=-1) + 1)
    for figures in loads:
        rounds[figures["round"]] = figures
    return rounds


def report(profile: str, cold: dict, repeat: dict, names: list[str], hosts: list[str], runs: int) -> None:
    for host in hosts:
        print(f"\n{profile}, {host} host, {runs} cold loads each, interleaved (ms and MB: median [min–max])")
        print(f"{'page':30} {'Python ready':>22} {'first paint':>18} {'MB on the wire':>20} {'plain ÷ it':>11}  it ÷ first, by round")
        plain = statistics.median(f["tti"] for f in cold[host, PLAIN])
        for name in names + [PLAIN]:
            loads = cold[host, name]
            ready = [f["tti"] for f in loads]
            ratio = "" if name == PLAIN else f"{plain / statistics.median(ready):10.2f}×"
            versus = "" if name in (PLAIN, names[0]) else paired(cold[host, names[0]], loads)
            left_out = f"  ({runs - len(loads)} left out)" if len(loads) < runs else ""
            print(f"{name:30} {spread(ready):>22} {spread([f['fcp'] for f in loads]):>18} "
                  f"{spread([f['wire_bytes'] for f in loads], 1e-6, 2):>20} {ratio:>11}  {versus}{left_out}")
        if repeat:
            for name in names:
                versus = "" if name == names[0] else paired(repeat[host, names[0]], repeat[host, name])
                ready = [f["tti"] for f in repeat[host, name]]
                print(f"{'repeat: ' + name:30} {spread(ready):>22} {'':>18} {'':>20} {'':>11}  {versus}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profiles", nargs="+", choices=("desktop", "phone"), default=["desktop", "phone"])
    parser.add_argument("--hosts", nargs="+", choices=tuple(HOSTS), default=list(HOSTS))
    parser.add_argument("--no-repeat", action="store_true", help="no repeat visits on the desktop")
    parser.add_argument("dists", type=Path, nargs="+")
    args = parser.parse_args()
    for dist in args.dists:
        if not (dist / "index.html").exists():
            sys.exit(f"{dist}/index.html not found")
    names = [str(dist) for dist in args.dists]
    if len(set(names)) != len(names):
        sys.exit("each build once")

    from playwright.sync_api import sync_playwright

    servers = {(host, str(dist)): serve(dist, host) for host in args.hosts for dist in args.dists}
    pages = [(host, str(dist), servers[host, str(dist)][1]) for host in args.hosts for dist in args.dists]
    pages += [(host, PLAIN, servers[host, names[0]][1] + "__plain/") for host in args.hosts]
    chromium = find_chromium()
    phone = PhoneCpu(chromium) if "phone" in args.profiles else None
    if phone and not phone.path:
        sys.exit(f"no phone CPU profile here: {phone.reason}")
    try:
        with sync_playwright() as p:
            for profile in args.profiles:
                browser, network = launch(p, profile, chromium, phone)
                print(f"{profile}: Chromium {browser.version}", file=sys.stderr, flush=True)
                warm_up(browser, pages[0][2], network, None)
                cold = cold_rounds(browser, network, pages, args.runs)
                builds = [page for page in pages if page[1] != PLAIN]
                repeat = repeat_rounds(browser, builds, args.runs) if profile == "desktop" and not args.no_repeat else {}
                browser.close()
                report(profile, cold, repeat, names, args.hosts, args.runs)
    finally:
        if phone:
            phone.close()
        for httpd, _ in servers.values():
            httpd.shutdown()


if __name__ == "__main__":
    main()
