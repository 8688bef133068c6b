"""raglab_core.data_panel and the worker bridge: the panel's numbers are the CLI's report."""

import json

import pytest

from raglab_core import LabError
from raglab_core.browser import EvaluationBridge, evaluate_json
from raglab_core.data_panel import EvaluationSession, evaluate_files, panel_view
from raglab_core.evaluation import DEFAULT_MEASURES, evaluate_run, parse_measures
from raglab_core.report import build_report
from raglab_core.trec import parse_qrels, parse_run

from .conftest import ROOT

SAMPLE = ROOT / "site_src" / "data" / "sample"
NAMES = ["run-bm25", "run-densa"]


def sample(name):
    return {"name": f"{name}.txt", "text": (SAMPLE / f"{name}.txt").read_text()}


def report_of(measures=None, permutations=10_000):
    qrels = parse_qrels((SAMPLE / "qrels.txt").read_text())
    runs = [(f"{l}: {n}.txt", evaluate_run(qrels, parse_run((SAMPLE / f"{n}.txt").read_text()), measures))
            for l, n in zip("AB", NAMES)]
    return (*build_report(runs, permutations=permutations), runs)


def test_panel_numbers_are_the_reports():
    view = evaluate_files(sample("qrels"), [sample("run-bm25"), sample("run-densa")])
    report, _, _ = report_of()
    labels = DEFAULT_MEASURES.split()
    for shown, run in zip(view["means"], report["runs"]):
        assert [cell["raw"] for cell in shown["cells"]] == [run["mean"][m] for m in labels]
    assert [m["name"] for m in view["means"]] == ["A: run-bm25.txt", "B: run-densa.txt"]
    compared = view["comparison"]["metrics"]
    assert [m["p_value"]["raw"] for m in compared] == [report["comparison"]["metrics"][m]["p_value"] for m in labels]
    assert view["summary"] == (
        "40 consultas evaluadas con nDCG@10, R@100, RR@10, Success@10, AP@100 y Judged@10 "
        "(empates en doble precisión, como trec_eval 10 y ranx)."
    )
    bars = view["comparison"]["chart"]["bars"]
    assert [bar["raw"] for bar in bars] == sorted((bar["raw"] for bar in bars), reverse=True)
    assert len(view["rows"]) == 40 and len(view["rows"][0]) == len(view["columns"]) == 1 + 3 * len(labels)


def test_the_template_default_measures_are_the_cores():
    template = (ROOT / "site_src" / "templates" / "page.html.j2").read_text()
    assert f'value="{DEFAULT_MEASURES}"' in template


def test_p_values_and_caption_read_the_permutations_from_the_report():
    default = evaluate_files(sample("qrels"), [sample("run-bm25"), sample("run-densa")])
    assert "estimado con 10\u00a0000 permutaciones" in default["comparison"]["caption"]
    report, comparison, runs = report_of(permutations=50)
    view = panel_view(report, runs, comparison)
    assert "estimado con 50 permutaciones" in view["comparison"]["caption"]
    for metric in view["comparison"]["metrics"]:
        p, data = metric["p_value"], report["comparison"]["metrics"][metric["label"]]
        if data["p_value_exact"]:
            expected = "< 0,0001" if p["raw"] < 0.0001 else f"{p['raw']:.4f}".replace(".", ",")
        elif p["raw"] == 0:
            expected = "< 0,0600"  # 3 / 50: the 95 % bound when no permutation reaches the observed sum
        else:
            expected = f"{p['raw']:.4f} ± {data['p_value_se']:.4f}".replace(".", ",")
        assert p["text"] == expected


