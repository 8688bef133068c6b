"""raglab_core.judges.labels against its judges: scikit-learn's cohen_kappa_score (weights with
labels=range(max + 1)), krippendorff 0.9.0's alpha (value_domain=range(max + 1), the level named: its default is
interval), irrCAC's Gwet AC1 and Brennan–Prediger (PABAK with two categories), numpy for the bias; on random label
sets (hypothesis) and on the edge cases: constant sides, unused grades, the kappa paradox."""

import math
import random
import warnings

import krippendorff
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st
from irrCAC.raw import CAC
from sklearn.metrics import cohen_kappa_score

from raglab_core.judges import labels
from raglab_core.runs import statistics

TOLERANCE = 1e-9


def sk_kappa(a, b, **options):
    """scikit-learn's κ, NaN (undefined) as None."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = cohen_kappa_score(a, b, **options)
    return None if math.isnan(value) else float(value)


def reference_alpha(a, b, maximum, level):
    try:
        with np.errstate(invalid="ignore", divide="ignore"):
            value = krippendorff.alpha(np.array([a, b], dtype=float), value_domain=list(range(maximum + 1)),
                                       level_of_measurement=level)
    except ValueError:  # a domain of one value
        return None
    return None if math.isnan(value) else float(value)


def close(ours, theirs):
    if theirs is None:
        return ours is None
    return ours is not None and abs(ours - theirs) <= TOLERANCE


@st.composite
def graded(draw, same_scale=True):
    """Two sides' grades over the same pairs: maxima 0..3, grades within them, 1 to 60 pairs, often skewed."""
    reference_max = draw(st.integers(0, 3))
    judge_max = reference_max if same_scale else draw(st.integers(0, 3))
    n = draw(st.integers(1, 60))
    a = draw(st.lists(st.integers(0, reference_max), min_size=n, max_size=n))
    b = draw(st.lists(st.integers(0, judge_max), min_size=n, max_size=n))
    return a, b, reference_max, judge_max


@settings(max_examples=60, deadline=None)
@given(graded(same_scale=False))
def test_confusion_exact_and_kappa_equal_scikit_learn(case):
    a, b, reference_max, judge_max = case
    c = labels.confusion(a, b, reference_max, judge_max)
    assert c == [[sum(1 for x, y in zip(a, b) if (x, y) == (r, j)) for j in range(judge_max + 1)]
                 for r in range(reference_max + 1)]
    assert labels.exact(c) == sum(x == y for x, y in zip(a, b)) / len(a)
    assert close(labels.kappa(c), sk_kappa(a, b))


@settings(max_examples=60, deadline=None)
@given(graded())
def test_weighted_kappa_and_alpha_equal_scikit_learn_and_krippendorff(case):
    a, b, maximum, _ = case
    c = labels.confusion(a, b, maximum, maximum)
    for weights in labels.WEIGHTS:
        assert close(labels.weighted_kappa(c, weights),
                     sk_kappa(a, b, labels=list(range(maximum + 1)), weights=weights)), weights
    for level in labels.LEVELS:
        assert close(labels.alpha(c, level), reference_alpha(a, b, maximum, level)), level


@settings(max_examples=25, deadline=None)
@given(graded(same_scale=False))
def test_binary_tables_equal_irrcac_and_scikit_learn(case):
    a, b, reference_max, judge_max = case
    tables = labels.binary_tables(labels.confusion(a, b, reference_max, judge_max))
    assert [(t["reference_threshold"], t["judge_threshold"]) for t in tables] == [
        (t, u) for t in range(1, reference_max + 1) for u in range(1, judge_max + 1)]
    for table in tables:
        x = [int(grade >= table["reference_threshold"]) for grade in a]
        y = [int(grade >= table["judge_threshold"]) for grade in b]
        both = sum(p and q for p, q in zip(x, y))
        assert table["table"] == [[sum(not p and not q for p, q in zip(x, y)), sum(q and not p for p, q in zip(x, y))],
                                  [sum(p and not q for p, q in zip(x, y)), both]]
        assert table["reference_rate"] == sum(x) / len(x) and table["judge_rate"] == sum(y) / len(y)
        assert close(table["kappa"], sk_kappa(x, y))
        assert table["pabak"] == 2 * table["exact"] - 1
        if len(x) >= 2:  # irrCAC's standard error divides by n - 1
            rated = CAC(pd.DataFrame({"reference": x, "judge": y}), categories=[0, 1], digits=15)
            assert close(table["ac1"], float(rated.gwet()["est"]["coefficient_value"]))
            assert close(table["pabak"], float(rated.bp()["est"]["coefficient_value"]))


