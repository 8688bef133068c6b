"""Evaluate a run against qrels, trec_eval-exact (comparing two runs: :mod:`raglab_core.report`).

Input is plain data: ``qrels`` ``{qid: {docid: rel}}`` and a ``run``
``{qid: {docid: score}}`` (what :mod:`raglab_core.trec` parses). Four metrics
at a cut-off ``k``, with a document *relevant* when its judged grade is
``>= umbral`` (``umbral >= 1``, so a grade ``<= 0`` is never relevant), computed
by :mod:`raglab_core.metrics`:

========= ====================================================== ==========================
name      definition                                             trec_eval / ranx
========= ====================================================== ==========================
precision relevant in top k / k                                  ``P.k`` / ``precision@k``
recall    relevant in top k / judged relevant of the query       ``recall.k`` / ``recall@k``
          (``None`` when the query has none)
mrr       1 / rank of the first relevant within k, else 0        ``recip_rank`` on the run
                                                                 cut at k / ``mrr@k``
ndcg      DCG@k / IDCG@k, discount ``log₂(i + 1)``; gain         exponential: ranx
          ``2**rel - 1`` (``"exponential"``, default) or         ``ndcg_burges@k``; linear:
          ``rel`` (``"linear"``); ``None`` when IDCG@k is 0      trec_eval ``ndcg_cut.k``
========= ====================================================== ==========================

Conventions, each checked against trec_eval 9 (through pytrec_eval) and ranx
in ``tests/test_evaluation.py``:

* **Ranking.** Documents are ordered by score, descending; ties are broken by
  document id, *descending* in byte (``strcmp``) order, which is what
  trec_eval does (``comp_sim_docno`` in ``form_res_rels.c``; verified
  through pytrec_eval: of two tied documents ``a`` and ``b``, ``b`` is ranked
  first). Python compares ``str`` by code point, which orders UTF-8 bytes
  identically. Scores are compared in single precision, as trec_eval stores
  them in a C ``float``: 1.000000001 and 1.0 tie. ranx sorts float64 scores
  and leaves ties to its sort, so it can order such documents differently.
  The run's rank column is ignored, as trec_eval ignores it.
* **Unjudged documents** are not relevant and have gain 0; so have negative
  grades (trec_eval's ``ndcg_cut`` adds only positive gains).
* **IDCG** is the DCG of *all* the query's judgments sorted by grade and cut
  at k, not only of the retrieved ones (trec_eval's and ranx's convention).
  The threshold plays no part in nDCG (trec_eval's ``ndcg_cut`` ignores
  ``-l``).
* **Which queries.** A query is evaluated when it is in both the run and the
  qrels, even if all its judgments are non-relevant: trec_eval evaluates it
  too and reports 0 for all four metrics. Queries only in the run are skipped
  (trec_eval ignores them). Queries only in the qrels are skipped, unless
  ``complete=True`` (trec_eval ``-c``, ranx ``make_comparable=True``): then
  each is evaluated as an empty ranking, so every metric is 0 (or ``None``
  where undefined).
* **Means** are arithmetic means over the evaluated queries, an undefined
  per-query value (``None``) counting as 0, which is how trec_eval and ranx
  average it (both report 0 for such a query).

References
----------
.. [1] NIST, *trec_eval*, https://github.com/usnistgov/trec_eval
   (``m_P.c``, ``m_recall.c``, ``m_recip_rank.c``, ``m_ndcg_cut.c``).
.. [2] E. Bassani, "ranx: A Blazing-Fast Python Library for Ranking
   Evaluation and Comparison", ECIR 2022.
.. [3] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR
   techniques", ACM TOIS 20(4), 2002.
.. [4] C. Burges et al., "Learning to Rank using Gradient Descent", ICML 2005.

>>> qrels = {"q1": {"a": 2, "b": 0, "c": 1}, "q2": {"x": 1}}
>>> run = {"q1": {"a": 0.5, "b": 0.9, "c": 0.1}, "q3": {"x": 1.0}}
>>> result = evaluate_run(qrels, run, k=2)
>>> result.per_query["q1"]                       # ranking b, a: one relevant in 2
QueryScores(precision=0.5, recall=0.5, mrr=0.5, ndcg=0.52129602861432)
>>> result.per_query["q1"].ndcg == metrics.dcg_at_k([0, 2], 2) / metrics.dcg_at_k([2, 1], 2)
True
>>> result.not_in_qrels, result.not_in_run
(('q3',), ('q2',))
"""

import math
from array import array
from dataclasses import dataclass
from typing import NamedTuple

from . import metrics
from .validate import gain_name, whole_number

METRICS = ("precision", "recall", "mrr", "ndcg")


class QueryScores(NamedTuple):
    """The four metrics for one query (``None`` where undefined), or their means."""

    precision: float
    recall: float | None
    mrr: float
    ndcg: float | None


@dataclass(frozen=True)
class RunEvaluation:
    """One run evaluated against qrels.

    ``per_query`` maps each evaluated query id (sorted) to its
    :class:`QueryScores`; ``mean`` holds the means (``None`` counted as 0; all
    zeros when no query was evaluated). ``not_in_qrels``: run queries skipped
    for lack of judgments; ``not_in_run``: qrels queries the run does not
    answer (scored as empty rankings when ``complete``).
    """

    k: int
    umbral: int
    gain: str
    complete: bool
    per_query: dict
    mean: QueryScores
    not_in_qrels: tuple
    not_in_run: tuple


