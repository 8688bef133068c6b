"""The lab in a real Chromium: every shown value equals raglab_core.compute run here, in CPython.

Controls are driven as a user drives them: arrow keys on sliders, typing into fields, choosing a
grade in a select. Since the page's numbers come from the same core running under Pyodide,
agreement proves the browser and CPython compute the same thing.
"""

import time
from urllib.parse import parse_qsl, urlsplit

import pytest
from playwright.sync_api import Page, expect

from raglab_core import compute

from ..conftest import load_scenario
from .conftest import OUTPUT_NAMES, TEXT_OUTPUTS

FORBIDDEN = ("NaN", "Infinity", "undefined", "None", "null")

# What the page shows, as plain data (runs in the page; evaluate() works under the page's CSP).
DOM_STATE = """() => {
  const text = (node) => node.textContent.replace(/\\s+/g, " ").trim();
  const outputs = {};
  for (const node of document.querySelectorAll("[data-output]")) {
    if (node.tagName === "OL") continue;
    outputs[node.dataset.output] = [text(node), node.getAttribute("data-value")];
  }
  const errors = {};
  for (const node of document.querySelectorAll("[data-error-for]")) errors[node.dataset.errorFor] = text(node);
  const invalid = {};
  for (const node of document.querySelectorAll("input[name]")) invalid[node.name] = node.getAttribute("aria-invalid") === "true";
  const ranking = Array.from(document.querySelectorAll('ol[data-output="ranking"] > li'), (li) =>
    [li.dataset.doc, li.dataset.grade, li.dataset.inK, li.dataset.reranked]);
  return {outputs, errors, invalid, ranking, text: document.querySelector("main").innerText};
}"""


def squash(text: str) -> str:
    return " ".join(text.split())


def expected_dom(view: dict) -> dict:
    """What DOM_STATE must read for ``view``, plus the page's text (compared separately)."""
    outputs = {
        name: [squash(out["text"]), None if name in TEXT_OUTPUTS else out["raw"]]
        for name, out in view["outputs"].items()
    }
    return {
        "outputs": outputs,
        "errors": {name: squash(control["error"] or "") for name, control in view["controls"].items()},
        "invalid": {name: bool(control["error"]) for name, control in view["controls"].items() if name != "grades"},
        "ranking": [[row["id"], str(row["grade"]), str(row["in_k"]).lower(), str(row["reranked"]).lower()]
                    for row in view["ranking"]],
    }


class Lab:
    """A loaded lab page plus the state the test has driven it into."""

    def __init__(self, page: Page, base_url: str, query: str = ""):
        self.page = page
        self.scenario = load_scenario()
        self.errors = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.goto(base_url + query)
        expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=60_000)
        self.state = {"scenario": self.scenario, **dict(parse_qsl(query.lstrip("?"), keep_blank_values=True))}

    def control(self, name):
        return self.page.locator(f'[name="{name}"]')

    def press(self, name, key, times=1):
        control = self.control(name)
        control.focus()
        for _ in range(times):
            control.press(key)
        self.state[name] = control.input_value()
        return self.state[name]

    def type(self, name, text):
        control = self.control(name)
        control.click()
        control.press("Control+A")
        control.press("Backspace")
        if text:
            self.page.keyboard.type(text)
        self.state[name] = text

    def paste(self, name, text):
        """Replace the field's text at once, as a paste does (one input event)."""
        self.control(name).fill(text)
        self.state[name] = text

    def grade(self, doc_id, grade):
        self.page.locator(f'[data-grade-for="{doc_id}"]').select_option(str(grade))
        grades = [self.page.locator(f'[data-grade-for="{d["id"]}"]').input_value() for d in self.scenario["documents"]]
        self.state["grades"] = ",".join(grades)

    def shown(self) -> dict:
        """Everything the page shows that compute() decides, read in one round trip."""
        return self.page.evaluate(DOM_STATE)

    def expect_matches_core(self, timeout: float = 10.0):
        """Every output, error and ranking row equals compute(state) from CPython (waits for it)."""
        view = compute(self.state)
        expected = expected_dom(view)
        deadline = time.monotonic() + timeout
        while True:
            shown = self.shown()
            page_text = shown.pop("text")
            if shown == expected or time.monotonic() > deadline:
                break
            self.page.wait_for_timeout(20)
        assert shown == expected
        for word in FORBIDDEN:
            assert word not in page_text
        return view

    def url_params(self):
        return dict(parse_qsl(urlsplit(self.page.url).query, keep_blank_values=True))


@pytest.fixture
def lab(page, base_url):
    lab = Lab(page, base_url)
    yield lab
    assert lab.errors == []


def test_server_rendered_page_equals_the_core_before_and_after_python(page, base_url):
    page.route("**/*worker*.js", lambda route: route.abort())  # no Python: only the server's render
    page.goto(base_url)
    view = compute({"scenario": load_scenario()})
    for name in OUTPUT_NAMES:
        expect(page.locator(f'[data-output="{name}"]')).to_have_attribute("data-value", view["outputs"][name]["raw"])
    expect(page.locator('[data-output="metrics_reading"]')).to_have_text(view["outputs"]["metrics_reading"]["text"])


