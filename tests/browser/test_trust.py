"""«Tus datos» you can trust, in the page (issue 21): warnings above the results, the complete choice,
the interval, the downloads (the CLI's JSON, byte for byte), the query detail."""

import csv
import gzip
import io
import json

from playwright.sync_api import expect

from raglab_core.runs.evaluation import trec_order
from raglab_core.runs.trec import parse_qrels, parse_run

from ..conftest import ROOT
from ..support.commands import cli
from ..support.lab_page import TARGETS, evaluated, raw_cells

SAMPLE = ROOT / "site_src" / "data" / "sample"
MEASURES = "nDCG@10 AP@100"


def cli_json(*args):
    return cli("eval", *args, "--json")


def choose(page, files, measures=MEASURES, complete=False):
    for slot, path in zip(["qrels", "run-a", "run-b"], files):
        page.set_input_files(f'[data-file-for="{slot}"]', str(path))
    page.fill("#data-measures", measures)
    if page.is_checked('[data-setting="complete"]') != complete:
        page.click('[data-setting="complete"]')
    page.click('[data-action="evaluate"]')
    evaluated(page)


def test_upper_cased_run_warned_interval_downloads_and_query_detail(lab, tmp_path):
    page = lab.page
    upper = tmp_path / "bm25-upper.txt"
    upper.write_text("".join(line.replace(" doc", " DOC", 1) for line in (SAMPLE / "run-bm25.txt").open()))
    files = [SAMPLE / "qrels.txt", upper, SAMPLE / "run-densa.txt"]
    choose(page, files)

    warnings = page.locator('[data-output="data-warnings"] > li')
    expect(warnings).to_have_count(3)  # and each run's 30 documents per query are fewer than AP@100's cut-off
    code = warnings.first.get_attribute("data-code")
    assert "judged" in code
    shallow = page.locator('[data-output="data-warnings"] > li[data-code="run_shallow"]')
    expect(shallow.first).to_contain_text("«bm25-upper.txt»: 30 documentos por consulta, menos que el corte de AP@100")
    expect(shallow.nth(1)).to_contain_text("«run-densa.txt»: 30 documentos por consulta")
    expect(warnings.first).to_contain_text("«bm25-upper.txt»: ninguno de los documentos que ordena")
    expect(warnings.first).to_contain_text("«DOC01-015» (consulta «q01») y los qrels, «doc01-008»")
    # Above the results: before the summary, the means and the comparison.
    top = page.locator("[data-data-warnings]").bounding_box()["y"]
    assert top < page.locator('[data-panel-output="summary"]').bounding_box()["y"]
    assert top < page.locator('[data-panel-output="comparison"]').bounding_box()["y"]
    expect(page.locator('[data-panel-output="reading"]')).to_contain_text(
        "Atención: esta comparación se apoya en datos con avisos (arriba) sobre «bm25-upper.txt»")

    printed = cli_json(*files, "--measures", MEASURES)
    report = json.loads(printed)
    assert [w["code"] for w in report["warnings"]] == [code, "run_shallow", "run_shallow"]
    intervals = page.locator('[data-panel-output="comparison-rows"] td[data-low]')
    for cell, name in zip(intervals.all(), report["measures"]):
        low, high = report["comparison"]["metrics"][name]["ci95"]
        assert (float(cell.get_attribute("data-low")), float(cell.get_attribute("data-high"))) == (low, high)

    with page.expect_download() as saving:
        page.click('[data-action="download-json"]')
    downloaded = saving.value.path().read_text()
    assert downloaded == printed  # the same run names too (raglab_core.runs.inputs.run_names)
    with page.expect_download() as saving:
        page.click('[data-action="download-csv"]')
    rows = list(csv.reader(io.StringIO(saving.value.path().read_text())))
    assert rows[0][0] == "query" and rows[0][-2:] == ["Δ nDCG@10", "Δ AP@100"] and len(rows) == 41

    # The query detail: a click on a row, then the keyboard on another row's query.
    qrels = parse_qrels((SAMPLE / "qrels.txt").read_text())
    runs = [parse_run(path.read_text()) for path in files[1:]]
    detail = page.locator('[data-panel-output="query-detail"]')
    expect(detail).to_be_hidden()
    page.locator('[data-panel-output="per-query"] tr[data-query="q03"] td').first.click()
    expect(detail).to_be_visible()
    expect(detail.locator("h3")).to_contain_text("«q03»")
    for qid in ("q03", "q05"):
        if qid == "q05":
            page.locator('[data-panel-output="per-query"] tr[data-query="q05"] th button').focus()
            page.keyboard.press("Enter")
            expect(detail.locator("h3")).to_contain_text("«q05»")
        tops = [trec_order(run[qid], 10) for run in runs]
        columns = detail.locator(".query-detail-run")
        expect(columns).to_have_count(2)
        for column, top in zip(columns.all(), tops):
            items = column.locator("li")
            expect(items).to_have_count(10)
            assert [item.get_attribute("data-doc") for item in items.all()] == top
            for item in items.all():
                grade = qrels[qid].get(item.get_attribute("data-doc"))
                assert item.get_attribute("data-grade") == ("" if grade is None else str(grade))
                expected = "sin juicio" if grade is None else f"grado {grade}"
                expect(item.locator(".doc-grade")).to_have_text(expected)
                assert item.get_attribute("data-shared") == str(item.get_attribute("data-doc") in tops[0] and
                                                                item.get_attribute("data-doc") in tops[1]).lower()
    # Every target of the result (downloads, query buttons, the checkbox) is 24 px, on a phone too.

    assert page.evaluate(TARGETS) == []
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate(TARGETS) == []
    # The query column stays in view when the table scrolls sideways.
    assert page.locator('[data-panel-output="per-query"] th[scope="row"]').first.evaluate(
        "th => getComputedStyle(th).position") == "sticky"


