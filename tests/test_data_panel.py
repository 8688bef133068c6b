"""raglab_core.data_panel and the worker bridge: the panel's numbers are the CLI's report."""

import json

import pytest

from raglab_core import LabError
from raglab_core.browser import evaluate_json
from raglab_core.data_panel import evaluate_files, panel_view
from raglab_core.evaluation import METRICS
from raglab_core.report import build_report
from raglab_core.trec import parse_qrels, parse_run

from .conftest import ROOT

SAMPLE = ROOT / "site_src" / "data" / "sample"


def sample(name):
    return {"name": f"{name}.txt", "text": (SAMPLE / f"{name}.txt").read_text()}


def test_panel_numbers_are_the_reports():
    view = evaluate_files(sample("qrels"), [sample("run-bm25"), sample("run-densa")], k="10", umbral=2)
    qrels = parse_qrels((SAMPLE / "qrels.txt").read_text())
    runs = [(f"{n}.txt", parse_run((SAMPLE / f"{n}.txt").read_text())) for n in ("run-bm25", "run-densa")]
    report, _, _ = build_report(qrels, runs, 10, 2)
    for shown, run in zip(view["means"], report["runs"]):
        assert [cell["raw"] for cell in shown["cells"]] == [run["mean"][m] for m in METRICS]
    compared = view["comparison"]["metrics"]
    assert [m["p_value"]["raw"] for m in compared] == [report["comparison"]["metrics"][m]["p_value"] for m in METRICS]
    assert view["summary"] == "40 consultas evaluadas con k = 10 y umbral 2 (ganancia exponencial)."
    bars = view["comparison"]["chart"]["bars"]
    assert [bar["raw"] for bar in bars] == sorted((bar["raw"] for bar in bars), reverse=True)
    assert len(view["rows"]) == 40 and len(view["rows"][0]) == len(view["columns"]) == 13


def test_p_values_and_caption_read_the_permutations_from_the_report():
    qrels = parse_qrels((SAMPLE / "qrels.txt").read_text())
    runs = [(f"{n}.txt", parse_run((SAMPLE / f"{n}.txt").read_text())) for n in ("run-bm25", "run-densa")]
    default = evaluate_files(sample("qrels"), [sample("run-bm25"), sample("run-densa")], k=10, umbral=2)
    assert default["comparison"]["caption"].endswith("(10\u00a0000 permutaciones)")
    view = panel_view(*build_report(qrels, runs, 10, 2, permutations=50))
    assert view["comparison"]["caption"].endswith("(50 permutaciones)")
    for metric in view["comparison"]["metrics"]:
        p = metric["p_value"]
        assert p["text"] == ("< 0,0200" if p["raw"] < 1 / 50 else f"{p['raw']:.4f}".replace(".", ","))


def test_reading_never_turns_a_p_value_into_a_verdict():
    view = evaluate_files(sample("qrels"), [sample("run-bm25"), sample("run-densa")], k=10, umbral=2)
    reading = view["comparison"]["reading"]
    assert "«run-densa.txt» supera a «run-bm25.txt» en nDCG@10" in reading
    assert "Para MRR@10, p ≥ 0,05" in reading and "no demuestra que los sistemas sean iguales" in reading
    assert "no corrige por mirar cuatro métricas" in reading
    for claim in ("significativ", "demuestra que", "mejor sistema"):
        assert claim not in reading.replace("no demuestra que", "")


def test_skipped_queries_are_reported_in_the_summary():
    qrels = {"name": "q", "text": "q1 0 a 1\nq2 0 b 1\n"}
    run = {"name": "r", "text": "q1 Q0 a 1 1 x\nq9 Q0 z 1 1 x\n"}
    summary = evaluate_files(qrels, [run], k=5, umbral=1)["summary"]
    assert summary == (
        "1 consulta evaluada con k = 5 y umbral 1 (ganancia exponencial). "
        "«r»: se omiten 1 sin juicios en los qrels y 1 de los qrels sin resultados en el run."
    )


@pytest.mark.parametrize(
    "qrels, runs, k, field",
    [
        ({"name": "q", "text": "q1 0 a x"}, [{"name": "r", "text": "q1 Q0 a 1 1 x"}], 5, "qrels"),
        ({"name": "q", "text": "q1 0 a 1"}, [], 5, "run"),
        ({"name": "q", "text": "q1 0 a 1"}, [{"name": "r", "text": "q1 Q0 a 1 1 x"}], "0", "k"),
        ({"name": "q"}, [{"name": "r", "text": "q1 Q0 a 1 1 x"}], 5, "qrels"),
    ],
)
def test_bad_requests_raise_laberror_naming_the_input(qrels, runs, k, field):
    with pytest.raises(LabError) as caught:
        evaluate_files(qrels, runs, k, 1)
    assert caught.value.field == field


def test_worker_bridge_reports_progress_and_errors_as_json():
    calls = []
    request = {"qrels": sample("qrels"), "runs": [sample("run-bm25")], "k": 5, "umbral": 1}
    answer = json.loads(evaluate_json(json.dumps(request), progress=lambda f, t: calls.append((f, t))))
    assert answer["ok"] and answer["panel"]["comparison"] is None
    assert calls[0] == (0.0, "Leyendo los qrels (línea 1 de 1000)…") and calls[-1][0] == 0.5
    bad = {**request, "qrels": {"name": "x.txt", "text": "q1 Q0 d 1 0.5 t"}}
    answer = json.loads(evaluate_json(json.dumps(bad)))
    assert (answer["ok"], answer["field"]) == (False, "qrels")
    assert answer["message"].startswith("x.txt, línea 1: esto parece un fichero de run")
