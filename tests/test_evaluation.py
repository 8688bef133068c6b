"""The evaluator and the comparison against trec_eval (via pytrec_eval) and ranx.

How the references are called, and why:

* trec_eval 9 through pytrec_eval: ``RelevanceEvaluator(qrels, {"P.k",
  "recall.k", "ndcg_cut.k"}, relevance_level=umbral)`` on the whole run. It
  sorts the run itself (score descending, then docid descending), so these
  checks also test our tie-breaking on runs full of tied scores.
  ``recip_rank`` has no cut-off, so it gets the run cut at k: each query's
  documents sorted by (score, docid) descending, the first k kept with their
  scores (trec_eval re-sorts them into the same order). ``ndcg_cut`` is
  linear-gain nDCG and ignores ``relevance_level``: our ``gain="linear"``.
* ranx: ``precision@k-lU``, ``recall@k-lU``, ``mrr@k-lU`` and
  ``ndcg_burges@k`` (exponential gain: our default). ranx breaks score ties
  by its sort's whim, so it gets the run re-scored with strictly decreasing
  scores in trec_eval's order. ranx evaluates exactly the qrels' queries: for
  the default mode both sides are first restricted to the common queries; for
  ``complete=True`` it is run with ``make_comparable=True``, which gives every
  qrels query missing from the run an empty ranking, as ``trec_eval -c`` does.
* Where a value is undefined (no relevant judgment for recall, IDCG 0 for
  nDCG) we say ``None``; both references say 0, and average it as 0.
"""

import math
import statistics
import struct

import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from raglab_core.errors import LabError
from raglab_core.metrics import dcg_at_k, ndcg_at_k
from raglab_core.evaluation import (
    METRICS,
    QueryScores,
    evaluate_run,
    trec_order,
)
from raglab_core.report import compare_runs, randomization_test

from .trec_data import nudged_run, random_collection

TOLERANCE = 1e-9
KS = (1, 3, 5, 10, 20)
UMBRALES = (1, 2, 3)


@pytest.fixture(scope="module")
def collection():
    return random_collection(seed=20261130, queries=240)


def as_c_float(score):
    return struct.unpack("f", struct.pack("f", score))[0]


def reference_order(scores):
    """trec_eval's order, written independently of ``trec_order``: (C float score, docid) descending."""
    return [docid for docid, _ in sorted(scores.items(), key=lambda item: (as_c_float(item[1]), item[0]), reverse=True)]


def cut(run, k):
    return {qid: {docid: scores[docid] for docid in reference_order(scores)[:k]} for qid, scores in run.items()}


def zero_if_none(value):
    return 0.0 if value is None else value


# --- the collection really has what the conventions are about ---------------------------------


def test_the_generated_collection_has_ties_unjudged_documents_and_one_sided_queries(collection):
    qrels, run, _ = collection
    common = qrels.keys() & run.keys()
    assert len(common) >= 200
    assert run.keys() - qrels.keys() and qrels.keys() - run.keys()
    assert sum(len(set(scores.values())) < len(scores) for scores in run.values()) >= 100  # ties
    near = [s for s in run.values() if len(s) > 1 and len(set(s.values())) > len({as_c_float(v) for v in s.values()})]
    assert len(near) >= 20  # ties only in single precision
    assert sum(bool(run[q].keys() - qrels[q].keys()) for q in common) >= 100  # unjudged retrieved
    assert any(not any(grade > 0 for grade in qrels[q].values()) for q in common)  # judged, none relevant
    assert {grade for judged in qrels.values() for grade in judged.values()} == {0, 1, 2, 3}


# --- tie-breaking ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "docids",
    [("a", "b"), ("b", "a"), ("a", "B"), ("a", "ab"), ("a9", "a10"), ("é", "z"), ("doc-1", "doc_1", "doc.1")],
)
def test_ties_are_broken_by_docid_descending_like_trec_eval(docids):
    run = {docid: 1.0 for docid in docids}
    ours = trec_order(run)
    assert ours == sorted(docids, reverse=True)
    # trec_eval puts the first of our ranking at rank 1: it is the only relevant document.
    result = pytrec_eval.RelevanceEvaluator({"q": {ours[0]: 1}}, {"recip_rank"}).evaluate({"q": run})
    assert result["q"]["recip_rank"] == 1.0


