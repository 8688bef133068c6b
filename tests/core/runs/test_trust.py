"""«Tus datos» you can trust (issue 21): sanity warnings, confidence intervals, exact p-values, downloads,
the query detail: the command line and the page from one implementation, checked against independent ones."""

import csv
import io
import itertools
import json
import math
import random

import pytest

from raglab_core.__main__ import main
from raglab_core.browser import EvaluationBridge
from raglab_core.runs.session import evaluate_files
from raglab_core.runs.evaluation import evaluate_run, trec_order
from raglab_core.runs.statistics import EXACT_LIMIT, bootstrap_intervals, exact_randomization_test, randomization_test
from raglab_core.runs.report import build_report
from raglab_core.runs.comparison import compare_runs
from raglab_core.runs.trec import parse_qrels, parse_run

from tests.conftest import ROOT

SAMPLE = ROOT / "site_src" / "data" / "sample"
MEASURES = "nDCG@10 AP@100"


def text(name):
    return (SAMPLE / name).read_text()


def upper_cased(run_text):
    """``sed 's/ doc/ DOC/'``: the first " doc" of each line upper-cased."""
    return "".join(line.replace(" doc", " DOC", 1) for line in run_text.splitlines(keepends=True))


def cli(capsys, *args):
    status = main(["eval", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def upper(tmp_path):
    paths = {"qrels": tmp_path / "qrels.txt", "a": tmp_path / "bm25-upper.txt", "b": tmp_path / "run-densa.txt"}
    paths["qrels"].write_text(text("qrels.txt"))
    paths["a"].write_text(upper_cased(text("run-bm25.txt")))
    paths["b"].write_text(text("run-densa.txt"))
    return paths


# --- warnings ------------------------------------------------------------------------------------


def test_upper_cased_run_is_warned_about_on_the_cli_without_changing_anything(upper, capsys):
    status, out, err = cli(capsys, upper["qrels"], upper["a"], upper["b"], "--measures", MEASURES, "--json")
    assert status == 0
    report = json.loads(out)
    [warning] = [w for w in report["warnings"] if "judged" in w["code"]]
    assert warning["code"] == "run_none_judged" and warning["run"] == "bm25-upper.txt"
    assert "case and prefixes" in warning["message"]
    assert "'DOC01-015'" in warning["message"] and "'doc01-008'" in warning["message"]  # one id from each file
    assert f"warning: {warning['message']}" in err.splitlines()
    assert "the comparison rests on data with warnings (bm25-upper.txt)" in err
    # The same numbers as the library's, which knows nothing of warnings.
    qrels = parse_qrels(text("qrels.txt"))
    plain = evaluate_run(qrels, parse_run(upper_cased(text("run-bm25.txt"))), MEASURES)
    assert report["runs"][0]["mean"] == dict(zip(plain.names, plain.mean)) == {"nDCG@10": 0.0, "AP@100": 0.0}


def test_upper_cased_run_is_warned_about_in_the_panel_and_the_reading_says_so():
    view = evaluate_files({"name": "qrels.txt", "text": text("qrels.txt")},
                          [{"name": "bm25-upper.txt", "text": upper_cased(text("run-bm25.txt"))},
                           {"name": "run-densa.txt", "text": text("run-densa.txt")}], MEASURES)
    # Both runs hold 30 documents per query, fewer than AP@100's cut-off: a warning each (issue 49).
    assert [w["code"] for w in view["warnings"]] == ["run_none_judged", "run_shallow", "run_shallow"]
    warning = view["warnings"][0]
    assert warning["text"].startswith("«bm25-upper.txt»: ninguno de los documentos que ordena en las 40 consultas")
    assert "mayúsculas y los prefijos" in warning["text"] and "«DOC01-015»" in warning["text"]
    reading = view["comparison"]["reading"]["text"]
    assert reading.startswith("Atención: esta comparación se apoya en datos con avisos (arriba) sobre «bm25-upper.txt»")


def test_missing_queries_are_warned_about_and_the_complete_setting_is_the_clis(tmp_path, capsys):
    qrels = text("qrels.txt")
    lines = text("run-bm25.txt").splitlines(keepends=True)
    kept = sorted({line.split()[0] for line in lines})[::2]  # every other query: half of them
    half = "".join(line for line in lines if line.split()[0] in kept)
    (tmp_path / "q.txt").write_text(qrels)
    (tmp_path / "half.txt").write_text(half)
    for complete in (False, True):
        status, out, err = cli(capsys, tmp_path / "q.txt", tmp_path / "half.txt", "--measures", MEASURES, "--json",
                               *(["--complete"] if complete else []))
        assert status == 0
        report = json.loads(out)
        [missing] = [w for w in report["warnings"] if "missing" in w["code"]]
        assert (missing["count"], missing["total"], missing["complete"]) == (20, 40, complete)
        assert missing["examples"] == ["q02", "q04", "q06", "q08", "q10"]
        view = evaluate_files({"name": "q.txt", "text": qrels}, [{"name": "half.txt", "text": half}], MEASURES,
                              complete=complete)
        assert [cell["raw"] for cell in view["means"][0]["cells"]] == list(report["runs"][0]["mean"].values())
        assert view["means"][0]["queries"] == (40 if complete else 20)
        [shown] = [w for w in view["warnings"] if w["code"] == missing["code"]]
        assert shown["text"].startswith("«half.txt»: 20 consultas de los qrels (de 40 en total) no están en el run («q02»")
        assert "«Contar como 0 las consultas que falten»" in shown["text"]
        assert view["complete_note"] == (
            "En la última evaluación, a «half.txt» le faltan 20 consultas de los qrels (de 40 en total).")


def test_query_id_retrieved_low_judged_and_undefined_measures_are_warned_about():
    qrels = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 0}, "q3": {"d4": 2}}
    run = {"q1": {"q1": 3.0, "x1": 2.0, "x2": 1.5, "d1": 1.0},  # retrieves itself; 1 judged of 4
           "q2": {"y": 1.0, "d3": 0.5},  # no relevant judgment: R and AP undefined
           "q3": {"z1": 1.0, "z2": 0.5, "z3": 0.1}}
    result = evaluate_run(qrels, run, "R@10 AP P@1")
    report, _ = build_report([("r.txt", result)])
    codes = {w["code"]: w for w in report["warnings"]}
    assert codes["query_id_retrieved"]["examples"] == ["q1"]
    # Judged@10 per query: 1/4, 1/2, 0: mean 0.25
    assert codes["run_low_judged"]["value"] == pytest.approx((1 / 4 + 1 / 2 + 0) / 3)
    undefined = codes["queries_without_relevant"]
    assert (undefined["count"], undefined["total"], undefined["measures"], undefined["examples"]) == (
        1, 3, ["R@10", "AP"], ["q2"])
    assert "there is no value of R@10 and AP for it" in undefined["message"]


