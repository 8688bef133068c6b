"""Span-level evidence: which characters of which document answer each query.

A line of the JSONL file is ``{"query_id", "doc_id", "start", "end"}`` with an
optional ``"text"``: the characters ``start`` to ``end`` (end exclusive) of the
document's ``text``, counted in code points as Python slices count them, so
``text[start:end]``. Judgments at this level survive re-chunking: they name
characters, not chunks. Each line is checked against the corpus and the
queries, and a bad one is an error naming its line:

* a query that does not exist;
* ``start >= end`` (an empty span), or ``end`` past the document's end;
* a ``"text"`` that is not the slice: when the offsets were counted in UTF-16
  code units (JavaScript's ``String.length``) or UTF-8 bytes, or the text is
  elsewhere in the document, the message says so and gives the right offsets;
* the same span twice (both lines named).

A span naming a document that is not in the corpus is not an error: evidence
made for a whole collection may be measured on part of it. It is kept
unchecked (its line noted in the reader's ``outside``), and
:func:`~raglab_core.corpus.evaluate.prepare` leaves it out of every measure,
counted in a warning (:mod:`raglab_core.corpus.sanity`). Only when *no* span
names a document of the corpus is it an error, naming each line (with the id
it probably means): then the evidence and the corpus do not go together.

>>> from raglab_core.corpus.documents import Document
>>> documents = {"d1": Document("d1", "El café cuesta 2 €.")}
>>> read_spans('{"query_id": "q1", "doc_id": "d1", "start": 3, "end": 7, "text": "café"}', documents, {"q1": "precio"})
[Span(query_id='q1', doc_id='d1', start=3, end=7)]
>>> try:
...     read_spans('{"query_id": "q1", "doc_id": "d1", "start": 3, "end": 8, "text": "café"}', documents)
... except LabError as error:
...     print(error.render("en"))
spans.jsonl, line 1: 'text' is not the document's characters 3:8, but these offsets find it counted in UTF-8 bytes; count characters (code points), as Python does: here 3:7
"""

from typing import NamedTuple

from ..errors import LabError  # noqa: F401 (the doctest)
from .documents import similar_id
from .lines import FirstLines, LineReader, identifier, json_object, offset, text_field

LAYOUT = '{"query_id": ..., "doc_id": ..., "start": ..., "end": ...} and optionally "text"'


class Span(NamedTuple):
    """The characters ``start:end`` of document ``doc_id``'s ``text`` answer query ``query_id``."""

    query_id: str
    doc_id: str
    start: int
    end: int


def _counted_in(text: str, start: int, end: int, given: str, *, encoding: str, width: int):
    """Code point offsets of ``given`` if ``start:end`` locate it in ``text`` encoded as ``encoding``
    (``width`` bytes per unit), else ``None``."""
    data = text.encode(encoding)
    try:
        if data[start * width: end * width].decode(encoding) != given:
            return None
        before = data[: start * width].decode(encoding)
    except UnicodeDecodeError:
        return None
    return len(before), len(before) + len(given)


def text_problem(text: str, start: int, end: int, given: str):
    """Why ``given`` is not ``text[start:end]``: ``(code, details)`` for the message, or ``None`` when it is.

    >>> text_problem("😀 ok", 3, 5, "ok")   # 😀 is 2 UTF-16 code units and 4 UTF-8 bytes
    ('span_text_utf16', {'start': 3, 'end': 5, 'fixed_start': 2, 'fixed_end': 4})
    >>> text_problem("a b a", 0, 1, "b")[0], text_problem("a", 0, 1, "a")
    ('span_text_elsewhere', None)
    """
    if text[start:end] == given:
        return None
    details = {"start": start, "end": end}
    for code, encoding, width in (("span_text_utf16", "utf-16-le", 2), ("span_text_utf8", "utf-8", 1)):
        fixed = _counted_in(text, start, end, given, encoding=encoding, width=width)
        if fixed is not None:
            return code, {**details, "fixed_start": fixed[0], "fixed_end": fixed[1]}
    found = text.find(given) if given else -1
    if found >= 0:
        return "span_text_elsewhere", {**details, "found_start": found, "found_end": found + len(given)}
    return "span_text", {**details, "given": given, "found": text[start:end]}


