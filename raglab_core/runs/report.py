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
from .comparison import compare_runs
from .evaluation import evaluate_run  # noqa: F401 (the doctest)
from .sanity import run_warnings
from .statistics import INTERVAL_NAME, PERMUTATIONS, SEED, TEST_NAME

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

    ``warnings``: :func:`raglab_core.runs.sanity.run_warnings`, which change no value.

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
