"""What the command line and the «Tus datos» panel report: two runs compared, and the report itself.

Both edges, ``python -m raglab_core eval`` (English) and the page's panel
(Spanish, :mod:`raglab_core.data_panel`), report through this module, so
they share its defaults (:data:`PERMUTATIONS`, :data:`SEED`), the JSON
shape (:func:`build_report`), the no-common-query check and
how a p-value reads against the number of permutations
(:func:`p_value_text`).

References
----------
.. [1] E. Bassani, "ranx: A Blazing-Fast Python Library for Ranking
   Evaluation and Comparison", ECIR 2022 (``fisher_randomization_test``).
.. [2] M. D. Smucker, J. Allan and B. Carterette, "A comparison of statistical
   significance tests for information retrieval evaluation", CIKM 2007.
"""

import math
import random
from dataclasses import dataclass

from .errors import LabError
from .evaluation import RunEvaluation, evaluate_run
from .formatting import decimal
from .validate import whole_number

PERMUTATIONS = 10_000
"""Default number of sign permutations of the randomization test."""
SEED = 42
"""Default seed of the randomization test's sign vectors (ranx's default too)."""
TEST_NAME = "two-sided paired randomization test (Fisher; Smucker et al. 2007)"


def p_value_text(p: float, permutations: int) -> str:
    """A p-value in Spanish, ``0.0415 -> '0,0415'``; below the resolution of ``permutations``, ``'< 1/permutations'``.

    ``permutations`` is the count the p-value was computed with (the
    report's ``comparison.permutations``): with ``n`` permutations no p-value
    between 0 and ``1 / n`` can be told apart.

    >>> p_value_text(0.0415, 10_000), p_value_text(0.0, 10_000), p_value_text(0.0, 100)
    ('0,0415', '< 0,0001', '< 0,0100')
    """
    if p < 1 / permutations:
        return f"< {decimal(1 / permutations, 4)}"
    return decimal(p, 4)


# --- comparing two runs -------------------------------------------------------------------------


@dataclass(frozen=True)
class MetricComparison:
    """One metric of two runs compared over paired queries.

    ``deltas`` maps qid -> candidate − baseline (``None`` counted as 0);
    ``wins``/``ties``/``losses`` count queries where the candidate is
    above/equal to/below the baseline; ``mean_delta`` is the mean of the
    deltas; ``p_value`` the two-sided paired randomization test's.
    """

    mean_delta: float
    wins: int
    ties: int
    losses: int
    p_value: float
    deltas: dict


@dataclass(frozen=True)
class Comparison:
    """Two runs compared: ``queries`` (paired query ids), ``unpaired`` (evaluated for one run only),
    the test's ``permutations`` and ``seed``, and a :class:`MetricComparison` per name in ``metrics``."""

    queries: tuple
    unpaired: tuple
    permutations: int
    seed: int
    metrics: dict


_EPSILON = 1e-9
"""Tolerance on the summed deltas: permuted sums within it of the observed one count as "as extreme"."""


def randomization_test(deltas, permutations: int = PERMUTATIONS, seed: int = SEED) -> float:
    """Two-sided p-value of the paired randomization (permutation) test on per-query ``deltas``.

    Fisher's randomization test as described for IR by Smucker et al. [2]_
    and implemented by ranx's ``fisher_randomization_test``: under the null
    hypothesis the two runs are exchangeable, so each query's pair of scores
    is swapped with probability 1/2, i.e. each delta ``d_i`` gets a random sign
    ``s_i``. With ``T = |sum_i d_i|`` and ``T* = |sum_i s_i d_i|``,

        ``p = #{permutations with T* >= T} / permutations``

    (ranx's definition: no +1 correction; the observed arrangement is not
    added, it is only drawn by chance). Sums of deltas instead of differences
    of means give the same test; ``T* >= T - 1e-9`` absorbs rounding so that
    ties with ``T`` count. Sign vectors come from
    ``random.Random(seed).getrandbits(n)`` (``n``: the non-zero deltas; a zero
    delta is the same under either sign), so ``p`` is deterministic for a seed
    (but not equal to ranx's, whose generator differs). For speed, the
    deltas are cut into blocks of 8 and every block's 256 subset sums are
    tabulated: one permutation costs ``n / 8`` look-ups.

    >>> randomization_test([0.0, 0.0, 0.0])          # identical runs
    1.0
    >>> randomization_test([0.5] * 30, permutations=1000)   # all 30 signs must agree: p = 2 / 2**30
    0.0
    """
    permutations = whole_number(permutations, "permutations", 1)
    # A zero delta adds 0 under either sign: dropping it changes no sum and saves work.
    deltas = [float(delta) for delta in deltas if delta != 0]
    if not deltas:
        return 1.0  # every permuted sum is 0 = the observed one
    observed = abs(math.fsum(deltas))
    total = sum(deltas)
    # tables[j][m]: sum of the deltas of block j whose bit is set in m (bit b <-> delta 8j + b).
    tables = []
    for start in range(0, len(deltas), 8):
        table = [0.0]
        for delta in deltas[start : start + 8]:
            table += [partial + delta for partial in table]
        tables.append(table)
    # Sign +1 for a set bit, -1 otherwise: sum_i s_i d_i = 2 * (sum of set deltas) - total.
    threshold = observed - _EPSILON
    n, width = len(deltas), len(tables)
    draw, lookup = random.Random(seed).getrandbits, list.__getitem__
    extreme = 0
    for _ in range(permutations):
        chosen = draw(n).to_bytes(width, "little")
        if abs(2.0 * sum(map(lookup, tables, chosen)) - total) >= threshold:
            extreme += 1
    return extreme / permutations