@pytest.mark.parametrize(
    "high, low, tied",
    [(1.000000001, 1.0, True), (1.0000001, 1.0, False), (1e-300, 0.0, True), (1e300, 1e301, True), (1e39, 3e38, False)],
)
def test_scores_are_compared_in_single_precision_like_trec_eval(high, low, tied):
    # "a" has the higher double; on a tie "b" wins (docid descending).
    run = {"a": high, "b": low}
    expected = ["b", "a"] if tied else ["a", "b"]
    assert trec_order(run) == expected
    result = pytrec_eval.RelevanceEvaluator({"q": {"a": 1}}, {"recip_rank"}).evaluate({"q": run})
    assert result["q"]["recip_rank"] == (0.5 if tied else 1.0)


def test_single_precision_rounds_like_c_even_where_arrays_refuse_large_values(monkeypatch):
    import array

    from raglab_core import evaluation

    def strict_array(typecode, values):
        values = list(values)
        if any(abs(value) > 3.4028234663852886e38 and math.isfinite(value) for value in values):
            raise OverflowError("float too large")
        return array.array(typecode, values)

    values = [0.1, 1e300, -1e39, 3.40282350e38, 3.4028236e38, 1.000000001]
    expected = [as_c_float(value) for value in values]
    assert expected == [0.10000000149011612, math.inf, -math.inf, 3.4028234663852886e38, math.inf, 1.0]
    assert evaluation.single_precision(values) == expected
    monkeypatch.setattr(evaluation, "array", strict_array)
    assert evaluation.single_precision(values) == expected


def test_trec_order_with_a_depth_keeps_the_tied_documents_in_order():
    scores = {"a": 0.5, "b": 0.9, "c": 0.5, "d": 0.5, "e": 0.1}
    assert trec_order(scores, depth=3) == ["b", "d", "c"]
    assert trec_order(scores, depth=10) == ["b", "d", "c", "a", "e"]
    assert trec_order({}, depth=3) == []


# --- agreement with trec_eval ------------------------------------------------------------------


@pytest.mark.parametrize("umbral", UMBRALES)
def test_precision_recall_mrr_and_linear_ndcg_equal_trec_eval(collection, umbral):
    qrels, run, _ = collection
    measures = {f"{name}.{k}" for k in KS for name in ("P", "recall", "ndcg_cut")}
    reference = pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=umbral).evaluate(run)
    for k in KS:
        rr = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}, relevance_level=umbral).evaluate(cut(run, k))
        ours = evaluate_run(qrels, run, k=k, umbral=umbral, gain="linear")
        assert ours.per_query.keys() == reference.keys() == rr.keys()  # the same queries evaluated
        for qid, scores in ours.per_query.items():
            expected = reference[qid]
            assert scores.precision == pytest.approx(expected[f"P_{k}"], abs=TOLERANCE)
            assert zero_if_none(scores.recall) == pytest.approx(expected[f"recall_{k}"], abs=TOLERANCE)
            assert scores.mrr == pytest.approx(rr[qid]["recip_rank"], abs=TOLERANCE)
            assert zero_if_none(scores.ndcg) == pytest.approx(expected[f"ndcg_cut_{k}"], abs=TOLERANCE)
        # trec_eval's summary line: the mean over the evaluated queries.
        for name, measure in [("precision", f"P_{k}"), ("recall", f"recall_{k}"), ("ndcg", f"ndcg_cut_{k}")]:
            mean = statistics.fmean(values[measure] for values in reference.values())
            assert getattr(ours.mean, name) == pytest.approx(mean, abs=TOLERANCE)
        assert ours.mean.mrr == pytest.approx(statistics.fmean(v["recip_rank"] for v in rr.values()), abs=TOLERANCE)


