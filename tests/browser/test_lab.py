"""The lab in a real Chromium: every shown value equals raglab_core.compute run here, in CPython.

Controls are driven as a user drives them: arrow keys on sliders, typing into fields, choosing a
grade in a select. Since the page's numbers come from the same core running under Pyodide,
agreement proves the browser and CPython compute the same thing.
"""

import collections
import contextlib
import functools
import json
import random
import re
import time
from urllib.parse import parse_qsl, urlsplit

import pytest
from playwright.sync_api import expect

from raglab_core import compute
from raglab_site.devserver import make_server, running

from ..conftest import load_scenario
from ..support.lab_page import OUTPUT_NAMES, Lab


pytestmark = pytest.mark.one_lab_page  # `lab`: the module's one page, reset (tests/browser/conftest.py)


def test_server_rendered_page_equals_the_core_before_and_after_python(page, base_url):
    page.route("**/*worker*.js", lambda route: route.abort())  # no Python: only the server's render
    page.goto(base_url)
    view = compute({"scenario": load_scenario()})
    for name in OUTPUT_NAMES:
        expect(page.locator(f'[data-output="{name}"]')).to_have_attribute("data-value", view["outputs"][name]["raw"])
    expect(page.locator('[data-output="metrics_reading"]')).to_have_text(view["outputs"]["metrics_reading"]["text"])
    rows = page.locator('[data-output="conventions"] [data-convention]')
    expect(rows).to_have_count(len(view["conventions"]))
    for row in view["conventions"]:
        expect(page.locator(f'[data-convention="{row["name"]}"]')).to_have_attribute("data-value", row["raw"])


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
    expected = {"k": "1", "umbral": "3"}
    assert lab.url_params(lambda params: params == expected) == expected
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
    expected = {"total": "12", "docs": "250000", "tokens_doc": "800", "chunk": "256", "solape": "32"}
    assert lab.url_params(lambda params: params == expected) == expected
    expect(lab.control("total")).to_have_value("12")


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
    assert lab.url_params(lambda params: "grades" in params)["grades"] == "3,2,1,3,0,2,3,1,0,2,1,0"


def test_url_round_trip(page, base_url):
    query = "?k=3&umbral=1&rerank=9&total=16&docs=5&tokens_doc=3000&chunk=1000&solape=100&grades=1,2,1,3,0,2,3,1,0,2,1,3"
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
    expect(page.locator('[data-action="reset"]')).to_be_hidden()  # no lab.js: nothing would answer it
    view = compute({"scenario": load_scenario()})
    expect(page.locator('[data-output="precision"]')).to_have_text(view["outputs"]["precision"]["text"])
    # One story: the status says what the note says, and no progress bar waits for what cannot come.
    expect(page.locator("[data-status-text]")).to_have_text("Los valores mostrados se calcularon al publicar la página.")
    expect(page.locator("[data-status-progress]")).to_be_hidden()
    expect(page.locator("html")).not_to_have_attribute("data-ready", "true")


# --- issue 11: one judgments model, errors only where the user typed, honest while loading -------


def test_total_follows_the_threshold_and_the_unretrieved_list_flags_relevance(lab):
    expect(lab.control("total")).to_have_value("8")
    expect(lab.page.locator('ul[data-output="unretrieved"] > li')).to_have_count(5)
    lab.press("umbral", "ArrowRight")  # 3: d04, d07 ranked and d13 never retrieved
    view = lab.expect_matches_core()
    expect(lab.control("total")).to_have_value("3")
    assert view["outputs"]["recall"]["value"] == view["outputs"]["relevant_in_k"]["value"] / 3
    expect(lab.page.locator('ul[data-output="unretrieved"] > li[data-relevant="true"]')).to_have_count(1)
    assert "total" not in lab.url_params(lambda params: params.get("umbral") == "3")
    lab.press("umbral", "Home")
    lab.expect_matches_core()
    expect(lab.control("total")).to_have_value("12")


