"""The exported lab inside each documentation theme, light and dark: docs/docsite-*.png.

    .venv/bin/python bench/docsite_screenshots.py [--out docs]

Builds tests/browser/test_docsite.py's three-page site around what ``build.py export`` writes (the site
made with config.yaml's ``export`` settings) with Material for MkDocs and with Zensical, serves both with nginx, and takes a
1280 px screenshot of the lab's page in each, in the theme's light scheme and after its palette
toggle. Prints the lab's height in each theme (what export.DEFAULT_HEIGHT was chosen from).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from harness import CHROMIUM_ARGS, ROOT, find_chromium

sys.path.insert(0, str(ROOT))
import build  # noqa: E402
from tests.browser.test_docsite import build_sites, copy_project, make_project, start_nginx  # noqa: E402
from tests.support.servers import free_port  # noqa: E402

VIEWPORT = {"width": 1280, "height": 1000}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args()
    from playwright.sync_api import expect, sync_playwright

    with tempfile.TemporaryDirectory(prefix="raglab-docsite-") as folder:
        tmp = Path(folder)
        ports = {"mkdocs": free_port(), "zensical": free_port()}
        urls = {name: f"http://127.0.0.1:{port}/" for name, port in ports.items()}
        # what `build.py export` writes: the site made with config.yaml's `export` settings (eyebrow, related pages)
        site = build.make_site(export=True)
        mkdocs = make_project(tmp / "mkdocs", site, urls["mkdocs"])
        projects = {"mkdocs": mkdocs, "zensical": copy_project(mkdocs, tmp / "zensical", urls["zensical"])}
        nginx = start_nginx(build_sites(projects), ports, tmp)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
                for name, url in urls.items():
                    context = browser.new_context(viewport=VIEWPORT)
                    page = context.new_page()
                    page.goto(url + "laboratorio/")
                    frame = page.frame_locator("iframe[data-raglab]")
                    expect(frame.locator("html")).to_have_attribute("data-ready", "true", timeout=60_000)
                    height = frame.locator("html").evaluate("e => e.getBoundingClientRect().height")
                    print(f"{name}: the lab is {height:.0f} px tall in a {VIEWPORT['width']} px window")
                    page.screenshot(path=args.out / f"docsite-{name}-light.png")
                    page.locator('form[data-md-component="palette"] label:not([hidden])').click()
                    expect(frame.locator("html")).to_have_attribute("data-raglab-palette", "dark")
                    page.wait_for_timeout(400)  # the theme's own colour transition
                    page.screenshot(path=args.out / f"docsite-{name}-dark.png")
                    context.close()
                browser.close()
        finally:
            nginx.terminate()
            nginx.wait(timeout=10)
    print(f"wrote {args.out}/docsite-{{mkdocs,zensical}}-{{light,dark}}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
