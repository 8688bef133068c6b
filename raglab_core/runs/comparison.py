"""Two evaluated runs compared query by query, measure by measure, with the shared statistics.

:func:`compare_runs` pairs the queries both runs were evaluated on and, for each measure, gives the
mean difference, its 95 % bootstrap interval, wins, ties and losses, and the paired randomization
test's p-value (:mod:`raglab_core.runs.statistics`).
"""

import math
from dataclasses import dataclass

from ..errors import LabError
from .evaluation import RunEvaluation, evaluate_run  # noqa: F401 (evaluate_run: the doctest)
from .statistics import (
    EXACT_LIMIT,
    PERMUTATIONS,
    RESAMPLES,
    SEED,
    bootstrap_intervals,
    exact_randomization_test,
    randomization_test,
)


@dataclass(frozen=True)
class MetricComparison:
    """One metric of two runs compared over paired queries.

    ``deltas`` maps qid -> candidate − baseline (``None`` counted as 0);
    ``wins``/``ties``/``losses`` count queries where the candidate is
    above/equal to/below the baseline; ``mean_delta`` is the mean of the
    deltas; ``ci95`` the 95 % bootstrap interval of that mean
    (:func:`bootstrap_intervals`); ``p_value`` the two-sided paired
    randomization test's, ``p_value_exact`` whether it enumerated every sign
    vector, and ``p_value_se`` its Monte Carlo standard error
    (``sqrt(p (1 − p) / permutations)``; 0 when exact).
    """

    mean_delta: float
    wins: int
    ties: int
    losses: int
    p_value: float
    deltas: dict
    ci95: tuple = (0.0, 0.0)
    p_value_exact: bool = False
    p_value_se: float = 0.0


@dataclass(frozen=True)
class Comparison:
    """Two runs compared: ``queries`` (paired query ids), ``unpaired`` (evaluated for one run only),
    the test's ``permutations`` and ``seed``, and a :class:`MetricComparison` per name in ``metrics``."""

    queries: tuple
    unpaired: tuple
    permutations: int
    seed: int
    metrics: dict
    resamples: int = RESAMPLES


def compare_runs(
    baseline: RunEvaluation, candidate: RunEvaluation, permutations: int = PERMUTATIONS, seed: int = SEED,
    progress=None, resamples: int = RESAMPLES,
) -> Comparison:
    """Compare ``candidate`` with ``baseline`` per query, measure by measure: a :class:`Comparison`.

    Paired tests need pairs: only queries evaluated for both runs are compared
    (others are listed in ``unpaired``). Evaluate both with ``complete=True``
    to compare over every qrels query, a missing query scoring 0. Both
    evaluations must share their measures and tie mode (``LabError``
    otherwise). The same seed gives every measure the same sign vectors, as in
    ranx. ``progress(index, name)``, if given, is called before each measure's test,
    and ``progress(len(names), None)`` before the bootstrap intervals
    (:func:`bootstrap_intervals`, ``resamples`` resamples with ``seed``).
    With at most :data:`EXACT_LIMIT` non-zero deltas the p-value is exact
    (:func:`exact_randomization_test`), else estimated from ``permutations``
    sign vectors (:func:`randomization_test`).

    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> first = evaluate_run(qrels, {"q1": {"a": 1.0, "z": 2.0}, "q2": {"b": 1.0}}, ["RR@1"])
    >>> second = evaluate_run(qrels, {"q1": {"a": 3.0, "z": 2.0}, "q2": {"b": 1.0}}, ["RR@1"])
    >>> rr = compare_runs(first, second, permutations=1000).metrics["RR@1"]
    >>> rr.deltas, (rr.wins, rr.ties, rr.losses), rr.mean_delta, rr.p_value, rr.p_value_exact, rr.ci95
    ({'q1': 1.0, 'q2': 0.0}, (1, 1, 0), 0.5, 1.0, True, (0.0, 1.0))
    """
    if (baseline.names, baseline.ties) != (candidate.names, candidate.ties):
        raise LabError("settings_differ")
    queries = tuple(sorted(baseline.per_query.keys() & candidate.per_query.keys()))
    unpaired = tuple(sorted(baseline.per_query.keys() ^ candidate.per_query.keys()))
    tested = []
    for index, name in enumerate(baseline.names):
        if progress:
            progress(index, name)
        deltas = {
            qid: (candidate.per_query[qid][index] or 0.0) - (baseline.per_query[qid][index] or 0.0)
            for qid in queries
        }
        values = list(deltas.values())
        exact = sum(1 for delta in values if delta != 0) <= EXACT_LIMIT
        p_value = exact_randomization_test(values) if exact else randomization_test(values, permutations, seed)
        tested.append((name, deltas, values, p_value, exact))
    if progress:
        progress(len(tested), None)
    intervals = bootstrap_intervals([values for _, _, values, _, _ in tested], resamples, seed)
    compared = {}
    for (name, deltas, values, p_value, exact), interval in zip(tested, intervals):
        compared[name] = MetricComparison(
            mean_delta=math.fsum(values) / len(values) if values else 0.0,
            wins=sum(1 for delta in values if delta > 0),
            ties=sum(1 for delta in values if delta == 0),
            losses=sum(1 for delta in values if delta < 0),
            p_value=p_value,
            deltas=deltas,
            ci95=interval,
            p_value_exact=exact,
            p_value_se=0.0 if exact else math.sqrt(p_value * (1 - p_value) / permutations),
        )
    return Comparison(
        queries=queries, unpaired=unpaired, permutations=permutations, seed=seed, metrics=compared, resamples=resamples
    )