def test_a_set_total_is_raised_not_flagged_when_the_threshold_moves(page, base_url):
    lab = Lab(page, base_url, "?total=9")
    lab.expect_matches_core()
    lab.press("umbral", "Home")  # 12 judged documents reach grade 1: more than the 9 set
    view = lab.expect_matches_core()
    assert view["controls"]["total"]["raised_from"] == 9
    expect(page.locator('[data-error-for="total"]')).to_have_text("")
    expect(lab.control("total")).not_to_have_attribute("aria-invalid", "true")
    expect(lab.control("total")).to_have_value("12")
    expect(page.locator('[data-output="metrics_reading"]')).to_contain_text("sube de 9 a 12")
    # The raise is the view's, not the user's (issue 20, item 5): the URL keeps the 9, which comes back.
    assert lab.url_params(lambda params: params.get("umbral") == "1")["total"] == "9"
    lab.press("umbral", "End")  # 3: three judged documents reach it, the user's 9 holds again
    view = lab.expect_matches_core()
    assert view["controls"]["total"] == {"value": 9, "error": None, "set": True, "raised_from": None}
    expect(lab.control("total")).to_have_value("9")
    lab.press("umbral", "Home")
    lab.expect_matches_core()
    expect(lab.control("total")).to_have_value("12")
    lab.type("total", "4")  # the user's own field: the error is there, and names the cause
    view = lab.expect_matches_core()
    assert view["controls"]["total"]["error"].startswith("Debe ser al menos 12: hay 12 documentos juzgados")
    assert lab.errors == []


def test_dragging_chunk_below_the_overlap_flags_chunk_once(lab):
    lab.type("chunk", "64")
    view = lab.expect_matches_core()
    expect(lab.page.locator('[data-error-for="chunk"]')).to_have_text("Debe ser mayor que el solape (64 tokens).")
    expect(lab.page.locator('[data-error-for="solape"]')).to_have_text("")
    expect(lab.control("solape")).not_to_have_attribute("aria-invalid", "true")
    # every «—» says why: the four cards that depend on the chunk size (the stride does too), and the five of
    # the evidence
    expect(lab.page.locator(".panel-chunking [data-note-for]", has_text="Sin calcular: corrige el chunk size.")).to_have_count(9)
    assert view["controls"]["solape"]["error"] is None


@pytest.mark.cold_boot  # holds back or counts the snapshot's download
def test_values_of_another_state_are_busy_until_python_computes_the_current_one(page, base_url):
    held = []
    page.route("**/assets/snapshot.*.bin", lambda route: held.append(route))  # the runtime's download, held back
    # Without the view table, which answers slider moves before Python (tests/browser/test_views.py).
    page.route("**/assets/views.*.bin", lambda route: route.fulfill(status=404, body=b""))
    page.goto(base_url)
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "loading")
    regions = page.locator("[data-busy-region]")
    # Both panels' outputs, the ranking, the unretrieved list, the breakdown and its totals, the strip,
    # the conventions table and its reading.
    assert regions.count() == 9
    expect(page.locator("[data-busy-region][aria-busy]")).to_have_count(0)  # the server's render is the form's state
    k = page.locator('[name="k"]')
    k.focus()
    k.press("ArrowLeft")
    k.press("ArrowLeft")  # k = 3 before Python is ready
    expect(page.locator('[data-busy-region][aria-busy="true"]')).to_have_count(page.locator("[data-busy-region]").count())
    precision = page.locator('[data-output="precision"]')
    expect(precision).to_have_text(DEFAULT_VIEW["outputs"]["precision"]["text"])  # still the old value…
    region = page.locator(".panel-ranking .results")  # the busy region holding it…
    expect(region).to_have_attribute("aria-busy", "true")
    expect(region).to_have_css("opacity", "0.55")  # …looks pending
    expect(page.locator("html")).not_to_have_attribute("data-ready", "true")
    deadline = time.monotonic() + 30
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    for route in held:
        route.continue_()
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=60_000)
    view = compute({"scenario": load_scenario(), "k": "3", "edited": ["k"]})
    expect(precision).to_have_text(view["outputs"]["precision"]["text"])
    expect(page.locator("[data-busy-region][aria-busy]")).to_have_count(0)
    expect(region).to_have_css("opacity", "1")


