"""The whole lab view from the page's state: ``compute(state) -> view``.

``state`` is a dict: ``"scenario"`` (see :mod:`raglab_core.lab.scenario`), the raw
value of each control by its form name (``k``, ``umbral``, ``rerank``,
``total``, ``docs``, ``tokens_doc``, ``chunk``, ``solape``, ``evidencia``,
``posicion``: strings as typed
or numbers; a missing one takes the scenario's default), optionally
``grades`` (the edited grades in first-stage order: a list, or a string of
comma-separated ints, as in the URL) and optionally ``edited``: the names of
the controls the user has changed, in order, most recent last.

The judgments model (DESIGN §4.1): the scenario's ranked ``documents`` and its
``unretrieved`` documents are all the judgments of the query. IDCG@k sorts
all of their grades; ``total`` (recall's denominator), when the state leaves
it out, is the number of judged documents whose grade reaches ``umbral``
and follows it. A total the user set may exceed that count (relevant
documents nobody judged); one below it is an error only when ``total`` is
the field the user changed last among ``total``, ``umbral`` and ``grades``,
and is otherwise raised to the judged count (the reading says so). In the
same way a solape not below the chunk size is reported on whichever of the
two the user changed last (on ``solape`` when neither): a field the user did
not touch never carries an error.

The view is plain JSON data::

    {"controls": {name: {"value": int | None, "error": str | None}, ...,
                  "total": {..., "set": bool, "raised_from": int | None},
                  "grades": {"value": [int | None, ...], "error": str | None}},
     "outputs": {name: {"value": number | None, "raw": str, "text": str,
                        "note": str | None}, ...},   # the cards, the readings, DCG/IDCG and their sentences
     "ranking": [row, ...],                  # displayed order, see _ranking_rows
     "unretrieved": [row, ...],              # judged, never retrieved, see _unretrieved_rows
     "breakdown": [row, ...],                # gain, discount, contribution per rank (.breakdown)
     "conventions": [row, ...],              # the conventions panel (.conventions.rows)
     "chunk_windows": {...},                 # one document's windows and the evidence, drawn (.strip)
     "announcements": {"metrics": str, "chunking": str}}

``raw`` is the number as a decimal string for ``data-value`` ("" when
undefined); ``text`` is its Spanish rendering ("—" when undefined, with the
reason in ``note``, given once per panel). A bad control never blanks the
outputs that do not depend on it.

This module assembles the view: the numbers (from :mod:`raglab_core.metrics`,
:mod:`raglab_core.chunking` and :mod:`raglab_core.evidence`), the ranking rows,
the breakdown, the strip and the conventions. Reading and settling the controls
lives in :mod:`raglab_core.lab.controls`. Its sentences are written where they
are read: the panels' readings, notes and live-region summaries in
:mod:`raglab_core.lab.ranking_reading` and :mod:`raglab_core.lab.chunking_reading`,
the breakdown's in :mod:`raglab_core.lab.breakdown`, the conventions' in
:mod:`raglab_core.lab.conventions`; the page's own words (status line, boot) in
:mod:`raglab_core.words`.
"""

from .. import chunking, evidence, metrics
from ..errors import LabError
from ..formatting import DASH, count, decimal, integer, percent
from . import chunking_reading, conventions, ranking_reading
from .breakdown import breakdown, breakdown_texts
from ..words import UNJUDGED_LABEL
from .controls import CHUNKING_INPUTS, EVIDENCE_INPUTS, edited_names, grade_token, invalid_labels, read_controls
from .reranking import rerank_prefix
from .scenario import validate_scenario
from .strip import GEOMETRY, chunk_windows


