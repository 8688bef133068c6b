"""The judging page's Python (DESIGN §4.13): a job of pairs to judge, the view of one pair, the grades turned into
qrels, and the job saved and continued elsewhere. The page's script stores and shows what these functions return;
every sentence and number comes from here (the words from :mod:`raglab_core.judges.words`).

**A job** (:func:`make_job`) is plain JSON::

    {"format": "raglab-judging", "version": 1, "id": "…", "created": "2026-12-04T23:18:20Z",
     "settings": {"depth": 10, "sample": 100, "seed": 42, "scale": 4},
     "inputs": {"queries": {"name": "queries.jsonl", "size": 1234}, …},
     "pairs": [["q1", "d7"], ["q1", "d2"], …]}

``pairs`` are in **judging order**: grouped by query, the queries in the order the pool gives them
(:func:`raglab_core.judges.pooling.pool`: sorted), and within a query shuffled with the seed
(:func:`raglab_core.judges.pooling.shuffled`, one generator over the queries in turn), so that a reader never
sees a run's rank order and judges the text, not the rank. A job never records which run or rank a pair came
from, nor a model's grade.

**Grades** are ``{"qid\\tdocid": {"grade": G, "at": T}}``: G an integer of the job's scale (0–3, or 0–1 on the
binary scale) or ``None`` for a grade undone, and T the moment it was given in milliseconds since 1970 (the
browser's ``Date.now()``). An undone grade is kept with its moment, so that when two tabs' grades meet
(:func:`merge_grades`) the newer of each pair wins, an undo included.

**The time spent** (:func:`time_spent`): the gaps between consecutive grades, in order of their moments, each
capped at :data:`IDLE_SECONDS` (a pause longer than that counts as that long), and the first grade, whose start
is not known, as long as the median of those gaps (nothing when it is the only grade).

>>> job = make_job({"seed": 2, "scale": 2}, [("q1", "a"), ("q1", "b"), ("q2", "c")], {}, created="2026-01-01T00:00:00Z")
>>> job["pairs"], job["id"]
([['q1', 'b'], ['q1', 'a'], ['q2', 'c']], 'f0b2e714c3e8fde8')
>>> grades = {"q1\\ta": {"grade": 1, "at": 1000}, "q2\\tc": {"grade": 0, "at": 5000}, "q1\\tb": {"grade": None, "at": 9}}
>>> print(qrels_text(job, grades), end="")
q1 0 a 1
q2 0 c 0
"""

import hashlib
import json
import random
import re
import unicodedata
from datetime import datetime, timezone

from ..errors import LabError
from ..runs.trec import TextReader
from . import words
from .pooling import DEFAULT_SEED, shuffled

FORMAT = "raglab-judging"
VERSION = 1
DISPLAY_CHARACTERS = 50_000
"""A document's text is shown up to this many characters (a note says so); the whole stays in the corpus."""
TITLE_CHARACTERS = 1_000
"""A title is shown up to this many characters, then «…»."""
IDLE_SECONDS = 300
"""A pause between two grades longer than this counts as this long in the time spent."""
POOL_LAYOUT = "query_id<TAB>doc_id"
TOKEN = re.compile(r"\w+")
"""A word, as :data:`raglab_core.corpus.tokens.TOKEN` cuts the corpus into words (the same pattern, kept here
so that this module does not import :mod:`raglab_core.corpus`, which the page adds only on first use)."""


# --- the pool file -------------------------------------------------------------------------------------


class PoolReader(TextReader):
    """Reads a pool file, the TSV ``pool`` prints (``query_id<TAB>doc_id`` per line; blank lines skipped, a
    trailing ``\\r`` dropped), into a list of pairs in file order; each problem is named with its line. An id is
    non-empty and holds no whitespace, as in a TREC run."""

    field = "pool"

    def __init__(self, name: str = "pool.tsv"):
        super().__init__(name)
        self.result = []
        self.seen = set()

    def lines(self, lines) -> None:
        for text in lines:
            self.number += 1
            text = text[:-1] if text.endswith("\r") else text
            if text.strip():
                self.line(self.number, text)

    def line(self, number, text):
        fields = text.split("\t")
        if len(fields) != 2:
            self.problems.add(number, "pool_columns", found=len(fields))
            return
        for value in fields:
            if not value:
                self.problems.add(number, "id_blank", key="id")
                return
            if not _is_id(value):
                self.problems.add(number, "id_space", value=value)
                return
        pair = (fields[0], fields[1])
        if pair in self.seen:
            self.problems.add(number, "duplicate", qid=pair[0], docid=pair[1])
            return
        self.seen.add(pair)
        self.result.append(pair)

    def close(self) -> list:
        """End the text: the pairs read, or :class:`~raglab_core.runs.trec.TrecFormatError` with every problem."""
        self.end_text()
        if not self.result and not self.problems.listed:
            self.problems.add(None, "no_pairs")
        self.problems.raise_if_any()
        return self.result

    def read(self, text: str) -> list:
        """Read a whole text at once."""
        self.feed(text)
        return self.close()


