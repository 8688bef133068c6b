"""The command line: python -m raglab_core eval QRELS RUN [RUN2] ..."""

import json
import math
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raglab_core.__main__ import main
from raglab_core.runs.evaluation import evaluate_run
from raglab_core.runs.measures import lab_measures
from raglab_core.runs.report import build_report
from raglab_core.runs.comparison import compare_runs

from tests.conftest import ROOT
from tests.support.trec_data import qrels_lines, random_collection, run_lines, write_lines

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


LAB2 = ["P@2", "R@2", "RR@2", "nDCG(dcg='exp-log2')@2"]


def test_json_has_exactly_the_documented_shape(files, capsys):
    status, out, err = run_cli(capsys, files["qrels"], files["run"], "--k", "2", "--json")
    assert status == 0
    report = json.loads(out)
    assert list(report) == ["measures", "ties", "complete", "runs", "comparison", "warnings"]
    assert (report["measures"], report["ties"], report["complete"], report["comparison"]) == (LAB2, "double", False, None)
    assert [warning["code"] for warning in report["warnings"]] == ["queries_missing_from_run", "queries_without_relevant"]
    [run] = report["runs"]
    assert list(run) == ["name", "queries", "mean", "per_query"]
    assert run["name"] == "bm25.run" and run["queries"] == 2
    assert list(run["mean"]) == LAB2
    assert list(run["per_query"]) == ["q1", "q2"]
    # q1 ranks b, a (k=2): one relevant of two judged relevant, at rank 2.
    ndcg_q1 = (3 / math.log2(3)) / (3 + 1 / math.log2(3))
    assert run["per_query"]["q1"] == dict(zip(LAB2, [0.5, 0.5, 0.5, pytest.approx(ndcg_q1)]))
    # q2 is judged but holds no relevant document: recall and nDCG are undefined -> null, 0 in the means.
    assert run["per_query"]["q2"] == dict(zip(LAB2, [0.0, None, 0.0, None]))
    assert run["mean"] == dict(zip(LAB2, [0.25, 0.25, 0.25, pytest.approx(ndcg_q1 / 2)]))
    assert "null" in out and "NaN" not in out
    assert "q4" in err and "q3" in err  # skipped queries are noted on stderr, not in the JSON


def test_json_keys_are_the_names_ir_measures_prints(files, capsys):
    import ir_measures

    asked = "NDCG@5 MRR@10 P(rel=2)@1 nDCG(dcg=\"exp-log2\")@3 MAP Recall@100 Success@10 Judged@10 RR"
    status, out, _ = run_cli(capsys, files["qrels"], files["run"], "--measures", asked, "--json")
    assert status == 0, out
    printed = [str(ir_measures.parse_measure(name)) for name in asked.split()]
    report = json.loads(out)
    assert report["measures"] == list(report["runs"][0]["mean"]) == list(report["runs"][0]["per_query"]["q1"]) == printed


def test_default_measures(files, capsys):
    status, out, _ = run_cli(capsys, files["qrels"], files["run"], "--json")
    assert status == 0 and json.loads(out)["measures"] == ["nDCG@10", "R@100", "RR@10", "Success@10", "AP@100", "Judged@10"]


def test_json_comparison_block(files, capsys):
    status, out, _ = run_cli(capsys, files["qrels"], files["run"], files["run2"], "--k", "2", "--json", "--permutations", "500")
    assert status == 0
    report = json.loads(out)
    assert [run["name"] for run in report["runs"]] == ["bm25.run", "dense.json"]
    comparison = report["comparison"]
    assert list(comparison) == [
        "baseline", "candidate", "queries", "test", "permutations", "seed", "interval", "resamples", "metrics",
    ]
    assert (comparison["baseline"], comparison["candidate"], comparison["queries"]) == ("bm25.run", "dense.json", 2)
    assert (comparison["permutations"], comparison["seed"]) == (500, 42)
    assert list(comparison["metrics"]) == LAB2
    rr = comparison["metrics"]["RR@2"]
    assert list(rr) == [
        "mean_delta", "ci95", "wins", "ties", "losses", "p_value", "p_value_adjusted", "p_value_exact", "p_value_se",
        "per_query",
    ]
    assert rr["p_value_adjusted"] == rr["p_value"]  # one pair: Holm changes nothing
    assert rr["per_query"] == {"q1": 0.5, "q2": 0.0}  # dense ranks a first on q1: 1 - 1/2
    assert (rr["wins"], rr["ties"], rr["losses"], rr["mean_delta"]) == (1, 1, 0, 0.25)
    assert rr["p_value"] == 1.0 and rr["p_value_exact"]  # one non-zero delta: both signs reach |0.5|
    assert rr["ci95"] == [0.0, 0.5]  # resamples of (0.5, 0): means 0, 0.25 or 0.5


