"""The statistics every comparison here shares: a paired randomization test, a bootstrap interval, Holm.

Runs compared query by query (:mod:`raglab_core.runs.report`) and chunk configurations compared
with a baseline (:mod:`raglab_core.corpus.sweep`) use these and no other copy:

* :func:`randomization_test` — the two-sided paired randomization (permutation) test of the
  mean difference, Fisher's as Smucker et al. (2007) recommend for IR and ranx implements
  (``fisher_randomization_test``), by Monte Carlo over sign vectors with a seed;
  :func:`exact_randomization_test` enumerates all ``2^n`` sign vectors when ``n`` is small
  (:data:`EXACT_LIMIT`);
* :func:`bootstrap_intervals` — the 95 % paired percentile bootstrap of the mean difference,
  resampling queries (Efron & Tibshirani 1993, ch. 13);
* :func:`holm` — Holm–Bonferroni's step-down adjustment of the p-values of a family of tests
  (Holm 1979), for all pairs of many runs or configurations;
* :func:`p_value_text` — how a p-value reads, exact or estimated.

References
----------
.. [1] E. Bassani, "ranx: A Blazing-Fast Python Library for Ranking
   Evaluation and Comparison", ECIR 2022 (``fisher_randomization_test``).
.. [2] M. D. Smucker, J. Allan and B. Carterette, "A comparison of statistical
   significance tests for information retrieval evaluation", CIKM 2007.
.. [3] B. Efron and R. J. Tibshirani, *An Introduction to the Bootstrap*, Chapman & Hall, 1993.
.. [4] S. Holm, "A simple sequentially rejective multiple test procedure", Scandinavian Journal of
   Statistics 6(2), 1979.
.. [5] B. Phipson and G. K. Smyth, "Permutation P-values should never be zero: calculating exact
   P-values when permutations are randomly drawn", Statistical Applications in Genetics and
   Molecular Biology 9(1), 2010.
"""

import math
import random
import sys
from array import array
from bisect import bisect_left, bisect_right
from itertools import repeat
from operator import itemgetter

from ..checks import whole_number
from ..formatting import decimal

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


def p_value_text(p: float, permutations: int, exact: bool = False, se: float = 0.0, language: str = "es") -> str:
    """A p-value with as much precision as it has, in Spanish (``"es"``) or English (``"en"``).

    Exact: four decimals (``'< 0,0001'`` below), marked ``(exact)`` in English. Estimated from
    ``permutations`` sign vectors (:func:`randomization_test`, never 0): the estimate ± its Monte
    Carlo standard error ``se``, both to four decimals, or to as many more as the estimate needs
    not to read 0 (``1 / 100,001`` reads ``0,00001``). ``permutations`` is how many were drawn
    (the smallest estimate is ``1 / (permutations + 1)``).

    >>> p_value_text(0.0415, 10_000, exact=True), p_value_text(1.9e-6, 10_000, exact=True)
    ('0,0415', '< 0,0001')
    >>> p_value_text(0.009, 10_000, se=0.000944), p_value_text(1 / 10_001, 10_000, se=0.0001)
    ('0,0090 ± 0,0009', '0,0001 ± 0,0001')
    >>> p_value_text(1 / 100_001, 100_000, se=0.00001)
    '0,00001 ± 0,00001'
    >>> p_value_text(0.0415, 10_000, exact=True, language="en"), p_value_text(0.009, 10_000, se=0.000944, language="en")
    ('0.0415 (exact)', '0.0090 ± 0.0009')
    """
    if exact:
        return p_text(p, True, language) + (" (exact)" if language == "en" else "")
    places = estimate_places(p)
    number = (lambda x: f"{x:.{places}f}") if language == "en" else (lambda x: decimal(x, places))
    return f"{number(p)} ± {number(se)}"


def p_text(p: float, exact: bool, language: str = "es") -> str:
    """A p-value alone (a Holm-adjusted one, say), written as :func:`p_value_text` writes it without its error:
    exact, four decimals (``< 0,0001`` below); estimated, four decimals or more (:func:`estimate_places`).

    >>> p_text(0.0123, True), p_text(2e-6, True), p_text(3 / 10_001, False), p_text(3 / 100_001, False, "en")
    ('0,0123', '< 0,0001', '0,0003', '0.00003')
    """
    places = 4 if exact else estimate_places(p)
    number = (lambda x: f"{x:.{places}f}") if language == "en" else (lambda x: decimal(x, places))
    return "< " + number(0.0001) if exact and p < 0.0001 else number(p)


def estimate_places(p: float) -> int:
    """The decimals an estimated p-value is written with: four, or as many more as it needs not to read 0.

    >>> estimate_places(0.5), estimate_places(1 / 10_001), estimate_places(1 / 100_001), estimate_places(4e-7)
    (4, 4, 5, 7)
    """
    places = 4
    while 0 < p < 0.5 * 10 ** -places:
        places += 1
    return places


