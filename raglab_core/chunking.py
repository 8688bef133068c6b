"""Index footprint of fixed-size, overlapping chunking, in closed form."""

from dataclasses import dataclass

from .checks import whole_number
from .errors import LabError


@dataclass(frozen=True)
class Footprint:
    """What chunking a corpus costs in the index (not what it does for relevance).

    ``chunks``: number of windows; ``indexed_tokens``: tokens stored over all
    windows; ``duplicated_tokens``: ``indexed_tokens`` minus the corpus's
    tokens, i.e. the extra copies overlap creates; ``duplication``:
    ``duplicated_tokens / corpus_tokens`` (0.0 for an empty corpus);
    ``stride``: ``chunk_size - overlap``, the step between window starts;
    ``per_document``: windows per document (:func:`chunks_per_document`);
    ``corpus_tokens``: ``documents * tokens_per_document``.
    """

    chunks: int
    indexed_tokens: int
    duplicated_tokens: int
    duplication: float
    stride: int
    per_document: int
    corpus_tokens: int


def stride(chunk_size: int, overlap: int) -> int:
    """The step between window starts: ``chunk_size - overlap`` (``LabError`` unless ``0 <= overlap < chunk_size``).

    >>> stride(512, 64)
    448
    """
    chunk_size = whole_number(chunk_size, "chunk_size", 1)
    overlap = whole_number(overlap, "overlap", 0)
    if overlap >= chunk_size:
        raise LabError("overlap_not_below_chunk", field="overlap")
    return chunk_size - overlap


def chunks_per_document(tokens: int, chunk_size: int, stride: int) -> int:
    """Windows of ``chunk_size`` every ``stride`` tokens needed to cover ``tokens``.

    0 tokens: 0 windows; ``tokens <= chunk_size``: 1; otherwise
    ``1 + ceil((tokens - chunk_size) / stride)``: windows start at
    ``0, stride, 2·stride, …`` until one reaches the end of the document, so
    the last one is clipped and none lies wholly inside the previous one.

    >>> chunks_per_document(1000, chunk_size=512, stride=448)   # 1 + ceil(488 / 448)
    3
    >>> chunks_per_document(512, chunk_size=512, stride=448)
    1
    """
    if tokens == 0:
        return 0
    if tokens <= chunk_size:
        return 1
    return 1 + -(-(tokens - chunk_size) // stride)  # exact integer ceiling


def footprint(documents: int, tokens_per_document: int, chunk_size: int, overlap: int) -> Footprint:
    """Chunks and indexed tokens for ``documents`` documents of ``tokens_per_document`` tokens.

    Per document of N tokens with ``m`` windows (:func:`chunks_per_document`),
    every window but the last holds ``chunk_size`` tokens and the last
    ``N - (m - 1)·stride``, so the document is stored as
    ``N + (m - 1)·overlap`` tokens. Integer arithmetic, O(1) whatever the
    corpus size (no loop over tokens or windows).

    >>> f = footprint(documents=10, tokens_per_document=1000, chunk_size=512, overlap=64)
    >>> f.stride, f.chunks, f.indexed_tokens, f.duplicated_tokens   # 3 windows per document
    (448, 30, 11280, 1280)
    >>> f.duplication == 1280 / 10000 and f.per_document == 3 and f.corpus_tokens == 10000
    True
    """
    documents = whole_number(documents, "documents", 0)
    tokens_per_document = whole_number(tokens_per_document, "tokens_per_document", 0)
    step = stride(chunk_size, overlap)
    per_document = chunks_per_document(tokens_per_document, chunk_size, step)
    duplicated_per_document = max(per_document - 1, 0) * overlap
    corpus_tokens = documents * tokens_per_document
    duplicated = documents * duplicated_per_document
    return Footprint(
        chunks=documents * per_document,
        indexed_tokens=corpus_tokens + duplicated,
        duplicated_tokens=duplicated,
        duplication=duplicated / corpus_tokens if corpus_tokens else 0.0,
        stride=step,
        per_document=per_document,
        corpus_tokens=corpus_tokens,
    )
