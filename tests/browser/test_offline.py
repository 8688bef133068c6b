"""Offline after one visit (service worker), and a new build replacing the old cache."""

import shutil
import time

import pytest
from playwright.sync_api import expect

import build
from raglab_site.devserver import serving
from raglab_site.snapshot import KEPT_CACHE

from ..support.lab_page import WAIT_FOR_CONTROL, Lab

KEPT = KEPT_CACHE  # worker.js's decoded snapshot, which sw.js leaves alone


def cache_names(page):
    """The service worker's caches (one per build), without the worker's kept snapshot."""
    return [name for name in page.evaluate("caches.keys()") if name != KEPT]


def wait_for(predicate, timeout=30.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("timed out")


def test_offline_after_one_visit(browser, base_url):
    context = browser.new_context()
    page = context.new_page()
    Lab(page, base_url)
    assert page.evaluate(WAIT_FOR_CONTROL)
    context.set_offline(True)
    lab = Lab(page, base_url, "?k=4")  # loads the page again, from the service worker's cache
    lab.press("k", "ArrowRight")
    lab.type("chunk", "300")
    lab.expect_matches_core()
    assert lab.errors == []
    context.close()


@pytest.fixture
def own_site(tmp_path):
    out = tmp_path / "dist"
    build.build(out)
    with serving(out) as url:
        yield out, url


def test_a_new_build_replaces_the_old_cache(browser, own_site, tmp_path, monkeypatch):
    out, url = own_site
    context = browser.new_context()
    page = context.new_page()
    Lab(page, url)
    page.evaluate(WAIT_FOR_CONTROL)
    first = wait_for(lambda: cache_names(page))
    assert len(first) == 1 and first[0].startswith("raglab-")

    sources = tmp_path / "site_src"
    shutil.copytree(build.SRC, sources)
    monkeypatch.setattr(build, "SRC", sources)
    index = sources / "content" / "index.md"
    index.write_text(index.read_text("utf-8").replace("Mide el ranking", "Mide bien el ranking"), "utf-8")
    build.build(out)

    page.reload()
    expect(page.locator("h1")).to_contain_text("Mide bien el ranking")  # the page: network first
    second = wait_for(lambda: (names := cache_names(page)) != first and len(names) == 1 and names)
    assert second[0].startswith("raglab-")  # the old cache is gone
    # The kept snapshot is not the service worker's to delete: the same snapshot serves this build.
    assert wait_for(lambda: KEPT in page.evaluate("caches.keys()"))
    context.set_offline(True)
    page.reload()
    expect(page.locator("h1")).to_contain_text("Mide bien el ranking")
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=60_000)
    context.close()
