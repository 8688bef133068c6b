"""Chunks and runs in and out: ``--export-chunks``, ``--chunks F --run F`` and ``--write-runs``.

Chunks travel as JSONL, one per line: ``{"chunk_id", "doc_id", "start",
"end", "text"}``, offsets in characters of the document's
:attr:`~raglab_core.corpus.documents.Document.body` (``title + "\\n\\n" +
text`` when it has a title), end exclusive, ``text`` the slice. Export them,
embed them with your own model, retrieve, and bring back a TREC run over their
``chunk_id`` s; or bring chunks made by any chunker (LangChain's splitters with
``add_start_index=True``, semchunk, chonkie, your own): whatever made them, the
same evidence and document measures read them
(:func:`raglab_core.corpus.evaluate.evaluate_runs`). ``"text"`` is optional on
the way in; when given it must be the slice.

>>> from raglab_core.corpus.documents import Document
>>> from raglab_core.corpus.tokens import tokenize_corpus
>>> from raglab_core.corpus.chunks import chunk_table
>>> documents = {"d": Document("d", "uno dos tres", "T")}
>>> table = chunk_table(tokenize_corpus({"d": documents["d"].body}), 2, 0)
>>> lines = list(chunk_lines(table, documents))
>>> lines[1]
'{"chunk_id": "d#1", "doc_id": "d", "start": 7, "end": 15, "text": "dos tres"}'
>>> read_chunks("\\n".join(lines), documents)
{'d#0': ('d', 0, 6), 'd#1': ('d', 7, 15)}
>>> run_lines({"q1": {"d#1": 2.5, "d#0": 0.25}}, "bm25")
['q1 Q0 d#1 1 2.5 bm25', 'q1 Q0 d#0 2 0.25 bm25']
"""

import json

from ..runs.evaluation import trec_order
from .lines import FirstLines, LineReader, identifier, json_object, offset, text_field
from .spans import text_problem

LAYOUT = '{"chunk_id": ..., "doc_id": ..., "start": ..., "end": ...} and optionally "text"'


def chunk_lines(table, documents):
    """The JSONL lines (without line ends) of every chunk of ``table``, in document order."""
    corpus = table.corpus
    for index, chunk_id in enumerate(table.chunk_ids):
        doc_id = corpus.ids[table.documents[index]]
        start, end = table.characters(index)
        record = {"chunk_id": chunk_id, "doc_id": doc_id, "start": start, "end": end,
                  "text": documents[doc_id].body[start:end]}
        yield json.dumps(record, ensure_ascii=False)


class ChunksReader(LineReader):
    """Reads chunks (JSONL) into ``{chunk_id: (doc_id, start, end)}``, checked against ``documents``."""

    field = "chunks"

    def __init__(self, name: str, documents):
        super().__init__(name)
        self.documents = documents
        self.result = {}
        self.first = FirstLines()

    def line(self, number, text):
        record = json_object(self, number, text, LAYOUT)
        if record is None:
            return
        chunk_id = identifier(self, number, record, "chunk_id", LAYOUT)
        doc_id = identifier(self, number, record, "doc_id", LAYOUT)
        start = offset(self, number, record, "start", LAYOUT)
        end = offset(self, number, record, "end", LAYOUT)
        given = None
        if record.get("text") is not None:
            given = text_field(self, number, record, "text", LAYOUT)
            if given is None:
                return
        if None in (chunk_id, doc_id, start, end):
            return
        document = self.documents.get(doc_id)
        if document is None:
            self.problem(number, "unknown_document", doc=doc_id)
            return
        body = document.body
        if start >= end:
            self.problem(number, "span_order", start=start, end=end)
            return
        if end > len(body):
            self.problem(number, "span_beyond", end=end, doc=doc_id, length=len(body))
            return
        if given is not None:
            problem = text_problem(body, start, end, given)
            if problem is not None:
                self.problem(number, problem[0], **problem[1])
                return
        if not self.first.seen(self, number, chunk_id):
            self.result[chunk_id] = (doc_id, start, end)

    def finish(self):
        if not self.result:
            self.problem(None, "no_chunks")
        return self.result


def read_chunks(text: str, documents, name: str = "chunks.jsonl") -> dict:
    """A whole chunks file read into ``{chunk_id: (doc_id, start, end)}``."""
    return ChunksReader(name, documents).read(text)


def run_lines(run: dict, tag: str) -> list:
    """A run ``{qid: {id: score}}`` as TREC lines ``qid Q0 id rank score tag``, each query in trec_eval's
    order; scores written as Python's ``repr`` (the shortest text that reads back as the same number)."""
    lines = []
    for qid, scores in run.items():
        for rank, item in enumerate(trec_order(scores), 1):
            lines.append(f"{qid} Q0 {item} {rank} {scores[item]!r} {tag}")
    return lines