def test_r_cap_is_warned_about_when_a_query_has_no_relevant_judgment(capsys, tmp_path):
    """R_cap@k is None without relevant judgments, like R@k: the registry says so, and both edges warn."""
    from raglab_core.runs.measures import FAMILIES

    assert {name for name, family in FAMILIES.items() if family.undefined_without_relevant} == {"R", "R_cap", "AP", "nDCG"}
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text("q1 0 d1 1\nq2 0 d3 0\n", "utf-8")
    run.write_text("q1 Q0 d1 1 2.0 t\nq2 Q0 d3 1 1.0 t\n", "utf-8")
    status, out, err = cli(capsys, qrels, run, "--measures", "R_cap@10 P@1", "--json")
    [warning] = [w for w in json.loads(out)["warnings"] if w["code"] == "queries_without_relevant"]
    assert (status, warning["measures"], warning["examples"], warning["count"]) == (0, ["R_cap@10"], ["q2"], 1)
    assert "queries_without_relevant" not in err and "R_cap@10" in err
    view = evaluate_files({"name": "qrels.txt", "text": qrels.read_text("utf-8")},
                          [{"name": "run.txt", "text": run.read_text("utf-8")}], "R_cap@10 P@1")
    [shown] = [w for w in view["warnings"] if w["code"] == "queries_without_relevant"]
    assert "R_cap@10" in shown["text"] and "«q2»" in shown["text"]


