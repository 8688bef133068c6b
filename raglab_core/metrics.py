"""Rank-based retrieval metrics at a cut-off ``k``.

Every function takes ``grades``: the relevance grade of each ranked document,
rank 1 first (non-negative ints, or ``None`` for a document nobody judged).
Each formula is written once, in an unchecked fast path (:func:`precision`,
:func:`recall`, :func:`reciprocal_rank`, :func:`dcg`, ...) that the
evaluator's per-query loop calls directly and that also accepts what trec_eval
accepts (negative grades, no cut-off); the checked public functions
(``precision_at_k``, ...) validate their input, then call it.
Binary metrics call a document *relevant* when ``grade >= threshold``; nDCG
uses the grades themselves. An unjudged document is never relevant and gains
0 (trec_eval's convention); :func:`condensed` drops them instead (trec_eval
``-J``, Sakai 2007).

Conventions, stated once (they match trec_eval [1]_ and ranx [2]_):

* ``k`` larger than the ranking: the missing positions are non-relevant, so
  Precision@k still divides by ``k`` (trec_eval's ``P_k``).
* Recall@k divides by the number of relevant documents *known* for the query
  (``total_relevant``), which the caller supplies: it lies outside the top k.
  It is Recall@k, not Success@k (which would be 1 as soon as one relevant
  document is retrieved).
* DCG and nDCG take the gain as a parameter (:data:`GAINS`), named as
  ir_measures' ``dcg`` option names it: ``"exp-log2"`` (default; alias
  ``"exponential"``) is ``2**g - 1`` (Burges et al. [3]_; ranx's
  ``ndcg_burges``), ``"log2"`` (alias ``"linear"``) is ``g`` (Järvelin &
  Kekäläinen [4]_; trec_eval's ``ndcg_cut``, ranx's ``ndcg``). The gain is
  written once, in :func:`gains`; the discount ``log₂(i + 1)``
  once, in :func:`discounts`; the sum once, in :func:`dcg`. The evaluator
  and the lab's breakdown call these same functions.
* Undefined values are ``None``, never NaN.

References
----------
.. [1] NIST, *trec_eval*, https://github.com/usnistgov/trec_eval
.. [2] E. Bassani, "ranx: A Blazing-Fast Python Library for Ranking
   Evaluation and Comparison", ECIR 2022.
.. [3] C. Burges et al., "Learning to Rank using Gradient Descent", ICML 2005.
.. [4] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR
   techniques", ACM TOIS 20(4), 2002.
"""

import math
import operator
from collections import Counter

from .checks import grade_list, whole_number
from .errors import LabError


def _checked(grades, k, threshold=0):
    return grade_list(grades), whole_number(k, "k", 1), whole_number(threshold, "threshold", 0)


def _checked_total(grades, k, threshold, total_relevant):
    """The checks of every measure that divides by ``total_relevant`` (:func:`recall_at_k`'s contract)."""
    grades, k, threshold = _checked(grades, k, threshold)
    total_relevant = whole_number(total_relevant, "total_relevant", 0)
    in_ranking = relevant(grades, threshold)
    if total_relevant < in_ranking:
        raise LabError("total_below_ranked", field="total_relevant", found=in_ranking)
    return grades, k, threshold, total_relevant


# --- The checked public functions (DESIGN.md §3): validate, then call the fast path below -----------


def relevant_count(grades, threshold: int) -> int:
    """Number of relevant documents among all of ``grades``; checked :func:`relevant`.

    ``|{i : grade_i >= threshold}|`` (no cut-off: the relevant documents a
    ranking or a set of judgments holds).

    >>> relevant_count([3, 0, 2, 1], threshold=2)
    2
    """
    return relevant(grade_list(grades), whole_number(threshold, "threshold", 0))


def relevant_within_k(grades, k: int, threshold: int) -> int:
    """Number of relevant documents among the first ``k``; checked :func:`relevant` of the first ``k``.

    ``|{i <= k : grade_i >= threshold}|``

    >>> relevant_within_k([3, 0, 2, 1], k=3, threshold=2)
    2
    """
    grades, k, threshold = _checked(grades, k, threshold)
    return relevant(grades[:k], threshold)


