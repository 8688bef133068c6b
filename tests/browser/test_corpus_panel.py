"""«Tu corpus» in the page (issue 39): the sample measured in the worker equals raglab_core.corpus in CPython and the
CLI's JSON; Cancel leaves the panel usable; a bad file gets a Spanish message naming its line; 390 px; axe."""

import json
import re
import subprocess
import sys

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from raglab_core.corpus.panel import DEFAULT_SWEEP

from ..conftest import ROOT
from ..support.lab_page import RENDERED_TEXT

SAMPLE = ROOT / "site_src" / "data" / "corpus"
SWEEP = "128:0 256:32 512:64"


@pytest.fixture(scope="module")
def cli_json():
    """What ``chunks --json`` prints for the sample and SWEEP (computed once, while the page boots)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "raglab_core", "chunks", str(SAMPLE / "state_of_the_union.md"), "-", "--spans",
         str(SAMPLE / "questions_df.csv"), "--sweep", SWEEP, "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
    )
    yield lambda: process.communicate(timeout=120)[0]


# «Cancelar» pressed as soon as the status line says the queries are being run (once).
CANCEL_WHILE_QUERYING = """() => { window.__cancelled = false;
  const status = document.querySelector('[data-corpus-status]');
  new MutationObserver(() => {
    if (!window.__cancelled && status.textContent.startsWith('Consultas ')) {
      window.__cancelled = true;
      document.querySelector('[data-action="corpus-cancel"]').click();
    }
  }).observe(status, {childList: true, characterData: true, subtree: true}); }"""


def measured(page):
    expect(page.locator("[data-corpus-status]")).to_have_text("Medición terminada.", timeout=120_000)


def test_the_sample_equals_the_cli_streams_rows_and_downloads_its_json(lab, cli_json, base_url):
    page = lab.page
    panel = page.locator('[data-panel="corpus"]')
    page.fill('[data-setting="sweep"]', SWEEP)
    page.evaluate("""() => { window.__rows = []; window.__progress = [];
      const rows = document.querySelector('[data-corpus-output="rows"]');
      const status = document.querySelector('[data-corpus-status]');
      new MutationObserver(() => window.__rows.push(rows.querySelectorAll('tr').length))
        .observe(rows, {childList: true});
      new MutationObserver(() => window.__progress.push(status.textContent))
        .observe(status, {childList: true, characterData: true, subtree: true}); }""")
    requests = []
    page.context.on("request", lambda request: requests.append((request.method, request.url)))
    page.click('[data-action="corpus-sample"]')
    measured(page)
    # Nothing is uploaded and nothing leaves the page's origin: the sample, the worker's files, its corpus code.
    assert requests and all(method == "GET" and url.startswith(base_url) for method, url in requests), requests
    names = {url.rsplit("/", 1)[-1].split("?")[0] for _, url in requests}
    # The Markdown sample is published as .md.txt (a documentation site would render a .md as a page);
    # the panel, its results and its JSON still call it state_of_the_union.md (below).
    assert {"questions_df.csv", "state_of_the_union.md.txt"} <= names
    expect(page.locator('[data-corpus-slot-status="corpus"]')).to_contain_text("«state_of_the_union.md»")
    assert any(name.startswith("corpus-worker.") for name in names)
    assert page.evaluate("window.__rows")[:3] == [1, 2, 3]  # one row at a time, as each configuration ends
    progress = page.evaluate("window.__progress")
    assert "Troceando el corpus en tokens…" in progress
    assert "Indexando 256:32…" in progress
    assert any(text.startswith("Consultas ") and text.endswith(" de 76 (512:64)") for text in progress)

    data = json.loads(cli_json())
    rows = panel.locator('[data-corpus-output="configs"] tr[data-config]')
    expect(rows).to_have_count(3)
    shown = rows.evaluate_all("""rows => rows.map(row => [row.dataset.config,
        Object.fromEntries(Array.from(row.querySelectorAll('[data-measure]'),
          cell => [cell.dataset.measure, Number(cell.dataset.value)]))])""")
    for (name, cells), config in zip(shown, data["configs"]):
        assert name == config["name"]
        assert cells == {measure: config["mean"][measure] for measure in cells}
        assert "Ceiling" in cells and "EvidenceRecall@5" in cells and "CharIoU@10" in cells
    marks = panel.locator('tr[data-config="512:64"] [data-measure="EvidenceRecall@5"]')
    pair = next(p for p in data["comparisons"] if p["candidate"] == "512:64")["metrics"]["EvidenceRecall@5"]
    assert float(marks.get_attribute("data-p-adjusted")) == pair["p_value_adjusted"]
    expect(panel.locator('[data-corpus-output="plot"] g.point')).to_have_count(3)
    label = panel.locator('[data-corpus-output="plot"]').get_attribute("aria-label")
    assert "512:64: 9794 tokens indexados, EvidenceRecall@5 0,974" in label
    reading = panel.locator('[data-corpus-output="reading"]')
    expect(reading).to_contain_text("BM25")
    expect(reading).not_to_contain_text("la mejor")
    # Verdict first (issue 49): the bold verdict opens it, at most 80 words show before a closed «Cómo leer esto».
    expect(reading.locator(":scope > :first-child")).to_have_class("reading-verdict")
    expect(reading.locator(":scope > details.reading-more:not([open]) > summary")).to_have_text("Cómo leer esto")
    assert len(page.evaluate(RENDERED_TEXT, '[data-corpus-output="reading"]').split()) <= 80

    with page.expect_download() as download:
        page.click('[data-action="corpus-download-json"]')
    saved = download.value.path().read_text(encoding="utf-8")
    assert json.loads(saved) == data
    # Byte for byte: the same text as the command line prints.
    assert saved == json.dumps(data, indent=2, allow_nan=False) + "\n"

    page.select_option('[data-setting="download-config"]', "1")
    with page.expect_download() as download:
        page.click('[data-action="corpus-download-chunks"]')
    assert download.value.suggested_filename == "256-32.chunks.jsonl"
    lines = download.value.path().read_text(encoding="utf-8").splitlines()
    assert len(lines) == data["configs"][1]["chunks"]
    assert json.loads(lines[0])["chunk_id"] == "state_of_the_union.md#0"

    # A query in detail: the first one is shown at once; another, on choosing it.
    expect(panel.locator('[data-corpus-detail="query"]')).to_contain_text("Consulta «0»")
    page.select_option('[data-setting="corpus-query"]', "5")
    detail = panel.locator('[data-corpus-output="detail"]')
    expect(detail.locator('[data-corpus-detail="query"]')).to_contain_text("Consulta «5»")
    expect(detail.locator(".query-detail-run")).to_have_count(2)
    expect(detail.locator(".query-detail-run").first.locator("li")).to_have_count(10)  # the top k, k the largest cut
    expect(detail.locator(".query-detail-run").first.locator("h4")).to_contain_text("sus 10 primeros chunks")
    assert detail.locator("[data-span]").count() >= 1

    rules = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"]}}
    results = Axe().run(page, options=rules)
    assert results.response["violations"] == [], [v["id"] for v in results.response["violations"]]
    page.set_viewport_size({"width": 390, "height": 844})
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    # At 390 px too (the panel only: the rest of the page has its own 390 px checks), the finished panel with
    # its table, plot, downloads and query detail: contrast, names, and 24 px targets once the layout wraps.
    results = Axe().run(page, context='[data-panel="corpus"]', options=rules)
    assert results.response["violations"] == [], [(v["id"], [n["target"] for n in v["nodes"]])
                                                  for v in results.response["violations"]]


def test_cancel_and_the_chunking_panels_link_and_a_bad_file(lab):
    page = lab.page
    page.click('[data-action="corpus-from-chunking"]')
    chunk, overlap = (page.locator(f'[name="{name}"]').input_value() for name in ("chunk", "solape"))
    sweep = page.locator('[data-setting="sweep"]')
    expect(sweep).to_be_focused()
    assert sweep.input_value() == f"{chunk}:{overlap} {DEFAULT_SWEEP}" or f"{chunk}:{overlap}" in DEFAULT_SWEEP.split()
    # The configuration the reader came with is the baseline, and the page says so (issue 49).
    expect(page.locator('[data-panel="corpus"] [data-setting="baseline"]')).to_have_value(f"{chunk}:{overlap}")
    expect(page.locator("[data-corpus-status]")).to_have_text(
        f"Añadida la configuración {chunk}:{overlap} del panel de chunking, como línea base: cada configuración se "
        "compara con ella (cámbiala en «Línea base»).")
    page.evaluate(CANCEL_WHILE_QUERYING)
    page.click('[data-action="corpus-sample"]')
    expect(page.locator("[data-corpus-status]")).to_have_text("Medición cancelada.", timeout=120_000)
    expect(page.locator('[data-action="corpus-cancel"]')).to_be_hidden()
    expect(page.locator("[data-corpus-result]")).to_be_hidden()
    # Usable again: a bad evidence file gets its line and field, and the focus moves to the reason.
    page.set_input_files('[data-file-for="evidence"]', files=[{
        "name": "spans.jsonl", "mimeType": "application/json",
        "buffer": b'{"query_id": "q1", "doc_id": "state_of_the_union.md", "start": 5, "end": 999999}\n'}])
    page.set_input_files('[data-file-for="queries"]', files=[{
        "name": "queries.tsv", "mimeType": "text/plain", "buffer": b"q1\tinflation\n"}])
    page.fill('[data-setting="sweep"]', "256:32")
    page.fill('[data-panel="corpus"] [data-setting="baseline"]', "")  # the link's baseline is no longer listed
    page.click('[data-action="corpus-run"]')
    error = page.locator("[data-corpus-error]")
    expect(error).to_contain_text("«spans.jsonl», línea 1", timeout=120_000)
    expect(page.locator('[data-corpus-pick-for="evidence"]')).to_have_attribute("aria-invalid", "true")
    assert page.evaluate("document.activeElement.id") == "corpus-error"
    # Document qrels beside the evidence: a bad one is named, with its line, and its own button is marked.
    page.set_input_files('[data-file-for="evidence"]', files=[{
        "name": "spans.jsonl", "mimeType": "application/json",
        "buffer": b'{"query_id": "q1", "doc_id": "state_of_the_union.md", "start": 0, "end": 5}\n'}])
    page.set_input_files('[data-file-for="corpus-qrels"]', files=[{
        "name": "qrels.txt", "mimeType": "text/plain", "buffer": b"q1 0 state_of_the_union.md uno\n"}])
    page.click('[data-action="corpus-run"]')
    expect(error).to_contain_text("«qrels.txt», línea 1", timeout=60_000)
    expect(page.locator('[data-corpus-pick-for="qrels"]')).to_have_attribute("aria-invalid", "true")
    page.click('[data-corpus-clear-for="qrels"]')
    expect(page.locator('[data-corpus-slot-status="qrels"]')).to_have_text("Sin fichero.")
    # A corpus too big for the page: refused at once, with the command to use instead.
    page.set_input_files('[data-file-for="queries"]', files=[{
        "name": "queries.tsv", "mimeType": "text/plain", "buffer": b"q1\t" + b"x" * 8_100_000 + b"\n"}])
    page.click('[data-action="corpus-run"]')
    expect(error).to_contain_text("python -m raglab_core chunks state_of_the_union.md queries.tsv --spans spans.jsonl",
                                  timeout=60_000)


def test_cancel_keeps_the_previous_results_marked_as_previous(lab):
    """Issue 49 item 8: measure, change a setting, measure again, cancel: the first results come back whole (the
    cancelled run's rows gone), marked as previous by a visible note that describes them."""
    page = lab.page
    page.fill('[data-setting="sweep"]', "256:32")
    page.click('[data-action="corpus-sample"]')
    measured(page)
    rows = page.locator('[data-corpus-output="rows"] tr')
    expect(rows).to_have_count(1)
    plot = page.locator('[data-corpus-output="plot"]').inner_html()
    page.fill('[data-setting="sweep"]', "128:0 512:64")
    page.evaluate(CANCEL_WHILE_QUERYING)
    page.click('[data-action="corpus-run"]')
    status = page.locator("[data-corpus-status]")
    expect(status).to_have_text("Medición cancelada: siguen los resultados anteriores.", timeout=120_000)
    result = page.locator("[data-corpus-result]")
    expect(result).to_be_visible()
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-config", "256:32")
    assert page.locator('[data-corpus-output="plot"]').inner_html() == plot
    note = result.locator(".previous-note")
    expect(note).to_be_visible()
    expect(note).to_have_text(re.compile("^Resultados anteriores: la nueva medición se canceló"))
    expect(result).to_have_attribute("data-previous", "true")
    expect(result).to_have_attribute("data-stale", "true")
    expect(result).to_have_attribute("aria-describedby", note.get_attribute("id"))
    page.click('[data-action="corpus-download-json"]')  # its worker ended: said, not silently ignored
    expect(status).to_have_text(note.text_content())
    # The next measurement replaces them, and the note goes.
    page.click('[data-action="corpus-run"]')
    measured(page)
    expect(rows).to_have_count(2)
    expect(note).to_be_hidden()
    expect(result).not_to_have_attribute("data-previous", "true")
