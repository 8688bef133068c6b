"""Evidence measures: how much of a query's evidence the chunks hold, before and after retrieval.

A query's evidence is a list of spans ``(doc, start, end)`` and a chunk is a
``(doc, start, end)`` too (characters of the document's body, end
exclusive); a run's chunks come in trec_eval's order, and the measures at a
cut ``k`` read its first ``k``. A span is *held* by a chunk of the same
document that contains it whole: ``chunk.start <= span.start`` and
``span.end <= chunk.end``.

* ``Ceiling`` (:func:`ceiling`): the share of the query's spans held by at
  least one chunk of the index. The best evidence recall any retriever can
  reach with these chunks, measured before retrieval; it depends only on the
  chunking. *Rewards*: windows large or overlapping enough to keep each
  span whole. *Hides*: whether those windows are ever retrieved, and their
  cost (the footprint says it).
* ``EvidenceRecall@k`` (:func:`evidence_recall`): the share of the spans held
  by one of the top ``k`` chunks. *Rewards*: retrieving, high, a chunk that
  holds each piece of evidence whole. *Hides*: how much else those chunks
  carry (a document-sized chunk holds everything), and partial hits (a
  span cut in two counts 0).
* ``CharRecall@k``, ``CharPrecision@k``, ``CharIoU@k`` (:func:`character_scores`):
  Chroma's token-free measures [1]_, exactly as its
  ``BaseEvaluation._scores_from_dataset_and_retrievals`` computes them with
  ``retrieve = k`` (``tests/core/corpus/test_corpus_measures.py`` runs that code). With
  ``U`` the characters of the top ``k`` chunks (per document), ``E`` those of
  the spans and ``|E ∩ U|`` counted once:

  - recall ``= |E ∩ U| / Σ |span|`` (the span lengths are *summed*: evidence
    given twice counts twice);
  - precision ``= |E ∩ U| / Σ |chunk|`` over the top ``k`` chunks of every
    document: a *sum* of chunk lengths, so characters that overlapping chunks
    repeat are paid for each time;
  - IoU ``= |E ∩ U| / (Σ |chunk| + Σ |span − U|)``;
  - all three 0 when nothing is retrieved (Chroma divides by zero there).

  *Rewards*: retrieving the evidence's characters and little else; small
  chunks win precision. *Hides*: whether a chunk keeps a span whole (a
  span split across two retrieved chunks counts fully).

Each measure is per query; a configuration's value is the mean over the
queries with at least one span.

>>> spans = [("d", 10, 20), ("d", 30, 40)]
>>> chunks = [("d", 0, 25), ("e", 0, 50), ("d", 25, 45)]
>>> evidence_recall(spans, chunks, 1), evidence_recall(spans, chunks, 3)
(0.5, 1.0)
>>> character_scores(spans, chunks, 1)     # 10 of 20 evidence characters in 25 retrieved; IoU 10 / (25 + 10)
(0.5, 0.4, 0.2857142857142857)

References
----------
.. [1] B. Smith and A. Troynikov, "Evaluating Chunking Strategies for Retrieval", Chroma technical
   report, 2024; code: https://github.com/brandonstarxel/chunking_evaluation
   (``chunking_evaluation/evaluation_framework/base_evaluation.py``, MIT licence).
"""

from bisect import bisect_right
from itertools import accumulate


def merged(ranges) -> list:
    """``ranges`` ``(start, end)`` as sorted, disjoint ranges (touching ones joined), as Chroma's
    ``union_ranges`` merges them.

    >>> merged([(5, 9), (0, 2), (2, 3), (8, 12)])
    [(0, 3), (5, 12)]
    """
    result = []
    for start, end in sorted(ranges):
        if result and start <= result[-1][1]:
            if end > result[-1][1]:
                result[-1] = (result[-1][0], end)
        else:
            result.append((start, end))
    return result


def covered(ranges, start: int, end: int) -> int:
    """Characters of ``start:end`` inside ``ranges`` (sorted and disjoint, as :func:`merged` gives them).

    >>> covered([(0, 3), (5, 12)], 2, 6)
    2
    """
    total = 0
    index = max(bisect_right(ranges, (start, float("inf"))) - 1, 0)
    while index < len(ranges) and ranges[index][0] < end:
        low, high = ranges[index]
        total += max(0, min(high, end) - max(low, start))
        index += 1
    return total


def _by_document(chunks) -> dict:
    grouped = {}
    for doc, start, end in chunks:
        grouped.setdefault(doc, []).append((start, end))
    return {doc: merged(ranges) for doc, ranges in grouped.items()}