def test_complete_mode_averages_over_every_qrels_query_like_trec_eval_c(collection):
    qrels, run, _ = collection
    reference = pytrec_eval.RelevanceEvaluator(qrels, {"P.5", "ndcg_cut.5"}, relevance_level=2).evaluate(run)
    ours = evaluate_run(qrels, run, k=5, umbral=2, gain="linear", complete=True)
    assert ours.per_query.keys() == qrels.keys()
    for qid in ours.not_in_run:  # trec_eval -c: an empty ranking, every metric 0
        scores = ours.per_query[qid]
        assert scores.precision == scores.mrr == 0.0
        assert scores.recall in (0.0, None) and scores.ndcg in (0.0, None)
    for name, measure in [("precision", "P_5"), ("ndcg", "ndcg_cut_5")]:
        padded = [reference[qid][measure] if qid in reference else 0.0 for qid in qrels]
        assert getattr(ours.mean, name) == pytest.approx(statistics.fmean(padded), abs=TOLERANCE)


def test_queries_judged_only_non_relevant_are_evaluated_and_score_zero_like_trec_eval():
    qrels = {"q1": {"a": 1}, "q2": {"a": 0, "b": 0}}
    run = {"q1": {"a": 1.0}, "q2": {"a": 2.0, "b": 1.0}}
    reference = pytrec_eval.RelevanceEvaluator(qrels, {"P.2", "recall.2", "ndcg_cut.2", "recip_rank"}).evaluate(run)
    assert reference["q2"] == {"P_2": 0.0, "recall_2": 0.0, "ndcg_cut_2": 0.0, "recip_rank": 0.0}
    ours = evaluate_run(qrels, run, k=2)
    assert ours.per_query["q2"] == QueryScores(precision=0.0, recall=None, mrr=0.0, ndcg=None)
    assert ours.mean == QueryScores(precision=(1 / 2) / 2, recall=1 / 2, mrr=1 / 2, ndcg=1 / 2)


def test_negative_grades_are_non_relevant_with_zero_gain_like_trec_eval():
    qrels = {"q": {"a": -1, "b": 2, "c": 1, "d": -2}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0, "x": 0.5}}
    reference = pytrec_eval.RelevanceEvaluator(qrels, {"P.3", "recall.3", "ndcg_cut.3"}).evaluate(run)["q"]
    ours = evaluate_run(qrels, run, k=3, gain="linear").per_query["q"]
    expected_ndcg = (2 / math.log2(3) + 1 / math.log2(4)) / (2 + 1 / math.log2(3))
    assert ours.ndcg == pytest.approx(reference["ndcg_cut_3"], abs=TOLERANCE) == pytest.approx(expected_ndcg)
    assert ours.precision == reference["P_3"] == 2 / 3
    assert ours.recall == reference["recall_3"] == 1.0


def test_skipped_queries_are_reported(collection):
    qrels, run, _ = collection
    result = evaluate_run(qrels, run, k=5)
    assert result.not_in_qrels == tuple(sorted(run.keys() - qrels.keys()))
    assert result.not_in_run == tuple(sorted(qrels.keys() - run.keys()))
    assert len(result.not_in_qrels) == 10 and len(result.not_in_run) == 10


# --- agreement with ranx -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def ranx_scores(collection):
    """ranx's per-query values and means for every (k, umbral), default and complete mode."""
    from ranx import Qrels, Run, evaluate

    qrels, run, _ = collection
    names = [f"{m}@{k}-l{u}" for k in KS for u in UMBRALES for m in ("precision", "recall", "mrr")]
    names += [f"ndcg_burges@{k}" for k in KS]
    strict = {qid: {d: float(len(s) - i) for i, d in enumerate(reference_order(s))} for qid, s in run.items()}
    common = qrels.keys() & run.keys()
    default = Run({qid: strict[qid] for qid in common})
    means = evaluate(Qrels({qid: qrels[qid] for qid in common}), default, names)
    complete = Run(strict)
    complete_means = evaluate(Qrels(qrels), complete, names, make_comparable=True)
    return default.scores, means, complete_means


