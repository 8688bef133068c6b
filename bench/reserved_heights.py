"""The heights lab.css reserves for the blocks it skips (``content-visibility: auto``), measured and refitted.

A skipped block is laid out at its ``contain-intrinsic-size`` until the reader nears it; when the reserve
is wrong the page's height jumps while scrolling (tests/browser/test_learner.py holds it within 1 % at
1280 px). After a change to a panel's content, run::

    .venv/bin/python build.py --out /tmp/dist && .venv/bin/python bench/reserved_heights.py /tmp/dist [--write]

It prints, per block, the content height (without padding or border) at a few widths next to what the
CSS reserves there, and for a block whose reserve is off (by more than 2 px from 74rem on, or more than 5 %
short anywhere) a ``contain-intrinsic-size`` that fits: exact at 74rem (1184 px) and wider,
the largest of the lines through the measured points below that (heights fall as the width grows, about
as 1/width, so those lines lie on or under the curve between the points). Not a test: it prints, and with
``--write`` puts the fitted values into site_src/inline/lab.css.
"""

import functools
import http.server
import re
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.support.chromium import CHROMIUM_ARGS, find_chromium  # noqa: E402

BLOCKS = (".unretrieved", ".breakdown-wrap", ".conventions-wrap", ".panel-chunking", ".panel-corpus",
          ".panel-data", ".method", ".related")
WIDTHS = (320, 390, 480, 768, 1184, 1280)
"""Fitted through 320, 480, 768 and 1184 px; 390 and 1280 check the fit."""
FIT = (320, 480, 768, 1184)

MEASURE = """(selectors) => Object.fromEntries(selectors.map((selector) => {
  const block = document.querySelector(selector);
  if (!block || !block.offsetParent) return [selector, null];
  const reserved = parseFloat(getComputedStyle(block).containIntrinsicHeight.replace("auto ", ""));
  block.style.contentVisibility = "visible";
  const style = getComputedStyle(block);
  const edges = ["paddingTop", "paddingBottom", "borderTopWidth", "borderBottomWidth"].reduce((sum, key) => sum + parseFloat(style[key]), 0);
  const height = block.getBoundingClientRect().height - edges;
  block.style.contentVisibility = "";
  return [selector, [Math.round(height), Math.round(reserved)]];
}))"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def measure(dist: Path) -> dict:
    handler = functools.partial(Quiet, directory=str(dist))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    found = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        for width in WIDTHS:
            page = browser.new_page(viewport={"width": width, "height": 800})
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
            page.wait_for_timeout(300)
            for selector, value in page.evaluate(MEASURE, list(BLOCKS)).items():
                if value:
                    found.setdefault(selector, {})[width] = value
            page.close()
        browser.close()
    server.shutdown()
    return found


def fitted(heights: dict) -> str:
    """``auto max(C, a − b·vw, …)``: C the height at 1184 px, then the line through each pair of fitted points."""
    terms = [f"{heights[FIT[-1]]}px"]
    for left, right in zip(FIT, FIT[1:]):
        slope = (heights[left] - heights[right]) / (right - left)  # px of height per px of width
        if slope <= 0:
            continue
        at_zero = heights[left] + slope * left
        terms.append(f"{round(at_zero)}px - {round(slope * 100, 1)}vw")
    return "auto " + (terms[0] if len(terms) == 1 else f"max({', '.join(terms)})")


def main() -> None:
    paths = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
    dist = Path(paths[0] if paths else "dist")
    found = measure(dist)
    print("block".ljust(18) + "".join(f"{width:>14}" for width in WIDTHS) + "   (content height / reserved, px)")
    for selector, by_width in found.items():
        cells = "".join(f"{f'{h}/{r}':>14}" for h, r in (by_width.get(width, ("-", "-")) for width in WIDTHS))
        print(selector.ljust(18) + cells)
    print()
    css_path = Path(__file__).resolve().parents[1] / "site_src" / "inline" / "lab.css"
    css = css_path.read_text("utf-8")
    for selector, by_width in found.items():
        wide_off = any(abs(h - r) > 2 for w, (h, r) in by_width.items() if w >= FIT[-1])
        short = any(h > 1.05 * r for h, r in by_width.values())
        if all(width in by_width for width in FIT) and (wide_off or short):  # refit only what is off
            value = fitted({w: h for w, (h, _) in by_width.items()})
            print(f"  {selector} {{ contain-intrinsic-size: {value}; }}")
            css = re.sub(rf"(\n  {re.escape(selector)} {{\n    contain-intrinsic-size: )[^;]+;", rf"\g<1>{value};", css)
    if "--write" in sys.argv:
        css_path.write_text(css, "utf-8")
        print(f"written: {css_path}")


if __name__ == "__main__":
    main()
