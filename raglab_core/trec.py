"""Streaming parsers for TREC qrels and runs, with bilingual error reports.

Both parsers take any iterable of text lines (an open file, ``str.splitlines()``
of a text the browser read, a list in a test) or a whole ``str``, plus the
file's ``name`` for messages. They read line by line, return plain nested
dicts, and return nothing partial: on bad input they raise one
:class:`TrecFormatError` listing the first :data:`MAX_REPORTED` problems with
their line numbers and counting the rest.

Formats (those of trec_eval [1]_; whitespace-separated columns, any run of
spaces or tabs):

* **qrels**: ``qid iter docid rel`` -> ``{qid: {docid: rel}}``. ``iter`` is
  ignored, as trec_eval does; ``rel`` is an integer and may be negative
  (trec_eval's convention for "judged non-relevant"): the value is kept, and
  the evaluator treats ``rel <= 0`` as non-relevant with gain 0.
* **run**: ``qid Q0 docid rank score tag`` -> ``{qid: {docid: score}}``.
  ``Q0``, ``rank`` and ``tag`` are ignored, as trec_eval does: the ranking
  comes from the scores alone. ``score`` is a finite number.
* **JSON run**: ``{qid: {docid: score}}`` (ranx's and pytrec_eval's in-memory
  shape [2]_), detected when the first non-blank character is ``{`` (so a
  TREC run cannot start with a query id beginning with ``{``).

Strictness: fully blank lines are skipped; anything else that is not a
well-formed record is an error (trec_eval has no comment syntax). A
(qid, docid) pair given twice is an error in both formats. A first record with
the other format's column count is reported once as a swapped file ("this looks
like a run file, not qrels"), not line by line.

>>> parse_qrels(["q1 0 d1 2", "", "q1 0 d2 0", "q2 0 d1 -1"], name="qrels.txt")
{'q1': {'d1': 2, 'd2': 0}, 'q2': {'d1': -1}}
>>> parse_run("q1 Q0 d1 1 0.5 bm25\\nq1 Q0 d2 2 0.25 bm25\\n", name="run.txt")
{'q1': {'d1': 0.5, 'd2': 0.25}}
>>> parse_run(['{"q1": {"d1": 0.5, "d2": 1}}'], name="run.json")
{'q1': {'d1': 0.5, 'd2': 1.0}}
>>> try:
...     parse_qrels(["q1 0 d1 2", "q1 0 d2 high"], name="qrels.txt")
... except TrecFormatError as error:
...     print(error.english())
...     print(error)
qrels.txt, line 2: relevance 'high' is not an integer
qrels.txt, línea 2: la relevancia «high» no es un número entero

References
----------
.. [1] NIST, *trec_eval*, https://github.com/usnistgov/trec_eval (README:
   formats of the qrels and results files).
.. [2] E. Bassani, "ranx: A Blazing-Fast Python Library for Ranking
   Evaluation and Comparison", ECIR 2022.
"""

import itertools
import json
from typing import NamedTuple

from .errors import LabError

MAX_REPORTED = 10
"""Problems listed one by one in a :class:`TrecFormatError`; further ones are only counted."""

QRELS_LAYOUT = "qid iter docid rel"
RUN_LAYOUT = "qid Q0 docid rank score tag"

