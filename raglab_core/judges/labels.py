"""Label agreement between two qrels: which pairs are compared, and every measure of how their grades agree.

Pure functions over plain data (standard library only). Two qrels are ``{qid: {docid: grade}}``; the
*reference* is usually people's, the *judge* usually a model's. Every measure here is a function of one
**confusion matrix** ``C`` (rows: the reference's grade 0..R, columns: the judge's grade 0..J, ``C[r][j]``
pairs), so the pooled measures (all pairs, micro), the per-query ones and the bootstrap's resamples share
one code path, and the counts stay integers until the last division (DESIGN §4.12).

Definitions and sources (``n`` pairs, ``r_k`` and ``j_k`` the pairs the reference and the judge grade ``k``):

* **exact** agreement: ``sum_k C[k][k] / n``, the share of equal grades.
* **Cohen's κ** (Cohen 1960), unweighted: ``(p_o − p_e) / (1 − p_e)`` with ``p_o`` = exact and
  ``p_e = sum_k r_k j_k / n²``; computed as scikit-learn's ``cohen_kappa_score`` does, in integers:
  ``1 − n (n − sum_k C[k][k]) / (n² − sum_k r_k j_k)``. Undefined (``None``, never 0 or NaN) when
  ``p_e = 1``: both sides give every pair one same grade. When one side alone uses a single grade, κ is
  exactly 0 (``p_o = p_e``), as scikit-learn gives it: :func:`kappa_status` says which case holds.
* **weighted κ** (Cohen 1968): ``1 − sum w_ij C[i][j] / sum w_ij E[i][j]``, ``E[i][j] = r_i j_j / n``,
  weights ``|i − j|`` (linear) or ``(i − j)²`` (quadratic) over the grades 0..max, i.e. scikit-learn's
  ``cohen_kappa_score(a, b, labels=range(max + 1), weights=...)``. Only when both sides share one scale
  (R = J): grade distances across two scales mean nothing. ``None`` when the denominator is 0.
* **Krippendorff's α** (Krippendorff 2011, "Computing Krippendorff's alpha-reliability"), two coders and
  no missing value, over the value domain 0..max: the coincidence matrix ``o = C + Cᵀ`` with marginals
  ``n_v`` (``n = 2N`` values), ``α = 1 − (n − 1) sum o_ck δ²_ck / sum_{c≠k} n_c n_k δ²_ck``, with
  ``δ²_ck = (c − k)²`` (interval) or ``(sum_{g=c..k} n_g − (n_c + n_k)/2)²`` (ordinal), exactly as
  ``krippendorff.alpha(..., value_domain=range(max + 1), level_of_measurement=...)`` (0.9.0) computes it.
  Only when R = J; ``None`` when the denominator is 0 (every value the same).
* **binary** tables: for each pair of thresholds (t over 1..R, u over 1..J), relevant means grade ≥ t
  (reference) and ≥ u (judge); the 2×2 table ``[[neither, judge only], [reference only, both]]``, its
  exact agreement and κ, **PABAK** = 2·exact − 1 (Byrt, Bishop & Carlin 1993; Brennan–Prediger's
  coefficient with two categories) and **Gwet's AC1** = ``(p_a − p_e) / (1 − p_e)``,
  ``p_e = 2 π (1 − π)``, ``π`` the mean of the two sides' rates of "relevant" (Gwet 2008), as irrCAC's
  ``CAC.bp()`` and ``CAC.gwet()`` compute them for two raters.
* **bias** (Bland & Altman 1986): per pair, judge − reference, each grade divided by its side's max
  (0–1 scales; a side whose max is 0 scores 0); its ``mean``, ``sd`` (n − 1) and ``limits`` of agreement,
  ``mean ± 1.96 sd``. Positive: the judge is more lenient.
* **κ's 95 % interval**: percentile bootstrap over queries (Efron & Tibshirani 1993, ch. 13): queries
  drawn with replacement, their pairs pooled, κ of each resample; seeded, deterministic
  (:func:`raglab_core.runs.statistics.resampled_totals`, the draws every bootstrap here uses). Resamples
  where κ is undefined are left out. The same resamples give the mean bias's interval.

>>> c = confusion([0, 1, 1, 2], [0, 1, 2, 2], 2, 2)
>>> c
[[1, 0, 0], [0, 1, 1], [0, 0, 1]]
>>> exact(c), round(kappa(c), 6), round(weighted_kappa(c, "quadratic"), 6), round(alpha(c, "interval"), 6)
(0.75, 0.636364, 0.8, 0.820513)
"""

