"""raglab_core.judges.systems against its judges: scipy's kendalltau (τ-b) and spearmanr on random run sets (ties
included), and τ_AP against a brute force written from Yilmaz, Aslam & Robertson (2008) and hand-worked values."""

import math
import warnings
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings, strategies as st
from scipy.stats import kendalltau, spearmanr

from raglab_core.judges import systems

TOLERANCE = 1e-9


def scipy_value(function, x, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a constant side: NaN, undefined
        value = function(x, y).statistic
    return None if math.isnan(value) else float(value)


def close(ours, theirs):
    return ours is None if theirs is None else ours is not None and abs(ours - theirs) <= TOLERANCE


means = st.lists(st.tuples(st.sampled_from([0.1, 0.2, 0.25, 0.3, 0.5]), st.floats(0, 1)), min_size=2, max_size=12)


@settings(max_examples=80, deadline=None)
@given(means, st.booleans())
def test_kendall_tau_b_and_spearman_equal_scipy(pairs, coarse):
    """Coarse values (five of them) make ties on both sides; fine ones almost never tie."""
    x = [a for a, _ in pairs]
    y = [b if not coarse else round(b, 1) for _, b in pairs]
    assert close(systems.kendall_tau_b(x, y), scipy_value(kendalltau, x, y))
    assert close(systems.spearman(x, y), scipy_value(spearmanr, x, y))


def brute_tau_ap(truth, estimated):
    """τ_AP from the paper's definition, in exact fractions, for orders without ties: the runs listed in the
    estimated order; for each position i = 2..N, p(i) = the share of the runs above it that the true order also
    puts above it; τ_AP = 2/(N − 1) Σ p(i) − 1 (their eq. 2), i.e. 2·(expected p of a random position) − 1."""
    listed = sorted(range(len(estimated)), key=lambda k: -estimated[k])
    true_rank = {run: rank for rank, run in enumerate(sorted(range(len(truth)), key=lambda k: -truth[k]))}
    total = Fraction(0)
    for i in range(1, len(listed)):
        above = listed[:i]
        total += Fraction(sum(true_rank[a] < true_rank[listed[i]] for a in above), len(above))
    return 2 * total / (len(listed) - 1) - 1


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 9).flatmap(lambda n: st.tuples(st.permutations(range(n)), st.permutations(range(n)))))
def test_tau_ap_equals_the_papers_definition_on_orders_without_ties(orders):
    truth, estimated = orders
    assert systems.tau_ap(list(truth), list(estimated)) == pytest.approx(float(brute_tau_ap(truth, estimated)),
                                                                          abs=TOLERANCE)


def test_tau_ap_known_values():
    # Truth A > B > C. Swapping the top pair gives 0; swapping the bottom pair gives 0.5; Kendall's τ is 1/3 for
    # both (the paper's motivation: a swap near the top matters more).
    assert systems.tau_ap([3, 2, 1], [2, 3, 1]) == 0.0
    assert systems.tau_ap([3, 2, 1], [3, 1, 2]) == 0.5
    assert systems.tau_ap([3, 2, 1], [1, 2, 3]) == -1.0 and systems.tau_ap([3, 2, 1], [3, 2, 1]) == 1.0
    assert systems.tau_ap([1.0], [2.0]) is None
    # Not symmetric: the truth is the reference.
    assert systems.tau_ap([4, 3, 2, 1], [2, 4, 3, 1]) == pytest.approx(1 / 3)
    assert systems.tau_ap([2, 4, 3, 1], [4, 3, 2, 1]) == pytest.approx(0.0, abs=TOLERANCE)


def test_tau_ap_ties_are_never_swaps():
    """Runs the judge ties are listed in the reference's order; runs the reference ties count as correct; a side that
    ties every run leaves τ_AP undefined, as τ-b (a judge tying them all would otherwise score a perfect 1)."""
    assert systems.tau_ap([3, 2, 1], [1, 1, 1]) is None and systems.kendall_tau_b([3, 2, 1], [1, 1, 1]) is None
    assert systems.tau_ap([1, 1, 1], [3, 2, 1]) is None
    assert systems.tau_ap([3, 3, 1], [3, 2, 1]) == 1.0  # the reference ties the top two: no swap either way
    # the judge ties the top two and swaps the bottom: as [3, 1, 2] read with the tie broken the reference's way
    assert systems.tau_ap([3, 2, 1], [5, 5, 6]) == systems.tau_ap([3, 2, 1], [2, 1, 3])


def test_tau_ap_averages_to_kendall_tau_over_all_orders():
    """A property the paper proves (its §3): over every estimated order, τ_AP's mean equals τ's (0)."""
    truth = [5, 4, 3, 2, 1]
    values = [systems.tau_ap(truth, list(order)) for order in permutations(range(5))]
    assert sum(values) / len(values) == pytest.approx(0.0, abs=TOLERANCE)


def test_flips_are_pairs_ordered_in_opposite_directions_with_the_references_holm_p():
    names = ["a", "b", "c", "d"]
    reference, judge = [0.5, 0.4, 0.4, 0.1], [0.3, 0.6, 0.2, 0.1]
    adjusted = {(0, 1): 0.01, (0, 2): 0.5, (0, 3): 0.001, (1, 2): 0.04, (1, 3): 0.2, (2, 3): 0.3}
    found = systems.flips(names, reference, judge, adjusted)
    assert [(f["baseline"], f["candidate"]) for f in found] == [("a", "b")]  # (b, c): tied under the reference
    assert found[0]["reference_delta"] == pytest.approx(-0.1) and found[0]["judge_delta"] == pytest.approx(0.3)
    assert found[0]["p_value_adjusted"] == 0.01 and found[0]["significant"] is True