# kind -> (English, Spanish) templates, filled from Problem.details. English quotes values with
# repr() (escapes show odd characters); Spanish with «», as the page does.
_MESSAGES = {
    "columns": (
        "expected {expected} columns ({layout}), found {found}",
        "se esperaban {expected} columnas ({layout}) y hay {found}",
    ),
    "looks_like_run": (
        "this looks like a run file (6 columns: " + RUN_LAYOUT + "), not qrels",
        "esto parece un fichero de run (6 columnas: " + RUN_LAYOUT + "), no de qrels",
    ),
    "looks_like_qrels": (
        "this looks like a qrels file (4 columns: " + QRELS_LAYOUT + "), not a run",
        "esto parece un fichero de qrels (4 columnas: " + QRELS_LAYOUT + "), no un run",
    ),
    "json_qrels": (
        "qrels must be in TREC format (" + QRELS_LAYOUT + "), not JSON",
        "los qrels deben estar en formato TREC (" + QRELS_LAYOUT + "), no en JSON",
    ),
    "relevance": (
        "relevance {value!r} is not an integer",
        "la relevancia «{value}» no es un número entero",
    ),
    "score": (
        "score {value!r} is not a number",
        "la puntuación «{value}» no es un número",
    ),
    "not_finite": (
        "score {value!r} is not a finite number",
        "la puntuación «{value}» no es un número finito",
    ),
    "duplicate": (
        "document {docid!r} appears more than once for query {qid!r}",
        "el documento «{docid}» aparece más de una vez en la consulta «{qid}»",
    ),
    "duplicate_query": (
        "query {qid!r} appears more than once",
        "la consulta «{qid}» aparece más de una vez",
    ),
    "empty_qrels": (
        "the file holds no judgments",
        "el fichero no contiene ningún juicio de relevancia",
    ),
    "empty_run": (
        "the file holds no results",
        "el fichero no contiene ningún resultado",
    ),
    "json_syntax": (
        "invalid JSON at column {column}",
        "JSON no válido en la columna {column}",
    ),
    "json_shape": (
        "a JSON run must be an object {{qid: {{docid: score}}}}; {where} is not an object",
        "un run JSON debe ser un objeto {{qid: {{docid: puntuación}}}}; {where} no es un objeto",
    ),
}

_LANGUAGES = {"en": 0, "es": 1}
_WORDS = {  # (English, Spanish)
    "line": ("line", "línea"),
    "problems": ("problems", "problemas"),
    "more": ("… and {count} more", "… y {count} más"),
    "the top level": ("the top level", "el nivel superior"),
    "query": ("query {qid!r}", "la consulta «{qid}»"),
}


def _word(key, language, **details):
    return _WORDS[key][_LANGUAGES[language]].format(**details)


class Problem(NamedTuple):
    """One problem in a file: its 1-based ``line`` (``None`` when not tied to a line),
    its ``kind`` (a key such as ``"relevance"``) and the ``details`` filling its message.

    >>> Problem(4, "score", {"value": "x"}).render("en")
    "line 4: score 'x' is not a number"
    """

    line: int | None
    kind: str
    details: dict

    def render(self, language: str = "es") -> str:
        """The problem in ``language`` (``"en"`` or ``"es"``), prefixed by its line."""
        details = dict(self.details)
        if "where" in details:  # a structural location, itself translated
            where = details["where"]
            details["where"] = (
                _word("the top level", language) if where is None else _word("query", language, qid=where)
            )
        text = _MESSAGES[self.kind][_LANGUAGES[language]].format(**details)
        return text if self.line is None else f"{_word('line', language)} {self.line}: {text}"


class TrecFormatError(LabError):
    """A qrels or run file that cannot be read, with every problem found (up to a limit).

    Attributes: ``name`` (the file's name as given), ``field`` (``"qrels"`` or
    ``"run"``: which input is wrong), ``problems`` (the first
    :data:`MAX_REPORTED` :class:`Problem` s, in file order) and ``more`` (how
    many further problems were found but not listed). Messages are produced
    from these data in either language: :meth:`render` (``"en"`` or
    ``"es"``), :meth:`english`; ``str(error)`` is Spanish, like every
    :class:`~raglab_core.errors.LabError`.

    >>> error = TrecFormatError("run.txt", "run", [Problem(3, "score", {"value": "n/a"})], more=2)
    >>> print(error.english())
    run.txt: 3 problems
      line 3: score 'n/a' is not a number
      … and 2 more
    """

    def __init__(self, name: str, field: str, problems, more: int = 0):
        self.name = name
        self.problems = list(problems)
        self.more = more
        super().__init__("trec_format", field=field)

    def render(self, language: str = "es") -> str:
        """The whole report in ``language``: one line for one problem, else a list."""
        if len(self.problems) == 1 and not self.more:
            problem = self.problems[0]
            text = problem._replace(line=None).render(language)
            where = "" if problem.line is None else f", {_word('line', language)} {problem.line}"
            return f"{self.name}{where}: {text}"
        total = len(self.problems) + self.more
        lines = [f"{self.name}: {total} {_word('problems', language)}"]
        lines += [f"  {problem.render(language)}" for problem in self.problems]
        if self.more:
            lines.append(f"  {_word('more', language, count=self.more)}")
        return "\n".join(lines)

    def english(self) -> str:
        """The report in English (for the command line)."""
        return self.render("en")


