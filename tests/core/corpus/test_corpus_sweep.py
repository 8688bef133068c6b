"""The ``chunks`` command and the sweep (DESIGN §4.9): several configurations, each compared with the baseline
by the run comparison's own statistics (randomization test, bootstrap, Holm), on a slice of Chroma's data."""

import json

import pytest
from statsmodels.stats.multitest import multipletests

from raglab_core.__main__ import main
from raglab_core.corpus.chroma import read_questions
from raglab_core.corpus.documents import documents_from_files
from raglab_core.corpus.evaluate import evaluate_config, prepare
from raglab_core.corpus.sweep import _as_run, parse_sweep, report, sweep
from raglab_core.errors import LabError
from raglab_core.runs.comparison import compare_runs

from tests.conftest import ROOT

CHROMA = ROOT / "tests" / "data" / "chroma"
CORPUS, QUESTIONS = CHROMA / "state_of_the_union.md", CHROMA / "questions_df.csv"


def run_cli(capsys, *args):
    status = main(["chunks", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def prepared():
    documents = documents_from_files([(CORPUS.name, CORPUS.read_text("utf-8"))])
    queries, spans = read_questions(QUESTIONS.read_text("utf-8"), documents)
    return prepare(documents, queries, spans)


def test_configurations_are_parsed_with_clear_errors():
    assert parse_sweep("128:0, 256:32 128:0") == [(128, 0), (256, 32)]
    for bad, code in (("256", "config"), ("64:64", "config_overlap"), ("", "config_none"), ("0:0", "config_overlap")):
        with pytest.raises(LabError) as raised:
            parse_sweep(bad)
        assert raised.value.code == code


def test_the_sweep_compares_each_configuration_with_the_baseline_using_the_run_statistics(prepared):
    results = sweep(prepared, [(128, 0), (256, 32), (512, 64)], cuts=[1, 3])
    data = report(prepared, results, baseline=1, permutations=500, resamples=500)
    assert [c["name"] for c in data["configs"]] == ["128:0", "256:32", "512:64"] and data["baseline"] == "256:32"
    assert data["corpus"] == {"documents": 1, "tokens": prepared.corpus.tokens, "queries": 20, "spans": 21}
    assert [(p["baseline"], p["candidate"]) for p in data["comparisons"]] == [("256:32", "128:0"), ("256:32", "512:64")]
    for name in data["configs"][0]["mean"]:
        raw = [p["metrics"][name]["p_value"] for p in data["comparisons"]]
        adjusted = [p["metrics"][name]["p_value_adjusted"] for p in data["comparisons"]]
        assert adjusted == pytest.approx(list(multipletests(raw, method="holm")[1]), abs=1e-15)
        assert min(raw) > 0  # a p-value is never 0 (issue 49): exact here (20 queries), (b + 1) / (m + 1) if estimated
    queries = sorted(prepared.queries)
    alone = compare_runs(_as_run(results[1], queries), _as_run(results[2], queries), 500, 42, resamples=500)
    for name, result in alone.metrics.items():
        shown = data["comparisons"][1]["metrics"][name]
        assert (shown["mean_delta"], shown["p_value"], shown["ci95"]) == (result.mean_delta, result.p_value,
                                                                          list(result.ci95))
    for config, result in zip(data["configs"], results):
        assert (config["chunks"], config["indexed_tokens"], config["duplicated_tokens"]) == tuple(result.footprint)
        for name, (low, high) in config["ci95"].items():
            assert low <= config["mean"][name] <= high
    # a longer chunk holds more of the evidence whole: the ceiling grows with the chunk size here
    ceilings = [config["mean"]["Ceiling"] for config in data["configs"]]
    assert ceilings == sorted(ceilings) and ceilings[0] < ceilings[-1]


def test_the_command_prints_the_json_and_the_exported_chunks_evaluate_to_the_same_numbers(capsys, tmp_path):
    chunks, runs = tmp_path / "chunks.jsonl", tmp_path / "runs"
    status, out, err = run_cli(capsys, CORPUS, "-", "--spans", QUESTIONS, "--chunk", "200", "--overlap", "20",
                               "--at", "1,5", "--json", "--export-chunks", chunks, "--write-runs", runs)
    assert status == 0, err
    data = json.loads(out)
    assert set(data) == {"corpus", "bm25", "configs", "baseline", "correction", "comparisons", "warnings"}
    assert data["bm25"] == {"k1": 0.9, "b": 0.4, "depth": 100} and data["comparisons"] == []
    [config] = data["configs"]
    assert list(config) == ["name", "chunk", "overlap", "chunks", "indexed_tokens", "duplicated_tokens", "mean",
                            "ci95", "per_query"]
    lines = [json.loads(line) for line in chunks.read_text("utf-8").splitlines()]
    assert len(lines) == config["chunks"] and lines[0]["chunk_id"] == "state_of_the_union.md#0"
    status, out, err = run_cli(capsys, CORPUS, "-", "--spans", QUESTIONS, "--at", "1,5", "--json",
                               "--chunks", chunks, "--run", runs / "200-20.chunks.txt")
    assert status == 0, err
    [again] = json.loads(out)["configs"]
    assert again["mean"] == config["mean"] and again["per_query"] == config["per_query"]


def test_bad_inputs_exit_with_the_line_or_a_usage_error(capsys, tmp_path):
    spans = tmp_path / "spans.jsonl"
    spans.write_text('{"query_id": "q", "doc_id": "state_of_the_union.md", "start": 0, "end": 5}\n'
                     '{"query_id": "q", "doc_id": "nope.md", "start": 0, "end": 5}\n', "utf-8")
    queries = tmp_path / "queries.tsv"
    queries.write_text("q\tWhat did the president say?\n", "utf-8")
    status, out, err = run_cli(capsys, CORPUS, queries, "--spans", spans, "--json")
    # A span naming a document not in the corpus: left out, and warned about before the numbers.
    data = json.loads(out)
    assert status == 0 and data["corpus"]["spans"] == 1 and data["warnings"][0] == {
        "code": "spans_unknown_document", "run": None, "count": 1, "examples": ["nope.md"], "spans": 1, "total": 2,
        "message": "1 document named by the evidence is not in the corpus (nope.md): its spans (1 of 2) are left out "
                   "of every measure."}
    assert "warning: 1 document named by the evidence is not in the corpus (nope.md)" in err
    # When no span names a document of the corpus, the evidence is for another one: an error naming the lines.
    spans.write_text('{"query_id": "q", "doc_id": "nope.md", "start": 0, "end": 5}\n', "utf-8")
    status, _, err = run_cli(capsys, CORPUS, queries, "--spans", spans)
    assert status == 1 and "line 1" in err and "nope.md" in err
    with pytest.raises(SystemExit) as stopped:
        run_cli(capsys, CORPUS, queries, "--sweep", "128:0 256:0", "--baseline", "512:0")
    assert stopped.value.code == 2 and "512:0" in capsys.readouterr().err


def test_a_corpus_in_another_language_is_warned_about(capsys, tmp_path):
    queries = tmp_path / "queries.tsv"
    queries.write_text("1\t¿qué dijo?\n2\tçà\n3\tthe president\n", "utf-8")
    status, out, err = run_cli(capsys, CORPUS, queries, "--chunk", "64", "--overlap", "0", "--json")
    codes = [warning["code"] for warning in json.loads(out)["warnings"]]
    assert status == 0 and codes == ["queries_retrieve_nothing"] and "warning: 2 queries of 3" in err
