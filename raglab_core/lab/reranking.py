"""Reranking a prefix of a first-stage ranking."""

from ..checks import whole_number


def rerank_prefix(scores, depth: int) -> list[int]:
    """Return the displayed order, as 0-based first-stage positions, after reranking.

    ``scores`` holds the reranker score of each document in first-stage order.
    Only the first ``depth`` documents are reordered, by score descending; ties
    keep their first-stage order (Python's sort is stable). Documents below the
    prefix never move, and none of them can enter it: a reranker only reorders
    the candidates it is given (the retrieve-then-rerank pattern of Nogueira &
    Cho, "Passage Re-ranking with BERT", 2019). ``depth`` 0 leaves the order as
    it is; a depth beyond the ranking reranks all of it.

    >>> rerank_prefix([0.1, 0.9, 0.5, 0.99], depth=3)   # the 4th stays 4th
    [1, 2, 0, 3]
    >>> rerank_prefix([0.1, 0.9, 0.5], depth=0)
    [0, 1, 2]
    >>> rerank_prefix([0.5, 0.5, 0.7], depth=3)          # tie: first-stage order
    [2, 0, 1]
    """
    depth = whole_number(depth, "depth", 0)
    prefix = sorted(range(min(depth, len(scores))), key=lambda i: -scores[i])
    return prefix + list(range(len(prefix), len(scores)))
