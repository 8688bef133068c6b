"""Fusion (raglab_core.runs.fusion) against its judge, ranx 0.3.21's fuse().

Every fused (query, document) score must be within 1e-9 of ranx's, for every
method x normalisation that ranx gives a definite answer for, on the sample
runs and on seeded random runs with documents missing from some runs,
queries missing from one run, all-equal and negative scores and one-document
queries.

Two things ranx leaves open are fed to it in a form where they do not matter:
* ties: ranx ranks equal scores in whatever order its sort leaves (compiled and
  interpreted ranx differ on the sample's q06); we rank them as trec_eval
  does. Where only the order counts (rrf, rank, borda) ranx gets the runs with
  strictly decreasing scores in trec_eval's order, which fixes its ranking
  to ours and changes nothing else;
* a query missing from a run: ranx refuses runs whose queries differ; we let
  that run contribute nothing. ranx gets, for each such query, only the runs
  that hold it (a query held by one run only: that run twice, the fused score
  then a known multiple of ours).

rrf with the borda normalisation is refused by fuse(): ranx then ranks by
Python set order, which changes with PYTHONHASHSEED.
"""

import random

import pytest

from raglab_core import LabError
from raglab_core.runs.evaluation import trec_order
from raglab_core.runs.fusion import METHODS, NORMS, fuse
from raglab_core.runs.trec import parse_run

from tests.conftest import ROOT

SAMPLE = ROOT / "site_src" / "data" / "sample"
TOLERANCE = 1e-9
COMBINATIONS = [(method, norm) for method in METHODS for norm in NORMS if (method, norm) != ("rrf", "borda")]
WEIGHTS = [0.7, 1.5, 0.25]
RRF_K = {"sample": 60, "random": 7}


def order_only(method, norm):
    """Does the fused score depend on each run's order alone (not on the score values)?"""
    return method == "rrf" or norm in ("rank", "borda")


def params(method, count, weights=WEIGHTS, k=60):
    if method == "rrf":
        return {"k": k}
    if method == "wsum":
        return {"weights": list(weights[:count])}
    return {}


def strictly_decreasing(run):
    """The run with its ties broken as trec_eval breaks them: scores n, n-1, …, 1 in trec_eval's order."""
    return {qid: {docid: float(len(scores) - i) for i, docid in enumerate(trec_order(scores))} for qid, scores in run.items()}


def random_runs(seed=37):
    """Three runs over 14 queries. Documents: random subsets of a pool, so many are missing from some runs; scores
    with 2 decimals (some ties). q10 lacks run 1, q11 lacks run 2, q12 is held by run 0 only; in q13 run 0 has one
    document, run 1 all-equal scores and run 2 only negative ones."""
    rng = random.Random(seed)
    runs = [{}, {}, {}]
    for number in range(13):
        qid = f"q{number}"
        pool = [f"d{number}-{i}" for i in range(rng.randint(3, 25))]
        holders = {10: (0, 2), 11: (0, 1), 12: (0,)}.get(number, (0, 1, 2))
        for index in holders:
            chosen = rng.sample(pool, rng.randint(1, len(pool)))
            runs[index][qid] = {docid: round(rng.uniform(-3, 12), 2) for docid in chosen}
    runs[0]["q13"] = {"x1": 4.25}
    runs[1]["q13"] = {"x1": 2.5, "x2": 2.5, "x3": 2.5}
    runs[2]["q13"] = {"x2": -0.5, "x4": -2.0, "x5": -1.25}
    return runs


def ranx_fused(runs, method, norm, weights, k):
    """ranx's fused run for our runs (plain dicts), one ranx call per group of queries held by the same runs:
    ``{qid: {docid: score}}``, scaled back to one run where a query is held by one run only."""
    from ranx import Run, fuse as ranx_fuse  # here, not at collection: its import alone takes seconds

    if order_only(method, norm):
        runs = [strictly_decreasing(run) for run in runs]
    groups = {}
    for qid in dict.fromkeys(q for run in runs for q in run):
        groups.setdefault(tuple(i for i, run in enumerate(runs) if qid in run), []).append(qid)
    fused = {}
    for holders, qids in groups.items():
        group_weights = [weights[i] for i in holders]
        scale = 1.0
        if len(holders) == 1:  # ranx needs two runs: the same run twice
            holders = holders * 2
            group_weights = [weights[holders[0]], 0.0]
            scale = {"sum": 2.0, "rrf": 2.0, "mnz": 4.0, "max": 1.0, "wsum": 1.0}[method]
        subset = [Run.from_dict({qid: runs[i][qid] for qid in qids}) for i in holders]
        result = ranx_fuse(subset, norm=None if norm == "none" else norm, method=method,
                           params=params(method, len(holders), group_weights, k))
        for qid, scores in result.to_dict().items():
            fused[qid] = {str(docid): float(score) / scale for docid, score in scores.items()}
    return fused


