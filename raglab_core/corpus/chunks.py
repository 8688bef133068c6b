"""The chunks of one configuration: fixed windows of tokens, their ids, characters and exact footprint.

A document of ``N`` tokens is cut as :func:`raglab_core.chunking.footprint`
teaches (DESIGN §4.9): window ``j`` covers tokens ``j·(C − O)`` to
``min(j·(C − O) + C, N)``, and the windows stop at the first one that reaches
``N`` (``N = 0``: none). Chunk ``j`` of document ``DOCID`` is ``DOCID#j``; its
characters run from its first token's start to its last token's end, in the
document's :attr:`~raglab_core.corpus.documents.Document.body`.

The footprint is counted on the real documents, whatever their lengths:
``chunks``, ``indexed_tokens`` (the windows' tokens, overlaps counted each
time) and ``duplicated_tokens`` (``indexed_tokens`` minus the corpus's
tokens). For documents of one length it equals
:func:`raglab_core.chunking.footprint`'s closed form.

>>> windows(10, 4, 1)            # stride 3: the window from 6 reaches 10
[(0, 4), (3, 7), (6, 10)]
>>> from raglab_core.corpus.tokens import tokenize_corpus
>>> table = chunk_table(tokenize_corpus({"a": "uno dos tres cuatro cinco", "b": "seis"}), 3, 1)
>>> table.chunk_ids, table.footprint()
(['a#0', 'a#1', 'b#0'], Footprint(chunks=3, indexed_tokens=7, duplicated_tokens=1))
>>> table.characters(1)           # 'tres cuatro cinco'
(8, 25)
"""

from array import array
from dataclasses import dataclass
from itertools import repeat
from typing import NamedTuple

from .. import chunking


def windows(tokens: int, chunk: int, overlap: int) -> list:
    """The windows ``(start, end)`` (token indices, end exclusive) of a document of ``tokens`` tokens.

    ``LabError`` unless ``0 <= overlap < chunk`` (:func:`raglab_core.chunking.stride`).
    """
    step = chunking.stride(chunk, overlap)
    count = chunking.chunks_per_document(tokens, chunk, step)
    return [(j * step, min(j * step + chunk, tokens)) for j in range(count)]


class Footprint(NamedTuple):
    """What a configuration costs in the index, counted on the real corpus (see the module's docstring)."""

    chunks: int
    indexed_tokens: int
    duplicated_tokens: int


@dataclass
class ChunkTable:
    """The chunks of one configuration (``chunk``, ``overlap``) of a tokenized corpus, in document order.

    Per chunk ``i``: ``documents[i]`` (the document's index in
    :attr:`~raglab_core.corpus.tokens.CorpusTokens.ids`), ``firsts[i]`` and
    ``lasts[i]`` (its first token and one past its last, within the
    document); ``chunk_ids[i]`` is ``DOCID#j``. ``by_document[d]`` is the
    index of document ``d``'s first chunk (chunks of one document are
    consecutive).
    """

    corpus: object
    chunk: int
    overlap: int
    documents: array
    firsts: array
    lasts: array
    chunk_ids: list
    by_document: array

    @property
    def name(self) -> str:
        """``"C:O"``, as ``--sweep`` names a configuration."""
        return f"{self.chunk}:{self.overlap}"

    def __len__(self) -> int:
        return len(self.documents)

    @property
    def lengths(self) -> array:
        """Tokens per chunk."""
        return array("i", map(int.__sub__, self.lasts, self.firsts))

    def characters(self, index: int) -> tuple:
        """``(start, end)``: chunk ``index``'s characters in its document's body."""
        document = self.documents[index]
        return self.corpus.starts[document][self.firsts[index]], self.corpus.ends[document][self.lasts[index] - 1]

    def footprint(self) -> Footprint:
        indexed = sum(self.lasts) - sum(self.firsts)
        return Footprint(len(self), indexed, indexed - self.corpus.tokens)


def chunk_table(corpus, chunk: int, overlap: int) -> ChunkTable:
    """The chunks of ``corpus`` (:class:`~raglab_core.corpus.tokens.CorpusTokens`) with windows of ``chunk``
    tokens overlapping by ``overlap`` (:func:`windows`' cuts, a document's at a time in C loops)."""
    step = chunking.stride(chunk, overlap)
    documents, firsts, lasts, by_document = array("i"), array("i"), array("i"), array("i")
    chunk_ids = []
    for index, (doc_id, length) in enumerate(zip(corpus.ids, corpus.lengths)):
        by_document.append(len(documents))
        count = chunking.chunks_per_document(length, chunk, step)
        starts = range(0, count * step, step)
        documents.extend(repeat(index, count))
        firsts.extend(starts)
        lasts.extend(map(min, range(chunk, count * step + chunk, step), repeat(length)))
        chunk_ids.extend(map(f"{doc_id}#".__add__, map(str, range(count))))
    by_document.append(len(documents))
    return ChunkTable(corpus=corpus, chunk=chunk, overlap=overlap, documents=documents, firsts=firsts, lasts=lasts,
                      chunk_ids=chunk_ids, by_document=by_document)
