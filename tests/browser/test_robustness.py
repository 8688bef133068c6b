"""Hostile input, keyboard-only use, accessibility (axe-core) and a strict CSP, in a real Chromium."""

import base64
import hashlib

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from ..conftest import load_scenario
from ..support.hostile import BROWSER_CASES, CHUNKING, RANKING, VALID
from ..support.lab_page import Lab

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


@pytest.fixture(scope="module")
def hostile_lab(shared_context, base_url):
    page = shared_context.new_page()
    lab = Lab(page, base_url)
    yield lab
    page.close()


# The whole matrix of 42 hostile values runs in CPython (tests/core/lab/test_hostile.py); these cases, one of each
# kind, show that the page passes the text to Python as typed and writes what it says.
@pytest.mark.parametrize("field, value", BROWSER_CASES, ids=[f"{f}={v!r}" for f, v in BROWSER_CASES])
def test_hostile_input_gets_a_message_and_breaks_nothing(hostile_lab, field, value):
    lab = hostile_lab
    lab.paste(field, value)
    view = lab.expect_matches_core()  # also: no NaN/Infinity/undefined/None/null anywhere in <main>
    error = view["controls"][field]["error"]
    if error:
        expect(lab.page.locator(f'[data-error-for="{field}"]')).to_have_text(error)
        other = RANKING if field in CHUNKING else CHUNKING[2:]
        for name in other:  # the other panel keeps working
            assert view["controls"][name]["error"] is None
        assert view["outputs"]["precision" if field in CHUNKING else "stride"]["raw"] != ""
    assert lab.page.locator("main img, main script").count() == 0  # typed text is never HTML
    lab.type(field, VALID[field])  # and the next valid input, typed, works: the worker is alive
    lab.expect_matches_core()
    assert lab.errors == []


def test_hostile_url_behaves_like_typing(page, base_url):
    query = "?k=abc&umbral=9&rerank=-2&total=1e309&docs=NaN&tokens_doc=%3Cscript%3E&chunk=0x10&solape=%D9%A3&grades=9,x"
    lab = Lab(page, base_url, query)
    view = lab.expect_matches_core()
    for name in ("k", "umbral", "rerank", "total", "docs", "tokens_doc", "chunk", "solape", "grades"):
        assert view["controls"][name]["error"], name
        expect(page.locator(f'[data-error-for="{name}"]').first).not_to_be_empty()
    assert page.locator("main script").count() == 0
    assert lab.press("k", "ArrowRight")  # a slider moved by the user replaces the URL's text
    lab.press("umbral", "Home")
    lab.expect_matches_core()
    assert lab.errors == []


def test_keyboard_alone(page, base_url):
    lab = Lab(page, base_url)
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("Saltar al laboratorio")
    reached = []
    for _ in range(40):
        page.keyboard.press("Tab")
        name = page.evaluate("document.activeElement.getAttribute('name') || document.activeElement.dataset.gradeFor || ''")
        if name:
            reached.append(name)
        if name == "solape":  # the last control of the lab
            break
    assert reached[:4] == ["k", "umbral", "rerank", "total"]
    displayed = [row["id"] for row in lab.expect_matches_core()["ranking"]]  # the grade selects, in list order
    assert reached[4:] == displayed + list(CHUNKING)
    for name in CHUNKING:
        assert name in reached
    lab.control("k").focus()
    page.keyboard.press("ArrowLeft")
    lab.edit("k", "4")
    lab.control("docs").focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("42")
    lab.edit("docs", "42")
    lab.expect_matches_core()
    page.locator('[data-grade-for="d05"]').focus()
    page.keyboard.press("ArrowDown")  # a focused <select> changes value with the arrows
    grades = [doc["grade"] for doc in load_scenario()["documents"]]
    grades[4] = 1
    lab.edit("grades", ",".join(map(str, grades)))
    lab.expect_matches_core()
    assert lab.errors == []


def test_changes_are_announced_once_after_a_drag(page, base_url):
    lab = Lab(page, base_url)
    live = page.locator("[data-announce]")
    expect(live).to_have_attribute("aria-live", "polite")
    lab.press("k", "ArrowRight", 4)  # k 5 → 9 in quick succession
    assert live.text_content() == ""  # debounced: nothing yet mid-drag
    expect(live).to_have_text(lab.expect_matches_core()["announcements"]["metrics"])


