"""raglab_core.runs.session, raglab_core.runs.panel and the worker bridge: the panel's numbers are the CLI's report."""

import json
import subprocess
import sys

import pytest

from raglab_core import LabError
from raglab_core.browser import EvaluationBridge
from raglab_core.runs.panel import panel_view
from raglab_core.runs.session import EvaluationSession, evaluate_files, read_share

from raglab_core.runs.measures import DEFAULT_MEASURES, parse_measures
from raglab_core.runs.evaluation import evaluate_run
from raglab_core.runs.report import build_report
from raglab_core.runs.trec import parse_qrels, parse_run

from tests.conftest import ROOT

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
        "(empates en doble precisión, como trec_eval 10 y ranx). nDCG@10 usa aquí la ganancia lineal g, como "
        "trec_eval; el nDCG@k del laboratorio usa 2^g − 1 (aquí, nDCG(dcg='exp-log2')@10)."  # issue 49: one name, two gains
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
    parts = view["comparison"]["reading"]
    reading = parts["text"]
    # Verdict first (issue 49): the direction only because the test tells it from chance, with its p.
    assert parts["verdict"].startswith("«run-densa.txt» queda por encima de «run-bm25.txt» en nDCG@10 por 0,105 de "
                                       "media (p = ")
    assert parts["verdict"].endswith("): una diferencia que estos datos distinguen del azar.")
    assert parts["lines"][0].startswith("nDCG@10, en 40 consultas emparejadas: 30 ganadas")
    assert "Para RR@10, p ≥ 0,05" in reading and "no demuestra que los sistemas sean iguales" in reading
    assert "no corrige por mirar 3 medidas a la vez" in reading
    for claim in ("significativ", "demuestra que", "mejor sistema", "supera"):
        assert claim not in reading.replace("no demuestra que", "")


def test_the_same_file_as_a_and_b_reads_as_identical_with_two_names():
    view = evaluate_files(sample("qrels"), [sample("run-bm25"), sample("run-bm25")], "nDCG@10 AP@100")
    assert [m["name"] for m in view["means"]] == ["A: run-bm25.txt", "B: run-bm25.txt"]
    reading = view["comparison"]["reading"]["text"]
    assert reading.startswith("En 40 consultas emparejadas, «B: run-bm25.txt» y «A: run-bm25.txt» obtienen el mismo nDCG@10 en cada consulta.")
    assert "queda por" not in reading and "0,000 de media" not in reading
    assert view["comparison"]["metrics"][0]["delta"]["text"] == "0,000"  # no «±0,000» (issue 49)
    assert view["comparison"]["metrics"][0]["ci95"]["text"] == "[0,000; 0,000]"


def test_a_mean_difference_that_rounds_to_zero_claims_no_direction():
    # B swaps ranks 29 and 30 of one query (grades 1 and 2): the mean gain rounds to 0,000.
    qrels = {"name": "q", "text": "".join(f"q{i} 0 d{j} {j % 3}\n" for i in range(4) for j in range(30))}
    a = "".join(f"q{i} Q0 d{j} {j + 1} {30 - j} t\n" for i in range(4) for j in range(30))
    view = evaluate_files(qrels, [{"name": "a", "text": a}, {"name": "b", "text": a.replace("q0 Q0 d29 30 1 t", "q0 Q0 d29 30 2.5 t")}],
                          "nDCG")
    first = view["comparison"]["metrics"][0]
    # Zero is «0,000» whatever the sign of what rounds to it (issue 49; it read «+0,000» before).
    assert 0 < first["delta"]["raw"] < 0.0005 and first["delta"]["text"] == "0,000"
    reading = view["comparison"]["reading"]["text"]
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
    assert len(texts["qrels"]) == 18_000  # a sample-sized file: its progress in kB, not "0,0 de 0,0 MB"
    assert texts_said[0] == "Leyendo y evaluando los qrels (1 de 18 kB)…"
    assert "Leyendo y evaluando el run A…" in texts_said  # pasted text: no sizes in MB
    comparing = [(f, t) for f, t in calls if t.startswith("Comparando B con A:")]
    # Issue 49: reading's share weighs its cost against the comparisons' (was 0.9 for any two runs)
    share = read_share(2, 6, sum(settings["sizes"]))
    assert 0.05 < share < 0.2  # about 100 kB read, 6 measures tested: the tests cost most
    assert [round(f, 9) for f, _ in comparing] == [round(share + (1 - share) * i / 7, 9) for i in range(6)]  # 6 measures, then the intervals
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


