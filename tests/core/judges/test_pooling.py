"""raglab_core.judges.pooling: depth-k pools against a brute force written from the definition (sets per query),
the pool's documented order, seeded samples (sizes, determinism, the documented draw), and stratified samples
(the allocation's floor and largest remainders, counts per grade)."""

import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raglab_core.errors import LabError
from raglab_core.judges.pooling import allocation, choose, pool, pool_text, sample, stratified

FAST = settings(max_examples=60, deadline=None)


def brute_pool(runs, depth, judged=None):
    """{qid: set of docids}: the top ``depth`` of each run, sorted by (score, docid) both descending, united."""
    judged = judged or {}
    found = {}
    for run in runs:
        for qid, scores in run.items():
            top = sorted(scores.items(), key=lambda item: (item[1], item[0]), reverse=True)[:depth]
            found.setdefault(qid, set()).update(docid for docid, _ in top if docid not in judged.get(qid, {}))
    return {qid: docs for qid, docs in found.items() if docs}


def as_sets(pairs):
    found = {}
    for qid, docid in pairs:
        found.setdefault(qid, set()).add(docid)
    return found


docids = st.sampled_from([f"d{i}" for i in range(12)])
scores = st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, -1.0])  # few values: many ties
run = st.dictionaries(st.sampled_from(["q1", "q2", "q10", "Q3"]), st.dictionaries(docids, scores, min_size=1),
                      min_size=1)


@FAST
@given(st.lists(run, min_size=1, max_size=4), st.integers(1, 8),
       st.dictionaries(st.sampled_from(["q1", "q2"]), st.dictionaries(docids, st.integers(-1, 3))))
def test_the_pool_is_the_union_of_each_runs_top_k_minus_the_judged(runs, depth, judged):
    pairs = pool(runs, depth, judged)
    assert len(pairs) == len(set(pairs))
    assert as_sets(pairs) == brute_pool(runs, depth, judged)
    queries = [qid for qid, _ in pairs]
    assert queries == sorted(queries)  # grouped by query, queries sorted
    assert pool(list(reversed(runs)), depth, judged) == pairs  # the order does not depend on the runs' order


@FAST
@given(st.lists(run, min_size=1, max_size=4), st.integers(1, 8))
def test_within_a_query_documents_come_by_best_rank_then_docid(runs, depth):
    def best(qid, docid):
        ranks = []
        for one in runs:
            ranked = sorted(one.get(qid, {}).items(), key=lambda item: (item[1], item[0]), reverse=True)
            ranks += [rank for rank, (doc, _) in enumerate(ranked[:depth], 1) if doc == docid]
        return min(ranks)

    pairs = pool(runs, depth)
    assert pairs == sorted(pairs, key=lambda pair: (pair[0], best(*pair), pair[1]))


def test_the_order_by_hand():
    runs = [{"q2": {"z": 1.0}, "q1": {"b": 3.0, "a": 3.0, "c": 1.0}},  # ties by docid descending: b before a
            {"q1": {"c": 5.0, "e": 4.0, "a": 1.0}}]
    # q1: b rank 1 (run 1), c rank 1 (run 2), a rank 2 (run 1), e rank 2 (run 2); depth 2 leaves run 1's c out
    assert pool(runs, 2) == [("q1", "b"), ("q1", "c"), ("q1", "a"), ("q1", "e"), ("q2", "z")]
    assert pool(runs, 1) == [("q1", "b"), ("q1", "c"), ("q2", "z")]
    assert pool(runs, 2, judged={"q1": {"c": -1, "x": 2}, "q2": {"z": 0}}) == [("q1", "b"), ("q1", "a"), ("q1", "e")]
    assert pool_text(pool(runs, 1)) == "q1\tb\nq1\tc\nq2\tz\n"


def test_depth_and_sizes_are_checked():
    with pytest.raises(LabError) as error:
        pool([{"q": {"d": 1.0}}], 0)
    assert error.value.field == "depth"
    with pytest.raises(LabError):
        sample([("q", "d")], -1, 1)
    with pytest.raises(LabError):
        stratified({"q": {"d": 1}}, 1.5, 1)


PAIRS = [(f"q{i // 10}", f"d{i}") for i in range(100)]


@FAST
@given(st.integers(0, 120), st.integers(-5, 2**40))
def test_a_sample_has_min_n_size_distinct_pairs_in_their_order_and_is_deterministic(n, seed):
    drawn = sample(PAIRS, n, seed)
    assert len(drawn) == min(n, len(PAIRS)) == len(set(drawn))
    assert drawn == [pair for pair in PAIRS if pair in set(drawn)]
    assert sample(PAIRS, n, seed) == drawn


def test_the_draw_is_the_documented_partial_fisher_yates_on_random():
    rng, indices = random.Random(2024), list(range(100))
    for i in range(7):
        j = i + int(rng.random() * (100 - i))
        indices[i], indices[j] = indices[j], indices[i]
    assert sample(PAIRS, 7, 2024) == [PAIRS[i] for i in sorted(indices[:7])]
    # random()'s sequence for a seed is guaranteed across Python versions, so these are too (and in Pyodide).
    # Seed 42's first five random() are 0.6394…, 0.0250…, 0.2750…, 0.2232…, 0.7364…: j = 0 + 63, 1 + int(2.47),
    # 2 + int(26.95), 3 + int(21.65), 4 + int(70.7) -> indices 63, 3, 28, 24, 74
    assert [docid for _, docid in sample(PAIRS, 5, 42)] == ["d3", "d24", "d28", "d63", "d74"]


