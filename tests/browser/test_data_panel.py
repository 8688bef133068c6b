"""The «Tus datos» panel: the same numbers as the command line, nothing uploaded, clear errors."""

import json
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from raglab_core.runs.session import evaluate_files
from raglab_core.runs.measures import DEFAULT_MEASURES

from ..conftest import ROOT
from ..support.trec_data import big_collection, qrels_lines, run_lines, write_lines
from ..support.commands import cli
from ..support.lab_page import Lab, evaluated, raw_cells

SAMPLE = ROOT / "site_src" / "data" / "sample"
FILES = [SAMPLE / "qrels.txt", SAMPLE / "run-bm25.txt", SAMPLE / "run-densa.txt"]


def cli_report(*options, files=FILES):
    return json.loads(cli("eval", *files, *options, "--json"))


@pytest.fixture(scope="module")
def panel_page(shared_context, base_url):
    """One page for the bad-file cases: each pastes both inputs anew."""
    page = shared_context.new_page()
    Lab(page, base_url)
    for slot in ("qrels", "run-a"):
        page.locator(f'[data-slot="{slot}"] summary').click()
    yield page
    page.close()


def test_sample_gives_the_command_lines_numbers_and_uploads_nothing(lab):
    page = lab.page
    page.click('[data-action="sample"]')
    evaluated(page)
    report = cli_report()  # the page's default measures are the command line's
    metrics = DEFAULT_MEASURES.split()
    expect(page.locator('[data-panel-output="means-head"] th')).to_have_text(["Run", "Consultas", *metrics])
    expect(page.locator('[data-panel-output="means"] th')).to_have_text(["run-bm25.txt", "run-densa.txt"])
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
    assert [float(v) for v in rows[0][:12]] == [run[m] for run in first for m in metrics]
    expect(page.locator('[data-panel-output="reading"]')).to_contain_text("no corrige por mirar 6 medidas a la vez")
    caption = f"estimado con {report['comparison']['permutations']:,} permutaciones".replace(",", "\u00a0")
    expect(page.locator('[data-panel-output="comparison-caption"]')).to_contain_text(caption)
    expect(page.locator('[data-panel-output="chart"] rect')).to_have_count(40)
    expect(page.locator('[data-panel-output="chart-y-label"]')).to_have_text("Δ nDCG@10")
    expect(page.locator('[data-panel-output="chart-x-label"]')).to_have_text("40 consultas, de mayor ganancia a mayor pérdida")
    expect(page.locator('[data-panel-output="chart-ticks"] li')).to_have_count(3)
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"]}})
    assert results.response["violations"] == [], [v["id"] for v in results.response["violations"]]

    # Other measures, typed in the panel (the lab's k plays no part): the worker is warm, no request is made.
    lab.press("k", "End")
    expect(page.locator("[data-data-status]")).to_have_text("Evaluación terminada.")  # the lab's k changes nothing here
    asked = "P(rel=2)@5 nDCG(dcg='exp-log2')@12 AP"
    page.fill('#data-measures', asked)
    expect(page.locator("[data-data-status]")).to_contain_text("pulsa «Evaluar»")
    requests = []
    page.context.on("request", lambda request: requests.append(request.url))
    page.click('[data-action="evaluate"]')
    evaluated(page)
    assert [url for url in requests if not url.endswith("/favicon.png")] == []  # (the URL changed: Chromium asks for it again)
    means = raw_cells(page, '[data-panel-output="means"] tr')
    assert [float(v) for v in means[1]] == list(cli_report("--measures", asked)["runs"][1]["mean"].values())


GRADE_STYLES = """items => items.map(li => { const badge = getComputedStyle(li.querySelector('.doc-grade'));
  return [li.dataset.grade, li.dataset.relevance, li.dataset.strength, badge.fontWeight, badge.fontStyle,
          badge.borderTopWidth, badge.borderTopColor, badge.backgroundColor]; })"""
NONE = "rgba(0, 0, 0, 0)"


