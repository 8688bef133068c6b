"""A panel's settings as the reader types them: a number written in a form's field, read and checked.

The page's panels send their form's fields as text (``"10"``, ``"0,75"``, ``""``). A **whole** setting is
written in ASCII digits alone (``"1_0"``, ``"١"``, ``"+3"`` and ``"1e3"`` are not whole numbers here, though
Python's ``int`` reads some of them); a **decimal** one is what Python's ``float`` reads once a decimal comma is
made a point, and finite. Either must lie within its bounds; an empty field is the setting's default, or an error
when it has none. The error (:class:`~raglab_core.errors.LabError`, in Spanish) names the field and repeats what
was typed.

>>> number_setting("25", "depth", "La profundidad", 1, 10_000, whole=True, default=10)
25
>>> number_setting("", "depth", "La profundidad", 1, 10_000, whole=True, default=10)
10
>>> number_setting("0,75", "b", "b", 0.0, 1.0)
0.75
>>> number_setting("-1", "seed", "La semilla", 0, 99, whole=True)
Traceback (most recent call last):
  ...
raglab_core.errors.LabError: La semilla debe ser un número entero de 0 a 99: «-1» no lo es.
"""

import math

from .errors import LabError
from .formatting import decimal, integer

REQUIRED = object()
"""The default of a setting that must be written: an empty field is an error."""

OUT_OF_BOUNDS = "{label} debe ser un número {bound}: «{value}» no lo es."


def written_number(text, whole: bool = False) -> int | float | None:
    """The number ``text`` writes (the module's docstring: whole, or decimal with a comma or a point), or ``None``.

    >>> written_number(" 12 ", whole=True), written_number("1_0", whole=True), written_number("2,5")
    (12, None, 2.5)
    >>> written_number("nan"), written_number("inf"), written_number("")
    (None, None, None)
    """
    value = str(text if text is not None else "").strip()
    if whole:
        return int(value) if value.isascii() and value.isdigit() else None
    try:
        number = float(value.replace(",", "."))
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _bound(low, high, whole: bool) -> str:
    """«entero de 1 a 100», «entre 0,0 y 1,0», «mayor o igual que 0,0»: what a setting's number must be."""
    if whole:
        return f"entero de {integer(low)} a {integer(high)}" if high is not None else \
            f"entero mayor o igual que {integer(low)}"
    return f"entre {decimal(low, 1)} y {decimal(high, 1)}" if high is not None else \
        f"mayor o igual que {decimal(low, 1)}"


def number_setting(text, field: str, label: str, low, high=None, whole: bool = False, default=REQUIRED):
    """The setting typed as ``text`` in field ``field`` (``label``: its name as a sentence's subject), a number
    within ``[low, high]`` (no upper bound when ``high`` is ``None``), whole or decimal; ``default`` when the field
    is empty (:data:`REQUIRED`: it must be written). A :class:`LabError` names ``field`` otherwise.

    >>> number_setting("mucho", "k1", "k1", 0.0)
    Traceback (most recent call last):
      ...
    raglab_core.errors.LabError: k1 debe ser un número mayor o igual que 0,0: «mucho» no lo es.
    """
    value = str(text if text is not None else "").strip()
    if not value and default is not REQUIRED:
        return default
    number = written_number(value, whole)
    if number is None or number < low or (high is not None and number > high):
        raise LabError.page(OUT_OF_BOUNDS.format(label=label, bound=_bound(low, high, whole), value=value),
                            field=field)
    return number


__all__ = ["REQUIRED", "written_number", "number_setting"]
