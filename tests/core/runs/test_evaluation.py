"""The evaluator against ir_measures 0.4.3 (trec_eval through pytrec_eval), ranx, scipy and trec_eval's conventions.

How the references are called, and why:

* ir_measures' ``pytrec_eval`` provider (``ir_measures.pytrec_eval.iter_calc``)
  for P, R, RR, AP, Success and linear nDCG, any cut-off and ``rel=``: it runs
  trec_eval 9 (single-precision scores), so ours runs with ``ties="float32"``;
  ir_measures reports 0 for every qrels query missing from the run, so ours runs
  with ``complete=True``. The provider has no ``RR@k`` (ir_measures' default
  provider for it breaks score ties its own way): ``RR@k`` is compared as
  ``RR`` on the run cut at k in trec_eval's order. ``R(rel=r)`` is not routed
  to pytrec_eval by ir_measures, so it is compared with pytrec_eval's
  ``recall_k`` at ``relevance_level=r`` directly.
* ir_measures' own ``Judged`` (its ``judged`` provider; it sorts ties by docid
  ascending, trec_eval descending), on the run cut at k in trec_eval's order,
  where both see the same top k.
* ranx's ``ndcg_burges@k`` for ``nDCG(dcg='exp-log2')@k``, on the run
  re-scored with strictly decreasing scores in trec_eval's order (ranx leaves
  ties to its sort), over the queries both evaluate.
* scipy's ``permutation_test`` for the paired randomization test's p-value.
* Where a value is undefined (no relevant judgment for recall or AP, IDCG 0 for
  nDCG) we say ``None``; the references say 0, and average it as 0.
"""

import math
import struct

import ir_measures
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from raglab_core.errors import LabError
from raglab_core.runs.measures import DEFAULT_MEASURES, lab_measures, parse_measure, parse_measures
from raglab_core.runs.evaluation import TIES, evaluate_run, trec_order
from raglab_core.runs.comparison import compare_runs
from raglab_core.runs.statistics import randomization_test

from tests.support.trec_data import nudged_run, random_collection

TOLERANCE = 1e-9
CUTOFFS = (1, 2, 3, 5, 10, 20, 100, 1000)
LAB5 = lab_measures(5, 2)


@pytest.fixture(scope="module")
def collection():
    return random_collection(seed=20261130, queries=240)


@pytest.fixture(scope="module")
def collections():
    """Three more collections, one with long rankings (cut-offs up to 1000 matter)."""
    return [random_collection(seed=seed, queries=60) for seed in (1, 2)] + [
        random_collection(seed=3, queries=30, max_docs=1200)
    ]


def as_c_float(score):
    return struct.unpack("f", struct.pack("f", score))[0]


def reference_order(scores, single=True):
    """trec_eval's order, written independently of ``trec_order``: (score, docid) descending."""
    key = (lambda item: (as_c_float(item[1]), item[0])) if single else (lambda item: (item[1], item[0]))
    return [docid for docid, _ in sorted(scores.items(), key=key, reverse=True)]


def cut(run, k, single=True):
    return {qid: {docid: scores[docid] for docid in reference_order(scores, single)[:k]} for qid, scores in run.items()}


def zero_if_none(value):
    return 0.0 if value is None else value


def ours_by_query(qrels, run, name, **options):
    result = evaluate_run(qrels, run, [name], **options)
    return {qid: zero_if_none(values[0]) for qid, values in result.per_query.items()}


def assert_same(ours, theirs, label):
    assert ours.keys() == theirs.keys(), label
    wrong = {q: (ours[q], theirs[q]) for q in ours if abs(ours[q] - theirs[q]) > TOLERANCE}
    assert not wrong, (label, list(wrong.items())[:3])


# --- the collections really have what the conventions are about ------------------------------


def test_the_generated_collection_has_ties_unjudged_documents_and_one_sided_queries(collection, collections):
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
    assert max(len(scores) for scores in collections[2][1].values()) > 1000  # R@1000, AP@1000 cut something


