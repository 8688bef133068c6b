"""Argument checks shared by the kernel and the domains (metrics, chunking, evidence, reranking, statistics).

Every check raises :class:`~raglab_core.errors.LabError` with a code whose
message states the requirement, never ``assert`` (which ``python -O`` removes).
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
        raise LabError("not_integer", field=name, name=name)
    if value < minimum:
        raise LabError("below_minimum", field=name, name=name, minimum=minimum)
    return value


def grade_list(grades, name: str = "grades") -> list:
    """Return ``grades`` as a list of non-negative ints or ``None`` (a document nobody judged), or raise ``LabError``."""
    if isinstance(grades, (str, bytes)) or not isinstance(grades, Sequence):
        raise LabError("not_grade_sequence", field=name, name=name)
    for grade in grades:
        if grade is None:
            continue
        if isinstance(grade, bool) or not isinstance(grade, int) or grade < 0:
            raise LabError("negative_grade", field=name, name=name)
    return list(grades)
