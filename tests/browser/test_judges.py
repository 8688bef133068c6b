"""«¿Te fías de tus juicios?» in «Tus datos» (issue 50): a judge's qrels beside the reference's, with and without
runs; the page's values and its download are `agree --json`'s, the warnings come before the verdict, and the
section fits a phone with no accessibility violation."""

import json

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from ..conftest import ROOT
from ..support.commands import cli
from ..support.lab_page import TABLE_CELLS, evaluated, settled_box
from ..support.trec_data import qrels_lines, reversed_judge_collection as collection, run_lines, write_lines

NAMES = ("agreement", "pairs", "exact", "kappa", "kappa_linear", "kappa_quadratic", "alpha_ordinal", "alpha_interval",
         "pabak", "bias")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("judges")
    reference, judge, runs = collection()
    paths = {"qrels": write_lines(folder / "people.txt", qrels_lines(reference)),
             "judge-qrels": write_lines(folder / "llm.txt", qrels_lines(judge))}
    for letter, run in zip("abc", runs):
        paths[f"run-{letter}"] = write_lines(folder / f"{letter}.txt", run_lines(run))
    return paths


def agree_json(*paths) -> str:
    """What ``python -m raglab_core agree PATHS --json`` prints, run in this process (no second Python started)."""
    return cli("agree", *paths, "--json")


def agree(files, *slots):
    return agree_json(*(files[slot] for slot in ("qrels", "judge-qrels", *slots)))


def shown_values(page):
    return page.locator("[data-agreement]").evaluate_all(
        "items => Object.fromEntries(items.map(item => [item.dataset.agreement, item.dataset.value]))")


def test_without_runs_the_labels_are_agree_json_warned_first_and_fit_a_phone(lab, files):
    page = lab.page
    page.set_viewport_size({"width": 390, "height": 844})
    for slot in ("qrels", "judge-qrels"):
        page.set_input_files(f'[data-file-for="{slot}"]', str(files[slot]))
    page.click('[data-action="evaluate"]')
    evaluated(page)
    printed = agree(files)
    report = json.loads(printed)
    found = report["labels"]
    shown = shown_values(page)
    assert list(shown) == list(NAMES[1:])
    expected = {"pairs": found["n"], "exact": found["exact"], "kappa": found["kappa"], "pabak": found["binary"][0]["pabak"],
                "bias": found["bias"]["mean"], **{name: found[name] for name in NAMES[4:8]}}
    assert {name: float(value) for name, value in shown.items() if value} == {
        name: value for name, value in expected.items() if value is not None}
    cells = page.locator('[data-panel-output="confusion"] td').evaluate_all(
        "cells => cells.map(cell => [+cell.dataset.reference, +cell.dataset.judge, +cell.dataset.count, cell.textContent])")
    assert [[r, j, c] for r, j, c, _ in cells] == [[r, j, c] for r, row in enumerate(found["confusion"])
                                                    for j, c in enumerate(row)]
    assert all(text.replace("\u00a0", "") == str(c) for _, _, c, text in cells)
    expect(page.locator('[data-panel-output="confusion"] th[scope="col"]')).to_have_count(len(found["confusion"][0]) + 1)
    codes = [w["code"] for w in report["warnings"]]
    expect(page.locator('[data-output="agreement-warnings"] li')).to_have_count(len(codes))
    assert page.locator('[data-output="agreement-warnings"] li').evaluate_all(
        "items => items.map(item => item.dataset.code)") == codes
    settled_box(page.locator("[data-agreement-warnings]"))  # laid out (the panel is skipped until it nears)
    # both read in one frame: two boxes each read after its own scroll are in different coordinates
    warned_bottom, verdict_top = page.evaluate("""() => [
      document.querySelector("[data-agreement-warnings]").getBoundingClientRect().bottom,
      document.querySelector('[data-agreement-output="reading"] .reading-verdict').getBoundingClientRect().top]""")
    assert 0 < warned_bottom <= verdict_top
    expect(page.locator("[data-agreement-systems]")).to_be_hidden()
    expect(page.locator("[data-data-result]")).to_be_hidden()  # no run: no evaluation to show
    with page.expect_download() as download:
        page.click('[data-action="download-agreement"]')
    assert download.value.path().read_text(encoding="utf-8") == printed  # byte for byte
    found = page.evaluate(TABLE_CELLS)
    assert found["cells"] > 10 and found["bad"] == [], found["bad"][:5]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"]}})
    assert results.response["violations"] == [], [v["id"] for v in results.response["violations"]]