# --- names --------------------------------------------------------------------------------------

NAMES = [
    "P@1", "P(rel=2)@5", "P(rel=1)@10", "R@100", "R(rel=3)@1000", "RR", "RR@10", "RR(rel=2)@10", "MRR@10", "AP",
    "AP@100", "MAP(rel=2)@5", "Success@10", "Success(rel=2)@1", "Judged@10", "Judged", "nDCG", "nDCG@10",
    "NDCG@3", "nDCG(dcg='log2')@10", "nDCG(dcg='exp-log2')@10", 'nDCG(dcg="exp-log2")', "Precision@5", "Recall@20",
]


@pytest.mark.parametrize("name", NAMES)
def test_measure_names_print_as_ir_measures_prints_them(name):
    assert str(parse_measure(name)) == str(ir_measures.parse_measure(name))


@pytest.mark.parametrize(
    "name, code",
    [("ERR@10", "measure_unknown"), ("nDCG(gains={0:1})@10", "measure_unknown"), ("Judged(rel=2)@10", "measure_unknown"),
     ("P(judged_only=True)@5", "measure_unknown"), ("P", "measure_needs_cutoff"), ("Success", "measure_needs_cutoff"),
     ("P(rel=x)@5", "measure_param"), ("P(rel=0)@5", "measure_param"), ("nDCG(dcg='exp')@5", "measure_param"),
     ("P@0", "measure_cutoff"), ("P@١", "measure_unknown"), ("nDCG@10)", "measure_unknown")],
)
def test_unsupported_measures_are_refused_with_the_list_of_supported_ones(name, code):
    with pytest.raises(LabError) as caught:
        parse_measures(name)
    assert caught.value.code == code and caught.value.field == "measures"
    english = caught.value.render("en")
    assert repr(name) in english
    if code == "measure_unknown":
        assert "Supported: P@k, P(rel=r)@k, R@k, RR, RR@k, AP, AP@k, Success@k, Judged@k, nDCG" in english


def test_default_and_lab_measures():
    assert [str(m) for m in parse_measures(DEFAULT_MEASURES)] == DEFAULT_MEASURES.split()
    assert [str(m) for m in lab_measures(10, 1, "linear")] == ["P@10", "R@10", "RR@10", "nDCG@10"]
    with pytest.raises(LabError):
        parse_measures("  ")


# --- tie-breaking ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "docids",
    [("a", "b"), ("b", "a"), ("a", "B"), ("a", "ab"), ("a9", "a10"), ("é", "z"), ("doc-1", "doc_1", "doc.1")],
)
def test_ties_are_broken_by_docid_descending_like_trec_eval(docids):
    run = {docid: 1.0 for docid in docids}
    ours = trec_order(run)
    assert ours == sorted(docids, reverse=True) == trec_order(run, ties="float32")
    # trec_eval puts the first of our ranking at rank 1: it is the only relevant document.
    result = pytrec_eval.RelevanceEvaluator({"q": {ours[0]: 1}}, {"recip_rank"}).evaluate({"q": run})
    assert result["q"]["recip_rank"] == 1.0


@pytest.mark.parametrize(
    "high, low, tied",
    [(1.000000001, 1.0, True), (1.0000001, 1.0, False), (1e-300, 0.0, True), (1e300, 1e301, True), (1e39, 3e38, False)],
)
def test_float32_ties_are_pytrec_evals_and_double_ties_are_rankings_by_the_double(high, low, tied):
    # "a" has the higher double; on a tie "b" wins (docid descending).
    run = {"a": high, "b": low}
    assert trec_order(run, ties="float32") == (["b", "a"] if tied else ["a", "b"])
    assert trec_order(run) == (["a", "b"] if high > low else ["b", "a"])
    result = pytrec_eval.RelevanceEvaluator({"q": {"a": 1}}, {"recip_rank"}).evaluate({"q": run})
    assert result["q"]["recip_rank"] == (0.5 if tied else 1.0)


