"""raglab_core.runs.panel and the worker bridge: the panel's numbers are the CLI's report."""

import json
import subprocess
import sys

import pytest

from raglab_core import LabError
from raglab_core.browser import EvaluationBridge, evaluate_json
from raglab_core.runs.panel import EvaluationSession, evaluate_files, panel_view
from raglab_core.words import megabytes
from raglab_core.runs.measures import DEFAULT_MEASURES, parse_measures
from raglab_core.runs.evaluation import evaluate_run
from raglab_core.runs.report import build_report
from raglab_core.runs.trec import parse_qrels, parse_run

from .conftest import ROOT

SAMPLE = ROOT / "site_src" / "data" / "sample"
NAMES = ["run-bm25", "run-densa"]


def sample(name):
    return {"name": f"{name}.txt", "text": (SAMPLE / f"{name}.txt").read_text()}


def report_of(measures=None, permutations=10_000):
    qrels = parse_qrels((SAMPLE / "qrels.txt").read_text())
    runs = [(f"{n}.txt", evaluate_run(qrels, parse_run((SAMPLE / f"{n}.txt").read_text()), measures)) for n in NAMES]
    return (*build_report(runs, permutations=permutations), runs)


def test_panel_numbers_are_the_reports():
    view = evaluate_files(sample("qrels"), [sample("run-bm25"), sample("run-densa")])
    report, _, _ = report_of()
    labels = DEFAULT_MEASURES.split()
    for shown, run in zip(view["means"], report["runs"]):
        assert [cell["raw"] for cell in shown["cells"]] == [run["mean"][m] for m in labels]
    assert [m["name"] for m in view["means"]] == ["run-bm25.txt", "run-densa.txt"]  # as the CLI names them
    compared = view["comparison"]["metrics"]
    assert [m["p_value"]["raw"] for m in compared] == [report["comparison"]["metrics"][m]["p_value"] for m in labels]
    assert view["summary"] == (
        "40 consultas evaluadas con nDCG@10, R@100, RR@10, Success@10, AP@100 y Judged@10 "
        "(empates en doble precisión, como trec_eval 10 y ranx)."
    )
    bars = view["comparison"]["chart"]["bars"]
    assert [bar["raw"] for bar in bars] == sorted((bar["raw"] for bar in bars), reverse=True)
    assert len(view["rows"]) == 40 and len(view["rows"][0]) == len(view["columns"]) == 1 + 3 * len(labels)


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
    assert "«run-densa.txt» queda por encima de «run-bm25.txt» en nDCG@10 por 0,105 de media (30 ganadas" in reading
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
    assert "la diferencia media de nDCG entre «b» y «a» redondea a 0,000: ninguno queda por encima del otro" in reading
    assert "1 ganada, 3 empatadas y 0 perdidas por «b»" in reading
    assert "queda por encima de «a" not in reading


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


def stream(bridge, texts, size=777):
    """What worker.js does: read the file Python asks for, in chunks that cut lines anywhere, until it says stop."""
    asked = []
    while slot := bridge.next():
        asked.append(slot)
        text = texts[slot]
        for start in range(0, len(text), size):
            if bridge.feed(text[start:start + size], min(start + size, len(text))):
                break
        bridge.end()
    return asked


