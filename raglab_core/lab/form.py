"""The lab's form as one table: every control and output, with its label, hint, kind and range.

The page's template renders the controls and outputs from :func:`table`,
``lab.js`` reads the control names from it (through the page's lab
configuration), :mod:`raglab_core.lab.controls` reads each control within its range,
and the tests check the page against it. Labels and hints are the page's
Spanish text.

Row fields: ``name`` (the form-control name or ``data-output`` name),
``panel`` (``"ranking"`` or ``"chunking"``; ``"breakdown"`` for the outputs of
the per-rank arithmetic under the ranking), ``label``, ``hint`` (the text
under a control, or the caption next to an output), ``kind`` (``"range"``
or ``"text"`` for a control, ``"number"`` or ``"reading"`` for an output),
``min`` and ``max`` (a control's accepted range, inclusive; ``None`` for
outputs) and ``companion``: for a text control, the ``(min, max, step)`` of
its mouse-friendly slider; for an output, the output shown as its caption
(``duplicated_tokens`` under ``duplication``); else ``None``. Controls also
carry ``follows``: true for those in :data:`FOLLOWING`, whose value follows
the other controls until the URL or the user sets it.
"""

MAX_GRADE = 3
"""Grades run from 0 to MAX_GRADE."""
MAX_TOTAL = 100_000
MAX_DOCS = 10_000_000
MAX_TOKENS_PER_DOC = 10_000_000
MAX_CHUNK = 100_000

RANKING_SIZE = "ranking_size"
"""A ``max`` that :func:`table` replaces by the number of ranked documents."""


def _row(name, panel, label, hint, kind, *, low=None, high=None, companion=None):
    return {"name": name, "panel": panel, "label": label, "hint": hint, "kind": kind,
            "min": low, "max": high, "companion": companion}


CONTROLS = (
    _row("k", "ranking", "k (corte del top-k)", "Cuántas posiciones del ranking cuentan para las métricas.",
         "range", low=1, high=RANKING_SIZE),
    _row("umbral", "ranking", "Umbral de relevancia",
         f"Grado mínimo (1–{MAX_GRADE}) para que un documento cuente como relevante en Precision, Recall y MRR.",
         "range", low=1, high=MAX_GRADE),
    _row("rerank", "ranking", "Profundidad de reranking",
         "0 mantiene el ranking inicial; un valor mayor reordena solo ese prefijo.", "range",
         low=0, high=RANKING_SIZE),
    _row("total", "ranking", "Relevantes totales conocidos",
         "Recall necesita un denominador externo al top-k. Usa el total conocido para tu consulta.",
         "text", low=0, high=MAX_TOTAL),
    _row("docs", "chunking", "Documentos", "Documentos del corpus; todos con el mismo número de tokens.",
         "text", low=0, high=MAX_DOCS),
    _row("tokens_doc", "chunking", "Tokens por documento", "Longitud de cada documento, en tokens.",
         "text", low=0, high=MAX_TOKENS_PER_DOC),
    _row("chunk", "chunking", "Chunk size (tokens)", "Tokens de cada ventana.", "text",
         low=1, high=MAX_CHUNK, companion=(16, 2048, 16)),
    _row("solape", "chunking", "Solape (tokens)", "Debe ser menor que el tamaño del chunk.", "text",
         low=0, high=MAX_CHUNK - 1, companion=(0, 1024, 16)),
    _row("evidencia", "chunking", "Evidencia (tokens)",
         "Longitud de un fragmento que la respuesta necesita entero (una cita, una tabla, un párrafo).",
         "text", low=1, high=MAX_TOKENS_PER_DOC, companion=(1, 1024, 1)),
    # The start token of the evidence drawn on the strip (DESIGN §4.5); its range follows the strip,
    # and its default the first window border (raglab_core.evidence.default_position).
    _row("posicion", "strip", "Posición de la evidencia en la tira",
         "Arrastra sobre la tira, o usa las flechas con el foco en ella; Inicio y Fin la llevan a los extremos.",
         "range", low=0, high=MAX_TOKENS_PER_DOC),
)
FOLLOWING = ("total", "posicion")
"""Controls whose value, until the URL or the user sets it, follows the others (Python gives it in the view)."""
OUTPUTS = (
    _row("precision", "ranking", "Precision@k", "pureza del top-k", "number"),
    _row("recall", "ranking", "Recall@k", "cobertura de relevantes conocidos", "number"),
    _row("mrr", "ranking", "MRR@k", "1 / posición del primer relevante", "number"),
    _row("ndcg", "ranking", "nDCG@k", "orden + relevancia graduada", "number"),
    _row("relevant_in_k", "ranking", "Relevantes dentro de k", "grado ≥ umbral entre los k primeros", "number"),
    _row("metrics_reading", "ranking", "Lectura de métricas", "", "reading"),
    _row("chunks", "chunking", "Chunks estimados", "ventanas en el índice", "number"),
    _row("indexed_tokens", "chunking", "Tokens indexados", "tokens guardados, copias incluidas", "number"),
    _row("duplication", "chunking", "Duplicación por solape", "", "number", companion="duplicated_tokens"),
    _row("stride", "chunking", "Stride", "chunk size − solape", "number"),
    _row("containment", "chunking", "Evidencia entera", "posiciones en que un chunk la contiene", "number"),
    _row("windows_holding", "chunking", "Chunks que la contienen", "media por posición", "number"),
    _row("windows_touching", "chunking", "Chunks que la tocan", "media: puestos del top-k que puede ocupar", "number"),
    _row("min_overlap_whole", "chunking", "Solape mínimo para que quepa siempre", "el menor solape sin cortes",
         "number"),
    _row("indexed_tokens_whole", "chunking", "Tokens indexados con ese solape", "el precio de no cortarla nunca",
         "number"),
    _row("chunking_reading", "chunking", "Lectura de chunking", "", "reading"),
    # The arithmetic on screen (DESIGN §4.2): shown by the breakdown under the ranking, not as cards.
    _row("dcg", "breakdown", "DCG@k", "suma de las contribuciones de los k primeros", "number"),
    _row("idcg", "breakdown", "IDCG@k", "DCG del orden ideal de todos los juicios", "number"),
    _row("ideal_order", "breakdown", "", "", "reading"),  # shown under IDCG@k
    _row("ndcg_division", "breakdown", "nDCG@k", "", "reading"),
    _row("mrr_rank", "breakdown", "MRR@k", "", "reading"),
    # «La misma lista, otras definiciones» (DESIGN §4.4), under the breakdown: its reading.
    _row("conventions_reading", "breakdown", "", "", "reading"),
)
CONTROL_NAMES = tuple(row["name"] for row in CONTROLS)
OUTPUT_NAMES = tuple(name for row in OUTPUTS for name in (row["name"], row["companion"]) if name)


def table(ranking_size: int) -> dict:
    """The table for a ranking of ``ranking_size`` documents: ``{"controls": [row…], "outputs": [row…]}``.

    >>> form = table(12)
    >>> [(row["name"], row["min"], row["max"]) for row in form["controls"][:3]]
    [('k', 1, 12), ('umbral', 1, 3), ('rerank', 0, 12)]
    >>> [row["name"] for row in form["outputs"] if row["kind"] == "reading" and row["panel"] != "breakdown"]
    ['metrics_reading', 'chunking_reading']
    """
    controls = [{**row, "max": ranking_size if row["max"] == RANKING_SIZE else row["max"], "follows": row["name"] in FOLLOWING}
                for row in CONTROLS]
    return {"controls": controls, "outputs": [dict(row) for row in OUTPUTS]}