DEFAULT_VIEW = compute({"scenario": load_scenario()})


# --- issue 12: the arithmetic on screen -----------------------------------------------------------


def test_cut_lines_move_with_k_and_rerank(lab):
    def cut(kind):
        return lab.page.locator(f'ol[data-output="ranking"] > li[data-cut-{kind}="true"]')

    for key, k in (("Home", 1), ("ArrowRight", 2), ("End", 12)):
        lab.press("k", key)
        view = lab.expect_matches_core()
        expect(cut("k")).to_have_count(1)
        expect(cut("k")).to_have_attribute("data-doc", view["ranking"][k - 1]["id"])
        expect(cut("k")).to_have_attribute("data-cut", re.compile(f"corte k = {k}"))
    lab.press("rerank", "Home")
    lab.expect_matches_core()
    expect(cut("rerank")).to_have_count(0)  # depth 0: no prefix, no line
    lab.press("rerank", "ArrowRight", 3)
    view = lab.expect_matches_core()
    expect(cut("rerank")).to_have_attribute("data-doc", view["ranking"][2]["id"])
    # The line is drawn: the label shows below the row.
    content = cut("rerank").evaluate("li => getComputedStyle(li, '::after').content")
    assert "fin del reranking" in content


def test_breakdown_and_windows_match_the_core_in_random_states(lab):
    page = lab.page
    rng = random.Random(12)
    for name, value in (("tokens_doc", "1200"), ("chunk", "512"), ("solape", "448")):
        lab.type(name, value)
    lab.expect_matches_core()
    for _ in range(6):
        lab.press("k", rng.choice(["ArrowLeft", "ArrowRight", "Home", "End"]), rng.randint(1, 3))
        lab.press("rerank", rng.choice(["ArrowLeft", "ArrowRight"]), rng.randint(1, 4))
        lab.grade(f"d{rng.randint(1, 12):02d}", rng.randint(0, 3))
        lab.type("chunk", str(rng.choice([64, 300, 512, 1500])))
        lab.type("solape", str(rng.choice([0, 32, 63, 200])))
        view = lab.expect_matches_core()
        expect(page.locator('[data-output="dcg"]')).to_have_attribute("data-value", view["outputs"]["dcg"]["raw"])
        expect(page.locator('[data-output="idcg"]')).to_have_attribute("data-value", view["outputs"]["idcg"]["raw"])


def test_on_a_phone_the_numbers_stay_in_view_while_a_slider_moves(lab):
    page = lab.page
    page.set_viewport_size({"width": 390, "height": 844})
    rerank = lab.control("rerank")
    rerank.scroll_into_view_if_needed()
    page.mouse.wheel(0, 250)  # and a little further, as a thumb does
    lab.press("rerank", "ArrowRight")
    lab.expect_matches_core()
    for name in ("precision", "recall", "mrr", "ndcg", "relevant_in_k"):
        box = page.locator(f'[data-output="{name}"]').bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= 844, (name, box)
    slider = rerank.bounding_box()
    assert 0 <= slider["y"] <= 844
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing overflows sideways


# --- issue 14: input latency ----------------------------------------------------------------------

COUNT_URL_WRITES = """(() => {
  const replace = history.replaceState.bind(history);
  window.__urlWrites = 0;
  history.replaceState = (...args) => { window.__urlWrites += 1; return replace(...args); };
})()"""


def test_a_burst_of_input_ends_showing_the_last_state_and_the_url_follows_every_change(lab):
    page = lab.page
    page.evaluate(COUNT_URL_WRITES)  # lab.js calls history.replaceState anew at each write
    writes = page.evaluate("window.__urlWrites")
    k = lab.control("k")
    k.focus()
    for key in ["ArrowRight"] * 4 + ["ArrowLeft"] * 7:  # faster than Python answers: the requests coalesce
        k.press(key)
        # DESIGN §4: the URL is updated on every change, at once (not when Python answers).
        assert dict(parse_qsl(urlsplit(page.url).query)).get("k", "5") == k.input_value()
    lab.edit("k", k.input_value())
    assert lab.state["k"] == "2"
    # Five changes within one task: only the last may be computed, and it must be.
    page.evaluate("""() => {
      const umbral = document.querySelector('[name="umbral"]');
      for (const value of ["3", "1", "3", "2", "1"]) {
        umbral.value = value;
        umbral.dispatchEvent(new Event("input", {bubbles: true}));
      }
    }""")
    lab.edit("umbral", "1")
    lab.expect_matches_core()
    assert dict(parse_qsl(urlsplit(page.url).query)) == {"k": "2", "umbral": "1"}
    # One write per change that changes the URL (11 of k, 5 of umbral), none for the views.
    assert page.evaluate("window.__urlWrites") - writes == 16