def read_pool(text: str, name: str = "pool.tsv") -> list:
    """A whole pool file's text read into ``[(qid, docid)]``.

    >>> read_pool("q1\\ta\\nq1\\tb\\n")
    [('q1', 'a'), ('q1', 'b')]
    >>> read_pool("q1\\ta\\nq1 b\\n", name="pool.tsv")
    Traceback (most recent call last):
      ...
    raglab_core.runs.trec.TrecFormatError: «pool.tsv», línea 2: se esperaban 2 columnas separadas por un tabulador (query_id<TAB>doc_id) y hay 1
    """
    return PoolReader(name).read(text)


# --- the job --------------------------------------------------------------------------------------------


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


def _is_id(value) -> bool:
    return isinstance(value, str) and bool(value) and value.split() == [value]


def _pairs(pairs) -> list:
    if not isinstance(pairs, (list, tuple)) or not pairs:
        raise _bad("pairs", "pairs")
    found, seen = [], set()
    for pair in pairs:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2 or not all(_is_id(part) for part in pair):
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


# --- the view of one pair -------------------------------------------------------------------------------


def fold(word: str) -> str:
    """A word as marks compare it: without accents or other combining marks, case-folded.

    >>> fold("Qué"), fold("ÁRBOL"), fold("Straße"), fold("niño") == fold("nino")
    ('que', 'arbol', 'strasse', True)
    """
    if word.isascii():  # the usual case; ASCII's casefold is lower
        return word.lower()
    decomposed = unicodedata.normalize("NFD", word)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()


FUNCTION_WORDS = frozenset("""
a al and are as at be but by de del did do does el en es for from has have how in is it la las lo los
of on or para pero por que se su sus that the their this to una uno unos unas was were what when where
which who why will with y o u con como cual cuales cuando donde quien quienes sin sobre entre hay ser esta
este esto estos estas fue son
""".split())
"""English and Spanish function words (articles, prepositions, conjunctions, question words, forms of «be»/«ser»),
folded: a query's word among them marks nothing, since «and» or «de» would light up every line of a text."""


def query_words(query: str) -> set:
    """The folded words (:data:`TOKEN`) of ``query`` that say what it is about: not a lone letter (the «s» of
    «Biden's»), which would mark every such letter of the text, nor a :data:`FUNCTION_WORDS` word; a lone
    digit stays.

    >>> sorted(query_words("What did Biden's plan say about 5 G and the border?"))
    ['5', 'about', 'biden', 'border', 'plan', 'say']
    """
    return {folded for word in TOKEN.findall(query)
            if (len(word) > 1 or word.isdigit()) and (folded := fold(word)) not in FUNCTION_WORDS}


def segments(text: str, marked: set) -> list:
    """``text`` cut into ``{"text", "mark"}`` segments, a whole word (``\\w+``) whose :func:`fold` is in ``marked``
    marked; the segments' texts join back into ``text``, unchanged.

    >>> segments("¿Qué es RAG? Un fragmento.", query_words("qué es rag"))
    [{'text': '¿Qué es ', 'mark': False}, {'text': 'RAG', 'mark': True}, {'text': '? Un fragmento.', 'mark': False}]
    """
    found, start = [], 0
    folded = {}  # a text's words repeat: each is folded once
    for match in TOKEN.finditer(text):
        word = match.group()
        hit = folded.get(word)
        if hit is None:
            hit = folded[word] = fold(word) in marked
        if hit:
            if match.start() > start:
                found.append({"text": text[start:match.start()], "mark": False})
            found.append({"text": word, "mark": True})
            start = match.end()
    if start < len(text) or not found:
        found.append({"text": text[start:], "mark": False})
    return found


def _scale(job) -> list:
    return [{"grade": grade, "label": label, "definition": definition, "key": str(grade)}
            for grade, label, definition in words.SCALES[job["settings"]["scale"]]]


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


def _document_parts(document):
    """``(title, text)`` of a corpus entry: a :class:`~raglab_core.corpus.documents.Document`, or a ``str``."""
    if document is None:
        return None, None
    if isinstance(document, str):
        return "", document
    return document.title, document.text