class _Problems:
    """Collects problems: the first MAX_REPORTED in full, then only a count."""

    def __init__(self, name, field):
        self.name, self.field = name, field
        self.listed, self.more = [], 0

    def add(self, line, kind, **details):
        if len(self.listed) < MAX_REPORTED:
            self.listed.append(Problem(line, kind, details))
        else:
            self.more += 1

    def fail(self, line, kind, **details):
        """Raise at once for a problem that makes reading on pointless."""
        raise TrecFormatError(self.name, self.field, [Problem(line, kind, details)])

    def raise_if_any(self):
        if self.listed:
            raise TrecFormatError(self.name, self.field, self.listed, self.more)


def _first_record(lines):
    """Skip blank lines: return (line number, first non-blank line or None, the remaining lines)."""
    if isinstance(lines, str):
        lines = lines.splitlines()
    lines = iter(lines)
    for number, line in enumerate(lines, start=1):
        if line and not line.isspace():
            return number, line, lines
    return None, None, lines


def parse_qrels(lines, name: str = "qrels") -> dict[str, dict[str, int]]:
    """Read TREC qrels (``qid iter docid rel``) into ``{qid: {docid: rel}}``.

    ``rel`` must parse as an ``int`` (negative values are kept); a swapped run
    file, a JSON document, an empty file, malformed lines and repeated
    (qid, docid) pairs raise :class:`TrecFormatError`.

    >>> parse_qrels("q1 0 d1 1\\nq1 0 d1 2\\n", name="q.txt")
    Traceback (most recent call last):
      ...
    raglab_core.trec.TrecFormatError: q.txt, línea 2: el documento «d1» aparece más de una vez en la consulta «q1»
    """
    problems = _Problems(name, "qrels")
    start, first, rest = _first_record(lines)
    if first is None:
        problems.fail(None, "empty_qrels")
    columns = len(first.split())
    if columns != 4 and first.lstrip().startswith("{"):
        problems.fail(start, "json_qrels")
    if columns == 6:
        problems.fail(start, "looks_like_run")

    qrels = {}
    last_qid = judged = None
    # The hot loop: one split, one int(), two dict operations. Malformed and blank
    # lines both land in the except branch, which sorts them out (the rare path).
    for number, line in enumerate(itertools.chain((first,), rest), start=start):
        try:
            qid, _, docid, rel = line.split()
            grade = int(rel)
        except ValueError:
            _bad_line(problems, number, line, QRELS_LAYOUT, "rel", "relevance")
            continue
        if qid != last_qid:  # records usually come grouped by query
            judged = qrels.get(qid)
            if judged is None:
                judged = qrels[qid] = {}
            last_qid = qid
        if docid in judged:
            problems.add(number, "duplicate", qid=qid, docid=docid)
            continue
        judged[docid] = grade
    problems.raise_if_any()
    return qrels