def test_clean_runs_get_no_warning(capsys):
    """Measured within their depth (30 documents per query), the sample runs get no warning; at the default
    measures, R@100 and AP@100 cut deeper than the runs go (issue 49), which test_shallow_runs_… checks."""
    within = "nDCG@10 R@30 RR@10 Success@10 AP@30 Judged@10"
    status, out, err = cli(capsys, SAMPLE / "qrels.txt", SAMPLE / "run-bm25.txt", SAMPLE / "run-densa.txt", "--json",
                           "--measures", within)
    assert status == 0 and json.loads(out)["warnings"] == [] and "warning" not in err


def cut(run_text, depth):
    """The run's first ``depth`` lines of each query (it lists them in rank order)."""
    kept, seen = [], {}
    for line in run_text.splitlines(keepends=True):
        qid = line.split()[0]
        seen[qid] = seen.get(qid, 0) + 1
        if seen[qid] <= depth:
            kept.append(line)
    return "".join(kept)


def tie(run_text, queries):
    """Every score of ``queries`` set to 1 (the rank column kept)."""
    return "".join(" ".join(line.split()[:4] + ["1", line.split()[5]]) + "\n" if line.split()[0] in queries else line
                   for line in run_text.splitlines(keepends=True))


def test_shallow_runs_are_warned_about_with_their_depth_and_the_measures_cut_deeper(tmp_path, capsys):
    """Issue 49: runs of 20 documents per query evaluated at cut-offs beyond 20 (DL19's runs at R@100)."""
    measures = "nDCG@10 R@25 AP@30 Judged@10"
    (tmp_path / "bm25-20.txt").write_text(cut(text("run-bm25.txt"), 20))
    status, out, err = cli(capsys, SAMPLE / "qrels.txt", tmp_path / "bm25-20.txt", SAMPLE / "run-densa.txt",
                           "--measures", measures, "--json")
    [warning] = json.loads(out)["warnings"]  # run-densa.txt holds 30 documents per query: deep enough
    assert (status, warning["code"], warning["run"]) == (0, "run_shallow", "bm25-20.txt")
    assert (warning["typical"], warning["deepest"], warning["measures"]) == (20, 20, ["R@25", "AP@30"])
    assert warning["message"] == (
        "bm25-20.txt: 20 documents per query, fewer than the cut-off of R@25 and AP@30: past its last document "
        "those measures find nothing, and they do not compare it fairly with a deeper run. Cut within its depth, or "
        "retrieve deeper.")
    assert f"warning: {warning['message']}" in err.splitlines()
    assert "the comparison rests on data with warnings" not in err  # the runs' data is fine; some cut-offs are not
    status, out, err = cli(capsys, SAMPLE / "qrels.txt", tmp_path / "bm25-20.txt", "--measures", measures)
    assert status == 0 and f"warning: {warning['message']}" in err.splitlines()
    view = evaluate_files({"name": "qrels.txt", "text": text("qrels.txt")},
                          [{"name": "bm25-20.txt", "text": cut(text("run-bm25.txt"), 20)},
                           {"name": "run-densa.txt", "text": text("run-densa.txt")}], measures)
    [shown] = view["warnings"]
    assert shown == {"code": "run_shallow", "text": (
        "«bm25-20.txt»: 20 documentos por consulta, menos que el corte de R@25 y AP@30: más allá de su último "
        "documento esas medidas no encuentran nada, y no lo comparan en igualdad con un run más profundo. Usa un "
        "corte dentro de su profundidad o recupera más.")}
    # Depths that vary: the median query's and the deepest.
    mixed = "".join(line for line in text("run-bm25.txt").splitlines(keepends=True)
                    if line.split()[0] <= "q05" or int(line.split()[3]) <= 12)
    result = evaluate_run(parse_qrels(text("qrels.txt")), parse_run(mixed), "R@20")
    report, _ = build_report([("mixed.txt", result)])
    [warning] = report["warnings"]
    assert (warning["typical"], warning["deepest"]) == (12, 30)
    assert warning["message"].startswith("mixed.txt: 12 documents per query in its median query (30 at most), "
                                         "fewer than the cut-off of R@20:")