def trec_order(scores, depth=None) -> list:
    """Document ids ranked as trec_eval ranks them: score descending, then docid descending.

    ``scores`` maps docid -> score; only the first ``depth`` are returned (all
    when ``None``). Scores are compared as trec_eval holds them, in single
    precision (see :func:`single_precision`), so scores that differ only
    beyond a C ``float``'s 24-bit mantissa tie and fall back on the docid.
    Selecting the top ``depth`` first (by the depth-th largest score, ties
    included) keeps the tuple sort small.

    >>> trec_order({"a": 1.0, "b": 1.0, "c": 2.0})
    ['c', 'b', 'a']
    >>> trec_order({"d1": 0.3, "d2": 0.7, "d3": 0.7, "d4": 0.1}, depth=2)
    ['d3', 'd2']
    >>> trec_order({"a": 1.000000001, "b": 1.0})     # equal as C floats
    ['b', 'a']
    """
    sims = single_precision(scores.values())
    if depth is not None and depth < len(sims):
        cutoff = sorted(sims)[-depth]  # a C sort of floats beats sorting tuples
        pairs = [(sim, docid) for sim, docid in zip(sims, scores) if sim >= cutoff]
    else:
        pairs = list(zip(sims, scores))
    pairs.sort(reverse=True)
    return [docid for _, docid in pairs[:depth]]


_FLOAT_MAX = 3.4028234663852886e38  # FLT_MAX, the largest finite C float
_ROUNDS_TO_INFINITY = 2.0**128 * (1 - 2.0**-25)  # halfway between FLT_MAX and 2**128


def single_precision(values) -> list:
    """``values`` (a list or dict view) rounded to IEEE single precision (C ``float``), as Python floats.

    trec_eval stores each score in a C ``float`` (``DOCNO_INFO.sim`` in
    ``form_res_rels.c``) before sorting, so its order is that of the rounded
    scores; magnitudes beyond the float range become infinities, as a C
    conversion gives.

    >>> single_precision([0.1, 1.000000001, 1e300, -1e39])
    [0.10000000149011612, 1.0, inf, -inf]
    """
    try:
        return array("f", values).tolist()
    except OverflowError:  # should a build refuse out-of-range values, round them as C does first
        return array("f", [_clamped(value) for value in values]).tolist()


def _clamped(value):
    if abs(value) <= _FLOAT_MAX:
        return value
    return math.copysign(_FLOAT_MAX if abs(value) < _ROUNDS_TO_INFINITY else math.inf, value)


def score_query(grades, judgments, k: int, umbral: int, gain: str = "exponential") -> QueryScores:
    """The four metrics of one query.

    ``grades``: the non-negative grades of its ranked documents, rank 1 first
    (0 for unjudged ones; at least the top ``k``); ``judgments``: every
    positive judged grade of the query (for IDCG and recall's denominator).

    >>> scores = score_query([0, 2, 1], judgments=[2, 1, 3], k=3, umbral=2)
    >>> scores.precision, scores.recall, scores.mrr                 # 1/3, 1/2 (grades 2 and 3), 1/2
    (0.3333333333333333, 0.5, 0.5)
    >>> scores.ndcg == metrics.dcg_at_k([0, 2, 1], 3) / metrics.dcg_at_k([3, 2, 1], 3)
    True
    """
    return QueryScores(
        metrics.precision_at_k(grades, k, umbral),
        metrics.recall_at_k(grades, k, umbral, metrics.relevant_count(judgments, umbral)),
        metrics.mrr_at_k(grades, k, umbral),
        metrics.ndcg_at_k(grades, k, judgments, gain),
    )


def mean_scores(scores) -> QueryScores:
    """Per-metric arithmetic means of :class:`QueryScores`, ``None`` counting as 0; zeros if empty.

    >>> mean_scores([QueryScores(0.5, None, 1.0, None), QueryScores(0.0, 1.0, 0.5, 0.5)])
    QueryScores(precision=0.25, recall=0.5, mrr=0.75, ndcg=0.25)
    """
    scores = list(scores)
    if not scores:
        return QueryScores(0.0, 0.0, 0.0, 0.0)
    return QueryScores(*(math.fsum(value or 0.0 for value in column) / len(scores) for column in zip(*scores)))


def evaluate_run(
    qrels, run, k: int = 10, umbral: int = 1, gain: str = "exponential", complete: bool = False
) -> RunEvaluation:
    """Evaluate ``run`` against ``qrels``: a :class:`RunEvaluation` (conventions in the module docstring).

    ``LabError`` if ``k < 1``, ``umbral < 1`` or ``gain`` is not one of :data:`~raglab_core.metrics.GAINS`.
    """
    k, umbral, gain = whole_number(k, "k", 1), whole_number(umbral, "umbral", 1), gain_name(gain)
    per_query = {}
    for qid in sorted(qrels.keys() if complete else qrels.keys() & run.keys()):
        judged = qrels[qid]
        # Unjudged and negatively judged documents alike: grade 0.
        grades = [max(judged.get(docid, 0), 0) for docid in trec_order(run.get(qid, {}), k)]
        judgments = [grade for grade in judged.values() if grade > 0]
        per_query[qid] = score_query(grades, judgments, k, umbral, gain)
    return RunEvaluation(
        k=k,
        umbral=umbral,
        gain=gain,
        complete=complete,
        per_query=per_query,
        mean=mean_scores(per_query.values()),
        not_in_qrels=tuple(sorted(run.keys() - qrels.keys())),
        not_in_run=tuple(sorted(qrels.keys() - run.keys())),
    )
