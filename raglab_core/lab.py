"""The whole lab view from the page's state: ``compute(state) -> view``.

``state`` is a dict: ``"scenario"`` (see :mod:`raglab_core.scenario`), the raw
value of each control by its form name (``k``, ``umbral``, ``rerank``,
``total``, ``docs``, ``tokens_doc``, ``chunk``, ``solape``: strings as typed
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
                  "grades": {"value": [int, ...], "error": str | None}},
     "outputs": {name: {"value": number | None, "raw": str, "text": str,
                        "note": str | None}, ...},
     "ranking": [row, ...],                  # displayed order, see _ranking_rows
     "unretrieved": [row, ...],              # judged, never retrieved, see _unretrieved_rows
     "announcements": {"metrics": str, "chunking": str}}

``raw`` is the number as a decimal string for ``data-value`` ("" when
undefined); ``text`` is its Spanish rendering ("—" when undefined, with the
reason in ``note``, given once per panel). A bad control never blanks the
outputs that do not depend on it.
"""

from . import chunking, metrics
from .arithmetic import breakdown, breakdown_texts, chunk_windows, chunk_windows_text
from .controls import whole_in_range
from .errors import LabError
from .formatting import DASH, count, decimal, integer, percent, spanish_list
from .ranking import rerank_prefix
from .form import CONTROL_NAMES, MAX_GRADE, OUTPUTS, table
from .scenario import validate_scenario

#: How each control is named in Spanish messages.
CONTROL_LABELS = {
    "k": "k",
    "umbral": "el umbral",
    "rerank": "la profundidad de reranking",
    "total": "los relevantes totales",
    "docs": "los documentos",
    "tokens_doc": "los tokens por documento",
    "chunk": "el chunk size",
    "solape": "el solape",
    "grades": "los grados",
}
#: The chunking controls, in the order :func:`~raglab_core.chunking.footprint` takes them.
CHUNKING_INPUTS = ("docs", "tokens_doc", "chunk", "solape")


def compute(state) -> dict:
    """Return the lab view for ``state``; raise ``LabError`` only for a bad scenario or state shape.

    >>> docs = [{"id": f"d{i}", "title": f"Doc {i}", "grade": g, "first_stage_score": 1 - i / 10,
    ...          "reranker_score": i / 10} for i, g in enumerate([0, 2, 3])]
    >>> scenario = {"query": "q", "grade_labels": ["0", "1", "2", "3"], "documents": docs,
    ...             "unretrieved": [{"id": "x", "title": "Nunca recuperado", "grade": 2}],
    ...             "defaults": {"k": 2, "umbral": 2, "rerank": 0,
    ...                          "docs": 1, "tokens_doc": 100, "chunk": 50, "solape": 10}}
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
    edited = _edited(state.get("edited"))
    controls, values = _read_controls(state, scenario, edited)
    grades = controls["grades"]["value"]
    judged = grades + [doc["grade"] for doc in scenario.get("unretrieved", [])]

    order = rerank_prefix([doc["reranker_score"] for doc in documents], values["rerank"] or 0)
    ranked = [grades[i] for i in order]
    outputs = {}
    outputs.update(_metric_outputs(ranked, judged, values))
    fp = _footprint(values)
    outputs.update(_chunking_outputs(values, fp))
    _note_once(outputs)
    outputs["metrics_reading"] = _text_output(
        _metrics_reading(scenario, grades, judged, order, values, controls["total"], outputs)
    )
    outputs["chunking_reading"] = _text_output(_chunking_reading(values, outputs, fp))
    rows = _ranking_rows(scenario, grades, order, values)
    arithmetic = breakdown(ranked, judged, values["k"], values["umbral"], [row["id"] for row in rows])
    outputs.update(_breakdown_outputs(arithmetic, values, outputs))
    return {
        "controls": controls,
        "outputs": outputs,
        "ranking": rows,
        "unretrieved": _unretrieved_rows(scenario, values),
        "breakdown": [
            {**row, **breakdown_texts(row, arithmetic["first_relevant"], values["umbral"]),
             "first": row["rank"] == arithmetic["first_relevant"]}
            for row in arithmetic["rows"]
        ],
        "chunk_windows": _windows(values),
        "announcements": _announcements(values, outputs),
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


# --- controls -----------------------------------------------------------------------------


def _edited(raw) -> list:
    """The state's ``edited`` list, keeping only control names (anything else: no edits)."""
    if not isinstance(raw, list):
        return []
    return [name for name in raw if isinstance(name, str) and name in CONTROL_LABELS]