def test_ties_float32_equals_pytrec_eval_on_ties_that_exist_only_in_single_precision():
    # Every query's scores differ as doubles but tie as C floats: the order is the docids'.
    qrels = {f"q{i}": {f"d{j}": (i + j) % 3 for j in range(8)} for i in range(20)}
    run = {f"q{i}": {f"d{j}": 1.0 + ((i * 5 + j * 3) % 8) * 1e-9 for j in range(8)} for i in range(20)}
    assert all(len({as_c_float(s) for s in scores.values()}) == 1 < len(set(scores.values())) for scores in run.values())
    names = ["P@3", "RR", "AP", "nDCG@5", "Success@1"]
    single = evaluate_run(qrels, run, names, ties="float32")
    double = evaluate_run(qrels, run, names)
    for index, name in enumerate(names):
        theirs = {m.query_id: m.value for m in ir_measures.pytrec_eval.iter_calc([ir_measures.parse_measure(name)], qrels, run)}
        assert_same({q: zero_if_none(v[index]) for q, v in single.per_query.items()}, theirs, name)
    assert single.per_query != double.per_query  # the double order differs: these are real ties only in float32


def test_trec_order_with_a_depth_keeps_the_tied_documents_in_order():
    scores = {"a": 1.0, "b": 2.0, "c": 2.0, "d": 0.5, "e": 2.0}
    assert trec_order(scores, depth=2) == ["e", "c"]
    assert trec_order(scores, depth=4) == trec_order(scores)[:4] == ["e", "c", "b", "a"]


# --- agreement with ir_measures (trec_eval through pytrec_eval) ------------------------------------


def pytrec_measures():
    names = []
    for k in CUTOFFS:
        names += [f"P@{k}", f"R@{k}", f"AP@{k}", f"Success@{k}", f"nDCG@{k}"]
        names += [f"P(rel={rel})@{k}" for rel in (2, 3)] + [f"AP(rel={rel})@{k}" for rel in (2, 3)]
        names += [f"Success(rel={rel})@{k}" for rel in (2, 3)]
    return names + ["RR", "RR(rel=2)", "RR(rel=3)", "AP", "AP(rel=2)", "nDCG"]


def test_every_measure_equals_ir_measures_through_pytrec_eval(collection, collections):
    names = pytrec_measures()
    measures = [ir_measures.parse_measure(name) for name in names]
    for qrels, run, other in [collection, *collections]:
        for r in (run, other):
            ours = evaluate_run(qrels, r, names, ties="float32", complete=True)
            theirs = {}
            for metric in ir_measures.pytrec_eval.iter_calc(measures, qrels, r):
                theirs.setdefault(str(metric.measure), {})[metric.query_id] = metric.value
            for index, name in enumerate(ours.names):
                assert_same({q: zero_if_none(v[index]) for q, v in ours.per_query.items()}, theirs[name], name)
                mean = ir_measures.pytrec_eval.calc_aggregate([ir_measures.parse_measure(name)], qrels, r)
                assert ours.mean[index] == pytest.approx(next(iter(mean.values())), abs=TOLERANCE), name


@pytest.mark.parametrize("rel", (1, 2, 3))
def test_rr_at_k_equals_ir_measures_rr_on_the_run_cut_at_k(collection, rel):
    qrels, run, _ = collection
    for k in CUTOFFS[:6]:
        measure = ir_measures.parse_measure(f"RR(rel={rel})")
        theirs = {m.query_id: m.value for m in ir_measures.pytrec_eval.iter_calc([measure], qrels, cut(run, k))}
        ours = ours_by_query(qrels, run, f"RR(rel={rel})@{k}", ties="float32", complete=True)
        assert_same(ours, theirs, f"RR(rel={rel})@{k}")


