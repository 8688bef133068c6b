"""Run fusion: several runs ``{qid: {docid: score}}`` combined into one, as ranx 0.3.21's ``fuse()``.

:func:`fuse` normalises each run per query (:data:`NORMS`), then combines the
normalised scores per document (:data:`METHODS`). The names, the
definitions and every edge case are those of ranx 0.3.21 [1]_
(``ranx.fuse(runs, norm=N, method=M, params=...)``, its ``ranx/normalization``
and ``ranx/fusion`` modules); the tests check every fused score against ranx
itself. :func:`to_trec` writes the fused run as a TREC run.

What a run that lacks a document gives it (ranx's choices):

* ``sum``, ``wsum`` and ``rrf``: 0;
* ``mnz``: nothing; the document's sum is multiplied by the number of runs that hold it;
* ``max``: −10⁹ (so that any score a run did give wins);
* after the ``borda`` normalisation every run holds every document of the
  query (a lacking one gets Borda's share of the points left over, below).

A query that a run lacks: that run contributes nothing to it, as if it had
not been given (ranx refuses runs whose queries differ). A query with no
document in a run counts as lacking from it.

How tied documents are ranked (``rrf``, ``rank``, ``borda``): a run's
documents are ranked as trec_eval ranks them, by score descending and, among
equal scores, by document id descending
(:func:`raglab_core.runs.evaluation.trec_order`), the same ranking its evaluation
uses. ranx fixes no rule: it keeps whatever order its sort leaves among equal
scores, which differs between its compiled and interpreted code.

>>> runs = [{"q1": {"a": 3.0, "b": 1.0, "c": 2.0}}, {"q1": {"b": 10.0, "d": 5.0}}]
>>> fuse(runs, "sum", "min-max")
{'q1': {'a': 1.0, 'c': 0.5, 'b': 1.0, 'd': 0.0}}
>>> fuse(runs, "mnz", "min-max")["q1"]["b"], fuse(runs, "max", "none")["q1"]["b"]
(2.0, 10.0)
>>> print(to_trec(fuse(runs, "rrf", "none", {"k": 60}), "rrf"), end="")
q1 Q0 b 1 0.032266458495966696 rrf
q1 Q0 a 2 0.01639344262295082 rrf
q1 Q0 d 3 0.016129032258064516 rrf
q1 Q0 c 4 0.016129032258064516 rrf

References
----------
.. [1] E. Bassani and L. Romelli, "ranx.fuse: A Python Library for Metasearch",
   CIKM 2022; ranx 0.3.21, ``ranx/meta/fuse.py``, ``ranx/normalization/*.py``,
   ``ranx/fusion/{rrf,comb_sum,comb_mnz,comb_max,wsum}.py``.
.. [2] G. V. Cormack, C. L. A. Clarke and S. Büttcher, "Reciprocal rank fusion
   outperforms Condorcet and individual rank learning methods", SIGIR 2009.
.. [3] E. A. Fox and J. A. Shaw, "Combination of multiple searches", TREC-2, 1993.
.. [4] J. H. Lee, "Analyses of multiple evidence combination", SIGIR 1997.
.. [5] M. Montague and J. A. Aslam, "Relevance score normalization for
   metasearch", CIKM 2001.
.. [6] M. E. Renda and U. Straccia, "Web metasearch: rank vs. score based rank
   aggregation methods", SAC 2003.
"""

import math

from ..errors import LabError
from .evaluation import trec_order

METHODS = ("rrf", "sum", "mnz", "max", "wsum")
"""Fusion methods, by ranx's names: RRF, CombSUM, CombMNZ, CombMAX, weighted sum."""

NORMS = ("min-max", "max", "sum", "zmuv", "rank", "borda", "none")
"""Normalisations, by ranx's names; ``"none"`` is ranx's ``norm=None``."""

DEFAULT_NORM = "min-max"
"""ranx's default normalisation, for every method (``ranx.fuse(norm="min-max")``)."""

RRF_K = 60

# The fewest runs a fusion combines.
MIN_RUNS = 2
"""RRF's k when none is given (ranx's default, Cormack et al.'s value)."""

PARAMS = {"rrf": ("k",), "wsum": ("weights",)}
"""The parameters each method takes (the others take none)."""

FLOOR = 1e-9
"""ranx's least denominator: a normalisation never divides by less (all-equal scores, zero spread)."""

MAX_LACKING = -1e9
"""What CombMAX counts for a run that lacks the document (ranx's ``res.get(doc_id, -1e9)``)."""

DEFAULT_DEPTH = 1000
"""Documents written per query by :func:`to_trec` (trec_eval's customary depth)."""