def _last_edited(edited, names, default=None):
    """Which of ``names`` the user changed most recently, or ``default`` if none of them."""
    return next((name for name in reversed(edited) if name in names), default)


def _read_controls(state: dict, scenario: dict, edited: list):
    """Parse every control; a bad one gets ``value None`` and its message, the rest go on."""
    n = len(scenario["documents"])
    defaults = scenario["defaults"]
    raw = {name: state.get(name, defaults.get(name)) for name in CONTROL_NAMES}
    controls, values = {}, {}

    def fail(name, message):
        controls[name] = {"value": None, "error": message}
        values[name] = None

    controls["grades"] = _read_grades(state.get("grades"), scenario)
    ranking_size = f" (el ranking tiene {n} documentos)"
    why = {"k": ranking_size, "umbral": f" (la escala de grados va de 0 a {MAX_GRADE})", "rerank": ranking_size}
    for row in table(n)["controls"]:
        name = row["name"]
        if name == "total" and raw[name] is None:  # follows the threshold: set below
            continue
        try:
            value = whole_in_range(raw[name], name, row["min"], row["max"], why.get(name, ""))
        except LabError as error:
            fail(name, str(error))
        else:
            controls[name] = {"value": value, "error": None}
            values[name] = value
    _settle_total(controls, values, raw["total"], scenario, edited)
    _settle_overlap(controls, values, edited, fail)
    return controls, values


def _settle_total(controls, values, raw_total, scenario, edited) -> None:
    """Apply §4.1 to ``total``: follow the judged count, or check or raise the user's value."""
    grades = controls["grades"]["value"] + [doc["grade"] for doc in scenario.get("unretrieved", [])]
    threshold = values["umbral"]
    judged = None if threshold is None else metrics.relevant_count(grades, threshold)
    user_set = raw_total is not None
    control = controls.get("total", {"value": judged, "error": None})
    control.update(set=user_set, raised_from=None)
    controls["total"] = control
    values["total"] = control["value"]
    if not user_set or control["error"] or judged is None or control["value"] >= judged:
        return
    if _last_edited(edited, ("total", "umbral", "grades")) == "total":
        in_ranking = metrics.relevant_count(controls["grades"]["value"], threshold)
        control.update(
            value=None,
            error=f"Debe ser al menos {judged}: hay {count(judged, 'documento juzgado', 'documentos juzgados')} "
            f"que {'alcanza' if judged == 1 else 'alcanzan'} el grado {threshold} "
            f"({in_ranking} en el ranking y {judged - in_ranking} sin recuperar).",
        )
    else:
        control.update(value=judged, raised_from=control["value"])
    values["total"] = control["value"]


def _settle_overlap(controls, values, edited, fail) -> None:
    """An overlap must be below the chunk size: the error goes on the one of the two the user changed last."""
    chunk, overlap = values["chunk"], values["solape"]
    if chunk is None or overlap is None or overlap < chunk:
        return
    if _last_edited(edited, ("chunk", "solape"), "solape") == "chunk":
        fail("chunk", f"Debe ser mayor que el solape ({count(overlap, 'token')}).")
    else:
        fail("solape", str(LabError("overlap_not_below_chunk", "solape")))


