"""Hand-computed cases for raglab_core.metrics, the formula written out as arithmetic."""

from math import log2

import pytest

from raglab_core import LabError, metrics

GRADES = [0, 2, 1, 3, 0, 2]  # rank 1 first


def test_precision_divides_by_k_including_missing_positions():
    assert metrics.precision_at_k(GRADES, 4, 2) == 2 / 4
    assert metrics.precision_at_k(GRADES, 4, 1) == 3 / 4
    # k beyond the ranking: missing positions are non-relevant (trec_eval's P_k).
    assert metrics.precision_at_k(GRADES, 10, 2) == 3 / 10


def test_recall_uses_the_known_total_as_denominator():
    assert metrics.recall_at_k(GRADES, 4, 2, total_relevant=5) == 2 / 5
    assert metrics.recall_at_k(GRADES, 6, 2, total_relevant=3) == 3 / 3
    assert metrics.recall_at_k([0, 0], 2, 1, total_relevant=0) is None


def test_recall_rejects_a_total_below_the_relevant_already_ranked():
    with pytest.raises(LabError) as caught:
        metrics.recall_at_k(GRADES, 4, 2, total_relevant=2)
    assert caught.value.field == "total_relevant"
    assert "al menos 3" in str(caught.value)


def test_mrr_sees_only_the_first_relevant_within_k():
    assert metrics.mrr_at_k(GRADES, 4, 2) == 1 / 2
    assert metrics.mrr_at_k(GRADES, 4, 3) == 1 / 4
    assert metrics.mrr_at_k(GRADES, 3, 3) == 0.0
    # Blind spot: everything after the first hit is ignored.
    assert metrics.mrr_at_k([3, 0, 0, 0], 4, 1) == metrics.mrr_at_k([3, 3, 3, 3], 4, 1) == 1.0


def test_ndcg_exponential_gain_log2_discount_ideal_over_the_ranked_grades():
    dcg = (2**0 - 1) / log2(2) + (2**2 - 1) / log2(3) + (2**1 - 1) / log2(4) + (2**3 - 1) / log2(5)
    idcg = (2**3 - 1) / log2(2) + (2**2 - 1) / log2(3) + (2**2 - 1) / log2(4) + (2**1 - 1) / log2(5)
    assert metrics.ndcg_at_k(GRADES, 4) == pytest.approx(dcg / idcg, abs=1e-15)


def test_ndcg_ideal_over_the_given_judgments():
    # An unretrieved document of grade 3 raises the ideal: (7/log2(2) + 3/log2(3)) / (7/1 + 7/log2(3)).
    value = metrics.ndcg_at_k([3, 2], 2, judgments=[3, 2, 3, 0])
    assert value == pytest.approx((7 / log2(2) + 3 / log2(3)) / (7 / log2(2) + 7 / log2(3)), abs=1e-15)


def test_ndcg_ignores_the_threshold_and_is_none_without_gain():
    assert metrics.ndcg_at_k([0, 0, 0], 3) is None
    assert metrics.ndcg_at_k([1, 0], 2) == 1.0


def test_ndcg_rejects_judgments_missing_a_ranked_grade():
    with pytest.raises(LabError) as caught:
        metrics.ndcg_at_k([3, 2], 2, judgments=[2, 2])
    assert caught.value.field == "judgments"


def test_relevant_within_k():
    assert metrics.relevant_within_k(GRADES, 4, 2) == 2
    assert metrics.relevant_within_k(GRADES, 100, 1) == 4


def test_relevant_count_sees_every_grade():
    assert metrics.relevant_count(GRADES, 2) == 3
    assert metrics.relevant_count(GRADES, 4) == 0
    assert metrics.relevant_count([], 1) == 0


def test_first_relevant_rank_within_k():
    assert metrics.first_relevant_rank(GRADES, 4, 2) == 2
    assert metrics.first_relevant_rank(GRADES, 4, 3) == 4
    assert metrics.first_relevant_rank(GRADES, 3, 3) is None
    assert metrics.first_relevant_rank([], 3, 1) is None


def test_dcg_gain_is_a_parameter():
    assert metrics.dcg_at_k(GRADES, 4, gain="linear") == pytest.approx(0 / log2(2) + 2 / log2(3) + 1 / log2(4) + 3 / log2(5))
    assert metrics.dcg_at_k(GRADES, 4) == metrics.dcg_at_k(GRADES, 4, gain="exponential")
    # Discounts are cached: a longer cut-off after a shorter one still gets every rank's discount.
    assert metrics.dcg_at_k([1] * 3, 2, gain="linear") == pytest.approx(1 + 1 / log2(3))
    assert metrics.dcg_at_k([1] * 40, 40, gain="linear") == pytest.approx(sum(1 / log2(i + 1) for i in range(1, 41)))
    with pytest.raises(LabError) as caught:
        metrics.dcg_at_k(GRADES, 4, gain="log")
    assert caught.value.field == "gain"


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: metrics.precision_at_k(GRADES, 0, 1), "k"),
        (lambda: metrics.precision_at_k(GRADES, 2.0, 1), "k"),
        (lambda: metrics.precision_at_k(GRADES, True, 1), "k"),
        (lambda: metrics.mrr_at_k(GRADES, 3, -1), "threshold"),
        (lambda: metrics.mrr_at_k([1, -1], 3, 1), "grades"),
        (lambda: metrics.ndcg_at_k([1, 0.5], 3), "grades"),
        (lambda: metrics.ndcg_at_k("302", 3), "grades"),
        (lambda: metrics.recall_at_k(GRADES, 3, 1, -4), "total_relevant"),
    ],
)
def test_invalid_arguments_raise_laberror_naming_the_field(call, field):
    with pytest.raises(LabError) as caught:
        call()
    assert caught.value.field == field
    assert isinstance(caught.value, ValueError)