# --- many runs and a fused one (issue 37) ------------------------------------------------------------


def shaken(name, new_name, seed):
    """A sample run with every score moved by a random amount below 0.3: another run, close to it."""
    import random

    draw = random.Random(seed)
    lines = []
    for line in sample(name)["text"].splitlines():
        fields = line.split()
        fields[4] = repr(float(fields[4]) + draw.random() * 0.3)
        lines.append(" ".join(fields))
    return {"name": new_name, "text": "\n".join(lines) + "\n"}


def test_three_runs_give_the_reports_pairs_lettered_and_holm_corrected():
    from raglab_core.runs.evaluation import RunEvaluator
    from raglab_core.runs.report import beaten

    runs = [sample("run-bm25"), sample("run-densa"), shaken("run-densa", "densa-ruido.txt", 2)]
    measures = "nDCG@10 R@100"
    view = evaluate_files(sample("qrels"), runs, measures)
    qrels = parse_qrels(sample("qrels")["text"])
    evaluated = []
    for run in runs:
        evaluator = RunEvaluator(qrels, parse_measures(measures), keep=100)  # the top 100 the overlap reads
        for qid, scores in parse_run(run["text"]).items():
            evaluator.add(qid, scores)
        evaluated.append((run["name"], evaluator.result()))
    report, _ = build_report(evaluated)
    many = view["many"]
    assert [pair["pair"] for pair in many["pairs"]] == ["a-b", "a-c", "b-c"]
    assert [pair["label"] for pair in many["pairs"]] == ["b − a", "c − a", "c − b"]
    for row, compared, overlap in zip(many["pairs"], report["comparisons"], report["overlap"]):
        assert [(c["measure"], c["mean_delta"], c["p_value"], c["p_adjusted"]) for c in row["cells"]] == [
            (m, r["mean_delta"], r["p_value"], r["p_value_adjusted"]) for m, r in compared["metrics"].items()]
        assert (row["jaccard"]["raw"], row["rbo"]["raw"]) == (overlap["jaccard@10"], overlap["rbo"])
    wins = beaten(report)
    assert [[cell["beats"] for cell in run["cells"]] for run in view["means"]] == [
        ["".join("abc"[j] for j in wins[m][i]) for m in report["measures"]] for i in range(3)]
    assert [run["letter"] for run in view["means"]] == ["a", "b", "c"]
    assert "Holm sobre los 3 pares" in view["means_caption"]
    # The detail below: a and b, as two runs are compared, with Holm's p beside the raw one.
    comparison = view["comparison"]
    assert comparison["title"] == "Comparación de «run-densa.txt» (b) con «run-bm25.txt» (a)"
    assert comparison["columns"][-1] == "p ajustado (Holm)"
    assert [m["p_adjusted"]["raw"] for m in comparison["metrics"]] == [
        report["comparisons"][0]["metrics"][m]["p_value_adjusted"] for m in report["measures"]]
    assert "p ajustado ≥ 0,05" in comparison["reading"]["text"] or "p ajustado < 0,05" in comparison["reading"]["text"]
    # Every run in the per-query table; no Δ column with more than two runs.
    assert view["columns"] == ["Consulta"] + [f"{m} · {run['name']}" for run in runs for m in report["measures"]]
    assert "Judged@10 a las medidas" in many["overlap_reading"]["text"]  # not measured: the reading says how to see it
    for text in (many["reading"]["text"], many["overlap_reading"]["text"], comparison["reading"]["text"]):
        assert "el mejor" not in text and "None" not in text and "nan" not in text.lower()


def test_judged_at_10_is_a_range_only_when_the_runs_differ():
    """Issue 49: «va de 1,000 (a) a 1,000 (d)» said nothing; the same value is said once."""
    from raglab_core.runs.lettered import overlap_reading

    def said(means):
        runs = [{"name": f"r{i}", "mean": {"Judged@10": mean}} for i, mean in enumerate(means)]
        report = {"runs": runs, "measures": ["Judged@10"], "overlap": [], "warnings": []}
        return overlap_reading(report, {"Judged@10": [[] for _ in runs]})["lines"][0].split(" juzgada: ")[-1]

    assert said([1.0, 1.0, 0.99996, 1.0]) == "vale 1,000 en los 4 runs."
    assert said([0.75, 0.75]) == "vale 0,750 en los dos runs."
    assert said([0.9, 1.0, 0.95]) == "va de 0,900 (a) a 1,000 (b)."