def test_complete_checkbox_gives_the_clis_complete_means(lab, tmp_path):
    page = lab.page
    lines = (SAMPLE / "run-bm25.txt").read_text().splitlines(keepends=True)
    kept = sorted({line.split()[0] for line in lines})[::2]
    half = tmp_path / "half.txt"
    half.write_text("".join(line for line in lines if line.split()[0] in kept))
    files = [SAMPLE / "qrels.txt", half]
    for complete in (False, True):
        choose(page, files, complete=complete)
        report = json.loads(cli_json(*files, "--measures", MEASURES, *(["--complete"] if complete else [])))
        [means] = raw_cells(page, '[data-panel-output="means"] tr')
        assert [float(value) for value in means] == list(report["runs"][0]["mean"].values())
        warning = page.locator('[data-output="data-warnings"] > li[data-code="queries_missing_from_run"]')
        expect(warning).to_contain_text("«half.txt»: 20 consultas de los qrels (de 40 en total) no están en el run")
        expect(warning).to_contain_text("cuentan como 0" if complete else "quedan fuera de sus medias")
        expect(page.locator('[data-panel-output="complete-note"]')).to_have_text(
            "En la última evaluación, a «half.txt» le faltan 20 consultas de los qrels (de 40 en total).")
    expect(page.locator('label[for="data-complete"]')).to_have_text("Contar como 0 las consultas que falten")


def test_utf16_and_windows_1252_files_are_told_apart(lab, tmp_path):
    page = lab.page
    powershell = tmp_path / "run-ps.txt"
    powershell.write_bytes((SAMPLE / "run-bm25.txt").read_text().encode("utf-16"))
    latin = tmp_path / "run-1252.txt"
    body = (SAMPLE / "run-bm25.txt").read_bytes()
    latin.write_bytes(body + "q99 Q0 café 1 0.5 x\n".encode("cp1252"))
    error = page.locator("[data-data-error-text]")
    page.set_input_files('[data-file-for="qrels"]', str(SAMPLE / "qrels.txt"))
    page.set_input_files('[data-file-for="run-a"]', str(powershell))
    page.click('[data-action="evaluate"]')
    expect(error).to_contain_text("No se pudo leer «run-ps.txt»: no es texto UTF-8; parece UTF-16")
    expect(error).to_contain_text("posición 0 (contando desde 0)")
    page.set_input_files('[data-file-for="run-a"]', str(latin))
    page.click('[data-action="evaluate"]')
    expect(error).to_contain_text(
        f"parece Windows-1252 (Latin-1): el byte 0xE9, en la posición {len(body) + 10} (contando desde 0), es «é»")


def test_gzipped_files_evaluate_as_the_plain_ones_and_a_png_is_no_text_file(lab, tmp_path):
    """Issue 49, item 9: gzip read as it is (known by its first bytes: run B is gzipped under a .txt name)."""
    page = lab.page
    plain = [SAMPLE / "qrels.txt", SAMPLE / "run-bm25.txt", SAMPLE / "run-densa.txt"]
    packed = [tmp_path / "qrels.txt.gz", tmp_path / "run-bm25.txt.gz", tmp_path / "run-densa.txt"]
    for source, target in zip(plain, packed):
        target.write_bytes(gzip.compress(source.read_bytes(), mtime=0))
    choose(page, packed)  # evaluates
    report = json.loads(cli_json(*plain, "--measures", MEASURES))
    means = raw_cells(page, '[data-panel-output="means"] tr')
    assert [[float(v) for v in row] for row in means] == [list(run["mean"].values()) for run in report["runs"]]
    assert report["runs"][0]["mean"]["nDCG@10"] > 0.5  # real numbers, not zeros
    expect(page.locator('[data-panel-output="means"] th')).to_have_text(["run-bm25.txt.gz", "run-densa.txt"])
    error = page.locator("[data-data-error-text]")
    png = tmp_path / "qrels.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8)
    page.set_input_files('[data-file-for="qrels"]', str(png))
    page.click('[data-action="evaluate"]')
    expect(error).to_contain_text("No se pudo leer «qrels.png»: no es un fichero de texto; parece un PNG (una imagen).")
    expect(error).not_to_contain_text("iconv")
    broken = tmp_path / "roto.txt.gz"
    broken.write_bytes(packed[0].read_bytes()[:200])
    page.set_input_files('[data-file-for="qrels"]', str(broken))
    page.click('[data-action="evaluate"]')
    expect(error).to_contain_text("No se pudo leer «roto.txt.gz»: no es un fichero de texto; parece un gzip que no se "
                                  "pudo descomprimir")