def test_worker_bridge_streams_chunks_reports_progress_and_lists_problems():
    texts = dict(zip(("qrels", "A", "B"), (sample(name)["text"] for name in ("qrels", *NAMES))))
    calls = []
    settings = {"qrels": "qrels.txt", "runs": [f"{n}.txt" for n in NAMES], "sizes": [len(t) for t in texts.values()],
                "files": [True, False, True]}
    bridge = EvaluationBridge(json.dumps(settings), lambda fraction, text: calls.append((fraction, text)))
    assert stream(bridge, texts) == ["qrels", "A", "B"]
    answer = json.loads(bridge.finish())
    assert answer["panel"] == json.loads(json.dumps(evaluate_files(sample("qrels"), [sample(n) for n in NAMES])))
    fractions = [fraction for fraction, _ in calls]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0  # the bar never moves back
    texts_said = [text for _, text in calls]
    size = len(texts["qrels"])
    assert texts_said[0] == f"Leyendo y evaluando los qrels ({megabytes(777)} de {megabytes(size)} MB)…"
    assert "Leyendo y evaluando el run A…" in texts_said  # pasted text: no sizes in MB
    comparing = [(f, t) for f, t in calls if t.startswith("Comparando B con A:")]
    assert [round(f, 9) for f, _ in comparing] == [round(0.9 + 0.1 * i / 7, 9) for i in range(6)]  # 6 measures, then the intervals
    assert comparing[0][1] == "Comparando B con A: nDCG@10 (1 de 6, 10\u00a0000 permutaciones)…"

    bad = EvaluationBridge(json.dumps({"qrels": "q", "runs": ["run.txt"]}))
    stream(bad, {"qrels": "q1 0 a 1\n", "A": "".join(f"q1 Q0 d{i} {i} x{i} t\n" for i in range(14))})
    answer = json.loads(bad.finish())
    assert answer["ok"] is False and answer["message"] == "«run.txt» tiene 14 problemas:"
    assert answer["problems"][0] == "línea 1: la puntuación «x0» no es un número en cifras ASCII"
    assert len(answer["problems"]) == 11 and answer["problems"][-1] == "… y 4 problemas más."
    assert bad.next() is None and json.loads(bad.finish()) == answer  # the session is over

    unreadable = EvaluationBridge(json.dumps({"qrels": "q.txt", "runs": ["r"]}))
    assert unreadable.next() == "qrels"
    unreadable.unreadable("TypeError: The encoded data was not valid for encoding utf-8")
    assert unreadable.next() is None
    assert json.loads(unreadable.finish())["message"] == "No se pudo leer «q.txt»: no es un fichero de texto UTF-8 legible."


def test_an_ungrouped_run_is_asked_for_again_and_read_whole():
    session = EvaluationSession({"measures": "P@2", "qrels": "q", "runs": ["r"]})
    texts = {"qrels": "q1 0 a 1\nq2 0 b 1\n", "A": "q1 Q0 a 1 1 t\nq2 Q0 b 1 1 t\nq1 Q0 c 2 0.5 t\n"}
    assert stream(session, texts, size=5) == ["qrels", "A", "A"]
    assert session.finish()["means"][0]["cells"][0]["raw"] == 0.5


def test_the_command_line_and_the_page_name_runs_alike(tmp_path):
    """One rule (raglab_core.runs.inputs.run_names): the file name, made distinct with A:/B: only when both are the same."""
    files = [tmp_path / "qrels.txt", tmp_path / "bm25.txt", tmp_path / "dense.txt"]
    for path, text in zip(files, ("q1 0 a 1\n", "q1 Q0 a 1 1 t\n", "q1 Q0 b 1 1 t\n")):
        path.write_text(text)
    for runs in (files[1:], [files[1], files[1]]):
        cli = subprocess.run([sys.executable, "-m", "raglab_core", "eval", str(files[0]), *map(str, runs), "--json"],
                             capture_output=True, text=True, check=True, cwd=ROOT)
        page = evaluate_files({"name": "qrels.txt", "text": "q1 0 a 1\n"},
                              [{"name": path.name, "text": path.read_text()} for path in runs], "P@1")
        assert [run["name"] for run in json.loads(cli.stdout)["runs"]] == [run["name"] for run in page["means"]]


def test_many_queries_chart_as_one_path_of_values():
    qrels = {"name": "q", "text": "".join(f"q{i} 0 a 1\n" for i in range(700))}
    runs = [{"name": "r", "text": "".join(f"q{i} Q0 {d} 1 {s} t\n" for i in range(700) for d, s in (("a", i % 3), ("b", 1)))}]
    chart = evaluate_files(qrels, runs * 2, "RR")["comparison"]["chart"]
    assert chart["bars"] == [] and chart["values"] == [0.0] * 700 and chart["x_label"].startswith("700 consultas")