def test_the_reading_names_who_no_run_beats_and_says_when_they_are_tied():
    from raglab_core.runs.lettered import many_reading

    def reading(means, wins):
        runs = [{"name": f"r{i}", "mean": {"P@1": mean}} for i, mean in enumerate(means)]
        return " ".join(many_reading({"runs": runs, "measures": ["P@1"], "warnings": []}, {"P@1": wins})["caveats"])  # the full reading, in «Cómo leer esto»

    one = reading([0.2, 0.6, 0.5], [[], [0, 2], []])
    assert one.startswith("En P@1, «r1» (b) supera a cada uno de los otros 2 runs: su media, 0,600, es mayor")
    leader = reading([0.2, 0.6, 0.5], [[], [0], []])
    assert leader.startswith("En P@1, ningún otro run supera a «r1» (b) ni a «r2» (c): con estos datos están "
                             "estadísticamente empatados entre sí")
    assert "«r1» (b) tiene la media más alta (0,600), pero esa ventaja no se distingue del azar" in leader
    assert "«r0» (a) queda por debajo de al menos otro run." in leader
    alone = reading([0.2, 0.6, 0.5, 0.1], [[], [0, 3], [3], []])  # b beats a and d, c beats d: b and c unbeaten
    assert "ningún otro run supera a «r1» (b) ni a «r2» (c)" in alone
    chain = reading([0.5, 0.6, 0.1], [[2], [2], []])  # a and b both beat c: unbeaten, highest mean first
    assert chain.startswith("En P@1, ningún otro run supera a «r1» (b) ni a «r0» (a)")
    tied = reading([0.3, 0.3, 0.3], [[], [], []])
    assert tied.startswith("En P@1, ninguna de las 3 diferencias entre los 3 runs llega a p ajustado < 0,05: con "
                           "estos datos, los 3 runs están estadísticamente empatados.")
    assert "comparten la media más alta (0,300)" in tied
    top = reading([0.7, 0.6, 0.1], [[2], [], []])  # a beats c; b and a tied; nobody beats a or b
    assert "ningún otro run supera a «r0» (a) ni a «r1» (b)" in top
    lone = reading([0.7, 0.5, 0.4], [[1], [2], []])  # a beats b, b beats c, a and c tied: only a unbeaten
    assert lone.startswith("En P@1, ningún otro run supera a «r0» (a), que tiene la media más alta (0,700); pero "
                           "tampoco él supera a «r2» (c): con estos datos queda estadísticamente empatado con él.")
    for text in (one, leader, alone, chain, tied, top, lone):
        assert "el mejor" not in text and "ajustado por Holm sobre los" in text