def test_reading_never_turns_a_p_value_into_a_verdict():
    view = evaluate_files(sample("qrels"), [sample("run-bm25"), sample("run-densa")], "nDCG@10 RR@10 P@5")
    reading = view["comparison"]["reading"]
    assert "«B: run-densa.txt» queda por encima de «A: run-bm25.txt» en nDCG@10 por 0,105 de media (30 ganadas" in reading
    assert "Para RR@10, p ≥ 0,05" in reading and "no demuestra que los sistemas sean iguales" in reading
    assert "no corrige por mirar 3 medidas a la vez" in reading
    for claim in ("significativ", "demuestra que", "mejor sistema", "supera"):
        assert claim not in reading.replace("no demuestra que", "")


def test_the_same_file_as_a_and_b_reads_as_identical_with_two_names():
    view = evaluate_files(sample("qrels"), [sample("run-bm25"), sample("run-bm25")], "nDCG@10 AP@100")
    assert [m["name"] for m in view["means"]] == ["A: run-bm25.txt", "B: run-bm25.txt"]
    reading = view["comparison"]["reading"]
    assert reading.startswith("En 40 consultas emparejadas, «B: run-bm25.txt» y «A: run-bm25.txt» obtienen el mismo nDCG@10 en cada consulta.")
    assert "queda por" not in reading and "0,000 de media" not in reading
    assert view["comparison"]["metrics"][0]["delta"]["text"] == "±0,000"


def test_a_mean_difference_that_rounds_to_zero_claims_no_direction():
    # B swaps ranks 29 and 30 of one query (grades 1 and 2): the mean gain rounds to 0,000.
    qrels = {"name": "q", "text": "".join(f"q{i} 0 d{j} {j % 3}\n" for i in range(4) for j in range(30))}
    a = "".join(f"q{i} Q0 d{j} {j + 1} {30 - j} t\n" for i in range(4) for j in range(30))
    view = evaluate_files(qrels, [{"name": "a", "text": a}, {"name": "b", "text": a.replace("q0 Q0 d29 30 1 t", "q0 Q0 d29 30 2.5 t")}],
                          "nDCG")
    first = view["comparison"]["metrics"][0]
    assert 0 < first["delta"]["raw"] < 0.0005 and first["delta"]["text"] == "+0,000"
    reading = view["comparison"]["reading"]
    assert "la diferencia media de nDCG entre «B: b» y «A: a» redondea a 0,000: ninguno queda por encima del otro" in reading
    assert "1 ganada, 3 empatadas y 0 perdidas por «B: b»" in reading
    assert "queda por encima de «A" not in reading


def test_skipped_queries_are_reported_in_the_summary():
    qrels = {"name": "q", "text": "q1 0 a 1\nq2 0 b 1\n"}
    run = {"name": "r", "text": "q1 Q0 a 1 1 x\nq9 Q0 z 1 1 x\n"}
    summary = evaluate_files(qrels, [run], "P@5", "float32")["summary"]
    assert summary == (
        "1 consulta evaluada con P@5 (empates en precisión simple, como trec_eval 9 y pytrec_eval). "
        "«r»: se omiten 1 consulta sin juicios en los qrels y 1 consulta de los qrels sin resultados en el run."
    )
    one = evaluate_files(qrels, [{"name": "r", "text": "q1 Q0 a 1 1 x\nq2 Q0 z 1 1 x\nq9 Q0 z 1 1 x\n"}], "P@5")
    assert one["summary"].endswith("«r»: se omite 1 consulta sin juicios en los qrels.")
    two = evaluate_files(qrels, [{"name": "r", "text": "q1 Q0 a 1 1 x\nq2 Q0 z 1 1 x\nq8 Q0 z 1 1 x\nq9 Q0 z 1 1 x\n"}], "P@5")
    assert two["summary"].endswith("«r»: se omiten 2 consultas sin juicios en los qrels.")