def fuse(runs, method: str, norm: str = DEFAULT_NORM, params=None) -> dict:
    """``runs`` (two or more ``{qid: {docid: score}}``) fused into one ``{qid: {docid: score}}``.

    Each run is normalised per query (:func:`normalise`), then each document's
    scores are combined (:func:`combine`), as ``ranx.fuse(runs, norm=norm,
    method=method, params=params)`` does (``norm="none"`` is ranx's
    ``norm=None``). ``params``: ``{"k": 60}`` for ``rrf`` (optional),
    ``{"weights": [w1, w2, …]}`` for ``wsum`` (one per run, required). ``rrf``
    uses each run's ranking only, which no listed normalisation changes;
    ``borda`` with ``rrf`` is refused (ranx then ranks by Python set order,
    different in each process). Queries come in the order the runs first name
    them; a run lacking a query contributes nothing to it.

    >>> fuse([{"q": {"a": 1.0, "b": 3.0}}, {"q": {"a": 2.0}}], "wsum", "none", {"weights": [0.5, 2.0]})
    {'q': {'b': 1.5, 'a': 4.5}}
    >>> fuse([{"q": {"a": 1.0}}, {"q": {"a": 2.0}}], "rrf", "borda")
    Traceback (most recent call last):
      ...
    raglab_core.errors.LabError: rrf ordena cada run por sí mismo, así que no se ofrece con la normalización borda (ranx ordenaría en un orden arbitrario); usa otra normalización, o ninguna.
    """
    k, weights = check_settings(len(runs), method, norm, params)
    fused = {}
    for qid in query_order(runs):
        held = [(i, run[qid]) for i, run in enumerate(runs) if run.get(qid)]
        rankings = [[(docid, float(scores[docid])) for docid in trec_order(scores)] for _, scores in held]
        if method == "rrf":
            lists = [{docid: 1 / (k + rank) for rank, (docid, _) in enumerate(ranking, start=1)} for ranking in rankings]
            fused[qid] = combine("sum", lists)
        else:
            lists = normalise(norm, rankings)
            fused[qid] = combine(method, lists, [weights[i] for i, _ in held] if weights else None)
    return fused


def check_settings(count: int, method: str, norm: str, params) -> tuple:
    """``(k, weights)`` for :func:`fuse`, or :class:`LabError` for a setting ranx would refuse or misuse.

    >>> check_settings(2, "rrf", "rank", None), check_settings(3, "wsum", "zmuv", {"weights": [1, 0.5, 2]})
    ((60, None), (60, [1.0, 0.5, 2.0]))
    >>> check_settings(2, "wsum", "none", {"weights": [1]})
    Traceback (most recent call last):
      ...
    raglab_core.errors.LabError: wsum necesita un peso por run, cada uno un número finito: hay 2 runs y se han dado [1].
    """
    if count < MIN_RUNS:
        raise LabError("fusion_runs", field="runs", found=count)
    if method not in METHODS:
        raise LabError("fusion_method", field="method", name=method, supported=", ".join(METHODS))
    if norm not in NORMS:
        raise LabError("fusion_norm", field="norm", name=norm, supported=", ".join(NORMS))
    params = dict(params or {})
    accepted = PARAMS.get(method, ())
    for name in params:
        if name not in accepted:
            raise LabError("fusion_param", field=name, method=method, name=name, accepted=", ".join(accepted) or "-")
    if method == "rrf" and norm == "borda":
        raise LabError("fusion_rrf_borda", field="norm")
    k = params.get("k", RRF_K)
    if not _finite_number(k) or k < 0:
        raise LabError("fusion_rrf_k", field="k", value=k)
    weights = params.get("weights")
    if method == "wsum":
        if not isinstance(weights, (list, tuple)) or len(weights) != count or not all(map(_finite_number, weights)):
            raise LabError("fusion_weights", field="weights", expected=count, found=weights)
        weights = [float(weight) for weight in weights]
    return k, weights


def _finite_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def query_order(runs) -> list:
    """Every query of ``runs``, in the order the runs first name them.

    >>> query_order([{"q2": {}, "q1": {}}, {"q3": {}, "q1": {}}])
    ['q2', 'q1', 'q3']
    """
    return list(dict.fromkeys(qid for run in runs for qid in run))


def lacking_queries(runs) -> list:
    """For each run, the queries of the other runs that it lacks (or holds no document for), in query order.

    >>> lacking_queries([{"q1": {"a": 1}, "q2": {"a": 1}}, {"q1": {"a": 1}, "q3": {}}])
    [[], ['q2']]
    """
    queries = [qid for qid in query_order(runs) if any(run.get(qid) for run in runs)]
    return [[qid for qid in queries if not run.get(qid)] for run in runs]


# --- normalisations (ranx/normalization/*.py), per query, per run ---------------------------------------------


