"""Evidence against the cut: the closed forms equal a brute force over every position and every window."""

import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raglab_core import LabError, evidence

from tests.support.references import brute_force_windows


def brute_force(tokens, chunk, overlap, length):
    """Every start position, every window: (positions, whole, holding, touching) and the per-position sets."""
    windows = brute_force_windows(tokens, chunk, overlap)
    whole = holding = touching = 0
    marks = []
    for p in range(tokens - length + 1):
        holds = [j for j, (a, b) in enumerate(windows) if a <= p and p + length <= b]
        touches = [j for j, (a, b) in enumerate(windows) if a < p + length and p < b]
        whole += bool(holds)
        holding += len(holds)
        touching += len(touches)
        marks.append((holds, touches))
    return tokens - length + 1, whole, holding, touching, marks


def brute_min_overlap(tokens, chunk, length):
    if length > tokens:  # no position at all
        return None
    for overlap in range(chunk):
        positions, whole, *_ = brute_force(tokens, chunk, overlap, length)
        if whole == positions:
            return overlap
    return None


cases = st.integers(1, 60).flatmap(
    lambda chunk: st.tuples(st.integers(0, 400), st.just(chunk), st.integers(0, chunk - 1), st.integers(1, 80))
)


@settings(max_examples=400, deadline=None)
@given(cases)
def test_closed_forms_equal_brute_force(case):
    tokens, chunk, overlap, length = case
    got = evidence.evidence(tokens, chunk, overlap, length)
    if length > tokens:
        assert got is None
        return
    positions, whole, holding, touching, marks = brute_force(tokens, chunk, overlap, length)
    assert (got.positions, got.whole, got.holding, got.touching) == (positions, whole, holding, touching)
    assert got.containment == Fraction(whole, positions)
    assert got.windows_holding == Fraction(holding, positions)
    assert got.windows_touching == Fraction(touching, positions)
    for p, (holds, touches) in enumerate(marks):
        assert evidence.span_windows(tokens, chunk, overlap, p, length) == (
            range(holds[0], holds[-1] + 1) if holds else range(0, 0),
            range(touches[0], touches[-1] + 1),
        )


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40).flatmap(lambda chunk: st.tuples(st.integers(0, 200), st.just(chunk), st.integers(1, 50))))
def test_min_overlap_equals_brute_force(case):
    tokens, chunk, length = case
    assert evidence.min_overlap_whole(tokens, chunk, length) == brute_min_overlap(tokens, chunk, length)


@pytest.mark.parametrize(
    "tokens, chunk, overlap, length",
    [(3000, 512, 64, 100), (2999, 512, 99, 100), (4096, 1, 0, 1), (2500, 700, 699, 300), (3001, 64, 0, 64),
     (2048, 2048, 0, 2048), (2049, 2048, 2047, 1)],
)
def test_a_few_thousand_tokens_exactly(tokens, chunk, overlap, length):
    positions, whole, holding, touching, _ = brute_force(tokens, chunk, overlap, length)
    got = evidence.evidence(tokens, chunk, overlap, length)
    assert (got.positions, got.whole, got.holding, got.touching) == (positions, whole, holding, touching)


def test_the_interior_formula_is_not_the_answer_at_the_ends():
    # Away from the ends containment is min(1, (C - L + 1) / s) = 413/448; 1200 tokens end inside a window.
    got = evidence.evidence(1200, 512, 64, 100)
    assert got.containment == Fraction(413 + 413 + 205, 1101) != Fraction(413, 448)


def test_hand_computed_marks():
    # Windows [0,512) [448,960) [896,1200); the span [430, 530) crosses the first border and no window holds it.
    assert evidence.span_windows(1200, 512, 64, 430, 100) == (range(0), range(0, 2))
    assert evidence.span_windows(1200, 512, 64, 1100, 100) == (range(2, 3), range(2, 3))
    with pytest.raises(LabError):
        evidence.span_windows(1200, 512, 64, 1101, 100)


def test_a_trillion_tokens_in_constant_time():
    n = 10**12
    for args in ((n, 512, 64, 100), (n, 1, 0, 1), (n, 256, 255, 200), (n, 10**9, 3, n // 2)):
        evidence.evidence(*args)  # warm
        start = time.perf_counter()
        got = evidence.evidence(*args)
        evidence.min_overlap_whole(args[0], args[1], args[3])
        evidence.span_windows(args[0], args[1], args[2], n - args[3], args[3])
        elapsed = time.perf_counter() - start
        assert elapsed < 1e-3, (args, elapsed)
        assert 0 <= got.containment <= 1
    # Exact at that size: stride 1, evidence 200 in chunks of 256: every interior start is held by 57 windows.
    got = evidence.evidence(n, 256, 255, 200)
    assert got.whole == got.positions
