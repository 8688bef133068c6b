"""The agreement report both edges give: ``agree --json`` (DESIGN §4.12), and its warnings, said first.

:func:`label_report` takes two qrels as read (``{qid: {docid: grade}}``) and gives the JSON's ``reference``,
``judge``, ``pairs``, ``labels`` and ``per_query``; :func:`systems_report` takes the runs evaluated under either
qrels and gives ``systems``; :func:`agreement_report` puts them together with the ``warnings``.

Each warning is a :class:`raglab_core.notices.Notice`, a stable snake_case ``code`` and raw parameters, worded in
English (the command line) or Spanish (the page) from :data:`raglab_core.messages.MESSAGES`:

* ``kappa_undefined``: p_e = 1, both sides give every pair one same grade (κ is null);
* ``kappa_single_label``: one side gives every pair one grade, so κ is 0 whatever the other says;
* ``base_rate_low`` / ``base_rate_high``: at grade ≥ 1 a side calls fewer than :data:`BASE_RATE_LIMITS` [0] or
  more than [1] of the pairs relevant (the kappa paradox);
* ``few_pairs``: fewer than :data:`MIN_PAIRS` pairs; ``kappa_interval_wide``: κ's interval is wider than
  :data:`WIDE_INTERVAL`, one band of Landis & Koch (1977), so it cannot tell moderate (0.41–0.60) from
  substantial (0.61–0.80);
* ``scales_differ``: the two maxima differ, so the weighted κs and α are null;
* ``grades_clipped``: a side's grades outside 0..max, clipped (one notice per side);
* ``pairs_one_side``: pairs judged on one side only, left out or scored 0 (``--missing``);
* ``few_runs``: 1 or 2 runs, too few for a rank correlation;
* ``judge_lenient`` / ``judge_strict``: the mean bias's 95 % bootstrap interval over queries excludes 0.

>>> report = agreement_report("people.txt", {"q1": {"a": 1, "b": 0}}, "llm.txt", {"q1": {"a": 1, "b": 1}})
>>> report["labels"]["exact"], report["labels"]["kappa"], [w["code"] for w in report["warnings"]]
(0.5, 0.0, ['kappa_single_label', 'base_rate_high', 'few_pairs', 'judge_lenient'])
>>> print(report["warnings"][0]["message"])
Cohen's kappa is 0 because the judge gives every pair the grade 1: whatever the other side says, their agreement is what chance gives (scikit-learn computes it so). Read the exact agreement, PABAK and AC1 beside it.
"""

import json

from ..notices import Notice
from ..runs.comparison import p_values
from ..runs.statistics import SEED, holm
from . import labels
from .systems import system_agreement

MIN_PAIRS = 200
"""Below this many pairs, a warning: κ's interval is wide."""
WIDE_INTERVAL = 0.2
"""κ's interval wider than this (one Landis & Koch band) cannot tell moderate agreement from substantial."""
BASE_RATE_LIMITS = (0.1, 0.9)
"""A side's rate of "relevant" (grade ≥ 1) outside these is warned about."""
MIN_RUNS = 3
"""Fewer runs than this (but at least one) make a rank correlation say little."""


def _side(name, qrels, maximum, clipped) -> dict:
    return {"file": name, "pairs": sum(len(judged) for judged in qrels.values()),
            "queries": sum(1 for judged in qrels.values() if judged), "max": maximum, "clipped": clipped}