# Counts the states lab.js sends to Python: those the user asked for (__computes) and those it
# computes ahead (__ahead), with their states; __answered counts Python's answers to either, and
# <html data-python-idle> is "true" while every state sent has been answered.
COUNT_COMPUTES = """(() => {
  const post = Worker.prototype.postMessage;
  window.__computes = 0;
  window.__ahead = [];
  window.__answered = 0;
  const idle = () => {
    document.documentElement.dataset.pythonIdle = String(window.__answered === window.__computes + window.__ahead.length);
  };
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === "lab-compute") {
      if (message.ahead) window.__ahead.push(message.state);
      else window.__computes += 1;
      idle();
      if (!this.__counted) {
        this.__counted = true;
        // After lab.js's own listener, which sends the next state ahead at once.
        this.addEventListener("message", (event) => {
          if (!["lab-view", "lab-refusal"].includes(event.data.type)) return;
          window.__answered += 1;
          idle();
        });
      }
    }
    return post.call(this, message, ...rest);
  };
})()"""


def settle(page):
    """Wait until Python has answered every state sent to it, those computed ahead included."""
    expect(page.locator("html")).to_have_attribute("data-python-idle", "true", timeout=10_000)


def test_a_state_met_again_is_shown_from_the_view_python_gave_for_it(page, base_url):
    page.add_init_script(COUNT_COMPUTES)
    lab = Lab(page, base_url, "?total=9")
    lab.expect_matches_core()
    lab.press("k", "ArrowRight")  # 6
    lab.expect_matches_core()
    lab.press("umbral", "Home")  # the total set to 9 is raised to 12
    lab.expect_matches_core()
    settle(page)
    computes, ahead = page.evaluate("[window.__computes, window.__ahead.length]")
    for key in ("ArrowLeft", "ArrowRight", "ArrowLeft", "ArrowRight"):  # k = 5, 6, 5, 6: met again
        lab.press("k", key)
        lab.expect_matches_core()
    settle(page)
    # Neither the user nor computing ahead asked Python for them again: the same views were shown.
    assert page.evaluate("window.__computes") == computes
    computed = [json.dumps({**state, "scenario": None}, sort_keys=True) for state in page.evaluate("window.__ahead")]
    assert len(set(computed)) == len(computed) >= ahead  # and nothing computed ahead twice
    assert lab.url_params(lambda params: params.get("k") == "6") == {"k": "6", "umbral": "1", "total": "9"}
    assert lab.errors == []


