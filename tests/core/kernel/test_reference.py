"""Agreement with the reference implementations, trec_eval and ranx, on random rankings.

How our conventions map to theirs:

* A ranking of grades ``g_1..g_n`` becomes a run of documents ``d1..dn`` with
  strictly decreasing scores (no ties, so every tool sees the same order).
* The qrels are the ranked documents with their grades plus ``extra``
  judged-relevant documents that were never retrieved; our
  ``total_relevant`` is the number of judged documents with grade >= the
  threshold (trec_eval's ``num_rel``; ranx counts the same).
* Precision and recall: trec_eval ``P_k`` / ``recall_k`` with
  ``relevance_level=threshold`` and ranx ``precision@k-lT`` / ``recall@k-lT``.
* MRR@k: ranx ``mrr@k-lT``; trec_eval's ``recip_rank`` has no cut-off, so it
  gets the run cut at k.
* nDCG@k: ranx ``ndcg_burges@k`` (gain 2^g - 1, log2(i + 1) discount) with
  the ideal over all judgments of the query, i.e. our ``judgments`` argument.
  The lab panel uses the same convention (DESIGN §4.1: its scenario's ranked
  and unretrieved documents are the query's qrels), so its own outputs are
  compared as they are, with no mapping (the last tests of this file).
  Where the ideal is 0 ranx returns 0 and we return None.
  trec_eval's ``ndcg_cut`` uses linear gain, so it is checked against the
  same formula with the gain swapped, through our DCG on ``2**g - 1 = g``
  grades (0 and 1 only).
"""

import random

import pytest
import pytrec_eval

from raglab_core import compute, metrics

from tests.conftest import load_scenario

CASES = 600
TOLERANCE = 1e-12


def random_cases(seed=20261130):
    rng = random.Random(seed)
    for case in range(CASES):
        n = rng.randint(1, 15)
        grades = [rng.choice([0, 0, 1, 2, 3]) for _ in range(n)]
        extra = [rng.randint(1, 3) for _ in range(rng.choice([0, 0, 1, 3]))]
        k = rng.randint(1, n)
        threshold = rng.randint(1, 3)
        yield f"q{case}", grades, extra, k, threshold


def as_trec(qid, grades, extra):
    run = {f"d{i}": float(len(grades) - i) for i in range(len(grades))}
    qrels = {f"d{i}": g for i, g in enumerate(grades)}
    qrels.update({f"x{j}": g for j, g in enumerate(extra)})
    return {qid: qrels}, {qid: run}


@pytest.fixture(scope="module")
def cases():
    return list(random_cases())


def test_precision_recall_mrr_match_trec_eval(cases):
    checked = 0
    for qid, grades, extra, k, threshold in cases:
        qrels, run = as_trec(qid, grades, extra)
        total = sum(1 for g in grades + extra if g >= threshold)
        if total == 0:
            continue  # trec_eval skips queries without relevant judgments
        result = pytrec_eval.RelevanceEvaluator(
            qrels, {f"P.{k}", f"recall.{k}"}, relevance_level=threshold
        ).evaluate(run)[qid]
        assert metrics.precision_at_k(grades, k, threshold) == pytest.approx(result[f"P_{k}"], abs=TOLERANCE)
        assert metrics.recall_at_k(grades, k, threshold, total) == pytest.approx(
            result[f"recall_{k}"], abs=TOLERANCE
        )
        cut_run = {qid: dict(list(run[qid].items())[:k])}
        rr = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}, relevance_level=threshold).evaluate(cut_run)
        assert metrics.mrr_at_k(grades, k, threshold) == pytest.approx(rr[qid]["recip_rank"], abs=TOLERANCE)
        checked += 1
    assert checked >= 500


def test_precision_beyond_the_ranking_matches_trec_eval():
    qrels, run = as_trec("q", [2, 0, 1], [3])
    result = pytrec_eval.RelevanceEvaluator(qrels, {"P.10"}, relevance_level=1).evaluate(run)
    assert metrics.precision_at_k([2, 0, 1], 10, 1) == result["q"]["P_10"] == 2 / 10


def test_linear_gain_ndcg_matches_trec_eval_ndcg_cut_on_binary_grades():
    rng = random.Random(7)
    for case in range(200):
        grades = [rng.randint(0, 1) for _ in range(rng.randint(1, 12))]
        extra = [1] * rng.randint(0, 2)
        if not any(grades + extra):
            continue
        k = rng.randint(1, len(grades))
        qrels, run = as_trec("q", grades, extra)
        result = pytrec_eval.RelevanceEvaluator(qrels, {f"ndcg_cut.{k}"}).evaluate(run)
        # With grades 0/1, 2**g - 1 == g: exponential and linear gain coincide.
        ours = metrics.ndcg_at_k(grades, k, judgments=grades + extra)
        assert ours == pytest.approx(result["q"][f"ndcg_cut_{k}"], abs=TOLERANCE)