@pytest.mark.parametrize("rel", (2, 3))
def test_recall_with_rel_equals_pytrec_eval_at_that_relevance_level(collection, collections, rel):
    for qrels, run, _ in [collection, *collections]:
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, {f"recall.{k}" for k in CUTOFFS}, relevance_level=rel)
        result = evaluator.evaluate(run)
        for k in CUTOFFS:
            theirs = {q: values[f"recall_{k}"] for q, values in result.items()}
            ours = ours_by_query(qrels, run, f"R(rel={rel})@{k}", ties="float32")
            assert_same(ours, theirs, f"R(rel={rel})@{k}")


def test_judged_equals_ir_measures_judged_on_the_run_cut_at_k(collection, collections):
    for qrels, run, _ in [collection, *collections]:
        for k in CUTOFFS:
            cut_run = cut(run, k, single=False)
            measure = ir_measures.parse_measure(f"Judged@{k}")
            theirs = {m.query_id: m.value for m in ir_measures.judged.iter_calc([measure], qrels, cut_run)}
            ours = ours_by_query(qrels, run, f"Judged@{k}", complete=True)  # ir_measures: 0 for a missing query
            assert_same(ours, theirs, f"Judged@{k}")


def test_complete_mode_averages_over_every_qrels_query_like_trec_eval_c(collection):
    qrels, run, _ = collection
    partial, complete = evaluate_run(qrels, run, ["P@5"]), evaluate_run(qrels, run, ["P@5"], complete=True)
    assert set(complete.per_query) == set(qrels) and set(partial.per_query) == set(qrels) & set(run)
    assert complete.mean[0] == pytest.approx(partial.mean[0] * len(partial.per_query) / len(complete.per_query))
    assert all(complete.per_query[q] == (0.0,) for q in complete.not_in_run)


def test_queries_judged_only_non_relevant_are_evaluated_and_score_zero_like_trec_eval():
    result = evaluate_run({"q": {"a": 0, "b": 0}}, {"q": {"a": 1.0, "b": 0.5}}, ["P@2", "R@2", "RR", "AP", "nDCG", "Judged@2"])
    assert result.per_query == {"q": (0.0, None, 0.0, None, None, 1.0)}
    assert result.mean == (0.0, 0.0, 0.0, 0.0, 0.0, 1.0)


def test_negative_grades_are_non_relevant_with_zero_gain_but_judged():
    result = evaluate_run({"q": {"a": -1, "b": 2}}, {"q": {"a": 1.0, "b": 0.5, "c": 0.2}}, ["P@1", "nDCG@2", "Judged@3"])
    p, ndcg, judged = result.per_query["q"]
    assert p == 0.0 and ndcg == pytest.approx((2 / math.log2(3)) / 2) and judged == pytest.approx(2 / 3)


def test_skipped_queries_are_reported(collection):
    qrels, run, _ = collection
    result = evaluate_run(qrels, run)
    assert result.not_in_qrels == tuple(sorted(run.keys() - qrels.keys()))
    assert result.not_in_run == tuple(sorted(qrels.keys() - run.keys()))


# --- nDCG(dcg='exp-log2') against ranx's ndcg_burges ------------------------------------------------


def strictly_decreasing(run, single):
    return {q: {d: float(len(s) - i) for i, d in enumerate(reference_order(s, single))} for q, s in run.items()}


@pytest.mark.parametrize("ties", TIES)
def test_exp_log2_ndcg_equals_ranx_ndcg_burges(collection, collections, ties):
    from ranx import Qrels, Run, evaluate

    for qrels, run, _ in [collection, collections[2]] if ties == "double" else [collection]:
        common = sorted(qrels.keys() & run.keys())
        strict = strictly_decreasing({q: run[q] for q in common}, single=ties == "float32")
        names = [f"ndcg_burges@{k}" for k in CUTOFFS]
        theirs = evaluate(Qrels({q: qrels[q] for q in common}), Run(strict), names, return_mean=False)
        for k, name in zip(CUTOFFS, names):
            ours = ours_by_query(qrels, run, f"nDCG(dcg='exp-log2')@{k}", ties=ties)
            assert_same(ours, dict(zip(common, map(float, theirs[name]))), name)