def test_tied_scores_are_warned_about_with_the_order_trec_eval_gives_them(tmp_path, capsys):
    """Issue 49: a run whose scores all tie is ordered by document id, descending, and its measures change."""
    queries = sorted({line.split()[0] for line in text("run-bm25.txt").splitlines()})
    (tmp_path / "tied.txt").write_text(tie(text("run-bm25.txt"), set(queries)))
    status, out, err = cli(capsys, SAMPLE / "qrels.txt", tmp_path / "tied.txt", SAMPLE / "run-densa.txt",
                           "--measures", "nDCG@10", "--json")
    report = json.loads(out)
    [warning] = report["warnings"]
    assert (warning["code"], warning["run"], warning["count"], warning["total"]) == ("run_scores_tied", "tied.txt", 40,
                                                                                     40)
    assert warning["examples"] == queries[:5]
    assert warning["message"].startswith(
        "tied.txt: in every one of its 40 queries (q01, q02, q03, q04, q05, …) every document has the same score. "
        "Those rankings are ordered by document id, descending, as trec_eval breaks ties (the rank column is ignored)")
    assert f"warning: {warning['message']}" in err.splitlines()
    assert "the comparison rests on data with warnings (tied.txt)" in err
    # The value is the one of that order: the run's own order (its rank column) gives another.
    qrels = parse_qrels(text("qrels.txt"))
    by_id = {qid: dict.fromkeys(scores, 1.0) for qid, scores in parse_run(text("run-bm25.txt")).items()}
    assert [trec_order(scores)[:2] for scores in by_id.values()][0] == sorted(by_id["q01"], reverse=True)[:2]
    assert report["runs"][0]["mean"]["nDCG@10"] == evaluate_run(qrels, by_id, "nDCG@10").mean[0]
    assert report["runs"][0]["mean"]["nDCG@10"] != evaluate_run(qrels, parse_run(text("run-bm25.txt")), "nDCG@10").mean[0]
    view = evaluate_files({"name": "qrels.txt", "text": text("qrels.txt")},
                          [{"name": "tied.txt", "text": tie(text("run-bm25.txt"), set(queries[:30]))},
                           {"name": "run-densa.txt", "text": text("run-densa.txt")}], "nDCG@10")
    [shown] = view["warnings"]  # tied in most queries: 30 of 40
    assert shown["code"] == "run_scores_tied" and shown["text"].startswith(
        "«tied.txt»: en 30 de sus 40 consultas («q01», «q02», «q03», «q04», «q05», …) todos los documentos tienen la "
        "misma puntuación. Esas clasificaciones se ordenan por identificador de documento, en orden descendente, "
        "como desempata trec_eval (la columna de posición se ignora)")
    assert view["comparison"]["reading"]["warning"].startswith(
        "Atención: esta comparación se apoya en datos con avisos (arriba) sobre «tied.txt»")
    half = evaluate_files({"name": "qrels.txt", "text": text("qrels.txt")},
                          [{"name": "tied.txt", "text": tie(text("run-bm25.txt"), set(queries[:20]))}], "nDCG@10")
    assert half["warnings"] == []  # tied in half the queries: not most


# --- how sure ------------------------------------------------------------------------------------


