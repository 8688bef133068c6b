"""Evaluate a run against qrels with ir_measures' measures, trec_eval-exact, query by query.

Input is plain data: ``qrels`` ``{qid: {docid: rel}}`` and, per query, the
run's ``{docid: score}`` (what :mod:`raglab_core.runs.trec` reads). Measures are
declared in :mod:`raglab_core.runs.measures` and named in ir_measures' notation
[2]_ (:func:`~raglab_core.runs.measures.parse_measures`): ``P@10``,
``P(rel=2)@5``, ``R@100``, ``RR@10``, ``AP@100``, ``Success@10``,
``Judged@10``, ``nDCG@10`` (linear gain, trec_eval's ``ndcg_cut``) and
``nDCG(dcg='exp-log2')@10`` (gain ``2^g − 1``, the lab's), plus BEIR's
``R_cap@100`` (recall divided by ``min(R, k)``; ir_measures has no such
measure, so it is named as BEIR names it). Each is computed by the one
unchecked function of :mod:`raglab_core.metrics` that holds its formula
(:func:`~raglab_core.metrics.precision`, ``recall``, ``recall_cap``,
``reciprocal_rank``, ``average_precision``, ``success``, ``judged_share``,
``ndcg``), whose docstring gives the formula and its source; the lab's checked
functions (``precision_at_k``, ...) call the same ones (:meth:`~raglab_core.runs.measures.Measure.value`).

Conventions, each checked against trec_eval (through ir_measures and
pytrec_eval) and ranx in ``tests/core/runs/test_evaluation.py``:

* **Ranking.** Documents are ordered by score, descending; ties are broken by
  document id, *descending* in byte (``strcmp``) order, as trec_eval does
  (``comp_sim_docno`` in ``form_res_rels.c``). Python compares ``str`` by code
  point, which orders UTF-8 bytes identically. Scores are compared in double
  precision by default (``ties="double"``: trec_eval 10.0, 2023, and ranx),
  or rounded to single precision first (``ties="float32"``: trec_eval 9.x and
  pytrec_eval, which store scores in a C ``float``, so 1.000000001 and 1.0
  tie). The run's rank column is ignored, as trec_eval ignores it.
* **Relevance.** A document is relevant to a measure with ``rel=r`` (default
  1, trec_eval's ``-l``) when its judged grade is ``>= r``; unjudged
  documents are not relevant and have gain 0; negative grades (trec_eval's
  "judged non-relevant") have gain 0 too.
* **Cut-offs.** ``@k`` keeps the first ``k`` ranked documents; without a
  cut-off (``RR``, ``AP``, ``nDCG``, ``Judged``) the whole ranking counts.
* **Which queries.** A query is evaluated when it is in both the run and the
  qrels, even if none of its judgments is relevant (trec_eval reports 0 for
  it). Queries only in the run are skipped (trec_eval ignores them); queries
  only in the qrels are skipped unless ``complete=True`` (trec_eval ``-c``):
  then each is scored as an empty ranking.
* **Undefined values** (recall or AP with no relevant judgment, nDCG with an
  ideal DCG of 0, Judged of an empty ranking) are ``None``; means count them
  as 0, as trec_eval and ranx report 0 for such a query.
* **Means** are arithmetic means over the evaluated queries.

References
----------
.. [1] NIST, *trec_eval*, https://github.com/usnistgov/trec_eval
   (``m_P.c``, ``m_recall.c``, ``m_recip_rank.c``, ``m_map_cut.c``,
   ``m_success.c``, ``m_ndcg_cut.c``).
.. [2] S. MacAvaney, C. Macdonald and I. Ounis, "Streamlining Evaluation with
   ir-measures", ECIR 2022 (notation, and the ``Judged`` measure).
.. [3] E. Bassani, "ranx: A Blazing-Fast Python Library for Ranking
   Evaluation and Comparison", ECIR 2022 (``ndcg_burges``).
.. [4] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR
   techniques", ACM TOIS 20(4), 2002.
.. [5] C. Burges et al., "Learning to Rank using Gradient Descent", ICML 2005.

>>> qrels = {"q1": {"a": 2, "b": 0, "c": 1}, "q2": {"x": 1}}
>>> run = {"q1": {"a": 0.5, "b": 0.9, "c": 0.1}, "q3": {"x": 1.0}}
>>> result = evaluate_run(qrels, run, parse_measures("P@2 RR AP Judged@2"))
>>> result.per_query["q1"]                       # ranking b, a, c
(0.5, 0.5, 0.5833333333333333, 1.0)
>>> result.not_in_qrels, result.not_in_run
(('q3',), ('q2',))
"""

import math
from array import array
from dataclasses import dataclass, field

from ..errors import LabError
from ..metrics import judged_share
from .measures import DEFAULT_MEASURES, parse_measures

