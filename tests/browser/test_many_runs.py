"""«Tus datos» with many runs and a fused one (issue 37): four runs plus RRF(a, b) evaluated in the page give
the lettered table, the corrected reading, the query detail of five runs, and downloads equal to the CLI's.

One page load: every check runs on the same evaluation (the browser suite's time is counted)."""

import json

import pytest
from playwright.sync_api import expect

from raglab_core.runs.evaluation import trec_order
from raglab_core.runs.report import beaten
from raglab_core.runs.trec import parse_qrels, parse_run

from ..conftest import ROOT
from ..support.commands import cli
from ..support.lab_page import RENDERED_TEXT, TARGETS, evaluated, raw_cells
from ..support.trec_data import shaken

SAMPLE = ROOT / "site_src" / "data" / "sample"
MEASURES = "nDCG@10 Judged@10"
FUSED = "RRF(a, b)"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("many")
    return [SAMPLE / "qrels.txt", SAMPLE / "run-bm25.txt", SAMPLE / "run-densa.txt",
            shaken(SAMPLE / "run-bm25.txt", folder / "bm25-ruido.txt", 1),
            shaken(SAMPLE / "run-densa.txt", folder / "densa-ruido.txt", 2)]


def in_background(*commands):
    """Run CLI commands one after the other in a thread (``command(previous output)`` → argument list), while
    the page works on the other core; ``.result()`` gives the outputs."""
    from concurrent.futures import ThreadPoolExecutor

    def chain():
        outputs = []
        for command in commands:
            outputs.append(cli(*command(outputs)))
        return outputs

    pool = ThreadPoolExecutor(1)
    future = pool.submit(chain)
    pool.shutdown(wait=False)
    return future