def test_json_values_equal_the_library_on_a_random_collection(tmp_path, capsys):
    qrels, run_a, run_b = random_collection(seed=3, queries=60)
    paths = [write_lines(tmp_path / "q", qrels_lines(qrels)), write_lines(tmp_path / "a", run_lines(run_a)),
             write_lines(tmp_path / "b", run_lines(run_b))]
    measures = "P(rel=2)@5 R(rel=2)@5 RR(rel=2)@5 nDCG@5 AP Judged@3"
    status, out, _ = run_cli(capsys, *map(str, paths), "--measures", measures, "--complete", "--ties", "float32",
                             "--json", "--permutations", "1000", "--seed", "7")
    assert status == 0
    report = json.loads(out)
    first, second = (evaluate_run(qrels, run, measures, ties="float32", complete=True) for run in (run_a, run_b))
    assert report["runs"][0]["queries"] == len(qrels)
    assert report["runs"][0]["mean"] == dict(zip(first.names, first.mean))
    assert report["runs"][1]["per_query"] == {q: dict(zip(second.names, s)) for q, s in second.per_query.items()}
    expected = compare_runs(first, second, permutations=1000, seed=7)
    assert report["comparison"]["metrics"]["nDCG@5"]["p_value"] == expected.metrics["nDCG@5"].p_value


def test_table_output_with_per_query_rows_and_comparison(files, capsys):
    status, out, _ = run_cli(capsys, files["qrels"], files["run"], files["run2"], "--k", "2", "-q", "--permutations", "500")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "ties=double"
    assert "bm25.run" in lines and "dense.json" in lines
    header = lines[lines.index("bm25.run") + 1]
    assert header.split() == ["query", *LAB2]
    q2 = next(line for line in lines if line.startswith("q2 "))
    assert q2.split() == ["q2", "0.0000", "n/a", "0.0000", "n/a"]
    assert len(q2) == len(header)  # right-aligned columns end together
    means = next(line for line in lines if line.startswith("bm25.run "))
    assert means.split()[:4] == ["bm25.run", "2", "0.2500", "0.2500"]
    assert "dense.json - bm25.run (baseline) over 2 paired queries;" in out
    rr = next(line for line in lines if line.startswith("RR@2"))
    assert rr.split() == ["RR@2", "+0.2500", "[+0.0000,", "+0.5000]", "1", "1", "0", "1.0000", "(exact)"]


def test_without_q_only_means_are_printed(files, capsys):
    _, out, _ = run_cli(capsys, files["qrels"], files["run"])
    assert "q1" not in out and "bm25.run" in out and "nDCG@10" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--k", "0"], "argument --k: must be an integer >= 1, got 0"),
        (["--umbral", "x"], "argument --umbral: 'x' is not an integer"),
        (["--gain", "log"], "argument --gain: invalid choice: 'log'"),
        (["--ties", "float16"], "argument --ties: invalid choice: 'float16'"),
        (["--measures", "nDCG@10 ERR@20"], "Unsupported measure: 'ERR@20'. Supported: P@k, P(rel=r)@k, R@k, RR, RR@k"),
        (["--measures", "P"], "'P': P needs a cut-off, e.g. P@10."),
        (["--measures", "P@5", "--k", "5"], "--measures cannot be combined with --k, --umbral or --gain"),
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


def test_a_stream_that_cannot_be_rewound_is_named(files, capsys):
    """bash's <(...) gives a path like /dev/fd/63 to a pipe: its OSError names no file (it said «cannot read
    None»). The path is named, and why it cannot be read."""
    if not os.path.isdir("/dev/fd"):
        pytest.skip("no /dev/fd")
    read, write = os.pipe()
    try:
        os.write(write, b"q1 Q0 a 1 1.0 run\n")
        os.close(write)
        status, out, err = run_cli(capsys, files["qrels"], f"/dev/fd/{read}")
    finally:
        os.close(read)
    assert status == 2 and out == ""
    assert err == (f"python -m raglab_core eval: error: cannot read /dev/fd/{read}: a stream, not a file (as a "
                   "pipe or bash's <(...) gives), and it must be read from its start again: save it to a file first\n")


