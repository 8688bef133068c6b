"""python -m raglab_core agree REFERENCE JUDGE [RUN ...]: the JSON's shape (DESIGN §4.12) and its values against the
judges (scikit-learn, krippendorff, scipy, and `eval --json` for the means and the Holm-adjusted p-values), the
warnings, and the files as `eval` reads them (gzip, malformed lines named)."""

import gzip
import json
import math
import os
import random
import warnings

import krippendorff
import numpy as np
import pytest
from scipy.stats import kendalltau, spearmanr
from sklearn.metrics import cohen_kappa_score

from raglab_core.__main__ import main
from raglab_core.runs.evaluation import evaluate_run

from tests.support.trec_data import qrels_lines, run_lines, write_lines

MEASURES = "nDCG@10 P@5"
TOLERANCE = 1e-9


def collection(seed=11, queries=30, docs=12):
    """Reference grades 0..3; a lenient judge (one grade up a third of the time, sometimes off by one) that skips
    a few pairs and judges a few the reference does not; four runs of different quality."""
    rng = random.Random(seed)
    reference, judge, runs = {}, {}, [{} for _ in range(4)]
    for q in range(queries):
        qid = f"q{q}"
        grades = {f"d{d}": rng.choice([0, 0, 0, 1, 1, 2, 3]) for d in range(docs)}
        reference[qid] = grades
        judge[qid] = {doc: min(3, max(0, g + rng.choice([0, 0, 1, 1, -1]))) for doc, g in grades.items()
                      if rng.random() > 0.05}
        judge[qid][f"extra{q}"] = rng.randint(0, 3)
        for quality, run in zip((0.9, 0.6, 0.3, 0.0), runs):
            run[qid] = {doc: quality * g + rng.random() for doc, g in grades.items()}
    return reference, judge, runs


@pytest.fixture
def files(tmp_path):
    reference, judge, runs = collection()
    paths = {"reference": write_lines(tmp_path / "people.txt", qrels_lines(reference))}
    with gzip.open(tmp_path / "llm.txt.gz", "wt") as handle:  # gzipped, as eval reads it
        handle.writelines(qrels_lines(judge))
    paths["judge"] = tmp_path / "llm.txt.gz"
    paths["runs"] = [str(write_lines(tmp_path / f"run{i}.txt", run_lines(run))) for i, run in enumerate(runs)]
    return {key: value if key == "runs" else str(value) for key, value in paths.items()}, reference, judge


