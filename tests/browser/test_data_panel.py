"""The «Tus datos» panel: the same numbers as the command line, nothing uploaded, clear errors."""

import json
import subprocess
import sys

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from raglab_core.data_panel import evaluate_files

from ..conftest import ROOT
from .test_lab import Lab

SAMPLE = ROOT / "site_src" / "data" / "sample"
FILES = [SAMPLE / "qrels.txt", SAMPLE / "run-bm25.txt", SAMPLE / "run-densa.txt"]


def cli_report(k, umbral):
    result = subprocess.run(
        [sys.executable, "-m", "raglab_core", "eval", *map(str, FILES), "--k", str(k), "--umbral", str(umbral), "--json"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )
    return json.loads(result.stdout)


def raw_cells(page, selector):
    return page.locator(selector).evaluate_all(
        "rows => rows.map(row => Array.from(row.querySelectorAll('td[data-raw]'), td => td.dataset.raw))"
    )


@pytest.fixture
def lab(page, base_url):
    lab = Lab(page, base_url)
    yield lab
    assert lab.errors == []


@pytest.fixture(scope="module")
def panel_page(shared_context, base_url):
    """One page for the bad-file cases: each pastes both inputs anew."""
    page = shared_context.new_page()
    Lab(page, base_url)
    for slot in ("qrels", "run-a"):
        page.locator(f'[data-slot="{slot}"] summary').click()
    yield page
    page.close()


def evaluated(page):
    expect(page.locator("[data-data-status]")).to_have_text("Evaluación terminada.", timeout=60_000)


def test_sample_gives_the_command_lines_numbers_and_uploads_nothing(lab):
    page = lab.page
    page.click('[data-action="sample"]')
    evaluated(page)
    report = cli_report(5, 2)  # the lab's default k and umbral
    metrics = ["precision", "recall", "mrr", "ndcg"]
    means = raw_cells(page, '[data-panel-output="means"] tr')
    for shown, run in zip(means, report["runs"]):
        assert [float(value) for value in shown] == [run["mean"][m] for m in metrics]
    comparison = raw_cells(page, '[data-panel-output="comparison-rows"] tr')
    for shown, metric in zip(comparison, metrics):
        expected = report["comparison"]["metrics"][metric]
        assert float(shown[0]) == expected["mean_delta"]
        assert float(shown[1]) == expected["p_value"]  # same seed, same permutations: the same p
    rows = raw_cells(page, '[data-panel-output="per-query"] tr')
    assert len(rows) == 40
    first = report["runs"][0]["per_query"]["q01"], report["runs"][1]["per_query"]["q01"]
    assert [float(v) for v in rows[0][:8]] == [run[m] for run in first for m in metrics]
    expect(page.locator('[data-panel-output="reading"]')).to_contain_text("no corrige por mirar cuatro métricas")
    caption = f"aleatorización pareada ({report['comparison']['permutations']:,} permutaciones)".replace(",", "\u00a0")
    expect(page.locator('[data-panel-output="comparison-caption"]')).to_contain_text(caption)
    expect(page.locator('[data-panel-output="chart"] rect')).to_have_count(40)
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"]}})
    assert results.response["violations"] == [], [v["id"] for v in results.response["violations"]]

    # A second evaluation, with another k: the worker is warm, and not one request is made.
    lab.press("k", "End")
    expect(page.locator("[data-data-status]")).to_contain_text("pulsa «Evaluar»")
    page.wait_for_timeout(500)  # the URL change makes Chromium fetch the favicon again: let it
    requests = []
    page.context.on("request", lambda request: requests.append(request.url))
    page.click('[data-action="evaluate"]')
    evaluated(page)
    assert requests == []
    means = raw_cells(page, '[data-panel-output="means"] tr')
    assert [float(v) for v in means[1]] == [cli_report(12, 2)["runs"][1]["mean"][m] for m in metrics]


def test_files_from_the_picker_and_sorting(lab):
    page = lab.page
    for slot, path in zip(["qrels", "run-a", "run-b"], FILES):
        page.set_input_files(f'[data-file-for="{slot}"]', str(path))
    expect(page.locator('[data-slot-status="run-b"]')).to_have_text("Elegido: fichero «run-densa.txt».")
    page.click('[data-action="evaluate"]')
    evaluated(page)
    header = page.locator('[data-panel-output="per-query-head"] th').last
    header.locator("button").click()  # Δ nDCG@5: a number column sorts largest first
    expect(header).to_have_attribute("aria-sort", "descending")
    deltas = [float(row[-1]) for row in raw_cells(page, '[data-panel-output="per-query"] tr')]
    assert deltas == sorted(deltas, reverse=True)
    header.locator("button").click()
    expect(header).to_have_attribute("aria-sort", "ascending")
    deltas = [float(row[-1]) for row in raw_cells(page, '[data-panel-output="per-query"] tr')]
    assert deltas == sorted(deltas)


def test_drag_and_drop_and_paste(lab):
    page = lab.page
    text = FILES[0].read_text()
    transfer = page.evaluate_handle(
        """text => { const data = new DataTransfer();
                     data.items.add(new File([text], 'arrastrado.qrels', {type: 'text/plain'})); return data; }""",
        text,
    )
    page.dispatch_event('[data-slot="qrels"]', "drop", {"dataTransfer": transfer})
    expect(page.locator('[data-slot-status="qrels"]')).to_have_text("Elegido: fichero «arrastrado.qrels».")
    pasted = "".join(FILES[1].read_text().splitlines(keepends=True)[:150])  # the first 5 queries
    page.locator('[data-slot="run-a"] summary').click()
    page.fill('[data-paste-for="run-a"]', pasted)
    page.click('[data-action="evaluate"]')
    evaluated(page)
    expect(page.locator('[data-panel-output="comparison"]')).to_be_hidden()
    means = raw_cells(page, '[data-panel-output="means"] tr')
    expected = evaluate_files({"name": "q", "text": text}, [{"name": "r", "text": pasted}], 5, 2)
    assert [float(v) for v in means[0]] == [cell["raw"] for cell in expected["means"][0]["cells"]]


@pytest.mark.parametrize(
    "qrels, run, message",
    [
        ("q1 0 d1 2\nq1 0 d2 alto\n", "q1 Q0 d1 1 0.5 x\n", "línea 2: la relevancia «alto» no es un número entero"),
        ("q1 Q0 d1 1 0.5 x\n", "q1 Q0 d1 1 0.5 x\n", "esto parece un fichero de run"),
        ("q1 0 d1 2\n", "q1 Q0 d1 1 NaN x\n", "línea 1: la puntuación «NaN» no es un número finito"),
        ("q1 0 d1 2\n", "q1 0 d1 2\n", "esto parece un fichero de qrels"),
    ],
    ids=["bad relevance", "run as qrels", "NaN score", "qrels as run"],
)
def test_bad_files_get_a_spanish_message_with_the_line(panel_page, qrels, run, message):
    page = panel_page
    for slot, text in (("qrels", qrels), ("run-a", run)):
        page.fill(f'[data-paste-for="{slot}"]', text)
    page.click('[data-action="evaluate"]')
    expect(page.locator("[data-data-error]")).to_contain_text(message, timeout=60_000)
    expect(page.locator("[data-data-result]")).to_be_hidden()


def test_missing_inputs_and_cancel(lab):
    page = lab.page
    page.click('[data-action="evaluate"]')
    expect(page.locator("[data-data-error]")).to_have_text("Faltan datos: elige al menos los qrels y el run A.")
    # A big run keeps Python busy long enough to cancel it.
    page.evaluate(
        """() => {
          const lines = [];
          for (let q = 0; q < 400; q++) for (let d = 0; d < 1000; d++) lines.push(`q${q} Q0 d${d} ${d} ${1000 - d} x`);
          const set = (slot, text) => { const area = document.querySelector(`[data-paste-for="${slot}"]`);
            area.value = text; area.dispatchEvent(new Event('input')); };
          set('qrels', 'q1 0 d1 1');
          set('run-a', lines.join('\\n'));
        }"""
    )
    page.click('[data-action="evaluate"]')
    cancel = page.locator('[data-action="cancel"]')
    expect(cancel).to_be_visible()
    cancel.click()
    expect(page.locator("[data-data-status]")).to_have_text("Evaluación cancelada.")
    expect(cancel).to_be_hidden()
    page.click('[data-action="sample"]')  # and the next evaluation works
    evaluated(page)

