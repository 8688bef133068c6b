"""Chroma's ``questions_df.csv``: queries and their evidence spans in one file.

Chroma's chunking study [1]_ ships a dataset (5 corpora, 472 questions) as a
CSV with the columns ``question``, ``references`` and ``corpus_id``:
``references`` is a JSON list of ``{"content", "start_index", "end_index"}``,
character offsets into the corpus file named by ``corpus_id``. It is read as:

* a query per data row, whose id is its 0-based row number as a decimal
  string (the ``pandas`` index Chroma's code gives it), and whose text is
  ``question``;
* a :class:`~raglab_core.corpus.spans.Span` per reference, in document
  ``corpus_id``. Chroma names a corpus by its file's stem
  (``state_of_the_union`` for ``state_of_the_union.md``), so a
  ``corpus_id`` that is not a document id but names exactly one document
  but for its ``.md``/``.txt`` ending (:func:`~raglab_core.corpus.documents.similar_id`)
  is that document;
* each reference checked as a JSONL span is (:func:`~raglab_core.corpus.spans.check_span`):
  its ``content`` must be the document's characters ``start_index:end_index``; a
  reference to a corpus that was not given (the CSV holds the questions of all
  five) is kept unchecked, then left out of the measures with a warning.

The file is held whole until it ends (a CSV record may span lines; Chroma's
is 0.5 MB); problems name the line on which their record starts.

>>> from raglab_core.corpus.documents import Document
>>> documents = {"sotu.md": Document("sotu.md", "We cut fees. We built roads.")}
>>> text = 'question,references,corpus_id\\n"Fees?","[{""content"": ""We cut fees."", ""start_index"": 0, ""end_index"": 12}]",sotu\\n'
>>> read_questions(text, documents)
({'0': 'Fees?'}, [Span(query_id='0', doc_id='sotu.md', start=0, end=12)])

References
----------
.. [1] B. Smith and A. Troynikov, "Evaluating Chunking Strategies for
   Retrieval", Chroma technical report, 2024;
   https://github.com/brandonstarxel/chunking_evaluation (MIT licence).
"""

import csv
import io
import json

from .documents import similar_id
from .lines import FirstLines, LineReader, excerpt
from .spans import Span, check_span, none_inside

COLUMNS = ("question", "references", "corpus_id")


class QuestionsReader(LineReader):
    """Reads Chroma's ``questions_df.csv`` against ``documents``; :meth:`close` returns ``(queries, spans)``:
    ``{id: question}`` and a list of :class:`~raglab_core.corpus.spans.Span`."""

    field = "evidence"

    def __init__(self, name: str, documents):
        super().__init__(name)
        self.documents = documents
        self.parts = []
        self.outside = []  # (line, document) of each reference whose document is not in the corpus

    def feed(self, text: str) -> None:
        self.parts.append(text)

    def close(self):
        text, self.parts = "".join(self.parts), []
        rows = csv.reader(io.StringIO(text, newline=""))
        queries, spans, first = {}, [], FirstLines()
        columns, line, row_number = None, 1, 0
        try:
            for row in rows:
                start, line = line, rows.line_num + 1
                if not row or not any(field.strip() for field in row):
                    continue
                if columns is None:
                    if not set(COLUMNS) <= set(row):
                        self.problem(start, "csv_header", found=",".join(row)[:80])
                        break
                    columns = [row.index(column) for column in COLUMNS]
                    continue
                qid = str(row_number)  # the data row's number, as pandas numbers it, bad rows included
                row_number += 1
                if len(row) <= max(columns):
                    self.problem(start, "csv_syntax", reason=f"{len(row)} columns")
                    continue
                question, references, corpus_id = (row[index] for index in columns)
                queries[qid] = question
                spans.extend(self._references(start, qid, references, corpus_id, first))
        except csv.Error as error:
            self.problem(line, "csv_syntax", reason=str(error))
        if columns is None and not self.problems.listed:
            self.problem(None, "no_queries")
        self.problems.raise_if_any()
        if not spans:
            self.problem(None, "no_spans")
        none_inside(self, spans, self.documents)
        self.problems.raise_if_any()
        return queries, spans

    def _references(self, number, qid, references, corpus_id, first):
        doc_id = corpus_id if corpus_id in self.documents else similar_id(corpus_id, self.documents) or corpus_id
        try:
            items = json.loads(references)
        except json.JSONDecodeError as error:
            self.problem(number, "csv_references", detail=f"invalid JSON at column {error.colno}")
            return []
        if not isinstance(items, list):
            self.problem(number, "csv_references", detail=f"found {excerpt(items)}")
            return []
        found = []
        for item in items:
            if not (
                isinstance(item, dict)
                and isinstance(item.get("content"), str)
                and all(isinstance(item.get(key), int) and not isinstance(item.get(key), bool)
                        for key in ("start_index", "end_index"))
            ):
                self.problem(number, "csv_references", detail=f"found {excerpt(item)}")
                continue
            span = Span(qid, doc_id, item["start_index"], item["end_index"])
            if span.start < 0:
                self.problem(number, "not_offset", key="start_index", value=span.start)
                continue
            if check_span(self, number, span, documents=self.documents, given=item["content"]) and not first.seen(
                self, number, span
            ):
                found.append(span)
        return found


def read_questions(text: str, documents, name: str = "questions_df.csv"):
    """A whole ``questions_df.csv`` read into ``({id: question}, [Span, ...])``."""
    return QuestionsReader(name, documents).read(text)
