"""The build-time view table in Chromium: the ranking's sliders answer before (and without) Python.

Every request for Python's runtime is aborted here, so whatever the page shows after a slider move
comes from the table. The values are checked against trec_eval (pytrec_eval) on a set of states
drawn at random, with the rerank done here, and, whole, against raglab_core.compute in CPython.
(ranx, which compiles its measures with numba for about 25 s on a fresh install, checks the same
exponential nDCG in tests/core/runs/test_evaluation.py.)
"""

import gzip
import random

import pytest
import pytrec_eval
from playwright.sync_api import expect

from raglab_core import compute

from ..conftest import load_scenario
from ..support.lab_page import DOM_STATE, expected_dom

PYTHON = ["**/pyodide/**", "**/assets/snapshot.*.bin", "**/*.whl", "**/assets/brotli-*/**"]
TABLE = "**/assets/views.*.bin"
DEFAULT = compute({"scenario": load_scenario()})
BUSY = "[data-busy-region][aria-busy]"


def block_python(page):
    for pattern in PYTHON:
        page.route(pattern, lambda route: route.abort())


def move(page, name, value, low):
    """Set a slider by keyboard, as a reader does: Home, then the right arrow."""
    slider = page.locator(f'[name="{name}"]')
    slider.focus()
    slider.press("Home")
    for _ in range(value - low):
        slider.press("ArrowRight")
    assert slider.input_value() == str(value)


def reference(k, umbral, rerank):
    """Precision, recall, MRR and nDCG at k from trec_eval, for the scenario's displayed order: the
    first ``rerank`` documents sorted by reranker score (ties in first-stage order).

    MRR@k is trec_eval's recip_rank over the first k documents only. The lab's nDCG gains 2^g − 1
    (Burges et al.); trec_eval's ndcg_cut gains the judged grade itself, so it is given 2^g − 1 as
    the grade, and it ignores the threshold, as the lab's nDCG does."""
    scenario = load_scenario()
    docs = scenario["documents"]
    prefix = sorted(range(rerank), key=lambda i: (-docs[i]["reranker_score"], i))
    order = [docs[i]["id"] for i in prefix] + [doc["id"] for doc in docs[rerank:]]
    grades = {doc["id"]: doc["grade"] for doc in docs + scenario["unretrieved"]}
    run = {"q": {doc: float(len(order) - i) for i, doc in enumerate(order)}}
    top_k = {"q": {doc: run["q"][doc] for doc in order[:k]}}
    trec = pytrec_eval.RelevanceEvaluator({"q": grades}, {f"P.{k}", f"recall.{k}"}, relevance_level=umbral).evaluate(run)["q"]
    rr = pytrec_eval.RelevanceEvaluator({"q": grades}, {"recip_rank"}, relevance_level=umbral).evaluate(top_k)["q"]
    exponential = {"q": {doc: 2 ** grade - 1 for doc, grade in grades.items()}}
    ndcg = pytrec_eval.RelevanceEvaluator(exponential, {f"ndcg_cut.{k}"}).evaluate(run)["q"]
    return order, {"precision": trec[f"P_{k}"], "recall": trec[f"recall_{k}"],
                   "mrr": rr["recip_rank"], "ndcg": ndcg[f"ndcg_cut_{k}"]}


