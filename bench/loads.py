"""One measured load of the page, as the page benchmarks make it: cold under a profile, with the
first slider move made at the first paint (time to first correct interaction), and the page's own
marks; or warmed into a repeat visit.

A load's figures are ms since navigation start: ``fcp`` (first contentful paint), ``tti`` (Python
ready: lab.js's mark "raglab:ready"), and with a move, ``key_down`` (the key reached the page),
``correct_written`` (every checked output holds compute()'s value for the new state) and
``first_correct`` (the frame showing them was presented: the key's Event Timing entry).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from harness import lab_config
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# Has the worker kept the decoded snapshot for the next visit (worker.js, after ready)?
from raglab_site.snapshot import KEPT_CACHE

HAS_KEPT_SNAPSHOT = f"self.caches ? caches.has({KEPT_CACHE!r}) : true"

# Installed at the document's start (an init script, given `expected`): once a key has reached the
# page, records when every checked output holds the value of the state asked for and nothing is marked
# busy (__correctAt; performance.now(): ms since navigation start), and when the frame after the key's
# handlers was presented (__keyPaintedAt: the Event Timing entry's startTime + duration, 8 ms steps).
# The observer watches `document`: when an init script runs, document.documentElement is still null.
WATCH_CORRECT = """(() => {
  const expected = %s;
  window.__correctAt = null;
  window.__keyAt = null;
  const check = () => {
    if (window.__keyAt === null || window.__correctAt !== null) return;
    if (document.querySelector("[data-busy-region][aria-busy]")) return;
    for (const [name, raw] of Object.entries(expected)) {
      const node = document.querySelector(`[data-output="${name}"]`);
      if (!node || node.getAttribute("data-value") !== raw) return;
    }
    window.__correctAt = performance.now();
  };
  addEventListener("keydown", () => {
    if (window.__keyAt === null) window.__keyAt = performance.now();
    setTimeout(check);
  }, true);
  new MutationObserver(check).observe(document, {subtree: true, attributes: true,
    attributeFilter: ["data-value", "aria-busy"]});
  window.__keyPaintedAt = null;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === "keydown" && window.__keyPaintedAt === null) window.__keyPaintedAt = entry.startTime + entry.duration;
    }
  }).observe({type: "event", buffered: true, durationThreshold: 16});
})();"""
# The page's own marks (boot.js, lab.js, the worker's relayed as "worker:…"): {name: ms since navigation}.
MARKS = """() => Object.fromEntries(performance.getEntriesByType("mark")
  .filter((m) => m.name.startsWith("raglab:")).map((m) => [m.name.slice(7), m.startTime]))"""
CHECKED = ("precision", "recall", "mrr", "ndcg", "relevant_in_k")
TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "loading"]


def first_move(dist: Path) -> tuple[str, str, dict]:
    """The slider move the profiles make at first paint (k one step up, or down if no checked output
    would change), and the data-value each checked output must then show: raglab_core.compute's."""
    from raglab_core import compute

    scenario = lab_config(dist)["scenario"]
    start = compute({"scenario": scenario})
    for key, step in (("ArrowRight", 1), ("ArrowLeft", -1)):
        view = compute({"scenario": scenario, "k": str(scenario["defaults"]["k"] + step), "edited": ["k"]})
        expected = {name: view["outputs"][name]["raw"] for name in CHECKED}
        if any(start["outputs"][name]["raw"] != raw for name, raw in expected.items()):
            return "k", key, expected
    raise SystemExit("no first move changes the ranking's outputs")


def throttle(context, page, network: dict | None, cpu_rate: int | None = None):
    """A DevTools session on ``page`` with the network emulated and the main thread slowed, as asked."""
    cdp = context.new_cdp_session(page)
    if network:
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", network)
    if cpu_rate:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu_rate})
    return cdp


