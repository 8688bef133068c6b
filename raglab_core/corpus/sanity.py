"""Warnings on a chunking sweep, said before any conclusion (as :mod:`raglab_core.runs.sanity` does for runs).

* ``spans_unknown_document``: evidence spans naming a document that is not in the corpus: left out of every
  measure (:func:`~raglab_core.corpus.evaluate.prepare`), counted by document.
* ``queries_without_evidence``: queries with no evidence span: the evidence measures leave them out.
* ``queries_retrieve_nothing``: more than half of the queries share no token with the corpus, so
  BM25 retrieves nothing for them: a tokenizer or language mismatch, or the wrong queries file.
* ``config_low_ceiling``: a configuration whose ceiling (the share of evidence spans that lie whole
  in some chunk, before any retrieval) is below 0.5: most evidence is cut by its chunk borders.

Each is a :class:`~raglab_core.notices.Notice`, worded in English or Spanish from
:data:`raglab_core.messages.MESSAGES`.

>>> from raglab_core.corpus.documents import Document
>>> from raglab_core.corpus.evaluate import prepare
>>> prepared = prepare({"d": Document("d", "uno dos tres")}, {"q1": "uno", "q2": "cuatro", "q3": "cinco"})
>>> [notice.code for notice in sweep_warnings(prepared, [])]
['queries_retrieve_nothing']
"""

from ..notices import EXAMPLES, Notice

LOW_CEILING = 0.5
"""A configuration whose mean ceiling is below this is warned about."""


def sweep_warnings(prepared, results) -> list:
    """The :class:`Notice` s for a corpus ``prepared`` and its configurations' ``results`` (Evaluations)."""
    notices = []
    total = len(prepared.queries)
    if prepared.outside:
        left = sum(prepared.outside.values())
        notices.append(Notice("spans_unknown_document", {"run": None,
            "count": len(prepared.outside), "examples": list(prepared.outside)[:EXAMPLES], "spans": left,
            "total": left + sum(map(len, prepared.evidence.values()))}))
    if prepared.evidence:
        missing = sorted(qid for qid in prepared.queries if qid not in prepared.evidence)
        if missing:
            notices.append(Notice("queries_without_evidence",
                                  {"run": None, "count": len(missing), "total": total, "examples": missing[:EXAMPLES]}))
    empty = sorted(qid for qid, terms in prepared.terms.items() if not terms)
    if total and len(empty) * 2 > total:
        notices.append(Notice("queries_retrieve_nothing",
                              {"run": None, "count": len(empty), "total": total, "examples": empty[:EXAMPLES]}))
    for result in results:
        ceiling = result.mean.get("Ceiling")
        if ceiling is not None and ceiling < LOW_CEILING:
            notices.append(Notice("config_low_ceiling", {"run": result.name, "fraction": ceiling, "limit": LOW_CEILING}))
    return notices