def test_one_query_by_hand_every_measure():
    qrels = {"q": {"a": 3, "b": 0, "c": 1, "x": 2}}
    run = {"q": {"a": 0.2, "b": 0.9, "c": 0.5, "u": 0.1}}  # ranking b (0), c (1), a (3), u (unjudged)
    names = ["P@2", "P(rel=2)@3", "R@2", "R(rel=2)@4", "RR", "RR(rel=2)@2", "AP", "AP(rel=2)@3", "Success@1",
             "Success@2", "Judged@4", "nDCG@3", "nDCG(dcg='exp-log2')@3"]
    got = dict(zip(names, evaluate_run(qrels, run, names).per_query["q"]))
    log3, log4 = math.log2(3), math.log2(4)
    assert got == pytest.approx({
        "P@2": 0.5, "P(rel=2)@3": 1 / 3, "R@2": 1 / 3, "R(rel=2)@4": 0.5, "RR": 0.5, "RR(rel=2)@2": 0.0,
        "AP": (1 / 2 + 2 / 3) / 3, "AP(rel=2)@3": (1 / 3) / 2, "Success@1": 0.0, "Success@2": 1.0, "Judged@4": 0.75,
        "nDCG@3": (1 / log3 + 3 / log4) / (3 + 2 / log3 + 1 / log4),
        "nDCG(dcg='exp-log2')@3": (1 / log3 + 7 / log4) / (7 + 3 / log3 + 1 / log4),
    })


@pytest.mark.parametrize("ties", ["", "double ", "Float32"])
def test_bad_tie_modes_raise_lab_error(ties):
    with pytest.raises(LabError) as caught:
        evaluate_run({"q": {"a": 1}}, {"q": {"a": 1.0}}, ties=ties)
    assert caught.value.field == "ties"


def test_no_common_query_gives_no_per_query_values():
    result = evaluate_run({"q1": {"a": 1}}, {"q2": {"a": 1.0}}, ["P@1", "AP"])
    assert result.per_query == {} and result.mean == (0.0, 0.0)  # the edges refuse to report it


# --- comparison -------------------------------------------------------------------------------


def test_deltas_wins_ties_losses_and_mean_delta(collection):
    qrels, run_a, run_b = collection
    first, second = evaluate_run(qrels, run_a, LAB5), evaluate_run(qrels, run_b, LAB5)
    comparison = compare_runs(first, second, permutations=200)
    assert comparison.queries == tuple(first.per_query) and comparison.unpaired == ()
    for index, name in enumerate(first.names):
        result = comparison.metrics[name]
        expected = {q: zero_if_none(second.per_query[q][index]) - zero_if_none(first.per_query[q][index]) for q in comparison.queries}
        assert result.deltas == expected
        assert (result.wins, result.ties, result.losses) == (
            sum(d > 0 for d in expected.values()), sum(d == 0 for d in expected.values()), sum(d < 0 for d in expected.values()),
        )
        assert result.wins + result.ties + result.losses == len(comparison.queries)
        assert result.mean_delta == pytest.approx(second.mean[index] - first.mean[index], abs=TOLERANCE)


def test_unpaired_queries_are_left_out_of_the_comparison():
    qrels = {"q1": {"a": 1}, "q2": {"a": 1}, "q3": {"a": 1}}
    first = evaluate_run(qrels, {"q1": {"a": 1.0}, "q2": {"a": 1.0}}, ["P@1"])
    second = evaluate_run(qrels, {"q2": {"b": 1.0}, "q3": {"a": 1.0}}, ["P@1"])
    comparison = compare_runs(first, second, permutations=100)
    assert comparison.queries == ("q2",) and comparison.unpaired == ("q1", "q3")
    assert comparison.metrics["P@1"].deltas == {"q2": -1.0}
    complete = compare_runs(*(evaluate_run(qrels, r, ["P@1"], complete=True) for r in (
        {"q1": {"a": 1.0}, "q2": {"a": 1.0}}, {"q2": {"b": 1.0}, "q3": {"a": 1.0}})), permutations=100)
    assert complete.queries == ("q1", "q2", "q3") and complete.metrics["P@1"].deltas == {"q1": -1.0, "q2": -1.0, "q3": 1.0}


