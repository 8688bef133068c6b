"""Reading and settling the lab's controls: form values (strings from a form or URL, or numbers) as integers.

What it holds:

- :func:`whole_in_range`, the one parser of a numeric control;
- :func:`read_controls`, every control of a state read at once: a bad one gets
  ``value None`` and its message, the others go on;
- the settling rules between controls (DESIGN §4.1): ``total`` follows the
  judged count of ``umbral`` or is checked or raised (:func:`_settle_total`),
  and an overlap not below the chunk size is reported on the field the user
  changed last (:func:`_settle_overlap`);
- ``posicion``, the evidence's place on the strip, never carries an error:
  a value that cannot be read is left to follow the first window border;
- :data:`CONTROL_LABELS`, how messages name each control, and
  :func:`invalid_labels`, the Spanish list of the invalid ones.

The page sends what the user typed, untouched; every rule about what is a
valid value lives here, so JavaScript holds none. A bad value raises
``LabError`` naming the control, with a Spanish message that states the
requirement (and, where it helps, what was wrong).
"""

import math
import re

from .. import metrics
from ..errors import LabError
from ..formatting import count, integer, spanish_list
from .form import CONTROL_NAMES, MAX_GRADE, MAX_TOTAL, table

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
    "evidencia": "la longitud de la evidencia",
    "posicion": "la posición de la evidencia",
    "grades": "los grados",
}
#: The chunking controls, in the order :func:`~raglab_core.chunking.footprint` takes them.
CHUNKING_INPUTS = ("docs", "tokens_doc", "chunk", "solape")
EVIDENCE_INPUTS = ("tokens_doc", "chunk", "solape", "evidencia")
"""The controls the evidence's containment depends on (its price also on ``docs``)."""

MAX_TEXT_LENGTH = 40
UNJUDGED = "u"
"""The URL's token for a document nobody judged (``?grades=0,2,u,3,…``) and its select option's value."""
_ASCII_WHOLE = re.compile(r"[0-9]+")
_SIGNED = re.compile(r"[+-][0-9]+")
_DECIMAL = re.compile(r"[+-]?[0-9]*[.,][0-9]+|[+-]?[0-9]+[.,][0-9]*")
_EXPONENT = re.compile(r"[+-]?([0-9]+[.,]?[0-9]*|[.,][0-9]+)[eE][+-]?[0-9]+")


def requirement(low: int, high: int) -> str:
    """The phrase every message of a numeric control ends with.

    >>> requirement(1, 12)
    'un entero entre 1 y 12'
    """
    return f"un entero entre {integer(low)} y {integer(high)}"


def whole_in_range(raw, field: str, low: int, high: int, why: str = "") -> int:
    """Parse ``raw`` as an integer in ``[low, high]`` or raise ``LabError(field=field)``.

    Accepts an ``int`` (not a ``bool``), an integral finite ``float``, or a
    string of ASCII digits (surrounding white space ignored). Rejects signs,
    decimals, exponents, thousands separators, other scripts' digits, NaN and
    infinities, each with its own message. ``why`` is appended to the
    out-of-range message.

    >>> whole_in_range(" 12 ", "k", 1, 12)
    12
    >>> whole_in_range("1,5", "k", 1, 12)
    Traceback (most recent call last):
      ...
    raglab_core.errors.LabError: Debe ser un número entero, sin decimales ni separadores de miles: un entero entre 1 y 12.
    """
    need = requirement(low, high)
    out_of_range = LabError.page(f"Debe ser {need}{why}.", field)
    if isinstance(raw, bool):
        raise LabError.page(f"No es un número. Escribe {need}.", field)
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, float):
        if not math.isfinite(raw) or not raw.is_integer():
            raise LabError.page(f"Debe ser un número entero y finito: {need}.", field)
        value = int(raw)
    elif isinstance(raw, str):
        value = _parse_text(raw.strip(), field, need)
    elif raw is None:
        raise LabError.page(f"Falta el valor. Escribe {need}.", field)
    else:
        raise LabError.page(f"No es un número. Escribe {need}.", field)
    if not low <= value <= high:
        raise out_of_range
    return value


def _parse_text(text: str, field: str, need: str) -> int:
    if not text:
        raise LabError.page(f"Falta el valor. Escribe {need}.", field)
    if len(text) > MAX_TEXT_LENGTH:
        raise LabError.page(f"El texto es demasiado largo. Escribe {need}.", field)
    if _ASCII_WHOLE.fullmatch(text):
        return int(text)
    if _SIGNED.fullmatch(text):
        if text.startswith("-") and int(text) != 0:
            raise LabError.page(f"No puede ser negativo: debe ser {need}.", field)
        return int(text[1:])
    if _EXPONENT.fullmatch(text):
        raise LabError.page(f"Escribe el número con cifras, sin exponentes: {need}.", field)
    if _DECIMAL.fullmatch(text):
        raise LabError.page(f"Debe ser un número entero, sin decimales ni separadores de miles: {need}.", field)
    if any(ch.isdigit() for ch in text) and all(ch.isdigit() or ch.isspace() for ch in text):
        if all(ch in "0123456789" or ch.isspace() for ch in text):  # «1 000»: spaces around it are fine, not inside
            raise LabError.page(f"Escribe las cifras sin espacios entre ellas: debe ser {need}.", field)
        raise LabError.page(f"Usa las cifras 0 a 9: debe ser {need}.", field)
    raise LabError.page(f"No es un número entero. Escribe {need}.", field)


