"""A judging job (DESIGN §4.13): the pairs to judge in judging order, made (:func:`make_job`) and read back from its
file (:func:`import_json`, which continues a job elsewhere), every field checked.

**A job** is plain JSON::

    {"format": "raglab-judging", "version": 1, "id": "…", "created": "2026-12-04T23:18:20Z",
     "settings": {"depth": 10, "sample": 100, "seed": 42, "scale": 4},
     "inputs": {"queries": {"name": "queries.jsonl", "size": 1234}, …},
     "pairs": [["q1", "d7"], ["q1", "d2"], …]}

``pairs`` are in **judging order**: grouped by query, the queries in the order the pool gives them
(:func:`raglab_core.judges.pooling.pool`: sorted), and within a query shuffled with the seed
(:func:`raglab_core.judges.pooling.shuffled`, one generator over the queries in turn), so that a reader never
sees a run's rank order and judges the text, not the rank. A job never records which run or rank a pair came
from, nor a model's grade. Its grades (:mod:`raglab_core.judges.grades`) are kept beside it.

>>> job = make_job({"seed": 2, "scale": 2}, [("q1", "a"), ("q1", "b"), ("q2", "c")], {}, created="2026-01-01T00:00:00Z")
>>> job["pairs"], job["id"]
([['q1', 'b'], ['q1', 'a'], ['q2', 'c']], 'f0b2e714c3e8fde8')
"""

import hashlib
import json
import random
from datetime import datetime, timezone

from ..errors import LabError
from . import words
from .grades import grade_key
from .pooling import DEFAULT_SEED, is_id, shuffled

FORMAT = "raglab-judging"
VERSION = 1


def _bad(field: str, requirement: str, **params) -> LabError:
    return LabError.page(words.BAD_FIELD.format(field=field, requirement=words.REQUIREMENTS[requirement].format(
        **params)), field=field)


def _count_or_none(value, field):
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise _bad(field, "count")
    return value


def _settings(settings: dict) -> dict:
    if not isinstance(settings, dict):
        raise _bad("settings", "object")
    seed = settings.get("seed", DEFAULT_SEED)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise _bad("seed", "integer")
    scale = settings.get("scale", 4)
    if scale not in words.SCALES or isinstance(scale, bool):
        raise _bad("scale", "scale")
    return {"depth": _count_or_none(settings.get("depth"), "depth"),
            "sample": _count_or_none(settings.get("sample"), "sample"), "seed": seed, "scale": scale}


def _pairs(pairs) -> list:
    if not isinstance(pairs, (list, tuple)) or not pairs:
        raise _bad("pairs", "pairs")
    found, seen = [], set()
    for pair in pairs:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2 or not all(is_id(part) for part in pair):
            raise _bad("pairs", "pairs")
        pair = (pair[0], pair[1])
        if pair in seen:
            raise _bad("pairs", "repeated", pair=f"«{pair[0]}», «{pair[1]}»")
        seen.add(pair)
        found.append(pair)
    return found


def judging_order(pairs, seed: int) -> list:
    """``pairs`` grouped by query (queries in the order they first appear) and shuffled within each query by one
    generator seeded with ``seed``, the queries in turn (:func:`raglab_core.judges.pooling.shuffled`).

    >>> judging_order([("q2", "x"), ("q1", "a"), ("q1", "b"), ("q1", "c"), ("q2", "y")], 5)
    [('q2', 'y'), ('q2', 'x'), ('q1', 'c'), ('q1', 'a'), ('q1', 'b')]
    """
    groups = {}
    for qid, docid in pairs:
        groups.setdefault(qid, []).append((qid, docid))
    rng = random.Random(seed)
    return [pair for group in groups.values() for pair in shuffled(group, rng)]


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def make_job(settings: dict, pairs, inputs: dict, created: str | None = None) -> dict:
    """A job to judge ``pairs`` (in the pool's order; see the module's docstring), JSON-able.

    ``settings``: ``depth`` and ``sample`` (integers ≥ 1, or ``None``), ``seed`` (default
    :data:`~raglab_core.judges.pooling.DEFAULT_SEED`) and ``scale`` (4, the default, or 2); ``inputs``: the files'
    names and sizes, kept to list the job; ``created``: an ISO 8601 moment (default: now, UTC). The ``id`` is the
    first 16 hexadecimal digits of the SHA-256 of the rest, so one job made twice is one job. A
    :class:`LabError` names a bad setting.
    """
    settings = _settings(settings)
    if not isinstance(inputs, dict):
        raise _bad("inputs", "object")
    ordered = judging_order(_pairs(pairs), settings["seed"])
    job = {"format": FORMAT, "version": VERSION, "id": "", "created": created or _now(), "settings": settings,
           "inputs": inputs, "pairs": [[qid, docid] for qid, docid in ordered]}
    content = json.dumps({**job, "id": None}, sort_keys=True, ensure_ascii=False)
    job["id"] = hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return job


def import_json(text: str) -> tuple:
    """``(job, grades)`` from :func:`raglab_core.judges.exports.export_json`'s text (or a job's alone), checked
    field by field: a :class:`LabError` in Spanish names the first field that is wrong.

    >>> from raglab_core.judges.exports import export_json
    >>> job = make_job({}, [("q1", "a")], {}, created="2026-01-01T00:00:00Z")
    >>> import_json(export_json(job, {"q1\\ta": {"grade": 2, "at": 7}})) == (job, {"q1\\ta": {"grade": 2, "at": 7}})
    True
    >>> import_json('{"format": "raglab-judging", "version": 1, "id": "x", "created": "now", "settings": {"scale": 3}}')
    Traceback (most recent call last):
      ...
    raglab_core.errors.LabError: El campo «scale» debe ser 4 (grados 0 a 3) o 2 (grados 0 y 1).
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LabError.page(words.NOT_JSON.format(line=error.lineno, column=error.colno), field="job") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LabError.page(words.NOT_A_JOB, field="format")
    if data.get("version") != VERSION:
        raise LabError.page(words.WRONG_VERSION.format(found=json.dumps(data.get("version")), version=VERSION),
                            field="version")
    for field in ("id", "created"):
        if not isinstance(data.get(field), str) or not data[field]:
            raise _bad(field, "text")
    settings = _settings(data.get("settings"))
    inputs = data.get("inputs", {})
    if not isinstance(inputs, dict):
        raise _bad("inputs", "object")
    pairs = _pairs(data.get("pairs"))
    keys = {grade_key(qid, docid) for qid, docid in pairs}
    grades = data.get("grades", {})
    if not isinstance(grades, dict):
        raise _bad("grades", "object")
    top = settings["scale"] - 1
    for key, entry in grades.items():
        if key not in keys:
            raise _bad("grades", "grade_key", pair=f"«{key.replace(chr(9), '», «')}»")
        if not isinstance(entry, dict):
            raise _bad(f"grades.{key}", "object")
        grade = entry.get("grade")
        if grade is not None and (isinstance(grade, bool) or not isinstance(grade, int) or not 0 <= grade <= top):
            raise _bad("grade", "grade", top=top)
        at = entry.get("at")
        if isinstance(at, bool) or not isinstance(at, int) or at < 0:
            raise _bad("at", "at")
    job = {"format": FORMAT, "version": VERSION, "id": data["id"], "created": data["created"], "settings": settings,
           "inputs": inputs, "pairs": [[qid, docid] for qid, docid in pairs]}
    return job, {key: {"grade": entry.get("grade"), "at": entry["at"]} for key, entry in grades.items()}


__all__ = ["FORMAT", "VERSION", "judging_order", "make_job", "import_json"]