def test_with_python_blocked_the_sliders_answer_from_the_table(page, base_url):
    block_python(page)
    page.goto(base_url)
    root = page.locator("html")
    expect(root).to_have_attribute("data-views", "table")
    rng = random.Random()  # a new set of states on every run
    states = [(rng.randint(1, 12), rng.randint(1, 3), rng.randint(0, 12)) for _ in range(6)]
    for k, umbral, rerank in states:
        move(page, "k", k, 1)
        move(page, "umbral", umbral, 1)
        move(page, "rerank", rerank, 0)
        order, expected = reference(k, umbral, rerank)
        expect(page.locator(BUSY)).to_have_count(0)
        for name, value in expected.items():
            shown = page.locator(f'[data-output="{name}"]').first.get_attribute("data-value")
            assert float(shown) == pytest.approx(value, abs=1e-12), (name, k, umbral, rerank)
        assert page.locator('ol[data-output="ranking"] > li').evaluate_all("items => items.map(i => i.dataset.doc)") == order
    # The last state, whole: what compute() gives in CPython, byte for byte as Python would write it.
    state = {"scenario": load_scenario(), "k": str(k), "umbral": str(umbral), "rerank": str(rerank),
             "edited": ["k", "umbral", "rerank"]}
    shown = page.evaluate(DOM_STATE)
    shown.pop("text")
    assert shown == expected_dom(compute(state), state)
    expect(root).not_to_have_attribute("data-ready", "true")
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "error", timeout=60_000)

    # A grade edit is no state of the table: it waits for Python, marked busy, the values unchanged.
    precision = page.locator('[data-output="precision"]').first.get_attribute("data-value")
    page.locator(f'[data-grade-for="{load_scenario()["documents"][0]["id"]}"]').select_option("0")
    expect(page.locator('[data-busy-region][aria-busy="true"]')).to_have_count(page.locator("[data-busy-region]").count())
    assert page.locator('[data-output="precision"]').first.get_attribute("data-value") == precision


def test_before_python_the_status_says_what_answers(page, base_url):
    held = []
    page.route("**/assets/snapshot.*.bin", lambda route: held.append(route))  # Python held back
    page.goto(base_url)
    expect(page.locator("html")).to_have_attribute("data-views", "table")
    config = page.evaluate("JSON.parse(document.getElementById('lab-config').textContent)")
    expect(page.locator("[data-status-text]")).to_have_text(config["views"]["loading"])
    assert config["views"]["loading"] == "Los controles del ranking ya responden; Python termina de cargarse para el resto…"
    for route in held:
        route.continue_()


@pytest.mark.parametrize("fault", ["missing", "corrupt"])
def test_without_a_sound_table_moves_wait_for_python(page, base_url, fault):
    block_python(page)
    if fault == "missing":
        page.route(TABLE, lambda route: route.fulfill(status=404, body=b"not found"))
    else:
        def corrupt(route):
            response = route.fetch()
            text = gzip.decompress(response.body()).decode().replace('"precision"', '"precision" ', 1)
            route.fulfill(response=response, body=gzip.compress(text.encode()))  # still gzip'd JSON: only SRI can tell
        page.route(TABLE, corrupt)
    page.goto(base_url)
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "error", timeout=60_000)
    move(page, "k", 3, 1)
    expect(page.locator('[data-busy-region][aria-busy="true"]')).to_have_count(page.locator("[data-busy-region]").count())
    expect(page.locator("html")).not_to_have_attribute("data-views", "table")
    for name in ("precision", "recall", "ndcg"):
        assert page.locator(f'[data-output="{name}"]').first.get_attribute("data-value") == DEFAULT["outputs"][name]["raw"]


def test_a_slider_moved_before_the_scripts_ran_counts(page, base_url):
    """The page paints, and its sliders take keys, before the deferred lab.js runs: that move is kept."""
    held = []
    page.route("**/assets/lab.*.js", lambda route: held.append(route))
    page.goto(base_url, wait_until="commit")
    k = page.locator('[name="k"]')
    k.focus()
    k.press("ArrowRight")
    for _ in range(500):
        if held:
            break
        page.wait_for_timeout(20)
    for route in held:
        route.continue_()
    expect(page.locator("html")).to_have_attribute("data-views", "table")
    view = compute({"scenario": load_scenario(), "k": k.input_value(), "edited": ["k"]})
    expect(page.locator('[data-output="precision"]').first).to_have_attribute("data-value", view["outputs"]["precision"]["raw"])
    expect(page.locator(BUSY)).to_have_count(0)
    assert "k=" + k.input_value() in page.url