def _read_grades(raw, scenario: dict) -> dict:
    """Edited grades (list or "3,0,2,…") or the scenario's; a bad list keeps the scenario's."""
    original = [doc["grade"] for doc in scenario["documents"]]
    if raw is None:
        return {"value": original, "error": None}
    n = len(original)
    items = raw.split(",") if isinstance(raw, str) else raw
    message = (
        f"Los grados deben ser {n} enteros entre 0 y {MAX_GRADE} separados por comas, "
        "uno por documento en el orden inicial. Se muestran los grados del escenario."
    )
    if not isinstance(items, list) or len(items) != n:
        return {"value": original, "error": message}
    try:
        grades = [whole_in_range(item, "grades", 0, MAX_GRADE) for item in items]
    except LabError:
        return {"value": original, "error": message}
    return {"value": grades, "error": None}


# --- outputs ------------------------------------------------------------------------------


def _number_output(value, text: str) -> dict:
    return {"value": value, "raw": repr(value), "text": text, "note": None}


def _undefined(note: str) -> dict:
    return {"value": None, "raw": "", "text": DASH, "note": note}


def _text_output(text: str) -> dict:
    return {"value": None, "raw": "", "text": text, "note": None}


def _invalid(names, values) -> str | None:
    """The Spanish list of the invalid controls among ``names`` ("k y el umbral"), or None."""
    bad = [CONTROL_LABELS[name] for name in names if values[name] is None]
    return spanish_list(bad) if bad else None


def _blocked_by(names, values) -> str | None:
    """The note for an output that depends on an invalid control, or None."""
    bad = _invalid(names, values)
    return f"Sin calcular: corrige {bad}." if bad else None


def _note_once(outputs) -> None:
    """Keep each panel's "Sin calcular" note on its first output only: the reason is said once, nearby."""
    for panel in ("ranking", "chunking"):
        seen = set()
        for row in OUTPUTS:
            for name in (row["name"], row["companion"]):
                out = outputs.get(name)
                if row["panel"] != panel or out is None or not (out["note"] or "").startswith("Sin calcular"):
                    continue
                if out["note"] in seen:
                    out["note"] = None
                seen.add(out["note"])


def _metric_outputs(ranked, judged, values) -> dict:
    """Precision, Recall, MRR, nDCG and the relevant count at k of the displayed ranking.

    nDCG@k = DCG@k / IDCG@k with the ideal over ``judged``, every judged grade
    of the query (ranked and unretrieved), as trec_eval and ranx do.
    """
    k, threshold, total = values["k"], values["umbral"], values["total"]
    binary = ("k", "umbral", "rerank")
    out = {}
    note = _blocked_by(binary, values)
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

    note = _blocked_by(binary + ("total",), values)
    if note:
        out["recall"] = _undefined(note)
    else:
        recall = metrics.recall_at_k(ranked, k, threshold, total)
        if recall is None:
            out["recall"] = _undefined("Sin relevantes conocidos (total 0), Recall@k no está definido.")
        else:
            out["recall"] = _number_output(recall, decimal(recall))

    note = _blocked_by(("k", "rerank"), values)
    if note:
        out["ndcg"] = _undefined(note)
    else:
        ndcg = metrics.ndcg_at_k(ranked, k, judgments=judged)
        if ndcg is None:
            out["ndcg"] = _undefined("Ningún documento juzgado tiene grado mayor que 0: el DCG ideal es 0.")
        else:
            out["ndcg"] = _number_output(ndcg, decimal(ndcg))
    return out