import math

from ..runs.statistics import SEED, percentile_interval, resampled_totals

INTERSECT, ZERO = "intersect", "zero"
MISSING = (INTERSECT, ZERO)
"""How pairs judged on one side only are treated: left out (``intersect``) or given grade 0 on the other (``zero``)."""
WEIGHTS = ("linear", "quadratic")
LEVELS = ("ordinal", "interval")
BOOTSTRAP_RESAMPLES = 2_000
"""Resamples of κ's bootstrap interval over queries."""
LIMIT_Z = 1.96
"""Bland–Altman's limits of agreement, and the normal quantile of a 95 % interval."""


# --- the pairs ------------------------------------------------------------------------------------


def scale_max(qrels) -> int:
    """The largest grade a qrels uses (0 when none is positive): a side's scale when none is given.

    >>> scale_max({"q1": {"a": 0, "b": 3}, "q2": {"c": 1}}), scale_max({"q1": {"a": -1}})
    (3, 0)
    """
    largest = max((grade for judged in qrels.values() for grade in judged.values()), default=0)
    return max(largest, 0)


def clip(qrels, maximum: int):
    """``(qrels with every grade put within 0..maximum, how many grades moved)``. A grade above ``maximum``
    becomes ``maximum``; a negative one (TREC's −1, "junk") becomes 0, as trec_eval counts it not relevant.

    >>> clip({"q1": {"a": 3, "b": 1, "c": -1}}, 2)
    ({'q1': {'a': 2, 'b': 1, 'c': 0}}, 2)
    """
    moved = 0
    clipped = {}
    for qid, judged in qrels.items():
        row = clipped[qid] = {}
        for docid, grade in judged.items():
            if grade > maximum or grade < 0:
                moved += 1
                grade = maximum if grade > maximum else 0
            row[docid] = grade
    return clipped, moved


def pair_up(reference, judge, missing: str = INTERSECT):
    """The pairs compared, by query: ``({qid: ([reference grades], [judge grades])}, counts)``, queries and
    documents sorted, and ``counts = {"both", "reference_only", "judge_only"}`` (pairs judged on both sides,
    on the reference's only, on the judge's only). ``intersect`` keeps the pairs both sides judge; ``zero``
    keeps every pair either side judges, the side that lacks it grading it 0.

    >>> pair_up({"q1": {"a": 1, "b": 2}}, {"q1": {"b": 1, "c": 1}, "q2": {"d": 0}})
    ({'q1': ([2], [1])}, {'both': 1, 'reference_only': 1, 'judge_only': 2})
    >>> pair_up({"q1": {"a": 1, "b": 2}}, {"q1": {"b": 1, "c": 1}}, "zero")[0]
    {'q1': ([1, 2, 0], [0, 1, 1])}
    """
    if missing not in MISSING:
        raise ValueError(f"missing must be one of {MISSING}, not {missing!r}")
    counts = {"both": 0, "reference_only": 0, "judge_only": 0}
    by_query = {}
    for qid in sorted(reference.keys() | judge.keys()):
        ours, theirs = reference.get(qid, {}), judge.get(qid, {})
        shared = ours.keys() & theirs.keys()
        counts["both"] += len(shared)
        counts["reference_only"] += len(ours) - len(shared)
        counts["judge_only"] += len(theirs) - len(shared)
        documents = sorted(shared if missing == INTERSECT else ours.keys() | theirs.keys())
        if documents:
            by_query[qid] = ([ours.get(doc, 0) for doc in documents], [theirs.get(doc, 0) for doc in documents])
    return by_query, counts


def confusion(reference_grades, judge_grades, reference_max: int, judge_max: int) -> list:
    """The confusion matrix: rows the reference's grade 0..reference_max, columns the judge's 0..judge_max.

    >>> confusion([0, 2, 2], [1, 1, 0], 2, 1)
    [[0, 1], [0, 0], [1, 1]]
    """
    matrix = [[0] * (judge_max + 1) for _ in range(reference_max + 1)]
    for r, j in zip(reference_grades, judge_grades):
        matrix[r][j] += 1
    return matrix


def added(first, second) -> list:
    """Two confusion matrices of one shape, summed cell by cell."""
    return [[a + b for a, b in zip(row, other)] for row, other in zip(first, second)]


# --- the measures of one confusion matrix -----------------------------------------------------------


def _margins(c):
    return [sum(row) for row in c], [sum(column) for column in zip(*c)]


def _diagonal(c) -> int:
    return sum(c[k][k] for k in range(min(len(c), len(c[0]))))


