"""Sanity warnings on evaluated runs: the classic mistakes, said before any conclusion is drawn.

Every check reads what :class:`raglab_core.evaluation.RunEvaluator` gathered
while it scored the queries (and the per-query values themselves): nothing
here reads a file again. A warning changes no value: the command line still
exits with 0 and prints the same numbers, the page shows the same tables.

Each :class:`Notice` has a stable snake_case ``code``, the run it concerns
(``None`` for the qrels), and parameters; :meth:`Notice.render` words it in
English (the command line: stderr, and ``--json``'s top-level
``"warnings"``) or Spanish (the page's ``<ul data-output="data-warnings">``).

* ``run_none_judged``: none of the documents a run ranks, in the queries it
  shares with the qrels, is judged (ids in another case, or with another
  prefix, than the qrels'): an example id from each file.
* ``run_low_judged``: the run's mean Judged@10 is below 0.5: most of its top
  10 is unjudged, and unjudged documents count as not relevant.
* ``queries_missing_from_run``: qrels queries the run does not answer, and
  how the ``complete`` choice counts them.
* ``query_id_retrieved``: a run query retrieves a document whose id is the
  query's own (ArguAna in BEIR: beir-cellar/beir PR #91). Kept, not filtered.
* ``queries_without_relevant``: evaluated queries with no judged document at
  a measure's threshold, for which R, AP or nDCG is undefined (the means
  count them as 0, as trec_eval does).

>>> from raglab_core.evaluation import evaluate_run
>>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 0}, "q3": {"d3": 1}}
>>> result = evaluate_run(qrels, {"q1": {"D1": 1.0, "q1": 0.5}, "q2": {"D2": 1.0}}, ["nDCG@10"])
>>> [notice.code for notice in run_warnings([("run.txt", result)])]
['run_none_judged', 'queries_missing_from_run', 'query_id_retrieved', 'queries_without_relevant']
>>> print(run_warnings([("run.txt", result)])[0].render("en"))
run.txt: none of the documents it ranks in the 2 queries it shares with the qrels is judged, so every measure is 0. Check the ids' case and prefixes: the run has 'D1' (query 'q1'), the qrels 'd1'.
"""

from typing import NamedTuple

from .formatting import count, decimal, integer, spanish_list

LOW_JUDGED = 0.5
"""Mean Judged@10 below this is warned about."""
EXAMPLES = 5
"""Query ids given as examples in a warning."""
UNDEFINED_WHEN_NO_RELEVANT = ("R", "AP", "nDCG")
"""Measure families undefined for a query with no relevant judgment (nDCG: none with a positive grade)."""


def _examples(qids, language):
    shown = list(qids[:EXAMPLES])
    more = len(qids) > EXAMPLES
    if language == "en":
        return ", ".join(shown) + (", …" if more else "")
    return ", ".join(f"«{qid}»" for qid in shown) + (", …" if more else "")


def _queries(n, language):
    if language == "en":
        return f"{n:,} quer{'y' if n == 1 else 'ies'}"
    return count(n, "consulta")


def _english_list(items):
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _none_judged(p, language):
    qid, docid, judged = p["example"]
    if language == "en":
        return (
            f"{p['run']}: none of the documents it ranks in the {_queries(p['queries'], 'en')} it shares with the "
            f"qrels is judged, so every measure is 0. Check the ids' case and prefixes: the run has {docid!r} "
            f"(query {qid!r}), the qrels {judged!r}."
        )
    shares = "la consulta que comparte" if p["queries"] == 1 else f"las {integer(p['queries'])} consultas que comparte"
    return (
        f"«{p['run']}»: ninguno de los documentos que ordena en {shares} con los qrels está juzgado, así que "
        f"todas sus medidas valen 0. Revisa las mayúsculas y los prefijos de los identificadores: el run tiene "
        f"«{docid}» (consulta «{qid}») y los qrels, «{judged}»."
    )


def _low_judged(p, language):
    if language == "en":
        return (
            f"{p['run']}: mean Judged@10 is {p['value']:.3f}, below {LOW_JUDGED}: most of its top 10 is unjudged, "
            "and unjudged documents count as not relevant, so its measures may be underestimated."
        )
    return (
        f"«{p['run']}»: su Judged@10 medio es {decimal(p['value'])}, menos de {decimal(LOW_JUDGED, 1)}: la mayor "
        "parte de sus 10 primeros documentos no está juzgada y un documento sin juzgar cuenta como no relevante, "
        "así que sus medidas pueden quedarse cortas."
    )


def _missing(p, language):
    n, total = p["count"], p["total"]
    if language == "en":
        they = "it" if n == 1 else "they"
        done = (
            f"{they} score{'s' if n == 1 else ''} 0 (--complete)" if p["complete"]
            else f"{they} {'is' if n == 1 else 'are'} left out of its means (--complete scores "
            f"{'it' if n == 1 else 'them'} 0, as trec_eval -c)"
        )
        return (
            f"{p['run']}: {n:,} of the {_queries(total, 'en')} in the qrels {'is' if n == 1 else 'are'} not in the run "
            f"({_examples(p['examples'], 'en')}); {done}."
        )
    one = n == 1
    done = (
        f"cuenta{'' if one else 'n'} como 0 (casilla «Contar como 0 las consultas que falten»)" if p["complete"]
        else f"queda{'' if one else 'n'} fuera de sus medias (la casilla «Contar como 0 las consultas que falten» "
        f"la{'' if one else 's'} puntúa con 0, como trec_eval -c)"
    )
    of = f"{integer(n)} de {'la consulta' if total == 1 else f'las {integer(total)} consultas'} de los qrels"
    return f"«{p['run']}»: {of} no está{'' if one else 'n'} en el run ({_examples(p['examples'], 'es')}); {done}."


