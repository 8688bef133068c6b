"""The command line's side of reading: a file's text in chunks into a reader, and a folder's documents.

The readers take text (:mod:`raglab_core.corpus.lines`); this module opens
files. A file that is not UTF-8 is a :class:`~raglab_core.errors.LabError`
that says which encoding it probably has and how to convert it
(:func:`raglab_core.runs.decoding.undecodable`), blamed on the reader's input.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "b.md").write_text("dos", encoding="utf-8"); _ = (folder / "a.txt").write_text("uno", encoding="utf-8")
>>> _ = (folder / "c.csv").write_text("no", encoding="utf-8")
>>> list(read_folder(str(folder)))
['a.txt', 'b.md']
>>> from raglab_core.corpus.queries import QueriesReader
>>> _ = (folder / "q.tsv").write_bytes("q1\\tcaf\\xe9".encode("latin-1"))
>>> try:
...     read_path(QueriesReader("q.tsv"), str(folder / "q.tsv"))
... except LabError as error:
...     print(error.code, error.field)
not_utf8_cp1252 queries
"""

import os

from ..runs.decoding import NotUTF8, read_text_chunks, undecodable
from ..errors import LabError
from .documents import documents_from_files, is_document_file


def read_path(reader, path: str):
    """Feed the file at ``path`` to ``reader`` (a :class:`~raglab_core.corpus.lines.LineReader`) and close it."""
    try:
        for text in read_text_chunks(path):
            reader.feed(text)
    except NotUTF8 as error:
        raise undecodable(path, reader.field, error.head, error.offset, error.byte) from None
    return reader.close()


def read_text(path: str, field: str) -> str:
    """The whole UTF-8 text of the file at ``path`` (a leading byte order mark dropped)."""
    try:
        return "".join(read_text_chunks(path))
    except NotUTF8 as error:
        raise undecodable(path, field, error.head, error.offset, error.byte) from None


def folder_files(folder: str) -> list:
    """The relative paths (with ``/``) of the ``.txt`` and ``.md`` files under ``folder``, sorted."""
    found = []
    for root, directories, names in os.walk(folder):
        directories[:] = sorted(name for name in directories if not name.startswith("."))
        for name in names:
            relative = os.path.relpath(os.path.join(root, name), folder).replace(os.sep, "/")
            if is_document_file(relative):
                found.append(relative)
    return sorted(found)


def read_folder(folder: str) -> dict:
    """``{id: Document}`` for the ``.txt`` and ``.md`` files under ``folder`` (id: the relative path)."""
    paths = folder_files(folder)
    if not paths:
        raise LabError("no_text_files", field="corpus", name=folder)
    return documents_from_files((path, read_text(os.path.join(folder, path), "corpus")) for path in paths)