def pair_view(job: dict, index: int, grades: dict, queries: dict, documents: dict) -> dict:
    """What the page shows of pair ``index`` of ``job``: ``index``, ``query`` (``{"id", "text"}``), ``doc``
    (``{"id", "title", "text"}``, title and text as :func:`segments` with the query's words marked), ``notes``
    (a document shown in part, a query or document missing from its file), ``progress`` (:func:`progress`),
    ``grade`` (the grade in force, or ``None``) and ``scale`` (each grade's ``label`` and ``definition``, lowest
    first). ``queries`` is ``{qid: text}``, ``documents`` ``{id: Document}`` (:mod:`raglab_core.corpus`'s
    readers). Documents are text whatever they hold: nothing here is markup.

    >>> job = make_job({"scale": 2}, [("q1", "d1")], {}, created="2026-01-01T00:00:00Z")
    >>> view = pair_view(job, 0, {}, {"q1": "rag"}, {"d1": "Un fragmento sobre RAG."})
    >>> [part["text"] for part in view["doc"]["text"] if part["mark"]], view["progress"]["text"], view["grade"]
    (['RAG'], '0 de 1 juzgados · consulta 1 de 1: 0 de 1', None)
    """
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(job["pairs"]):
        raise LabError.page(f"No hay ningún par {index} en este trabajo.", field="index")
    qid, docid = job["pairs"][index]
    notes = []
    query = queries.get(qid)
    if query is None:
        notes.append(words.MISSING_QUERY)
    marked = query_words(query or "")
    title, text = _document_parts(documents.get(docid))
    if text is None:
        notes.append(words.MISSING_DOCUMENT)
        title, text = "", ""
    if len(title) > TITLE_CHARACTERS:
        title = title[:TITLE_CHARACTERS] + "…"
    if len(text) > DISPLAY_CHARACTERS:
        notes.append(words.shortened_note(DISPLAY_CHARACTERS, len(text)))
        text = text[:DISPLAY_CHARACTERS]
    return {"index": index, "query": {"id": qid, "text": query or ""},
            "doc": {"id": docid, "title": segments(title, marked) if title else [], "text": segments(text, marked)},
            "notes": notes, "progress": progress(job, grades, index),
            "grade": given(grades).get(grade_key(qid, docid)), "scale": _scale(job)}


# --- out: qrels, the job's file, the list of jobs ----------------------------------------------------------


def qrels_text(job: dict, grades: dict) -> str:
    """TREC qrels (``qid 0 docid grade``) of the job's pairs graded, queries and then documents in sorted order:
    what a reader would type into ``eval``."""
    graded = given(grades)
    lines = sorted((qid, docid, graded[grade_key(qid, docid)]) for qid, docid in job["pairs"]
                   if grade_key(qid, docid) in graded)
    return "".join(f"{qid} 0 {docid} {grade}\n" for qid, docid, grade in lines)


def export_json(job: dict, grades: dict) -> str:
    """The job and its grades as one JSON document (the job's fields, then ``grades``, in the judging order):
    :func:`import_json` continues it on another machine."""
    order = [grade_key(qid, docid) for qid, docid in job["pairs"]]
    kept = {key: {"grade": grades[key]["grade"], "at": grades[key]["at"]} for key in order if key in grades}
    return json.dumps({**job, "grades": kept}, ensure_ascii=False, indent=1) + "\n"


def import_json(text: str) -> tuple:
    """``(job, grades)`` from :func:`export_json`'s text (or a job's alone), checked field by field: a
    :class:`LabError` in Spanish names the first field that is wrong.

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


def resume_index(job: dict, grades: dict) -> int:
    """Where to resume: the first pair in judging order without a grade in force (the last pair when all have one).

    >>> job = make_job({}, [("q", "a")], {}, created="2026-01-01T00:00:00Z")
    >>> resume_index(job, {}), resume_index(job, {"q\\ta": {"grade": 0, "at": 1}})
    (0, 0)
    """
    graded = given(grades)
    for index, (qid, docid) in enumerate(job["pairs"]):
        if grade_key(qid, docid) not in graded:
            return index
    return len(job["pairs"]) - 1


def job_summary(job: dict, grades: dict) -> dict:
    """One line of the list of jobs: ``id``, ``created``, ``inputs``, ``settings``, ``done``, ``total``,
    ``finished``, ``resume`` (:func:`resume_index`), ``seconds``, ``time`` and ``text``.

    >>> job = make_job({}, [("q", "a"), ("q", "b")], {"queries": {"name": "q.tsv", "size": 10}},
    ...                created="2026-01-01T00:00:00Z")
    >>> job["pairs"]
    [['q', 'b'], ['q', 'a']]
    >>> summary = job_summary(job, {"q\\tb": {"grade": 1, "at": 1}})
    >>> summary["text"], summary["finished"], summary["resume"], summary["inputs"]["queries"]["name"]
    ('1 de 2 juzgados', False, 1, 'q.tsv')
    """
    graded = given(grades)
    done = sum(1 for qid, docid in job["pairs"] if grade_key(qid, docid) in graded)
    total = len(job["pairs"])
    seconds = time_spent(grades)
    return {"id": job["id"], "created": job["created"], "inputs": job["inputs"], "settings": job["settings"],
            "done": done, "total": total, "finished": done == total, "resume": resume_index(job, grades),
            "seconds": seconds, "time": words.time_text(seconds), "text": words.job_progress_text(done, total)}


__all__ = ["FORMAT", "VERSION", "read_pool", "judging_order", "make_job", "grade_key", "given", "merge_grades",
           "fold", "query_words", "segments", "pair_view", "progress", "time_spent", "qrels_text", "export_json",
           "import_json", "resume_index", "job_summary"]