@pytest.mark.parametrize("k", KS)
@pytest.mark.parametrize("umbral", UMBRALES)
def test_all_metrics_and_means_equal_ranx(collection, ranx_scores, k, umbral):
    qrels, run, _ = collection
    per_query, means, complete_means = ranx_scores
    names = {"precision": f"precision@{k}-l{umbral}", "recall": f"recall@{k}-l{umbral}",
             "mrr": f"mrr@{k}-l{umbral}", "ndcg": f"ndcg_burges@{k}"}
    ours = evaluate_run(qrels, run, k=k, umbral=umbral)
    assert ours.per_query.keys() == per_query[names["precision"]].keys()
    for qid, scores in ours.per_query.items():
        for metric, name in names.items():
            assert zero_if_none(getattr(scores, metric)) == pytest.approx(per_query[name][qid], abs=TOLERANCE)
    complete = evaluate_run(qrels, run, k=k, umbral=umbral, complete=True)
    for metric, name in names.items():
        assert getattr(ours.mean, metric) == pytest.approx(means[name], abs=TOLERANCE)
        assert getattr(complete.mean, metric) == pytest.approx(complete_means[name], abs=TOLERANCE)


# --- definitions, by hand ----------------------------------------------------------------------


def test_one_query_by_hand_both_gains():
    qrels = {"q": {"a": 3, "b": 0, "c": 2, "d": 1, "e": 3}}
    run = {"q": {"b": 0.9, "a": 0.8, "x": 0.8, "c": 0.1}}  # ranking b, x, a, c  (x > a on the tie)
    ideal_exp = 7 + 7 / math.log2(3) + 3 / math.log2(4)
    ideal_lin = 3 + 3 / math.log2(3) + 2 / math.log2(4)
    exponential = evaluate_run(qrels, run, k=3, umbral=2).per_query["q"]
    assert exponential == QueryScores(
        precision=1 / 3, recall=1 / 3, mrr=1 / 3, ndcg=pytest.approx((7 / math.log2(4)) / ideal_exp)
    )
    linear = evaluate_run(qrels, run, k=3, umbral=2, gain="linear").per_query["q"]
    assert linear.ndcg == pytest.approx((3 / math.log2(4)) / ideal_lin)
    k5 = evaluate_run(qrels, run, k=5, umbral=3).per_query["q"]  # 1 of 5; relevant a, e; first at 3
    assert (k5.precision, k5.recall, k5.mrr) == (1 / 5, 1 / 2, 1 / 3)


def test_linear_dcg_definitions():
    assert dcg_at_k([2, 0, 1], k=3, gain="linear") == pytest.approx(2 + 1 / math.log2(4))
    assert dcg_at_k([2, 0, 1], k=1, gain="linear") == 2.0
    assert ndcg_at_k([1, 2], k=2, judgments=[2, 1], gain="linear") == pytest.approx(
        (1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3))
    )
    assert ndcg_at_k([], k=2, judgments=[], gain="linear") is None


@pytest.mark.parametrize(
    "settings, field",
    [({"k": 0}, "k"), ({"k": 2.5}, "k"), ({"umbral": 0}, "umbral"), ({"umbral": True}, "umbral"), ({"gain": "log"}, "gain")],
)
def test_bad_settings_raise_lab_error(settings, field):
    with pytest.raises(LabError) as caught:
        evaluate_run({"q": {"a": 1}}, {"q": {"a": 1.0}}, **settings)
    assert caught.value.field == field


def test_no_common_query_gives_zero_means_and_no_per_query_values():
    result = evaluate_run({"q1": {"a": 1}}, {"q2": {"a": 1.0}})
    assert result.per_query == {} and result.mean == QueryScores(0.0, 0.0, 0.0, 0.0)


# --- comparison -------------------------------------------------------------------------------


def test_deltas_wins_ties_losses_and_mean_delta(collection):
    qrels, run_a, run_b = collection
    first, second = evaluate_run(qrels, run_a, k=5), evaluate_run(qrels, run_b, k=5)
    comparison = compare_runs(first, second, permutations=200)
    assert comparison.queries == tuple(first.per_query) and comparison.unpaired == ()
    for index, name in enumerate(METRICS):
        result = comparison.metrics[name]
        expected = {q: zero_if_none(second.per_query[q][index]) - zero_if_none(first.per_query[q][index]) for q in comparison.queries}
        assert result.deltas == expected
        assert (result.wins, result.ties, result.losses) == (
            sum(d > 0 for d in expected.values()), sum(d == 0 for d in expected.values()), sum(d < 0 for d in expected.values()),
        )
        assert result.wins + result.ties + result.losses == len(comparison.queries)
        assert result.mean_delta == pytest.approx(getattr(second.mean, name) - getattr(first.mean, name), abs=TOLERANCE)