def exact(c):
    """The share of pairs with equal grades; ``None`` without pairs."""
    n = sum(map(sum, c))
    return _diagonal(c) / n if n else None


def kappa(c):
    """Cohen's unweighted κ (grade k of one side agrees with grade k of the other); ``None`` when undefined
    (no pairs, or ``p_e = 1``).

    >>> kappa([[0, 3], [0, 0]]), kappa([[0, 0], [0, 4]]), kappa([[2, 1], [1, 2]])
    (0.0, None, 0.33333333333333337)
    """
    rows, columns = _margins(c)
    n = sum(rows)
    chance = sum(a * b for a, b in zip(rows, columns))  # n² p_e
    if n == 0 or chance == n * n:
        return None
    return 1 - n * (n - _diagonal(c)) / (n * n - chance)


def kappa_status(c):
    """Why κ says little: ``"undefined"`` (``p_e = 1``: both sides give every pair one same grade),
    ``"single_label"`` (one side gives every pair one grade, so κ is 0 whatever the other says), or ``None``.

    >>> kappa_status([[0, 0], [0, 4]]), kappa_status([[0, 3], [0, 1]]), kappa_status([[1, 0], [0, 1]])
    ('undefined', 'single_label', None)
    """
    rows, columns = _margins(c)
    n = sum(rows)
    if n == 0:
        return None
    if sum(a * b for a, b in zip(rows, columns)) == n * n:
        return "undefined"
    if max(rows) == n or max(columns) == n:
        return "single_label"
    return None


def weighted_kappa(c, weights: str):
    """Cohen's weighted κ with ``weights`` ``"linear"`` (``|i − j|``) or ``"quadratic"`` (``(i − j)²``) over a
    square matrix (one scale, grades 0..max); ``None`` when its expected disagreement is 0."""
    power = {"linear": 1, "quadratic": 2}[weights]
    rows, columns = _margins(c)
    n = sum(rows)
    size = len(c)
    observed = sum(abs(i - j) ** power * c[i][j] for i in range(size) for j in range(size))
    chance = sum(abs(i - j) ** power * rows[i] * columns[j] for i in range(size) for j in range(size))  # n Σ w E
    if n == 0 or chance == 0:
        return None
    return 1 - n * observed / chance


def alpha(c, level: str):
    """Krippendorff's α of two coders over a square matrix (value domain 0..max), at ``level``
    ``"ordinal"`` or ``"interval"``; ``None`` when the expected disagreement is 0."""
    size = len(c)
    o = [[c[i][k] + c[k][i] for k in range(size)] for i in range(size)]
    totals = [sum(row) for row in o]
    n = sum(totals)
    if level == "interval":
        distance = [[(i - k) ** 2 for k in range(size)] for i in range(size)]
    elif level == "ordinal":
        distance = [[0.0] * size for _ in range(size)]
        for i in range(size):
            for k in range(i + 1, size):
                distance[i][k] = distance[k][i] = (sum(totals[i : k + 1]) - (totals[i] + totals[k]) / 2) ** 2
    else:
        raise ValueError(f"level must be one of {LEVELS}, not {level!r}")
    observed = sum(o[i][k] * distance[i][k] for i in range(size) for k in range(size))
    expected = sum(totals[i] * totals[k] * distance[i][k] for i in range(size) for k in range(size) if i != k)
    if n < 2 or expected == 0:
        return None
    return 1 - (n - 1) * observed / expected


def binary_tables(c) -> list:
    """One object per pair of thresholds (t over 1..R, u over 1..J), as DESIGN §4.12 names its fields.

    >>> [table["table"] for table in binary_tables([[2, 1], [1, 3]])]
    [[[2, 1], [1, 3]]]
    """
    rows, columns = _margins(c)
    n = sum(rows)
    found = []
    for t in range(1, len(c)):
        for u in range(1, len(c[0])):
            both = sum(c[r][j] for r in range(t, len(c)) for j in range(u, len(c[0])))
            reference_only = sum(rows[t:]) - both
            judge_only = sum(columns[u:]) - both
            neither = n - both - reference_only - judge_only
            table = [[neither, judge_only], [reference_only, both]]
            agreement = exact(table)
            found.append({
                "reference_threshold": t,
                "judge_threshold": u,
                "table": table,
                "exact": agreement,
                "kappa": kappa(table),
                "pabak": None if agreement is None else 2 * agreement - 1,
                "ac1": ac1(table),
                "reference_rate": (reference_only + both) / n if n else None,
                "judge_rate": (judge_only + both) / n if n else None,
            })
    return found


