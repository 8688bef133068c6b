"""The judging page's grades (DESIGN §4.13): how they are kept, which are in force, and two tabs' merged.

**Grades** are ``{"qid\\tdocid": {"grade": G, "at": T}}``: G an integer of the job's scale (0–3, or 0–1 on the
binary scale) or ``None`` for a grade undone, and T the moment it was given in milliseconds since 1970 (the
browser's ``Date.now()``). An undone grade is kept with its moment, so that when two tabs' grades meet
(:func:`merge_grades`) the newer of each pair wins, an undo included.

>>> grades = {grade_key("q1", "a"): {"grade": 1, "at": 1000}, "q1\\tb": {"grade": None, "at": 9}}
>>> given(grades)
{'q1\\ta': 1}
"""


def grade_key(qid: str, docid: str) -> str:
    """The key of a pair's grade: ``"qid<TAB>docid"`` (ids hold no whitespace)."""
    return f"{qid}\t{docid}"


def given(grades: dict) -> dict:
    """``{key: grade}`` of the grades in force (an undone one, ``None``, is not).

    >>> given({"q\\ta": {"grade": 2, "at": 1}, "q\\tb": {"grade": None, "at": 2}})
    {'q\\ta': 2}
    """
    return {key: entry["grade"] for key, entry in grades.items() if entry.get("grade") is not None}


def merge_grades(grades: dict, incoming: dict) -> dict:
    """``grades`` and ``incoming`` (another tab's, or a file's) together: for each pair, the entry with the later
    ``at`` (on a tie, ``grades``'s). An older grade never overwrites a newer one, an undo included.

    >>> merge_grades({"q\\ta": {"grade": 1, "at": 5}}, {"q\\ta": {"grade": 3, "at": 4}, "q\\tb": {"grade": 0, "at": 1}})
    {'q\\ta': {'grade': 1, 'at': 5}, 'q\\tb': {'grade': 0, 'at': 1}}
    """
    merged = dict(grades)
    for key, entry in incoming.items():
        if key not in merged or entry["at"] > merged[key]["at"]:
            merged[key] = entry
    return merged


__all__ = ["grade_key", "given", "merge_grades"]