@settings(max_examples=60, deadline=None)
@given(graded(same_scale=False))
def test_bias_is_bland_altman_on_both_sides_0_to_1_scales(case):
    a, b, reference_max, judge_max = case
    found = labels.bias(labels.confusion(a, b, reference_max, judge_max))
    differences = np.array(b) / max(judge_max, 1) - np.array(a) / max(reference_max, 1)
    assert abs(found["mean"] - differences.mean()) <= TOLERANCE
    if len(a) < 2:
        assert found["sd"] is None and found["limits"] is None
        return
    sd = differences.std(ddof=1)
    assert abs(found["sd"] - sd) <= TOLERANCE
    assert np.allclose(found["limits"], [differences.mean() - 1.96 * sd, differences.mean() + 1.96 * sd],
                       rtol=0, atol=TOLERANCE)


def test_a_judge_that_says_relevant_to_everything_agrees_90_percent_with_kappa_0():
    """The kappa paradox's public case: 90 % of the pairs relevant, a judge that always says 1."""
    a, b = [1] * 90 + [0] * 10, [1] * 100
    c = labels.confusion(a, b, 1, 1)
    assert labels.exact(c) == 0.9
    assert labels.kappa(c) == 0.0 == sk_kappa(a, b)
    assert labels.kappa_status(c) == "single_label"
    (table,) = labels.binary_tables(c)
    assert table["pabak"] == pytest.approx(0.8) and table["reference_rate"] == 0.9 and table["judge_rate"] == 1.0
    rated = CAC(pd.DataFrame({"r": a, "j": b}), categories=[0, 1], digits=15)
    assert table["ac1"] == pytest.approx(float(rated.gwet()["est"]["coefficient_value"]), abs=TOLERANCE)
    assert table["ac1"] > 0.85  # AC1 does not collapse where κ does


def test_a_90_percent_base_rate_with_real_disagreement_keeps_kappa_low_and_pabak_high():
    rng = random.Random(7)
    a = [1 if rng.random() < 0.9 else 0 for _ in range(500)]
    b = [grade if rng.random() < 0.9 else 1 - grade for grade in a]
    (table,) = labels.binary_tables(labels.confusion(a, b, 1, 1))
    assert close(table["kappa"], sk_kappa(a, b)) and table["kappa"] < 0.6 < 0.75 < table["pabak"]


@pytest.mark.parametrize("a, b, status, value", [
    ([1, 1, 1], [1, 1, 1], "undefined", None),   # p_e = 1: sklearn's NaN, never 0
    ([2, 2], [2, 2], "undefined", None),
    ([0, 1, 2], [1, 1, 1], "single_label", 0.0),  # one side constant: 0, as sklearn
    ([0, 0], [1, 1], "single_label", 0.0),        # both constant, different grades: p_e = 0
    ([0, 1], [0, 1], None, 1.0),
])
def test_kappa_edge_cases(a, b, status, value):
    c = labels.confusion(a, b, 2, 2)
    assert labels.kappa_status(c) == status
    assert labels.kappa(c) == value
    assert close(labels.kappa(c), sk_kappa(a, b))


def test_unused_grades_change_the_weighted_measures_only_through_the_domain():
    """Grade 3 unused by either side: the weights still run over 0..3, as labels=range(4) makes scikit-learn's."""
    a, b = [0, 1, 2, 2, 1], [0, 2, 2, 1, 1]
    c = labels.confusion(a, b, 3, 3)
    assert c[3] == [0, 0, 0, 0]
    assert close(labels.weighted_kappa(c, "linear"), sk_kappa(a, b, labels=range(4), weights="linear"))
    assert close(labels.alpha(c, "ordinal"), reference_alpha(a, b, 3, "ordinal"))
    assert labels.alpha(labels.confusion([1, 1], [1, 1], 1, 1), "interval") is None  # one value: nothing to expect