# --- the whole form -----------------------------------------------------------------------


def edited_names(raw) -> list:
    """The state's ``edited`` list, keeping only control names (anything else: no edits)."""
    if not isinstance(raw, list):
        return []
    return [name for name in raw if isinstance(name, str) and name in CONTROL_LABELS]


def _last_edited(edited, names, default=None):
    """Which of ``names`` the user changed most recently, or ``default`` if none of them."""
    return next((name for name in reversed(edited) if name in names), default)


def read_controls(state: dict, scenario: dict, edited: list):
    """Parse every control; a bad one gets ``value None`` and its message, the rest go on.

    A ``total`` left out, or empty, follows the threshold (DESIGN §4.1).

    >>> docs = [{"grade": g} for g in (3, 0, 2)]
    >>> scenario = {"documents": docs, "unretrieved": [{"grade": 2}], "defaults": {
    ...     "k": 2, "umbral": 2, "rerank": 0, "docs": 1, "tokens_doc": 100, "chunk": 50, "solape": 10}}
    >>> controls, values = read_controls({"total": " "}, scenario, ["total"])
    >>> controls["total"], values["total"]
    ({'value': 3, 'error': None, 'set': False, 'raised_from': None}, 3)
    >>> read_controls({"total": "x"}, scenario, ["total"])[0]["total"]["error"]
    'No es un número entero. Escribe un entero entre 3 y 100\xa0000.'
    """
    n = len(scenario["documents"])
    defaults = scenario["defaults"]
    raw = {name: state.get(name, defaults.get(name)) for name in CONTROL_NAMES}
    if isinstance(raw["total"], str) and not raw["total"].strip():
        raw["total"] = None  # an emptied field: the total follows the threshold again
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
        if name == "posicion":  # a place on the strip, never an error: what cannot be read follows the border
            controls[name], values[name] = _read_position(raw[name])
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


def _read_position(raw):
    """The evidence's start token as the URL or the slider gave it, or ``None`` (then it follows the first border).

    Any whole number is taken: the lab clamps it to the strip, as a slider
    would, and fills in ``min``, ``max`` and the words for screen readers
    (:func:`raglab_core.lab.compute`).
    """
    try:
        value = None if raw is None else whole_in_range(raw, "posicion", 0, 10**MAX_TEXT_LENGTH)
    except LabError:
        value = None
    return {"value": value, "error": None, "set": value is not None}, value


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
    if control["error"] and judged is not None:
        # The message states the range the total really has: from the judged count up.
        try:
            whole_in_range(raw_total, "total", judged, MAX_TOTAL)
        except LabError as error:
            control["error"] = str(error)
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
        f"Los grados deben ser {n} enteros entre 0 y {MAX_GRADE} (o «{UNJUDGED}», sin juicio) separados por comas, "
        "uno por documento en el orden inicial. Se muestran los grados del escenario."
    )
    if not isinstance(items, list) or len(items) != n:
        return {"value": original, "error": message}
    try:
        grades = [None if _unjudged(item) else whole_in_range(item, "grades", 0, MAX_GRADE) for item in items]
    except LabError:
        return {"value": original, "error": message}
    return {"value": grades, "error": None}


def _unjudged(item) -> bool:
    """A grade nobody gave: ``None`` in a list, the token «u» in the URL (DESIGN §3)."""
    return item is None or (isinstance(item, str) and item.strip() == UNJUDGED)


def grade_token(grade) -> str:
    """A grade as the URL and the page's ``data-grade`` write it: its digits, or «u» when unjudged.

    >>> grade_token(2), grade_token(None)
    ('2', 'u')
    """
    return UNJUDGED if grade is None else str(grade)


def invalid_labels(names, values) -> str | None:
    """The Spanish list of the invalid controls among ``names`` ("k y el umbral"), or None.

    >>> invalid_labels(("k", "umbral", "rerank"), {"k": None, "umbral": None, "rerank": 2})
    'k y el umbral'
    >>> invalid_labels(("k",), {"k": 3}) is None
    True
    """
    bad = [CONTROL_LABELS[name] for name in names if values[name] is None]
    return spanish_list(bad) if bad else None