def test_every_pair_is_equally_likely():
    counts = Counter(pair for seed in range(3000) for pair in sample(PAIRS[:5], 2, seed))
    assert set(counts) == set(PAIRS[:5])
    assert all(abs(count - 1200) < 120 for count in counts.values()), counts  # 3000 · 2/5, ± ~5 sd


def test_different_seeds_draw_differently():
    assert sample(PAIRS, 10, 1) != sample(PAIRS, 10, 2)


@FAST
@given(st.dictionaries(st.integers(-1, 3), st.integers(0, 60), min_size=1), st.integers(0, 150))
def test_the_allocation_fills_n_within_each_stratum_with_the_floor(counts, n):
    sizes = allocation(counts, n)
    present = {grade: count for grade, count in counts.items() if count}
    assert set(sizes) == set(present)
    assert sum(sizes.values()) == min(n, sum(present.values()))
    assert all(0 <= sizes[grade] <= count for grade, count in present.items())
    if present and len(present) <= n < sum(present.values()):
        floor = math.ceil(n / (2 * len(present)))
        assert all(sizes[grade] >= min(count, floor) for grade, count in present.items())
    if present and n < len(present):
        assert sorted(sizes.values()) == [0] * (len(present) - n) + [1] * n


def test_the_allocation_by_hand():
    # 100 pairs, n = 20, L = 4: floor ceil(20/8) = 3 -> 3, 3, 3, 1 (10); the other 10 by what is left (77, 12,
    # 1, 0 of 90): 770/90 = 8 r 50, 120/90 = 1 r 30, 10/90 = 0 r 10; one more to grade 0 (remainder 50)
    assert allocation({0: 80, 1: 15, 2: 4, 3: 1}, 20) == {0: 3 + 8 + 1, 1: 3 + 1, 2: 3, 3: 1}
    # n < L: the largest strata, ties by the lower grade
    assert allocation({0: 5, 1: 9, 2: 5, 3: 1}, 2) == {0: 1, 1: 1, 2: 0, 3: 0}
    assert allocation({0: 4, 1: 4}, 8) == {0: 4, 1: 4}
    assert allocation({}, 5) == {}


def test_a_stratified_sample_takes_the_allocation_from_each_grade():
    rng = random.Random(5)
    judge = {f"q{q}": {f"d{d}": rng.choice([0, 0, 0, 0, 1, 1, 2, 3]) for d in range(30)} for q in range(10)}
    exclude = {"q0": {f"d{d}": 1 for d in range(30)}, "q1": {"d1": 0}}
    drawn = stratified(judge, 40, seed=9, exclude=exclude)
    left = {(qid, docid): grade for qid, graded in judge.items() for docid, grade in graded.items()
            if docid not in exclude.get(qid, {})}
    assert len(drawn) == 40 == len(set(drawn)) and set(drawn) <= set(left)
    assert drawn == sorted(drawn)
    expected = allocation(Counter(left.values()), 40)
    assert Counter(left[pair] for pair in drawn) == Counter({g: c for g, c in expected.items() if c})
    assert stratified(judge, 40, seed=9, exclude=exclude) == drawn
    assert stratified(judge, 40, seed=10, exclude=exclude) != drawn
    assert len(stratified(judge, 10_000, seed=9)) == 300


def test_choose_pools_then_samples_or_stratifies_in_the_pools_order():
    runs = [{"q1": {f"d{i}": float(i) for i in range(10)}, "q2": {f"d{i}": float(-i) for i in range(10)}}]
    whole = pool(runs, 5)
    pairs, notices = choose(runs, 5)
    assert (pairs, notices) == (whole, [])
    pairs, notices = choose(runs, 5, n=4, seed=3)
    assert pairs == sample(whole, 4, 3) and notices == []
    judge = {"q1": {"d9": 3, "d8": 0, "d7": 0, "d0": 1}, "q2": {"d0": 2, "d1": 0}}
    pairs, notices = choose(runs, 5, judge=judge)
    assert pairs == [("q1", "d9"), ("q1", "d8"), ("q1", "d7"), ("q2", "d0"), ("q2", "d1")]  # d0 of q1 is not pooled
    assert [(notice.code, notice.params) for notice in notices] == [("judge_misses_pool", {"count": 5, "total": 10})]
    pairs, notices = choose(runs, 5, judged={"q2": {"d0": 1}}, judge=judge, n=3, seed=1)
    # left: q1 d9 (3), d8 (0), d7 (0), q2 d1 (0); floor ceil(3/4) = 1 each, the third to grade 0 (spare 2 of 2)
    assert len(pairs) == 3 and Counter(judge[q][d] for q, d in pairs) == {0: 2, 3: 1}
    assert [notice.code for notice in notices] == ["judge_misses_pool"] and notices[0].params["count"] == 5
    assert pairs == [pair for pair in whole if pair in pairs]
    pairs, notices = choose(runs, 5, judged={qid: dict.fromkeys(docs, 0) for qid, docs in brute_pool(runs, 5).items()})
    assert pairs == [] and [notice.code for notice in notices] == ["pool_empty"]
    assert notices[0].render("es").startswith("No queda nada por juzgar")
