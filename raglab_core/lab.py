"""The whole lab view from the page's state: ``compute(state) -> view``.

``state`` is a dict: ``"scenario"`` (see :mod:`raglab_core.scenario`), the raw
value of each control by its form name (``k``, ``umbral``, ``rerank``,
``total``, ``docs``, ``tokens_doc``, ``chunk``, ``solape``: strings as typed
or numbers; a missing one takes the scenario's default) and optionally
``grades`` (the edited grades in first-stage order: a list, or a string of
comma-separated ints, as in the URL).

The view is plain JSON data::

    {"controls": {name: {"value": int | None, "error": str | None}, ...,
                  "grades": {"value": [int, ...], "error": str | None}},
     "outputs": {name: {"value": number | None, "raw": str, "text": str,
                        "note": str | None}, ...},
     "ranking": [row, ...],                  # displayed order, see _ranking_rows
     "announcements": {"metrics": str, "chunking": str}}

``raw`` is the number as a decimal string for ``data-value`` ("" when
undefined); ``text`` is its Spanish rendering ("—" when undefined, with the
reason in ``note``). A bad control never blanks the outputs that do not
depend on it.
"""

from . import chunking, metrics
from .controls import whole_in_range
from .errors import LabError
from .formatting import DASH, decimal, integer, percent, spanish_list
from .ranking import rerank_prefix
from .form import CONTROL_NAMES, MAX_GRADE, table
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
    ...             "defaults": {"k": 2, "umbral": 2, "rerank": 0, "total": 2,
    ...                          "docs": 1, "tokens_doc": 100, "chunk": 50, "solape": 10}}
    >>> view = compute({"scenario": scenario, "solape": "60"})
    >>> view["outputs"]["precision"]["text"], view["outputs"]["precision"]["raw"]
    ('0,500', '0.5')
    >>> view["controls"]["solape"]["error"], view["outputs"]["stride"]["text"]
    ('Debe ser menor que el tamaño del chunk.', '—')
    """
    if not isinstance(state, dict):
        raise LabError.page("El estado debe ser un objeto JSON.", field=None)
    scenario = validate_scenario(state.get("scenario"))
    documents = scenario["documents"]
    controls, values = _read_controls(state, scenario)
    grades = controls["grades"]["value"]

    order = rerank_prefix([doc["reranker_score"] for doc in documents], values["rerank"] or 0)
    ranked = [grades[i] for i in order]
    outputs = {}
    outputs.update(_metric_outputs(ranked, grades, values))
    fp = _footprint(values)
    outputs.update(_chunking_outputs(values, fp))
    outputs["metrics_reading"] = _text_output(_metrics_reading(scenario, grades, order, values, outputs))
    outputs["chunking_reading"] = _text_output(_chunking_reading(values, outputs, fp))
    return {
        "controls": controls,
        "outputs": outputs,
        "ranking": _ranking_rows(scenario, grades, order, values),
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


def _read_controls(state: dict, scenario: dict):
    """Parse every control; a bad one gets ``value None`` and its message, the rest go on."""
    n = len(scenario["documents"])
    defaults = scenario["defaults"]
    raw = {name: state.get(name, defaults[name]) for name in CONTROL_NAMES}
    controls, values = {}, {}

    def read(name, low, high, why="", check=None):
        try:
            value = whole_in_range(raw[name], name, low, high, why)
            if check:
                check(value)
        except LabError as error:
            controls[name] = {"value": None, "error": str(error)}
            values[name] = None
        else:
            controls[name] = {"value": value, "error": None}
            values[name] = value

    controls["grades"] = _read_grades(state.get("grades"), scenario)
    grades = controls["grades"]["value"]
    ranking_size = f" (el ranking tiene {n} documentos)"
    why = {"k": ranking_size, "umbral": f" (la escala de grados va de 0 a {MAX_GRADE})", "rerank": ranking_size}

    def at_least_relevant(total):
        threshold = values["umbral"]
        if threshold is None:
            return
        found = metrics.relevant_count(grades, threshold)
        if total < found:
            raise LabError.page(
                f"Debe ser al menos {found}: el ranking ya contiene {found} "
                f"documentos relevantes (grado ≥ {threshold}).",
                "total",
            )

    def below_chunk(overlap):
        if values["chunk"] is not None and overlap >= values["chunk"]:
            raise LabError("overlap_not_below_chunk", "solape")

    checks = {"total": at_least_relevant, "solape": below_chunk}
    for row in table(n)["controls"]:  # in table order: umbral before total, chunk before solape
        read(row["name"], row["min"], row["max"], why.get(row["name"], ""), checks.get(row["name"]))
    return controls, values


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


def _metric_outputs(ranked, grades, values) -> dict:
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
        ndcg = metrics.ndcg_at_k(ranked, k, judgments=grades)
        if ndcg is None:
            out["ndcg"] = _undefined("Ningún documento tiene grado mayor que 0: el DCG ideal es 0.")
        else:
            out["ndcg"] = _number_output(ndcg, decimal(ndcg))
    return out


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
        out["stride"] = _number_output(stride, f"{integer(stride)} tokens")
    note = _blocked_by(CHUNKING_INPUTS, values)
    if note:
        for name in ("chunks", "indexed_tokens", "duplicated_tokens", "duplication"):
            out[name] = _undefined(note)
        return out
    out["chunks"] = _number_output(fp.chunks, integer(fp.chunks))
    out["indexed_tokens"] = _number_output(fp.indexed_tokens, integer(fp.indexed_tokens))
    out["duplicated_tokens"] = _number_output(
        fp.duplicated_tokens, f"{integer(fp.duplicated_tokens)} tokens duplicados"
    )
    out["duplication"] = _number_output(fp.duplication, percent(fp.duplication))
    return out


# --- ranking rows -------------------------------------------------------------------------


def _movement(shift: int, reranked: bool) -> tuple[str, str]:
    """Arrow text and its spoken label for a document that moved ``shift`` places up."""
    if not reranked:
        return "", "fuera del prefijo: no se reordena"
    if shift > 0:
        return f"▲{shift}", f"sube {_places(shift)} tras el reranking"
    if shift < 0:
        return f"▼{-shift}", f"baja {_places(-shift)} tras el reranking"
    return "=", "no se mueve tras el reranking"


def _places(n: int) -> str:
    return "1 puesto" if n == 1 else f"{n} puestos"


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
            "relevante" if relevant else "no relevante con este umbral",
        ]
        if reranked:
            flags.append("en el prefijo reordenado")
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
                "first_stage_score": decimal(doc["first_stage_score"], 2),
                "reranker_score": decimal(doc["reranker_score"], 2),
            }
        )
    return rows


# --- readings -----------------------------------------------------------------------------


def _metrics_reading(scenario, grades, order, values, outputs) -> str:
    bad = _invalid(("k", "umbral", "rerank"), values)
    if bad:
        return f"Sin lectura de métricas hasta que corrijas {bad}."
    k, threshold, depth, total = values["k"], values["umbral"], values["rerank"], values["total"]
    documents = scenario["documents"]
    ranked = [grades[i] for i in order]
    found = outputs["relevant_in_k"]["value"]
    first = metrics.first_relevant_rank(ranked, k, threshold)
    relevant = f"relevante{'s' if found != 1 else ''} (grado ≥ {threshold})"
    if k == 1:
        parts = [f"El primer resultado {'es' if found else 'no es'} relevante (grado ≥ {threshold})."]
    elif found:
        parts = [
            f"{found} de los {k} primeros resultados {'es' if found == 1 else 'son'} {relevant}; "
            f"el primero aparece en la posición {first}."
        ]
    else:
        parts = [
            f"Ninguno de los {k} primeros resultados es relevante (grado ≥ {threshold}): "
            f"Precision@k, Recall@k y MRR@k valen 0."
        ]

    if total is not None and total > 0:
        in_ranking = metrics.relevant_count(grades, threshold)
        sentence = f"El top-{k} recupera {found} de los {total} relevantes conocidos."
        if total > in_ranking:
            missing = total - in_ranking
            sentence += (
                f" {missing} de ellos no {'está' if missing == 1 else 'están'} en el ranking: "
                f"ni un k mayor ni el reranking los alcanzan, así que Recall@k no pasará de "
                f"{decimal(in_ranking / total)}."
            )
        parts.append(sentence)

    if depth == 0:
        parts.append("Sin reranking: el orden es el de la primera etapa.")
    else:
        prefix = min(depth, len(order))
        ndcg_before = metrics.ndcg_at_k(grades, k)
        ndcg_after = outputs["ndcg"]["value"]
        sentence = (
            "El reranking reordena todo el ranking"
            if prefix == len(order)
            else f"El reranking reordena solo los {prefix} primeros"
        )
        if ndcg_before is not None and ndcg_after is not None:
            sentence += f": nDCG@{k} pasa de {decimal(ndcg_before)} (orden inicial) a {decimal(ndcg_after)}."
        else:
            sentence += "."
        parts.append(sentence)
        below = [i for i in range(prefix, len(order)) if grades[i] >= threshold]
        if below:
            best = max(below, key=lambda i: (grades[i], -i))
            parts.append(
                f"«{documents[best]['title']}» (grado {grades[best]}) está en la posición {best + 1}, "
                "fuera del prefijo: el reranker no puede subirlo."
            )
    return " ".join(parts)


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
            f"Cada documento ({integer(tokens)} tokens) cabe en un solo chunk de {integer(chunk)}: "
            f"el índice guarda {integer(fp.chunks)} chunks y el solape no duplica nada."
            + caveat
        )
    text = (
        f"Cada documento de {integer(tokens)} tokens se parte en {integer(fp.per_document)} chunks "
        f"con stride {integer(fp.stride)}."
    )
    if overlap == 0:
        return (
            text
            + f" Sin solape no hay copias: el índice guarda los {integer(fp.corpus_tokens)} tokens del corpus."
            + caveat
        )
    return (
        text
        + f" El índice guarda {outputs['indexed_tokens']['text']} tokens para un corpus de "
        f"{integer(fp.corpus_tokens)}: {integer(fp.duplicated_tokens)} "
        f"({outputs['duplication']['text']}) son copias creadas por el solape."
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
