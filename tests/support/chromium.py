"""Find the Chromiums: the headless shell the browser tests drive, and the full browser the benchmarks
measure; and the flags both launch them with (CHROMIUM_ARGS).

The tests run `chromium-headless-shell` ($RAGLAB_CHROMIUM overrides it): the same Blink and V8 as
the browser without its UI layer, and what Playwright itself runs for headless Chromium. A test
page costs less CPU in it (bench/headless_shell.py; figures in docs/performance.md). The
benchmarks measure what a reader runs, the full browser: `find_chromium()`.

tests/support/system.py checks for the tests' one with the other programs the tests need.
"""

import os
import shutil
from pathlib import Path

# The flags every Chromium that the tests and the benchmarks launch gets: no sandbox (root in a
# container), no GPU, and none of the browser's own background traffic or first-run work.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def playwright_browser() -> str | None:
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            path = p.chromium.executable_path
    except Exception:
        return None
    return path if path and Path(path).is_file() else None


def find_test_chromium() -> str | None:
    """$RAGLAB_CHROMIUM, or Debian's chromium-headless-shell on PATH."""
    explicit = os.environ.get("RAGLAB_CHROMIUM")
    if explicit:
        return explicit if Path(explicit).is_file() else None
    return shutil.which("chromium-headless-shell")


def find_chromium() -> str | None:
    """The full browser, for the benchmarks: $RAGLAB_CHROMIUM, Playwright's own browser, or chromium on PATH."""
    explicit = os.environ.get("RAGLAB_CHROMIUM")
    if explicit:
        return explicit if Path(explicit).is_file() else None
    return playwright_browser() or shutil.which("chromium") or shutil.which("chromium-browser")


HOW_TO_GET_ONE = (
    "No Chromium headless shell found for the browser tests. Install it (Debian/Ubuntu: "
    "'sudo apt-get install chromium-headless-shell') or point RAGLAB_CHROMIUM at a Chromium, Chrome or "
    "chrome-headless-shell binary."
)