def compute(state) -> dict:
    """Return the lab view for ``state``; raise ``LabError`` only for a bad scenario or state shape.

    >>> docs = [{"id": f"d{i}", "title": f"Doc {i}", "grade": g, "first_stage_score": 1 - i / 10,
    ...          "reranker_score": i / 10} for i, g in enumerate([0, 2, 3])]
    >>> scenario = {"query": "q", "grade_labels": ["0", "1", "2", "3"], "documents": docs,
    ...             "unretrieved": [{"id": "x", "title": "Nunca recuperado", "grade": 2}],
    ...             "defaults": {"k": 2, "umbral": 2, "rerank": 0,
    ...                          "docs": 1, "tokens_doc": 100, "chunk": 50, "solape": 10, "evidencia": 20}}
    >>> view = compute({"scenario": scenario, "solape": "60"})
    >>> view["outputs"]["precision"]["text"], view["outputs"]["precision"]["raw"]
    ('0,500', '0.5')
    >>> view["controls"]["total"]["value"], view["outputs"]["recall"]["text"]   # 1 of the 3 judged relevant
    (3, '0,333')
    >>> view["controls"]["solape"]["error"], view["outputs"]["stride"]["text"]
    ('Debe ser menor que el tamaño del chunk.', '—')
    >>> compute({"scenario": scenario, "solape": "60", "edited": ["chunk"]})["controls"]["chunk"]["error"]
    'Debe ser mayor que el solape (60 tokens).'
    """
    if not isinstance(state, dict):
        raise LabError.page("El estado debe ser un objeto JSON.", field=None)
    scenario = validate_scenario(state.get("scenario"))
    documents = scenario["documents"]
    edited = edited_names(state.get("edited"))
    controls, values = read_controls(state, scenario, edited)
    grades = controls["grades"]["value"]
    judged = metrics.condensed(grades) + [doc["grade"] for doc in scenario.get("unretrieved", [])]

    order = rerank_prefix([doc["reranker_score"] for doc in documents], values["rerank"] or 0)
    ranked = [grades[i] for i in order]
    outputs = {}
    outputs.update(_metric_outputs(ranked, judged, values, controls["total"]))
    fp = _footprint(values)
    outputs.update(_chunking_outputs(values, fp))
    ev = _evidence(values)
    outputs.update(_evidence_outputs(values, fp, ev))
    outputs["metrics_reading"] = _text_output(
        ranking_reading.metrics_reading(scenario, grades, judged, order, values=values,
                                        total_control=controls["total"], outputs=outputs)
    )
    outputs["chunking_reading"] = _text_output(chunking_reading.chunking_reading(values, outputs, fp, ev))
    rows = _ranking_rows(scenario, grades, order, values)
    arithmetic = breakdown(ranked, judged, values["k"], values["umbral"], [row["id"] for row in rows])
    outputs.update(_breakdown_outputs(arithmetic, values, outputs))
    convention_rows = conventions.rows(ranked, judged, values, outputs)
    outputs["conventions_reading"] = _text_output(conventions.reading(ranked, convention_rows, values, outputs))
    return {
        "controls": controls,
        "outputs": outputs,
        "ranking": rows,
        "unretrieved": _unretrieved_rows(scenario, values),
        "breakdown": _breakdown_rows(arithmetic, values),
        "conventions": convention_rows,
        "chunk_windows": _windows(values, controls["posicion"]),
        "announcements": ranking_reading.announcements(values, outputs),
    }


def default_state(scenario) -> dict:
    """The state the page starts in: the scenario and its defaults."""
    return {"scenario": scenario, **scenario["defaults"]}


def check_defaults(scenario) -> None:
    """Raise ``LabError`` if a default of ``scenario`` breaks the form's own rules."""
    view = compute({"scenario": scenario})
    for name, control in view["controls"].items():
        if control["error"]:
            raise LabError.page(control["error"], field=f"scenario.defaults.{name}")


# --- outputs ------------------------------------------------------------------------------


def _number_output(value, text: str) -> dict:
    return {"value": value, "raw": repr(value), "text": text, "note": None}


def _undefined(note: str) -> dict:
    return {"value": None, "raw": "", "text": DASH, "note": note}


def _text_output(text: str) -> dict:
    return {"value": None, "raw": "", "text": text, "note": None}


def _metric_outputs(ranked, judged, values, total_control) -> dict:
    """Precision, Recall, MRR, nDCG and the relevant count at k of the displayed ranking.

    nDCG@k = DCG@k / IDCG@k with the ideal over ``judged``, every judged grade
    of the query (ranked and unretrieved), as trec_eval and ranx do.
    """
    k, threshold, total = values["k"], values["umbral"], values["total"]
    binary = ("k", "umbral", "rerank")
    out = {}
    note = ranking_reading.blocked_note(binary, values)
    if note:
        for name in ("precision", "mrr", "relevant_in_k"):
            out[name] = _undefined(note)
    else:
        found = metrics.relevant_within_k(ranked, k, threshold)
        out["relevant_in_k"] = _number_output(found, f"{found} de {k}")
        precision = metrics.precision_at_k(ranked, k, threshold)
        out["precision"] = _number_output(precision, decimal(precision))
        mrr = metrics.mrr_at_k(ranked, k, threshold)
        out["mrr"] = _number_output(mrr, decimal(mrr))

    # A total that follows an invalid threshold is not wrong itself: only the threshold is named.
    note = ranking_reading.blocked_note(binary + (("total",) if total_control["error"] else ()), values)
    if note:
        out["recall"] = _undefined(note)
    else:
        recall = metrics.recall_at_k(ranked, k, threshold, total)
        if recall is None:
            out["recall"] = _undefined(ranking_reading.RECALL_UNDEFINED)
        else:
            out["recall"] = _number_output(recall, decimal(recall))

    note = ranking_reading.blocked_note(("k", "rerank"), values)
    if note:
        out["ndcg"] = _undefined(note)
    else:
        ndcg = metrics.ndcg_at_k(ranked, k, judgments=judged)
        if ndcg is None:
            out["ndcg"] = _undefined(ranking_reading.NDCG_UNDEFINED)
        else:
            out["ndcg"] = _number_output(ndcg, decimal(ndcg))
    return out