def agree(capsys, *args):
    status = main(["agree", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def sk(a, b, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = cohen_kappa_score(a, b, **options)
    return None if math.isnan(value) else float(value)


def test_the_json_has_the_contracts_shape_and_the_judges_values(files, capsys):
    paths, reference, judge = files
    status, out, err = agree(capsys, paths["reference"], paths["judge"], *paths["runs"], "--measures", MEASURES,
                             "--json")
    assert status == 0, err
    report = json.loads(out)
    assert list(report) == ["reference", "judge", "pairs", "labels", "per_query", "systems", "warnings"]
    assert report["reference"] == {"file": "people.txt", "pairs": 360, "queries": 30, "max": 3, "clipped": 0}
    assert set(report["judge"]) == {"file", "pairs", "queries", "max", "clipped"}
    assert report["judge"]["file"] == "llm.txt.gz"
    labels = report["labels"]
    assert list(labels) == ["n", "confusion", "exact", "kappa", "kappa_ci95", "kappa_linear", "kappa_quadratic",
                            "alpha_ordinal", "alpha_interval", "binary", "bias"]
    shared = [(qid, doc) for qid in sorted(reference) for doc in sorted(reference[qid]) if doc in judge[qid]]
    a = [reference[q][d] for q, d in shared]
    b = [judge[q][d] for q, d in shared]
    assert report["pairs"] == {"both": len(shared), "reference_only": 360 - len(shared), "judge_only": 30}
    assert labels["n"] == len(shared)
    assert labels["confusion"] == [[sum(1 for x, y in zip(a, b) if (x, y) == (r, j)) for j in range(4)]
                                   for r in range(4)]
    assert labels["exact"] == pytest.approx(np.mean(np.array(a) == np.array(b)), abs=TOLERANCE)
    assert labels["kappa"] == pytest.approx(sk(a, b), abs=TOLERANCE)
    for weights in ("linear", "quadratic"):
        assert labels[f"kappa_{weights}"] == pytest.approx(sk(a, b, labels=range(4), weights=weights), abs=TOLERANCE)
    for level in ("ordinal", "interval"):
        assert labels[f"alpha_{level}"] == pytest.approx(
            krippendorff.alpha(np.array([a, b]), value_domain=range(4), level_of_measurement=level), abs=TOLERANCE)
    low, high = labels["kappa_ci95"]
    assert low < labels["kappa"] < high and high - low < 0.2
    assert len(labels["binary"]) == 9
    first = labels["binary"][0]
    assert list(first) == ["reference_threshold", "judge_threshold", "table", "exact", "kappa", "pabak", "ac1",
                           "reference_rate", "judge_rate"]
    x, y = [int(g >= 1) for g in a], [int(g >= 1) for g in b]
    assert first["kappa"] == pytest.approx(sk(x, y), abs=TOLERANCE)
    differences = np.array(b) / 3 - np.array(a) / 3
    assert labels["bias"]["mean"] == pytest.approx(differences.mean(), abs=TOLERANCE)
    assert labels["bias"]["sd"] == pytest.approx(differences.std(ddof=1), abs=TOLERANCE)
    q0 = [(reference["q0"][d], judge["q0"][d]) for d in sorted(reference["q0"]) if d in judge["q0"]]
    assert report["per_query"]["q0"] == {"n": len(q0), "exact": pytest.approx(np.mean([r == j for r, j in q0])),
                                         "kappa": pytest.approx(sk(*zip(*q0)), abs=TOLERANCE)}
    # systems: the means eval gives under either qrels, the order's correlations as scipy, Holm's p as eval's
    systems = report["systems"]
    assert list(systems) == ["runs", "reference_means", "judge_means", "agreement"]
    assert systems["runs"] == ["run0.txt", "run1.txt", "run2.txt", "run3.txt"]
    evaluated = {}
    for side in ("reference", "judge"):
        assert main(["eval", paths[side], *paths["runs"], "--measures", MEASURES, "--json"]) == 0
        evaluated[side] = json.loads(capsys.readouterr().out)
        for run in evaluated[side]["runs"]:
            assert systems[f"{side}_means"][run["name"]] == run["mean"]
    for measure, agreement in systems["agreement"].items():
        ours = [systems["reference_means"][name][measure] for name in systems["runs"]]
        theirs = [systems["judge_means"][name][measure] for name in systems["runs"]]
        assert agreement["kendall_tau_b"] == pytest.approx(kendalltau(ours, theirs).statistic, abs=TOLERANCE)
        assert agreement["spearman"] == pytest.approx(spearmanr(ours, theirs).statistic, abs=TOLERANCE)
        assert -1 <= agreement["tau_ap"] <= 1
        pairs = {(c["baseline"], c["candidate"]): c["metrics"][measure]["p_value_adjusted"]
                 for c in evaluated["reference"]["comparisons"]}
        for flip in agreement["flips"]:
            assert flip["p_value_adjusted"] == pairs[(flip["baseline"], flip["candidate"])]
            assert flip["reference_delta"] * flip["judge_delta"] < 0
    codes = [warning["code"] for warning in report["warnings"]]
    assert codes == ["pairs_one_side", "judge_lenient"]
    assert err.splitlines()[0].startswith("warning: Pairs judged on one side only: ")
    assert report["warnings"][1]["low"] > 0


def test_the_text_output_leads_with_the_files_and_tables(files, capsys):
    paths, _, _ = files
    status, out, err = agree(capsys, paths["reference"], paths["judge"], paths["runs"][0], "--measures", MEASURES)
    assert status == 0
    assert out.startswith("qrels ") and "Cohen's kappa" in out and "confusion (rows: reference grade" in out
    assert "the runs' order under the judge" in out
    assert [line.split(":")[0] for line in err.splitlines()] == ["warning"] * 3
    assert "Only 1 run" in err


@pytest.mark.parametrize("reference, judge, options, codes", [
    # the kappa paradox: 90 % relevant (not above 90 %), a judge that says 1 to everything (100 %: above)
    ([1] * 18 + [0] * 2, [1] * 20, [], ["kappa_single_label", "base_rate_high", "few_pairs"]),
    ([1] * 5, [1] * 5, [], ["kappa_undefined", "base_rate_high", "base_rate_high", "few_pairs"]),
    ([0, 1, 2, 1, 0], [0, 1, 1, 3, 0], ["--judge-max", "2"], ["grades_clipped", "few_pairs", "kappa_interval_wide"]),
    ([0, 1, 2, 1, 0], [0, 1, 1, 1, 0], [], ["scales_differ", "few_pairs", "kappa_interval_wide"]),
])
def test_the_warnings_come_with_stable_codes(tmp_path, capsys, reference, judge, options, codes):
    ours = write_lines(tmp_path / "r.txt", [f"q{i % 3} 0 d{i} {g}\n" for i, g in enumerate(reference)])
    theirs = write_lines(tmp_path / "j.txt", [f"q{i % 3} 0 d{i} {g}\n" for i, g in enumerate(judge)])
    status, out, err = agree(capsys, ours, theirs, "--json", *options)
    assert status == 0
    report = json.loads(out)
    assert [warning["code"] for warning in report["warnings"]] == codes
    assert err.count("warning: ") == len(codes)
    if "kappa_undefined" in codes:
        assert report["labels"]["kappa"] is None
    if "scales_differ" in codes:
        assert [report["labels"][key] for key in ("kappa_linear", "kappa_quadratic", "alpha_ordinal",
                                                  "alpha_interval")] == [None] * 4
    if "kappa_single_label" in codes:
        assert report["labels"]["kappa"] == 0.0 and report["labels"]["exact"] == 0.9
        assert report["warnings"][0]["side"] == "judge"


def test_a_malformed_file_is_named_with_its_line_and_nothing_is_printed(tmp_path, capsys):
    ours = write_lines(tmp_path / "r.txt", ["q1 0 a 1\n", "q1 0 b x\n"])
    theirs = write_lines(tmp_path / "j.txt", ["q1 0 a 1\n"])
    status, out, err = agree(capsys, ours, theirs)
    assert status == 1 and out == ""
    assert err == f"error: {ours}, line 2: relevance 'x' is not an integer in ASCII digits\n"
    status, out, err = agree(capsys, tmp_path / "missing.txt", theirs)
    assert status == 2 and "cannot read" in err


def test_the_command_line_takes_any_number_of_runs(tmp_path, capsys):
    """Issue 50: 14 runs (the page keeps 12), on 5 queries (the randomization test is then exact and cheap).
    The means are eval's evaluation under either qrels, the runs past L keep their names, and τ-b is scipy's."""
    reference, judge, _ = collection(seed=5, queries=5, docs=8)
    rng = random.Random(7)
    runs = [{qid: {doc: quality * g + rng.random() for doc, g in grades.items()} for qid, grades in reference.items()}
            for quality in [i / 13 for i in range(14)]]
    paths = {"reference": str(write_lines(tmp_path / "people.txt", qrels_lines(reference))),
             "judge": str(write_lines(tmp_path / "llm.txt", qrels_lines(judge)))}
    files = [str(write_lines(tmp_path / f"run{i:02d}.txt", run_lines(run))) for i, run in enumerate(runs)]
    status, out, err = agree(capsys, paths["reference"], paths["judge"], *files, "--measures", "P@5", "--json")
    assert status == 0, err
    systems = json.loads(out)["systems"]
    assert systems["runs"] == [f"run{i:02d}.txt" for i in range(14)]
    for side, qrels in (("reference", reference), ("judge", judge)):  # eval's evaluation (eval --json: above)
        assert [systems[f"{side}_means"][name]["P@5"] for name in systems["runs"]] == [
            evaluate_run(qrels, run, "P@5").mean[0] for run in runs]
    ours = [systems["reference_means"][name]["P@5"] for name in systems["runs"]]
    theirs = [systems["judge_means"][name]["P@5"] for name in systems["runs"]]
    assert systems["agreement"]["P@5"]["kendall_tau_b"] == pytest.approx(kendalltau(ours, theirs).statistic,
                                                                         abs=TOLERANCE)
    assert ours[13] > ours[0]  # the best run is the last, past the page's twelve


def test_a_stream_that_cannot_be_rewound_is_named(tmp_path, capsys):
    """bash's <(...) gives a path like /dev/fd/63 to a pipe: its OSError names no file (it said «cannot read
    None»). The path is named, and why it cannot be read."""
    if not os.path.isdir("/dev/fd"):
        pytest.skip("no /dev/fd")
    ours = write_lines(tmp_path / "r.txt", ["q1 0 a 1\n", "q1 0 b 0\n"])
    read, write = os.pipe()
    try:
        os.write(write, b"q1 0 a 1\nq1 0 b 1\n")
        os.close(write)
        status, out, err = agree(capsys, ours, f"/dev/fd/{read}")
    finally:
        os.close(read)
    assert status == 2 and out == ""
    assert err == (f"python -m raglab_core agree: error: cannot read /dev/fd/{read}: a stream, not a file (as a "
                   "pipe or bash's <(...) gives), and it must be read from its start again: save it to a file first\n")