def check_span(reader: LineReader, number: int, span: Span, *, documents, queries=None, given=None) -> bool:
    """Is ``span`` (of line ``number``) for an existing query (when ``queries`` is given), inside its document,
    and is ``given`` (when not ``None``) its text? Problems are noted on ``reader``. A span whose document is
    not in the corpus is kept (``True``) unchecked, its line and document noted in ``reader.outside``."""
    ok = True
    if queries is not None and span.query_id not in queries:
        reader.problem(number, "unknown_query", qid=span.query_id)
        ok = False
    document = documents.get(span.doc_id)
    if document is None:
        if ok:
            reader.outside.append((number, span.doc_id))
        return ok
    if span.start >= span.end:
        reader.problem(number, "span_order", start=span.start, end=span.end)
        return False
    if span.end > len(document.text):
        reader.problem(number, "span_beyond", end=span.end, doc=span.doc_id, length=len(document.text))
        return False
    if given is not None:
        problem = text_problem(document.text, span.start, span.end, given)
        if problem is not None:
            reader.problem(number, problem[0], **problem[1])
            return False
    return ok


def none_inside(reader: LineReader, spans, documents) -> None:
    """When spans were read but none names a document of the corpus, note each line that names one it lacks
    (with the id it probably means): the evidence is for another corpus, or names its documents otherwise."""
    if not spans or len(reader.outside) < len(spans):
        return
    for number, doc_id in reader.outside:
        like = similar_id(doc_id, documents)
        if like is None:
            reader.problem(number, "unknown_document", doc=doc_id)
        else:
            reader.problem(number, "unknown_document_like", doc=doc_id, like=like)


class SpansReader(LineReader):
    """Reads span-level evidence (JSONL) into a list of :class:`Span`, checked against ``documents``
    (``{id: Document}``) and ``queries`` (ids; ``None``: not checked)."""

    field = "evidence"

    def __init__(self, name: str, documents, queries=None):
        super().__init__(name)
        self.documents, self.queries = documents, queries
        self.result = []
        self.outside = []  # (line, document) of each span whose document is not in the corpus
        self.first = FirstLines()

    def line(self, number, text):
        record = json_object(self, number, text, LAYOUT)
        if record is None:
            return
        values = (
            identifier(self, number, record, "query_id", LAYOUT),
            identifier(self, number, record, "doc_id", LAYOUT),
            offset(self, number, record, "start", LAYOUT),
            offset(self, number, record, "end", LAYOUT),
        )
        given = None
        if record.get("text") is not None:
            given = text_field(self, number, record, "text", LAYOUT)
            if given is None:
                return
        if None in values:
            return
        span = Span(*values)
        if check_span(self, number, span, documents=self.documents, queries=self.queries, given=given) and not self.first.seen(
            self, number, span
        ):
            self.result.append(span)

    def finish(self):
        if not self.result:
            self.problem(None, "no_spans")
        none_inside(self, self.result, self.documents)
        return self.result


def read_spans(text: str, documents, queries=None, name: str = "spans.jsonl") -> list:
    """Whole span-level evidence read into a list of :class:`Span`."""
    return SpansReader(name, documents, queries).read(text)


def spans_by_query(spans) -> dict:
    """``{query_id: [Span, ...]}``, in the order given.

    >>> spans_by_query([Span("q1", "d", 0, 1), Span("q2", "d", 1, 2), Span("q1", "e", 0, 1)])["q1"]
    [Span(query_id='q1', doc_id='d', start=0, end=1), Span(query_id='q1', doc_id='e', start=0, end=1)]
    """
    grouped = {}
    for span in spans:
        grouped.setdefault(span.query_id, []).append(span)
    return grouped
