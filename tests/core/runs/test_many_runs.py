"""Many runs (DESIGN §4.8): every pair compared as two runs are, Holm-corrected over the pairs.

The judge of Holm's adjustment is statsmodels' ``multipletests(method="holm")``; each pair's numbers
are checked against a two-run comparison of the same pair, and two runs against today's report.
"""

import json

import pytest
from statsmodels.stats.multitest import multipletests

from raglab_core.__main__ import main
from raglab_core.runs.comparison import compare_runs
from raglab_core.runs.evaluation import evaluate_run
from raglab_core.runs.report import beaten, build_report

from tests.conftest import ROOT

SAMPLE = ROOT / "site_src" / "data" / "sample"
MEASURES = "nDCG@10 R@100 RR@10 P@5"


def run_cli(capsys, *args):
    status = main(["eval", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def third_run(tmp_path_factory):
    """A third run: the dense run's scores, shrunk and shifted by the line number (ties broken anew)."""
    path = tmp_path_factory.mktemp("runs") / "mix.txt"
    lines = []
    for number, line in enumerate((SAMPLE / "run-densa.txt").read_text("utf-8").splitlines()):
        fields = line.split()
        fields[4] = repr(float(fields[4]) * 0.5 + (number % 7) * 0.01)
        lines.append(" ".join(fields))
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


@pytest.fixture(scope="module")
def three(third_run):
    """The sample's two runs and a third, evaluated; and their report (fewer permutations and resamples)."""
    from raglab_core.runs.trec import parse_qrels, parse_run

    qrels = parse_qrels((SAMPLE / "qrels.txt").read_text("utf-8"), "qrels.txt")
    paths = [SAMPLE / "run-bm25.txt", SAMPLE / "run-densa.txt", third_run]
    results = [evaluate_run(qrels, parse_run(path.read_text("utf-8"), path.name), MEASURES) for path in paths]
    report, _ = build_report([(path.name, result) for path, result in zip(paths, results)], 500, 42, None, 500)
    return results, report


def test_three_runs_compare_every_pair_holm_corrected(three):
    results, report = three
    assert report["correction"] == "holm" and report["comparison"] is None
    names = [run["name"] for run in report["runs"]]
    assert [(pair["baseline"], pair["candidate"]) for pair in report["comparisons"]] == [
        (names[0], names[1]), (names[0], names[2]), (names[1], names[2])]
    for measure in report["measures"]:
        raw = [pair["metrics"][measure]["p_value"] for pair in report["comparisons"]]
        adjusted = [pair["metrics"][measure]["p_value_adjusted"] for pair in report["comparisons"]]
        assert adjusted == pytest.approx(list(multipletests(raw, method="holm")[1]), abs=1e-15)
    assert any(pair["metrics"]["nDCG@10"]["p_value_adjusted"] > pair["metrics"]["nDCG@10"]["p_value"]
               for pair in report["comparisons"])  # the correction did something
    # each pair is the two-run comparison of that pair (the shared bootstrap draws the same resamples)
    for pair, (i, j) in zip(report["comparisons"], [(0, 1), (0, 2), (1, 2)]):
        alone = compare_runs(results[i], results[j], 500, 42, resamples=500)
        for measure, result in alone.metrics.items():
            shown = pair["metrics"][measure]
            assert (shown["mean_delta"], shown["p_value"], shown["wins"], shown["losses"]) == (
                result.mean_delta, result.p_value, result.wins, result.losses)
            assert shown["ci95"] == pytest.approx(list(result.ci95), abs=1e-12)


def test_the_command_line_prints_the_pairs_for_three_runs(capsys, third_run):
    status, out, _ = run_cli(capsys, SAMPLE / "qrels.txt", SAMPLE / "run-bm25.txt", SAMPLE / "run-densa.txt", third_run,
                             "--measures", "nDCG@10 R@100", "--json", "--permutations", "200")
    report = json.loads(out)
    assert status == 0 and len(report["comparisons"]) == 3 and report["correction"] == "holm"


def test_two_runs_keep_the_comparison_with_p_value_adjusted_equal_to_p_value(capsys):
    status, out, _ = run_cli(capsys, SAMPLE / "qrels.txt", SAMPLE / "run-bm25.txt", SAMPLE / "run-densa.txt", "--json")
    report = json.loads(out)
    assert report["comparisons"] == [report["comparison"]]
    for result in report["comparison"]["metrics"].values():
        assert result["p_value_adjusted"] == result["p_value"]


def test_the_table_letters_the_runs_each_run_beats(three):
    from raglab_core.runs.eval_command import format_table

    _, report = three
    identical = build_report([(name, evaluate_run({"q": {"d": 1}}, {"q": {"d": 1.0}}, "P@1")) for name in "ab"])[0]
    assert beaten(identical) == {"P@1": [[], []]}  # identical runs: nobody beats anybody
    wins = beaten(report)["nDCG@10"]
    assert wins == [[], [0], [0]]  # both dense runs beat BM25 on nDCG@10, and are tied with each other
    rows = [line.split() for line in format_table(report).splitlines() if line[:3] in ("a  ", "b  ", "c  ")]
    assert [row[:3] for row in rows] == [["a", "run-bm25.txt", "0.5115"], ["b", "run-densa.txt", "0.6161"],
                                         ["c", "mix.txt", "0.6118"]]
    assert [row[3] for row in rows] == ["0.7709", ">a", ">a"]


def test_the_command_line_takes_more_than_twelve_runs_and_leads_with_the_lettered_table(capsys):
    """Issue 50: a TREC track has 30 to 100 runs. 28 runs are lettered a … n (after z come aa, ab, …:
    ``slots``' doctest); the text leads with the lettered table and prints the 91 pairs' blocks only with --pairs; the JSON has every pair either way."""
    runs = [str(SAMPLE / name) for name in ("run-bm25.txt", "run-densa.txt")] * 7
    options = ["--measures", "P@5", "--permutations", "50"]
    status, out, _ = run_cli(capsys, SAMPLE / "qrels.txt", *runs, *options)
    assert status == 0
    blocks = out.split("\n\n")
    assert blocks[1].startswith("each mean is followed by >LETTERS")
    letters = [line.split()[0] for line in blocks[1].splitlines()[2:]]
    assert letters == list("abcdefghijklmn")
    assert "91 pairs compared; each pair's block: --pairs" in out and "(baseline)" not in out
    assert len(out.splitlines()) < 40
    status, out, _ = run_cli(capsys, SAMPLE / "qrels.txt", *runs, *options, "--pairs")
    assert out.count("(baseline)") == 91
    status, out, _ = run_cli(capsys, SAMPLE / "qrels.txt", *runs, *options, "--json")
    report = json.loads(out)
    assert len(report["runs"]) == 14 and len(report["comparisons"]) == 91
    assert report["runs"][13]["name"] == "N: run-densa.txt"


def test_each_pair_says_how_different_its_rankings_are(capsys):
    """Jaccard@10 and RBO_ext from the rankings the evaluator kept equal those of the whole runs
    (tests/core/runs/test_overlap.py checks both against the rbo package and the paper's equation)."""
    from raglab_core.runs.overlap import mean_overlap
    from raglab_core.runs.trec import parse_run

    status, out, _ = run_cli(capsys, SAMPLE / "qrels.txt", SAMPLE / "run-bm25.txt", SAMPLE / "run-densa.txt", "--json",
                             "--permutations", "100")
    [overlap] = json.loads(out)["overlap"]
    whole = mean_overlap(*(parse_run((SAMPLE / name).read_text("utf-8")) for name in ("run-bm25.txt", "run-densa.txt")))
    assert (overlap["baseline"], overlap["candidate"]) == ("run-bm25.txt", "run-densa.txt")
    assert (overlap["queries"], overlap["jaccard@10"], overlap["rbo"]) == (40, whole.jaccard, whole.rbo)
    assert 0.1 < whole.jaccard < 0.3  # the two runs share few of their top 10s


def test_the_query_detail_still_shows_ten_documents_per_run():
    from raglab_core.runs.session import EvaluationSession

    files = {"qrels": "qrels.txt", "A": "run-bm25.txt", "B": "run-densa.txt"}
    session = EvaluationSession({"qrels": "qrels.txt", "runs": ["run-bm25.txt", "run-densa.txt"]})
    while slot := session.next():
        session.feed((SAMPLE / files[slot]).read_text("utf-8"))
        session.end()
    session.finish()
    detail = session.query_detail("q01")
    assert [len(column["documents"]) for column in detail["runs"]] == [10, 10]