def test_four_runs_and_a_fused_one(lab, files, tmp_path):
    page = lab.page
    fused_file = tmp_path / FUSED  # what `fuse` prints, and `eval` for the five runs: computed meanwhile
    expected = in_background(
        lambda _: ["fuse", files[1], files[2], "--method", "rrf", "--norm", "min-max"],
        lambda done: fused_file.write_text(done[0]) and ["eval", *files, fused_file, "--measures", MEASURES, "--json"],
    )
    # «Fusionar y evaluar» says why it cannot be used yet (issue 49).
    fuse, why = page.locator('[data-action="fuse"]'), page.locator('[data-panel-output="fuse-why"]')
    expect(fuse).to_have_attribute("aria-disabled", "true")
    expect(why).to_have_text("Para fusionar hacen falta al menos dos runs elegidos.")
    # «Añadir run» shows run C and hands it the focus; a file set on a hidden slot (D) shows it too.
    expect(page.locator('[data-slot="run-c"]')).to_be_hidden()
    page.click('[data-action="add-run"]')
    expect(page.locator('[data-slot="run-c"]')).to_be_visible()
    expect(page.locator('[data-pick-for="run-c"]')).to_be_focused()
    for slot, path in zip(["qrels", "run-a", "run-b", "run-c", "run-d"], files):
        page.set_input_files(f'[data-file-for="{slot}"]', str(path))
    expect(page.locator('[data-slot="run-d"]')).to_be_visible()
    expect(page.locator('[data-slot="run-e"]')).to_be_hidden()
    page.fill("#data-measures", MEASURES)
    # Fuse a and b (RRF, k = 60, the defaults): the fused run joins the evaluation as run e.
    expect(fuse).to_have_attribute("aria-disabled", "false")
    expect(why).to_be_hidden()
    for letter in "cdb":
        page.locator(f'[data-fuse-source-for="run-{letter}"] input').uncheck()
    expect(fuse).to_have_attribute("aria-disabled", "true")
    expect(why).to_have_text("Marca al menos dos de los runs que se fusionan.")
    page.locator('[data-fuse-source-for="run-b"] input').check()
    expect(page.locator('[data-setting="fuse-method"]')).to_have_value("rrf")
    page.click('[data-action="fuse"]')
    evaluated(page)

    # The fused run's download is what `fuse` prints, under a file name made safe from the run's.
    with page.expect_download() as saving:
        page.click('[data-action="download-fused"]')
    assert saving.value.suggested_filename == "rrf-a-b.txt"  # issue 49: not «RRF(a, b)»
    fused_text, printed = expected.result()
    assert saving.value.path().read_text() == fused_text
    # «Descargar JSON» is what `eval` prints for the five runs, the fused one read from that file.
    with page.expect_download() as saving:
        page.click('[data-action="download-json"]')
    assert saving.value.path().read_text() == printed
    report = json.loads(printed)
    names = [run["name"] for run in report["runs"]]
    assert names[-1] == FUSED

    # The means, lettered: each with the letters of the runs it beats (Holm-adjusted p < 0.05).
    means = raw_cells(page, '[data-panel-output="means"] tr')
    assert [[float(v) for v in row] for row in means] == [list(run["mean"].values()) for run in report["runs"]]
    marks = page.locator('[data-panel-output="means"] tr').evaluate_all(
        "rows => rows.map(row => Array.from(row.querySelectorAll('td[data-raw]'), td => td.dataset.beats || ''))")
    wins = beaten(report)
    assert marks == [["".join("abcde"[j] for j in wins[m][i]) for m in report["measures"]] for i in range(5)]
    assert any(any(row) for row in marks)  # the test can fail: some run beats another

    # The lettered table: one row per pair, a cell per measure with its raw numbers.
    shown = page.locator('[data-panel-output="pairs"] tr[data-pair]').evaluate_all("""rows => rows.map(row => [
        row.dataset.pair,
        Object.fromEntries(Array.from(row.querySelectorAll('[data-measure]'), cell => [cell.dataset.measure,
          [cell.dataset.meanDelta, cell.dataset.pValue, cell.dataset.pAdjusted].map(Number)])),
        ['jaccard@10', 'rbo'].map(name => Number(row.querySelector(`[data-overlap="${name}"]`).dataset.raw))])""")
    pairs = [f"{a}-{b}" for i, a in enumerate("abcde") for b in "abcde"[i + 1:]]
    assert [pair for pair, _, _ in shown] == pairs
    for (_, cells, overlap), compared, expected in zip(shown, report["comparisons"], report["overlap"]):
        assert cells == {measure: [result["mean_delta"], result["p_value"], result["p_value_adjusted"]]
                         for measure, result in compared["metrics"].items()}
        assert overlap == [expected["jaccard@10"], expected["rbo"]]

    # The corrected reading names the runs no other beats, says they are tied, and calls none «el mejor».
    reading = page.evaluate(RENDERED_TEXT, '[data-panel-output="many-reading"]')
    leaders = [i for i in range(5) if not any(i in wins["nDCG@10"][j] for j in range(5))]
    assert len(leaders) > 1  # the sample's case: a statistical tie at the top
    for i in leaders:
        assert f"«{names[i]}» ({'abcde'[i]})" in reading.split(":")[0]
    assert "estadísticamente empatados" in reading and "Holm" in reading
    assert "el mejor" not in reading and "mejor sistema" not in reading
    # Verdict first (issue 49): each reading opens with its verdict in bold, shows at most 80 words before
    # «Cómo leer esto», and keeps its caveats (the fusion's note among them) inside that closed disclosure.
    for name in ("many-reading", "overlap-reading", "reading"):
        selector = f'[data-panel-output="{name}"]'
        first = page.locator(f"{selector} > :first-child")
        expect(first).to_have_class("reading-verdict")
        expect(first.locator("strong")).to_have_count(1)
        expect(page.locator(f"{selector} > details.reading-more:not([open]) > summary")).to_have_text("Cómo leer esto")
        assert len(page.evaluate(RENDERED_TEXT, selector).split()) <= 80, name
    more = page.locator('[data-panel-output="many-reading"] details.reading-more')
    fused_note = "«RRF(a, b)» fusiona «run-bm25.txt» (a) y «run-densa.txt» (b) con RRF (k = 60)"
    assert fused_note not in reading and "no demuestra que sean iguales" not in reading  # behind the disclosure
    more.locator("summary").click()
    assert fused_note in page.evaluate(RENDERED_TEXT, '[data-panel-output="many-reading"]')
    expect(page.locator('[data-panel-output="overlap-reading"]')).to_contain_text("Judged@10, en las medias")
    expect(page.locator('[data-panel-output="fused"]')).to_contain_text("«RRF(a, b)» fusiona")

    # Any pair in detail: e against b, the per-query strip drawn against the chosen baseline.
    page.select_option('[data-panel="data"] [data-setting="candidate"]', "4")
    page.select_option('[data-panel="data"] [data-setting="baseline"]', "1")
    expect(page.locator('[data-panel-output="comparison-title"]')).to_have_text(
        "Comparación de «RRF(a, b)» (e) con «run-densa.txt» (b)", timeout=30_000)
    expect(page.locator('[data-panel-output="chart-label"]')).to_have_text(
        "Δ nDCG@10 por consulta (RRF(a, b) − run-densa.txt)")
    adjusted = page.locator('[data-panel-output="comparison-rows"] td[data-p-adjusted]')
    expect(adjusted).to_have_count(2)
    assert float(adjusted.first.get_attribute("data-raw")) == report["comparisons"][6]["metrics"]["nDCG@10"]["p_value_adjusted"]

    # The query detail: each run's top 10 side by side, in one row that scrolls sideways on a phone.
    qrels = parse_qrels(files[0].read_text())
    runs = [parse_run(path.read_text()) for path in [*files[1:], fused_file]]
    page.locator('[data-panel-output="per-query"] tr[data-query="q07"] th button').click()
    detail = page.locator('[data-panel-output="query-detail"]')
    expect(detail.locator(".query-detail-run")).to_have_count(5)
    columns = detail.locator(".query-detail-run").evaluate_all(
        "columns => columns.map(column => Array.from(column.querySelectorAll('li'), li => [li.dataset.doc, li.dataset.grade]))")
    for column, run in zip(columns, runs):
        assert [doc for doc, _ in column] == trec_order(run["q07"], 10)
        assert [grade for _, grade in column] == [str(qrels["q07"].get(doc, "")) for doc, _ in column]

    assert page.evaluate(TARGETS) == []
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate(TARGETS) == []
    strip = detail.locator("[data-detail-runs]")
    assert strip.evaluate("node => node.scrollWidth > node.clientWidth + 100")  # it scrolls sideways…
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # …and the page does not
    expect(strip).to_have_attribute("tabindex", "0")  # the keyboard can scroll it
    assert lab.errors == []