def compare_runs(
    baseline: RunEvaluation, candidate: RunEvaluation, permutations: int = PERMUTATIONS, seed: int = SEED,
    progress=None,
) -> Comparison:
    """Compare ``candidate`` with ``baseline`` per query, measure by measure: a :class:`Comparison`.

    Paired tests need pairs: only queries evaluated for both runs are compared
    (others are listed in ``unpaired``). Evaluate both with ``complete=True``
    to compare over every qrels query, a missing query scoring 0. Both
    evaluations must share their measures and tie mode (``LabError``
    otherwise). The same seed gives every measure the same sign vectors, as in
    ranx. ``progress(index, name)``, if given, is called before each measure's test.

    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> first = evaluate_run(qrels, {"q1": {"a": 1.0, "z": 2.0}, "q2": {"b": 1.0}}, ["RR@1"])
    >>> second = evaluate_run(qrels, {"q1": {"a": 3.0, "z": 2.0}, "q2": {"b": 1.0}}, ["RR@1"])
    >>> rr = compare_runs(first, second, permutations=1000).metrics["RR@1"]
    >>> rr.deltas, (rr.wins, rr.ties, rr.losses), rr.mean_delta, rr.p_value
    ({'q1': 1.0, 'q2': 0.0}, (1, 1, 0), 0.5, 1.0)
    """
    if (baseline.names, baseline.ties) != (candidate.names, candidate.ties):
        raise LabError("settings_differ")
    queries = tuple(sorted(baseline.per_query.keys() & candidate.per_query.keys()))
    unpaired = tuple(sorted(baseline.per_query.keys() ^ candidate.per_query.keys()))
    compared = {}
    for index, name in enumerate(baseline.names):
        if progress:
            progress(index, name)
        deltas = {
            qid: (candidate.per_query[qid][index] or 0.0) - (baseline.per_query[qid][index] or 0.0)
            for qid in queries
        }
        values = list(deltas.values())
        compared[name] = MetricComparison(
            mean_delta=math.fsum(values) / len(values) if values else 0.0,
            wins=sum(1 for delta in values if delta > 0),
            ties=sum(1 for delta in values if delta == 0),
            losses=sum(1 for delta in values if delta < 0),
            p_value=randomization_test(values, permutations, seed),
            deltas=deltas,
        )
    return Comparison(queries=queries, unpaired=unpaired, permutations=permutations, seed=seed, metrics=compared)


def require_common_queries(runs, qrels_name: str) -> None:
    """``LabError("no_common_query")`` when a run of ``runs`` (``[(name, RunEvaluation)]``) evaluated no query.

    A run and qrels without a common query id have nothing to evaluate: that
    is an error to report, not a row of zeros.
    """
    for name, result in runs:
        if not result.per_query:
            raise LabError("no_common_query", field="run", run=name, qrels=qrels_name)


# --- the report (the CLI's --json, and the page's «Tus datos» panel) ------------------------------


def build_report(runs, permutations=PERMUTATIONS, seed=SEED, progress=None):
    """The report of one or two evaluated runs: ``(report, comparison)``.

    ``runs`` is a list of one or two ``(name, RunEvaluation)``; with two, the
    second is compared with the first (the baseline). ``report`` is
    JSON-ready, every value keyed by the measure's ir_measures name::

        {"measures": [name, …], "ties", "complete",
         "runs": [{"name", "queries", "mean": {name: value},
                   "per_query": {qid: {name: value}}}],
         "comparison": None | {"baseline", "candidate", "queries", "test", "permutations",
                               "seed", "metrics": {name: {"mean_delta", "wins", "ties",
                                                          "losses", "p_value", "per_query"}}}}

    ``comparison`` (a :class:`Comparison` or ``None``) carries what the report
    leaves out, such as the unpaired queries; ``progress`` is passed to
    :func:`compare_runs`.

    >>> qrels = {"q1": {"a": 1, "b": 1}}
    >>> result = evaluate_run(qrels, {"q1": {"a": 0.5, "c": 0.7}}, ["P@2", "nDCG@2"])
    >>> build_report([("run.txt", result)])[0]["runs"][0]["mean"]
    {'P@2': 0.5, 'nDCG@2': 0.38685280723454163}
    """
    first = runs[0][1]
    report = {
        "measures": list(first.names),
        "ties": first.ties,
        "complete": first.complete,
        "runs": [
            {
                "name": name,
                "queries": len(result.per_query),
                "mean": dict(zip(result.names, result.mean)),
                "per_query": {qid: dict(zip(result.names, values)) for qid, values in result.per_query.items()},
            }
            for name, result in runs
        ],
        "comparison": None,
    }
    comparison = None
    if len(runs) == 2:
        comparison = compare_runs(runs[0][1], runs[1][1], permutations, seed, progress)
        report["comparison"] = {
            "baseline": runs[0][0],
            "candidate": runs[1][0],
            "queries": len(comparison.queries),
            "test": TEST_NAME,
            "permutations": permutations,
            "seed": seed,
            "metrics": {
                name: {
                    "mean_delta": result.mean_delta,
                    "wins": result.wins,
                    "ties": result.ties,
                    "losses": result.losses,
                    "p_value": result.p_value,
                    "per_query": result.deltas,
                }
                for name, result in comparison.metrics.items()
            },
        }
    return report, comparison