def _breakdown_outputs(arithmetic, values, outputs) -> dict:
    """DCG@k, IDCG@k, the ideal order, nDCG as the division with the page's numbers, and MRR's rank."""
    k = values["k"]
    out = {}
    note = ranking_reading.blocked_note(("k", "rerank"), values)
    out["dcg"] = _undefined(note) if note else _number_output(arithmetic["dcg"], decimal(arithmetic["dcg"]))
    note = ranking_reading.blocked_note(("k",), values)
    out["idcg"] = _undefined(note) if note else _number_output(arithmetic["idcg"], decimal(arithmetic["idcg"]))
    out["ideal_order"] = _text_output(ranking_reading.ideal_order(k, arithmetic["ideal"], values))
    out["ndcg_division"] = _text_output(ranking_reading.ndcg_division(k, out["dcg"], out["idcg"], outputs["ndcg"]))
    out["mrr_rank"] = _text_output(ranking_reading.mrr_rank(k, arithmetic["first_relevant"], outputs["mrr"]))
    return out


def _breakdown_rows(arithmetic, values) -> list[dict]:
    """The breakdown's rows with their Spanish cells; only dashes while nDCG@k is refused (k or rerank invalid):
    the table shows no number that the cards do not."""
    refused = invalid_labels(("k", "rerank"), values)
    rows = []
    for row in arithmetic["rows"]:
        texts = breakdown_texts(row, arithmetic["first_relevant"], values["umbral"])
        if refused:
            texts = dict.fromkeys(texts, DASH)
        rows.append({**row, **texts, "first": not refused and row["rank"] == arithmetic["first_relevant"]})
    return rows


def _windows(values, position: dict) -> dict:
    """The chunk-window strip of one document, or no windows while a chunking control is invalid.

    Settles ``position`` (the ``posicion`` control) on the way: the evidence's
    start as drawn (clamped to the strip, or across the first border), its
    range and its words for screen readers.
    """
    text = chunking_reading.no_windows(values)
    position.update(min=0, max=0, valuetext="")
    if text:
        position["value"] = None
        return {"windows": None, "shown": [], "more": 0, "text": text, "span": 0, "whole": True, "evidence": None,
                "geometry": GEOMETRY, "height": 0, "stride_mark": [0, 0], "scale": "", "doc_legend": "el documento"}
    windows = chunk_windows(values["tokens_doc"], values["chunk"], values["solape"], values["evidencia"],
                            values["posicion"])
    marks = windows["evidence"]
    if marks:
        position.update(value=marks["start"], max=marks["max"], valuetext=chunking_reading.evidence_valuetext(marks))
    else:
        position["value"] = None
    windows["text"] = chunking_reading.windows_text(windows)
    windows["scale"] = chunking_reading.strip_scale(windows)
    windows["doc_legend"] = chunking_reading.doc_legend(windows)
    return windows


def _footprint(values):
    """The corpus's :class:`~raglab_core.chunking.Footprint`, or None while one of its controls is invalid."""
    if invalid_labels(CHUNKING_INPUTS, values):
        return None
    return chunking.footprint(*(values[name] for name in CHUNKING_INPUTS))


def _evidence(values) -> dict | None:
    """Evidence of ``evidencia`` tokens against the cut of one document (exact fractions), or None while blocked.

    ``containment``, ``holding`` and ``touching`` are :class:`fractions.Fraction`
    (None when the evidence is longer than the document); ``min_overlap`` the
    smallest overlap that always keeps it whole (None when none does).
    """
    if invalid_labels(EVIDENCE_INPUTS, values):
        return None
    tokens, chunk, overlap, length = (values[name] for name in EVIDENCE_INPUTS)
    found = evidence.evidence(tokens, chunk, overlap, length)
    return {
        "containment": found and found.containment,
        "holding": found and found.windows_holding,
        "touching": found and found.windows_touching,
        "min_overlap": evidence.min_overlap_whole(tokens, chunk, length),
    }