def test_query_detail_shows_grades_by_shape_and_weight_and_each_runs_value(lab, tmp_path):
    """Issue 49 item 7: a relevant grade is outlined and bold, the highest filled, grade 0 plain; never colour
    alone; each column's header gives the run's nDCG@10 for the query, the per-query table's own number."""
    page = lab.page
    page.click('[data-action="sample"]')
    evaluated(page)
    page.locator('[data-panel-output="per-query"] tr[data-query="q01"] th button').click()
    detail = page.locator('[data-panel-output="query-detail"]')
    expect(detail.locator(".query-detail-run")).to_have_count(2)
    cells = page.locator('[data-panel-output="per-query"] tr[data-query="q01"] td')
    for index, column in enumerate(detail.locator(".query-detail-run").all()):
        cell = cells.nth(index * len(DEFAULT_MEASURES.split()))  # each run's first measure, nDCG@10
        value = column.locator("h4 .detail-value")
        expect(value).to_have_text(f"nDCG@10 {cell.text_content()}")
        assert value.get_attribute("data-value") == cell.get_attribute("data-raw")
    styles = {}
    for row in detail.locator("li").evaluate_all(GRADE_STYLES):
        styles.setdefault(row[0], row[1:])
    assert set(styles) == {"", "0", "1", "2", "3"}  # q01's two top 10s hold every grade
    assert [styles[g][:2] for g in ("", "0", "1", "2", "3")] == [
        ["unjudged", "0"], ["not-relevant", "0"], ["relevant", "1"], ["relevant", "2"], ["relevant", "3"]]
    for grade in ("", "0"):  # plain: normal weight, no outline, no fill; unjudged in italics
        _, _, weight, style, _, border, fill = styles[grade]
        assert (weight, border, fill) == ("400", NONE, NONE) and style == ("italic" if grade == "" else "normal")
    for grade, width in (("1", "1px"), ("2", "2px"), ("3", "2px")):  # bold and outlined; the highest filled
        _, _, weight, _, border_width, border, fill = styles[grade]
        assert weight == "700" and border_width == width and border != NONE
        assert (fill != NONE) == (grade == "3")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        results = Axe().run(page, context='[data-panel-output="query-detail"]',
                            options={"runOnly": {"type": "rule", "values": ["color-contrast"]}})
        assert results.response["violations"] == [], scheme
        detail.screenshot(path=str(tmp_path / f"detail-{scheme}.png"))
    page.emulate_media(color_scheme="light")


def test_files_from_the_picker_and_sorting(lab):
    page = lab.page
    # The picker opens from a Spanish button (a native <button>: the keyboard reaches it); the
    # browser's own ("Choose File") is not shown.
    assert page.locator('input[type="file"]:visible').count() == 0
    expect(page.locator('[data-pick-for="qrels"]')).to_have_accessible_name("Elegir fichero… (Qrels)")
    for slot, path in zip(["qrels", "run-a", "run-b"], FILES):
        button = page.locator(f'[data-pick-for="{slot}"]')
        button.focus()
        expect(button).to_be_focused()
        with page.expect_file_chooser() as chooser:
            button.click()
        chooser.value.set_files(str(path))
    expect(page.locator('[data-slot-status="qrels"]')).to_have_text("Elegido: fichero «qrels.txt».")
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
    expected = evaluate_files({"name": "q", "text": text}, [{"name": "r", "text": pasted}])
    assert [float(v) for v in means[0]] == [cell["raw"] for cell in expected["means"][0]["cells"]]


@pytest.mark.parametrize(
    "qrels, run, message",
    [
        ("q1 0 d1 2\nq1 0 d2 alto\n", "q1 Q0 d1 1 0.5 x\n", "línea 2: la relevancia «alto» no es un número entero"),
        ("q1 0 d1 2\n", "q1 Q0 d1 1 ９ x\n", "línea 1: la puntuación «９» no es un número en cifras ASCII"),
        ("q1 0 d1 2\n", "q2 Q0 d1 1 0.5 x\n", "no tienen ninguna consulta en común"),
        ("q1 Q0 d1 1 0.5 x\n", "q1 Q0 d1 1 0.5 x\n", "esto parece un fichero de run"),
        ("q1 0 d1 2\n", "q1 Q0 d1 1 NaN x\n", "línea 1: la puntuación «NaN» no es un número finito"),
        ("q1 0 d1 2\n", "q1 0 d1 2\n", "esto parece un fichero de qrels"),
    ],
    ids=["bad relevance", "fullwidth digit", "no common query", "run as qrels", "NaN score", "qrels as run"],
)
def test_bad_files_get_a_spanish_message_with_the_line(panel_page, qrels, run, message):
    page = panel_page
    for slot, text in (("qrels", qrels), ("run-a", run)):
        page.fill(f'[data-paste-for="{slot}"]', text)
    page.click('[data-action="evaluate"]')
    expect(page.locator("[data-data-error]")).to_contain_text(message, timeout=60_000)
    expect(page.locator("[data-data-result]")).to_be_hidden()
    expect(page.locator("[data-data-error]")).not_to_contain_text("0,000")  # no fake zeros


