"""What each part of the page costs the first contentful paint: the same dist/, with one part of
index.html cut out per variant, loaded cold in turn (interleaved) on the desktop profile.

    python bench/first_paint_parts.py [--dist dist] [--runs 8]

Every variant keeps the same stylesheet and assets (lab.js, the worker, Python's runtime), so the boot
competes for the cores as on the real page; only the HTML's parts below the ranking panel change.
Prints each variant's median first contentful paint and its loads. Not a test: absolute times on
a shared machine are noisy, read the differences within one run.
"""

import argparse
import re
import shutil
import statistics
import tempfile
from pathlib import Path

from harness import CHROMIUM_ARGS, ROOT, find_chromium

from raglab_site.devserver import serving

FCP = """() => new Promise((resolve) => new PerformanceObserver((list) => {
  const paint = list.getEntriesByName("first-contentful-paint")[0];
  if (paint) resolve(paint.startTime);
}).observe({type: "paint", buffered: true}))"""


def without(html: str, start: str, end: str) -> str:
    """``html`` without the text from ``start`` up to (not including) ``end``."""
    a = html.index(start)
    return html[:a] + html[html.index(end, a):]


def variants(html: str) -> dict[str, str]:
    return {
        "the page": html,
        "no method section": without(html, '<section class="method"', '<template data-tail'),
        "no MathML": re.sub(r"<math\b.*?</math>", "", html, flags=re.S),
        "no «Tus datos», detail, method": without(html, '<section class="panel panel-data"', '<template data-tail'),
        "header and ranking panel only": without(html, '<section class="panel panel-chunking"', '<template data-tail'),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--runs", type=int, default=8)
    args = parser.parse_args()
    html = (args.dist / "index.html").read_text("utf-8")
    site = Path(tempfile.mkdtemp(prefix="raglab-paint-parts-"))
    pages = variants(html)
    for number, text in enumerate(pages.values()):
        folder = site / str(number)
        folder.mkdir()
        for child in args.dist.iterdir():
            if not child.name.startswith("index.html"):  # nor its precompressed copies
                (folder / child.name).symlink_to(child.resolve())
        (folder / "index.html").write_text(text, "utf-8")
    from playwright.sync_api import sync_playwright

    paints = {name: [] for name in pages}
    try:
        with serving(site) as base, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
            for _ in range(args.runs):
                for number, name in enumerate(pages):
                    context = browser.new_context(service_workers="block")
                    page = context.new_page()
                    page.goto(f"{base}{number}/", wait_until="commit")
                    paints[name].append(page.evaluate(FCP))
                    context.close()
            browser.close()
    finally:
        shutil.rmtree(site, ignore_errors=True)
    print(f"first contentful paint, cold, desktop, {args.runs} interleaved loads each (ms)")
    for name, values in paints.items():
        print(f"{name:34} {len(pages[name].encode()) / 1000:6.1f} kB  median {statistics.median(values):5.0f}  "
              + " ".join(f"{v:.0f}" for v in values))


if __name__ == "__main__":
    main()
