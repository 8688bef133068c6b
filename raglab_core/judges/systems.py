"""System agreement: do the runs keep their order when the judge's qrels replace the reference's?

Each run is evaluated with each qrels as ``eval`` evaluates it (:mod:`raglab_core.runs.evaluation`); for each
measure, the runs' means under the reference and under the judge are compared as two orders of the same runs:

* **Kendall's τ-b** (Kendall 1945): ``(P − Q) / sqrt((P + Q + T_r)(P + Q + T_j))``, P and Q the concordant and
  discordant pairs of runs, T_r (T_j) the pairs tied only under the reference (the judge); as
  ``scipy.stats.kendalltau`` (its default, ``variant="b"``). ``None`` when either side ties every run.
* **τ_AP** (Yilmaz, Aslam & Robertson, "A new rank correlation coefficient for information retrieval", SIGIR
  2008), the reference's order as the truth: the runs listed in the judge's order, best first;
  ``τ_AP = 2 / (N − 1) · Σ_{i=2..N} C(i) / (i − 1) − 1``, ``C(i)`` the runs above position ``i`` that the reference
  also puts above the run at ``i``. A swap near the top costs more than one near the bottom. **Ties** never count
  as a swap: runs the judge ties are listed in the reference's order, and a run the reference ties with the one at
  ``i`` counts as correctly above it (the reference does not order them). ``None`` below two runs, and, as τ-b,
  when either side ties every run (a judge that ties them all would otherwise score 1, a perfect order).
* **Spearman's ρ** (Spearman 1904): Pearson's correlation of the two sides' average ranks, as
  ``scipy.stats.spearmanr``. ``None`` when either side ties every run.
* **flips**: each pair of runs the two sides order in opposite directions (a pair tied on a side is not
  flipped), with both mean differences (candidate − baseline, the later run minus the earlier, as ``eval``
  compares them) and the Holm-adjusted p-value of the reference's comparison of that pair (``eval``'s
  randomization test, :mod:`raglab_core.runs.report`): a flip of a pair the reference separates
  (``significant``: adjusted p below :data:`raglab_core.runs.report.ALPHA`) is what matters; a flip inside a
  tie is not.

>>> tau_ap([0.5, 0.4, 0.3], [0.4, 0.5, 0.3]), tau_ap([0.5, 0.4, 0.3], [0.5, 0.3, 0.4])  # a swap at the top costs more
(0.0, 0.5)
>>> round(kendall_tau_b([0.5, 0.4, 0.3], [0.4, 0.5, 0.3]), 6), spearman([1, 2, 3], [1, 3, 2])
(0.333333, 0.5)
"""

import math

from ..runs.report import ALPHA


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def kendall_tau_b(reference, judge):
    """Kendall's τ-b of two sequences of values (the runs' means); ``None`` when undefined."""
    n = len(reference)
    concordant = discordant = only_reference = only_judge = 0
    for i in range(n):
        for k in range(i + 1, n):
            a, b = _sign(reference[i] - reference[k]), _sign(judge[i] - judge[k])
            if a and b:
                if a == b:
                    concordant += 1
                else:
                    discordant += 1
            elif a:
                only_judge += 1  # tied under the judge only
            elif b:
                only_reference += 1
    denominator = (concordant + discordant + only_judge) * (concordant + discordant + only_reference)
    if denominator == 0:
        return None
    return (concordant - discordant) / math.sqrt(denominator)


def tau_ap(reference, judge):
    """τ_AP of the judge's order against the reference's (the truth); ties as the module says; ``None`` below 2
    runs or when either side ties every run."""
    n = len(reference)
    if n < 2 or len(set(reference)) == 1 or len(set(judge)) == 1:
        return None
    order = sorted(range(n), key=lambda k: (-judge[k], -reference[k], k))
    total = 0.0
    for position in range(1, n):
        run = order[position]
        correct = sum(1 for above in order[:position] if reference[above] >= reference[run])
        total += correct / position
    return 2 * total / (n - 1) - 1


def _ranks(values) -> list:
    """Average ranks (1 = smallest; ties share their mean rank)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for index in order[start : end + 1]:
            ranks[index] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman(reference, judge):
    """Spearman's ρ of two sequences of values; ``None`` when either is constant (or below 2 values)."""
    if len(reference) < 2:
        return None
    x, y = _ranks(reference), _ranks(judge)
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def flips(names, reference, judge, adjusted) -> list:
    """The pairs of runs ordered in opposite directions: ``[{"baseline", "candidate", "reference_delta",
    "judge_delta", "p_value_adjusted", "significant"}]``, pairs ``i < j`` in input order (``adjusted``:
    ``{(i, j): Holm-adjusted p-value of the reference's comparison}``, ``None`` when not compared).

    >>> flips(["a", "b", "c"], [0.5, 0.4, 0.3], [0.4, 0.5, 0.3], {(0, 1): 0.01, (0, 2): 0.2, (1, 2): 0.3})
    [{'baseline': 'a', 'candidate': 'b', 'reference_delta': -0.09999999999999998, 'judge_delta': 0.09999999999999998, 'p_value_adjusted': 0.01, 'significant': True}]
    """
    found = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            ours, theirs = reference[j] - reference[i], judge[j] - judge[i]
            if _sign(ours) * _sign(theirs) < 0:
                p = adjusted.get((i, j))
                found.append({"baseline": names[i], "candidate": names[j], "reference_delta": ours,
                              "judge_delta": theirs, "p_value_adjusted": p,
                              "significant": p is not None and p < ALPHA})
    return found


def system_agreement(names, measures, reference_means, judge_means, adjusted) -> dict:
    """The JSON's ``"systems"`` (DESIGN §4.12): ``names`` the runs, ``measures`` their names,
    ``reference_means`` and ``judge_means`` one tuple of means per run (in ``measures``' order), and ``adjusted``
    ``{measure: {(i, j): Holm-adjusted p of the reference's comparison}}``."""
    agreement = {}
    for index, measure in enumerate(measures):
        ours = [means[index] or 0.0 for means in reference_means]
        theirs = [means[index] or 0.0 for means in judge_means]
        agreement[measure] = {
            "kendall_tau_b": kendall_tau_b(ours, theirs),
            "tau_ap": tau_ap(ours, theirs),
            "spearman": spearman(ours, theirs),
            "flips": flips(names, ours, theirs, adjusted.get(measure, {})),
        }
    return {
        "runs": list(names),
        "reference_means": {name: dict(zip(measures, means)) for name, means in zip(names, reference_means)},
        "judge_means": {name: dict(zip(measures, means)) for name, means in zip(names, judge_means)},
        "agreement": agreement,
    }