def test_unpaired_queries_are_left_out_of_the_comparison():
    qrels = {"q1": {"a": 1}, "q2": {"a": 1}, "q3": {"a": 1}}
    first = evaluate_run(qrels, {"q1": {"a": 1.0}, "q2": {"a": 1.0}}, k=1)
    second = evaluate_run(qrels, {"q2": {"b": 1.0}, "q3": {"a": 1.0}}, k=1)
    comparison = compare_runs(first, second, permutations=100)
    assert comparison.queries == ("q2",) and comparison.unpaired == ("q1", "q3")
    assert comparison.metrics["precision"].deltas == {"q2": -1.0}
    complete = compare_runs(*(evaluate_run(qrels, r, k=1, complete=True) for r in (
        {"q1": {"a": 1.0}, "q2": {"a": 1.0}}, {"q2": {"b": 1.0}, "q3": {"a": 1.0}})), permutations=100)
    assert complete.queries == ("q1", "q2", "q3") and complete.metrics["precision"].deltas == {"q1": -1.0, "q2": -1.0, "q3": 1.0}


def test_comparing_evaluations_with_different_settings_is_refused():
    qrels, run = {"q": {"a": 1}}, {"q": {"a": 1.0}}
    with pytest.raises(LabError):
        compare_runs(evaluate_run(qrels, run, k=1), evaluate_run(qrels, run, k=2))


def test_identical_runs_give_p_one_and_all_ties(collection):
    qrels, run, _ = collection
    result = evaluate_run(qrels, run, k=10)
    comparison = compare_runs(result, result)
    for name in METRICS:
        assert comparison.metrics[name].p_value == 1.0
        assert comparison.metrics[name].ties == len(result.per_query)


def test_a_run_that_is_always_better_gives_p_zero(collection):
    qrels, run, _ = collection
    perfect = {qid: {docid: float(grade) for docid, grade in judged.items()} for qid, judged in qrels.items()}
    comparison = compare_runs(evaluate_run(qrels, run, k=10, complete=True), evaluate_run(qrels, perfect, k=10, complete=True))
    for name in METRICS:
        assert comparison.metrics[name].p_value == 0.0
        assert comparison.metrics[name].losses == 0


def test_p_value_is_deterministic_for_a_seed_and_depends_on_it():
    deltas = [0.1 * ((i * 7) % 11 - 4.8) for i in range(60)]
    first = randomization_test(deltas, permutations=2000, seed=1)
    assert first == randomization_test(deltas, permutations=2000, seed=1)
    assert 0.05 < first < 0.95
    assert first != randomization_test(deltas, permutations=2000, seed=2)


def test_p_value_of_tiny_samples_is_the_exact_share_of_sign_vectors():
    # Deltas (1, 1): sign vectors ++ and -- reach |T| = 2, +- and -+ give 0: p -> 1/2.
    assert randomization_test([1.0, 1.0], permutations=20000, seed=3) == pytest.approx(0.5, abs=0.015)
    # (1, 2, 3): only +++ and --- reach |T| = 6; ++-/--+ give |T| = 0 ...: p -> 2/8.
    assert randomization_test([1.0, 2.0, 3.0], permutations=20000, seed=3) == pytest.approx(0.25, abs=0.015)
    # Zero deltas change no sum: (1, 0, 0, 1) is (1, 1).
    assert randomization_test([1.0, 0.0, 0.0, 1.0], permutations=20000, seed=3) == pytest.approx(0.5, abs=0.015)