def character_scores(spans, chunks, k: int) -> tuple:
    """``(CharRecall@k, CharPrecision@k, CharIoU@k)`` of one query: ``spans`` its evidence, ``chunks`` its
    ranked chunks, ``(doc, start, end)`` each (see the module's docstring)."""
    top = list(chunks[:k])
    retrieved = sum(end - start for _, start, end in top)
    if not top or not retrieved:
        return 0.0, 0.0, 0.0
    union = _by_document(top)
    evidence = {doc: merged(ranges) for doc, ranges in _by_document(spans).items()}
    found = sum(covered(union[doc], start, end) for doc, ranges in evidence.items() if doc in union
                for start, end in ranges)
    lengths = sum(end - start for _, start, end in spans)
    missed = sum(end - start - covered(union.get(doc, []), start, end) for doc, start, end in spans)
    return found / lengths, found / retrieved, found / (retrieved + missed)


def held(span, chunk) -> bool:
    """Does ``chunk`` contain ``span`` whole (same document, ``chunk.start <= span.start``,
    ``span.end <= chunk.end``)?

    >>> held(("d", 3, 5), ("d", 0, 5)), held(("d", 3, 6), ("d", 0, 5)), held(("d", 3, 5), ("e", 0, 9))
    (True, False, False)
    """
    return span[0] == chunk[0] and chunk[1] <= span[1] and span[2] <= chunk[2]


def evidence_recall(spans, chunks, k: int) -> float:
    """``EvidenceRecall@k``: the share of ``spans`` held whole by one of the first ``k`` ``chunks``."""
    if not spans:
        return 0.0
    holders = ChunkSpans(chunks[:k])
    return sum(map(holders.holds, spans)) / len(spans)


class ChunkSpans:
    """Chunks ``(doc, start, end)`` arranged to answer "does one of them hold this span?" in O(log n): per
    document, starts sorted and the furthest end reached by a chunk starting there or before.

    >>> ChunkSpans([("d", 0, 10), ("d", 8, 30)]).holds(("d", 9, 12))
    True
    """

    def __init__(self, chunks):
        grouped = {}
        for doc, start, end in chunks:
            grouped.setdefault(doc, []).append((start, end))
        self.starts, self.reach = {}, {}
        for doc, ranges in grouped.items():
            ranges.sort()
            self.starts[doc] = [start for start, _ in ranges]
            self.reach[doc] = list(accumulate((end for _, end in ranges), max))

    def holds(self, span) -> bool:
        doc, start, end = span
        starts = self.starts.get(doc)
        if starts is None:
            return False
        index = bisect_right(starts, start) - 1
        return index >= 0 and self.reach[doc][index] >= end


def ceiling(spans, index: ChunkSpans) -> float:
    """``Ceiling``: the share of ``spans`` held whole by at least one chunk of ``index`` (every chunk, before
    any retrieval).

    >>> ceiling([("d", 5, 12), ("d", 20, 25)], ChunkSpans([("d", 0, 10), ("d", 8, 18), ("d", 16, 26)]))
    0.5
    """
    if not spans:
        return 0.0
    return sum(map(index.holds, spans)) / len(spans)


def measure_names(cuts) -> list:
    """The evidence measures at each cut, in the order a report lists them.

    >>> measure_names([1, 5])
    ['Ceiling', 'EvidenceRecall@1', 'EvidenceRecall@5', 'CharRecall@1', 'CharRecall@5', 'CharPrecision@1', 'CharPrecision@5', 'CharIoU@1', 'CharIoU@5']
    """
    return ["Ceiling", *(f"{family}@{k}" for family in FAMILIES for k in cuts)]


FAMILIES = ("EvidenceRecall", "CharRecall", "CharPrecision", "CharIoU")


def query_measures(spans, chunks, cuts, index: ChunkSpans) -> dict:
    """Every evidence measure of one query at each cut: ``{name: value}`` in :func:`measure_names`' order.

    >>> query_measures([("d", 2, 4)], [("d", 0, 5)], [1], ChunkSpans([("d", 0, 5)]))
    {'Ceiling': 1.0, 'EvidenceRecall@1': 1.0, 'CharRecall@1': 1.0, 'CharPrecision@1': 0.4, 'CharIoU@1': 0.4}
    """
    values = {"Ceiling": ceiling(spans, index)}
    recall = {k: evidence_recall(spans, chunks, k) for k in cuts}
    scores = {k: character_scores(spans, chunks, k) for k in cuts}
    values.update((f"EvidenceRecall@{k}", recall[k]) for k in cuts)
    for position, family in enumerate(FAMILIES[1:]):
        values.update((f"{family}@{k}", scores[k][position]) for k in cuts)
    return values