def test_five_runs_with_a_fused_one_stream_through_the_bridge_and_download_as_the_cli_prints(tmp_path):
    runs = [sample("run-bm25"), sample("run-densa"), shaken("run-bm25", "bm25-ruido.txt", 1),
            shaken("run-densa", "densa-ruido.txt", 2)]
    texts = {"qrels": sample("qrels")["text"], **{slot: run["text"] for slot, run in zip("ABCD", runs)}}
    settings = {"measures": "nDCG@10", "qrels": "qrels.txt", "runs": [run["name"] for run in runs],
                "sizes": [len(text) for text in texts.values()], "files": [True] * 5,
                "fusion": {"runs": [0, 1], "method": "rrf", "norm": "min-max", "k": "60"}}
    calls = []
    bridge = EvaluationBridge(json.dumps(settings), lambda fraction, text: calls.append((fraction, text)))
    assert stream(bridge, texts) == ["qrels", "A", "B", "C", "D", "A", "B"]  # a and b read again, whole, to fuse
    panel = json.loads(bridge.finish())["panel"]
    assert [run["name"] for run in panel["means"]] == [run["name"] for run in runs] + ["RRF(a, b)"]
    assert panel["fused"]["letter"] == "e" and len(panel["many"]["pairs"]) == 10
    fractions = [fraction for fraction, _ in calls]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    said = [text for _, text in calls]
    assert any(text.startswith("Leyendo de nuevo el run B para fusionarlo (") for text in said)
    assert "Evaluando el run fusionado «RRF(a, b)»…" in said
    assert any(text.startswith("Comparando E con D (par 10 de 10): nDCG@10 (1 de 1,") for text in said)

    # The downloads: the fused run as `fuse` prints it, and the report as `eval` prints it for the five.
    fused = json.loads(bridge.download("fused"))
    assert (fused["name"], fused["type"]) == ("rrf-a-b.txt", "text/plain")  # issue 49: a safe name, an extension
    paths = []
    for name, text in [("qrels.txt", texts["qrels"]), *[(run["name"], run["text"]) for run in runs]]:
        paths.append(tmp_path / name)
        paths[-1].write_text(text)
    cli = [sys.executable, "-m", "raglab_core"]
    printed = subprocess.run([*cli, "fuse", paths[1], paths[2], "--method", "rrf"], capture_output=True, text=True,
                             check=True, cwd=ROOT).stdout
    assert fused["text"] == printed
    (tmp_path / "RRF(a, b)").write_text(printed)
    report = subprocess.run([*cli, "eval", *paths, tmp_path / "RRF(a, b)", "--measures", "nDCG@10", "--json"],
                            capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert json.loads(bridge.download("json"))["text"] == report
    import csv

    header = next(csv.reader(json.loads(bridge.download("csv"))["text"].splitlines()))
    assert header == ["query"] + [f"{name} nDCG@10" for name in [*[r["name"] for r in runs], "RRF(a, b)"]]

    # Any pair, either way round: the same p-values, the differences negated.
    forward, backward = (json.loads(bridge.pair(*pair))["comparison"] for pair in ((1, 4), (4, 1)))
    assert forward["metrics"][0]["p_value"] == backward["metrics"][0]["p_value"]
    assert forward["metrics"][0]["delta"]["raw"] == -backward["metrics"][0]["delta"]["raw"]
    assert forward["chart"]["label"] == "Δ nDCG@10 por consulta (RRF(a, b) − run-densa.txt)"
    assert json.loads(bridge.pair(2, 2)) == {"ok": False, "field": "pair",
                                             "message": "Elige dos runs distintos para compararlos."}
    assert json.loads(bridge.pair(0, 4))["ok"]  # a refused pair does not end the session

    # The query detail: five columns side by side, lettered, «en todos» where every run holds the document.
    detail = json.loads(bridge.detail("q07"))["detail"]
    assert detail["many"] and [run["letter"] for run in detail["runs"]] == list("abcde")
    tops = [[doc["id"] for doc in run["documents"]] for run in detail["runs"]]
    everywhere = set.intersection(*map(set, tops))
    assert {doc["id"] for run in detail["runs"] for doc in run["documents"] if doc["shared"]} == everywhere
    assert detail["note"] == f"Marcados con «en todos»: {len(everywhere)} documentos que los 5 runs ponen entre sus 10 primeros."


@pytest.mark.parametrize(
    "fusion, runs, field, said",
    [
        ({"runs": [0], "method": "rrf"}, 2, "fuse-runs", "Elige al menos dos runs para fusionarlos."),
        ({"runs": [0, 1], "method": "rrf", "k": "sesenta"}, 2, "fuse-k", "se ha escrito «sesenta»"),
        ({"runs": [0, 1], "method": "wsum", "weights": "0.3"}, 2, "fuse-weights", "se han escrito 1 peso."),
        ({"runs": [0, 1], "method": "wsum", "weights": "0,3 x"}, 2, "fuse-weights", "«x» no lo es"),
        ({"runs": [0, 1], "method": "rrf", "norm": "borda"}, 2, "fuse-norm", "borda"),
        ({"runs": [0, 1], "method": "zzz"}, 2, "fuse-method", "«zzz»"),
        ({"runs": [0, 1], "method": "rrf"}, 12, "fuse-runs", "Con 12 runs no cabe uno fusionado"),
    ],
)
def test_bad_fusion_settings_name_their_control(fusion, runs, field, said):
    with pytest.raises(LabError) as caught:
        EvaluationSession({"qrels": "q", "runs": [f"r{i}" for i in range(runs)], "fusion": fusion})
    assert caught.value.field == field and said in str(caught.value)


def test_twelve_runs_leave_no_room_for_a_fused_one_and_the_page_says_so_before():
    """Issue 49: the fusion's refusal has its own code and reason, which the page's «Fusionar» gives beforehand."""
    from raglab_core.runs.panel import page_settings

    with pytest.raises(LabError) as caught:
        EvaluationSession({"qrels": "q", "runs": [f"r{i}" for i in range(12)], "fusion": {"runs": [0, 1]}})
    assert (caught.value.code, caught.value.field) == ("fusion_no_room", "fuse-runs")
    assert caught.value.render("en") == (
        "With 12 runs there is no room for a fused one (the page evaluates 12 at most): remove one to fuse.")
    words = page_settings()["words"]
    assert words["fuse_too_many"] == str(caught.value) == (
        "Con 12 runs no cabe uno fusionado (la página evalúa 12 como mucho): quita uno para fusionar.")
    assert words["fusion_failed"] == "La fusión no se hizo (el motivo está debajo); sin ella, «Evaluar» evalúa los runs."
    assert words["failed"] != words["fusion_failed"]


def test_thirteen_runs_are_refused_and_the_fused_name_says_what_it_is():
    with pytest.raises(LabError, match="Elige entre 1 y 12 runs."):
        EvaluationSession({"qrels": "q", "runs": [f"r{i}" for i in range(13)]})
    session = EvaluationSession({"qrels": "q", "runs": ["x", "y", "z"], "fusion": {
        "runs": [0, 2], "method": "wsum", "norm": "zmuv", "weights": "0.3,0.7"}})
    assert session.names == ["x", "y", "z", "WSUM(0,3·a + 0,7·c; zmuv)"]


def test_the_bar_agrees_with_the_pair_the_status_line_names_and_never_goes_back():
    """Issue 49: with 12 runs the bar showed 56 % at «par 8 de 66» (reading had half of it). Now at «par i de n»
    the bar lies within pair i's span, about i/n of the way, and it never moves back."""
    import re

    runs = [shaken(("run-bm25", "run-densa")[i % 2], f"r{i}.txt", i) for i in range(12)]
    texts = {"qrels": sample("qrels")["text"], **{chr(65 + i): run["text"] for i, run in enumerate(runs)}}
    settings = {"measures": "nDCG@10", "qrels": "qrels.txt", "runs": [run["name"] for run in runs],
                "sizes": [len(text) for text in texts.values()], "files": [True] * 13}
    calls = []
    bridge = EvaluationBridge(json.dumps(settings), lambda fraction, text: calls.append((fraction, text)))
    stream(bridge, texts, size=50_000)
    bridge.finish()
    fractions = [fraction for fraction, _ in calls]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    start = next(fraction for fraction, text in calls if text == "Comparando los runs por pares…")
    assert start <= 0.1  # reading 13 small files costs little beside 66 tests
    named = [(fraction, re.search(r"\(par (\d+) de (\d+)\)", text)) for fraction, text in calls]
    named = [(fraction, int(m[1]), int(m[2])) for fraction, m in named if m]
    assert {n for _, _, n in named} == {66} and {i for _, i, _ in named} == set(range(1, 67))
    for fraction, i, n in named:
        assert start + (1 - start) * (i - 1) / (n + 1) <= fraction <= start + (1 - start) * i / n
        assert abs(fraction - i / n) <= 0.1, (fraction, i, n)  # «par 8 de 66» is about 12 %, not 56 %


def test_the_two_ndcg_gains_are_named_where_each_is_shown():
    """Issue 49: the lab's nDCG@k (2^g − 1) and «Tus datos»'s nDCG@10 (linear) share a name on one page."""
    import yaml

    definition = yaml.safe_load((ROOT / "site_src" / "config.yaml").read_text("utf-8"))["glossary"]["ndcg"]["text"]
    assert "2^g − 1" in definition and "el nDCG@10 de «Tus datos», como trec_eval, usa la ganancia lineal g" in definition
    both = evaluate_files(sample("qrels"), [sample("run-bm25")], "nDCG@10 nDCG(dcg='exp-log2')@10")["summary"]
    assert "nDCG@10 usa aquí la ganancia lineal g, como trec_eval; el nDCG@k del laboratorio usa 2^g − 1" in both
    lab = evaluate_files(sample("qrels"), [sample("run-bm25")], "nDCG(dcg='exp-log2')@5")["summary"]
    assert lab.endswith("nDCG(dcg='exp-log2')@5 usa la ganancia 2^g − 1, la del nDCG@k del laboratorio.")
    assert "ganancia" not in evaluate_files(sample("qrels"), [sample("run-bm25")], "P@5")["summary"]