TIES = ("double", "float32")
"""How scores are compared: ``"double"`` (trec_eval 10.0, ranx) or ``"float32"`` (trec_eval 9.x, pytrec_eval)."""
JUDGED_DEPTH = 10
"""The sanity checks' depth: mean Judged@10 below 0.5 is warned about (:mod:`raglab_core.runs.sanity`)."""
KEPT = 100
"""Each query's first documents :func:`evaluate_run` keeps: the depth of the report's RBO (:mod:`.overlap`)."""



def tie_mode(ties: str) -> str:
    """``ties`` checked: one of :data:`TIES` (``LabError("ties")`` otherwise)."""
    if ties not in TIES:
        raise LabError("ties", field="ties", value=ties)
    return ties


def trec_order(scores, depth=None, ties: str = "double") -> list:
    """Document ids ranked as trec_eval ranks them: score descending, then docid descending.

    ``scores`` maps docid -> score; only the first ``depth`` are returned (all
    when ``None``). With ``ties="float32"`` scores are first rounded to single
    precision (:func:`single_precision`), as trec_eval 9 and pytrec_eval hold
    them. Selecting the top ``depth`` first keeps the tuple sort small.

    >>> trec_order({"a": 1.0, "b": 1.0, "c": 2.0})
    ['c', 'b', 'a']
    >>> trec_order({"a": 1.000000001, "b": 1.0}), trec_order({"a": 1.000000001, "b": 1.0}, ties="float32")
    (['a', 'b'], ['b', 'a'])
    """
    sims = single_precision(scores.values()) if ties == "float32" else list(scores.values())
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
    """``values`` rounded to IEEE single precision (C ``float``), as Python floats; beyond its range, ±inf.

    >>> single_precision([0.1, 1.000000001, 1e300, -1e39])
    [0.10000000149011612, 1.0, inf, -inf]
    """
    try:
        return array("f", values).tolist()
    except OverflowError:  # round out-of-range values as a C conversion does
        return array("f", [_clamped(value) for value in values]).tolist()


def _clamped(value):
    if abs(value) <= _FLOAT_MAX:
        return value
    return math.copysign(_FLOAT_MAX if abs(value) < _ROUNDS_TO_INFINITY else math.inf, value)