_EPSILON = 1e-9
"""Tolerance on the summed deltas: permuted sums within it of the observed one count as "as extreme"."""


def randomization_test(deltas, permutations: int = PERMUTATIONS, seed: int = SEED) -> float:
    """Two-sided p-value of the paired randomization (permutation) test on per-query ``deltas``.

    Fisher's randomization test as described for IR by Smucker et al. [2]_
    and implemented by ranx's ``fisher_randomization_test``: under the null
    hypothesis the two runs are exchangeable, so each query's pair of scores
    is swapped with probability 1/2, i.e. each delta ``d_i`` gets a random sign
    ``s_i``. With ``T = |sum_i d_i|`` and ``T* = |sum_i s_i d_i|``,

        ``p = (#{permutations with T* >= T} + 1) / (permutations + 1)``

    The +1s count the observed arrangement among the permutations (Phipson &
    Smyth [5]_; scipy's ``permutation_test`` does the same for a randomized
    test; ranx does not): the estimate is never 0, and ``p <= alpha`` happens
    with probability at most ``alpha`` under the null hypothesis, so the
    test is exact however few permutations are drawn. Sums of deltas instead of differences
    of means give the same test; ``T* >= T - 1e-9`` absorbs rounding so that
    ties with ``T`` count. Sign vectors come from
    ``random.Random(seed).getrandbits(n)`` (``n``: the non-zero deltas; a zero
    delta is the same under either sign), so ``p`` is deterministic for a seed
    (but not equal to ranx's, whose generator differs). For speed, the
    deltas are cut into blocks of 8 and every block's 256 subset sums are
    tabulated: one permutation costs ``n / 8`` look-ups.

    >>> randomization_test([0.0, 0.0, 0.0])          # identical runs
    1.0
    >>> randomization_test([0.5] * 30, permutations=1000) == 1 / 1001   # all 30 signs must agree: p = 2 / 2**30
    True
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
    return (extreme + 1) / (permutations + 1)


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


def percentile_interval(ordered, level: float = 0.95) -> tuple:
    """The percentile interval of sorted resampled values: their ``(1 − level) / 2`` and ``(1 + level) / 2``
    quantiles (:func:`_quantile`, linear interpolation), as :func:`bootstrap_intervals` takes them.

    >>> percentile_interval([0.0, 1.0, 2.0, 3.0, 4.0], 0.5)
    (1.0, 3.0)
    """
    tail = (1 - level) / 2
    return _quantile(ordered, tail), _quantile(ordered, 1 - tail)


def resampled_totals(rows, resamples: int = RESAMPLES, seed: int = SEED):
    """The bootstrap's resamples of rows of non-negative integers: for each of ``resamples``, the column
    totals of ``len(rows)`` rows drawn with replacement (a tuple per resample, a generator).

    The draws are :func:`bootstrap_intervals`' (``random.Random(seed)``, :func:`_draws`), so a statistic
    that is not a mean (Cohen's κ of the pooled pairs of the queries drawn, :mod:`raglab_core.judges.labels`)
    is resampled as the mean differences are. Each row is packed into one integer, a field per column, so a
    resample is one gather and one integer sum whatever the columns.

    >>> list(resampled_totals([(1, 0), (1, 5)], resamples=3, seed=1))
    [(2, 5), (2, 10), (2, 5)]
    """
    resamples = whole_number(resamples, "resamples", 1)
    n = len(rows)
    if n == 0:
        return
    columns = len(rows[0])
    width = max((value.bit_length() for row in rows for value in row), default=0) + n.bit_length() + 1
    packed = [sum(value << (width * index) for index, value in enumerate(row)) for row in rows]
    mask = (1 << width) - 1
    rng = random.Random(seed)
    for _ in range(resamples):
        total = sum(itemgetter(*_draws(n, rng))(packed)) if n > 1 else packed[0] * n
        yield tuple(total >> (width * index) & mask for index in range(columns))


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


def holm(p_values) -> list:
    """Holm–Bonferroni adjusted p-values, in the order given: ``p_(i)`` sorted ascending becomes
    ``max_{j <= i} min(1, (m - j + 1) p_(j))`` (step-down, monotone, capped at 1; Holm 1979), as
    ``statsmodels.stats.multitest.multipletests(method="holm")`` computes them. One p-value is
    left as it is. Rejecting where the adjusted value is below α controls the family-wise error rate
    at α for any dependence between the tests.

    >>> holm([0.01, 0.04, 0.03]), holm([0.2])
    ([0.03, 0.06, 0.06], [0.2])
    >>> holm([0.5, 0.5, 0.01])
    [1.0, 1.0, 0.03]
    """
    m = len(p_values)
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(sorted(range(m), key=lambda i: p_values[i])):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