class WireBytes:
    """What a page's requests, its workers' included, took from the network: their encoded bodies
    and headers, as the DevTools protocol reports them (a response the HTTP cache or a service
    worker gave counts nothing), in all and by file name."""

    def __init__(self, page):
        self.requests = []
        page.on("requestfinished", lambda request: self.requests.append(request))

    def by_file(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for request in self.requests:
            response = request.response()
            if response is None or response.from_service_worker:
                continue
            sizes = request.sizes()
            name = request.url.split("?", 1)[0].rsplit("/", 1)[-1] or "(page)"
            found[name] = found.get(name, 0) + sizes["responseBodySize"] + sizes["responseHeadersSize"]
        return found


def profile_load(context, url: str, network: dict | None, cpu_rate: int | None, move=None, ready=True,
                 wire=False) -> dict:
    """One cold load under a profile: first contentful paint, Python ready, and with ``move``
    ``(control, key, expected)``: the key pressed on the control as soon as the page has painted,
    and the time from navigation until the outputs show ``expected`` (time to first correct
    interaction). With ``wire``: the bytes on the wire, in all (``wire_bytes``) and by file."""
    page = context.new_page()
    if move:
        page.add_init_script(WATCH_CORRECT % json.dumps(move[2]))
    throttle(context, page, network, cpu_rate)
    counted = WireBytes(page) if wire else None
    page.goto(url, wait_until="commit")
    figures = first_paint_then_move(page, move)
    if ready:
        try:
            page.wait_for_selector("html[data-ready=true]", state="attached", timeout=300_000)
            figures["tti"] = page.evaluate("performance.getEntriesByName('raglab:ready')[0].startTime")
        except PlaywrightTimeout:  # reported, not hidden: a load that never got ready has no time
            figures["tti"] = None
            figures["status"] = page.evaluate("document.querySelector('[data-status]')?.textContent.trim()")
        figures["marks"] = page.evaluate(MARKS)
    if counted:
        page.wait_for_timeout(300)  # the last responses finish
        figures["wire_by_file"] = counted.by_file()
        figures["wire_bytes"] = sum(figures["wire_by_file"].values())
    page.close()
    return figures


def first_paint_then_move(page, move=None) -> dict:
    """On a page navigating (with WATCH_CORRECT installed if ``move``): its first contentful paint,
    and with ``move`` ``(control, key, expected)`` the key pressed on the control at once, then when
    it reached the page, when the outputs held ``expected`` and when that frame was presented."""
    # Resolves at the first contentful paint, having focused the control to move (if any): one round
    # trip, and the key straight after it (no actionability waits, which cost a loaded machine frames).
    painted = page.evaluate("""(control) => new Promise((resolve) => new PerformanceObserver((list, observer) => {
      const paint = list.getEntriesByName("first-contentful-paint")[0];
      if (!paint) return;
      observer.disconnect();
      if (control) document.querySelector(`[name="${control}"]`).focus();
      resolve([paint.startTime, performance.now()]);
    }).observe({type: "paint", buffered: true}))""", move[0] if move else None)
    figures = {"fcp": painted[0]}
    if move:
        figures["moved_at"] = painted[1]
        page.keyboard.press(move[1])
        deadline = time.time() + 300  # (wait_for_function evaluates a string: the page's CSP forbids that)
        while page.evaluate("window.__correctAt") is None and time.time() < deadline:
            page.wait_for_timeout(10)
        written = page.evaluate("window.__correctAt")
        while page.evaluate("window.__keyPaintedAt") is None and time.time() < deadline:
            page.wait_for_timeout(10)  # the entry is dispatched once the frame is presented
        painted = page.evaluate("window.__keyPaintedAt")
        # Shown = painted: the frame after the key's handlers if they wrote the right outputs, else a
        # later one, which is at least as late as the writing (then the writing time is reported).
        figures["first_correct"] = painted if painted is not None and painted >= written else written
        figures["correct_written"] = written
        figures["key_down"] = page.evaluate("window.__keyAt")  # the key reached the page
        figures["table"] = page.evaluate("document.documentElement.dataset.views === 'table'")
        figures["marks"] = page.evaluate(MARKS)
    return figures


def warm_up(browser, url: str, network: dict | None, cpu_rate: int | None) -> None:
    """One load of the lab, to its first paint, not counted: a new browser's first page also pays
    for the browser's own start (its GPU process, its fonts), which belongs to neither page, and
    would otherwise fall on whichever page comes first."""
    context = browser.new_context(service_workers="block")
    profile_load(context, url, network, cpu_rate, None, ready=False)
    context.close()


def make_repeat_visit(context, url: str) -> None:
    """Load the lab once in ``context`` and wait until a repeat visit there is one: the service
    worker has precached, and the worker has kept the decoded snapshot (a second after ready)."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("html[data-ready=true]", state="attached", timeout=120_000)
    page.evaluate("navigator.serviceWorker ? navigator.serviceWorker.ready.then(() => true) : true")
    for _ in range(100):
        if page.evaluate(HAS_KEPT_SNAPSHOT):
            break
        page.wait_for_timeout(100)
    page.wait_for_timeout(1000)
    page.close()
