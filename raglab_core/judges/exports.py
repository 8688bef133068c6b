"""What leaves the judging page (DESIGN §4.13): a job's qrels, the job and its grades as one file, and the line of
the list of jobs that shows it.

>>> from raglab_core.judges.job import make_job
>>> job = make_job({"seed": 2, "scale": 2}, [("q1", "a"), ("q1", "b"), ("q2", "c")], {}, created="2026-01-01T00:00:00Z")
>>> grades = {"q1\\ta": {"grade": 1, "at": 1000}, "q2\\tc": {"grade": 0, "at": 5000}, "q1\\tb": {"grade": None, "at": 9}}
>>> print(qrels_text(job, grades), end="")
q1 0 a 1
q2 0 c 0
"""

import json

from . import words
from .grades import given, grade_key
from .progress import resume_index, time_spent


def qrels_text(job: dict, grades: dict) -> str:
    """TREC qrels (``qid 0 docid grade``) of the job's pairs graded, queries and then documents in sorted order:
    what a reader would type into ``eval``."""
    graded = given(grades)
    lines = sorted((qid, docid, graded[grade_key(qid, docid)]) for qid, docid in job["pairs"]
                   if grade_key(qid, docid) in graded)
    return "".join(f"{qid} 0 {docid} {grade}\n" for qid, docid, grade in lines)


def export_json(job: dict, grades: dict) -> str:
    """The job and its grades as one JSON document (the job's fields, then ``grades``, in the judging order):
    :func:`raglab_core.judges.job.import_json` continues it on another machine."""
    order = [grade_key(qid, docid) for qid, docid in job["pairs"]]
    kept = {key: {"grade": grades[key]["grade"], "at": grades[key]["at"]} for key in order if key in grades}
    return json.dumps({**job, "grades": kept}, ensure_ascii=False, indent=1) + "\n"


def download(job: dict, grades: dict, kind: str) -> dict:
    """``{"name", "type", "text"}``: the qrels of what was judged (``kind`` ``"qrels"``) or the job as JSON
    (``"json"``), as the judging page saves them.

    >>> from raglab_core.judges.job import make_job
    >>> saved = download(make_job({}, [("q", "a")], {}, created="2026-01-01T00:00:00Z"), {}, "qrels")
    >>> saved["name"], saved["text"]
    ('raglab-qrels.txt', '')
    """
    if kind == "json":
        return {"name": "raglab-juicios.json", "type": "application/json", "text": export_json(job, grades)}
    return {"name": "raglab-qrels.txt", "type": "text/plain", "text": qrels_text(job, grades)}


def job_summary(job: dict, grades: dict) -> dict:
    """One line of the list of jobs: ``id``, ``created``, ``inputs``, ``settings``, ``done``, ``total``,
    ``finished``, ``resume`` (:func:`~raglab_core.judges.progress.resume_index`), ``seconds``, ``time``, ``text``
    and ``line``, what the list shows: the files' names, the text and the time.

    >>> from raglab_core.judges.job import make_job
    >>> job = make_job({}, [("q", "a"), ("q", "b")], {"queries": {"name": "q.tsv", "size": 10}},
    ...                created="2026-01-01T00:00:00Z")
    >>> job["pairs"]
    [['q', 'b'], ['q', 'a']]
    >>> summary = job_summary(job, {"q\\tb": {"grade": 1, "at": 1}})
    >>> summary["text"], summary["finished"], summary["resume"], summary["inputs"]["queries"]["name"]
    ('1 de 2 juzgados', False, 1, 'q.tsv')
    >>> summary["line"]
    'q.tsv · 1 de 2 juzgados · menos de 1 min'
    """
    graded = given(grades)
    done = sum(1 for qid, docid in job["pairs"] if grade_key(qid, docid) in graded)
    total = len(job["pairs"])
    seconds = time_spent(grades)
    text, time = words.job_progress_text(done, total), words.time_text(seconds)
    names = ", ".join(str(entry["name"]) for entry in job["inputs"].values() if isinstance(entry, dict) and entry.get("name"))
    return {"id": job["id"], "created": job["created"], "inputs": job["inputs"], "settings": job["settings"],
            "done": done, "total": total, "finished": done == total, "resume": resume_index(job, grades),
            "seconds": seconds, "time": time, "text": text, "line": words.display_line(names, text, time)}


__all__ = ["qrels_text", "export_json", "job_summary"]
