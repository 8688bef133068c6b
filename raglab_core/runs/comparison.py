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
    told = progress and (lambda index, name, pair, pairs: progress(index, name))
    return compare_all([baseline, candidate], permutations, seed, told, resamples)[(0, 1)]


def compare_all(runs, permutations: int = PERMUTATIONS, seed: int = SEED, progress=None,
                resamples: int = RESAMPLES, pairs=None) -> dict:
    """Every pair of ``runs`` (:class:`RunEvaluation` s, in input order) compared as :func:`compare_runs` compares
    two: ``{(i, j): Comparison}`` for ``i < j``, run ``i`` the baseline; or only the ``pairs`` given
    (``[(baseline index, candidate index), …]``, as a sweep compares each configuration with one baseline).

    Each pair's tests are its own (its deltas, its sign vectors from ``seed``). The bootstrap draws its
    ``resamples`` once for all the pairs that share their paired queries (as every pair does when the runs
    answer the same queries): the same resamples a call per pair would draw, at the cost of one.
    ``progress(index, name, (i, j), pairs)`` is called before each test, and with ``name`` ``None``
    before the bootstrap.

    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> runs = [evaluate_run(qrels, {"q1": {"a": s, "z": 2.0}, "q2": {"b": 1.0}}, ["RR@1"]) for s in (1.0, 3.0, 2.5)]
    >>> {pair: c.metrics["RR@1"].mean_delta for pair, c in compare_all(runs).items()}
    {(0, 1): 0.5, (0, 2): 0.5, (1, 2): 0.0}
    """
    first = runs[0]
    for run in runs[1:]:
        if (first.names, first.ties) != (run.names, run.ties):
            raise LabError("settings_differ")
    if pairs is None:
        pairs = [(i, j) for i in range(len(runs)) for j in range(i + 1, len(runs))]
    tested = {}
    for pair in pairs:
        told = progress and (lambda index, name, pair=pair: progress(index, name, pair, len(pairs)))
        tested[pair] = _tested(runs[pair[0]], runs[pair[1]], permutations, seed, told)
    if progress and pairs:
        progress(len(first.names), None, pairs[-1], len(pairs))
    by_queries = {}
    for pair in pairs:
        by_queries.setdefault(tested[pair][0], []).append(pair)
    intervals = {}
    for members in by_queries.values():
        columns = [values for pair in members for _, _, values, _, _ in tested[pair][2]]
        found = iter(bootstrap_intervals(columns, resamples, seed))
        for pair in members:
            intervals[pair] = [next(found) for _ in tested[pair][2]]
    compared = {}
    for pair in pairs:
        queries, unpaired, rows = tested[pair]
        metrics = {}
        for (name, deltas, values, p_value, exact), interval in zip(rows, intervals[pair]):
            metrics[name] = MetricComparison(
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
        compared[pair] = Comparison(queries=queries, unpaired=unpaired, permutations=permutations, seed=seed,
                                    metrics=metrics, resamples=resamples)
    return compared


def p_values(runs, permutations: int = PERMUTATIONS, seed: int = SEED, progress=None) -> dict:
    """Every pair's randomization p-values alone, as :func:`compare_all` gives them (the same tests, the same
    sign vectors), without the bootstrap intervals: ``{(i, j): {name: p_value}}``, ``i < j`` in input order, for
    those who need only the tests (``agree``: :mod:`raglab_core.judges.agreement`). ``progress`` as
    :func:`compare_all` calls it.

    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> runs = [evaluate_run(qrels, {"q1": {"a": s, "z": 2.0}, "q2": {"b": 1.0}}, ["RR@1"]) for s in (1.0, 3.0, 2.5)]
    >>> p_values(runs) == {pair: {"RR@1": c.metrics["RR@1"].p_value} for pair, c in compare_all(runs).items()}
    True
    """
    first = runs[0]
    for run in runs[1:]:
        if (first.names, first.ties) != (run.names, run.ties):
            raise LabError("settings_differ")
    pairs = [(i, j) for i in range(len(runs)) for j in range(i + 1, len(runs))]
    found = {}
    for pair in pairs:
        told = progress and (lambda index, name, pair=pair: progress(index, name, pair, len(pairs)))
        _, _, rows = _tested(runs[pair[0]], runs[pair[1]], permutations, seed, told)
        found[pair] = {name: p_value for name, _, _, p_value, _ in rows}
    if progress and pairs:
        progress(len(first.names), None, pairs[-1], len(pairs))
    return found


def _tested(baseline, candidate, permutations, seed, progress):
    """One pair's paired queries, unpaired queries, and per measure: its deltas and randomization p-value."""
    queries = tuple(sorted(baseline.per_query.keys() & candidate.per_query.keys()))
    unpaired = tuple(sorted(baseline.per_query.keys() ^ candidate.per_query.keys()))
    rows = []
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
        rows.append((name, deltas, values, p_value, exact))
    return queries, unpaired, rows