def first_relevant_rank(grades, k: int, threshold: int) -> int | None:
    """The 1-based rank of the first relevant document within ``k``, or ``None`` if there is none; checked :func:`first_relevant`.

    ``min{i <= k : grade_i >= threshold}`` (trec_eval's ``recip_rank`` takes
    its reciprocal).

    >>> first_relevant_rank([0, 0, 2, 3], k=5, threshold=2)
    3
    >>> first_relevant_rank([0, 0, 2, 3], k=2, threshold=2) is None
    True
    """
    return first_relevant(*_checked(grades, k, threshold))


def precision_at_k(grades, k: int, threshold: int) -> float:
    """Precision@k: the share of the first ``k`` positions holding a relevant document; checked :func:`precision`.

    ``P@k = |{i <= k : grade_i >= threshold}| / k``

    Positions beyond the end of the ranking count as non-relevant, as in
    trec_eval's ``P_k`` (Manning, Raghavan & Schütze, *Introduction to
    Information Retrieval*, 2008, §8.4).

    >>> precision_at_k([3, 0, 2, 1], k=3, threshold=2)   # 2 / 3
    0.6666666666666666
    >>> precision_at_k([3], k=4, threshold=1)            # 1 / 4: missing = non-relevant
    0.25
    """
    return precision(*_checked(grades, k, threshold))


def recall_at_k(grades, k: int, threshold: int, total_relevant: int) -> float | None:
    """Recall@k: the share of the query's known relevant documents found in the first ``k``; checked :func:`recall`.

    ``R@k = |{i <= k : grade_i >= threshold}| / total_relevant``

    ``total_relevant`` is the number of relevant documents known for the query
    (trec_eval's ``num_rel``), which may exceed those in the ranking when some
    were never retrieved. Returns ``None`` when it is 0 (recall is undefined);
    raises ``LabError`` when it is smaller than the relevant documents already
    present in ``grades``.

    >>> recall_at_k([3, 0, 2, 1], k=3, threshold=2, total_relevant=4)   # 2 / 4
    0.5
    >>> recall_at_k([0, 0], k=2, threshold=1, total_relevant=0) is None
    True
    """
    return recall(*_checked_total(grades, k, threshold, total_relevant))


def mrr_at_k(grades, k: int, threshold: int) -> float:
    """Reciprocal rank at k: ``1 / rank`` of the first relevant document within ``k``, else 0; checked :func:`reciprocal_rank`.

    ``RR@k = 1 / min{i <= k : grade_i >= threshold}`` (0 if there is none).
    Averaged over queries it is MRR (Voorhees, "The TREC-8 Question Answering
    Track Report", 1999). Only the first hit counts: what follows it is ignored.

    >>> mrr_at_k([0, 0, 2, 3], k=5, threshold=2)   # 1 / 3
    0.3333333333333333
    >>> mrr_at_k([0, 0, 2, 3], k=2, threshold=2)   # first hit below k
    0.0
    """
    return reciprocal_rank(*_checked(grades, k, threshold))


def success_at_k(grades, k: int, threshold: int) -> float:
    """Success@k («hit rate»): 1 if some position within ``k`` is relevant, else 0; checked :func:`success`.

    ``S@k = [∃ i <= k : grade_i >= threshold]`` (trec_eval's ``success``,
    ir_measures' ``Success@k``). It is not Recall@k: one relevant document
    found is enough, however many are known.

    >>> success_at_k([0, 0, 2], k=3, threshold=2), success_at_k([0, 0, 2], k=2, threshold=2)
    (1.0, 0.0)
    """
    return success(*_checked(grades, k, threshold))