def test_many_problems_are_a_list_of_ten_then_a_count(panel_page):
    page = panel_page
    page.fill('[data-paste-for="qrels"]', "q1 0 d1 2\n")
    page.fill('[data-paste-for="run-a"]', "".join(f"q1 Q0 d{i} {i} 1_{i} x\n" for i in range(13)))
    page.click('[data-action="evaluate"]')
    expect(page.locator("[data-data-error-text]")).to_have_text("«run A (texto pegado)» tiene 13 problemas:", timeout=60_000)
    items = page.locator("[data-data-problems] li")
    expect(items).to_have_count(11)
    expect(items.first).to_have_text("línea 1: la puntuación «1_0» no es un número en cifras ASCII")
    expect(items.last).to_have_text("… y 3 problemas más.")


def test_a_file_crossing_many_read_chunks_streams_with_honest_progress(lab, tmp_path):
    """About 5 MB: many File.stream() chunks and five calls into Python; run B is run A ungrouped."""
    qrels, run = big_collection(7, queries=120, docs=1000, judged=50)
    lines = list(run_lines(run))
    files = [write_lines(tmp_path / "qrels.txt", qrels_lines(qrels)), write_lines(tmp_path / "grande.txt", lines),
             write_lines(tmp_path / "barajado.txt", lines[1::2] + lines[::2])]
    assert files[1].stat().st_size > 4_000_000
    page = lab.page
    # Cancel from inside the page the moment run A starts streaming: a poll from here can miss a
    # stage that a fast machine passes in a few milliseconds.
    page.evaluate("""() => { window.__progress = []; window.__cancelOnRunA = true;
      const status = document.querySelector('[data-data-status]');
      new MutationObserver(() => {
        window.__progress.push([document.querySelector('[data-data-progress] progress').value, status.textContent]);
        if (window.__cancelOnRunA && status.textContent.includes('Leyendo y evaluando el run A (')) {
          window.__cancelOnRunA = false;
          window.__cancelledAt = status.textContent;
          document.querySelector('[data-action="cancel"]').click();
        }
      }).observe(status, {childList: true, characterData: true, subtree: true}); }""")
    for slot, path in zip(["qrels", "run-a", "run-b"], files):
        page.set_input_files(f'[data-file-for="{slot}"]', str(path))
    page.click('[data-action="evaluate"]')  # cancelled while the run streams in…
    expect(page.locator("[data-data-status]")).to_have_text("Evaluación cancelada.", timeout=60_000)
    assert "Leyendo y evaluando el run A (" in page.evaluate("window.__cancelledAt")
    expect(page.locator("[data-data-result]")).to_be_hidden()
    page.evaluate("window.__progress.length = 0")
    page.click('[data-action="evaluate"]')  # …and evaluated in full by a new worker
    evaluated(page)
    report = cli_report(files=files)
    means = raw_cells(page, '[data-panel-output="means"] tr')
    assert [float(v) for v in means[0]] == list(report["runs"][0]["mean"].values())
    assert [float(v) for v in means[1]] == list(report["runs"][1]["mean"].values())
    expect(page.locator('[data-panel-output="reading"]')).to_contain_text("obtienen el mismo nDCG@10 en cada consulta")
    progress = page.evaluate("window.__progress")
    texts = [text for _, text in progress]
    fractions = [fraction for fraction, _ in progress if fraction is not None]
    assert any("Leyendo y evaluando el run A (" in t and " MB)…" in t for t in texts)
    assert any("el run B de nuevo: sus consultas no están agrupadas" in t for t in texts)
    assert any(t.startswith("Comparando B con A: Judged@10 (6 de 6") for t in texts)
    assert fractions == sorted(fractions) and len(set(fractions)) > 10  # it moves, and never back


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



