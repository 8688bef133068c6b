"""Find a Chromium for the browser tests: $RAGLAB_CHROMIUM, Playwright's own browser, or chromium on PATH.

tests/system.py checks for it with the other programs the tests need.
"""

import os
import shutil
import sys
from pathlib import Path


def playwright_browser() -> str | None:
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            path = p.chromium.executable_path
    except Exception:
        return None
    return path if path and Path(path).is_file() else None


def find_chromium() -> str | None:
    explicit = os.environ.get("RAGLAB_CHROMIUM")
    if explicit:
        return explicit if Path(explicit).is_file() else None
    return playwright_browser() or shutil.which("chromium") or shutil.which("chromium-browser")


HOW_TO_GET_ONE = (
    "No Chromium found for the browser tests. Install one (Debian/Ubuntu: 'sudo apt-get install chromium') "
    "or point RAGLAB_CHROMIUM at a Chromium or Chrome binary."
)