def label_report(reference_name, reference, judge_name, judge, reference_max=None, judge_max=None,
                 missing=labels.INTERSECT, resamples=labels.BOOTSTRAP_RESAMPLES, seed=SEED):
    """``(fields, notices)``: the JSON's ``reference``, ``judge``, ``pairs``, ``labels`` and ``per_query``, and the
    label level's warnings. Each side's maximum defaults to the largest grade it uses (:func:`labels.scale_max`)."""
    notices = []
    reference_max = labels.scale_max(reference) if reference_max is None else reference_max
    judge_max = labels.scale_max(judge) if judge_max is None else judge_max
    ours, ours_clipped = labels.clip(reference, reference_max)
    theirs, theirs_clipped = labels.clip(judge, judge_max)
    by_query, counts = labels.pair_up(ours, theirs, missing)
    matrices = labels.per_query(by_query, reference_max, judge_max)
    pooled = [[0] * (judge_max + 1) for _ in range(reference_max + 1)]
    for matrix in matrices.values():
        pooled = labels.added(pooled, matrix)
    n = sum(map(sum, pooled))
    same_scale = reference_max == judge_max
    kappa_ci, bias_ci = labels.intervals(list(matrices.values()), resamples, seed)
    found = {
        "n": n,
        "confusion": pooled,
        "exact": labels.exact(pooled),
        "kappa": labels.kappa(pooled),
        "kappa_ci95": kappa_ci,
        "kappa_linear": labels.weighted_kappa(pooled, "linear") if same_scale else None,
        "kappa_quadratic": labels.weighted_kappa(pooled, "quadratic") if same_scale else None,
        "alpha_ordinal": labels.alpha(pooled, "ordinal") if same_scale else None,
        "alpha_interval": labels.alpha(pooled, "interval") if same_scale else None,
        "binary": labels.binary_tables(pooled),
        "bias": labels.bias(pooled),
    }
    per_query = {qid: {"n": sum(map(sum, matrix)), "exact": labels.exact(matrix), "kappa": labels.kappa(matrix)}
                 for qid, matrix in matrices.items()}
    # the warnings, in the order a reader needs them: what the files did, then what the numbers can say
    for name, count, maximum in ((reference_name, ours_clipped, reference_max), (judge_name, theirs_clipped, judge_max)):
        if count:
            notices.append(Notice("grades_clipped", {"name": name, "count": count, "maximum": maximum}))
    if counts["reference_only"] or counts["judge_only"]:
        notices.append(Notice("pairs_one_side", {"reference_only": counts["reference_only"],
                                                 "judge_only": counts["judge_only"], "missing": missing}))
    if not same_scale:
        notices.append(Notice("scales_differ", {"reference_max": reference_max, "judge_max": judge_max}))
    status = labels.kappa_status(pooled)
    if status == "undefined":
        grade = next(r for r, row in enumerate(pooled) if sum(row))
        notices.append(Notice("kappa_undefined", {"count": n, "grade": grade}))
    elif status == "single_label":
        rows, columns = [sum(row) for row in pooled], [sum(column) for column in zip(*pooled)]
        side, used = ("judge", columns) if max(columns) == n else ("reference", rows)
        notices.append(Notice("kappa_single_label", {"side": side, "grade": used.index(n)}))
    if n:
        low, high = BASE_RATE_LIMITS
        for side, count in (("reference", sum(sum(row) for row in pooled[1:])),
                            ("judge", sum(sum(row[1:]) for row in pooled))):
            rate = count / n
            if rate < low:
                notices.append(Notice("base_rate_low", {"side": side, "rate": rate, "limit": low}))
            elif rate > high:
                notices.append(Notice("base_rate_high", {"side": side, "rate": rate, "limit": high}))
    if n < MIN_PAIRS:
        notices.append(Notice("few_pairs", {"count": n, "minimum": MIN_PAIRS}))
    if kappa_ci and kappa_ci[1] - kappa_ci[0] > WIDE_INTERVAL:
        notices.append(Notice("kappa_interval_wide", {"low": kappa_ci[0], "high": kappa_ci[1], "width": WIDE_INTERVAL}))
    if bias_ci and (bias_ci[0] > 0 or bias_ci[1] < 0):
        mean = found["bias"]["mean"]
        code = "judge_lenient" if bias_ci[0] > 0 else "judge_strict"
        notices.append(Notice(code, {"mean": abs(mean), "low": bias_ci[0], "high": bias_ci[1]}))
    fields = {
        "reference": _side(reference_name, reference, reference_max, ours_clipped),
        "judge": _side(judge_name, judge, judge_max, theirs_clipped),
        "pairs": counts,
        "labels": found,
        "per_query": per_query,
    }
    return fields, notices


def systems_report(runs, permutations=None, seed=SEED, progress=None, report=None):
    """``(systems, notices)``: the JSON's ``systems`` for ``runs``, ``[(name, evaluation under the reference,
    evaluation under the judge)]`` (each a :class:`~raglab_core.runs.evaluation.RunEvaluation`, same measures),
    with the reference's comparisons: every pair's randomization test (:func:`raglab_core.runs.comparison.p_values`)
    and Holm's adjustment over the pairs, per measure, as ``eval`` reports them (``p_value_adjusted``). ``report``:
    ``eval``'s report already built for the same runs under the reference (the page's evaluation,
    :func:`raglab_core.runs.report.build_report`), whose adjusted p-values are these, so that the tests are not run
    twice. No run: empty lists and maps."""
    if not runs:
        return {"runs": [], "reference_means": {}, "judge_means": {}, "agreement": {}}, []
    names = [name for name, _, _ in runs]
    measures = list(runs[0][1].names)
    options = {} if permutations is None else {"permutations": permutations}
    adjusted = {measure: {} for measure in measures}
    if len(runs) >= 2 and report is not None:
        pairs = [(i, j) for i in range(len(runs)) for j in range(i + 1, len(runs))]
        for pair, compared in zip(pairs, report["comparisons"]):
            for measure in measures:
                adjusted[measure][pair] = compared["metrics"][measure]["p_value_adjusted"]
    elif len(runs) >= 2:  # the tests alone: eval's bootstrap intervals and overlaps, unused here, cost seconds
        tested = p_values([ours for _, ours, _ in runs], seed=seed, progress=progress, **options)
        for measure in measures:
            adjusted[measure] = dict(zip(tested, holm([found[measure] for found in tested.values()])))
    systems = system_agreement(names, measures, [ours.mean for _, ours, _ in runs],
                               [theirs.mean for _, _, theirs in runs], adjusted)
    notices = [Notice("few_runs", {"count": len(runs), "minimum": MIN_RUNS})] if len(runs) < MIN_RUNS else []
    return systems, notices


def agreement_report(reference_name, reference, judge_name, judge, runs=(), reference_max=None, judge_max=None,
                     missing=labels.INTERSECT, permutations=None, seed=SEED, resamples=labels.BOOTSTRAP_RESAMPLES,
                     report=None):
    """The whole report, as ``agree --json`` prints it (DESIGN §4.12), warnings last in the JSON (``report``: see
    :func:`systems_report`)."""
    fields, notices = label_report(reference_name, reference, judge_name, judge, reference_max, judge_max, missing,
                                   resamples, seed)
    systems, more = systems_report(list(runs), permutations, seed, report=report)
    return {**fields, "systems": systems, "warnings": [notice.as_json() for notice in notices + more]}


def agreement_json(report) -> str:
    """The report as ``agree --json`` prints it, and as the page's «Descargar» saves it."""
    return json.dumps(report, indent=2, allow_nan=False) + "\n"