def recall_cap_at_k(grades, k: int, threshold: int, total_relevant: int) -> float | None:
    """BEIR's capped recall: relevant within ``k`` divided by ``min(total_relevant, k)``; checked :func:`recall_cap`.

    ``R_cap@k = |{i <= k : grade_i >= threshold}| / min(R, k)`` (Thakur et
    al., *BEIR*, NeurIPS 2021; ``beir/retrieval/custom_metrics.py``,
    ``recall_cap``): it reaches 1 whenever the top k is full of relevant
    documents, which Recall@k cannot do when ``R > k``. ``None`` when
    ``total_relevant`` is 0; checked as :func:`recall_at_k`.

    >>> recall_cap_at_k([3, 0, 2, 1], k=2, threshold=2, total_relevant=8)   # 1 / min(8, 2)
    0.5
    """
    return recall_cap(*_checked_total(grades, k, threshold, total_relevant))


def average_precision_at_k(grades, k: int, threshold: int, total_relevant: int) -> float | None:
    """AP@k: the mean, over the ``total_relevant`` known relevant documents, of P@i at each one's rank within ``k``.

    ``AP@k = (1 / R) · Σ_{i <= k, grade_i >= threshold} P@i`` (trec_eval's
    ``map_cut``, ir_measures' ``AP@k``): a relevant document outside the top
    k adds 0. ``None`` when ``total_relevant`` is 0; checked as
    :func:`recall_at_k`, then :func:`average_precision`.

    >>> average_precision_at_k([1, 0, 1], k=3, threshold=1, total_relevant=3)   # (1/1 + 2/3) / 3
    0.5555555555555555
    """
    return average_precision(*_checked_total(grades, k, threshold, total_relevant))


def context_precision_at_k(grades, k: int, threshold: int) -> float:
    """ragas' context precision: AP's sum divided by the relevant documents *retrieved* within ``k``.

    ``CP@k = Σ_{i <= k} P@i · rel(i) / |{i <= k : rel(i)}|``, 0 when there
    are none (ragas' documentation of ``ContextPrecision``). The same ranking
    gets 1 here whenever its relevant documents come first, however many
    relevant documents it missed: AP@k divides by all of them.

    >>> context_precision_at_k([1, 0, 1], k=3, threshold=1)   # (1/1 + 2/3) / 2
    0.8333333333333333
    >>> context_precision_at_k([0, 0], k=2, threshold=1)
    0.0
    """
    grades, k, threshold = _checked(grades, k, threshold)
    found = relevant(grades[:k], threshold)
    return precision_sum(grades[:k], threshold) / found if found else 0.0


def judged_at_k(grades, k: int) -> float | None:
    """Judged@k: the share of the first ``min(k, len(grades))`` positions whose document was judged.

    ``|{i <= k : grade_i is not None}| / min(k, n)`` (ir_measures' ``Judged``;
    MacAvaney et al., ECIR 2022). ``None`` for an empty ranking.

    >>> judged_at_k([2, None, 0, None], k=4), judged_at_k([], k=3) is None
    (0.5, True)
    """
    grades, k = grade_list(grades), whole_number(k, "k", 1)
    return judged_share(grades[:k])


def condensed(grades) -> list:
    """``grades`` without the unjudged documents, ranks closed up: Sakai's condensed list (trec_eval ``-J``).

    >>> condensed([3, None, 0, None, 2])
    [3, 0, 2]
    """
    return [grade for grade in grade_list(grades) if grade is not None]


# --- The binary measures' fast paths: one function per formula, unchecked --------------------------
# The checked functions above validate their input, then call these; the evaluator's per-query loop
# (:mod:`raglab_core.runs.evaluation`, runs of 7 M lines) calls them directly. Their semantics are the
# evaluator's, which are trec_eval's [1]_ (``m_P.c``, ``m_recall.c``, ``m_recip_rank.c``,
# ``m_map_cut.c``, ``m_success.c``) and ir_measures' (``Judged``):
#
# * a grade may be ``None`` (a document the qrels do not judge): never relevant;
# * a grade may be negative (trec_eval's "judged non-relevant"): relevant only when ``>= rel``, which
#   no ``rel >= 0`` allows;
# * ``k`` may be ``None`` for the measures without a required cut-off (RR, AP, Judged): the whole
#   ranking counts (``grades[:None]``);
# * ``rel`` (the checked functions' ``threshold``; trec_eval's ``-l``) is the lowest relevant grade;
# * ``total`` is the number of relevant judgments of the query (trec_eval's ``num_rel``), which the
#   evaluator takes from its qrels with :func:`relevant` and the lab receives as ``total_relevant``.


