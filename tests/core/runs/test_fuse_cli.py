"""The command line: python -m raglab_core fuse RUN RUN [RUN ...] --method M [--norm N] ... (DESIGN §4.8)."""

import subprocess
import sys

import pytest

from raglab_core.__main__ import main
from raglab_core.runs.evaluation import trec_order
from raglab_core.runs.trec import parse_run

from tests.conftest import ROOT
from tests.support.trec_data import run_lines, write_lines

SAMPLE = ROOT / "site_src" / "data" / "sample"
BM25, DENSE = str(SAMPLE / "run-bm25.txt"), str(SAMPLE / "run-densa.txt")


def read_sample():
    return [parse_run(open(path, encoding="utf-8"), name=path) for path in (BM25, DENSE)]


def strictly_decreasing(run):
    return {qid: {docid: float(len(scores) - i) for i, docid in enumerate(trec_order(scores))} for qid, scores in run.items()}


@pytest.fixture(scope="module")
def ranx_sample():
    """ranx's fused sample for the settings the tests use (rrf: the runs' ties broken as trec_eval breaks them)."""
    from ranx import Run, fuse

    runs = read_sample()
    strict = [Run.from_dict(strictly_decreasing(run)) for run in runs]
    raw = [Run.from_dict(run) for run in runs]
    return {
        "rrf": fuse(strict, norm="min-max", method="rrf", params={"k": 60}).to_dict(),
        "wsum": fuse(raw, norm="zmuv", method="wsum", params={"weights": [0.3, 0.7]}).to_dict(),
    }


def fuse_cli(capsys, *args):
    status = main(["fuse", *args])
    out, err = capsys.readouterr()
    return status, out, err


def parsed(out):
    """The TREC lines as {qid: [(docid, rank, score, tag)]}, checking 6 columns and Q0."""
    queries = {}
    for line in out.splitlines():
        qid, q0, docid, rank, score, tag = line.split(" ")
        assert q0 == "Q0"
        queries.setdefault(qid, []).append((docid, int(rank), float(score), tag))
    return queries


def assert_trec_ranked(queries):
    for qid, rows in queries.items():
        assert [rank for _, rank, _, _ in rows] == list(range(1, len(rows) + 1)), qid
        scores = {docid: score for docid, _, score, _ in rows}
        assert [docid for docid, *_ in rows] == trec_order(scores), qid


@pytest.mark.parametrize(
    "name, args, tag",
    [
        ("rrf", ["--method", "rrf"], "rrf-min-max"),
        ("wsum", ["--method", "wsum", "--norm", "zmuv", "--weights", "0.3,0.7", "--tag", "hybrid"], "hybrid"),
    ],
)
def test_the_fused_sample_is_ranx_s(capsys, ranx_sample, name, args, tag):
    status, out, err = fuse_cli(capsys, BM25, DENSE, *args)
    assert status == 0 and err == ""
    queries = parsed(out)
    theirs = ranx_sample[name]
    assert list(queries) == list(read_sample()[0]) and set(queries) == set(theirs)
    assert_trec_ranked(queries)
    for qid, rows in queries.items():
        assert {docid for docid, *_ in rows} == set(theirs[qid])
        for docid, _, score, row_tag in rows:
            assert abs(score - theirs[qid][docid]) <= 1e-9 and row_tag == tag


def test_depth_keeps_the_top_of_each_query(capsys):
    status, full, _ = fuse_cli(capsys, BM25, DENSE, "--method", "mnz", "--norm", "borda")
    status_top, top, _ = fuse_cli(capsys, BM25, DENSE, "--method", "mnz", "--norm", "borda", "--depth", "3")
    assert status == status_top == 0
    full, top = parsed(full), parsed(top)
    assert len(top) == len(full) == 40
    assert all(top[qid] == full[qid][:3] for qid in full) and all(len(rows) > 3 for rows in full.values())