def ac1(table):
    """Gwet's AC1 of a 2×2 table ``[[neither, judge only], [reference only, both]]``; ``None`` without pairs.

    >>> ac1([[0, 0], [1, 9]])  # 90 % agree, a base rate near 1: κ is 0 here, AC1 is not
    0.8895027624309393
    """
    n = sum(map(sum, table))
    if n == 0:
        return None
    agreement = (table[0][0] + table[1][1]) / n
    relevant = ((table[1][0] + table[1][1]) + (table[0][1] + table[1][1])) / (2 * n)
    chance = 2 * relevant * (1 - relevant)
    return (agreement - chance) / (1 - chance)


def _bias_unit(reference_max: int, judge_max: int):
    """The bias of a pair (r, j) is ``(j·Rd − r·Jd) / (Rd·Jd)``, an integer over ``Rd·Jd`` (Rd, Jd: the maxima,
    1 for a side whose max is 0): ``(Rd, Jd)``."""
    return max(reference_max, 1), max(judge_max, 1)


def bias(c):
    """Bland–Altman on both sides' 0–1 scales: ``{"mean", "sd", "limits"}`` (``sd`` and ``limits`` ``None``
    below two pairs, everything ``None`` without pairs).

    >>> bias([[1, 1], [0, 2]])  # scales 0..1: differences 0, 1, 0, 0
    {'mean': 0.25, 'sd': 0.5, 'limits': [-0.73, 1.23]}
    """
    rd, jd = _bias_unit(len(c) - 1, len(c[0]) - 1)
    n = total = squares = 0
    for r, row in enumerate(c):
        for j, count in enumerate(row):
            difference = j * rd - r * jd
            n += count
            total += count * difference
            squares += count * difference * difference
    if n == 0:
        return {"mean": None, "sd": None, "limits": None}
    unit = rd * jd
    mean = total / n / unit
    if n < 2:
        return {"mean": mean, "sd": None, "limits": None}
    sd = math.sqrt((n * squares - total * total) / (n * (n - 1))) / unit
    return {"mean": mean, "sd": sd, "limits": [mean - LIMIT_Z * sd, mean + LIMIT_Z * sd]}


# --- per query, and the bootstrap over queries ---------------------------------------------------------


def per_query(by_query, reference_max: int, judge_max: int) -> dict:
    """``{qid: confusion matrix}`` of the pairs :func:`pair_up` gave."""
    return {qid: confusion(ours, theirs, reference_max, judge_max) for qid, (ours, theirs) in by_query.items()}


def intervals(matrices, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = SEED):
    """κ's and the mean bias's 95 % percentile bootstrap intervals over queries: ``(kappa_ci95, bias_ci95)``,
    each ``[low, high]`` or ``None`` (no query, or κ undefined in every resample).

    ``matrices``: each query's confusion matrix. A resample draws as many queries as there are, with
    replacement, and pools their pairs; κ and the mean bias are those of the pooled pairs. Only each
    query's counts enter a resample (its pairs, equal grades, both sides' grade counts, the bias's
    integer numerator), so a resample costs one sum of packed integers
    (:func:`raglab_core.runs.statistics.resampled_totals`).

    >>> intervals([[[2, 0], [0, 2]], [[1, 1], [1, 1]], [[0, 2], [2, 0]]], resamples=200)[0][0] < 0 < 1
    True
    """
    if not matrices:
        return None, None
    size_r, size_j = len(matrices[0]), len(matrices[0][0])
    rd, jd = _bias_unit(size_r - 1, size_j - 1)
    unit = rd * jd
    rows_of_counts = []
    for c in matrices:
        rows, columns = _margins(c)
        n = sum(rows)
        shifted = sum(count * (j * rd - r * jd + unit) for r, row in enumerate(c) for j, count in enumerate(row))
        rows_of_counts.append((n, _diagonal(c), shifted, *rows, *columns))
    kappas, biases = [], []
    for n, diagonal, shifted, *margins in resampled_totals(rows_of_counts, resamples, seed):
        if n == 0:
            continue
        rows, columns = margins[:size_r], margins[size_r:]
        chance = sum(a * b for a, b in zip(rows, columns))
        if chance != n * n:
            kappas.append(1 - n * (n - diagonal) / (n * n - chance))
        biases.append((shifted - n * unit) / n / unit)
    return (list(percentile_interval(sorted(kappas))) if kappas else None,
            list(percentile_interval(sorted(biases))) if biases else None)
