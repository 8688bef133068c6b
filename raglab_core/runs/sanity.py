"""Sanity warnings on evaluated runs: the classic mistakes, said before any conclusion is drawn.

Every check reads what :class:`raglab_core.runs.evaluation.RunEvaluator` gathered
while it scored the queries (and the per-query values themselves): nothing
here reads a file again. A warning changes no value: the command line still
exits with 0 and prints the same numbers, the page shows the same tables.

Each is a :class:`raglab_core.notices.Notice`: a stable snake_case ``code``, and parameters, the first
the run it concerns (``run``, ``None`` for the qrels); :meth:`~raglab_core.notices.Notice.render` words it in
English (the command line: stderr, and ``--json``'s top-level
``"warnings"``) or Spanish (the page's ``<ul data-output="data-warnings">``).

* ``run_none_judged``: none of the documents a run ranks, in the queries it
  shares with the qrels, is judged (ids in another case, or with another
  prefix, than the qrels'): an example id from each file.
* ``run_low_judged``: the run's mean Judged@10 is below :data:`LOW_JUDGED` (0.5): most of its top
  10 is unjudged, and unjudged documents count as not relevant.
* ``queries_missing_from_run``: qrels queries the run does not answer, and
  how the ``complete`` choice counts them.
* ``query_id_retrieved``: a run query retrieves a document whose id is the
  query's own (ArguAna in BEIR: beir-cellar/beir PR #91). Kept, not filtered.
* ``run_scores_tied``: in most of the queries the run answers with two
  documents or more (worded ``run_scores_tied_all`` when in every one), all its scores
  tie, so trec_eval's rule orders them by document id, descending
  (:func:`~raglab_core.runs.evaluation.trec_order`), whatever order the file
  gives: the measures describe that arbitrary order.
* ``run_shallow``: the run's median depth (documents per evaluated query;
  worded ``run_shallow_uniform`` when every query has the same) is less than some
  measures' cut-off (R@100 on runs of 20 documents per query): those
  measures find nothing below its last document. Not a warning on the
  comparison (two runs equally shallow compare fairly), only on those measures.
* ``comment_lines``: lines of the qrels or a run that start with ``#`` were
  skipped as comments (trec_eval reads them as data: ``#303`` is a query id
  to it), with the first as the example. Said once per file.
* ``queries_without_relevant``: evaluated queries with no judged document at
  a measure's threshold, for which R, R_cap, AP or nDCG is undefined (the means
  count them as 0, as trec_eval does).

>>> from raglab_core.runs.evaluation import evaluate_run
>>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 0}, "q3": {"d3": 1}}
>>> result = evaluate_run(qrels, {"q1": {"D1": 1.0, "q1": 0.5}, "q2": {"D2": 1.0}}, ["nDCG@2"])
>>> [notice.code for notice in run_warnings([("run.txt", result)])]
['run_none_judged', 'queries_missing_from_run', 'query_id_retrieved', 'queries_without_relevant']
>>> print(run_warnings([("run.txt", result)])[0].render("en"))
run.txt: none of the documents it ranks in the 2 queries it shares with the qrels is judged, so every measure is 0. Check the ids' case and prefixes: the run has 'D1' (query 'q1'), the qrels 'd1'.
"""

from ..notices import EXAMPLES, Notice
from ..warning_messages import LOW_JUDGED


def missing_note(notice: Notice, language: str = "es") -> str:
    """For ``queries_missing_from_run``, the short note shown next to the choice that decides how they count.

    >>> missing_note(Notice("queries_missing_from_run", {"run": "r.txt", "count": 20, "total": 40, "examples": [],
    ...                                                  "complete": False}))
    'En la última evaluación, a «r.txt» le faltan 20 consultas de los qrels (de 40 en total).'
    """
    params = notice.params
    return Notice("missing_note", {"run": params["run"], "count": params["count"], "total": params["total"]}).render(
        language
    )


def run_warnings(runs) -> list:
    """The warnings on ``runs`` (``[(name, RunEvaluation)]``), run by run, then the qrels'."""
    notices, said = [], set()
    for name, result in runs:
        for role, file, count, line, text in result.comments:
            if file not in said:
                said.add(file)
                notices.append(Notice("comment_lines", {
                    "run": name if role == "run" else None, "file": file, "count": count, "line": line, "text": _shown_line(text)}))
        evaluated = len(result.per_query) - (len(result.not_in_run) if result.complete else 0)
        if not result.any_judged and result.example:
            notices.append(Notice("run_none_judged", {"run": name, "queries": evaluated, "example": list(result.example)}))
        elif result.judged_at_10 is not None and result.judged_at_10 < LOW_JUDGED:
            notices.append(Notice("run_low_judged", {"run": name, "value": result.judged_at_10}))
        if result.not_in_run:
            missing = list(result.not_in_run)
            notices.append(Notice("queries_missing_from_run", {
                "run": name, "count": len(missing), "total": result.qrels_queries, "examples": missing[:EXAMPLES],
                "complete": result.complete,
            }))
        if result.self_retrieved:
            hits = list(result.self_retrieved)
            notices.append(Notice("query_id_retrieved", {"run": name, "count": len(hits), "examples": hits[:EXAMPLES]}))
        notices += _order_notices(name, result)
    notices += _without_relevant_notices(runs)
    return notices


def _shown_line(text: str, limit: int = 60) -> str:
    """A line of a file as a warning quotes it: cut to ``limit`` characters.

    >>> _shown_line("#303 Q0 d1 1 1.0 x"), len(_shown_line("#" * 100))
    ('#303 Q0 d1 1 1.0 x', 60)
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _order_notices(name, result):
    """The run's scores all tied in most of its queries; the run shallower than some measures' cut-off."""
    notices = []
    ranked = sum(depth > 1 for depth in result.depths)  # the queries where an order can tie
    if result.tied and 2 * len(result.tied) > ranked:
        tied = list(result.tied)
        notices.append(Notice("run_scores_tied", {"run": name, "count": len(tied), "total": ranked, "examples": tied[:EXAMPLES]}))
    typical, deepest = result.depth
    beyond = [str(measure) for measure in result.measures if typical and (measure.cutoff or 0) > typical]
    if beyond:
        notices.append(Notice("run_shallow", {"run": name, "typical": typical, "deepest": deepest, "measures": beyond}))
    return notices


def _without_relevant_notices(runs):
    """Queries for which a measure is undefined for lack of relevant judgments, one notice per threshold."""
    first = runs[0][1]
    evaluated = sorted(set().union(*(result.per_query for _, result in runs)))
    by_rel = {}  # rel -> (measure names, qids undefined)
    for index, measure in enumerate(first.measures):
        if not measure.undefined_without_relevant:  # the registry says which (raglab_core.runs.measures)
            continue
        rel = measure.rel  # nDCG takes no rel: 1, undefined without a positive grade
        undefined = {qid for _, result in runs for qid, values in result.per_query.items() if values[index] is None}
        names, qids = by_rel.setdefault(rel, ([], set()))
        names.append(str(measure))
        qids |= undefined
    notices = []
    for rel, (names, qids) in sorted(by_rel.items()):
        if qids:
            qids = sorted(qids)
            notices.append(Notice("queries_without_relevant", {
                "run": None, "rel": rel, "measures": names, "count": len(qids), "total": len(evaluated), "examples": qids[:EXAMPLES],
            }))
    return notices