def test_comparing_evaluations_with_different_settings_is_refused():
    qrels, run = {"q": {"a": 1}}, {"q": {"a": 1.0}}
    with pytest.raises(LabError):
        compare_runs(evaluate_run(qrels, run, ["P@1"]), evaluate_run(qrels, run, ["P@2"]))


def test_identical_runs_give_p_one_and_all_ties(collection):
    qrels, run, _ = collection
    result = evaluate_run(qrels, run)
    comparison = compare_runs(result, result)
    for name in result.names:
        assert comparison.metrics[name].p_value == 1.0
        assert comparison.metrics[name].ties == len(result.per_query)


def test_a_run_that_is_always_better_gives_the_smallest_p_never_zero(collection):
    # Our definition changed (issue 49): an estimated p counts the observed arrangement, (b + 1) / (m + 1)
    # (Phipson & Smyth 2010), so when no drawn sign vector reaches the observed sum, p = 1 / 10,001, not 0.
    qrels, run, _ = collection
    perfect = {qid: {docid: float(grade) for docid, grade in judged.items()} for qid, judged in qrels.items()}
    measures = ["P@10", "R@10", "RR@10", "AP", "Success@10", "nDCG@10"]
    comparison = compare_runs(evaluate_run(qrels, run, measures, complete=True), evaluate_run(qrels, perfect, measures, complete=True))
    for name in ["P@10", "R@10", "RR@10", "AP", "nDCG@10"]:  # Success@10 of a perfect run ties wherever run_a hits
        result = comparison.metrics[name]
        assert not result.p_value_exact  # more than 30 queries differ: estimated
        assert result.p_value == 1 / 10_001 and result.p_value > 0
        assert result.p_value_se == pytest.approx(math.sqrt(result.p_value * (1 - result.p_value) / 10_000))
        assert result.losses == 0


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


def test_p_value_agrees_with_scipys_paired_permutation_test(collection):
    """scipy's `permutation_test` is the reference, configured as: ``permutation_type="samples"``
    (swapping a query's pair of scores), statistic ``|mean delta|`` with ``alternative="greater"``
    (the two-sided test of ranx's ``fisher`` and ours), ``n_resamples=10_000`` drawn at random
    (2^n sign vectors exceed them, so scipy does not enumerate). Both it and we add the observed
    arrangement, (b + 1) / (m + 1); ranx does not (a gap of 1e-4 at 10,000, far below the tolerance).
    (ranx's own ``fisher`` agreed as well, but it is numba code, which the suite runs interpreted:
    tests/conftest.py.)"""
    import numpy as np
    from scipy.stats import permutation_test

    qrels, run_a, run_c = collection[0], collection[1], nudged_run(collection[0], collection[2], share=1 / 8, seed=5)
    names = ["P@10", "R@10", "RR@10", "nDCG(dcg='exp-log2')@10"]
    a, c = (evaluate_run(qrels, r, names, ties="float32") for r in (run_a, run_c))
    ours = compare_runs(a, c, permutations=10_000, seed=42)
    common = sorted(a.per_query.keys() & c.per_query.keys())
    gaps = {}
    for index, name in enumerate(names):
        # A query without a relevant document has no recall (None): it compares as 0, as in ranx.
        assert 2 ** len(common) > 10_000 and not ours.metrics[name].p_value_exact  # both randomized
        x = np.array([c.per_query[q][index] or 0.0 for q in common])
        y = np.array([a.per_query[q][index] or 0.0 for q in common])
        theirs = permutation_test((x, y), lambda x, y, axis: np.abs(np.mean(x - y, axis=axis)),
                                  permutation_type="samples", alternative="greater", n_resamples=10_000, rng=42).pvalue
        mine = ours.metrics[name].p_value
        gaps[name] = (mine, theirs)
        # Each estimate has a standard error <= sqrt(0.25 / 10_000) = 0.005: a gap of 0.02 is ~3 sigma.
        assert abs(mine - theirs) < 0.02, (name, mine, theirs)
    assert sum(0.05 < theirs < 0.95 for _, theirs in gaps.values()) >= 2, f"want moderate p-values: {gaps}"


