"""What the command line and the «Tus datos» panel report: the runs' means, their comparison, warnings.

Both edges, ``python -m raglab_core eval`` (English) and the page's panel
(Spanish, :mod:`raglab_core.runs.panel`), report through this module, so
they share its defaults (:data:`~raglab_core.runs.statistics.PERMUTATIONS`,
:data:`~raglab_core.runs.statistics.SEED`), the JSON shape
(:func:`build_report`) and the no-common-query check. The comparison is
:mod:`raglab_core.runs.comparison`'s, on :mod:`raglab_core.runs.statistics`.
"""

import json

from ..errors import LabError
from .comparison import compare_all
from .evaluation import evaluate_run  # noqa: F401 (the doctest)
from .overlap import JACCARD_K, mean_ranked_overlap
from .sanity import run_warnings
from .statistics import INTERVAL_NAME, PERMUTATIONS, RESAMPLES, SEED, TEST_NAME, holm

ALPHA = 0.05
"""The significance level of every verdict the report words: after Holm's correction over the pairs."""

RUN_WARNINGS = ("run_none_judged", "run_low_judged", "queries_missing_from_run", "query_id_retrieved",
                "run_scores_tied")
"""The warnings about one run: the comparison's conclusion rests on data they concern. Not ``run_shallow``: it
concerns some measures, and two runs equally shallow compare fairly."""


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


def build_report(runs, permutations=PERMUTATIONS, seed=SEED, progress=None, resamples=RESAMPLES):
    """The report of 1 to 12 evaluated runs: ``(report, comparisons)``.

    ``runs`` is a list of ``(name, RunEvaluation)`` in input order. ``report`` is
    JSON-ready, every value keyed by the measure's ir_measures name (DESIGN §4.8)::

        {"measures": [name, …], "ties", "complete",
         "runs": [{"name", "queries", "mean": {name: value},
                   "per_query": {qid: {name: value}}}],
         "comparison": None | PAIR,          # exactly two runs: the second against the first
         "correction": "holm",               # two runs or more:
         "comparisons": [PAIR, …],           #   every pair i < j, in input order
         "overlap": [{"baseline", "candidate", "queries", "jaccard@10", "rbo"}, …],   # the same pairs
         "warnings": [{"code", "message" (English), "run", …}]}

    where ``PAIR`` is ``{"baseline", "candidate", "queries", "test", "permutations", "seed", "interval",
    "resamples", "metrics": {name: {"mean_delta", "ci95": [lo, hi], "wins", "ties", "losses",
    "p_value", "p_value_adjusted", "p_value_exact", "p_value_se", "per_query"}}}``, and
    ``p_value_adjusted`` is Holm's adjustment (:func:`~raglab_core.runs.statistics.holm`) of the
    p-values of all the pairs for that measure: with one pair, the p-value itself. ``overlap`` says how
    different the pairs' rankings are, judged or not (:mod:`raglab_core.runs.overlap`): it reads the
    rankings the evaluations kept (``keep`` >= 100, as :class:`~raglab_core.runs.inputs.Reading` keeps
    them for two runs or more), and is ``null`` without them.

    ``warnings``: :func:`raglab_core.runs.sanity.run_warnings`, which change no value.

    ``comparisons`` (``{(i, j): Comparison}``, :func:`~raglab_core.runs.comparison.compare_all`) carries
    what the report leaves out, such as the unpaired queries; ``progress`` is passed to it.

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
    comparisons = {}
    if len(runs) >= 2:
        comparisons = compare_all([result for _, result in runs], permutations, seed, progress, resamples)
        adjusted = {
            name: dict(zip(comparisons, holm([compared.metrics[name].p_value for compared in comparisons.values()])))
            for name in first.names
        }
        pairs = [pair_json(runs[i][0], runs[j][0], compared, {name: adjusted[name][(i, j)] for name in first.names})
                 for (i, j), compared in comparisons.items()]
        if len(runs) == 2:
            report["comparison"] = pairs[0]
        overlap = [_overlap_json(runs[i], runs[j]) for i, j in comparisons]
        warnings = report.pop("warnings")
        report.update(correction="holm", comparisons=pairs, overlap=overlap, warnings=warnings)
    return report, comparisons


def beaten(report, alpha: float = None) -> dict:
    """For each measure, the runs each run beats: ``{measure: [[j, …] for run i]}`` — run ``i`` beats run
    ``j`` when its mean is higher and the pair's Holm-adjusted p-value is below ``alpha``
    (:data:`ALPHA`), as ranx's tables mark a run with the letters of those it beats.

    >>> report = {"measures": ["P@1"], "runs": [{"mean": {"P@1": 0.2}}, {"mean": {"P@1": 0.6}}, {"mean": {"P@1": 0.5}}],
    ...           "comparisons": [{"metrics": {"P@1": {"mean_delta": 0.4, "p_value_adjusted": 0.01}}},
    ...                           {"metrics": {"P@1": {"mean_delta": 0.3, "p_value_adjusted": 0.2}}},
    ...                           {"metrics": {"P@1": {"mean_delta": -0.1, "p_value_adjusted": 0.5}}}]}
    >>> beaten(report)
    {'P@1': [[], [0], []]}
    """
    alpha = ALPHA if alpha is None else alpha
    count = len(report["runs"])
    pairs = [(i, j) for i in range(count) for j in range(i + 1, count)]
    found = {}
    for name in report["measures"]:
        wins = [[] for _ in range(count)]
        for (i, j), pair in zip(pairs, report.get("comparisons", [])):
            result = pair["metrics"][name]
            if result["p_value_adjusted"] < alpha and result["mean_delta"] != 0:
                winner, loser = (j, i) if result["mean_delta"] > 0 else (i, j)
                wins[winner].append(loser)
        found[name] = [sorted(beaten_runs) for beaten_runs in wins]
    return found


def _overlap_json(baseline, candidate) -> dict:
    """How different two runs' rankings are, without judgments: mean Jaccard@10 and RBO_ext (p = 0.9, top
    100) over the queries both answer that the qrels judge (their rankings as the evaluator kept them)."""
    found = mean_ranked_overlap(baseline[1].top, candidate[1].top)
    return {"baseline": baseline[0], "candidate": candidate[0], "queries": found.queries,
            f"jaccard@{JACCARD_K}": found.jaccard, "rbo": found.rbo}


def pair_json(baseline, candidate, comparison, adjusted) -> dict:
    """One pair of runs compared, as the report's JSON gives it (``adjusted``: measure -> Holm's p)."""
    return {
        "baseline": baseline,
        "candidate": candidate,
        "queries": len(comparison.queries),
        "test": TEST_NAME,
        "permutations": comparison.permutations,
        "seed": comparison.seed,
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
                "p_value_adjusted": adjusted[name],
                "p_value_exact": result.p_value_exact,
                "p_value_se": result.p_value_se,
                "per_query": result.deltas,
            }
            for name, result in comparison.metrics.items()
        },
    }
