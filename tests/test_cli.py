"""The command line: python -m raglab_core eval QRELS RUN [RUN2] ..."""

import json
import math
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raglab_core.__main__ import main
from raglab_core.evaluation import evaluate_run
from raglab_core.report import build_report, compare_runs

from .conftest import ROOT
from .trec_data import qrels_lines, random_collection, run_lines, write_lines

QRELS = {"q1": {"a": 2, "b": 0, "c": 1}, "q2": {"x": 0}, "q3": {"a": 1}}
RUN = {"q1": {"a": 0.5, "b": 0.9, "c": 0.1}, "q2": {"x": 1.0}, "q4": {"a": 1.0}}
RUN2 = {"q1": {"a": 0.95, "b": 0.9, "c": 0.1}, "q2": {"x": 1.0}}


@pytest.fixture
def files(tmp_path):
    return {
        "qrels": str(write_lines(tmp_path / "qrels.txt", qrels_lines(QRELS))),
        "run": str(write_lines(tmp_path / "bm25.run", run_lines(RUN))),
        "run2": str(write_lines(tmp_path / "dense.json", [json.dumps(RUN2)])),
    }


def run_cli(capsys, *args):
    status = main(["eval", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_has_exactly_the_documented_shape(files, capsys):
    status, out, err = run_cli(capsys, files["qrels"], files["run"], "--k", "2", "--json")
    assert status == 0
    report = json.loads(out)
    assert list(report) == ["k", "umbral", "gain", "runs", "comparison"]
    assert (report["k"], report["umbral"], report["gain"], report["comparison"]) == (2, 1, "exponential", None)
    [run] = report["runs"]
    assert list(run) == ["name", "queries", "mean", "per_query"]
    assert run["name"] == "bm25.run" and run["queries"] == 2
    assert list(run["mean"]) == ["precision", "recall", "mrr", "ndcg"]
    assert list(run["per_query"]) == ["q1", "q2"]
    # q1 ranks b, a (k=2): one relevant of two judged relevant, at rank 2.
    ndcg_q1 = (3 / math.log2(3)) / (3 + 1 / math.log2(3))
    assert run["per_query"]["q1"] == {"precision": 0.5, "recall": 0.5, "mrr": 0.5, "ndcg": pytest.approx(ndcg_q1)}
    # q2 is judged but holds no relevant document: recall and nDCG are undefined -> null, 0 in the means.
    assert run["per_query"]["q2"] == {"precision": 0.0, "recall": None, "mrr": 0.0, "ndcg": None}
    assert run["mean"] == {"precision": 0.25, "recall": 0.25, "mrr": 0.25, "ndcg": pytest.approx(ndcg_q1 / 2)}
    assert "null" in out and "NaN" not in out
    assert "q4" in err and "q3" in err  # skipped queries are noted on stderr, not in the JSON


def test_json_comparison_block(files, capsys):
    status, out, _ = run_cli(capsys, files["qrels"], files["run"], files["run2"], "--k", "2", "--json", "--permutations", "500")
    assert status == 0
    report = json.loads(out)
    assert [run["name"] for run in report["runs"]] == ["bm25.run", "dense.json"]
    comparison = report["comparison"]
    assert list(comparison) == ["baseline", "candidate", "queries", "test", "permutations", "seed", "metrics"]
    assert (comparison["baseline"], comparison["candidate"], comparison["queries"]) == ("bm25.run", "dense.json", 2)
    assert (comparison["permutations"], comparison["seed"]) == (500, 42)
    assert list(comparison["metrics"]) == ["precision", "recall", "mrr", "ndcg"]
    mrr = comparison["metrics"]["mrr"]
    assert list(mrr) == ["mean_delta", "wins", "ties", "losses", "p_value", "per_query"]
    assert mrr["per_query"] == {"q1": 0.5, "q2": 0.0}  # dense ranks a first on q1: 1 - 1/2
    assert (mrr["wins"], mrr["ties"], mrr["losses"], mrr["mean_delta"]) == (1, 1, 0, 0.25)
    assert mrr["p_value"] == 1.0  # one non-zero delta: both signs reach |0.5|


def test_json_values_equal_the_library_on_a_random_collection(tmp_path, capsys):
    qrels, run_a, run_b = random_collection(seed=3, queries=60)
    paths = [write_lines(tmp_path / "q", qrels_lines(qrels)), write_lines(tmp_path / "a", run_lines(run_a)),
             write_lines(tmp_path / "b", run_lines(run_b))]
    status, out, _ = run_cli(capsys, *map(str, paths), "--k", "5", "--umbral", "2", "--gain", "linear", "--complete",
                             "--json", "--permutations", "1000", "--seed", "7")
    assert status == 0
    report = json.loads(out)
    first, second = (evaluate_run(qrels, run, 5, 2, "linear", complete=True) for run in (run_a, run_b))
    assert report["runs"][0]["queries"] == len(qrels)
    assert report["runs"][0]["mean"] == first.mean._asdict()
    assert report["runs"][1]["per_query"] == {q: s._asdict() for q, s in second.per_query.items()}
    expected = compare_runs(first, second, permutations=1000, seed=7)
    assert report["comparison"]["metrics"]["ndcg"]["p_value"] == expected.metrics["ndcg"].p_value


def test_table_output_with_per_query_rows_and_comparison(files, capsys):
    status, out, _ = run_cli(capsys, files["qrels"], files["run"], files["run2"], "--k", "2", "-q", "--permutations", "500")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "k=2  umbral=1  gain=exponential"
    assert "bm25.run" in lines and "dense.json" in lines
    header = lines[lines.index("bm25.run") + 1]
    assert header.split() == ["query", "P@2", "R@2", "MRR@2", "nDCG@2"]
    q2 = next(line for line in lines if line.startswith("q2 "))
    assert q2.split() == ["q2", "0.0000", "n/a", "0.0000", "n/a"]
    assert len(q2) == len(header)  # right-aligned columns end together
    means = lines[lines.index("run         queries     P@2     R@2   MRR@2  nDCG@2") + 1]
    assert means.split()[:4] == ["bm25.run", "2", "0.2500", "0.2500"]
    assert "dense.json - bm25.run (baseline) over 2 paired queries;" in out
    mrr = next(line for line in lines if line.startswith("MRR@2"))
    assert mrr.split() == ["MRR@2", "+0.2500", "1", "1", "0", "1.0000"]


def test_without_q_only_means_are_printed(files, capsys):
    _, out, _ = run_cli(capsys, files["qrels"], files["run"])
    assert "q1" not in out and "bm25.run" in out and "P@10" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--k", "0"], "argument --k: must be an integer >= 1, got 0"),
        (["--umbral", "x"], "argument --umbral: 'x' is not an integer"),
        (["--gain", "log"], "argument --gain: invalid choice: 'log'"),
    ],
)
def test_bad_options_exit_2_with_a_message(files, capsys, args, message):
    with pytest.raises(SystemExit) as caught:
        main(["eval", files["qrels"], files["run"], *args])
    out, err = capsys.readouterr()
    assert caught.value.code == 2 and message in err and out == ""