def test_malformed_files_exit_1_and_every_bad_file_is_reported_in_english(tmp_path, files, capsys):
    bad_qrels = write_lines(tmp_path / "bad_qrels.txt", ["q1 0 a 1\n", "q1 0 b maybe\n"])
    bad_run = write_lines(tmp_path / "bad_run.txt", ["q1 Q0 a 1 0.5 t\n", "q1 Q0 b 2 inf t\n"])
    status, out, err = run_cli(capsys, str(bad_qrels), str(bad_run), files["run2"], "--json")
    assert status == 1 and out == ""
    assert err.splitlines() == [
        f"error: {bad_qrels}, line 2: relevance 'maybe' is not an integer in ASCII digits",
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
    measures = lab_measures(k, umbral, gain)
    evaluated = [(name, evaluate_run(qrels, run, measures, complete=complete)) for name, run in runs]
    expected, _ = build_report(evaluated, permutations=200, seed=seed)
    assert json.loads(done.stdout) == json.loads(json.dumps(expected))


def test_a_run_sharing_no_query_with_the_qrels_exits_1_with_no_zeros(tmp_path, files, capsys):
    other = write_lines(tmp_path / "other.run", ["x1 Q0 a 1 0.5 t\n", "x2 Q0 a 1 0.5 t\n"])
    status, out, err = run_cli(capsys, files["qrels"], str(other), "--json")
    assert status == 1 and out == ""
    assert err.strip() == (
        "error: other.run and qrels.txt share no query id, so there is nothing to evaluate "
        "(are they from the same collection?)."
    )


def test_the_same_file_as_both_runs_gets_two_names(files, capsys):
    status, out, _ = run_cli(capsys, files["qrels"], files["run"], files["run"], "--json", "--permutations", "100")
    report = json.loads(out)
    assert status == 0 and [run["name"] for run in report["runs"]] == ["A: bm25.run", "B: bm25.run"]
    assert all(m["ties"] == 2 and m["p_value"] == 1.0 for m in report["comparison"]["metrics"].values())


def test_ties_float32_reproduces_trec_eval_9_and_double_trec_eval_10(tmp_path, capsys):
    qrels = write_lines(tmp_path / "q", ["1 0 a 1\n"])
    run = write_lines(tmp_path / "r", ["1 Q0 a 1 1.000000001 t\n", "1 Q0 b 2 1.0 t\n"])
    means = {}
    for ties in ("double", "float32"):
        _, out, _ = run_cli(capsys, str(qrels), str(run), "--measures", "RR", "--ties", ties, "--json")
        means[ties] = json.loads(out)["runs"][0]["mean"]["RR"]
    assert means == {"double": 1.0, "float32": 0.5}  # as floats they tie, and b > a breaks the tie


def test_formats_give_the_same_report(tmp_path, capsys):
    """trec_eval 10-style runs (extra columns, comments), BEIR TSV and JSON qrels: the plain TREC numbers."""
    qrels, run, _ = random_collection(seed=11, queries=40)
    plain_q = write_lines(tmp_path / "q.txt", qrels_lines(qrels))
    plain_r = write_lines(tmp_path / "r.txt", run_lines(run))
    beir = write_lines(tmp_path / "q.tsv", ["query-id\tcorpus-id\tscore\n"] + [
        f"{q}\t{d}\t{g}\n" for q, judged in qrels.items() for d, g in judged.items()])
    json_q = write_lines(tmp_path / "q.json", [json.dumps(qrels)])
    ten = write_lines(tmp_path / "r10.txt", ["# trec_eval 10 run\n"] + [
        line.rstrip("\n") + " 0.5 extra\n" + ("# between queries\n" if i % 97 == 0 else "")
        for i, line in enumerate(run_lines(run))])
    json_r = write_lines(tmp_path / "r.json", [json.dumps(run)])
    measures = ["--measures", "P(rel=2)@5 R@10 RR AP@100 Success@3 Judged@5 nDCG@10 nDCG(dcg='exp-log2')"]
    reports = []
    for q, r in ((plain_q, plain_r), (beir, plain_r), (json_q, plain_r), (plain_q, ten), (plain_q, json_r), (beir, ten)):
        status, out, _ = run_cli(capsys, str(q), str(r), *measures, "--json")
        assert status == 0
        report = json.loads(out.replace(json.dumps(r.name)[1:-1], "run"))  # the run's name, in warnings too
        comments = [w for w in report["warnings"] if w["code"] == "comment_lines"]
        # r10's comments are said, once, with the first as the example; the other files have none
        assert [(w["count"], w["line"], w["text"]) for w in comments] == (
            [(1 + len(range(0, len(list(run_lines(run))), 97)), 1, "# trec_eval 10 run")] if r == ten else [])
        report["warnings"] = [w for w in report["warnings"] if w["code"] != "comment_lines"]
        reports.append(report)
    assert all(report == reports[0] for report in reports[1:])
    assert reports[0]["runs"][0]["queries"] == len(qrels.keys() & run.keys())


def test_an_ungrouped_run_streams_again_held_whole(tmp_path, capsys):
    qrels, run, _ = random_collection(seed=12, queries=30)
    lines = list(run_lines(run))
    grouped = write_lines(tmp_path / "grouped.txt", lines)
    shuffled = write_lines(tmp_path / "shuffled.txt", lines[::2] + lines[1::2])  # every query split in two
    q = write_lines(tmp_path / "q.txt", qrels_lines(qrels))
    outs = [json.loads(run_cli(capsys, str(q), str(path), "--json")[1])["runs"][0]["mean"] for path in (grouped, shuffled)]
    assert outs[0] == outs[1]


def test_an_estimated_p_value_is_never_0_in_the_json_and_reads_the_same_in_the_table(tmp_path, capsys):
    """Issue 49: no drawn sign vector reaches 40 equal gains, yet p is (0 + 1) / (m + 1) (Phipson & Smyth
    2010), never 0, in the JSON, the table, and Holm's column; with more permutations it keeps its digits."""
    qrels = {f"q{i:02}": {"hit": 1} for i in range(40)}
    second = {qid: {"miss": 2.0, "hit": 1.0} for qid in qrels}  # the relevant document second: RR 0.5
    first = {qid: {"hit": 2.0, "miss": 1.0} for qid in qrels}  # first: RR 1
    paths = [str(write_lines(tmp_path / name, lines)) for name, lines in
             (("qrels", qrels_lines(qrels)), ("a", run_lines(second)), ("b", run_lines(first)), ("c", run_lines(first)))]
    status, out, _ = run_cli(capsys, *paths[:3], "--measures", "RR@10", "--json", "--permutations", "100000")
    assert status == 0
    rr = json.loads(out)["comparison"]["metrics"]["RR@10"]
    assert not rr["p_value_exact"] and rr["p_value"] == rr["p_value_adjusted"] == 1 / 100_001
    assert rr["p_value_se"] == pytest.approx(math.sqrt(rr["p_value"] * (1 - rr["p_value"]) / 100_000))
    status, out, _ = run_cli(capsys, *paths, "--measures", "RR@10", "--permutations", "100000", "--pairs")
    assert status == 0
    # a-b and a-c: p = 1e-5 each, Holm 3e-5 (the smallest tripled, the next carried up to it); b-c tie: exact 1.
    rows = [line.split() for line in out.splitlines() if line.startswith("RR@10 ") and "[" in line]
    assert [row[-4:] for row in rows] == [["0.00001", "±", "0.00001", "0.00003"]] * 2 + [["0", "1.0000", "(exact)", "1.0000"]]


def test_lines_skipped_as_comments_are_counted_in_a_warning(tmp_path, capsys):
    """trec_eval reads ``#303`` as a query id; we skip it as a comment, and say so (issue 50): the qrels and the
    run each get one warning with the count and the first such line, and the evaluation has 1 query."""
    q = write_lines(tmp_path / "q.txt", ["#303 0 d1 1\n", "301 0 d1 1\n", "# by hand\n", "\n", "301 0 d2 0\n"])
    r = write_lines(tmp_path / "r.txt", ["301 Q0 d1 1 2.0 x\n", "#303 Q0 d1 1 1.0 x\n"])
    status, out, _ = run_cli(capsys, str(q), str(r), "--measures", "P@1", "--json")
    report = json.loads(out)
    assert status == 0 and report["runs"][0]["queries"] == 1
    comments = [(w["run"], w["file"], w["count"], w["line"], w["text"]) for w in report["warnings"]
                if w["code"] == "comment_lines"]
    assert comments == [(None, str(q), 2, 1, "#303 0 d1 1"), ("r.txt", str(r), 1, 2, "#303 Q0 d1 1 1.0 x")]
    status, _, err = run_cli(capsys, str(q), str(r), "--measures", "P@1")
    assert f"{q}: 2 lines start with # and were skipped as comments (the first, line 1: #303 0 d1 1)" in err