@pytest.mark.parametrize(
    "qrels, runs, measures, field",
    [
        ({"name": "q", "text": "q1 0 a x"}, [{"name": "r", "text": "q1 Q0 a 1 1 x"}], None, "qrels"),
        ({"name": "q", "text": "q1 0 a 1"}, [], None, "run"),
        ({"name": "q", "text": "q1 0 a 1"}, [{"name": "r", "text": "q1 Q0 a 1 1 x"}], "nDCG@0", "measures"),
        ({"name": "q", "text": "q1 0 a 1"}, [{"name": "r", "text": "q1 Q0 a 1 1 x"}], "ERR@10", "measures"),
        ({"name": "q"}, [{"name": "r", "text": "q1 Q0 a 1 1 x"}], None, "qrels"),
        ({"name": "q", "text": "q1 0 a 1"}, [{"name": "r", "text": "q2 Q0 a 1 1 x"}], None, "run"),
    ],
)
def test_bad_requests_raise_laberror_naming_the_input(qrels, runs, measures, field):
    with pytest.raises(LabError) as caught:
        evaluate_files(qrels, runs, measures)
    assert caught.value.field == field


def test_worker_bridge_streams_chunks_reports_progress_and_lists_problems():
    """What worker.js does: begin, feed chunks that cut lines anywhere, end; regroup; finish."""
    texts = [sample(name)["text"] for name in ("qrels", *NAMES)]
    bridge = EvaluationBridge(json.dumps({"qrels": "qrels.txt", "runs": [f"{n}.txt" for n in NAMES]}))
    for slot, text in zip(("qrels", "A", "B"), texts):
        assert json.loads(bridge.begin(slot, True)) == {"ok": True}
        for start in range(0, len(text), 777):
            bridge.feed(text[start:start + 777])
        assert json.loads(bridge.end()) == {"ok": True, "regroup": False}
    calls = []
    answer = json.loads(bridge.finish(lambda fraction, text: calls.append((fraction, text))))
    assert answer["panel"] == json.loads(json.dumps(evaluate_files(sample("qrels"), [sample(n) for n in NAMES])))
    assert [fraction for fraction, _ in calls] == [i / 7 for i in range(7)] + [1.0]  # 6 measures, the intervals
    assert calls[0][1] == "Comparando B con A: nDCG@10 (1 de 6, 10\u00a0000 permutaciones)…"

    bad = EvaluationBridge(json.dumps({"qrels": "q", "runs": ["run.txt"]}))
    bad.begin("qrels", True), bad.feed("q1 0 a 1\n"), bad.end()
    bad.begin("A", True)
    bad.feed("".join(f"q1 Q0 d{i} {i} x{i} t\n" for i in range(14)))
    answer = json.loads(bad.end())
    assert answer["ok"] is False and answer["message"] == "«run.txt» tiene 14 problemas:"
    assert answer["problems"][0] == "línea 1: la puntuación «x0» no es un número en cifras ASCII"
    assert len(answer["problems"]) == 11 and answer["problems"][-1] == "… y 4 problemas más."
    assert json.loads(bad.finish(None)) == answer  # the session is over


def test_an_ungrouped_run_asks_to_be_read_again():
    session = EvaluationSession({"measures": "P@2", "qrels": "q", "runs": ["r"]})
    session.begin("qrels"), session.feed("q1 0 a 1\nq2 0 b 1\n"), session.end()
    text = "q1 Q0 a 1 1 t\nq2 Q0 b 1 1 t\nq1 Q0 c 2 0.5 t\n"
    session.begin("A"), session.feed(text)
    assert session.end() == "regroup"
    session.begin("A", grouped=False), session.feed(text)
    assert session.end() == "ok"
    assert session.finish()["means"][0]["cells"][0]["raw"] == 0.5


def test_many_queries_chart_as_one_path_of_values():
    qrels = {"name": "q", "text": "".join(f"q{i} 0 a 1\n" for i in range(700))}
    runs = [{"name": "r", "text": "".join(f"q{i} Q0 {d} 1 {s} t\n" for i in range(700) for d, s in (("a", i % 3), ("b", 1)))}]
    chart = evaluate_files(qrels, runs * 2, "RR")["comparison"]["chart"]
    assert chart["bars"] == [] and chart["values"] == [0.0] * 700 and chart["x_label"].startswith("700 consultas")
