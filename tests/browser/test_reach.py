"""Reaching the panels (issue 49, item 1): the hero names the four panels, a short navigation stays in
view on the desktop and the phone, and each of its links lands on its panel, also with the controls'
state in the URL (lab.js rewrites the query with history.replaceState and keeps the hash)."""

import pytest
from playwright.sync_api import expect

from tests.conftest import ROOT

import build

PAGE = build.read_page(ROOT / "site_src" / "content" / "index.md")
# Each link of the navigation, and the heading of the panel (or section) it must land on.
HEADINGS = {
    "#evaluacion-del-ranking": "Evaluación del ranking",
    "#huella-del-chunking": "Huella del chunking",
    "#tu-corpus": "Tu corpus",
    "#tus-datos": "Tus datos",
    "#metodo": "Método",
}
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}

# The heading of the element the hash names: its box, the viewport's height, the navigation's bottom.
HEADING_BOX = """(hash) => {
  const target = document.getElementById(hash.slice(1));
  const heading = target.matches("h2") ? target : target.querySelector("h2");
  const box = heading.getBoundingClientRect();
  return {text: heading.textContent.trim(), top: box.top, bottom: box.bottom, height: innerHeight,
          nav: document.querySelector(".page-nav").getBoundingClientRect().bottom};
}"""


def settled(page, hash):
    """HEADING_BOX once two reads a few frames apart agree (blocks above are laid out as they near the viewport)."""
    box = None
    for _ in range(50):
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        again = page.evaluate(HEADING_BOX, hash)
        if again == box:
            return box
        box = again
    return box


def in_view_under_the_nav(box):
    return box["top"] >= box["nav"] - 1 and box["bottom"] <= box["height"]


def no_python(page):
    """Layout and links only: Python is not started (its boot would only cost the lane CPU)."""
    page.route("**/assets/worker.*.js", lambda route: route.abort())


def test_the_hero_names_the_four_panels_and_the_four_measures(page, base_url):
    no_python(page)
    page.goto(base_url)
    lead = page.locator(".hero .lead").inner_text()
    for name in ("Evaluación del ranking", "Huella del chunking", "Tu corpus", "Tus datos"):
        assert f"«{name}»" in lead
    assert page.locator(".hero .card strong").all_inner_texts() == ["Precision@k", "Recall@k", "MRR@k", "nDCG@k"]
    links = page.locator(".page-nav a")
    assert [link.get_attribute("href") for link in links.all()] == list(HEADINGS)
    assert links.all_inner_texts() == [link["text"] for link in PAGE["nav"]["links"]]
    # The page published alone links to no page it does not hold, and its eyebrow is its own.
    expect(page.locator("nav.related")).to_have_count(0)
    assert "07" not in page.locator(".hero").inner_text()


@pytest.mark.parametrize("width", VIEWPORTS)
def test_each_link_lands_on_its_panel_from_the_top_and_the_navigation_stays(page, base_url, width):
    no_python(page)
    page.set_viewport_size(VIEWPORTS[width])
    page.goto(base_url)
    nav = page.locator(".page-nav")
    # At the top of the page the navigation is in the first screen, under the hero.
    box = nav.bounding_box()
    assert 0 < box["y"] and box["y"] + box["height"] <= VIEWPORTS[width]["height"], box
    # Every link fits the width: none scrolled out of reach on the phone.
    assert page.evaluate("() => { const ul = document.querySelector('.page-nav ul'); return ul.scrollWidth <= ul.clientWidth; }")
    for hash, heading in HEADINGS.items():
        page.locator(f'.page-nav a[href="{hash}"]').click()
        box = settled(page, hash)
        assert box["text"] == heading and in_view_under_the_nav(box), (width, hash, box)
        assert nav.bounding_box()["y"] == 0  # kept at the top, where the next link is
    assert page.evaluate("location.hash") == "#metodo"


@pytest.mark.parametrize("width", VIEWPORTS)
def test_a_link_with_the_controls_state_lands_on_its_panel_and_keeps_both(page, base_url, width):
    page.set_viewport_size(VIEWPORTS[width])
    page.goto(base_url + "?k=3&umbral=1#tus-datos")
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=60_000)
    box = settled(page, "#tus-datos")
    assert box["text"] == "Tus datos" and in_view_under_the_nav(box), box
    assert page.locator('[name="k"]').input_value() == "3"
    # A change of the state rewrites the query and keeps the hash; then a link moves on, keeping the query.
    page.locator('[name="k"]').evaluate("(k) => { k.value = '4'; k.dispatchEvent(new Event('input', {bubbles: true})); }")
    page.wait_for_function("() => location.search === '?k=4&umbral=1'")
    assert page.evaluate("location.hash") == "#tus-datos"
    page.locator('.page-nav a[href="#tu-corpus"]').click()
    box = settled(page, "#tu-corpus")
    assert box["text"] == "Tu corpus" and in_view_under_the_nav(box), box
    assert page.evaluate("location.search + location.hash") == "?k=4&umbral=1#tu-corpus"