def test_the_states_one_step_away_are_computed_ahead_and_shown_at_once(page, base_url):
    page.add_init_script(COUNT_COMPUTES)
    # Without the view table, which holds these slider states already (lab.js then computes ahead
    # only states outside it: tests/browser/test_views.py).
    page.route("**/assets/views.*.bin", lambda route: route.fulfill(status=404, body=b""))
    lab = Lab(page, base_url)
    lab.expect_matches_core()
    settle(page)
    computes = page.evaluate("window.__computes")
    ahead = page.evaluate("window.__ahead")
    # After the first view: each slider one step up, then down, from the defaults (k 5, umbral 2,
    # rerank 6), in the form's order; six in all, so the chunking sliders' turn does not come.
    scenario = load_scenario()
    defaults = {name: str(value) for name, value in scenario["defaults"].items()}
    assert [{key: value for key, value in state.items() if key != "scenario"} for state in ahead] == [
        {**defaults, "k": "6", "edited": ["k"]}, {**defaults, "k": "4", "edited": ["k"]},
        {**defaults, "umbral": "3", "edited": ["umbral"]}, {**defaults, "umbral": "1", "edited": ["umbral"]},
        {**defaults, "rerank": "7", "edited": ["rerank"]}, {**defaults, "rerank": "5", "edited": ["rerank"]},
    ]
    assert all(state["scenario"] == scenario for state in ahead)
    lab.press("k", "ArrowRight")
    lab.expect_matches_core()
    settle(page)
    # The slider moved last comes first now: k 7 and 5, then umbral 3 and 1, rerank 7 and 5.
    assert [(state["k"], state["umbral"], state["rerank"], state["edited"])
            for state in page.evaluate(f"window.__ahead.slice({len(ahead)})")] == [
        ("7", "2", "6", ["k"]), ("5", "2", "6", ["k"]), ("6", "3", "6", ["k", "umbral"]),
        ("6", "1", "6", ["k", "umbral"]), ("6", "2", "7", ["k", "rerank"]), ("6", "2", "5", ["k", "rerank"]),
    ]
    lab.press("umbral", "ArrowLeft")  # umbral 1, one step from the state shown: computed ahead
    lab.expect_matches_core()
    settle(page)
    assert page.evaluate("window.__computes") == computes  # both were shown from views computed ahead
    # Two steps at once (a click on the slider's track): not computed ahead, so Python is asked.
    page.evaluate("""() => {
      const k = document.querySelector('[name="k"]');
      k.value = "9";
      k.dispatchEvent(new Event("input", {bubbles: true}));
    }""")
    lab.edit("k", "9")
    lab.expect_matches_core()
    assert page.evaluate("window.__computes") == computes + 1
    # Only the browser's own reports of the table withheld above (its 404, whose body fails SRI).
    assert [error for error in lab.errors if "views." not in error and "404" not in error] == []


def test_a_total_raised_by_a_view_superseded_in_a_burst_is_not_left_busy(page, base_url):
    lab = Lab(page, base_url, "?total=9")
    lab.expect_matches_core()
    # umbral 1 (12 judged documents reach it: the total set to 9 is raised to 12) goes to Python; k
    # changes while it computes, so k's state is sent once umbral's view comes back.
    page.evaluate("""() => {
      const fire = (name, value) => {
        const input = document.querySelector(`[name="${name}"]`);
        input.value = value;
        input.dispatchEvent(new Event("input", {bubbles: true}));
      };
      fire("umbral", "1");
      fire("k", "7");
    }""")
    lab.edit("umbral", "1")
    lab.edit("k", "7")
    view = lab.expect_matches_core()  # including: no region left busy
    assert view["controls"]["total"]["raised_from"] == 9
    expect(lab.control("total")).to_have_value("12")  # the total in use; the URL keeps the user's
    assert lab.url_params(lambda params: params.get("k") == "7") == {"k": "7", "umbral": "1", "total": "9"}
    assert lab.errors == []


DATA_SAVER = """Object.defineProperty(Navigator.prototype, "connection", {
  configurable: true,
  get: () => ({ saveData: true, effectiveType: "4g", addEventListener() {}, removeEventListener() {} }),
});"""