def numpy_bootstrap(deltas, resamples=200_000, seed=0):
    """An independent percentile bootstrap of the mean (numpy's generator, more resamples)."""
    import numpy as np
    values = np.asarray(deltas, dtype=float)
    rng = np.random.default_rng(seed)
    means = np.empty(resamples)
    for start in range(0, resamples, 10_000):
        picks = rng.integers(0, len(values), size=(min(10_000, resamples - start), len(values)))
        means[start:start + len(picks)] = values[picks].mean(axis=1)
    return np.percentile(means, [2.5, 97.5])


def test_ci95_of_the_sample_agrees_with_an_independent_bootstrap(capsys):
    status, out, _ = cli(capsys, SAMPLE / "qrels.txt", SAMPLE / "run-bm25.txt", SAMPLE / "run-densa.txt", "--json")
    comparison = json.loads(out)["comparison"]
    assert comparison["resamples"] >= 10_000
    for name, metric in comparison["metrics"].items():
        low, high = metric["ci95"]
        assert low <= metric["mean_delta"] <= high
        theirs = numpy_bootstrap(list(metric["per_query"].values()))
        assert abs(low - theirs[0]) < 0.01 and abs(high - theirs[1]) < 0.01, (name, (low, high), theirs)


@pytest.mark.parametrize("n, seed", [(7, 1), (60, 2), (700, 3)])
def test_ci95_agrees_with_an_independent_bootstrap_on_random_deltas(n, seed):
    rng = random.Random(seed)
    columns = [[rng.choice((0.0, 0.0, 0.25, -0.5, 1.0)) * rng.random() for _ in range(n)],
               [rng.gauss(0.05, 0.3) for _ in range(n)]]
    for (low, high), column in zip(bootstrap_intervals(columns), columns):
        theirs = numpy_bootstrap(column, resamples=100_000)
        assert abs(low - theirs[0]) < 0.01 and abs(high - theirs[1]) < 0.01


def test_ci95_is_deterministic_and_resamples_queries_with_replacement():
    deltas = [[0.1 * ((i * 7) % 11 - 4.8) for i in range(50)]]
    assert bootstrap_intervals(deltas, seed=1) == bootstrap_intervals(deltas, seed=1)
    # Two values: a resample's mean is k/n of the way from one to the other, k binomial(n, 1/2).
    [(low, high)] = bootstrap_intervals([[0.0] * 5 + [1.0] * 5], resamples=20_000)
    assert (low, high) == (0.2, 0.8)  # binomial(10, 1/2): P(k <= 1) = 1.1 %, P(k <= 2) = 5.5 %


def brute_force_p(deltas):
    """The randomization test's p over every sign vector, one by one."""
    observed = abs(math.fsum(deltas))
    vectors = list(itertools.product((1, -1), repeat=len(deltas)))
    reached = sum(abs(math.fsum(s * d for s, d in zip(signs, deltas))) >= observed - 1e-9 for signs in vectors)
    return reached / len(vectors)


@pytest.mark.parametrize("seed", range(6))
def test_exact_p_equals_full_enumeration(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 14)
    deltas = [rng.choice((0.0, 0.1, -0.2, 0.3, 1 / 3, -1 / 7, 0.5)) for _ in range(n)]
    assert exact_randomization_test(deltas) == brute_force_p([d for d in deltas if d != 0] or [0.0])


def test_exact_p_counts_ties_with_the_observed_sum():
    assert exact_randomization_test([0.1, 0.2, 0.3]) == 0.25 == brute_force_p([0.1, 0.2, 0.3])
    assert exact_randomization_test([0.1, 0.2, -0.3]) == 1.0
    assert exact_randomization_test([0.0, 0.0]) == 1.0


