"""Reading the lab's form values (strings from a form or URL, or numbers) as integers.

The page sends what the user typed, untouched; every rule about what is a
valid value lives here, so JavaScript holds none. A bad value raises
``LabError`` naming the control, with a Spanish message that states the
requirement (and, where it helps, what was wrong).
"""

import math
import re

from .errors import LabError
from .formatting import integer

MAX_TEXT_LENGTH = 40
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
        raise LabError.page(f"Usa las cifras 0 a 9 sin espacios: debe ser {need}.", field)
    raise LabError.page(f"No es un número entero. Escribe {need}.", field)