def ranx_names(k, threshold):
    return [f"precision@{k}-l{threshold}", f"recall@{k}-l{threshold}", f"mrr@{k}-l{threshold}", f"ndcg_burges@{k}"]


def test_all_metrics_match_ranx(cases):
    from ranx import Qrels, Run, evaluate  # here, not at collection: its import alone takes seconds

    # ranx cannot hold a query without positive judgments: those are left out.
    kept = [case for case in cases if any(g > 0 for g in case[1] + case[2])]
    assert len(kept) >= 500
    qrels, runs = {}, {}
    for qid, grades, extra, _, _ in kept:
        qrels_dict, run_dict = as_trec(qid, grades, extra)
        qrels[qid] = {d: g for d, g in qrels_dict[qid].items() if g > 0}
        runs.update(run_dict)
    run = Run(runs)
    names = sorted({name for _, _, _, k, threshold in kept for name in ranx_names(k, threshold)})
    evaluate(Qrels(qrels), run, names)  # per-query scores land in run.scores
    for qid, grades, extra, k, threshold in kept:
        precision, recall, mrr, ndcg = (run.scores[name][qid] for name in ranx_names(k, threshold))
        total = sum(1 for g in grades + extra if g >= threshold)
        assert metrics.precision_at_k(grades, k, threshold) == pytest.approx(precision, abs=TOLERANCE)
        ours = metrics.recall_at_k(grades, k, threshold, total)
        assert (0.0 if ours is None else ours) == pytest.approx(recall, abs=TOLERANCE)
        assert metrics.mrr_at_k(grades, k, threshold) == pytest.approx(mrr, abs=TOLERANCE)
        assert metrics.ndcg_at_k(grades, k, judgments=grades + extra) == pytest.approx(ndcg, abs=TOLERANCE)


# --- the lab panel itself: its scenario is a qrels file, its displayed ranking a run -------------


def lab_cases(seed=11):
    """Random lab states: k, umbral, rerank depth and edited grades of the default scenario."""
    rng = random.Random(seed)
    scenario = load_scenario()
    for case in range(150):
        grades = [rng.choice([0, 0, 1, 2, 3]) for _ in scenario["documents"]]
        state = {"scenario": scenario, "k": rng.randint(1, 12), "umbral": rng.randint(1, 3),
                 "rerank": rng.randint(0, 12), "grades": grades}
        yield f"lab{case}", state, compute(state)


def lab_as_trec(qid, state, view):
    """The scenario's judgments (ranked and unretrieved) as qrels; the displayed ranking as a run."""
    grades = dict(zip((doc["id"] for doc in state["scenario"]["documents"]), state["grades"]))
    qrels = {**grades, **{doc["id"]: doc["grade"] for doc in state["scenario"]["unretrieved"]}}
    run = {row["id"]: float(len(view["ranking"]) - i) for i, row in enumerate(view["ranking"])}
    return {qid: qrels}, {qid: run}


def test_lab_outputs_match_trec_eval_and_ranx_as_they_are():
    from ranx import Qrels, Run, evaluate

    cases = list(lab_cases())
    qrels_all, runs_all, names = {}, {}, set()
    for qid, state, view in cases:
        qrels, run = lab_as_trec(qid, state, view)
        k, threshold = state["k"], state["umbral"]
        out = view["outputs"]
        # The total in use is trec_eval's num_rel at this relevance level: the judged count.
        result = pytrec_eval.RelevanceEvaluator(qrels, {f"P.{k}", f"recall.{k}"}, relevance_level=threshold).evaluate(run)[qid]
        assert out["precision"]["value"] == pytest.approx(result[f"P_{k}"], abs=TOLERANCE)
        assert out["recall"]["value"] == pytest.approx(result[f"recall_{k}"], abs=TOLERANCE)
        qrels_all[qid] = {d: g for d, g in qrels[qid].items() if g > 0}
        runs_all.update(run)
        names.update((f"ndcg_burges@{k}", f"mrr@{k}-l{threshold}"))
    run = Run(runs_all)
    evaluate(Qrels(qrels_all), run, sorted(names))
    for qid, state, view in cases:
        k, threshold = state["k"], state["umbral"]
        assert view["outputs"]["ndcg"]["value"] == pytest.approx(run.scores[f"ndcg_burges@{k}"][qid], abs=TOLERANCE)
        assert view["outputs"]["mrr"]["value"] == pytest.approx(run.scores[f"mrr@{k}-l{threshold}"][qid], abs=TOLERANCE)