def relevant(grades, rel) -> int:
    """``|{i : g_i >= rel}|`` over all of ``grades`` (unchecked; ``None`` never counts).

    >>> relevant([2, None, 1, 0, -1], 1), relevant([2, None, 1, 0, -1], 0)
    (2, 3)
    """
    return sum(1 for grade in grades if grade is not None and grade >= rel)


def precision(grades, k: int, rel: int = 1) -> float:
    """``P@k = |{i <= k : g_i >= rel}| / k`` (unchecked): trec_eval ``P.k`` (missing positions are non-relevant).

    >>> precision([2, None, 1, 0], k=4, rel=1), precision([2], k=4)
    (0.5, 0.25)
    """
    return relevant(grades[:k], rel) / k


def recall(grades, k: int | None, rel: int, total: int) -> float | None:
    """``R@k = |{i <= k : g_i >= rel}| / total`` (unchecked): trec_eval ``recall.k``; ``None`` when ``total`` is 0.

    It is Recall@k, not Success@k: the share of the query's known relevant
    documents (``total``, trec_eval's ``num_rel``) in the top k.

    >>> recall([2, None, 1], k=2, rel=1, total=relevant([2, 1, 1, 0], 1))
    0.3333333333333333
    """
    return relevant(grades[:k], rel) / total if total else None


def recall_cap(grades, k: int, rel: int, total: int) -> float | None:
    """``R_cap@k = |{i <= k : g_i >= rel}| / min(total, k)`` (unchecked): BEIR's ``R_cap@k``; ``None`` when ``total`` is 0.

    ir_measures has no such measure: it is named as BEIR reports it (Thakur et
    al., NeurIPS 2021, ``beir/retrieval/custom_metrics.py``). Unlike Recall@k
    it reaches 1 when the top k is all relevant, even with more than k
    relevant judgments.

    >>> recall_cap([2, None, 1], k=2, rel=1, total=3)   # 1 / min(3, 2)
    0.5
    """
    return relevant(grades[:k], rel) / min(total, k) if total else None


def first_relevant(grades, k: int | None, rel: int = 1) -> int | None:
    """``min{i <= k : g_i >= rel}`` (unchecked), the 1-based rank, or ``None`` when there is none.

    >>> first_relevant([0, None, 3], k=None), first_relevant([0, None, 3], k=2) is None
    (3, True)
    """
    for rank, grade in enumerate(grades[:k], start=1):
        if grade is not None and grade >= rel:
            return rank
    return None


def reciprocal_rank(grades, k: int | None, rel: int = 1) -> float:
    """``RR@k = 1 / min{i <= k : g_i >= rel}``, 0 when there is none (unchecked): trec_eval ``recip_rank`` on the run cut at k.

    Its mean over queries is MRR (Voorhees, TREC-8 QA track report, 1999).

    >>> reciprocal_rank([0, None, 3], k=None), reciprocal_rank([0, None, 3], k=2)
    (0.3333333333333333, 0.0)
    """
    rank = first_relevant(grades, k, rel)
    return 0.0 if rank is None else 1 / rank


def success(grades, k: int, rel: int = 1) -> float:
    """``Success@k = 1`` if some ``i <= k`` has ``g_i >= rel``, else 0 (unchecked): trec_eval ``success.k`` ("hit rate").

    >>> success([None, 0, 2], k=3, rel=2), success([None, 0, 2], k=2)
    (1.0, 0.0)
    """
    return 1.0 if relevant(grades[:k], rel) else 0.0


def average_precision(grades, k: int | None, rel: int, total: int) -> float | None:
    """``AP@k = (1 / total) · Σ_{i <= k, g_i >= rel} P@i`` (unchecked): trec_eval ``map_cut.k``; ``None`` when ``total`` is 0.

    The divisor is every relevant judgment of the query, not only those within
    k (trec_eval's convention; without a cut-off it is ``map``).

    >>> average_precision([1, 0, 1], k=None, rel=1, total=3)   # (1/1 + 2/3) / 3
    0.5555555555555555
    """
    return precision_sum(grades[:k], rel) / total if total else None