def test_with_runs_the_orders_and_flips_are_agree_json_and_the_slopegraph_reads_at_390_px(lab, files):
    page = lab.page
    page.set_viewport_size({"width": 390, "height": 844})
    for slot in ("qrels", "judge-qrels", "run-a", "run-b", "run-c"):
        page.set_input_files(f'[data-file-for="{slot}"]', str(files[slot]))
    page.click('[data-action="evaluate"]')
    evaluated(page)
    systems = json.loads(agree(files, "run-a", "run-b", "run-c"))["systems"]
    rows = page.locator("tr[data-system-measure]").evaluate_all(
        "rows => rows.map(row => [row.dataset.systemMeasure, row.dataset.tauB, row.dataset.tauAp, +row.dataset.flips])")
    number = lambda text: None if text == "" else float(text)  # noqa: E731
    assert [[m, number(b), number(ap), f] for m, b, ap, f in rows] == [
        [m, a["kendall_tau_b"], a["tau_ap"], len(a["flips"])] for m, a in systems["agreement"].items()]
    significant = sum(f["significant"] for a in systems["agreement"].values() for f in a["flips"])
    expect(page.locator('.flips li[data-significant="true"]')).to_have_count(significant)
    expect(page.locator('[data-agreement-output="reading"] .reading-verdict')).to_contain_text("que la referencia separa con significación")
    expect(page.locator('[data-panel-output="means"] tr')).to_have_count(3)  # the evaluation is there too
    chart = page.locator('[data-agreement-output="slopegraph"]')
    settled_box(chart)
    assert chart.get_attribute("data-layout") == "narrow"
    scale = chart.evaluate("svg => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width")
    assert scale * 11 >= 11 - 0.01, scale
    expect(chart.locator("g.slope")).to_have_count(3)
    inside = chart.evaluate("""svg => Array.from(svg.querySelectorAll('text')).every(text => {
      const box = text.getBBox();
      return box.x >= 0 && box.x + box.width <= svg.viewBox.baseVal.width;
    })""")
    assert inside


def test_the_synthetic_sample_shows_a_lenient_judge_flipping_a_significant_pair_and_says_it_is_synthetic(lab):
    page = lab.page
    page.click('[data-action="judges-sample"]')
    evaluated(page)
    sample = ROOT / "site_src" / "data" / "sample"
    labels = json.loads(agree_json(sample / "qrels.txt", sample / "qrels-llm.txt"))["labels"]
    assert float(page.get_attribute('[data-agreement="kappa"]', "data-value")) == labels["kappa"]
    expect(page.locator('[data-panel-output="means"] tr')).to_have_count(5)
    expect(page.locator('[data-output="agreement-warnings"] li[data-code="judge_lenient"]')).to_have_count(1)
    expect(page.locator('[data-agreement-output="reading"] .reading-verdict')).to_contain_text("«run-rerank.txt» y «run-hibrida.txt»")
    expect(page.locator('[data-agreement-output="reading"] .reading-lines')).to_contain_text("Juez sintético de ejemplo")
    expect(page.locator('[data-slot-status="judge-qrels"]')).to_have_text("Elegido: ejemplo «qrels-llm.txt».")
    # «Probar con datos de ejemplo» afterwards: the original sample, with no judge and no agreement
    page.click('[data-action="sample"]')
    evaluated(page)
    expect(page.locator('[data-panel-output="means"] tr')).to_have_count(2)
    expect(page.locator("[data-data-agreement]")).to_be_hidden()
