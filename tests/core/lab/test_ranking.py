"""Reranking reorders a prefix only."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from raglab_core import LabError
from raglab_core.lab.reranking import rerank_prefix

SCORES = [0.12, 0.71, 0.40, 0.93, 0.08, 0.66, 0.90, 0.45]


def test_prefix_sorted_by_score_the_rest_untouched():
    assert rerank_prefix(SCORES, 6) == [3, 1, 5, 2, 0, 4, 6, 7]


def test_a_high_score_below_the_prefix_is_not_rescued():
    order = rerank_prefix(SCORES, 6)
    assert order.index(6) == 6  # 0.90 would be second if it were a candidate
    assert rerank_prefix(SCORES, 7)[1] == 6


def test_depth_zero_and_depth_beyond_the_ranking():
    assert rerank_prefix(SCORES, 0) == list(range(8))
    assert rerank_prefix(SCORES, 99) == sorted(range(8), key=lambda i: -SCORES[i])


def test_ties_keep_first_stage_order():
    assert rerank_prefix([0.5, 0.7, 0.5, 0.7], 4) == [1, 3, 0, 2]


def test_negative_depth_is_rejected():
    with pytest.raises(LabError):
        rerank_prefix(SCORES, -1)


@given(st.lists(st.floats(allow_nan=False), max_size=20), st.integers(0, 25))
def test_reranking_is_a_permutation_that_fixes_everything_below_depth(scores, depth):
    order = rerank_prefix(scores, depth)
    assert sorted(order) == list(range(len(scores)))
    assert order[depth:] == list(range(min(depth, len(scores)), len(scores)))
    prefix = order[:depth]
    assert all(scores[a] >= scores[b] for a, b in zip(prefix, prefix[1:]))