def parse_run(lines, name: str = "run") -> dict[str, dict[str, float]]:
    """Read a run, TREC (``qid Q0 docid rank score tag``) or JSON, into ``{qid: {docid: score}}``.

    The format is JSON when the first non-blank character is ``{``. Scores
    become ``float`` and must be finite; a swapped qrels file, an empty file,
    malformed lines and repeated (qid, docid) pairs raise
    :class:`TrecFormatError`.

    >>> parse_run(["q1 Q0 d1 1 nan tag", "q1 Q0 d2 2 0.1"], name="r.txt")
    Traceback (most recent call last):
      ...
    raglab_core.trec.TrecFormatError: r.txt: 2 problemas
      línea 1: la puntuación «nan» no es un número finito
      línea 2: se esperaban 6 columnas (qid Q0 docid rank score tag) y hay 5
    """
    problems = _Problems(name, "run")
    start, first, rest = _first_record(lines)
    if first is None:
        problems.fail(None, "empty_run")
    if first.lstrip().startswith("{"):
        return _parse_json_run(first, rest, start, problems)
    if len(first.split()) == 4:
        problems.fail(start, "looks_like_qrels")

    run = {}
    last_qid = ranked = None
    for number, line in enumerate(itertools.chain((first,), rest), start=start):  # as in parse_qrels
        try:
            qid, _, docid, _, text, _ = line.split()
            score = float(text)
        except ValueError:
            _bad_line(problems, number, line, RUN_LAYOUT, "score", "score")
            continue
        if score - score != 0.0:  # NaN or ±inf: x - x is NaN for both, 0.0 otherwise
            problems.add(number, "not_finite", value=text)
            continue
        if qid != last_qid:
            ranked = run.get(qid)
            if ranked is None:
                ranked = run[qid] = {}
            last_qid = qid
        if docid in ranked:
            problems.add(number, "duplicate", qid=qid, docid=docid)
            continue
        ranked[docid] = score
    problems.raise_if_any()
    return run


def _bad_line(problems, number, line, layout, column, kind):
    """Note why a line failed to unpack or convert: blank (fine), wrong column count, or a bad
    value in ``column`` (a name in ``layout``), reported as ``kind``."""
    fields, names = line.split(), layout.split()
    if not fields:
        return
    if len(fields) != len(names):
        problems.add(number, "columns", expected=len(names), layout=layout, found=len(fields))
    else:
        problems.add(number, kind, value=fields[names.index(column)])


class _JSONObject(dict):
    """A JSON object that remembers the keys it saw more than once (``json.loads`` keeps the last)."""

    repeated = ()


def _object_noting_repeats(pairs):
    obj = _JSONObject(pairs)
    if len(obj) < len(pairs):
        seen = set()
        obj.repeated = [key for key, _ in pairs if key in seen or seen.add(key)]
    return obj


def _parse_json_run(first, rest, start, problems):
    """The JSON branch of :func:`parse_run`: the whole text at once, then its shape.

    JSON carries no line numbers per record, so problems name the query and
    document instead (syntax errors keep the line the decoder reports).
    """
    text = "\n".join(line.rstrip("\r\n") for line in itertools.chain((first,), rest))
    try:
        data = json.loads(text, object_pairs_hook=_object_noting_repeats)
    except json.JSONDecodeError as error:
        problems.fail(start + error.lineno - 1, "json_syntax", column=error.colno)
    if not isinstance(data, dict):
        problems.fail(start, "json_shape", where=None)

    for qid in data.repeated:
        problems.add(None, "duplicate_query", qid=qid)
    run = {}
    for qid, ranked in data.items():
        if not isinstance(ranked, dict):
            problems.add(None, "json_shape", where=qid)
            continue
        for docid in ranked.repeated:
            problems.add(None, "duplicate", qid=qid, docid=docid)
        scores = run[qid] = {}
        for docid, value in ranked.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                problems.add(None, "score", value=value)
                continue
            try:
                score = float(value)
            except OverflowError:  # an integer beyond the float range
                score = float("inf")
            if score - score != 0.0:
                problems.add(None, "not_finite", value=value)
            else:
                scores[docid] = score
    problems.raise_if_any()
    if not run:
        problems.fail(None, "empty_run")
    return run
