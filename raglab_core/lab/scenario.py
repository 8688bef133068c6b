"""The lab's synthetic scenario: the judged documents of one query plus the default state of the controls.

A scenario is plain JSON data (``site_src/data/scenario.json``)::

    {"query": str,
     "grade_labels": [str, str, str, str],          # names of grades 0..3
     "documents": [{"id": str, "title": str, "grade": 0..3 | null,
                    "first_stage_score": number, "reranker_score": number}, ...],
     "unretrieved": [{"id": str, "title": str, "grade": 0..3}, ...],   # optional
     "defaults": {"k": .., "umbral": .., "rerank": ..,
                  "docs": .., "tokens_doc": .., "chunk": .., "solape": .., "evidencia": ..},
     "notes": {control name: str, ...}}             # optional: why a default is what it is

The scenario is the query's whole set of judgments (DESIGN §4.1), as a
qrels file is: ``documents`` are the judged documents the first stage ranked,
in first-stage order (so their first-stage scores must not increase; a
``null`` grade is a ranked document nobody judged), and ``unretrieved`` the
judged documents it never returned. Ids are unique
across both lists. ``defaults.total`` is optional: without it the lab's
total of known relevant documents follows the threshold (the judged
documents that reach it). The defaults are checked by the same rules as the
form (:mod:`raglab_core.lab`), by the caller.
"""

import math
import re

from ..errors import LabError
from .form import CONTROL_NAMES, MAX_GRADE

MAX_DOCUMENTS = 50
OPTIONAL_DEFAULTS = ("total", "posicion")
"""Controls whose default may be left out: ``total`` then follows the threshold, ``posicion`` the first border."""
_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def _fail(message: str, where: str):
    raise LabError.page(message, field=f"scenario.{where}")


def _number(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        _fail("Debe ser un número finito.", where)
    return float(value)


def _grade(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_GRADE:
        _fail(f"Debe ser un entero entre 0 y {MAX_GRADE}.", where)
    return value


def _judged(doc, where: str, seen: set, unjudged_ok: bool = False) -> None:
    """Check the fields every judged document has (``id``, ``title``, ``grade``); record its id in ``seen``.

    With ``unjudged_ok`` (a ranked document), ``grade`` may be ``null``: nobody judged it."""
    if not isinstance(doc, dict):
        _fail("Cada documento debe ser un objeto.", where)
    doc_id = doc.get("id")
    if not isinstance(doc_id, str) or not _ID.fullmatch(doc_id):
        _fail("Debe ser un identificador de 1 a 32 letras, cifras, «-» o «_».", f"{where}.id")
    if doc_id in seen:
        _fail(f"El identificador «{doc_id}» está repetido.", f"{where}.id")
    seen.add(doc_id)
    _text(doc.get("title"), f"{where}.title")
    if not (unjudged_ok and "grade" in doc and doc["grade"] is None):
        _grade(doc.get("grade"), f"{where}.grade")


def _text(value, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        _fail("Debe ser un texto no vacío.", where)
    return value


def validate_scenario(scenario) -> dict:
    """Check a scenario's shape and return it unchanged; raise ``LabError`` on the first problem.

    ``LabError.field`` is the path of the bad value, e.g.
    ``"scenario.documents[3].grade"``.

    >>> validate_scenario({"query": "q", "grade_labels": ["a", "b", "c", "d"],
    ...     "documents": [{"id": "d1", "title": "t", "grade": 4,
    ...                    "first_stage_score": 1, "reranker_score": 0}],
    ...     "defaults": {}})
    Traceback (most recent call last):
      ...
    raglab_core.errors.LabError: Debe ser un entero entre 0 y 3.
    """
    if not isinstance(scenario, dict):
        _fail("El escenario debe ser un objeto JSON.", "")
    _text(scenario.get("query"), "query")
    labels = scenario.get("grade_labels")
    if not isinstance(labels, list) or len(labels) != MAX_GRADE + 1:
        _fail(f"Debe ser una lista de {MAX_GRADE + 1} nombres, uno por grado.", "grade_labels")
    for i, label in enumerate(labels):
        _text(label, f"grade_labels[{i}]")
    documents = scenario.get("documents")
    if not isinstance(documents, list) or not 1 <= len(documents) <= MAX_DOCUMENTS:
        _fail(f"Debe ser una lista de 1 a {MAX_DOCUMENTS} documentos.", "documents")
    seen = set()
    previous_score = math.inf
    for i, doc in enumerate(documents):
        where = f"documents[{i}]"
        _judged(doc, where, seen, unjudged_ok=True)
        score = _number(doc.get("first_stage_score"), f"{where}.first_stage_score")
        if score > previous_score:
            _fail(
                "Los documentos deben estar en el orden de la primera etapa: "
                "su puntuación no puede superar a la del anterior.",
                f"{where}.first_stage_score",
            )
        previous_score = score
        _number(doc.get("reranker_score"), f"{where}.reranker_score")
    unretrieved = scenario.get("unretrieved", [])
    if not isinstance(unretrieved, list) or len(unretrieved) > MAX_DOCUMENTS:
        _fail(f"Debe ser una lista de 0 a {MAX_DOCUMENTS} documentos juzgados.", "unretrieved")
    for i, doc in enumerate(unretrieved):
        _judged(doc, f"unretrieved[{i}]", seen)
    defaults = scenario.get("defaults")
    if not isinstance(defaults, dict):
        _fail("Debe ser un objeto con el valor inicial de cada control.", "defaults")
    missing = [name for name in CONTROL_NAMES if name not in defaults and name not in OPTIONAL_DEFAULTS]
    if missing:
        _fail(f"Faltan valores iniciales: {', '.join(missing)}.", "defaults")
    notes = scenario.get("notes", {})
    if not isinstance(notes, dict) or not all(name in CONTROL_NAMES and isinstance(text, str) for name, text in notes.items()):
        _fail("Debe ser un objeto que explique, por nombre de control, por qué su valor inicial es el que es.", "notes")
    return scenario