def precision_sum(grades, rel) -> float:
    """``Σ_{i : rel(i)} P@i`` over all of ``grades`` (already cut at k; unchecked): AP's and context precision's numerator.

    ``None`` and grades below ``rel`` are not relevant.

    >>> precision_sum([1, None, 1], 1) == 1 / 1 + 2 / 3
    True
    """
    hits, summed = 0, 0.0
    for rank, grade in enumerate(grades, start=1):
        if grade is not None and grade >= rel:
            hits += 1
            summed += hits / rank
    return summed


def judged_share(grades) -> float | None:
    """``Judged@k = |{i <= k : g_i is not None}| / min(k, n)`` (unchecked): ir_measures' ``Judged``.

    The share of ``grades`` (a list or tuple, already cut at k) that is not
    ``None``; ``None`` when empty. The evaluator's measure and its sanity
    check (mean Judged@10) both call it.

    >>> judged_share([2, None, -1, None]), judged_share([]) is None
    (0.5, True)
    """
    return (len(grades) - grades.count(None)) / len(grades) if grades else None


# --- DCG: one gain, one discount, one sum -----------------------------------------------------------
# The checked functions above and below (``dcg_at_k``, ``ndcg_at_k``) validate their input, then call
# these unchecked fast paths, which the evaluator's per-query loop (:mod:`raglab_core.runs.evaluation`) and
# the lab's breakdown (:mod:`raglab_core.lab.breakdown`) call directly.

GAINS = {"exp-log2": "2^g − 1", "log2": "g"}
"""The gains of DCG, named as ir_measures' ``dcg`` parameter names them: ``"exp-log2"`` is
``2**g - 1`` (Burges et al. 2005; ranx's ``ndcg_burges``; the lab's), ``"log2"`` is ``g``
(Järvelin & Kekäläinen 2002; trec_eval's ``ndcg_cut``, ranx's ``ndcg``)."""
GAIN_ALIASES = {"exponential": "exp-log2", "linear": "log2"}
"""The older spellings, still accepted wherever a gain is named (``dcg_at_k(..., gain="linear")``,
the CLI's ``--gain``)."""


def gain_name(gain) -> str:
    """``gain`` as a key of :data:`GAINS` (an alias of :data:`GAIN_ALIASES` is translated), or ``LabError``.

    >>> gain_name("linear"), gain_name("exp-log2")
    ('log2', 'exp-log2')
    """
    gain = GAIN_ALIASES.get(gain, gain) if isinstance(gain, str) else gain
    if gain not in GAINS:
        raise LabError("gain", field="gain")
    return gain


def gains(grades, kind: str = "exp-log2") -> list:
    """The gain of each grade (unchecked): ``2**g - 1`` (``"exp-log2"``) or ``g`` (``"log2"``).

    ``None`` (unjudged) and grades ``<= 0`` (trec_eval's judged non-relevant) gain 0.

    >>> gains([3, 1, None, -1, 0]), gains([3, 1], "log2")
    ([7, 1, 0, 0, 0], [3, 1])
    """
    if kind == "exp-log2":
        return [2**grade - 1 if grade is not None and grade > 0 else 0 for grade in grades]
    return [grade if grade is not None and grade > 0 else 0 for grade in grades]


_DISCOUNTS = (1.0,)
"""``_DISCOUNTS[i]`` is the discount of rank ``i + 1``; :func:`discounts` lengthens it as ranks grow."""


def discounts(n: int) -> tuple:
    """The discounts of ranks ``1..n`` (at least; unchecked): ``log2(i + 1)``, the only discount in raglab_core.

    Computed once and reused, which keeps evaluating long runs fast. The
    tuple is replaced whole, never changed in place, so threads may share it.

    >>> discounts(3)[:3] == (1.0, math.log2(3), 2.0)
    True
    """
    global _DISCOUNTS
    table = _DISCOUNTS
    if len(table) < n:
        table = _DISCOUNTS = tuple(math.log2(rank + 1) for rank in range(1, max(n, 2 * len(table)) + 1))
    return table