@pytest.fixture(scope="module")
def cases():
    sample = [parse_run(open(SAMPLE / name, encoding="utf-8"), name=name) for name in ("run-bm25.txt", "run-densa.txt")]
    return {"sample": sample, "random": random_runs()}


@pytest.fixture(scope="module")
def judged(cases):
    """Ours and ranx's fused runs for every case and combination (ranx called once per case, combination and group)."""
    results = {}
    for name, runs in cases.items():
        for method, norm in COMBINATIONS:
            k = RRF_K[name]
            ours = fuse(runs, method, norm, params(method, len(runs), k=k))
            results[name, method, norm] = ours, ranx_fused(runs, method, norm, WEIGHTS, k)
    return results


@pytest.mark.parametrize("case", ["sample", "random"])
@pytest.mark.parametrize("method, norm", COMBINATIONS)
def test_every_fused_score_is_ranx_s(judged, case, method, norm):
    ours, theirs = judged[case, method, norm]
    assert list(ours) == list(dict.fromkeys(ours)) and set(ours) == set(theirs)
    worst = 0.0
    for qid, scores in theirs.items():
        assert set(ours[qid]) == set(scores), qid  # the same documents: none dropped, none added
        for docid, score in scores.items():
            worst = max(worst, abs(ours[qid][docid] - score))
    assert worst <= TOLERANCE, (case, method, norm, worst)


def test_the_random_runs_hold_the_cases_they_are_for(cases):
    runs = cases["random"]
    assert ["q10" in run for run in runs] == [True, False, True] and ["q12" in run for run in runs] == [True, False, False]
    missing_docs = sum(1 for qid in runs[0] for docid in runs[0][qid] if qid in runs[1] and docid not in runs[1][qid])
    assert missing_docs > 20
    tied = sum(len(scores) - len(set(scores.values())) for run in runs for scores in run.values())
    assert tied > 0


def test_the_sample_has_a_tie_and_it_is_ranked_as_trec_eval_ranks_it(cases, judged):
    bm25, dense = (run["q06"] for run in cases["sample"])
    assert bm25["doc06-030"] == bm25["doc06-043"] == 0.6799
    ours, _ = judged["sample", "sum", "rank"]
    dense_order = trec_order(dense)

    def dense_part(docid):
        return 1 - dense_order.index(docid) / len(dense) if docid in dense else 0.0

    # bm25 ranks doc06-043 15th and doc06-030 16th of 30: document id descending among equal scores
    assert ours["q06"]["doc06-043"] == pytest.approx((1 - 14 / 30) + dense_part("doc06-043"), abs=1e-15)
    assert ours["q06"]["doc06-030"] == pytest.approx((1 - 15 / 30) + dense_part("doc06-030"), abs=1e-15)


def test_the_input_order_of_documents_and_queries_changes_no_score(cases):
    runs = cases["random"]
    rng = random.Random(5)
    shuffled = []
    for run in runs:
        qids = list(run)
        rng.shuffle(qids)
        copy = {}
        for qid in qids:
            items = list(run[qid].items())
            rng.shuffle(items)
            copy[qid] = dict(items)
        shuffled.append(copy)
    for method, norm in COMBINATIONS:
        given = params(method, 3)
        original, again = fuse(runs, method, norm, given), fuse(shuffled, method, norm, given)
        assert original == {qid: again[qid] for qid in original}, (method, norm)


def test_a_query_missing_from_a_run_is_fused_from_the_others_alone(cases):
    runs = cases["random"]
    without = [runs[0], runs[2]]
    for method, norm in COMBINATIONS:
        both = fuse(runs, method, norm, params(method, 3))["q10"]
        alone = fuse(without, method, norm, params(method, 2, [WEIGHTS[0], WEIGHTS[2]]))["q10"]
        assert both == alone, (method, norm)


@pytest.mark.parametrize(
    "count, method, norm, given, code",
    [
        (1, "sum", "none", None, "fusion_runs"),
        (2, "combsum", "none", None, "fusion_method"),
        (2, "sum", "min_max", None, "fusion_norm"),
        (2, "sum", "none", {"k": 60}, "fusion_param"),
        (2, "rrf", "none", {"k": -1}, "fusion_rrf_k"),
        (2, "rrf", "none", {"k": True}, "fusion_rrf_k"),
        (2, "rrf", "borda", None, "fusion_rrf_borda"),
        (2, "wsum", "none", None, "fusion_weights"),
        (2, "wsum", "none", {"weights": [1, float("nan")]}, "fusion_weights"),
        (3, "wsum", "none", {"weights": [1, 2]}, "fusion_weights"),
    ],
)
def test_settings_ranx_would_refuse_or_misuse_are_errors(count, method, norm, given, code):
    with pytest.raises(LabError) as caught:
        fuse([{"q": {"a": 1.0}}] * count, method, norm, given)
    assert caught.value.code == code
    assert caught.value.render("en") and str(caught.value)
