"""The queries: BEIR's ``queries.jsonl`` (``{"_id", "text"}``), or TSV lines ``id<TAB>text``.

The format is the first non-blank line's: JSON when it starts with ``{``,
TSV otherwise (MS MARCO's ``queries.tsv``). A TSV line holds an id, one tab,
and the query's text (which may itself hold tabs). Ids follow the corpus's
rules (:func:`raglab_core.corpus.lines.identifier`) and are given once.

>>> read_queries('{"_id": "q1", "text": "¿Qué es BM25?"}\\n')
{'q1': '¿Qué es BM25?'}
>>> read_queries("q1\\tbm25\\nq2 sin tabulador\\n", name="queries.tsv")
Traceback (most recent call last):
  ...
raglab_core.text_reader.FileFormatError: «queries.tsv», línea 2: se esperaban 2 columnas separadas por tabuladores (id<TAB>texto) y hay 1
"""

from .lines import FirstLines, LineReader, identifier, json_object, text_field

LAYOUT = '{"_id": ..., "text": ...}'


class QueriesReader(LineReader):
    """Reads queries (JSONL or TSV) into ``{id: text}`` in file order; :meth:`close` returns them."""

    field = "queries"

    def __init__(self, name: str = "queries.jsonl"):
        super().__init__(name)
        self.result = {}
        self.first = FirstLines()
        self.json = None  # decided by the first line

    def line(self, number, text):
        if self.json is None:
            self.json = text.lstrip().startswith("{")
        if self.json:
            record = json_object(self, number, text, LAYOUT)
            if record is None:
                return
            qid = identifier(self, number, record, "_id", LAYOUT)
            query = text_field(self, number, record, "text", LAYOUT)
        else:
            fields = text.split("\t", 1)
            if len(fields) != 2:
                self.problem(number, "query_columns", found=len(fields))
                return
            qid = identifier(self, number, {"id": fields[0]}, "id", "id<TAB>text")
            query = fields[1]
        if qid is None or query is None or self.first.seen(self, number, qid):
            return
        self.result[qid] = query

    def finish(self):
        if not self.result:
            self.problem(None, "no_queries")
        return self.result


def read_queries(text: str, name: str = "queries.jsonl") -> dict:
    """Whole queries text read into ``{id: text}``."""
    return QueriesReader(name).read(text)