def test_sliders_by_keyboard(lab):
    expect(lab.page.locator(".file-note")).to_be_hidden()  # served: the stylesheet hides it
    expect(lab.page.locator("html")).to_have_attribute("data-boot", "snapshot")
    assert lab.press("k", "ArrowRight") == "6"
    lab.expect_matches_core()
    assert lab.press("k", "End") == "12"
    lab.expect_matches_core()
    assert lab.press("k", "Home") == "1"
    lab.expect_matches_core()
    assert lab.press("umbral", "ArrowLeft") == "1"
    lab.expect_matches_core()
    assert lab.press("umbral", "ArrowRight", 2) == "3"
    view = lab.expect_matches_core()
    assert lab.url_params() == {"k": "1", "umbral": "3"}
    assert view["outputs"]["precision"]["value"] == 1.0  # d04 (grade 3) is first after reranking


def test_highlighted_rows_are_min_of_k_and_n(lab):
    for key, expected in (("Home", 1), ("ArrowRight", 2), ("End", 12)):
        lab.press("k", key)
        expect(lab.page.locator('li[data-in-k="true"]')).to_have_count(expected)
    lab.expect_matches_core()


def test_reranking_moves_only_the_prefix(lab):
    first_stage = [doc["id"] for doc in lab.scenario["documents"]]
    for depth in (0, 3, 7):
        lab.press("rerank", "Home")
        lab.press("rerank", "ArrowRight", depth)
        assert lab.state["rerank"] == str(depth)
        view = lab.expect_matches_core()
        shown = lab.page.locator('ol[data-output="ranking"] > li').evaluate_all("items => items.map(i => i.dataset.doc)")
        assert shown[depth:] == first_stage[depth:]
        assert sorted(shown[:depth]) == sorted(first_stage[:depth])
        assert [row["id"] for row in view["ranking"]] == shown
    # Depth 7 finally lets the reranker see d07 (grade 3): it jumps to second place.
    assert shown[1] == "d07"


def test_typing_into_fields(lab):
    lab.type("total", "12")
    lab.expect_matches_core()
    lab.type("docs", "250000")
    lab.expect_matches_core()
    lab.type("tokens_doc", "800")
    lab.expect_matches_core()
    lab.type("chunk", "256")
    lab.expect_matches_core()
    lab.type("solape", "32")
    view = lab.expect_matches_core()
    assert view["outputs"]["stride"]["value"] == 224
    assert lab.url_params() == {"total": "12", "docs": "250000", "tokens_doc": "800", "chunk": "256", "solape": "32"}


def test_overlap_at_chunk_size_shows_the_hint_and_no_nan(lab):
    lab.type("solape", "512")
    expect(lab.page.locator('[data-error-for="solape"]')).to_have_text("Debe ser menor que el tamaño del chunk.")
    expect(lab.control("solape")).to_have_attribute("aria-invalid", "true")
    view = lab.expect_matches_core()
    assert view["outputs"]["stride"]["text"] == "—"
    lab.type("solape", "128")  # and the next valid value works again
    lab.expect_matches_core()


def test_editing_a_grade_updates_ndcg(lab):
    before = lab.page.locator('[data-output="ndcg"]').get_attribute("data-value")
    lab.grade("d01", 3)
    view = lab.expect_matches_core()
    assert view["outputs"]["ndcg"]["raw"] != before
    assert lab.url_params()["grades"] == "3,2,1,3,0,2,3,1,0,2,1,0"


def test_url_round_trip(page, base_url):
    query = "?k=3&umbral=1&rerank=9&total=11&docs=5&tokens_doc=3000&chunk=1000&solape=100&grades=1,2,1,3,0,2,3,1,0,2,1,3"
    lab = Lab(page, base_url, query)
    view = lab.expect_matches_core()
    assert lab.control("k").input_value() == "3"
    assert lab.control("chunk").input_value() == "1000"
    assert page.locator('[data-grade-for="d12"]').input_value() == "3"
    assert view["controls"]["grades"]["value"][-1] == 3
    assert lab.url_params() == dict(parse_qsl(query[1:]))
    assert lab.errors == []


def test_no_request_leaves_the_origin(page, base_url):
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    lab = Lab(page, base_url)
    lab.press("k", "ArrowRight")
    lab.expect_matches_core()
    assert requests and all(url.startswith(base_url) for url in requests), requests


def test_opened_from_disk_it_shows_the_server_render_and_how_to_serve_it(page, site_dir):
    page.goto((site_dir / "index.html").as_uri())
    note = page.locator(".file-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("sirve la carpeta con un servidor web")
    view = compute({"scenario": load_scenario()})
    expect(page.locator('[data-output="precision"]')).to_have_text(view["outputs"]["precision"]["text"])
    # One story: the status says what the note says, and no progress bar waits for what cannot come.
    expect(page.locator("[data-status-text]")).to_have_text("Los valores mostrados se calcularon al publicar la página.")
    expect(page.locator("[data-status-progress]")).to_be_hidden()
    expect(page.locator("html")).not_to_have_attribute("data-ready", "true")
