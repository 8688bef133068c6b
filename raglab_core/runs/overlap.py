"""How different two runs are, without judgments: Jaccard@k of the top k and rank-biased overlap (RBO_ext).

Two runs can reach the same score while retrieving different documents,
and sparse judgments hide it. Per query, each run's documents are ranked as
trec_eval ranks them (score descending, ties by document id descending;
:func:`raglab_core.runs.evaluation.trec_order`), then compared:

* :func:`jaccard_at`: ``|A ∩ B| / |A ∪ B|`` of the two top-k sets (order inside the top k does not count);
* :func:`rbo_ext`: extrapolated rank-biased overlap (Webber, Moffat & Zobel 2010 [1]_, eq. 32), top-weighted:
  agreement at depth d weighs ``(1 − p)·p^(d−1)``; with p = 0.9 the top 10 carry 86 % of the weight.

:func:`mean_overlap` averages both over the queries that both runs hold,
as OpenSearch's Search Relevance Workbench compares two result lists.

>>> a = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "q2": {"x": 1.0}}
>>> b = {"q1": {"d2": 5.0, "d1": 4.0, "d9": 1.0}, "q3": {"x": 1.0}}
>>> mean_overlap(a, b)
Overlap(queries=1, jaccard=0.5, rbo=0.63)

References
----------
.. [1] W. Webber, A. Moffat and J. Zobel, "A similarity measure for indefinite
   rankings", ACM Transactions on Information Systems 28(4), 2010, article 20
   (RBO_ext: eq. 32, for rankings of different lengths; eq. 30 when they are even).
.. [2] The ``rbo`` package 0.1.3 (``RankingSimilarity(S, T).rbo_ext(p)``),
   which the tests hold this module to.
"""

import math
from typing import NamedTuple

from .evaluation import trec_order

JACCARD_K = 10
"""Jaccard's cut-off: the top 10."""

RBO_P = 0.9
"""RBO's persistence p (the top 10 carry 86 % of the weight)."""

RBO_DEPTH = 100
"""RBO looks at each ranking's top 100."""


def jaccard_at(a, b, k: int = JACCARD_K) -> float:
    """Jaccard similarity of the top ``k`` ids of rankings ``a`` and ``b``: ``|A ∩ B| / |A ∪ B|``.

    Two empty top-k sets are identical (1.0).

    >>> jaccard_at(["d1", "d2", "d3"], ["d3", "d4"], k=2), jaccard_at(["d1", "d2", "d3"], ["d3", "d4"], k=3)
    (0.0, 0.25)
    >>> jaccard_at([], [])
    1.0
    """
    top_a, top_b = set(a[:k]), set(b[:k])
    union = top_a | top_b
    if not union:
        return 1.0
    return len(top_a & top_b) / len(union)