def _self_retrieved(p, language):
    n = p["count"]
    if language == "en":
        return (
            f"{p['run']}: in {_queries(n, 'en')} ({_examples(p['examples'], 'en')}) the run retrieves a document whose "
            "id is the query's own. If queries and documents share ids (as in BEIR's ArguAna), such self-matches "
            "change the measures; they are kept, not filtered."
        )
    return (
        f"«{p['run']}»: en {count(n, 'consulta')} ({_examples(p['examples'], 'es')}) el run recupera un documento con "
        "el mismo identificador que la consulta. Si consultas y documentos comparten identificadores (como en "
        "ArguAna, de BEIR), esas coincidencias cambian las medidas; se cuentan tal cual, no se filtran."
    )


def _without_relevant(p, language):
    n, total, rel = p["count"], p["total"], p["rel"]
    if language == "en":
        return (
            f"{n:,} of the {_queries(total, 'en')} evaluated {'has' if n == 1 else 'have'} no judged document with "
            f"a grade >= {rel} ({_examples(p['examples'], 'en')}), so {_english_list(p['measures'])} "
            f"{'is' if len(p['measures']) == 1 else 'are'} undefined for {'it' if n == 1 else 'them'}: "
            f"the means count {'it' if n == 1 else 'them'} as 0, as trec_eval does."
        )
    one = n == 1
    of = f"{integer(n)} de {'la consulta evaluada' if total == 1 else f'las {integer(total)} consultas evaluadas'}"
    defined = "no está definido" if len(p["measures"]) == 1 else "no están definidos"
    return (
        f"{of} no tiene{'' if one else 'n'} ningún documento juzgado con grado ≥ {rel} "
        f"({_examples(p['examples'], 'es')}), así que {spanish_list(p['measures'])} {defined} para "
        f"{'ella' if one else 'ellas'}: las medias la{'' if one else 's'} cuentan como 0, como trec_eval."
    )


_WORDING = {
    "run_none_judged": _none_judged,
    "run_low_judged": _low_judged,
    "queries_missing_from_run": _missing,
    "query_id_retrieved": _self_retrieved,
    "queries_without_relevant": _without_relevant,
}


class Notice(NamedTuple):
    """One warning: its ``code`` (a key of :data:`_WORDING`), the ``run`` it concerns (``None``: the qrels)
    and the ``params`` its message is worded from."""

    code: str
    run: str | None
    params: dict

    def render(self, language: str = "es") -> str:
        """The warning in ``"en"`` or ``"es"``."""
        return _WORDING[self.code]({"run": self.run, **self.params}, language)

    def as_json(self) -> dict:
        """The command line's JSON: ``{"code", "message" (English), "run", …params}``."""
        return {"code": self.code, "message": self.render("en"), "run": self.run, **self.params}


def run_warnings(runs) -> list:
    """The warnings on ``runs`` (``[(name, RunEvaluation)]``), run by run, then the qrels'."""
    notices = []
    for name, result in runs:
        evaluated = len(result.per_query) - (len(result.not_in_run) if result.complete else 0)
        if not result.any_judged and result.example:
            notices.append(Notice("run_none_judged", name, {"queries": evaluated, "example": list(result.example)}))
        elif result.judged_at_10 is not None and result.judged_at_10 < LOW_JUDGED:
            notices.append(Notice("run_low_judged", name, {"value": result.judged_at_10}))
        if result.not_in_run:
            missing = list(result.not_in_run)
            notices.append(Notice("queries_missing_from_run", name, {
                "count": len(missing), "total": result.qrels_queries, "examples": missing[:EXAMPLES],
                "complete": result.complete,
            }))
        if result.self_retrieved:
            hits = list(result.self_retrieved)
            notices.append(Notice("query_id_retrieved", name, {"count": len(hits), "examples": hits[:EXAMPLES]}))
    notices += _without_relevant_notices(runs)
    return notices


def _without_relevant_notices(runs):
    """Queries for which a measure is undefined for lack of relevant judgments, one notice per threshold."""
    first = runs[0][1]
    evaluated = sorted(set().union(*(result.per_query for _, result in runs)))
    by_rel = {}  # rel -> (measure names, qids undefined)
    for index, measure in enumerate(first.measures):
        if measure.family not in UNDEFINED_WHEN_NO_RELEVANT:
            continue
        rel = 1 if measure.family == "nDCG" else measure.rel  # nDCG: undefined without a positive grade
        undefined = {qid for _, result in runs for qid, values in result.per_query.items() if values[index] is None}
        names, qids = by_rel.setdefault(rel, ([], set()))
        names.append(str(measure))
        qids |= undefined
    notices = []
    for rel, (names, qids) in sorted(by_rel.items()):
        if qids:
            qids = sorted(qids)
            notices.append(Notice("queries_without_relevant", None, {
                "rel": rel, "measures": names, "count": len(qids), "total": len(evaluated), "examples": qids[:EXAMPLES],
            }))
    return notices
