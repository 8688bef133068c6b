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

import json
import math
import random
import sys
from array import array
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from itertools import repeat
from operator import itemgetter

from .errors import LabError
from .evaluation import RunEvaluation, evaluate_run
from .formatting import decimal
from .sanity import run_warnings
from .validate import whole_number

PERMUTATIONS = 10_000
"""Default number of sign permutations of the randomization test."""
SEED = 42
"""Default seed of the randomization test's sign vectors (ranx's default too), and of the bootstrap's resamples."""
RESAMPLES = 10_000
"""Bootstrap resamples of the confidence interval of each mean difference."""
EXACT_LIMIT = 30
"""Up to this many non-zero deltas the randomization test enumerates all 2^n sign vectors (an exact p)."""
TEST_NAME = "two-sided paired randomization test (Fisher; Smucker et al. 2007)"
INTERVAL_NAME = "95% paired percentile bootstrap of the mean difference, resampling queries"


def p_value_bound(permutations: int) -> float:
    """When no permuted sum of ``permutations`` reaches the observed one: the 95 % upper bound on p, ``3 / permutations``.

    The "rule of three" (Hanley & Lippman-Hand, JAMA 1983): with 0 events in
    ``n`` trials, ``(1 − p)^n >= 0.05`` for ``p <= −ln(0.05) / n ≈ 3 / n``.
    """
    return 3 / permutations


def p_value_text(p: float, permutations: int, exact: bool = False, se: float = 0.0) -> str:
    """A p-value in Spanish, with as much precision as it has.

    Exact: four decimals (``'< 0,0001'`` below). Estimated from
    ``permutations`` sign vectors: the estimate ± its Monte Carlo standard
    error ``se``; when none reached the observed difference,
    ``'< 3/permutations'`` (:func:`p_value_bound`).

    >>> p_value_text(0.0415, 10_000, exact=True), p_value_text(1.9e-6, 10_000, exact=True)
    ('0,0415', '< 0,0001')
    >>> p_value_text(0.009, 10_000, se=0.000944), p_value_text(0.0, 10_000), p_value_text(0.0, 100)
    ('0,0090 ± 0,0009', '< 0,0003', '< 0,0300')
    """
    if exact:
        return "< 0,0001" if p < 0.0001 else decimal(p, 4)
    if p == 0:
        return f"< {decimal(p_value_bound(permutations), 4)}"
    return f"{decimal(p, 4)} ± {decimal(se, 4)}"


# --- comparing two runs -------------------------------------------------------------------------


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


def exact_randomization_test(deltas) -> float:
    """The p-value of :func:`randomization_test` computed over all ``2^n`` sign vectors, not a sample.

    ``n`` counts the non-zero deltas (a zero one is the same under either
    sign). Meet in the middle: the subset sums of each half are listed
    (``2^(n/2)`` each), one half sorted, and for every sum of the other the
    sums reaching ``|T|`` are counted by bisection, so ``n = 30`` costs two
    lists of 32,768 sums rather than 10^9 vectors. Same tolerance as
    :func:`randomization_test`.

    >>> exact_randomization_test([1.0, 2.0, 3.0])      # only +++ and --- reach |6|
    0.25
    >>> exact_randomization_test([0.5] * 20) == 2 / 2**20
    True
    """
    deltas = [float(delta) for delta in deltas if delta != 0]
    if not deltas:
        return 1.0
    observed = abs(math.fsum(deltas)) - _EPSILON
    if observed <= 0:
        return 1.0  # every permuted |sum| is >= 0 > |T| - epsilon
    total = sum(deltas)
    half = len(deltas) // 2
    left, right = _subset_sums(deltas[:half]), sorted(_subset_sums(deltas[half:]))
    # sum_i s_i d_i = 2 S - total, S the sum of the "+" deltas = x + y (x from the left half, y from the right):
    # |2 S - total| >= observed  <=>  S >= (total + observed) / 2  or  S <= (total - observed) / 2.
    high, low = (total + observed) / 2, (total - observed) / 2
    above = len(left) * len(right) - sum(map(bisect_left, repeat(right), [high - x for x in left]))
    below = sum(map(bisect_right, repeat(right), [low - x for x in left]))
    return (above + below) / 2 ** len(deltas)


def _subset_sums(values) -> list:
    sums = [0.0]
    for value in values:
        sums += [partial + value for partial in sums]
    return sums


def _draws(n: int, rng) -> array:
    """``n`` indices drawn with replacement from ``range(n)``, all at C speed (no Python loop per draw).

    Each is ``floor(u · n / 2^32)`` for a uniform 32-bit ``u`` (multiply and
    shift): ``n`` ``u`` are laid out in fields wide enough for ``u · n``, one
    big integer multiplication gives every product, and the fields' high
    bytes are the indices. An index's probability differs from ``1 / n`` by
    less than ``n / 2^32`` relative (under 2e-6 for 7,000 queries).
    """
    width = 2 if n <= 1 << 16 else 4  # bytes of an index
    field = 4 + width
    fields = bytearray(field * n)
    drawn = rng.randbytes(4 * n)
    for byte in range(4):
        fields[byte::field] = drawn[byte::4]
    products = (int.from_bytes(fields, "little") * n).to_bytes(field * n, "little")
    chosen = bytearray(width * n)
    for byte in range(width):
        chosen[byte::width] = products[4 + byte :: field]
    indices = array("H" if width == 2 else "I")
    indices.frombytes(chosen)
    if sys.byteorder == "big":
        indices.byteswap()
    return indices


