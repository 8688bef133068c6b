"""What the judging page shows of one pair (DESIGN §4.13): the query, the document with the query's words marked
(:mod:`raglab_core.judges.marking`), the notes, the progress (:mod:`raglab_core.judges.progress`), the grade in force
and the scale. The page's script stores and shows what :func:`pair_view` returns; every sentence and number comes
from here (the words from :mod:`raglab_core.judges.words`).
"""

from ..errors import LabError
from . import words
from .grades import given, grade_key
from .marking import query_words, segments
from .progress import progress

DISPLAY_CHARACTERS = 50_000
"""A document's text is shown up to this many characters (a note says so); the whole stays in the corpus."""
TITLE_CHARACTERS = 1_000
"""A title is shown up to this many characters, then «…»."""


def _scale(job) -> list:
    return [{"grade": grade, "label": label, "definition": definition, "key": str(grade)}
            for grade, label, definition in words.SCALES[job["settings"]["scale"]]]


def _document_parts(document):
    """``(title, text)`` of a corpus entry: a :class:`~raglab_core.corpus.documents.Document`, or a ``str``."""
    if document is None:
        return None, None
    if isinstance(document, str):
        return "", document
    return document.title, document.text


def pair_view(job: dict, index: int, grades: dict, queries: dict, documents: dict) -> dict:
    """What the page shows of pair ``index`` of ``job``: ``index``, ``query`` (``{"id", "text"}``), ``doc``
    (``{"id", "title", "text"}``, title and text as :func:`~raglab_core.judges.marking.segments` with the query's
    words marked), ``notes`` (a document shown in part, a query or document missing from its file), ``progress``
    (:func:`~raglab_core.judges.progress.progress`), ``grade`` (the grade in force, or ``None``) and ``scale``
    (each grade's ``label`` and ``definition``, lowest first). ``queries`` is ``{qid: text}``, ``documents``
    ``{id: Document}`` (:mod:`raglab_core.corpus`'s readers). Documents are text whatever they hold: nothing here
    is markup.

    >>> from raglab_core.judges.job import make_job
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


__all__ = ["DISPLAY_CHARACTERS", "TITLE_CHARACTERS", "pair_view"]