ACTIVE = "() => { const a = document.activeElement; return a === document.body ? 'body' : (a.dataset.action || a.id); }"


def test_keyboard_focus_stays_and_the_outcome_is_announced(lab):
    """Issue 20 §2: focus is never dropped to <body>; success and errors are said in a live region;
    an invalid measures field is aria-invalid and described by its message; a file's error is tied to it."""
    page = lab.page
    status = page.locator("[data-data-status]")
    assert status.get_attribute("role") == "status"
    page.focus('[data-action="sample"]')
    page.keyboard.press("Enter")
    evaluated(page)
    assert page.evaluate(ACTIVE) == "sample"

    measures = page.locator('[data-setting="measures"]')
    for bad, said in (("foo", "Medida no admitida: «foo»"), ("nDCG@0", "«nDCG@0»: el corte debe ser un entero")):
        measures.fill(bad)
        page.focus('[data-action="evaluate"]')
        page.keyboard.press("Enter")
        expect(status).to_have_text("La evaluación no terminó: el motivo está debajo.", timeout=60_000)
        expect(measures).to_have_attribute("aria-invalid", "true")
        assert page.evaluate(ACTIVE) == "data-measures"  # the focus goes to the field to fix
        message = page.locator("#data-measures-error")
        expect(message).to_contain_text(said)
        assert "data-measures-error" in measures.get_attribute("aria-describedby").split()
    measures.fill(DEFAULT_MEASURES)
    page.focus('[data-action="evaluate"]')
    page.keyboard.press("Enter")
    evaluated(page)
    expect(measures).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#data-measures-error")).to_have_text("")
    assert page.evaluate(ACTIVE) == "evaluate"

    page.locator('[data-slot="run-a"] summary').click()
    page.fill('[data-paste-for="run-a"]', "q1 Q0 d1 1 alto t\n")
    page.focus('[data-action="evaluate"]')
    page.keyboard.press("Enter")
    expect(status).to_have_text("La evaluación no terminó: el motivo está debajo.", timeout=60_000)
    assert page.evaluate(ACTIVE) == "data-error"  # the reason, then the problem list, are next
    for control in ('[data-pick-for="run-a"]', '[data-paste-for="run-a"]'):
        expect(page.locator(control)).to_have_attribute("aria-invalid", "true")
        assert "data-error" in page.locator(control).get_attribute("aria-describedby").split()
    expect(page.locator('[data-pick-for="qrels"]')).not_to_have_attribute("aria-invalid", "true")