def test_comparison_is_exact_up_to_the_limit_and_monte_carlo_beyond():
    qrels = {f"q{i}": {"a": 1} for i in range(40)}
    good = {f"q{i}": {"a": 1.0, "b": 0.5} for i in range(40)}
    few = {f"q{i}": ({"b": 1.0, "a": 0.5} if i < 12 else {"a": 1.0}) for i in range(40)}  # 12 differ
    many = {f"q{i}": ({"b": 1.0, "a": 0.5} if i < 35 else {"a": 1.0}) for i in range(40)}  # 35 differ
    exact = compare_runs(evaluate_run(qrels, few, ["RR"]), evaluate_run(qrels, good, ["RR"])).metrics["RR"]
    assert exact.p_value_exact and exact.p_value_se == 0 and exact.p_value == 2 / 2**12
    sampled = compare_runs(evaluate_run(qrels, many, ["RR"]), evaluate_run(qrels, good, ["RR"]),
                           permutations=1000).metrics["RR"]
    assert 35 > EXACT_LIMIT and not sampled.p_value_exact
    assert sampled.p_value == randomization_test(list(sampled.deltas.values()), 1000)
    assert sampled.p_value_se == math.sqrt(sampled.p_value * (1 - sampled.p_value) / 1000)


def test_panel_shows_the_interval_and_reads_it_without_overclaiming():
    view = evaluate_files({"name": "qrels.txt", "text": text("qrels.txt")},
                          [{"name": "run-bm25.txt", "text": text("run-bm25.txt")},
                           {"name": "run-densa.txt", "text": text("run-densa.txt")}], MEASURES)
    ndcg = view["comparison"]["metrics"][0]
    low, high = ndcg["ci95"]["raw"]
    assert ndcg["ci95"]["text"] == f"[+{low:.3f}; +{high:.3f}]".replace(".", ",")
    reading = view["comparison"]["reading"]["text"]
    assert f"El intervalo de confianza del 95 % de la diferencia media de nDCG@10, {ndcg['ci95']['text']}" in reading
    assert "no incluye el 0" in reading and "No cubre otras colecciones ni otros juicios." in reading
    assert "conserva su signo en al menos el 97,5 % de los remuestreos" in reading
    assert reading.count("remuestrear") == 1  # said once, not twice in one sentence
    view = evaluate_files({"name": "qrels.txt", "text": text("qrels.txt")},
                          [{"name": "run-bm25.txt", "text": text("run-bm25.txt")},
                           {"name": "run-densa.txt", "text": text("run-densa.txt")}], "RR@10")
    low, high = view["comparison"]["metrics"][0]["ci95"]["raw"]
    assert low < 0 < high
    assert "incluye el 0: la diferencia media se anula o cambia de signo" in (
        view["comparison"]["reading"]["text"])
    assert ndcg["p_value"]["text"].count("±") == 1  # 40 non-zero deltas: estimated, with its error


# --- downloads and the query detail --------------------------------------------------------------


def stream(bridge, files):
    """What data-worker.js does: read each file Python asks for (raglab_core.runs.inputs.Reading), then finish."""
    bodies = dict(zip(("qrels", "A", "B"), files))
    while slot := bridge.next():
        bridge.feed(bodies[slot])
        bridge.end()
    assert json.loads(bridge.finish())["ok"]


@pytest.mark.parametrize("complete", [False, True])
def test_downloaded_json_is_what_the_cli_prints(upper, capsys, complete):
    status, printed, _ = cli(capsys, upper["qrels"], upper["a"], upper["b"], "--measures", MEASURES, "--json",
                             *(["--complete"] if complete else []))
    names = ["bm25-upper.txt", "run-densa.txt"]
    bridge = EvaluationBridge(json.dumps({"measures": MEASURES, "ties": "double", "qrels": "qrels.txt",
                                          "runs": names, "complete": complete}))
    stream(bridge, [upper[key].read_text() for key in ("qrels", "a", "b")])
    saved = json.loads(bridge.download("json"))
    assert saved["name"].endswith(".json") and saved["type"] == "application/json"
    page_names = [run["name"] for run in json.loads(saved["text"])["runs"]]
    downloaded = saved["text"]
    for page_name, name, placeholder in zip(page_names, names, ("RUN_A", "RUN_B")):
        downloaded = downloaded.replace(page_name, placeholder)
        printed = printed.replace(name, placeholder)
    assert downloaded == printed  # byte for byte, after the file names