def _breakdown_outputs(arithmetic, values, outputs) -> dict:
    """DCG@k, IDCG@k, the ideal order, nDCG as the division with the page's numbers, and MRR's rank."""
    k = values["k"]
    out = {}
    note = _blocked_by(("k", "rerank"), values)
    out["dcg"] = _undefined(note) if note else _number_output(arithmetic["dcg"], decimal(arithmetic["dcg"]))
    note = _blocked_by(("k",), values)
    if note:
        out["idcg"] = _undefined(note)
        out["ideal_order"] = _text_output(f"Sin orden ideal hasta que corrijas {_invalid(('k',), values)}.")
    else:
        out["idcg"] = _number_output(arithmetic["idcg"], decimal(arithmetic["idcg"]))
        out["ideal_order"] = _text_output(
            f"Orden ideal de todos los juicios (los {k} grados más altos): "
            + ", ".join(str(g) for g in arithmetic["ideal"]) + "."
            if k > 1 else f"Orden ideal de todos los juicios: el grado más alto, {arithmetic['ideal'][0]}."
        )
    ndcg = outputs["ndcg"]
    if out["dcg"]["value"] is None or out["idcg"]["value"] is None:
        out["ndcg_division"] = _text_output(f"nDCG@k = DCG@k / IDCG@k: {ndcg['note'] or 'sin calcular'}")
    elif ndcg["value"] is None:
        out["ndcg_division"] = _text_output(f"nDCG@{k} = DCG@{k} / IDCG@{k}: el IDCG es 0, así que nDCG no está definido.")
    else:
        out["ndcg_division"] = _text_output(
            f"nDCG@{k} = DCG@{k} / IDCG@{k} = {out['dcg']['text']} / {out['idcg']['text']} = {ndcg['text']}"
        )
    first = arithmetic["first_relevant"]
    if outputs["mrr"]["value"] is None:
        out["mrr_rank"] = _text_output("MRR@k: sin calcular.")
    elif first is None:
        out["mrr_rank"] = _text_output(f"MRR@{k} = 0: ningún relevante entre los {k} primeros." if k > 1
                                       else "MRR@1 = 0: el primer resultado no es relevante.")
    else:
        out["mrr_rank"] = _text_output(
            f"MRR@{k} = 1 / {first} = {outputs['mrr']['text']}: el primer relevante (marcado con ●) "
            f"está en la posición {first}."
        )
    return out


def _windows(values) -> dict:
    """The chunk-window strip of one document, or no windows while a chunking control is invalid."""
    if _invalid(("tokens_doc", "chunk", "solape"), values):
        return {"windows": None, "shown": [], "more": 0, "text": "Sin ventanas hasta que corrijas "
                f"{_invalid(('tokens_doc', 'chunk', 'solape'), values)}.", "span": 0, "whole": True}
    windows = chunk_windows(values["tokens_doc"], values["chunk"], values["solape"])
    windows["text"] = chunk_windows_text(windows)
    return windows


def _footprint(values):
    """The corpus's :class:`~raglab_core.chunking.Footprint`, or None while one of its controls is invalid."""
    if _invalid(CHUNKING_INPUTS, values):
        return None
    return chunking.footprint(*(values[name] for name in CHUNKING_INPUTS))


def _chunking_outputs(values, fp) -> dict:
    out = {}
    note = _blocked_by(("chunk", "solape"), values)
    if note:
        out["stride"] = _undefined(note)
    else:
        stride = chunking.stride(values["chunk"], values["solape"])
        out["stride"] = _number_output(stride, count(stride, "token"))
    note = _blocked_by(CHUNKING_INPUTS, values)
    if note:
        for name in ("chunks", "indexed_tokens", "duplicated_tokens", "duplication"):
            out[name] = _undefined(note)
        return out
    out["chunks"] = _number_output(fp.chunks, integer(fp.chunks))
    out["indexed_tokens"] = _number_output(fp.indexed_tokens, integer(fp.indexed_tokens))
    out["duplicated_tokens"] = _number_output(
        fp.duplicated_tokens, count(fp.duplicated_tokens, "token duplicado", "tokens duplicados")
    )
    out["duplication"] = _number_output(fp.duplication, percent(fp.duplication))
    return out


# --- ranking rows -------------------------------------------------------------------------


