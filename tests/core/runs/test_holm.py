"""Holm–Bonferroni adjusted p-values against statsmodels' multipletests(method="holm")."""

import gc
import random

import pytest
from statsmodels.stats.multitest import multipletests

from raglab_core.runs.statistics import holm


@pytest.fixture(autouse=True)
def no_collection_per_call(monkeypatch):
    """multipletests(method="holm") runs gc.collect() at every call (0.15-0.4 s here); the values do not depend on it."""
    monkeypatch.setattr(gc, "collect", lambda *args: 0)  # multipletests imports gc inside the function


def statsmodels_holm(p_values):
    return [float(value) for value in multipletests(p_values, method="holm")[1]]


def random_vectors(seed=61, count=300):
    """Vectors of 1 to 66 p-values (66: all pairs of 12 runs), with ties, zeros, ones and tiny values."""
    rng = random.Random(seed)
    for _ in range(count):
        size = rng.choice([1, 2, 3, 6, 10, 15, 28, 66, rng.randint(1, 66)])
        pool = [rng.random() for _ in range(3)] + [0.0, 1.0, 1e-4, 0.05]
        yield [rng.choice(pool) if rng.random() < 0.4 else rng.random() ** 3 for _ in range(size)]


def test_holm_is_statsmodels_holm():
    checked = ties = 0
    for p_values in random_vectors():
        ours = holm(p_values)
        assert ours == pytest.approx(statsmodels_holm(p_values), abs=1e-15), p_values
        checked += 1
        ties += len(set(p_values)) < len(p_values)
    assert checked == 300 and ties > 100


@pytest.mark.parametrize("p_values", [[0.03], [0.0], [1.0], [0.2, 0.2], [0.01, 0.02, 0.03, 0.04], [0.04, 0.03, 0.02, 0.01]])
def test_small_cases(p_values):
    assert holm(p_values) == pytest.approx(statsmodels_holm(p_values), abs=1e-15)


def test_one_comparison_is_left_as_it_is_and_the_result_keeps_the_input_order():
    assert holm([0.0371]) == [0.0371]
    # sorted: 0.001·3, 0.02·2, 0.04·1 -> 0.003, 0.04, max(0.04, 0.04)
    assert holm([0.04, 0.001, 0.02]) == pytest.approx([0.04, 0.003, 0.04], abs=1e-15)
    assert holm([0.6, 0.7]) == [1.0, 1.0]  # capped at 1
    assert holm([]) == []