def test_downloaded_csv_is_the_per_query_table():
    bridge = EvaluationBridge(json.dumps({"measures": MEASURES, "qrels": "q", "runs": ["run-bm25.txt", "run-densa.txt"]}))
    stream(bridge, [text("qrels.txt"), text("run-bm25.txt"), text("run-densa.txt")])
    saved = json.loads(bridge.download("csv"))
    rows = list(csv.reader(io.StringIO(saved["text"])))
    qrels = parse_qrels(text("qrels.txt"))
    a, b = (evaluate_run(qrels, parse_run(text(n)), MEASURES) for n in ("run-bm25.txt", "run-densa.txt"))
    names = [run["name"] for run in json.loads(json.loads(bridge.download("json"))["text"])["runs"]]
    assert rows[0] == ["query", f"{names[0]} nDCG@10", f"{names[0]} AP@100", f"{names[1]} nDCG@10",
                       f"{names[1]} AP@100", "Δ nDCG@10", "Δ AP@100"]
    assert len(rows) == 41
    for row in rows[1:]:
        qid = row[0]
        values = [*a.per_query[qid], *b.per_query[qid]]
        assert [float(cell) for cell in row[1:5]] == values
        assert [float(cell) for cell in row[5:]] == [values[2] - values[0], values[3] - values[1]]


def test_query_detail_shows_each_runs_top_ten_with_grades_and_shared_documents():
    bridge = EvaluationBridge(json.dumps({"measures": "P@5", "qrels": "q", "runs": ["bm25", "densa"]}))
    stream(bridge, [text("qrels.txt"), text("run-bm25.txt"), text("run-densa.txt")])
    qrels = parse_qrels(text("qrels.txt"))
    runs = [parse_run(text(n)) for n in ("run-bm25.txt", "run-densa.txt")]
    for qid in ("q01", "q17", "q40"):
        detail = json.loads(bridge.detail(qid))["detail"]
        tops = [trec_order(run[qid], 10) for run in runs]
        assert [[d["id"] for d in column["documents"]] for column in detail["runs"]] == tops
        for column in detail["runs"]:
            for document in column["documents"]:
                grade = qrels[qid].get(document["id"])
                assert document["grade"] == grade
                assert document["grade_text"] == ("sin juicio" if grade is None else f"grado {grade}")
                assert document["shared"] == (document["id"] in tops[0] and document["id"] in tops[1])


def test_query_detail_marks_grades_by_relevance_and_heads_each_run_with_its_value_for_the_query():
    """Issue 49 item 7: grades marked by relevance and strength (drawn by shape and weight), and each column's
    header gives the run's value of the first measure for that query, the evaluation's own number."""
    bridge = EvaluationBridge(json.dumps({"measures": "nDCG@10 RR@10", "qrels": "q", "runs": ["bm25", "densa"]}))
    stream(bridge, [text("qrels.txt"), text("run-bm25.txt"), text("run-densa.txt")])
    qrels = parse_qrels(text("qrels.txt"))
    top = max(grade for grades in qrels.values() for grade in grades.values())
    evaluations = [evaluate_run(qrels, parse_run(text(n)), "nDCG@10 RR@10") for n in ("run-bm25.txt", "run-densa.txt")]
    seen = set()
    for qid in ("q01", "q17", "q40"):
        detail = json.loads(bridge.detail(qid))["detail"]
        assert "relleno: el grado más alto de estos qrels" in detail["legend"]
        for column, evaluation in zip(detail["runs"], evaluations):
            value = evaluation.per_query[qid][0]
            assert column["value"] == value
            assert column["value_text"] == "nDCG@10 " + f"{value:.3f}".replace(".", ",")
            for document in column["documents"]:
                grade = qrels[qid].get(document["id"])
                expected = "unjudged" if grade is None else "relevant" if grade >= 1 else "not-relevant"
                assert document["relevance"] == expected
                assert (document["strength"] == 3) == (grade == top)
                assert (document["strength"] == 0) == (expected != "relevant")
                seen.add(expected)
    assert seen == {"unjudged", "relevant", "not-relevant"}  # the sample has all three