@pytest.mark.cold_boot  # holds back or counts the snapshot's download
def test_with_a_data_saver_python_waits_for_the_first_use_of_a_control(page, base_url):
    page.add_init_script(DATA_SAVER)
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(base_url + "?k=3")
    status = page.locator("[data-status]")
    config = page.evaluate("JSON.parse(document.getElementById('lab-config').textContent)")
    megabytes = f"{config['runtimeBytes'] / 1e6:.1f}".replace(".", ",")
    expect(status).to_have_text(
        "Ahorro de datos activado: ves los valores calculados al publicar la página. "
        f"Python (unos {megabytes} MB) se descargará cuando uses un control.")
    assert 4 < config["runtimeBytes"] / 1e6 < 7
    # The URL's state differs from the server's render, and the build-time view table answers it,
    # with no download of Python (tests/browser/test_views.py): once it has, the page has settled.
    expect(page.locator("html")).to_have_attribute("data-views", "table")
    expect(page.locator("[data-busy-region][aria-busy]")).to_have_count(0)
    assert not [url for url in requests if "/pyodide/" in url or "/snapshot." in url or "worker." in url]
    expect(page.locator("html")).not_to_have_attribute("data-ready", "true")
    view = compute({"scenario": load_scenario(), "k": "3"})
    expect(page.locator('[data-output="precision"]')).to_have_text(view["outputs"]["precision"]["text"])
    k = page.locator('[name="k"]')
    k.focus()  # the first use: Python is on its way at once, and says so
    expect(status).to_have_attribute("data-status", "loading", timeout=1000)
    k.press("ArrowRight")
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=60_000)
    view = compute({"scenario": load_scenario(), "k": "4", "edited": ["k"]})
    expect(page.locator('[data-output="precision"]')).to_have_text(view["outputs"]["precision"]["text"])
    expect(page.locator("[data-busy-region][aria-busy]")).to_have_count(0)
    assert [url for url in requests if "/snapshot." in url]


FIRST_FRAME = """window.__firstFrame = null;
window.__parsed = null;
requestAnimationFrame(() => { window.__firstFrame = performance.now(); });
document.addEventListener("readystatechange", () => { window.__parsed ??= performance.now(); });"""


def test_the_worker_starts_after_the_first_frame(page, base_url):
    """boot.js starts Python's worker in the task after the first frame once the HTML is parsed, so
    that its boot does not take the CPU from the frame that lays out the whole page (with the
    stylesheet inline, a frame can come while the parser is in <head>; docs/performance.md, «When
    the worker starts»); until then the status says Python is loading, and the ranking's sliders
    answer from the view table."""
    page.add_init_script(FIRST_FRAME)
    # The HTML at 100 kB/s, so that frames come while it is still being parsed; full speed again
    # once the worker has been created.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    slow = {"offline": False, "latency": 20, "downloadThroughput": 100_000, "uploadThroughput": 100_000}
    cdp.send("Network.emulateNetworkConditions", slow)
    page.goto(base_url, wait_until="commit")
    deadline = time.time() + 30
    while not page.evaluate("performance.getEntriesByName('raglab:worker-created').length") and time.time() < deadline:
        page.wait_for_timeout(20)
    cdp.send("Network.emulateNetworkConditions", {**slow, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=60_000)
    boot, created = page.evaluate("""() => ['raglab:boot-script', 'raglab:worker-created']
      .map((name) => performance.getEntriesByName(name)[0].startTime)""")
    first_frame, parsed = page.evaluate("[window.__firstFrame, window.__parsed]")
    assert boot < first_frame <= created and parsed <= created, (boot, first_frame, parsed, created)
    view = compute({"scenario": load_scenario(), "k": "6", "edited": ["k"]})
    page.locator('[name="k"]').press("ArrowRight")
    expect(page.locator('[data-output="precision"]')).to_have_text(view["outputs"]["precision"]["text"])


@contextlib.contextmanager
def counting_gets(directory):
    """raglab_site.devserver's host, counting the GET requests for each path: (base URL, counter)."""
    httpd = make_server(directory)
    handler = httpd.RequestHandlerClass  # functools.partial(Handler, directory=...)
    gets = collections.Counter()

    class Counting(handler.func):
        def send_head(self):
            if self.command == "GET":
                gets[urlsplit(self.path).path] += 1
            return super().send_head()

    httpd.RequestHandlerClass = functools.partial(Counting, *handler.args, **handler.keywords)
    with running(httpd) as url:
        yield url, gets


def test_the_runtimes_big_files_download_from_the_start_and_once(browser, site_dir):
    """boot.js preloads the runtime's big files (the configuration's `preload`: the wasm and the
    snapshot) as soon as it runs, before the worker starts; the worker's own requests for them join
    those downloads, so each crosses the network once. The network is held to 20 Mbit/s, so that
    both preloads are still arriving when the worker asks. They are fetches, not <link rel=preload>
    (the initiator says so), which a worker's request never uses: Chromium warned on the console, a
    few seconds after the load, that both preloads were unused (issue 49). No such warning now."""
    with counting_gets(site_dir) as (url, gets):
        context = browser.new_context(service_workers="block")  # a first visit: an empty HTTP cache
        try:
            page = context.new_page()
            console = []
            page.on("console", lambda message: console.append((message.type, message.text)))
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions",
                     {"offline": False, "latency": 20, "downloadThroughput": 2.5e6, "uploadThroughput": 2.5e6})
            page.goto(url)
            expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=60_000)
            expect(page.locator("html")).to_have_attribute("data-boot", "snapshot")
            files = page.evaluate("JSON.parse(document.getElementById('lab-config').textContent).preload")
            assert sorted(files) == ["snapshot", "wasm"] and all(files.values())
            preload = [files["wasm"], files["snapshot"]]
            created, entries = page.evaluate("""(paths) => [
              performance.getEntriesByName('raglab:worker-created')[0].startTime,
              paths.map((path) => performance.getEntriesByName(new URL(path, document.baseURI).href)
                .map((entry) => [entry.initiatorType, entry.startTime, entry.responseEnd])),
            ]""", preload)
            # Chromium's check of unused preloads runs a few seconds after the load event.
            page.wait_for_function("() => performance.now() > performance.getEntriesByType('navigation')[0].loadEventEnd + 3500",
                                   timeout=15_000)
        finally:
            context.close()
    assert [text for kind, text in console if "preload" in text] == []
    for path, found in zip(preload, entries):
        assert len(found) == 1, (path, found)
        initiator, start, end = found[0]
        assert initiator == "fetch" and start < created < end, (path, found[0], created)
        assert gets["/" + path] == 1, (path, gets)