def normalise(norm: str, rankings) -> list:
    """Each run's normalised scores ``{docid: score}`` for one query.

    ``rankings``: per run that holds the query, its ``[(docid, score)]`` in
    trec_eval's order. ``borda`` looks at all the runs at once (its candidates
    are every document of the query); the others at one run at a time.

    >>> normalise("rank", [[("a", 5.0), ("b", 4.0)], [("b", 2.0)]])
    [{'a': 1.0, 'b': 0.5}, {'b': 1.0}]
    """
    if norm == "borda":
        return borda_norm(rankings)
    single = {"none": none_norm, "min-max": min_max_norm, "max": max_norm, "sum": sum_norm, "zmuv": zmuv_norm,
              "rank": rank_norm}[norm]
    return [single(ranking) for ranking in rankings]


def none_norm(ranking) -> dict:
    """The scores as given (ranx's ``norm=None``).

    >>> none_norm([("a", 2.0), ("b", -1.0)])
    {'a': 2.0, 'b': -1.0}
    """
    return dict(ranking)


def min_max_norm(ranking) -> dict:
    """Min-max (Lee 1997 [4]_; ranx ``min_max_norm``): ``(s − min) / max(max − min, 10⁻⁹)``.

    All-equal scores (one document, say) give 0: ranx's floor keeps it from dividing by zero.

    >>> min_max_norm([("a", 4.0), ("b", 3.0), ("c", 2.0)]), min_max_norm([("a", 7.0)])
    ({'a': 1.0, 'b': 0.5, 'c': 0.0}, {'a': 0.0})
    """
    low, high = min(score for _, score in ranking), max(score for _, score in ranking)
    denominator = max(high - low, FLOOR)
    return {docid: (score - low) / denominator for docid, score in ranking}


def max_norm(ranking) -> dict:
    """Max (Lee 1997 [4]_; ranx ``max_norm``): ``s / max(max, 10⁻⁹)``.

    When every score is ≤ 0 the denominator is 10⁻⁹, so negative scores grow
    a billion-fold (ranx's definition, kept: the order is unchanged).

    >>> max_norm([("a", 4.0), ("b", 1.0)]), max_norm([("a", -1.0)])
    ({'a': 1.0, 'b': 0.25}, {'a': -999999999.9999999})
    """
    denominator = max(max(score for _, score in ranking), FLOOR)
    return {docid: score / denominator for docid, score in ranking}


def sum_norm(ranking) -> dict:
    """Sum (Montague & Aslam 2001 [5]_; ranx ``sum_norm``): ``(s − min) / max(Σ s − n·min, 10⁻⁹)``.

    The shifted scores sum to 1; all-equal scores give 0. The sum runs from
    the top of the ranking down, one addition at a time, as ranx's does.

    >>> sum_norm([("a", 3.0), ("b", 2.0), ("c", 1.0)])
    {'a': 0.6666666666666666, 'b': 0.3333333333333333, 'c': 0.0}
    """
    low = min(score for _, score in ranking)
    denominator = max(_sequential_sum(score for _, score in ranking) - low * len(ranking), FLOOR)
    return {docid: (score - low) / denominator for docid, score in ranking}


def zmuv_norm(ranking) -> dict:
    """ZMUV, zero mean and unit variance (Montague & Aslam 2001 [5]_; ranx ``zmuv_norm``).

    ``(s − mean) / max(std, 10⁻⁹)``, with the population standard deviation
    (divided by n, numpy's ``np.std``). All-equal scores give 0, as in exact
    arithmetic; ranx computes their mean in floating point and can leave
    ±10⁻⁸ there (0.1 three times: −1.39·10⁻⁸), the rounding of the mean
    divided by 10⁻⁹.

    >>> zmuv_norm([("a", 3.0), ("b", 1.0)]), zmuv_norm([("a", 0.1), ("b", 0.1), ("c", 0.1)])
    ({'a': 1.0, 'b': -1.0}, {'a': 0.0, 'b': 0.0, 'c': 0.0})
    """
    scores = [score for _, score in ranking]
    if min(scores) == max(scores):
        return {docid: 0.0 for docid, _ in ranking}
    mean = _sequential_sum(scores) / len(scores)
    deviation = math.sqrt(_sequential_sum((score - mean) * (score - mean) for score in scores) / len(scores))
    denominator = max(deviation, FLOOR)
    return {docid: (score - mean) / denominator for docid, score in ranking}


def rank_norm(ranking) -> dict:
    """Rank (Renda & Straccia 2003 [6]_; ranx ``rank_norm``): ``1 − (r − 1) / n`` for the document at rank r of n.

    Ranks are trec_eval's (ties by document id descending, the module's note).

    >>> rank_norm([("a", 9.0), ("c", 5.0), ("b", 5.0), ("d", 1.0)])
    {'a': 1.0, 'c': 0.75, 'b': 0.5, 'd': 0.25}
    """
    count = len(ranking)
    return {docid: 1 - (index / count) for index, (docid, _) in enumerate(ranking)}


