"""Evaluate a run against qrels with ir_measures' measures, trec_eval-exact, query by query.

Input is plain data: ``qrels`` ``{qid: {docid: rel}}`` and, per query, the
run's ``{docid: score}`` (what :mod:`raglab_core.trec` reads). Measures are
named in ir_measures' notation [2]_ (:func:`parse_measures`): ``P@10``,
``P(rel=2)@5``, ``R@100``, ``RR@10``, ``AP@100``, ``Success@10``,
``Judged@10``, ``nDCG@10`` (linear gain, trec_eval's ``ndcg_cut``) and
``nDCG(dcg='exp-log2')@10`` (gain ``2^g − 1``, the lab's), plus BEIR's
``R_cap@100`` (recall divided by ``min(R, k)``; ir_measures has no such
measure, so it is named as BEIR names it). Each is computed by the one
unchecked function of :mod:`raglab_core.metrics` that holds its formula
(:func:`~raglab_core.metrics.precision`, ``recall``, ``recall_cap``,
``reciprocal_rank``, ``average_precision``, ``success``, ``judged_share``,
``ndcg``), whose docstring gives the formula and its source; the lab's checked
functions (``precision_at_k``, ...) call the same ones (:meth:`Measure.value`).

Conventions, each checked against trec_eval (through ir_measures and
pytrec_eval) and ranx in ``tests/test_evaluation.py``:

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
import re
from array import array
from dataclasses import dataclass, field
from typing import NamedTuple

from . import metrics
from .errors import LabError
from .metrics import (
    average_precision,
    judged_share,
    ndcg,
    precision,
    recall,
    recall_cap,
    reciprocal_rank,
    relevant,
    success,
)

TIES = ("double", "float32")
"""How scores are compared: ``"double"`` (trec_eval 10.0, ranx) or ``"float32"`` (trec_eval 9.x, pytrec_eval)."""

# --- measure names (ir_measures' notation) ---------------------------------------------------------


class Measure(NamedTuple):
    """One measure: ``family`` (a key of :data:`FAMILIES`), ``cutoff`` (``None``: the whole ranking),
    ``rel`` (minimum relevant grade) and ``dcg`` (nDCG's gain). ``str()`` is ir_measures' name.

    >>> str(Measure("P", 5, rel=2)), str(Measure("nDCG", 10, dcg="exp-log2")), str(Measure("RR", None))
    ('P(rel=2)@5', "nDCG(dcg='exp-log2')@10", 'RR')
    """

    family: str
    cutoff: int | None
    rel: int = 1
    dcg: str = "log2"

    def __str__(self):
        param = ""
        if self.rel != 1:
            param = f"(rel={self.rel})"
        elif self.dcg != "log2":
            param = f"(dcg='{self.dcg}')"
        return self.family + param + ("" if self.cutoff is None else f"@{self.cutoff}")

    def value(self, grades, judgments):
        """This measure of one query: ``grades`` the judged grade of each ranked document, rank 1 first,
        ``None`` when unjudged (at least the first ``cutoff``; all of them when ``cutoff`` is None),
        ``judgments`` every grade the qrels hold for the query (for the number of relevant documents
        and the ideal DCG). Each formula is :mod:`raglab_core.metrics`' unchecked fast path.

        >>> [Measure(f, 2).value([2, None, 1], [2, 1, 1, 0]) for f in ("P", "R", "R_cap", "RR", "AP", "Success", "Judged")]
        [0.5, 0.3333333333333333, 0.5, 1.0, 0.3333333333333333, 1.0, 0.5]
        """
        family, k, rel = self.family, self.cutoff, self.rel
        if family == "P":
            return precision(grades, k, rel)
        if family == "R":
            return recall(grades, k, rel, relevant(judgments, rel))
        if family == "R_cap":
            return recall_cap(grades, k, rel, relevant(judgments, rel))
        if family == "RR":
            return reciprocal_rank(grades, k, rel)
        if family == "AP":
            return average_precision(grades, k, rel, relevant(judgments, rel))
        if family == "Success":
            return success(grades, k, rel)
        if family == "Judged":
            return judged_share(grades[:k])
        return ndcg(grades, k, judgments, self.dcg)


FAMILIES = {
    # family: (parameters it takes, cut-off required, aliases ir_measures also accepts)
    "P": (("rel",), True, ("Precision",)),
    "R": (("rel",), True, ("Recall",)),
    "R_cap": (("rel",), True, ()),  # BEIR's; not in ir_measures
    "RR": (("rel",), False, ("MRR",)),
    "AP": (("rel",), False, ("MAP",)),
    "Success": (("rel",), True, ()),
    "Judged": ((), False, ()),
    "nDCG": (("dcg",), False, ("NDCG",)),
}
SUPPORTED = "P@k, P(rel=r)@k, R@k, RR, RR@k, AP, AP@k, Success@k, Judged@k, nDCG, nDCG@k, nDCG(dcg='exp-log2')@k, R_cap@k"
"""What :func:`parse_measure` accepts, as errors list it (``rel=`` also for R, RR, AP and Success)."""
DEFAULT_MEASURES = "nDCG@10 R@100 RR@10 Success@10 AP@100 Judged@10"
"""The measures reported when none are asked for (the CLI and the «Tus datos» panel)."""
MAX_CUTOFF = 1_000_000
JUDGED_DEPTH = 10
"""The sanity checks' depth: mean Judged@10 below 0.5 is warned about (:mod:`raglab_core.sanity`)."""
_NAME = re.compile(r"([A-Za-z]+(?:_cap)?)(?:\((.*)\))?(?:@([0-9]+))?")
_ALIASES = {alias: family for family, (_, _, aliases) in FAMILIES.items() for alias in (family, *aliases)}


def parse_measure(text: str) -> Measure:
    """A measure from its ir_measures name; ``LabError("measure_unknown")`` listing :data:`SUPPORTED` otherwise.

    >>> parse_measure("P(rel=2)@5"), str(parse_measure("MRR@10"))
    (Measure(family='P', cutoff=5, rel=2, dcg='log2'), 'RR@10')
    >>> parse_measure("ERR@10")
    Traceback (most recent call last):
      ...
    raglab_core.errors.LabError: Medida no admitida: «ERR@10». Se admiten: P@k, P(rel=r)@k, R@k, RR, RR@k, AP, AP@k, Success@k, Judged@k, nDCG, nDCG@k, nDCG(dcg='exp-log2')@k, R_cap@k.
    """
    match = _NAME.fullmatch(text.strip())
    family = _ALIASES.get(match.group(1)) if match else None
    if family is None:
        raise LabError("measure_unknown", field="measures", name=text, supported=SUPPORTED)
    params, cutoff_required, _ = FAMILIES[family]
    values = {}
    for item in [] if match.group(2) is None else match.group(2).split(","):
        key, equals, raw = (part.strip() for part in item.partition("="))
        if not equals or key not in params or key in values:
            raise LabError("measure_unknown", field="measures", name=text, supported=SUPPORTED)
        values[key] = raw
    rel, dcg = 1, "log2"
    if "rel" in values:
        if not (values["rel"].isascii() and values["rel"].isdigit() and 1 <= int(values["rel"]) <= 1000):
            raise LabError("measure_param", field="measures", name=text, param="rel", allowed="1, 2, 3, …")
        rel = int(values["rel"])
    if "dcg" in values:
        dcg = values["dcg"].strip("'\"")
        if dcg not in metrics.GAINS or values["dcg"][:1] != values["dcg"][-1:] or values["dcg"][:1] not in "'\"":
            raise LabError("measure_param", field="measures", name=text, param="dcg", allowed="'log2', 'exp-log2'")
    cutoff = None if match.group(3) is None else int(match.group(3))
    if cutoff is not None and not 1 <= cutoff <= MAX_CUTOFF:
        raise LabError("measure_cutoff", field="measures", name=text, maximum=MAX_CUTOFF)
    if cutoff is None and cutoff_required:
        raise LabError("measure_needs_cutoff", field="measures", name=text, family=family)
    return Measure(family, cutoff, rel, dcg)


def parse_measures(text) -> list:
    """Measures from names separated by spaces or commas (outside parentheses), repeats dropped.

    ``text`` may also be a list of names. ``LabError("no_measures")`` when empty.

    >>> [str(m) for m in parse_measures("nDCG@10, P(rel=2)@5 nDCG@10 nDCG(dcg='exp-log2')@10")]
    ['nDCG@10', 'P(rel=2)@5', "nDCG(dcg='exp-log2')@10"]
    """
    names = text if isinstance(text, (list, tuple)) else re.findall(r"(?:\([^)]*\)|[^\s,(])+", str(text))
    measures, seen = [], set()
    for name in names:
        measure = name if isinstance(name, Measure) else parse_measure(name)
        if str(measure) not in seen:
            seen.add(str(measure))
            measures.append(measure)
    if not measures:
        raise LabError("no_measures", field="measures", supported=SUPPORTED)
    return measures


def lab_measures(k: int, umbral: int = 1, gain: str = "exp-log2") -> list:
    """The lab's four metrics in ir_measures' names: P, R, RR at ``rel=umbral`` and nDCG, all at ``k``.

    ``gain`` is a key of :data:`raglab_core.metrics.GAINS` or one of its aliases.

    >>> [str(m) for m in lab_measures(5, 2)], str(lab_measures(5, gain="linear")[3])
    (['P(rel=2)@5', 'R(rel=2)@5', 'RR(rel=2)@5', "nDCG(dcg='exp-log2')@5"], 'nDCG@5')
    """
    dcg = metrics.gain_name(gain)
    return [Measure("P", k, umbral), Measure("R", k, umbral), Measure("RR", k, umbral), Measure("nDCG", k, dcg=dcg)]


# --- ranking and evaluating ------------------------------------------------------------------------


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

    What the sanity warnings (:mod:`raglab_core.sanity`) need, gathered while
    the queries were scored: ``any_judged`` (some document the run ranks for
    a query it shares with the qrels is judged), ``example`` (when none is:
    ``(qid, first ranked docid, a judged docid of that query)``),
    ``judged_at_10`` (mean Judged@10 over the evaluated queries the run
    answers; ``None`` without any), ``self_retrieved`` (run queries, sorted,
    that retrieve a document whose id is the query's own) and ``top``
    (qid -> its first ``keep`` ranked docids, when the evaluator keeps them).
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


class RunEvaluator:
    """Evaluates a run one query at a time (:meth:`add`), keeping only each query's values.

    This is what lets a 7 M-line run be evaluated in bounded memory: the
    reader (:class:`raglab_core.trec.RunReader`) hands over each query's
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
        )


def evaluate_run(qrels, run, measures=None, ties: str = "double", complete: bool = False) -> RunEvaluation:
    """Evaluate a whole ``run`` (``{qid: {docid: score}}``) with ``measures`` (default :data:`DEFAULT_MEASURES`)."""
    evaluator = RunEvaluator(qrels, parse_measures(DEFAULT_MEASURES if measures is None else measures), ties, complete)
    for qid, scores in run.items():
        evaluator.add(qid, scores)
    return evaluator.result()
