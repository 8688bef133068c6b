"""The judging page's session (raglab_core.judges.session): the files in, the pairs `pool` prints, only their texts kept."""

import json

import pytest

from raglab_core.errors import LabError
from raglab_core.judges import pooling
from raglab_core.judges.exports import export_json
from raglab_core.judges.job import make_job
from raglab_core.judges.session import judge_files
from raglab_core.runs.trec import parse_run

QUERIES = {"name": "q.tsv", "text": "q1\tgatos negros\nq2\tperros\nq3\tsin pares\n"}
CORPUS = [{"name": "c.jsonl", "text": "".join(json.dumps({"_id": d, "title": f"T {d}", "text": f"texto {d}"}) + "\n"
                                           for d in ("a", "b", "c", "d", "e", "unused"))}]
RUNS = [{"name": "r1.txt", "text": "q1 Q0 a 1 3 x\nq1 Q0 b 2 2 x\nq1 Q0 c 3 1 x\nq2 Q0 d 1 5 x\nq2 Q0 e 2 4 x\n"},
        {"name": "r2.txt", "text": "q1 Q0 c 1 9 y\nq1 Q0 a 2 8 y\nq2 Q0 e 1 1 y\n"}]


def test_the_pairs_are_what_pool_prints_and_only_their_texts_are_kept():
    made = judge_files(QUERIES, CORPUS, runs=RUNS, settings={"depth": "2", "seed": "7"})
    runs = [parse_run(run["text"]) for run in RUNS]
    pairs, _ = pooling.choose(runs, 2, seed=7)
    assert sorted(map(tuple, made["job"]["pairs"])) == sorted(pairs) == [("q1", "a"), ("q1", "b"), ("q1", "c"),
                                                                         ("q2", "d"), ("q2", "e")]
    assert made["job"]["pairs"] == make_job({"depth": 2, "seed": 7}, pairs, {}, created="x")["pairs"]
    assert made["texts"]["queries"] == {"q1": "gatos negros", "q2": "perros"}
    assert sorted(made["texts"]["documents"]) == ["a", "b", "c", "d", "e"]
    assert made["texts"]["documents"]["a"] == {"title": "T a", "text": "texto a"}
    assert made["job"]["inputs"]["run-a"]["name"] == "r1.txt" and made["notes"] == []


def test_judged_pairs_are_skipped_and_a_pool_file_or_a_job_gives_the_pairs():
    qrels = {"name": "hechos.txt", "text": "q1 0 a 1\n"}
    made = judge_files(QUERIES, CORPUS, runs=RUNS, settings={"depth": "2"}, qrels=qrels)
    assert ("q1", "a") not in map(tuple, made["job"]["pairs"]) and len(made["job"]["pairs"]) == 4
    pool = judge_files(QUERIES, CORPUS, pool={"name": "pool.tsv", "text": "q2\td\nq1\tb\n"}, qrels=qrels)
    assert sorted(map(tuple, pool["job"]["pairs"])) == [("q1", "b"), ("q2", "d")]
    grades = {"q1\tb": {"grade": 2, "at": 5}}
    again = judge_files(QUERIES, CORPUS, job={"name": "j.json", "text": export_json(pool["job"], grades)})
    assert again["job"] == pool["job"] and again["grades"] == grades
    assert sorted(again["texts"]["documents"]) == ["b", "d"]


def test_a_model_s_grades_are_a_stratified_sample_never_kept():
    judge = {"name": "llm.txt", "text": "q1 0 a 0\nq1 0 b 0\nq1 0 c 3\nq2 0 d 0\nq2 0 e 1\n"}
    made = judge_files(QUERIES, CORPUS, settings={"sample": "3", "seed": "1"}, judge=judge)
    expected = pooling.stratified({"q1": {"a": 0, "b": 0, "c": 3}, "q2": {"d": 0, "e": 1}}, 3, 1)
    assert sorted(map(tuple, made["job"]["pairs"])) == sorted(expected)
    assert "grade" not in json.dumps(made["job"]) and made["grades"] == {}


@pytest.mark.parametrize("settings, field", [({"depth": "0"}, "depth"), ({"seed": "-1"}, "seed"), ({"sample": "x"}, "sample")])
def test_a_bad_setting_names_its_field(settings, field):
    with pytest.raises(LabError) as error:
        judge_files(QUERIES, CORPUS, runs=RUNS, settings=settings)
    assert error.value.field == field


def test_missing_texts_are_noted():
    # Depth 1: q1 a (r1), q1 c (r2), q2 d (r1), q2 e (r2); the queries lack q2.
    made = judge_files({"name": "q.tsv", "text": "q1\tx\n"}, CORPUS, runs=RUNS, settings={"depth": "1"})
    assert made["notes"] == ["A 2 de los 4 pares les falta el texto de la consulta o del documento: se muestran vacíos."]