def borda_norm(rankings) -> list:
    """Borda (Renda & Straccia 2003 [6]_; ranx ``borda_norm``), over all the runs of one query at once.

    With C candidates (the documents any run holds for the query) and a run
    of n documents, the document at rank r gets ``1 − (r − 1) / C`` and each
    candidate the run lacks gets ``1/2 − (n − 1) / (2C)``: the points left
    over, shared equally. Every run then holds every candidate.

    >>> borda_norm([[("a", 2.0), ("b", 1.0)], [("c", 4.0)]])
    [{'a': 1.0, 'b': 0.6666666666666667, 'c': 0.33333333333333337}, {'c': 1.0, 'a': 0.5, 'b': 0.5}]
    """
    candidates = list(dict.fromkeys(docid for ranking in rankings for docid, _ in ranking))
    total = len(candidates)
    normalised = []
    for ranking in rankings:
        scores = {docid: 1 - (index / total) for index, (docid, _) in enumerate(ranking)}
        lacking = 0.5 - ((len(ranking) - 1) / (2 * total))
        for docid in candidates:
            if docid not in scores:
                scores[docid] = lacking
        normalised.append(scores)
    return normalised


def _sequential_sum(values) -> float:
    """Left to right, one rounding per addition, as ranx's compiled loops add (Python 3.12's ``sum`` compensates)."""
    total = 0.0
    for value in values:
        total += value
    return total


# --- methods (ranx/fusion/*.py), per query ---------------------------------------------------------------------


def combine(method: str, lists, weights=None) -> dict:
    """One query's fused scores from each run's ``{docid: score}`` (normalised, or RRF's ``1/(k + rank)``).

    * ``sum`` (CombSUM, Fox & Shaw 1993 [3]_): Σ over runs; a run lacking the document adds 0.
    * ``mnz`` (CombMNZ [3]_): that sum over the runs holding it, times their number.
    * ``max`` (CombMAX [3]_): the largest; a run lacking it counts −10⁹.
    * ``wsum``: Σ weightᵢ · scoreᵢ; a run lacking it adds 0.

    RRF (Cormack et al. 2009 [2]_) is ``sum`` over ``1/(k + rank)``, rank
    from 1 (ranx's ``rrf``: ``1 / (k + i + 1)``, i from 0). Documents come in
    the order the runs first hold them. Sums run over the runs in their
    order, one addition at a time, as ranx's compiled code adds.

    >>> lists = [{"a": 0.5, "b": 1.0}, {"b": 0.25}]
    >>> [combine(method, lists) for method in ("sum", "mnz", "max")]
    [{'a': 0.5, 'b': 1.25}, {'a': 0.5, 'b': 2.5}, {'a': 0.5, 'b': 1.0}]
    >>> combine("wsum", lists, [2.0, 4.0])
    {'a': 1.0, 'b': 3.0}
    """
    documents = dict.fromkeys(docid for scores in lists for docid in scores)
    fused = {}
    for docid in documents:
        if method == "sum":
            fused[docid] = _sequential_sum(scores.get(docid, 0.0) for scores in lists)
        elif method == "mnz":
            held = [scores[docid] for scores in lists if docid in scores]
            fused[docid] = _sequential_sum(held) * len(held)
        elif method == "max":
            fused[docid] = max(scores.get(docid, MAX_LACKING) for scores in lists)
        elif method == "wsum":
            fused[docid] = _sequential_sum(weight * scores.get(docid, 0.0) for weight, scores in zip(weights, lists))
        else:
            raise LabError("fusion_method", field="method", name=method, supported=", ".join(METHODS))
    return fused


# --- output ----------------------------------------------------------------------------------------------------


def trec_lines(fused, tag: str, depth: int = DEFAULT_DEPTH):
    """The lines of :func:`to_trec`, one at a time (each ending in a newline)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise LabError("fusion_depth", field="depth", value=depth)
    for qid, scores in fused.items():
        for rank, docid in enumerate(trec_order(scores, depth), start=1):
            yield f"{qid} Q0 {docid} {rank} {scores[docid]!r} {tag}\n"


def to_trec(fused, tag: str, depth: int = DEFAULT_DEPTH) -> str:
    """``fused`` as a TREC run: ``qid Q0 docid rank score tag``, the top ``depth`` documents of each query.

    Documents are ranked as trec_eval ranks them (score descending, ties by
    document id descending), so the rank column agrees with what trec_eval
    and ranx read back; scores are written in full (Python's ``repr``: read
    back, they are the same doubles). Queries keep ``fused``'s order.

    >>> print(to_trec({"q1": {"a": 0.5, "b": 0.5, "c": 0.25}}, "fused", depth=2), end="")
    q1 Q0 b 1 0.5 fused
    q1 Q0 a 2 0.5 fused
    """
    return "".join(trec_lines(fused, tag, depth))
