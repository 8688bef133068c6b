"""The corpus: BEIR's ``corpus.jsonl``, or the text files of a folder, read into documents.

* **BEIR** [1]_: one JSON object per line, ``{"_id", "text"}`` and an optional
  ``"title"`` (other keys, such as ``"metadata"``, are ignored). An id is a
  non-empty string without whitespace (a whole number is read as its
  decimal digits), given once.
* **A folder**: every ``.txt`` and ``.md`` file under it; a document's id is
  its path relative to the folder, with ``/`` between parts, and its text the
  file's text (UTF-8, a leading byte order mark dropped, line ends untouched).
  The command line walks the folder (:func:`raglab_core.corpus.files.read_folder`);
  :func:`documents_from_files` takes the ``(path, text)`` pairs.

A document *with a title* (a non-empty ``"title"``; BEIR writes ``""`` for
none) is chunked as ``title + "\\n\\n" + text`` (:attr:`Document.body`):
chunk offsets refer to that string, and a span's offsets, which refer to
``text``, are shifted by ``len(title) + 2`` (:attr:`Document.shift`).

>>> documents = read_corpus('{"_id": "d1", "title": "Tema", "text": "Hola."}\\n{"_id": 2, "text": "Adiós."}\\n')
>>> documents["d1"].body, documents["d1"].shift, documents["2"].body
('Tema\\n\\nHola.', 6, 'Adiós.')
>>> read_corpus('{"_id": "d1", "text": "a"}\\n{"_id": "d1", "text": "b"}\\n', name="corpus.jsonl")
Traceback (most recent call last):
  ...
raglab_core.text_reader.FileFormatError: «corpus.jsonl», línea 2: el identificador «d1» ya aparece en la línea 1; los identificadores deben ser únicos

References
----------
.. [1] N. Thakur et al., "BEIR: A Heterogeneous Benchmark for Zero-shot
   Evaluation of Information Retrieval Models", NeurIPS 2021 Datasets and
   Benchmarks (``corpus.jsonl``: ``_id``, ``title``, ``text``).
"""

import os
from typing import NamedTuple

from ..errors import LabError
from ..runs.decoding import format_name
from .lines import FirstLines, LineReader, identifier, json_object, text_field

LAYOUT = '{"_id": ..., "text": ...} and optionally "title"'
SUFFIXES = (".txt", ".md")
"""The files of a folder that are documents (case-insensitive)."""


class Document(NamedTuple):
    """One document: ``id``, ``text`` and ``title`` (``""``: none)."""

    id: str
    text: str
    title: str = ""

    @property
    def body(self) -> str:
        """What is tokenized and chunked: ``title + "\\n\\n" + text``, or ``text`` without a title."""
        return f"{self.title}\n\n{self.text}" if self.title else self.text

    @property
    def shift(self) -> int:
        """Where ``text`` starts in :attr:`body`: ``len(title) + 2``, or 0 without a title."""
        return len(self.title) + 2 if self.title else 0


class CorpusReader(LineReader):
    """Reads BEIR's ``corpus.jsonl`` into ``{id: Document}`` (in file order); :meth:`close` returns it."""

    field = "corpus"

    def __init__(self, name: str = "corpus.jsonl"):
        super().__init__(name)
        self.result = {}
        self.first = FirstLines()

    def line(self, number, text):
        record = json_object(self, number, text, LAYOUT)
        if record is None:
            return
        doc_id = identifier(self, number, record, "_id", LAYOUT)
        body = text_field(self, number, record, "text", LAYOUT)
        title = text_field(self, number, record, "title", LAYOUT, required=False)
        if doc_id is None or body is None or title is None or self.first.seen(self, number, doc_id):
            return
        self.result[doc_id] = Document(doc_id, body, title)

    def finish(self):
        if not self.result:
            self.problem(None, "no_documents")
        return self.result


def read_corpus(text: str, name: str = "corpus.jsonl") -> dict:
    """A whole ``corpus.jsonl`` text read into ``{id: Document}``."""
    return CorpusReader(name).read(text)


def is_document_file(path: str) -> bool:
    """A ``.txt`` or ``.md`` file (any case) that is not hidden (no part of its path starts with ``.``).

    >>> is_document_file("notas/a.MD"), is_document_file("a.csv"), is_document_file(".git/x.txt")
    (True, False, False)
    """
    parts = path.replace(os.sep, "/").split("/")
    return path.lower().endswith(SUFFIXES) and not any(part.startswith(".") for part in parts)


def documents_from_files(files) -> dict:
    """``{id: Document}`` from ``(relative path, text)`` pairs, sorted by id; the id is the path with ``/``.

    >>> documents_from_files([("b/x.md", "dos"), ("a.txt", "uno")])
    {'a.txt': Document(id='a.txt', text='uno', title=''), 'b/x.md': Document(id='b/x.md', text='dos', title='')}
    """
    documents = {}
    for path, text in files:
        doc_id = path.replace(os.sep, "/")
        documents[doc_id] = Document(doc_id, text)
    return dict(sorted(documents.items()))


def similar_id(doc_id: str, ids) -> str | None:
    """The one id of ``ids`` that ``doc_id`` names loosely (the same but for a ``.txt``/``.md`` ending, or for
    letter case), or ``None``: what a message suggests, and how Chroma's ``corpus_id`` (a file's stem) is
    resolved.

    >>> similar_id("state_of_the_union", ["state_of_the_union.md", "finance.md"]), similar_id("x", ["y"])
    ('state_of_the_union.md', None)
    """
    def stem(name):
        base, suffix = os.path.splitext(name)
        return base.lower() if suffix.lower() in SUFFIXES else name.lower()

    wanted = stem(doc_id)
    found = [other for other in ids if stem(other) == wanted]
    return found[0] if len(found) == 1 else None


def folder_ids(names: list) -> list:
    """The documents' ids for the corpus's file names: a dropped folder's paths lose the folder's own name
    (``notas/a.txt`` is ``a.txt``, as ``chunks notas/`` names it).

    >>> folder_ids(["notas/a.txt", "notas/sub/b.md"]), folder_ids(["a.txt"])
    (['a.txt', 'sub/b.md'], ['a.txt'])
    """
    parts = [name.split("/") for name in names]
    if len(names) == 1:
        return [parts[0][-1]]
    if all(len(part) > 1 for part in parts) and len({part[0] for part in parts}) == 1:
        return ["/".join(part[1:]) for part in parts]
    return list(names)


def corpus_slots(names: list) -> tuple:
    """How a corpus given as the files ``names`` is read: ``(ids, slots, many)``. ``many``: the files are documents
    (several, or one ``.txt``/``.md``), each slot (``"corpus/i"``) a document file, hidden and other files
    skipped, ``ids`` the documents' ids (:func:`folder_ids`); otherwise one ``corpus.jsonl``, one slot. A folder with
    no document file is a ``LabError``.

    >>> corpus_slots(["notas/a.txt", "notas/foto.png", "notas/b.md"])
    (['a.txt', 'foto.png', 'b.md'], ['corpus/0', 'corpus/2'], True)
    >>> corpus_slots(["corpus.jsonl"])
    (['corpus.jsonl'], ['corpus/0'], False)
    """
    many = len(names) > 1 or is_document_file(format_name(names[0]))
    ids = folder_ids(names)
    slots = [f"corpus/{i}" for i, name in enumerate(ids) if not many or is_document_file(name)]
    if not slots:
        raise LabError("no_text_files", field="corpus", name=names[0].split("/")[0])
    return ids, slots, many