def test_a_missing_file_exits_2(files, capsys):
    status, out, err = run_cli(capsys, files["qrels"], "/nonexistent/run.txt")
    assert status == 2 and out == ""
    assert "cannot read /nonexistent/run.txt: No such file or directory" in err


def test_malformed_files_exit_1_and_every_bad_file_is_reported_in_english(tmp_path, files, capsys):
    bad_qrels = write_lines(tmp_path / "bad_qrels.txt", ["q1 0 a 1\n", "q1 0 b maybe\n"])
    bad_run = write_lines(tmp_path / "bad_run.txt", ["q1 Q0 a 1 0.5 t\n", "q1 Q0 b 2 inf t\n"])
    status, out, err = run_cli(capsys, str(bad_qrels), str(bad_run), files["run2"], "--json")
    assert status == 1 and out == ""
    assert err.splitlines() == [
        f"error: {bad_qrels}, line 2: relevance 'maybe' is not an integer",
        f"error: {bad_run}, line 2: score 'inf' is not a finite number",
    ]


def test_swapped_files_are_named(files, capsys):
    status, out, err = run_cli(capsys, files["run"], files["qrels"])
    assert status == 1 and out == ""
    assert "bm25.run, line 1: this looks like a run file" in err
    assert "qrels.txt, line 1: this looks like a qrels file" in err


def test_non_utf8_input_exits_1(tmp_path, files, capsys):
    latin = tmp_path / "latin.run"
    latin.write_bytes("q1 Q0 caf\xe9 1 0.5 t\n".encode("latin-1"))
    status, out, err = run_cli(capsys, files["qrels"], str(latin))
    assert status == 1 and out == "" and "not UTF-8 text" in err


def test_real_module_invocation_and_help(files):
    command = [sys.executable, "-m", "raglab_core"]
    bare = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert bare.returncode == 0 and "eval" in bare.stdout and "usage: python -m raglab_core" in bare.stdout
    done = subprocess.run([*command, "eval", files["qrels"], files["run"], "--json"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0 and json.loads(done.stdout)["runs"][0]["queries"] == 2
    usage = subprocess.run([*command, "eval", files["qrels"]], cwd=ROOT, capture_output=True, text=True)
    assert usage.returncode == 2 and "the following arguments are required: RUN" in usage.stderr


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.integers(1, 12),
    umbral=st.integers(1, 3),
    gain=st.sampled_from(["exponential", "linear"]),
    complete=st.booleans(),
    two_runs=st.booleans(),
)
def test_the_real_command_prints_the_in_process_report(tmp_path_factory, seed, k, umbral, gain, complete, two_runs):
    """``python -m raglab_core eval ... --json`` equals report.build_report on random collections."""
    qrels, run_a, run_b = random_collection(seed, queries=12, max_docs=15, only_run=2, only_qrels=2)
    folder = tmp_path_factory.mktemp("collection")
    paths = [write_lines(folder / "qrels.txt", qrels_lines(qrels)), write_lines(folder / "a.run", run_lines(run_a))]
    runs = [("a.run", run_a)]
    if two_runs:
        paths.append(write_lines(folder / "b.json", [json.dumps(run_b)]))
        runs.append(("b.json", run_b))
    options = ["--k", str(k), "--umbral", str(umbral), "--gain", gain, "--permutations", "200", "--seed", str(seed)]
    command = [sys.executable, "-m", "raglab_core", "eval", *map(str, paths), *options, "--json"]
    if complete:
        command.append("--complete")
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    expected, _, _ = build_report(qrels, runs, k, umbral, gain, complete, permutations=200, seed=seed)
    assert json.loads(done.stdout) == json.loads(json.dumps(expected))