def test_cancel_keeps_the_previous_results_marked_and_a_second_start_is_refused(lab):
    """Issue 49 item 8 changes what Cancel does: the results shown before a cancelled re-run stay, marked as
    previous (a visible note that describes them), instead of going with the worker that held their rows."""
    page = lab.page
    page.click('[data-action="sample"]')
    evaluated(page)
    expect(page.locator('[data-panel-output="per-query"] tr')).to_have_count(40)
    page.evaluate("""() => { window.__evaluations = 0; const send = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (message, ...rest) {
        if (message && message.type === 'data-evaluate') window.__evaluations += 1;
        return send.call(this, message, ...rest); }; }""")
    # «Evaluar» pressed while the sample files load starts nothing: the sample's evaluation is the only one.
    page.evaluate("""() => { const get = window.fetch;
      window.fetch = (...args) => new Promise((wait) => setTimeout(wait, 500)).then(() => get(...args)); }""")
    page.evaluate("""() => { document.querySelector('[data-action="sample"]').click();
      document.querySelector('[data-action="evaluate"]').click(); }""")  # (Playwright's click waits out aria-disabled)
    expect(page.locator("[data-data-status]")).to_have_text("Cargando los datos de ejemplo…")
    evaluated(page)
    assert page.evaluate("window.__evaluations") == 1
    means = raw_cells(page, '[data-panel-output="means"] tr')
    # A setting and a run change, a re-run, Cancel: the worker that held the rows ends, the results stay.
    page.fill('[data-setting="measures"]', "P@5")
    page.evaluate("""() => { const lines = [];
      for (let q = 0; q < 400; q++) for (let d = 0; d < 1000; d++) lines.push(`q${q} Q0 d${d} ${d} ${1000 - d} x`);
      const area = document.querySelector('[data-paste-for="run-a"]');
      area.value = lines.join('\\n'); area.dispatchEvent(new Event('input')); }""")
    page.click('[data-action="evaluate"]')
    page.click('[data-action="cancel"]')
    status = page.locator("[data-data-status]")
    expect(status).to_have_text("Evaluación cancelada: siguen los resultados anteriores.")
    result = page.locator("[data-data-result]")
    expect(result).to_be_visible()
    expect(page.locator('[data-panel-output="per-query"] tr')).to_have_count(40)
    assert raw_cells(page, '[data-panel-output="means"] tr') == means
    note = result.locator(".previous-note")
    expect(note).to_be_visible()
    expect(note).to_have_text(re.compile("^Resultados anteriores: la nueva evaluación se canceló"))
    expect(result).to_have_attribute("data-previous", "true")
    expect(result).to_have_attribute("data-stale", "true")  # the measures asked for differ
    expect(result).to_have_attribute("aria-describedby", note.get_attribute("id"))
    assert note.get_attribute("role") == "note"
    assert page.evaluate(ACTIVE) == "evaluate"  # Cancel hid itself; the focus did not drop to <body>
    # Sorting needs the ended worker: the page says so rather than doing nothing.
    page.locator('[data-panel-output="per-query-head"] th button').nth(1).click()
    expect(status).to_have_text(note.text_content())


def test_a_worker_that_failed_to_boot_is_terminated_and_said(page, base_url):
    lab = Lab(page, base_url)
    page.evaluate("""() => { window.__terminated = 0; const end = Worker.prototype.terminate;
      Worker.prototype.terminate = function () { window.__terminated += 1; return end.call(this); }; }""")
    page.evaluate("""() => { const config = JSON.parse(document.getElementById('lab-config').textContent);
      window.raglabBoot.spawn = () => {  // a worker told to load Python from where it is not
        const worker = new Worker(config.worker, { type: 'module' });
        worker.postMessage({ type: 'boot-start', pyodide: '/nowhere/', runtime: new URL('/nowhere/pyodide.mjs', location).href,
                             wheel: config.wheel, snapshot: null, lock: config.lock, kit: config.workerKit,
                             panels: config.panelWorkers, texts: config.workerTexts });
        return worker; }; }""")
    page.click('[data-action="sample"]')
    expect(page.locator("[data-data-error-text]")).to_contain_text("Python", timeout=60_000)
    expect(page.locator("[data-data-status]")).to_have_text("La evaluación no terminó: el motivo está debajo.")
    assert page.evaluate("window.__terminated") == 1
    assert any("evaluation worker" in error for error in lab.errors)  # the cause, for whoever debugs it


PANEL_SCRIPTS = """() => performance.getEntriesByType('resource').map(entry => entry.name.split('/').pop())
    .filter(name => /^(panel-kit|data|corpus)\\./.test(name))"""


def test_the_panels_scripts_load_on_first_use_and_a_click_before_them_is_not_lost(lab):
    page = lab.page
    # The lab's first paint carries only the lab: the panels' scripts are not loaded while no panel is near.
    assert page.evaluate(PANEL_SCRIPTS) == [] and page.evaluate("typeof window.raglabPanelKit") == "undefined"
    page.evaluate("""() => { window.__evaluations = 0; const send = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (message, ...rest) {
        if (message && message.type === 'data-evaluate') window.__evaluations += 1;
        return send.call(this, message, ...rest); }; }""")
    # A click on «Cargar ejemplo» that arrives before data.js has run is held, then done once it has.
    page.evaluate("""() => document.querySelector('[data-action="sample"]').click()""")
    evaluated(page)
    assert page.evaluate("window.__evaluations") == 1
    loaded = page.evaluate(PANEL_SCRIPTS)
    assert loaded[0].startswith("panel-kit.") and any(name.startswith("data.") for name in loaded)
    assert page.locator("script[src*='/data.'][integrity^='sha384-']").count() == 1  # injected with its digest
