"""The lab in a second engine: Firefox ESR boots from the snapshot and computes what CPython computes; «Tus datos»
with four runs, a fused one among them, shows the CLI's lettered table (issue 37); and the judging page keeps its
grades across a reload (issue 51)."""

import json
import subprocess
import sys

import pytest

from raglab_core import compute
from raglab_core.runs.evaluation import trec_order
from raglab_core.runs.report import beaten
from raglab_core.runs.trec import parse_run

from ..conftest import ROOT, load_scenario
from ..support.firefox import HOW_TO_GET_ONE, find_firefox
from ..support.commands import cli
from ..support.lab_page import OUTPUT_NAMES


def raw_outputs(view, names):
    return {name: view["outputs"][name]["raw"] for name in names}


SAMPLE = ROOT / "site_src" / "data" / "sample"


def test_firefox_boots_from_the_snapshot_and_matches_cpython(base_url, tmp_path):
    firefox = find_firefox()
    if not firefox:
        pytest.fail(HOW_TO_GET_ONE)
    # «Tus datos» too, in the same page: the sample's two runs pasted, and RRF(a, b) (issue 37).
    files = [SAMPLE / "qrels.txt", SAMPLE / "run-bm25.txt", SAMPLE / "run-densa.txt"]
    data = tmp_path / "data.json"
    # and a judge's qrels beside them (issue 50): the sample's, one grade up on every third line
    judge = tmp_path / "judge.txt"
    judge.write_text("".join(f"{q} 0 {d} {min(3, int(g) + (i % 3 == 0))}\n" for i, (q, _, d, g) in
                             enumerate(line.split() for line in files[0].read_text().splitlines())))
    data.write_text(json.dumps({"qrels": files[0].read_text(), "runs": [path.read_text() for path in files[1:]],
                                "judge": judge.read_text(), "measures": "nDCG@10", "corpus": {"sweep": "256:32 512:64"},
                                "judging": True}))
    corpus = ROOT / "site_src" / "data" / "corpus"  # «Tu corpus» too (issue 39): the CLI's numbers, while Firefox runs
    chunks = subprocess.Popen([sys.executable, "-m", "raglab_core", "chunks", str(corpus / "state_of_the_union.md"), "-",
                               "--spans", str(corpus / "questions_df.csv"), "--sweep", "256:32 512:64", "--json"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    result = subprocess.run(
        ["node", str(ROOT / "tests" / "browser" / "firefox.mjs"), firefox, base_url + "?k=4&umbral=1", str(data)],
        capture_output=True, text=True, timeout=240, cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    shown = json.loads(result.stdout.strip().splitlines()[-1])
    scenario = load_scenario()
    assert shown["before"]["boot"] == "snapshot"
    names = set(shown["before"]["outputs"])
    assert names >= set(OUTPUT_NAMES)
    assert shown["before"]["outputs"] == raw_outputs(compute({"scenario": scenario, "k": "4", "umbral": "1"}), names)
    assert shown["after"]["k"] == "5"
    assert shown["after"]["outputs"] == raw_outputs(compute({"scenario": scenario, "k": "5", "umbral": "1"}), names)
    assert shown["problems"] == []

    many = shown["data"]
    fused = tmp_path / "RRF(a, b)"
    fused.write_text(cli("fuse", files[1], files[2], "--method", "rrf"))
    report = json.loads(cli("eval", *files, fused, "--measures", "nDCG@10", "--json"))
    assert many["names"] == ["a run A (texto pegado)", "b run B (texto pegado)", "c RRF(a, b)"]
    wins = beaten(report)["nDCG@10"]
    assert many["means"] == [[[run["mean"]["nDCG@10"], "".join("abc"[j] for j in wins[i])]]
                             for i, run in enumerate(report["runs"])]
    assert [pair for pair, _ in many["pairs"]] == ["a-b", "a-c", "b-c"]
    for (_, cells), compared in zip(many["pairs"], report["comparisons"]):
        result = compared["metrics"]["nDCG@10"]
        assert cells == {"nDCG@10": [result["mean_delta"], result["p_value"], result["p_value_adjusted"]]}
    assert many["reading"].startswith("En nDCG@10, «RRF(a, b)» (c) supera a cada uno de los otros 2 runs")  # beats all
    assert "el mejor" not in many["reading"]
    runs = [parse_run(path.read_text()) for path in [*files[1:], fused]]
    assert many["detail"]["columns"] == [trec_order(run["q07"], 10) for run in runs]
    assert many["detail"]["scrolls"] and many["detail"]["pageWidth"] <= 390
    labels = json.loads(cli("agree", files[0], judge, "--json"))["labels"]
    assert {name: float(value) for name, value in many["agreement"].items()} == {
        "pairs": labels["n"], "exact": labels["exact"], "kappa": labels["kappa"], "pabak": labels["binary"][0]["pabak"],
        "bias": labels["bias"]["mean"], **{name: labels[name] for name in ("kappa_linear", "kappa_quadratic",
                                                                          "alpha_ordinal", "alpha_interval")}}

    # The judging page (issue 51) at 390 px: the sample job, two grades by key, a reload resumes at the next pair.
    judged = shown["judging"]
    assert judged["progress"] == ["2", "20"] and judged["resumed"] == judged["next"]
    assert len({tuple(pair) for pair in judged["pairs"]}) == 2 and judged["pageWidth"] <= 390

    measured = json.loads(chunks.communicate(timeout=120)[0])
    shown = shown["corpus"]
    assert [name for name, _ in shown["rows"]] == ["256:32", "512:64"] and shown["points"] == 2
    for (_, cells), config in zip(shown["rows"], measured["configs"]):
        assert len(cells) == 13 and cells == {measure: config["mean"][measure] for measure in cells}
    assert shown["pageWidth"] <= 390
