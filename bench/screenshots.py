"""The screenshots in docs/, taken again from a built dist/ (not a test: it writes PNGs to look at).

    .venv/bin/python build.py --out /tmp/dist && .venv/bin/python bench/screenshots.py /tmp/dist

Each picture is what a reader sees with the page's samples, in headless Chromium at 1280 × 900 (the
phone's at 390 × 844): the hero and the navigation; the arithmetic under the ranking; the phone's strip of
numbers over the sliders; «Tus datos», its agreement section and «Tu corpus» with their samples, their readings'
verdict first; the judging page's sample job, two pairs graded, on the desktop and the phone. Look at them after a change to the page's layout, and commit the ones that changed.
"""

import functools
import http.server
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from tests.support.chromium import CHROMIUM_ARGS, find_chromium  # noqa: E402

DOCS = ROOT / "docs"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# Every block laid out, so that a full-height element screenshot holds all of it (lab.css skips them), and
# the navigation left at the top (kept in view, it would cross a tall element's picture): a constructed
# style sheet, which the page's CSP allows.
LAID_OUT = """() => {
  const all = new CSSStyleSheet();
  all.replaceSync("* { content-visibility: visible !important; } .page-nav { position: static !important; }");
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, all];
}"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(dist: Path) -> str:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(dist)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/"


def ready(page):
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=60_000)


def shoot(browser, url: str) -> list[Path]:
    written = []

    def save(name):
        written.append(DOCS / name)
        return str(DOCS / name)

    page = browser.new_page(viewport=DESKTOP)
    page.goto(url)
    ready(page)
    page.screenshot(path=save("screenshot.png"))
    page.evaluate(LAID_OUT)
    page.locator(".breakdown-wrap").scroll_into_view_if_needed()
    page.locator(".breakdown-wrap").screenshot(path=save("breakdown.png"))

    page.click('[data-action="sample"]')
    expect(page.locator("[data-data-status]")).to_have_text("Evaluación terminada.", timeout=120_000)
    page.locator(".panel-data").screenshot(path=save("data-panel.png"))
    page.click('[data-action="judges-sample"]')
    expect(page.locator("[data-data-status]")).to_have_text("Evaluación terminada.", timeout=120_000)
    page.locator("#te-fias").screenshot(path=save("agreement.png"))
    page.click('[data-action="corpus-sample"]')
    expect(page.locator("[data-corpus-status]")).to_have_text("Medición terminada.", timeout=300_000)
    page.locator(".panel-corpus").screenshot(path=save("corpus-panel.png"))
    page.close()

    phone = browser.new_page(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    phone.goto(url + "#evaluacion-del-ranking")
    ready(phone)
    phone.mouse.wheel(0, 900)
    phone.wait_for_timeout(500)
    phone.screenshot(path=save("phone-strip.png"))
    phone.close()

    for name, viewport, extra in (("judging.png", DESKTOP, {}),
                                  ("judging-phone.png", PHONE, {"is_mobile": True, "has_touch": True})):
        context = browser.new_context(viewport=viewport, **extra)  # storage of its own: no job kept
        judging = context.new_page()
        judging.goto(url + "juzgar/")
        expect(judging.locator("html")).to_have_attribute("data-judge-ready", "true", timeout=90_000)
        judging.click('[data-action="sample-job"]')
        progress = judging.locator("[data-judging-progress]")
        expect(progress).to_have_attribute("data-total", "20", timeout=60_000)
        for done, key in enumerate("21", 1):
            judging.keyboard.press(key)
            expect(progress).to_have_attribute("data-done", str(done))
        judging.evaluate("() => document.querySelector('[data-judging]').scrollIntoView({block: 'start'})")
        judging.wait_for_timeout(300)
        judging.screenshot(path=save(name))
        context.close()
    return written


def main() -> None:
    dist = Path(sys.argv[1] if len(sys.argv) > 1 else "dist")
    url = serve(dist)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        for path in shoot(browser, url):
            print(f"wrote {path.relative_to(ROOT)}")
        browser.close()


if __name__ == "__main__":
    main()