def rbo_ext(a, b, p: float = RBO_P, depth: int = RBO_DEPTH) -> float:
    """Extrapolated rank-biased overlap of the top ``depth`` of rankings ``a`` and ``b`` (ids distinct in each).

    Webber, Moffat & Zobel 2010 [1]_, eq. 32. With S the shorter list
    (length s), L the longer (length l), X_d the overlap of their first d
    ids (for d > s, of all of S with the first d of L):

    RBO_ext = (1 − p)/p · [Σ_{d=1..l} X_d/d · p^d + Σ_{d=s+1..l} X_s·(d − s)/(s·d) · p^d]
    + [(X_l − X_s)/l + X_s/s] · p^l

    which for lists of even length (s = l) is eq. 30, ``(1 − p)/p · Σ X_d/d · p^d + X_l/l · p^l``.
    Unseen ids of S are assumed to agree beyond depth s at the rate S had
    reached (X_s/s). It is the ``rbo`` package 0.1.3's ``rbo_ext`` [2]_, its
    conventions included: two empty lists give 1, one empty list 0, and the
    result is kept within [0, 1] (rounding can leave 1 + 10⁻¹⁶ for identical lists).

    >>> rbo_ext(["a", "b", "c"], ["a", "b", "c"]), rbo_ext(["a", "b"], ["c", "d"])
    (1.0, 0.0)
    >>> round(rbo_ext(list("abcde"), list("bacfgh")), 6)
    0.619335
    """
    if not 0 < p < 1:
        raise ValueError(f"p must be between 0 and 1 (exclusive), not {p!r}")
    short, long = list(a[:depth]), list(b[:depth])
    if len(short) > len(long):
        short, long = long, short
    s, l = len(short), len(long)  # noqa: E741 (the paper's names)
    if l == 0:
        return 1.0
    if s == 0:
        return 0.0
    seen_short, seen_long = set(), set()
    overlap = 0  # X_d
    agreement = 0.0  # Σ X_d/d · p^d
    extrapolated = 0.0  # Σ X_s·(d − s)/(s·d) · p^d, d > s
    overlap_s = 0  # X_s
    weight = 1.0  # p^d
    for d in range(1, l + 1):
        weight *= p
        item_long = long[d - 1]
        if d <= s:
            item_short = short[d - 1]
            if item_short == item_long:
                overlap += 1
            else:
                overlap += (item_short in seen_long) + (item_long in seen_short)
            seen_short.add(item_short)
            if d == s:
                overlap_s = overlap
        else:
            overlap += item_long in seen_short
            extrapolated += overlap_s * (d - s) / (s * d) * weight
        seen_long.add(item_long)
        agreement += overlap / d * weight
    value = (1 - p) / p * (agreement + extrapolated) + ((overlap - overlap_s) / l + overlap_s / s) * weight
    return min(1.0, max(0.0, value))


class Overlap(NamedTuple):
    """Two runs' mean overlap over the ``queries`` both hold: ``jaccard`` (Jaccard@10) and ``rbo`` (RBO_ext,
    p = 0.9, top 100); ``None`` when they hold no query in common."""

    queries: int
    jaccard: float | None
    rbo: float | None


def mean_overlap(run_a, run_b, k: int = JACCARD_K, p: float = RBO_P, depth: int = RBO_DEPTH) -> Overlap:
    """Mean Jaccard@``k`` and mean RBO_ext (``p``, top ``depth``) of two runs ``{qid: {docid: score}}``.

    Over the queries both runs hold (with at least one document each): a
    query only one run holds has nothing to compare with, and is left out
    (the evaluation's warnings already name such queries). Each query is
    ranked as trec_eval ranks it; the means are plain averages over queries.

    >>> mean_overlap({"q": {"a": 1.0}}, {"r": {"a": 1.0}})
    Overlap(queries=0, jaccard=None, rbo=None)
    """
    top = max(k, depth)
    rankings_a = {qid: trec_order(scores, top) for qid, scores in run_a.items() if scores}
    rankings_b = {qid: trec_order(scores, top) for qid, scores in run_b.items() if scores}
    return mean_ranked_overlap(rankings_a, rankings_b, k, p, depth)


def mean_ranked_overlap(rankings_a, rankings_b, k: int = JACCARD_K, p: float = RBO_P, depth: int = RBO_DEPTH) -> Overlap:
    """:func:`mean_overlap` of two runs already ranked, ``{qid: [docid, …]}`` (at least their top
    ``max(k, depth)``), as the evaluator keeps them (:attr:`RunEvaluation.top`).

    >>> mean_ranked_overlap({"q": ["a", "b"], "r": ["x"]}, {"q": ["b", "c"]})
    Overlap(queries=1, jaccard=0.3333333333333333, rbo=0.45)
    """
    jaccards, rbos = [], []
    for qid, ranked_a in rankings_a.items():
        ranked_b = rankings_b.get(qid)
        if not ranked_a or not ranked_b:
            continue
        jaccards.append(jaccard_at(ranked_a, ranked_b, k))
        rbos.append(rbo_ext(ranked_a, ranked_b, p, depth))
    if not jaccards:
        return Overlap(0, None, None)
    return Overlap(len(jaccards), math.fsum(jaccards) / len(jaccards), math.fsum(rbos) / len(rbos))
