"""Overlap without judgments (raglab_core.runs.overlap) against its judges: the rbo package 0.1.3
(RankingSimilarity.rbo_ext) and the paper's equation 32 written out here, overlaps counted with sets."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rbo import RankingSimilarity

from raglab_core.runs.overlap import jaccard_at, mean_overlap, rbo_ext
from raglab_core.runs.trec import parse_run

from tests.conftest import ROOT

IDS = [f"d{i}" for i in range(30)]
rankings = st.lists(st.sampled_from(IDS), unique=True, max_size=30)
persistence = st.sampled_from([0.9, 0.5, 0.98]) | st.floats(0.01, 0.99)


def equation_32(a, b, p):
    """RBO_ext as Webber, Moffat & Zobel (2010) write it (eq. 32), X_d counted afresh with sets at each depth."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    s, l = len(short), len(long)  # noqa: E741
    if l == 0:
        return 1.0
    if s == 0:
        return 0.0
    overlap = {d: len(set(short[:d]) & set(long[:d])) for d in range(1, l + 1)}
    observed = sum(overlap[d] / d * p**d for d in range(1, l + 1))
    unseen = sum(overlap[s] * (d - s) / (s * d) * p**d for d in range(s + 1, l + 1))
    return (1 - p) / p * (observed + unseen) + ((overlap[l] - overlap[s]) / l + overlap[s] / s) * p**l


def package(a, b, p):
    return min(1.0, RankingSimilarity(list(a), list(b)).rbo_ext(p=p))


def trec_ranking(scores):
    """trec_eval's order, written independently: score descending, then document id descending."""
    return [docid for docid, _ in sorted(scores.items(), key=lambda item: (item[1], item[0]), reverse=True)]


@given(a=rankings, b=rankings, p=persistence, depth=st.sampled_from([100, 10, 3]))
def test_rbo_ext_is_the_rbo_package_s_and_the_paper_s(a, b, p, depth):
    ours = rbo_ext(a, b, p, depth)
    assert 0.0 <= ours <= 1.0
    assert ours == pytest.approx(package(a[:depth], b[:depth], p), abs=1e-12)
    assert ours == pytest.approx(equation_32(a[:depth], b[:depth], p), abs=1e-12)


@given(data=st.data(), a=st.lists(st.sampled_from(IDS), unique=True, min_size=1, max_size=30), p=persistence)
def test_rbo_ext_of_overlapping_rankings_of_uneven_length(data, a, p):
    """The uneven case eq. 32 is for: b a reshuffled part of a, plus ids a lacks."""
    kept = data.draw(st.lists(st.sampled_from(a), unique=True))
    extra = data.draw(st.lists(st.sampled_from([f"x{i}" for i in range(10)]), unique=True))
    b = data.draw(st.permutations(kept + extra))
    ours = rbo_ext(a, b, p)
    assert ours == pytest.approx(package(a, b, p), abs=1e-12)
    assert ours == pytest.approx(equation_32(a, b, p), abs=1e-12)
    assert rbo_ext(b, a, p) == ours


def test_rbo_ext_known_values():
    assert rbo_ext(IDS, IDS) == pytest.approx(1.0, abs=1e-15) and rbo_ext(IDS[:5], IDS[5:10]) == 0.0
    assert rbo_ext([], []) == 1.0 and rbo_ext([], ["d1"]) == 0.0
    # X = 0, 2, 2 at depths 1-3: (0.1/0.9)(0.9^2·2/2 + 0.9^3·2/3) + 0.9^3·2/3 = 0.63
    assert rbo_ext(["d1", "d2", "d3"], ["d2", "d1", "d9"]) == pytest.approx(0.63, abs=1e-15)
    # one list a prefix of the other: agreement 1 everywhere it is seen, so RBO_ext = 1 (eq. 32's extrapolation)
    assert rbo_ext(IDS[:3], IDS) == pytest.approx(1.0, abs=1e-12)
    with pytest.raises(ValueError):
        rbo_ext(IDS, IDS, p=1.0)


def test_rbo_looks_at_the_top_depth_only():
    a = [f"d{i}" for i in range(150)]
    b = a[:100] + [f"x{i}" for i in range(50)]
    assert rbo_ext(a, b) == pytest.approx(1.0, abs=1e-15) and rbo_ext(a, b, depth=150) < 1 - 1e-6  # beyond 100, p^100 ≈ 3e-5 of the weight


@settings(max_examples=50)
@given(a=rankings, b=rankings, k=st.integers(1, 12))
def test_jaccard_at_counts_the_shared_ids_of_the_two_top_k(a, b, k):
    shared = sum(1 for docid in a[:k] if docid in b[:k])
    size = len(a[:k]) + len(b[:k]) - shared
    assert jaccard_at(a, b, k) == (shared / size if size else 1.0)


def random_run(rng, queries, docs=130):
    run = {}
    for qid in queries:
        pool = [f"d{i}" for i in range(docs)]
        chosen = rng.sample(pool, rng.randint(1, docs))
        run[qid] = {docid: float(rng.randrange(40)) for docid in chosen}  # 40 levels: many ties
    return run


def cases():
    rng = random.Random(11)
    sample = [parse_run(open(ROOT / "site_src/data/sample" / name, encoding="utf-8"), name=name)
              for name in ("run-bm25.txt", "run-densa.txt")]
    return [
        ("sample", *sample),
        ("random", random_run(rng, [f"q{i}" for i in range(12)]), random_run(rng, [f"q{i}" for i in range(4, 16)])),
    ]


@pytest.mark.parametrize("name, run_a, run_b", cases(), ids=["sample", "random"])
def test_mean_overlap_averages_the_judges_over_the_queries_both_runs_hold(name, run_a, run_b):
    common = [qid for qid in run_a if qid in run_b]
    jaccards, rbos = [], []
    for qid in common:
        a, b = trec_ranking(run_a[qid]), trec_ranking(run_b[qid])
        top_a, top_b = set(a[:10]), set(b[:10])
        jaccards.append(len(top_a & top_b) / len(top_a | top_b))
        rbos.append(package(a[:100], b[:100], 0.9))
    result = mean_overlap(run_a, run_b)
    assert result.queries == len(common) == (40 if name == "sample" else 8)
    assert result.jaccard == pytest.approx(sum(jaccards) / len(common), abs=1e-12)
    assert result.rbo == pytest.approx(sum(rbos) / len(common), abs=1e-12)
    swapped = mean_overlap(run_b, run_a)  # symmetric, but queries come in the first run's order
    assert swapped.jaccard == pytest.approx(result.jaccard, abs=1e-12) and swapped.rbo == pytest.approx(result.rbo, abs=1e-12)
    assert 0 < result.jaccard < 1 and 0 < result.rbo < 1