def test_a_ranking_move_keeps_the_chunk_strips_rectangles(page, base_url):
    """The server's render writes the strip's coordinates as lab.js would ("256", not Python's
    "256.0": raglab_core.arithmetic's whole coordinates are ints), so a view that leaves the chunking
    panel as it is (a k move) leaves its rectangles alone: the same nodes, not drawn again. The view table
    answers the move: Python is not started."""
    page.route("**/assets/worker.*.js", lambda route: route.abort())
    page.goto(base_url)
    expect(page.locator("html")).to_have_attribute("data-views", "table", timeout=60_000)
    page.evaluate("window.__rects = [...document.querySelectorAll('[data-window], [data-evidence]')]")
    view = compute({"scenario": load_scenario(), "k": "6", "edited": ["k"]})
    page.locator('[name="k"]').press("ArrowRight")
    expect(page.locator('[data-output="precision"]')).to_have_text(view["outputs"]["precision"]["text"])
    kept = page.evaluate("""() => window.__rects.length > 1 && window.__rects.every((node, i) =>
      node.isConnected && node === document.querySelectorAll('[data-window], [data-evidence]')[i])""")
    assert kept


def test_unjudged_grades_from_the_url_and_the_select_show_the_conventions_panels_extra_rows(page, base_url):
    """«sin juicio» (DESIGN §3, §4.4): the URL's «u» and the select's option; the judged and condensed rows
    come and go with it, under Pyodide as in the server's render."""
    lab = Lab(page, base_url, "?grades=3,u,2,u,0,2,3,1,0,2,1,0&k=5")
    view = lab.expect_matches_core()
    assert [row["name"] for row in view["conventions"]][-3:] == ["judged", "condensed_precision", "condensed_ndcg"]
    expect(page.locator('[data-grade-for="d02"]')).to_have_value("u")
    expect(page.locator('li[data-doc="d02"]')).to_have_attribute("data-grade", "u")
    for doc in ("d02", "d04"):
        lab.grade(doc, 1)
    view = lab.expect_matches_core()
    expect(page.locator('[data-convention="judged"]')).to_have_count(0)
    lab.grade("d05", "u")
    lab.expect_matches_core()
    expect(page.locator('[data-convention="condensed_ndcg"]')).to_have_count(1)
    assert lab.url_params(lambda params: "u" in params.get("grades", ""))["grades"] == "3,1,2,1,u,2,3,1,0,2,1,0"
    assert lab.errors == []