def test_ties_with_the_observed_sum_count_despite_rounding():
    # 0.1 + 0.2 != 0.3 in floating point, yet |0.1 + 0.2 - 0.3| ties with |-0.1 - 0.2 + 0.3|...
    # and the sign vectors (+, +, +) and (-, -, -) are the only ones reaching the observed |0.6|,
    # while (+, +, -) and (-, -, +) tie with 0: here p = 1/4 exactly when ties are counted.
    assert randomization_test([0.1, 0.2, 0.3], permutations=20000, seed=5) == pytest.approx(0.25, abs=0.015)
    assert randomization_test([0.1, 0.2, -0.3], permutations=20000, seed=5) == 1.0


def test_p_value_agrees_with_ranx_fisher_randomization_test(collection):
    from ranx import Qrels, Run, compare

    qrels, run_a, run_b = collection
    run_c = nudged_run(qrels, run_b, share=1 / 8, seed=5)  # slightly better than run_a: moderate p-values
    common = sorted(qrels.keys() & run_a.keys())
    strict = [
        Run({q: {d: float(len(r[q]) - i) for i, d in enumerate(reference_order(r[q]))} for q in common}, name=name)
        for r, name in ((run_a, "a"), (run_c, "c"))
    ]
    names = {"precision": "precision@10-l1", "recall": "recall@10-l1", "mrr": "mrr@10-l1", "ndcg": "ndcg_burges@10"}
    report = compare(Qrels({q: qrels[q] for q in common}), strict, list(names.values()),
                     stat_test="fisher", n_permutations=10_000, random_seed=42)
    ours = compare_runs(evaluate_run(qrels, run_a, k=10), evaluate_run(qrels, run_c, k=10), permutations=10_000, seed=42)
    gaps = {}
    for metric, name in names.items():
        theirs = report.comparisons["a", "c"][name]["p_value"]
        mine = ours.metrics[metric].p_value
        gaps[metric] = (mine, theirs)
        # Each estimate has a standard error <= sqrt(0.25 / 10_000) = 0.005: a gap of 0.02 is ~3 sigma.
        assert abs(mine - theirs) < 0.02, (metric, mine, theirs)
    assert sum(0.05 < theirs < 0.95 for _, theirs in gaps.values()) >= 2, f"want moderate p-values: {gaps}"


# --- properties ----------------------------------------------------------------------------------

docids = st.sampled_from([f"d{i}" for i in range(12)])
qids = st.sampled_from(["q1", "q2", "q3", "q4"])
some_qrels = st.dictionaries(qids, st.dictionaries(docids, st.integers(-2, 4), min_size=1), min_size=1)
some_runs = st.dictionaries(qids, st.dictionaries(docids, st.sampled_from([0.0, 0.5, 1.0, 1.000000001, -3.0, 7.25]), min_size=1))


@settings(max_examples=200, deadline=None)
@given(some_qrels, some_runs, st.integers(1, 15), st.integers(1, 4), st.sampled_from(["exponential", "linear"]), st.booleans())
def test_every_value_lies_in_the_unit_interval_and_precision_matches_recall(qrels, run, k, umbral, gain, complete):
    result = evaluate_run(qrels, run, k=k, umbral=umbral, gain=gain, complete=complete)
    for qid, scores in result.per_query.items():
        assert all(value is None or 0.0 <= value <= 1.0 for value in scores)
        total = sum(1 for grade in qrels[qid].values() if grade >= umbral)
        assert (scores.recall is None) == (total == 0)
        if total:  # both count the relevant documents in the top k
            assert scores.precision * k == pytest.approx(scores.recall * total)
        assert (scores.ndcg is None) == (not any(grade > 0 for grade in qrels[qid].values()))
        assert (scores.mrr > 0) == (scores.precision > 0)
    assert all(0.0 <= value <= 1.0 for value in result.mean)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(-1, 1), max_size=40), st.integers(0, 2**32))
def test_p_values_are_shares_of_the_permutations_and_sign_symmetric(deltas, seed):
    p = randomization_test(deltas, permutations=100, seed=seed)
    assert 0.0 <= p <= 1.0 and p * 100 == pytest.approx(round(p * 100))
    assert p == randomization_test([-delta for delta in deltas], permutations=100, seed=seed)