def _evidence_outputs(values, fp, ev) -> dict:
    """DESIGN §4.5's outputs: containment, windows holding and touching, the minimum overlap and its price."""
    names = ("containment", "windows_holding", "windows_touching", "min_overlap_whole", "indexed_tokens_whole")
    note = ranking_reading.blocked_note(EVIDENCE_INPUTS, values)
    if note:
        return {name: _undefined(note) for name in names}
    out = {}
    if ev["containment"] is None:  # longer than the document: every card says why, and so does the reading
        return {name: _undefined(chunking_reading.longer_than_document(values["evidencia"], values["tokens_doc"])) for name in names}
    out["containment"] = _number_output(float(ev["containment"]), chunking_reading.share(ev["containment"]))
    out["windows_holding"] = _number_output(float(ev["holding"]), decimal(float(ev["holding"]), 2))
    out["windows_touching"] = _number_output(float(ev["touching"]), decimal(float(ev["touching"]), 2))
    minimum = ev["min_overlap"]
    if minimum is None:
        out["min_overlap_whole"] = _undefined(chunking_reading.longer_than_chunk(values["evidencia"], values["chunk"]))
        out["indexed_tokens_whole"] = _undefined(out["min_overlap_whole"]["note"])
        return out
    out["min_overlap_whole"] = _number_output(minimum, count(minimum, "token"))
    if values["docs"] is None:
        out["indexed_tokens_whole"] = _undefined(ranking_reading.blocked_note(("docs",), values))
    else:
        indexed = chunking.footprint(values["docs"], values["tokens_doc"], values["chunk"], minimum).indexed_tokens
        out["indexed_tokens_whole"] = _number_output(indexed, integer(indexed))
    return out


def _chunking_outputs(values, fp) -> dict:
    out = {}
    note = ranking_reading.blocked_note(("chunk", "solape"), values)
    if note:
        out["stride"] = _undefined(note)
    else:
        stride = chunking.stride(values["chunk"], values["solape"])
        out["stride"] = _number_output(stride, count(stride, "token"))
    note = ranking_reading.blocked_note(CHUNKING_INPUTS, values)
    if note:
        for name in ("chunks", "indexed_tokens", "duplicated_tokens", "duplication"):
            out[name] = _undefined(note)
        return out
    out["chunks"] = _number_output(fp.chunks, integer(fp.chunks))
    out["indexed_tokens"] = _number_output(fp.indexed_tokens, integer(fp.indexed_tokens))
    out["duplicated_tokens"] = _number_output(fp.duplicated_tokens, chunking_reading.duplicated_caption(fp))
    out["duplication"] = _number_output(fp.duplication, percent(fp.duplication))
    return out



# --- ranking rows -------------------------------------------------------------------------


def _ranking_rows(scenario, grades, order, values) -> list[dict]:
    """One row per document in displayed order, with the flags the page highlights.

    ``rank`` and ``first_stage_rank`` are 1-based; ``movement`` is
    ``first_stage_rank - rank`` (positive: moved up); ``flags_label`` says in
    words what the page shows with colour (for screen readers).
    """
    documents, labels = scenario["documents"], scenario["grade_labels"]
    k, threshold, depth = values["k"], values["umbral"], values["rerank"]
    rows = []
    for rank, index in enumerate(order, start=1):
        doc, grade = documents[index], grades[index]
        reranked = depth is not None and rank <= depth
        movement = index + 1 - rank
        arrow, movement_label = ranking_reading.movement(movement, reranked)
        in_k = k is not None and rank <= k
        relevant = threshold is not None and grade is not None and grade >= threshold
        cut_k, cut_rerank = rank == k, depth is not None and rank == min(depth, len(order))
        flags_label, cut_label = ranking_reading.ranking_flags(k, in_k=in_k, relevant=relevant, reranked=reranked,
                                                               cut_k=cut_k, cut_rerank=cut_rerank)
        rows.append(
            {
                "id": doc["id"],
                "title": doc["title"],
                "grade": grade,
                "grade_token": grade_token(grade),
                "grade_label": UNJUDGED_LABEL if grade is None else labels[grade],
                "rank": rank,
                "first_stage_rank": index + 1,
                "movement": movement,
                "movement_text": arrow,
                "movement_label": movement_label,
                "in_k": in_k,
                "relevant": relevant,
                "reranked": reranked,
                "flags_label": flags_label,
                "cut_k": cut_k,
                "cut_rerank": cut_rerank,
                "cut_label": cut_label,
                "first_stage_score": decimal(doc["first_stage_score"], 2),
                "reranker_score": decimal(doc["reranker_score"], 2),
            }
        )
    return rows


def _unretrieved_rows(scenario, values) -> list[dict]:
    """The judged documents the first stage never returned: ``id``, ``title``, ``grade``, ``grade_label``, ``relevant``."""
    threshold, labels = values["umbral"], scenario["grade_labels"]
    return [
        {
            "id": doc["id"],
            "title": doc["title"],
            "grade": doc["grade"],
            "grade_label": labels[doc["grade"]],
            "relevant": threshold is not None and doc["grade"] >= threshold,
        }
        for doc in scenario.get("unretrieved", [])
    ]