def test_a_p_value_no_permutation_reaches_is_scipys_one_over_m_plus_one():
    """Phipson & Smyth (2010): a randomized p-value is (b + 1) / (m + 1), never 0. scipy's
    ``permutation_test``, randomized (``n_resamples`` = 999 < 2^40 sign vectors), same configuration as
    above, gives exactly that when no draw reaches the observed |mean|, as 40 equal deltas make (only 2 of
    2^40 sign vectors reach it)."""
    import numpy as np
    from scipy.stats import permutation_test

    deltas = [0.25] * 40
    theirs = permutation_test((np.array(deltas), np.zeros(40)), lambda x, y, axis: np.abs(np.mean(x - y, axis=axis)),
                              permutation_type="samples", alternative="greater", n_resamples=999, rng=1).pvalue
    assert randomization_test(deltas, permutations=999, seed=1) == theirs == 1 / 1000


# --- properties ----------------------------------------------------------------------------------

docids = st.sampled_from([f"d{i}" for i in range(12)])
qids = st.sampled_from(["q1", "q2", "q3", "q4"])
some_qrels = st.dictionaries(qids, st.dictionaries(docids, st.integers(-2, 4), min_size=1), min_size=1)
some_runs = st.dictionaries(qids, st.dictionaries(docids, st.sampled_from([0.0, 0.5, 1.0, 1.000000001, -3.0, 7.25]), min_size=1))


@settings(max_examples=200, deadline=None)
@given(some_qrels, some_runs, st.integers(1, 15), st.integers(1, 4), st.sampled_from(TIES), st.booleans())
def test_every_value_lies_in_the_unit_interval_and_precision_matches_recall(qrels, run, k, rel, ties, complete):
    measures = [f"P(rel={rel})@{k}", f"R(rel={rel})@{k}", f"RR(rel={rel})@{k}", f"Success(rel={rel})@{k}",
                f"AP(rel={rel})@{k}", f"nDCG@{k}", f"Judged@{k}"]
    result = evaluate_run(qrels, run, measures, ties=ties, complete=complete)
    for qid, (p, r, rr, hit, ap, ndcg, judged) in result.per_query.items():
        assert all(value is None or 0.0 <= value <= 1.0 for value in (p, r, rr, hit, ap, ndcg, judged))
        total = sum(1 for grade in qrels[qid].values() if grade >= rel)
        assert (r is None) == (ap is None) == (total == 0)
        if total:  # both count the relevant documents in the top k
            assert p * k == pytest.approx(r * total)
            assert ap <= r + 1e-12
        assert (ndcg is None) == (not any(grade > 0 for grade in qrels[qid].values()))
        assert (rr > 0) == (p > 0) == (hit == 1.0)
        assert (judged is None) == (qid not in run)
    assert all(0.0 <= value <= 1.0 for value in result.mean)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(-1, 1), max_size=40), st.integers(0, 2**32))
def test_p_values_are_shares_of_the_permutations_and_sign_symmetric(deltas, seed):
    p = randomization_test(deltas, permutations=100, seed=seed)
    # (b + 1) / 101 for b of the 100 permutations: never 0 (Phipson & Smyth 2010).
    assert 1 / 101 <= p <= 1.0 and p * 101 == pytest.approx(round(p * 101))
    assert p == randomization_test([-delta for delta in deltas], permutations=100, seed=seed)
