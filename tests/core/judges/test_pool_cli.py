"""python -m raglab_core pool RUN [RUN ...] --depth K [--qrels F] [--sample N --seed S] [--judge J] (DESIGN §4.13):
the TSV on stdout against a brute-force pool, the sample and the stratification, the files read as `eval` reads
them (any format, gzip, ungrouped lines, malformed lines named), the warnings and the exit statuses."""

import gzip
import json
import random
from collections import Counter

import pytest

from raglab_core.__main__ import main
from raglab_core.judges.pooling import allocation

from tests.support.trec_data import qrels_lines, run_lines, write_lines


def pool_cli(capsys, *args):
    status = main(["pool", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def pairs_of(out):
    return [tuple(line.split("\t")) for line in out.splitlines()]


def collection(seed=3, queries=8, docs=30, runs=3):
    rng = random.Random(seed)
    made = [{f"q{q}": {f"d{d}": float(rng.randrange(6)) for d in rng.sample(range(docs), 20)}
             for q in range(queries)} for _ in range(runs)]
    judge = {f"q{q}": {f"d{d}": rng.choice([0, 0, 0, 1, 1, 2, 3]) for d in range(docs)} for q in range(queries)}
    return made, judge


def brute(runs, depth, judged=None):
    found = set()
    for run in runs:
        for qid, scores in run.items():
            top = sorted(scores.items(), key=lambda item: (item[1], item[0]), reverse=True)[:depth]
            found |= {(qid, docid) for docid, _ in top if docid not in (judged or {}).get(qid, {})}
    return found


@pytest.fixture
def files(tmp_path):
    runs, judge = collection()
    paths = [write_lines(tmp_path / f"run{i}.txt", run_lines(run, f"r{i}")) for i, run in enumerate(runs)]
    judged = {"q0": dict.fromkeys(list(judge["q0"])[:10], 1), "q3": {"d1": 0}}
    return {"runs": runs, "paths": paths, "judge": judge, "judged": judged,
            "judge_path": write_lines(tmp_path / "llm.qrels", qrels_lines(judge)),
            "qrels_path": write_lines(tmp_path / "people.qrels", qrels_lines(judged))}


def test_the_pool_is_every_top_k_document_minus_the_judged_in_the_documented_order(files, capsys):
    status, out, err = pool_cli(capsys, *files["paths"], "--depth", 5, "--qrels", files["qrels_path"])
    assert (status, err) == (0, "")
    pairs = pairs_of(out)
    assert len(pairs) == len(set(pairs)) and set(pairs) == brute(files["runs"], 5, files["judged"])
    assert [qid for qid, _ in pairs] == sorted(qid for qid, _ in pairs)
    assert out.endswith("\n") and all(line.count("\t") == 1 for line in out.splitlines())


def test_json_gzip_and_ungrouped_runs_are_read_as_eval_reads_them(files, tmp_path, capsys):
    expected = pool_cli(capsys, *files["paths"], "--depth", 4)[1]
    runs = files["runs"]
    as_json = tmp_path / "r0.json"
    as_json.write_text(json.dumps(runs[0]), "utf-8")
    zipped = tmp_path / "r1.txt.gz"
    zipped.write_bytes(gzip.compress("".join(run_lines(runs[1])).encode()))
    shuffled = list(run_lines(runs[2]))
    random.Random(1).shuffle(shuffled)  # the queries' lines interleaved
    ungrouped = write_lines(tmp_path / "r2.txt", shuffled)
    status, out, err = pool_cli(capsys, as_json, zipped, ungrouped, "--depth", 4)
    assert (status, err, out) == (0, "", expected)


def test_a_seeded_sample_is_n_pairs_of_the_pool_in_its_order(files, capsys):
    whole = pairs_of(pool_cli(capsys, *files["paths"], "--depth", 5)[1])
    status, out, err = pool_cli(capsys, *files["paths"], "--depth", 5, "--sample", 17, "--seed", 4)
    drawn = pairs_of(out)
    assert (status, err, len(drawn)) == (0, "", 17)
    assert drawn == [pair for pair in whole if pair in set(drawn)]
    assert pool_cli(capsys, *files["paths"], "--depth", 5, "--sample", 17, "--seed", 4)[1] == out
    assert pool_cli(capsys, *files["paths"], "--depth", 5, "--sample", 17, "--seed", 5)[1] != out
    assert pool_cli(capsys, *files["paths"], "--depth", 5, "--sample", 17)[1] == \
        pool_cli(capsys, *files["paths"], "--depth", 5, "--sample", 17, "--seed", 42)[1]


def test_with_a_judge_the_sample_is_stratified_by_its_grade(files, capsys):
    judge = files["judge"]
    candidates = brute(files["runs"], 6, files["judged"])  # the judge grades every document
    status, out, err = pool_cli(capsys, *files["paths"], "--depth", 6, "--qrels", files["qrels_path"],
                                "--judge", files["judge_path"], "--sample", 30, "--seed", 8)
    drawn = pairs_of(out)
    assert (status, err) == (0, "")
    assert len(drawn) == 30 and set(drawn) <= candidates
    expected = allocation(Counter(judge[q][d] for q, d in candidates), 30)
    assert Counter(judge[q][d] for q, d in drawn) == Counter({g: c for g, c in expected.items() if c})
    assert min(expected.values()) >= 1  # every grade present is seen, 3 included


def test_the_warnings_have_stable_wordings_and_change_no_status(files, tmp_path, capsys):
    status, out, err = pool_cli(capsys, files["paths"][0], "--depth", 2, "--sample", 1000)
    assert status == 0 and len(pairs_of(out)) == 16
    assert err == "warning: The sample (1000) is not smaller than the pairs to judge (16): all of them are kept.\n"
    partial = write_lines(tmp_path / "partial.qrels", ["q0 0 nobody 1\n"])
    status, out, err = pool_cli(capsys, files["paths"][0], "--depth", 2, "--judge", partial)
    assert (status, out) == (0, "")
    assert err.splitlines() == [
        "warning: 16 pairs of the pool (16 pairs) are not graded by the judge: they are left out, since its sample "
        "is drawn from the pairs it grades.",
        "warning: Nothing is left to judge: every pair of the pool is already judged, or the judge grades none of "
        "them.",
    ]


def test_malformed_files_are_named_with_their_lines_and_nothing_is_printed(files, tmp_path, capsys):
    bad = write_lines(tmp_path / "bad.txt", ["q1 Q0 d1 1 0.5 t\n", "q1 Q0 d2 2 zero t\n"])
    swapped = write_lines(tmp_path / "swapped.qrels", ["q1 Q0 d1 1 0.5 t\n"])
    status, out, err = pool_cli(capsys, files["paths"][0], bad, "--depth", 3, "--qrels", swapped)
    assert (status, out) == (1, "")
    assert "bad.txt" in err and "line 2" in err and "'zero'" in err
    assert "swapped.qrels" in err and "line 1" in err
    binary = tmp_path / "latin1.txt"
    binary.write_bytes("q1 Q0 caf\xe9 1 1 t\n".encode("latin-1"))
    status, out, err = pool_cli(capsys, binary, "--depth", 3)
    assert (status, out) == (1, "") and "latin1.txt" in err and "UTF-8" in err


def test_usage_errors_exit_2(files, tmp_path, capsys):
    for args in (["--depth", 0], [], ["--depth", 3, "--seed", 1], ["--depth", 3, "--sample", 0]):
        with pytest.raises(SystemExit) as exit_:
            pool_cli(capsys, files["paths"][0], *args)
        assert exit_.value.code == 2
    status, out, err = pool_cli(capsys, tmp_path / "missing.txt", "--depth", 3)
    assert (status, out) == (2, "") and "cannot read" in err and "missing.txt" in err
