"""How far a judging job is (DESIGN §4.13): the pairs graded, the query's place, the time spent, where to resume.

**The time spent** (:func:`time_spent`): the gaps between consecutive grades, in order of their moments, each
capped at :data:`IDLE_SECONDS` (a pause longer than that counts as that long), and the first grade, whose start
is not known, as long as the median of those gaps (nothing when it is the only grade).

>>> job = {"pairs": [["q1", "a"], ["q1", "b"], ["q2", "c"]]}
>>> grades = {"q1\\ta": {"grade": 1, "at": 0}, "q1\\tb": {"grade": None, "at": 60_000}}
>>> progress(job, grades, 2)["text"], resume_index(job, grades)
('1 de 3 juzgados · consulta 2 de 2: 0 de 1', 1)
"""

from . import words
from .grades import given, grade_key

IDLE_SECONDS = 300
"""A pause between two grades longer than this counts as this long in the time spent."""


def progress(job: dict, grades: dict, index: int) -> dict:
    """Pair ``index``'s progress: ``done`` and ``total`` (pairs graded of the job's), ``query``, ``queries``,
    ``query_done``, ``query_total``, ``seconds`` (:func:`time_spent`), ``time`` and ``text``."""
    graded = given(grades)
    pairs = job["pairs"]
    qid = pairs[index][0]
    queries = list(dict.fromkeys(pair[0] for pair in pairs))
    own = [grade_key(*pair) for pair in pairs if pair[0] == qid]
    done = len(graded.keys() & {grade_key(*pair) for pair in pairs})
    query_done = sum(1 for key in own if key in graded)
    seconds = time_spent(grades)
    place = queries.index(qid) + 1
    return {"done": done, "total": len(pairs), "query": place, "queries": len(queries), "query_done": query_done,
            "query_total": len(own), "seconds": seconds, "time": words.time_text(seconds),
            "text": words.progress_text(done, len(pairs), place, len(queries), query_done, len(own))}


def time_spent(grades: dict) -> float:
    """Seconds spent judging (the module's docstring): the gaps between the grades' moments, each at most
    :data:`IDLE_SECONDS`, and the first grade as long as their median.

    >>> time_spent({"a": {"grade": 1, "at": 0}, "b": {"grade": 0, "at": 20_000}, "c": {"grade": 2, "at": 9_000_000}})
    480.0
    >>> time_spent({"a": {"grade": 1, "at": 0}, "b": {"grade": 0, "at": 2_000}}), time_spent({"a": {"grade": 1, "at": 5}})
    (4.0, 0.0)
    """
    moments = sorted(entry["at"] for entry in grades.values())
    gaps = sorted(min((later - earlier) / 1000, IDLE_SECONDS) for earlier, later in zip(moments, moments[1:]))
    if not gaps:
        return 0.0
    middle = len(gaps) // 2
    median = gaps[middle] if len(gaps) % 2 else (gaps[middle - 1] + gaps[middle]) / 2
    return float(sum(gaps) + median)


def resume_index(job: dict, grades: dict) -> int:
    """Where to resume: the first pair in judging order without a grade in force (the last pair when all have one).

    >>> from raglab_core.judges.job import make_job
    >>> job = make_job({}, [("q", "a")], {}, created="2026-01-01T00:00:00Z")
    >>> resume_index(job, {}), resume_index(job, {"q\\ta": {"grade": 0, "at": 1}})
    (0, 0)
    """
    graded = given(grades)
    for index, (qid, docid) in enumerate(job["pairs"]):
        if grade_key(qid, docid) not in graded:
            return index
    return len(job["pairs"]) - 1


__all__ = ["IDLE_SECONDS", "progress", "time_spent", "resume_index"]