def _movement(shift: int, reranked: bool) -> tuple[str, str]:
    """Arrow text and its spoken label for a document that moved ``shift`` places up."""
    if not reranked:
        return "", "fuera del prefijo: no se reordena"
    if shift > 0:
        return f"▲{shift}", f"sube {count(shift, 'puesto')} tras el reranking"
    if shift < 0:
        return f"▼{-shift}", f"baja {count(-shift, 'puesto')} tras el reranking"
    return "=", "no se mueve tras el reranking"


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
        arrow, movement_label = _movement(movement, reranked)
        in_k = k is not None and rank <= k
        relevant = threshold is not None and grade >= threshold
        flags = [
            f"dentro del top-{k}" if in_k else "fuera del top-k",
            "relevante" if relevant else "no alcanza el umbral",
        ]
        if reranked:
            flags.append("en el prefijo reordenado")
        cut_k, cut_rerank = rank == k, depth is not None and rank == min(depth, len(order))
        cuts = ([f"corte k = {k}"] if cut_k else []) + (["fin del reranking"] if cut_rerank else [])
        flags += cuts
        rows.append(
            {
                "id": doc["id"],
                "title": doc["title"],
                "grade": grade,
                "grade_label": labels[grade],
                "rank": rank,
                "first_stage_rank": index + 1,
                "movement": movement,
                "movement_text": arrow,
                "movement_label": movement_label,
                "in_k": in_k,
                "relevant": relevant,
                "reranked": reranked,
                "flags_label": ", ".join(flags),
                "cut_k": cut_k,
                "cut_rerank": cut_rerank,
                "cut_label": " · ".join(cuts),
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


# --- readings -----------------------------------------------------------------------------
# Every number a reading quotes is an output's text or is computed here from the same values;
# tests/test_lab.py checks each of them against the outputs over many states.


def _reaches(n: int) -> str:
    return "alcanza" if n == 1 else "alcanzan"


def _metrics_reading(scenario, grades, judged, order, values, total_control, outputs) -> str:
    bad = _invalid(("k", "umbral", "rerank"), values)
    if bad:
        return f"Sin lectura de métricas hasta que corrijas {bad}."
    ranked = [grades[i] for i in order]
    parts = [_top_k_sentence(ranked, values, outputs)]
    parts += _total_sentences(grades, judged, values, total_control, outputs)
    parts += _rerank_sentences(scenario, grades, judged, order, values, outputs)
    return " ".join(part for part in parts if part)


def _top_k_sentence(ranked, values, outputs) -> str:
    """What the top k holds: how many reach the threshold and where the first one is."""
    k, threshold = values["k"], values["umbral"]
    found = outputs["relevant_in_k"]["value"]
    grade = f"el grado {threshold}"
    if found == 0:
        zero = [f"Precision@{k}", f"MRR@{k}"]
        if outputs["recall"]["value"] == 0:
            zero.insert(1, f"Recall@{k}")
        sentence = (
            f"{'El primer resultado no alcanza' if k == 1 else f'Ninguno de los {k} primeros resultados alcanza'} "
            f"{grade}: {spanish_list(zero)} valen {outputs['precision']['text']}"
        )
        if values["total"] == 0:
            sentence += f", y Recall@{k} no está definido: ningún documento juzgado alcanza {grade}"
        return sentence + "."
    first = metrics.first_relevant_rank(ranked, k, threshold)
    if k == 1:
        return f"El primer resultado alcanza {grade}: es relevante."
    if found == k:
        return f"Los {k} primeros resultados alcanzan {grade}: todos son relevantes."
    where = f"está en la posición {first}" if found == 1 else f"el primero está en la posición {first}"
    return f"{found} de los {k} primeros resultados {_reaches(found)} {grade}; {where}."


def _total_sentences(grades, judged, values, total_control, outputs) -> list[str]:
    """Recall's denominator: where the known relevant documents are, and how far Recall@k can go."""
    k, threshold, total = values["k"], values["umbral"], values["total"]
    parts = []
    judged_count = metrics.relevant_count(judged, threshold)
    if total_control["raised_from"] is not None:
        parts.append(
            f"Con el umbral {threshold} hay {count(judged_count, 'documento juzgado', 'documentos juzgados')} "
            f"que lo {_reaches(judged_count)}: el total de relevantes conocidos sube de "
            f"{total_control['raised_from']} a {total}."
        )
    if not total:  # undefined (an invalid total) or 0 (said by the top-k sentence)
        return parts
    found = metrics.relevant_count(grades, threshold)  # in the ranking, whatever its order
    in_k = outputs["relevant_in_k"]["value"]
    if total == 1:
        parts.append(f"El top-{k} {'recupera' if in_k else 'no recupera'} el único relevante conocido.")
    else:
        parts.append(f"El top-{k} recupera {in_k} de los {total} relevantes conocidos.")
    missing = total - found
    if missing == 0:
        return parts
    unretrieved, unjudged = judged_count - found, total - judged_count
    one = missing == 1
    if not unjudged:
        what = f"{'es un documento juzgado' if one else 'son documentos juzgados'} que la primera etapa no recuperó"
    elif not unretrieved:
        what = f"{'es un relevante' if one else 'son relevantes'} que nadie juzgó"
    else:
        what = (
            f"son {count(unretrieved, 'documento juzgado', 'documentos juzgados')} que la primera etapa no "
            f"recuperó y {count(unjudged, 'relevante')} que nadie juzgó"
        )
    if found == 0:
        parts.append(
            f"{'Ninguno está' if total > 1 else 'No está'} en el ranking: {what}; "
            f"Recall@{k} vale {outputs['recall']['text']} con cualquier k y cualquier reranking."
        )
    else:
        parts.append(
            f"{missing} de ellos no {'está' if one else 'están'} en el ranking: {what}; ni un k mayor ni el "
            f"reranking {'lo' if one else 'los'} alcanzan, así que Recall@{k} no pasará de {decimal(found / total)}."
        )
    if unjudged:
        parts.append(
            "Los relevantes sin juzgar solo cuentan en el denominador de Recall: sin un grado, "
            "el DCG ideal no puede incluirlos."
        )
    return parts


def _rerank_sentences(scenario, grades, judged, order, values, outputs) -> list[str]:
    """What reranking the prefix did to nDCG and MRR, and what it cannot do."""
    k, threshold, depth = values["k"], values["umbral"], values["rerank"]
    n = len(order)
    if depth == 0:
        return ["Sin reranking: el orden es el de la primera etapa."]
    prefix = min(depth, n)
    if prefix == 1:
        return ["Con profundidad 1 el reranker solo recibe el primer documento: el orden no cambia."]
    head = "El reranking reordena todo el ranking" if prefix == n else f"El reranking reordena solo los {prefix} primeros"
    ndcg_before = metrics.ndcg_at_k(grades, k, judgments=judged)
    ndcg = outputs["ndcg"]
    parts = []
    if ndcg_before is None:
        parts.append(head + ".")
    elif decimal(ndcg_before) == ndcg["text"]:
        parts.append(f"{head}, pero nDCG@{k} no cambia ({ndcg['text']}).")
    elif ndcg["value"] > ndcg_before:
        parts.append(f"{head}: nDCG@{k} pasa de {decimal(ndcg_before)} (orden inicial) a {ndcg['text']}.")
    else:
        parts.append(f"{head} y nDCG@{k} empeora: baja de {decimal(ndcg_before)} (orden inicial) a {ndcg['text']}.")

    # MRR's blind spot: the first relevant document did not move, while what follows it did.
    changed = []
    if ndcg_before is not None and decimal(ndcg_before) != ndcg["text"]:
        changed.append(f"nDCG@{k}")
    if decimal(metrics.precision_at_k(grades, k, threshold)) != outputs["precision"]["text"]:
        changed.append(f"Precision@{k}")
    if changed and decimal(metrics.mrr_at_k(grades, k, threshold)) == outputs["mrr"]["text"]:
        parts.append(
            f"MRR@{k} no cambia ({outputs['mrr']['text']}) aunque {spanish_list(changed)} sí: solo depende de la "
            "posición del primer relevante y no distingue lo que viene después."
        )

    if prefix == n:
        missed = [doc for doc in scenario.get("unretrieved", []) if doc["grade"] > 0]
        best = metrics.ndcg_at_k(sorted(grades, reverse=True), k, judgments=judged)
        if missed and best is not None and decimal(best) != decimal(1.0):
            top = max(missed, key=lambda doc: doc["grade"])
            ceiling = (
                f"Es el mejor orden posible de estos {n} documentos y aun así nDCG@{k} no llega a 1"
                if decimal(best) == ndcg["text"]
                else f"Ni el mejor orden posible de estos {n} documentos pasaría de {decimal(best)}"
            )
            parts.append(
                f"{ceiling}: el ideal cuenta documentos juzgados que la primera etapa no recuperó, como "
                f"«{top['title']}» (grado {top['grade']}), y el reranker mejora el orden sin rescatar "
                "documentos que quedaron fuera del candidate set."
            )
    else:
        below = [i for i in range(prefix, n) if grades[i] >= threshold]
        if below:
            best_below = max(below, key=lambda i: (grades[i], -i))
            parts.append(
                f"«{scenario['documents'][best_below]['title']}» (grado {grades[best_below]}) está en la posición "
                f"{best_below + 1}, fuera del prefijo: el reranker no puede subirlo."
            )
    return parts


def _chunking_reading(values, outputs, fp) -> str:
    bad = _invalid(CHUNKING_INPUTS, values)
    if bad:
        return f"Sin lectura de chunking hasta que corrijas {bad}."
    docs, tokens, chunk, overlap = (values[name] for name in CHUNKING_INPUTS)
    caveat = (
        " Esta huella mide coste (almacenamiento y candidatos redundantes), no calidad: si un "
        "tamaño u otro recupera mejor solo lo dice una evaluación con qrels reales."
    )
    if docs == 0 or tokens == 0:
        return "El corpus está vacío: no hay nada que indexar ni duplicar."
    if tokens <= chunk:
        return (
            f"Cada documento ({count(tokens, 'token')}) cabe en un solo chunk de {count(chunk, 'token')}: "
            f"el índice guarda {count(fp.chunks, 'chunk')} y el solape no duplica nada."
            + caveat
        )
    text = (
        f"Cada documento de {integer(tokens)} tokens se parte en {count(fp.per_document, 'chunk')} "
        f"con un stride de {count(fp.stride, 'token')}."
    )
    if overlap == 0:
        return (
            text
            + f" Sin solape no hay copias: el índice guarda los {integer(fp.corpus_tokens)} tokens del corpus."
            + caveat
        )
    copies = "es una copia creada" if fp.duplicated_tokens == 1 else "son copias creadas"
    warning = ""
    if fp.duplication > 1:  # the index holds the corpus more than twice over: copies are the most of it
        warning = (
            f" Aviso: un solape de {integer(overlap)} en chunks de {integer(chunk)} deja un stride de "
            f"{count(fp.stride, 'token')}, así que el índice ocupa {decimal(fp.indexed_tokens / fp.corpus_tokens, 1)} "
            "veces el corpus: la mayor parte de lo que guarda son copias."
        )
    return (
        text
        + f" El índice guarda {outputs['indexed_tokens']['text']} tokens para un corpus de "
        f"{integer(fp.corpus_tokens)}: {integer(fp.duplicated_tokens)} "
        f"({outputs['duplication']['text']}) {copies} por el solape."
        + warning
        + caveat
    )


def _announcements(values, outputs) -> dict:
    """Short summaries for the page's polite live region, one per panel."""
    k = values["k"]
    at = f"@{k}" if k is not None else "@k"
    metrics_text = ", ".join(
        f"{label}{at} {outputs[name]['text']}"
        for label, name in (("Precision", "precision"), ("Recall", "recall"), ("MRR", "mrr"), ("nDCG", "ndcg"))
    )
    chunking_text = (
        f"Chunks {outputs['chunks']['text']}, tokens indexados {outputs['indexed_tokens']['text']}, "
        f"duplicación {outputs['duplication']['text']}"
    )
    return {"metrics": metrics_text + ".", "chunking": chunking_text + "."}