def _quantile(ordered, q: float) -> float:
    """The ``q`` quantile of sorted values, interpolated linearly (numpy's and R type 7's default)."""
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (position - below) * (ordered[above] - ordered[below])


_FIXED_POINT = 52
"""Bits after the point of the deltas packed into integers (a rounding of at most 2^-53 · max |delta|)."""


def bootstrap_intervals(columns, resamples: int = RESAMPLES, seed: int = SEED, level: float = 0.95, progress=None) -> list:
    """The percentile bootstrap interval of the mean of each column of paired per-query deltas.

    ``columns``: one list of deltas per measure, all over the same ``n``
    queries. Each of ``resamples`` resamples draws ``n`` queries with
    replacement (one draw shared by every measure, so measures are resampled
    together, pairs kept); the interval's ends are the ``(1 − level) / 2``
    and ``(1 + level) / 2`` quantiles of the resampled means (Efron &
    Tibshirani, *An Introduction to the Bootstrap*, 1993, ch. 13).
    ``random.Random(seed)`` makes it deterministic. For speed the measures'
    deltas are packed, in fixed point, into one integer per query, so one
    resample is one gather and one integer sum for every measure at once.
    ``progress(fraction)`` is called every 500 resamples.

    >>> bootstrap_intervals([[0.0, 0.0, 1.0, 1.0]], resamples=2000)
    [(0.0, 1.0)]
    >>> bootstrap_intervals([[0.25]])
    [(0.25, 0.25)]
    """
    resamples = whole_number(resamples, "resamples", 1)
    n = len(columns[0]) if columns else 0
    if n == 0:
        return [(0.0, 0.0) for _ in columns]
    if n == 1:
        return [(column[0], column[0]) for column in columns]
    largest = max(max(abs(value) for value in column) for column in columns) or 1.0
    scale = 2**_FIXED_POINT / largest
    offset = 2**_FIXED_POINT  # makes every packed field non-negative
    width = _FIXED_POINT + 2 + n.bit_length()  # a field's sum over n draws stays below 2^width
    packed = [0] * n
    for index, column in enumerate(columns):
        shift = width * index
        packed = [total + ((round(value * scale) + offset) << shift) for total, value in zip(packed, column)]
    rng = random.Random(seed)
    mask = (1 << width) - 1
    means = [[] for _ in columns]
    for done in range(resamples):
        total = sum(itemgetter(*_draws(n, rng))(packed))
        for index, column_means in enumerate(means):
            column_means.append(((total >> (width * index) & mask) - n * offset) / scale / n)
        if progress and done % 500 == 499:
            progress((done + 1) / resamples)
    tail = (1 - level) / 2
    intervals = []
    for column_means in means:
        column_means.sort()
        intervals.append((_quantile(column_means, tail), _quantile(column_means, 1 - tail)))
    return intervals


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


RUN_WARNINGS = ("run_none_judged", "run_low_judged", "queries_missing_from_run", "query_id_retrieved")
"""The warnings about one run: the comparison's conclusion rests on data they concern."""


def warned_runs(report) -> list:
    """The compared runs some warning of ``report`` concerns, baseline first."""
    comparison = report["comparison"]
    concerned = {warning["run"] for warning in report["warnings"] if warning["code"] in RUN_WARNINGS}
    return [name for name in (comparison["baseline"], comparison["candidate"]) if name in concerned] if comparison else []


def require_common_queries(runs, qrels_name: str) -> None:
    """``LabError("no_common_query")`` when a run of ``runs`` (``[(name, RunEvaluation)]``) evaluated no query.

    A run and qrels without a common query id have nothing to evaluate: that
    is an error to report, not a row of zeros.
    """
    for name, result in runs:
        if not result.per_query:
            raise LabError("no_common_query", field="run", run=name, qrels=qrels_name)


# --- the report (the CLI's --json, and the page's «Tus datos» panel) ------------------------------


def report_json(report) -> str:
    """The report as ``python -m raglab_core eval --json`` prints it, and as the page's «Descargar JSON» saves it."""
    return json.dumps(report, indent=2, allow_nan=False) + "\n"


def build_report(runs, permutations=PERMUTATIONS, seed=SEED, progress=None):
    """The report of one or two evaluated runs: ``(report, comparison)``.

    ``runs`` is a list of one or two ``(name, RunEvaluation)``; with two, the
    second is compared with the first (the baseline). ``report`` is
    JSON-ready, every value keyed by the measure's ir_measures name::

        {"measures": [name, …], "ties", "complete",
         "runs": [{"name", "queries", "mean": {name: value},
                   "per_query": {qid: {name: value}}}],
         "comparison": None | {"baseline", "candidate", "queries", "test", "permutations",
                               "seed", "interval", "resamples",
                               "metrics": {name: {"mean_delta", "ci95": [lo, hi], "wins", "ties",
                                                  "losses", "p_value", "p_value_exact",
                                                  "p_value_se", "per_query"}}},
         "warnings": [{"code", "message" (English), "run", …}]}

    ``warnings``: :func:`raglab_core.sanity.run_warnings`, which change no value.

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
        "warnings": [notice.as_json() for notice in run_warnings(runs)],
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
            "interval": INTERVAL_NAME,
            "resamples": comparison.resamples,
            "metrics": {
                name: {
                    "mean_delta": result.mean_delta,
                    "ci95": list(result.ci95),
                    "wins": result.wins,
                    "ties": result.ties,
                    "losses": result.losses,
                    "p_value": result.p_value,
                    "p_value_exact": result.p_value_exact,
                    "p_value_se": result.p_value_se,
                    "per_query": result.deltas,
                }
                for name, result in comparison.metrics.items()
            },
        }
    return report, comparison