def test_pairs_intersect_or_zero_and_clipping():
    reference = {"q1": {"a": 3, "b": 0, "c": 1}, "q2": {"d": 2}}
    judge = {"q1": {"a": 1, "c": 5, "e": 1}, "q3": {"f": 0}}
    clipped, moved = labels.clip(judge, 3)
    assert clipped["q1"]["c"] == 3 and moved == 1
    by_query, counts = labels.pair_up(reference, clipped)
    assert by_query == {"q1": ([3, 1], [1, 3])}
    assert counts == {"both": 2, "reference_only": 2, "judge_only": 2}
    zero, _ = labels.pair_up(reference, clipped, "zero")
    assert zero == {"q1": ([3, 0, 1, 0], [1, 0, 3, 1]), "q2": ([2], [0]), "q3": ([0], [0])}


def test_the_bootstrap_interval_is_the_percentile_interval_of_kappa_over_resampled_queries():
    """An independent bootstrap: the same draws (statistics._draws from random.Random(seed)), κ of each resample's
    pooled pairs by scikit-learn, percentiles by numpy (linear, its default)."""
    rng = random.Random(3)
    queries = []
    for _ in range(12):
        a = [rng.randint(0, 2) for _ in range(rng.randint(1, 8))]
        queries.append((a, [grade if rng.random() < 0.6 else rng.randint(0, 2) for grade in a]))
    matrices = [labels.confusion(a, b, 2, 2) for a, b in queries]
    kappa_ci, bias_ci = labels.intervals(matrices, resamples=120, seed=5)
    draws = random.Random(5)
    kappas, biases = [], []
    for _ in range(120):
        chosen = [queries[i] for i in statistics._draws(len(queries), draws)]
        a = [grade for ours, _ in chosen for grade in ours]
        b = [grade for _, theirs in chosen for grade in theirs]
        value = sk_kappa(a, b)
        if value is not None:
            kappas.append(value)
        biases.append((np.array(b) / 2 - np.array(a) / 2).mean())
    assert np.allclose(kappa_ci, np.percentile(kappas, [2.5, 97.5]), rtol=0, atol=TOLERANCE)
    assert np.allclose(bias_ci, np.percentile(biases, [2.5, 97.5]), rtol=0, atol=TOLERANCE)
    assert labels.intervals(matrices, resamples=120, seed=5) == (kappa_ci, bias_ci)  # deterministic
    assert labels.intervals([], resamples=10) == (None, None)


qrels = st.dictionaries(st.sampled_from(["q1", "q2", "q3"]),
                        st.dictionaries(st.sampled_from("abcdef"), st.integers(0, 3), min_size=1), min_size=1)


@settings(max_examples=40, deadline=None)
@given(qrels, qrels, st.sampled_from(labels.MISSING))
def test_the_report_pools_the_pairs_each_missing_mode_keeps(reference, judge, missing):
    """One-sided pairs, unused grades, constant sides: the report's κ and α equal the judges' on the pairs the
    mode keeps, built here independently from the two dicts."""
    from raglab_core.judges.agreement import agreement_report

    report = agreement_report("r", reference, "j", judge, reference_max=3, judge_max=3, missing=missing,
                              resamples=20)
    keys = sorted({(q, d) for side in (reference, judge) for q in side for d in side[q]})
    if missing == "intersect":
        keys = [(q, d) for q, d in keys if d in reference.get(q, {}) and d in judge.get(q, {})]
    a = [reference.get(q, {}).get(d, 0) for q, d in keys]
    b = [judge.get(q, {}).get(d, 0) for q, d in keys]
    found = report["labels"]
    assert found["n"] == len(keys)
    if not keys:
        assert found["kappa"] is None and found["exact"] is None and found["kappa_ci95"] is None
        return
    assert close(found["kappa"], sk_kappa(a, b))
    assert close(found["kappa_quadratic"], sk_kappa(a, b, labels=list(range(4)), weights="quadratic"))
    assert close(found["alpha_ordinal"], reference_alpha(a, b, 3, "ordinal"))
    both = sum(1 for q in reference for d in reference[q] if d in judge.get(q, {}))
    assert report["pairs"]["both"] == both
    assert report["pairs"]["reference_only"] == sum(map(len, reference.values())) - both
