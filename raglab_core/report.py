"""What the command line and the «Tus datos» panel report: two runs compared, and the report itself.

Both edges, ``python -m raglab_core eval`` (English) and the page's panel
(Spanish, :mod:`raglab_core.data_panel`), report through this module, so
they share its defaults (:data:`PERMUTATIONS`, :data:`SEED`), the metric
labels (:func:`metric_labels`), the JSON shape (:func:`build_report`) and
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
from .evaluation import METRICS, RunEvaluation, evaluate_run
from .formatting import decimal
from .validate import whole_number

PERMUTATIONS = 10_000
"""Default number of sign permutations of the randomization test."""
SEED = 42
"""Default seed of the randomization test's sign vectors (ranx's default too)."""
TEST_NAME = "two-sided paired randomization test (Fisher; Smucker et al. 2007)"
LABELS = {"precision": "P@{k}", "recall": "R@{k}", "mrr": "MRR@{k}", "ndcg": "nDCG@{k}"}
"""How the command line and the page name each metric of :data:`~raglab_core.evaluation.METRICS`."""


def metric_labels(k: int) -> list[str]:
    """The label of each metric, in :data:`~raglab_core.evaluation.METRICS` order, at cut-off ``k``.

    >>> metric_labels(10)
    ['P@10', 'R@10', 'MRR@10', 'nDCG@10']
    """
    return [LABELS[name].format(k=k) for name in METRICS]


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
    baseline: RunEvaluation, candidate: RunEvaluation, permutations: int = PERMUTATIONS, seed: int = SEED
) -> Comparison:
    """Compare ``candidate`` with ``baseline`` per query: a :class:`Comparison`.

    Paired tests need pairs: only queries evaluated for both runs are compared
    (others are listed in ``unpaired``). Evaluate both with ``complete=True``
    to compare over every qrels query, a missing query scoring 0. Both
    evaluations must share ``k``, ``umbral`` and ``gain`` (``LabError``
    otherwise). The same seed gives every metric the same sign vectors, as in
    ranx.

    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> first = evaluate_run(qrels, {"q1": {"a": 1.0, "z": 2.0}, "q2": {"b": 1.0}}, k=1)
    >>> second = evaluate_run(qrels, {"q1": {"a": 3.0, "z": 2.0}, "q2": {"b": 1.0}}, k=1)
    >>> result = compare_runs(first, second, permutations=1000)
    >>> mrr = result.metrics["mrr"]
    >>> mrr.deltas, (mrr.wins, mrr.ties, mrr.losses), mrr.mean_delta, mrr.p_value
    ({'q1': 1.0, 'q2': 0.0}, (1, 1, 0), 0.5, 1.0)
    """
    settings = (baseline.k, baseline.umbral, baseline.gain)
    if settings != (candidate.k, candidate.umbral, candidate.gain):
        raise LabError("settings_differ")
    queries = tuple(sorted(baseline.per_query.keys() & candidate.per_query.keys()))
    unpaired = tuple(sorted(baseline.per_query.keys() ^ candidate.per_query.keys()))
    compared = {}
    for index, name in enumerate(METRICS):
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


# --- the report (the CLI's --json, and the page's «Tus datos» panel) ------------------------------


def build_report(
    qrels, runs, k, umbral, gain="exponential", complete=False, permutations=PERMUTATIONS, seed=SEED
):
    """Evaluate one or two parsed runs: ``(report, evaluations, comparison)``.

    ``runs`` is a list of one or two ``(name, run)``; with two, the second is
    compared with the first (the baseline). ``report`` is JSON-ready::

        {"k", "umbral", "gain",
         "runs": [{"name", "queries", "mean": {metric: value},
                   "per_query": {qid: {metric: value}}}],
         "comparison": None | {"baseline", "candidate", "queries", "test", "permutations",
                               "seed", "metrics": {metric: {"mean_delta", "wins", "ties",
                                                            "losses", "p_value", "per_query"}}}}

    ``evaluations`` (a :class:`RunEvaluation` per run) and ``comparison`` (a
    :class:`Comparison` or ``None``) carry what the report leaves out, such as
    the skipped queries.
    """
    evaluations = [evaluate_run(qrels, run, k, umbral, gain, complete) for _, run in runs]
    report = {
        "k": k,
        "umbral": umbral,
        "gain": gain,
        "runs": [
            {
                "name": name,
                "queries": len(result.per_query),
                "mean": result.mean._asdict(),
                "per_query": {qid: scores._asdict() for qid, scores in result.per_query.items()},
            }
            for (name, _), result in zip(runs, evaluations)
        ],
        "comparison": None,
    }
    comparison = None
    if len(evaluations) == 2:
        comparison = compare_runs(*evaluations, permutations=permutations, seed=seed)
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
    return report, evaluations, comparison