def axe_violations(page):
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG_TAGS}})
    return results.response["violations"], len(results.response["passes"]) + len(results.response["incomplete"])


def test_axe_finds_no_violations_in_the_dark_with_field_errors_at_1280_and_320_px(page, base_url):
    """The dark scheme, field errors shown, at 1280 and then 320 px (one load). The light scheme with both panels'
    results shown, every rule axe runs by default, is tests/browser/test_fit.py's."""
    page.emulate_media(color_scheme="dark")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(base_url + "?solape=900&k=0&total=x")
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=60_000)
    for width in (1280, 320):
        page.set_viewport_size({"width": width, "height": 900})
        violations, checked = axe_violations(page)
        assert violations == [], (width, [(v["id"], v["help"], [n["target"] for n in v["nodes"]]) for v in violations])
        assert checked >= 20


def test_every_control_has_a_visible_label_and_a_description(page, base_url):
    page.route("**/assets/worker.*.js", lambda route: route.abort())  # Python is not needed here
    page.goto(base_url)
    for name in RANKING + CHUNKING:
        control = page.locator(f'[name="{name}"]')
        control_id = control.get_attribute("id")
        expect(page.locator(f'label[for="{control_id}"]')).to_be_visible()
        described = control.get_attribute("aria-describedby").split()
        assert f"{control_id}-hint" in described and f"{control_id}-error" in described
        expect(page.locator(f"#{control_id}-hint")).not_to_be_empty()


def test_no_csp_violation_during_load_and_use(page, base_url):
    """Under the CSP of the <meta> tag and, as on Netlify or Cloudflare Pages, of dist/_headers
    sent as a real response header by the dev server."""
    page.add_init_script(
        "window.__csp = []; document.addEventListener('securitypolicyviolation',"
        " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"
    )
    console = []
    page.on("console", lambda message: console.append(message.text))
    documents = []
    page.on("response", lambda response: documents.append(response) if response.request.resource_type == "document" else None)
    lab = Lab(page, base_url)
    header = documents[0].all_headers()["content-security-policy"]
    # Scripts from the origin, plus the three inline scripts (spawn.js, boot.js, frame.js), allowed by the hash of
    # their text, in whatever order the policy lists them.
    inline = page.locator("head script:not([src]):not([type])").all_text_contents()
    digests = {f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'" for text in inline}
    assert header.startswith("default-src 'self'; script-src ")
    assert set(header.split(";")[1].split()[1:]) == {"'self'", "'wasm-unsafe-eval'", *digests} and len(inline) == 3
    assert "&#" not in header and "raglabSpawn" in inline[0] and "raglab:boot-script" in inline[1]
    assert "frameElement" in inline[2]
    lab.press("k", "End")
    lab.type("chunk", "128")
    lab.grade("d09", 2)
    lab.press("rerank", "End")
    lab.expect_matches_core()
    assert page.evaluate("performance.getEntriesByName('raglab:worker-created').length") == 1  # boot.js ran
    assert page.evaluate("window.__csp") == []
    assert lab.errors == []
    assert [text for text in console if "Content Security Policy" in text] == []
    csp = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
    # The header adds frame-ancestors, which a <meta> policy cannot hold (headers.FRAMING).
    assert header == f"{csp}; frame-ancestors 'self'" and "unsafe-inline" not in csp


def test_every_definition_opens_by_keyboard_and_axe_accepts_it(page, base_url):
    import yaml

    from ..conftest import ROOT

    glossary = yaml.safe_load((ROOT / "site_src" / "config.yaml").read_text("utf-8"))["glossary"]
    lab = Lab(page, base_url)
    buttons = page.locator("main button[data-define]")
    assert sorted(buttons.evaluate_all("bs => bs.map(b => b.dataset.define)")) == sorted(glossary)
    for key, entry in glossary.items():
        button = page.locator(f'main button[data-define="{key}"]')
        button.focus()
        page.keyboard.press("Enter")
        popover = page.locator(f"#def-{key}")
        expect(popover).to_be_visible()
        expect(popover).to_have_text(f"{entry['term']}: {entry['text']}")
        # The same words in the method section.
        expect(page.locator(".method .glossary", has_text=entry["text"])).to_have_count(1)
        if key == "ndcg":
            violations, _ = axe_violations(page)
            assert violations == [], [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]
        page.keyboard.press("Escape")
        expect(popover).to_be_hidden()
    assert lab.errors == []