def dcg(grades, kind: str = "exp-log2") -> float:
    """``Σ_i gain(grade_i) / log2(i + 1)`` over all of ``grades`` (already cut at k; unchecked).

    ``grades`` may hold ``None`` (unjudged) and grades ``<= 0``: they gain 0.
    Summed in rank order, as trec_eval sums.

    >>> dcg([3, None, 2]) == 7 + 3 / 2
    True
    """
    total = 0.0
    for term in map(operator.truediv, gains(grades, kind), discounts(len(grades))):
        total += term
    return total


def ndcg(grades, k: int | None, judgments, kind: str = "exp-log2") -> float | None:
    """``DCG@k / IDCG@k`` (unchecked), IDCG@k the DCG of ``judgments`` sorted descending, cut at ``k``.

    ``k`` ``None``: the whole ranking. ``None`` when IDCG@k is 0.

    >>> ndcg([0, 2], k=2, judgments=[2, 1], kind="log2") == (2 / math.log2(3)) / (2 + 1 / math.log2(3))
    True
    """
    ideal = dcg(sorted((g for g in judgments if g is not None and g > 0), reverse=True)[:k], kind)
    if ideal == 0:
        return None
    return dcg(grades[:k], kind) / ideal


def dcg_at_k(grades, k: int, gain: str = "exp-log2") -> float:
    """Discounted cumulative gain at ``k`` (Järvelin & Kekäläinen 2002), checked: :func:`dcg` of the first ``k``.

    ``DCG@k = sum_{i=1..k} gain(grade_i) / log2(i + 1)`` with
    ``gain(g) = 2**g - 1`` for ``"exp-log2"`` (alias ``"exponential"``;
    Burges et al. 2005; ranx's ``ndcg_burges``) or ``gain(g) = g`` for
    ``"log2"`` (alias ``"linear"``; trec_eval's ``ndcg_cut``, ranx's ``ndcg``).

    >>> dcg_at_k([3, 0, 2], k=3) == 7 / math.log2(2) + 3 / math.log2(4)
    True
    >>> dcg_at_k([3, 0, 2], k=3, gain="linear") == 3 / math.log2(2) + 2 / math.log2(4)
    True
    """
    grades, k, kind = grade_list(grades), whole_number(k, "k", 1), gain_name(gain)
    return dcg(grades[:k], kind)


def ndcg_at_k(grades, k: int, judgments=None, gain: str = "exp-log2") -> float | None:
    """Normalised DCG: ``DCG@k / IDCG@k``, in [0, 1], with either gain of :func:`dcg_at_k`; checked :func:`ndcg`.

    ``IDCG@k`` is the DCG of ``judgments`` (every judged grade of the query;
    default: ``grades``) sorted in descending order and cut at ``k``. The
    graded documents of the ranking must be among the judgments. Returns
    ``None`` when ``IDCG@k`` is 0 (no positive grade). The relevance threshold
    plays no part.

    >>> ndcg_at_k([3, 2, 0], k=3)                  # already ideal
    1.0
    >>> ndcg_at_k([0, 3], k=2) == dcg_at_k([0, 3], k=2) / dcg_at_k([3, 0], k=2)
    True
    >>> ndcg_at_k([0, 3], k=2, judgments=[3, 1], gain="linear") == dcg_at_k([0, 3], 2, "linear") / dcg_at_k([3, 1], 2, "linear")
    True
    >>> ndcg_at_k([0, 0], k=2) is None
    True
    """
    grades, k, kind = grade_list(grades), whole_number(k, "k", 1), gain_name(gain)
    judgments = grades if judgments is None else grade_list(judgments, "judgments")
    if judgments is not grades:
        positive = lambda grades: Counter(g for g in grades if g is not None and g > 0)  # noqa: E731
        missing = positive(grades) - positive(judgments)
        if missing:
            raise LabError("judgments_missing", field="judgments")
    return ndcg(grades, k, judgments, kind)