def test_a_query_missing_from_a_run_is_fused_from_the_others_with_a_warning(tmp_path, capsys):
    one = write_lines(tmp_path / "one.txt", run_lines({"q1": {"a": 2.0, "b": 1.0}, "q2": {"c": 5.0, "d": 1.0}}))
    two = write_lines(tmp_path / "two.txt", run_lines({"q1": {"b": 3.0, "e": 1.0}}))
    status, out, err = fuse_cli(capsys, str(one), str(two), "--method", "sum", "--norm", "min-max")
    assert status == 0
    assert err == f"warning: {two}: 1 query of the other runs is missing from it (q2); it contributes nothing to it\n"
    assert parsed(out)["q2"] == [("c", 1, 1.0, "sum-min-max"), ("d", 2, 0.0, "sum-min-max")]
    # q1: a = 1 + 0 (two lacks it), b = 0 + 1, e = 0: a and b tie, ranked by document id descending
    assert parsed(out)["q1"] == [("b", 1, 1.0, "sum-min-max"), ("a", 2, 1.0, "sum-min-max"), ("e", 3, 0.0, "sum-min-max")]


@pytest.mark.parametrize(
    "args, says",
    [
        ([BM25, DENSE], "the following arguments are required: --method"),
        ([BM25, "--method", "rrf"], "fusion needs at least two runs"),
        ([BM25, DENSE, "--method", "combsum"], "invalid choice: 'combsum'"),
        ([BM25, DENSE, "--method", "sum", "--norm", "minmax"], "invalid choice: 'minmax'"),
        ([BM25, DENSE, "--method", "wsum"], "--method wsum needs --weights, one per run"),
        ([BM25, DENSE, "--method", "wsum", "--weights", "1,2,3"], "wsum needs one weight per run"),
        ([BM25, DENSE, "--method", "wsum", "--weights", "1,x"], "'x' is not a number"),
        ([BM25, DENSE, "--method", "wsum", "--weights", "1,inf"], "'inf' is not a finite number"),
        ([BM25, DENSE, "--method", "sum", "--weights", "1,2"], "--weights applies to --method wsum only"),
        ([BM25, DENSE, "--method", "sum", "--rrf-k", "10"], "--rrf-k applies to --method rrf only"),
        ([BM25, DENSE, "--method", "rrf", "--rrf-k", "-1"], "must be an integer >= 0, got -1"),
        ([BM25, DENSE, "--method", "rrf", "--norm", "borda"], "the borda normalisation is not offered with it"),
        ([BM25, DENSE, "--method", "sum", "--depth", "0"], "must be an integer >= 1, got 0"),
        ([BM25, DENSE, "--method", "sum", "--tag", "my run"], "a tag is one word, without spaces"),
    ],
)
def test_usage_errors_exit_2(capsys, args, says):
    with pytest.raises(SystemExit) as exited:
        main(["fuse", *args])
    out, err = capsys.readouterr()
    assert exited.value.code == 2 and out == ""
    assert says in err and "usage: python -m raglab_core fuse" in err


def test_a_missing_file_is_a_usage_error(tmp_path, capsys):
    status, out, err = fuse_cli(capsys, BM25, str(tmp_path / "nope.txt"), "--method", "sum")
    assert status == 2 and out == ""
    assert err.startswith("python -m raglab_core fuse: error: cannot read ") and "nope.txt: No such file" in err


def test_bad_files_exit_1_naming_file_and_line(tmp_path, capsys):
    bad = write_lines(tmp_path / "bad.txt", ["q1 Q0 a 1 0.5 t\n", "q1 Q0 b 2 alto t\n"])
    latin = tmp_path / "latin.txt"
    latin.write_bytes("q1 Q0 caf\u00e9 1 0.5 t\n".encode("latin-1"))
    status, out, err = fuse_cli(capsys, str(bad), BM25, str(latin), "--method", "rrf")
    assert status == 1 and out == ""
    lines = err.splitlines()
    assert lines[0] == f"error: {bad}, line 2: score 'alto' is not a number in ASCII digits"
    assert lines[1].startswith(f"error: {latin}: not UTF-8 text: it looks like Windows-1252") and len(lines) == 2


def test_the_module_runs_as_a_program(tmp_path):
    one = write_lines(tmp_path / "one.txt", run_lines({"q1": {"a": 2.0, "b": 1.0}}))
    two = write_lines(tmp_path / "two.json", ['{"q1": {"b": 3.0, "c": 1.0}}'])
    done = subprocess.run([sys.executable, "-m", "raglab_core", "fuse", str(one), str(two), "--method", "rrf",
                           "--norm", "none", "--rrf-k", "0"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stderr == ""
    # b: 1/2 + 1/1; a: 1/1; c: 1/2
    assert done.stdout == "q1 Q0 b 1 1.5 rrf-none\nq1 Q0 a 2 1.0 rrf-none\nq1 Q0 c 3 0.5 rrf-none\n"