# --- encodings and column counts -----------------------------------------------------------------


def test_utf16_and_windows_1252_files_are_named_with_the_offset_of_the_first_bad_byte(tmp_path, capsys):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(text("qrels.txt"))
    powershell = tmp_path / "run-ps.txt"  # Windows PowerShell 5's `>`: UTF-16 LE with a byte order mark
    powershell.write_bytes(text("run-bm25.txt").encode("utf-16"))
    status, out, err = cli(capsys, qrels, powershell)
    assert status == 1 and out == ""
    assert "it looks like UTF-16" in err and "PowerShell" in err and "at offset 0" in err
    assert "Set-Content -Encoding utf8 run-ps-utf8.txt" in err
    latin = tmp_path / "run-1252.txt"
    body = text("run-bm25.txt").encode()
    cut = body.index(b"\n", 5000) + 1  # a bad byte far from the start, in a later chunk when read in small chunks
    latin.write_bytes(body[:cut] + "q99 Q0 café 1 0.5 x\n".encode("cp1252"))
    status, out, err = cli(capsys, qrels, latin)
    assert status == 1
    assert f"looks like Windows-1252 (Latin-1): byte 0xE9 at offset {cut + 10} is 'é'" in err
    assert "iconv -f WINDOWS-1252 -t UTF-8" in err


def test_the_page_bridge_words_the_same_diagnosis_in_spanish():
    """What data-worker.js does when the browser's decoder fails: the bytes go to Python, which says why."""
    bridge = EvaluationBridge(json.dumps({"qrels": "q.txt", "runs": ["r.txt"]}))
    assert bridge.next() == "qrels"
    chunk = "q1 0 café 1\n".encode("cp1252")
    # The decoder failed in a chunk that starts at byte 1000, whose first byte ends a character begun before.
    bridge.undecodable(json.dumps({"head": list(b"q1 0 d 1\n"), "data": list(b"\xa9" + chunk), "base": 1000, "skip": 1}))
    assert bridge.next() is None
    answer = json.loads(bridge.finish())
    assert answer["ok"] is False and answer["field"] == "qrels"
    assert answer["message"].startswith(
        "No se pudo leer «q.txt»: no es texto UTF-8; parece Windows-1252 (Latin-1): el byte 0xE9, en la posición 1009 "
        "(contando desde 0), es «é» en Windows-1252.")
    bridge = EvaluationBridge(json.dumps({"qrels": "q.txt", "runs": ["r.txt"]}))
    bridge.next(), bridge.feed("q1 0 d1 1\n"), bridge.end()
    assert bridge.next() == "A"
    bridge.undecodable(json.dumps({"head": list(b"\xff\xfeq\x001\x00"), "data": list(b"\xff\xfeq\x00"), "base": 0, "skip": 0}))
    answer = json.loads(bridge.finish())
    assert answer["field"] == "run" and "«r.txt»: no es texto UTF-8; parece UTF-16" in answer["message"]


@pytest.mark.parametrize("columns", [3, 4])
def test_a_run_whose_first_line_looks_like_qrels_gets_its_real_column_count(tmp_path, capsys, columns):
    run = tmp_path / "run.txt"
    run.write_text(" ".join(["q1", "0", "d1", "1"][:columns]) + "\n")
    status, _, err = cli(capsys, SAMPLE / "qrels.txt", run)
    assert status == 1
    assert f"this looks like a qrels file, not a run: its first line has {columns} columns" in err