@dataclass(frozen=True)
class RunEvaluation:
    """One run evaluated against qrels.

    ``measures``: the :class:`Measure` s, in order; ``names``: their
    ir_measures names; ``per_query``: evaluated qid (sorted) -> a tuple of
    values in ``measures`` order (``None`` where undefined); ``mean``: the
    means (``None`` counted as 0). ``not_in_qrels``: run queries skipped for
    lack of judgments; ``not_in_run``: qrels queries the run does not answer
    (scored as empty rankings when ``complete``).

    What the sanity warnings (:mod:`raglab_core.runs.sanity`) need, gathered while
    the queries were scored: ``any_judged`` (some document the run ranks for
    a query it shares with the qrels is judged), ``example`` (when none is:
    ``(qid, first ranked docid, a judged docid of that query)``),
    ``judged_at_10`` (mean Judged@10 over the evaluated queries the run
    answers; ``None`` without any), ``self_retrieved`` (run queries, sorted,
    that retrieve a document whose id is the query's own) and ``top``
    (qid -> its first ``keep`` ranked docids, when the evaluator keeps them).
    ``depths``: how many documents the run ranks for each evaluated query it
    answers, in qid order; ``tied``: those queries (sorted) with two documents or
    more whose scores all tie, so that trec_eval's rule orders them by docid alone.
    ``comments``: ``(role, file name, count, first line number, its text)`` for the qrels (role
    ``"qrels"``) and the run (``"run"``) when their readers skipped lines as ``#`` comments
    (:attr:`raglab_core.runs.trec.QrelsReader.comments`), set by :class:`raglab_core.runs.inputs.Reading`.
    """

    measures: tuple
    names: tuple
    ties: str
    complete: bool
    per_query: dict
    mean: tuple
    not_in_qrels: tuple
    not_in_run: tuple
    qrels_queries: int = 0
    any_judged: bool = True
    example: tuple | None = None
    judged_at_10: float | None = None
    self_retrieved: tuple = ()
    top: dict = field(default_factory=dict)
    depths: tuple = ()
    tied: tuple = ()
    comments: tuple = ()

    @property
    def depth(self) -> tuple:
        """``(typical, deepest)``: the median (the higher of two middles) and the largest number of documents the run ranks per
        evaluated query it answers; ``(0, 0)`` without any.

        >>> evaluate_run({"q1": {"a": 1}, "q2": {"a": 1}, "q3": {"a": 1}},
        ...              {"q1": {"a": 1.0}, "q2": {"a": 1.0, "b": 0.5}, "q3": {"a": 1.0, "b": 1.0, "c": 0.0}}).depth
        (2, 3)
        """
        if not self.depths:
            return (0, 0)
        ordered = sorted(self.depths)
        return (ordered[len(ordered) // 2], ordered[-1])


class RunEvaluator:
    """Evaluates a run one query at a time (:meth:`add`), keeping only each query's values.

    This is what lets a 7 M-line run be evaluated in bounded memory: the
    reader (:class:`raglab_core.runs.trec.RunReader`) hands over each query's
    documents as soon as the query ends, and they are dropped once scored.
    Each query must be added once; :meth:`result` ends the run.
    """

    def __init__(self, qrels, measures, ties: str = "double", complete: bool = False, keep: int = 0):
        self.qrels, self.measures, self.ties, self.complete = qrels, tuple(measures), tie_mode(ties), complete
        cutoffs = [measure.cutoff for measure in self.measures]
        # At least the top 10: the sanity checks read Judged@10 whatever the measures.
        self.depth = None if None in cutoffs else max(*cutoffs, JUDGED_DEPTH, keep)
        self.keep = keep
        self.per_query, self.skipped, self.seen = {}, set(), set()
        # For the sanity warnings, gathered as the queries go by (no second pass over the run).
        self.any_judged, self.example, self.self_retrieved, self.top = False, None, [], {}
        self.judged_sum, self.judged_count = 0.0, 0
        self.depths, self.tied = {}, []

    def add(self, qid, scores) -> None:
        """Score query ``qid``, whose run documents are ``scores`` (docid -> score)."""
        self.seen.add(qid)
        if qid in scores:
            self.self_retrieved.append(qid)
        judged = self.qrels.get(qid)
        if judged is None:
            self.skipped.add(qid)
            return
        ranked = trec_order(scores, self.depth, self.ties)
        self.depths[qid] = len(scores)
        if len(scores) > 1 and _all_tied(scores.values(), self.ties):
            self.tied.append(qid)
        get = judged.get
        grades = [get(docid) for docid in ranked]
        judged_at_10 = judged_share(grades[:JUDGED_DEPTH])
        if judged_at_10 is not None:
            self.judged_sum += judged_at_10
            self.judged_count += 1
            if not self.any_judged:
                # Below the top too: a run is "never judged" only if none of its documents is.
                if judged_at_10 or not judged.keys().isdisjoint(scores):
                    self.any_judged = True
                elif self.example is None:
                    self.example = (qid, ranked[0], next(iter(judged), None))
        if self.keep:
            self.top[qid] = ranked[: self.keep]
        self.per_query[qid] = self._score(judged, grades)

    def _score(self, judged, grades):
        judgments = list(judged.values())
        return tuple(measure.value(grades, judgments) for measure in self.measures)

    def result(self) -> RunEvaluation:
        """The evaluation of every query added (and, when ``complete``, of the qrels queries not added)."""
        not_in_run = tuple(sorted(self.qrels.keys() - self.seen))
        if self.complete:
            for qid in not_in_run:
                self.per_query[qid] = self._score(self.qrels[qid], [])
        per_query = dict(sorted(self.per_query.items()))
        count = len(per_query)
        mean = tuple(
            math.fsum(value or 0.0 for value in column) / count if count else 0.0
            for column in zip(*per_query.values())
        ) or (0.0,) * len(self.measures)
        return RunEvaluation(
            measures=self.measures,
            names=tuple(map(str, self.measures)),
            ties=self.ties,
            complete=self.complete,
            per_query=per_query,
            mean=mean,
            not_in_qrels=tuple(sorted(self.skipped)),
            not_in_run=not_in_run,
            qrels_queries=len(self.qrels),
            any_judged=self.any_judged or not self.judged_count,
            example=None if self.any_judged else self.example,
            judged_at_10=self.judged_sum / self.judged_count if self.judged_count else None,
            self_retrieved=tuple(sorted(self.self_retrieved)),
            top=self.top,
            depths=tuple(depth for _, depth in sorted(self.depths.items())),
            tied=tuple(sorted(self.tied)),
        )


def _all_tied(values, ties: str) -> bool:
    """Whether every score of ``values`` (two or more) is equal as ``ties`` compares them.

    >>> _all_tied([1.0, 1.0], "double"), _all_tied([1.000000001, 1.0], "double"), _all_tied([1.000000001, 1.0], "float32")
    (True, False, True)
    """
    low, high = min(values), max(values)
    if low == high:
        return True
    return ties == "float32" and len(set(single_precision(values))) == 1


def evaluate_run(qrels, run, measures=None, ties: str = "double", complete: bool = False,
                 keep: int = KEPT) -> RunEvaluation:
    """Evaluate a whole ``run`` (``{qid: {docid: score}}``) with ``measures`` (default :data:`DEFAULT_MEASURES`),
    keeping each evaluated query's first ``keep`` documents (:data:`KEPT`: what the report's overlap reads)."""
    measures = parse_measures(DEFAULT_MEASURES if measures is None else measures)
    evaluator = RunEvaluator(qrels, measures, ties, complete, keep)
    for qid, scores in run.items():
        evaluator.add(qid, scores)
    return evaluator.result()