def test_fusion_refused_says_so_and_twelve_runs_disable_it(lab, tmp_path):
    """Issue 49: with 12 runs «Fusionar» is disabled, saying why; a refused fusion says the fusion was refused,
    not that the evaluation did not end."""
    page = lab.page
    page.set_input_files('[data-file-for="qrels"]', str(SAMPLE / "qrels.txt"))
    for letter in "ab":
        page.set_input_files(f'[data-file-for="run-{letter}"]', str(SAMPLE / "run-bm25.txt"))
    page.fill("#fuse-k", "sesenta")
    page.click('[data-action="fuse"]')
    expect(page.locator("[data-data-status]")).to_have_text(
        "La fusión no se hizo (el motivo está debajo); sin ella, «Evaluar» evalúa los runs.")
    expect(page.locator("[data-data-error]")).to_contain_text("«sesenta»")
    expect(page.locator('[data-action="unfuse"]')).to_be_hidden()
    for letter in "cdefghijkl":
        page.set_input_files(f'[data-file-for="run-{letter}"]', str(SAMPLE / "run-densa.txt"))
    expect(page.locator('[data-action="fuse"]')).to_have_attribute("aria-disabled", "true")
    expect(page.locator('[data-panel-output="fuse-why"]')).to_have_text(
        "Con 12 runs no cabe uno fusionado (la página evalúa 12 como mucho): quita uno para fusionar.")
    said = page.locator("[data-data-status]").text_content()
    page.click('[data-action="fuse"]', force=True)  # does nothing: no evaluation starts, no fused run is asked for
    expect(page.locator('[data-action="unfuse"]')).to_be_hidden()
    expect(page.locator('[data-panel="data"]')).not_to_have_attribute("aria-busy", "true")
    assert page.locator("[data-data-status]").text_content() == said
