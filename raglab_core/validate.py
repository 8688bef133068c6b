"""Argument checks shared by the metric and chunking functions.

Every check raises :class:`~raglab_core.errors.LabError` whose message states
the requirement, never ``assert`` (which ``python -O`` removes).
"""

from collections.abc import Sequence

from .errors import LabError


def whole_number(value, name: str, minimum: int = 0) -> int:
    """Return ``value`` if it is an ``int`` (not a ``bool``) ``>= minimum``.

    >>> whole_number(3, "k", minimum=1)
    3
    >>> whole_number(0, "k", minimum=1)
    Traceback (most recent call last):
      ...
    raglab_core.errors.LabError: k debe ser un entero mayor o igual que 1.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise LabError(f"{name} debe ser un número entero.", field=name)
    if value < minimum:
        raise LabError(f"{name} debe ser un entero mayor o igual que {minimum}.", field=name)
    return value


def grade_list(grades, name: str = "grades") -> list[int]:
    """Return ``grades`` as a list of non-negative ints, or raise ``LabError``."""
    if isinstance(grades, (str, bytes)) or not isinstance(grades, Sequence):
        raise LabError(f"{name} debe ser una secuencia de grados enteros.", field=name)
    for grade in grades:
        if isinstance(grade, bool) or not isinstance(grade, int) or grade < 0:
            raise LabError(
                f"Cada grado de {name} debe ser un entero mayor o igual que 0.", field=name
            )
    return list(grades)
