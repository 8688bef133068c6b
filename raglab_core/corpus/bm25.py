"""BM25 over the chunks, Lucene's variant, as ``bm25s`` computes it with ``method="lucene"``.

For a chunk ``c`` of ``len(c)`` tokens, among ``N`` chunks of mean length
``avglen``, and a query of tokens ``t₁ … tₙ`` (repeats count: a token given
twice adds its term twice):

    score(c) = Σᵢ idf(tᵢ) · tf(tᵢ, c) / (tf(tᵢ, c) + k1 · (1 − b + b · len(c) / avglen))
    idf(t)   = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))

``tf(t, c)``: the occurrences of ``t`` in ``c``; ``df(t)``: the chunks holding
``t``. Defaults ``k1 = 0.9``, ``b = 0.4``: Anserini's BM25 baseline, which
BEIR's reports use [2]_. The idf is Lucene's (never negative) and the term
weight has no ``(k1 + 1)`` factor, as in Lucene since version 8 [1]_; Kamphuis
et al. compare these variants [3]_, and ``bm25s`` [4]_ implements them
(``tests/core/corpus/test_corpus_bm25.py`` checks the scores against it, which works in
single precision). Lengths are exact token counts: Lucene itself stores a
document's length lossily, in one byte, so its scores differ slightly from
this formula; ``bm25s`` does not. Only chunks that share a token with the query are
retrieved, as Lucene retrieves them; the ``depth`` best form the run, in
trec_eval's order (score descending, ties by chunk id descending,
:func:`raglab_core.runs.evaluation.trec_order`).

How it runs in pure Python:

* **Once per corpus** (:class:`Positions`): every token's position in the
  corpus (documents end to end), grouped by term (sorted a block at a time),
  and the corpus as one ``str`` with a character per token (its term number).
* **Once per configuration and query term** (:meth:`Bm25.postings`, cached,
  dropped after the last query that needs it): no full index is built, and
  terms no query uses cost nothing. A term's positions are mapped to the
  chunks holding them (a tuple of the configuration, read with
  :func:`operator.itemgetter`: each position's chunk, or, where the next
  chunk overlaps it, a mark for both), counted into ``tf`` and weighted from a table of
  ``tf / (tf + norm)`` per chunk. A very frequent term (at least
  :data:`COUNTED` occurrences per chunk) is instead counted in every chunk at
  once, ``str.count`` over each chunk's stretch of that text. Both give the
  same weights to the last bit. A term held by at least :data:`DENSE` of the
  chunks also keeps its weights in an ``array`` over every chunk, for lookups.
* **Per query** (:meth:`Bm25.search`): MaxScore [5]_, term at a time. Terms go
  from the largest possible contribution (the term's highest weight, times
  its repeats) to the smallest; every chunk of a term is added into one dict
  of scores until the terms left could not lift a chunk not yet seen into the
  top ``depth`` (their highest weights sum to less than the ``depth``-th
  score so far). The best :data:`TOP` × ``depth`` chunks seen are then
  completed with the remaining terms, in chunk order, which raises the floor
  to the ``depth``-th of their final scores (within a few per cent of the
  final one); the other chunks seen that can reach it (held as two parallel
  lists) get the remaining terms one at a time, those that cannot dropped
  on the way. Every score is summed in the same order as :meth:`Bm25.scores`
  sums it, so the result is exact: the top ``depth`` of the full sum.

>>> from raglab_core.corpus.tokens import tokenize_corpus
>>> from raglab_core.corpus.chunks import chunk_table
>>> corpus = tokenize_corpus({"a": "rojo verde azul", "b": "rojo rojo", "c": "negro"})
>>> index = Bm25(chunk_table(corpus, 2, 0), Positions(corpus))
>>> [(index.table.chunk_ids[c], round(s, 4)) for c, s in index.search([corpus.vocabulary["rojo"]], depth=10)]
... # N = 4 chunks of mean 1.5 tokens; df = 2, idf = ln 2; b#0: tf 2 in 2 tokens, ln 2 · 2 / (2 + 0.9 · (0.6 + 0.4 · 2 / 1.5))
[('b#0', 0.459), ('a#0', 0.3431)]

References
----------
.. [1] Apache Lucene, ``org.apache.lucene.search.similarities.BM25Similarity`` (8.0 onwards).
.. [2] J. Lin et al., "Pyserini: A Python Toolkit for Reproducible Information Retrieval Research
   with Sparse and Dense Representations", SIGIR 2021 (BM25 flat, k1 = 0.9, b = 0.4).
.. [3] C. Kamphuis, A. de Vries, L. Boytsov and J. Lin, "Which BM25 Do You Mean? A Large-Scale
   Reproducibility Study of Scoring Variants", ECIR 2020.
.. [4] X. H. Lù, "BM25S: Orders of magnitude faster lexical search via eager sparse scoring", 2024
   (``bm25s`` 0.3.16).
.. [5] H. Turtle and J. Flood, "Query evaluation: strategies and optimizations", Information
   Processing & Management 31(6), 1995 (max-score).
"""

import math
import sys
from array import array
from collections import Counter
from itertools import accumulate, chain, compress, islice, repeat
from operator import add, eq, getitem, itemgetter, mul, sub

K1 = 0.9
B = 0.4
DEPTH = 100
SLACK = 1e-9
"""Relative margin on the bounds that decide what cannot reach the top: floating-point sums of the same
weights in another order differ by far less."""


TOP = 2
"""How many times ``depth`` of the best chunks seen are completed first, when the search stops adding every
chunk of a term: the ``depth``-th of their final scores is the floor the other chunks must reach (with
``depth`` of them it is about 85 % of the final ``depth``-th score at SciFact's size, with twice as many
about 97 %; completing three times as many costs more than it saves)."""


def idf(documents: int, frequency: int) -> float:
    """Lucene's idf: ``ln(1 + (N − df + 0.5) / (df + 0.5))``.

    >>> round(idf(10, 1), 6), round(idf(10, 10), 6)
    (1.99243, 0.04652)
    """
    return math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5))


BLOCK = 1 << 20
"""Positions sorted at a time when grouping them by term: the sort's memory stays about 80 MB whatever the
corpus size (a block's positions are then copied, term by term, to their place)."""


class Positions:
    """Where each term occurs in a corpus, once for all configurations.

    Positions count tokens across the documents laid end to end
    (:attr:`offsets`: where each document starts). :meth:`of` gives a term's
    positions, ascending, from one ``array`` grouped by term: each block of
    :data:`BLOCK` positions is sorted by term (a stable sort, so positions stay
    in order within a term) and copied term by term to where that term's
    positions go.

    >>> from raglab_core.corpus.tokens import tokenize_corpus
    >>> corpus = tokenize_corpus({"a": "x y x", "b": "y"})
    >>> positions = Positions(corpus, block=2)
    >>> list(positions.of(0)), list(positions.of(1)), list(positions.offsets)
    ([0, 2], [1, 3], [0, 3, 4])
    """

    def __init__(self, corpus, block: int = BLOCK):
        self.offsets = array("q", accumulate(corpus.lengths, initial=0))
        terms = array("i")
        for document in corpus.terms:
            terms.extend(document)
        total = len(terms)
        self.text = _as_text(terms)
        counts = Counter(terms)
        self.starts = array("q", accumulate((counts.get(term, 0) for term in range(len(corpus.vocabulary))),
                                            initial=0))
        code = "i" if total < 2**31 else "q"
        if total <= block:
            self.order = array(code, sorted(range(total), key=terms.__getitem__))
            return
        self.order = array(code, bytes(array(code).itemsize * total))
        write = self.starts.tolist()
        for low in range(0, total, block):
            high = min(low + block, total)
            sorted_block = array(code, sorted(range(low, high), key=terms.__getitem__))
            here = Counter(terms[low:high])
            done = 0
            for term in sorted(here):
                size = here[term]
                self.order[write[term]: write[term] + size] = sorted_block[done: done + size]
                write[term] += size
                done += size

    def of(self, term: int) -> array:
        """The positions of ``term``, ascending."""
        return self.order[self.starts[term]: self.starts[term + 1]]

    def occurrences(self, term: int) -> int:
        """How many times ``term`` occurs in the corpus."""
        return self.starts[term + 1] - self.starts[term]


def _as_text(terms: array):
    """The corpus as one ``str`` whose character ``i`` is ``chr`` of token ``i``'s term number, so that
    ``str.count`` counts a term's tokens in any stretch of the corpus in C; ``None`` when a term number is
    beyond Unicode's range (``0x10FFFF``; then only positions are used).

    >>> _as_text(array("i", [0, 2, 0]))
    '\\x00\\x02\\x00'
    """
    if not terms:
        return ""
    if terms.itemsize != 4 or max(terms) > 0x10FFFF:
        return None
    return terms.tobytes().decode(f"utf-32-{sys.byteorder[0]}e", "surrogatepass")


def _runs(values, lengths) -> tuple:
    """``values[0]`` repeated ``lengths[0]`` times, then ``values[1]`` repeated ``lengths[1]`` times, …: a tuple
    built in C loops, each value one shared ``int`` object. Reading it (:func:`_gather`) then creates no
    ``int`` and touches few objects: mapping positions to chunks is about 1.5 times as fast as from an
    ``array``, for 8 bytes a position. (A tuple of ints, unlike a list, leaves the garbage collector's
    lists after the first collection it survives, so later ones do not walk its million entries.)

    >>> _runs(range(3), [2, 0, 1])
    (0, 0, 2)
    """
    return tuple(chain.from_iterable(map(repeat, values, lengths)))


def _gather(values, indices) -> tuple:
    """``values[i]`` for each ``i`` of ``indices``, as a tuple: one C loop (:func:`operator.itemgetter`), about
    twice as fast as a comprehension.

    >>> _gather("abc", [2, 0]), _gather("abc", [1]), _gather("abc", [])
    (('c', 'a'), ('b',), ())
    """
    if len(indices) > 1:
        return itemgetter(*indices)(values)
    return tuple(values[index] for index in indices)


class Postings:
    """One term's BM25 weights in one configuration.

    ``chunks`` and ``values``: the chunks holding the term and its weight in each (lists); ``highest``: its
    largest weight; ``frequency``: how many chunks hold it; ``dense``: for a frequent term (held by at least
    :data:`DENSE` of the chunks), the weight of every chunk (0.0 where it is absent) as an ``array`` of
    doubles, else ``None``; the ``weights`` dict (``{chunk: weight}``) of a rarer term is built only when
    asked for.
    """

    __slots__ = ("chunks", "values", "_weights", "dense", "highest", "frequency")

    def __init__(self, chunks, values, dense, highest: float):
        self.chunks, self.values, self._weights = chunks, values, None
        self.dense, self.highest, self.frequency = dense, highest, len(chunks)

    @property
    def weights(self) -> dict:
        if self._weights is None:
            self._weights = dict(zip(self.chunks, self.values))
        return self._weights

    def added(self, scores: list, chunks, repeats: float = 1.0) -> list:
        """``scores`` plus the term's weight, times ``repeats``, in each of ``chunks`` (0.0 where it is absent):
        ``score + weight * repeats``, as :meth:`Bm25.scores` adds it. (Comprehensions: in Python 3.11 they beat
        ``map`` over two iterables.)"""
        if self.dense is not None:
            weights = self.dense
            if repeats == 1.0:
                return [score + weights[chunk] for score, chunk in zip(scores, chunks)]
            return [score + weights[chunk] * repeats for score, chunk in zip(scores, chunks)]
        weight = self.weights.get
        if repeats == 1.0:
            return [score + weight(chunk, 0.0) for score, chunk in zip(scores, chunks)]
        return [score + weight(chunk, 0.0) * repeats for score, chunk in zip(scores, chunks)]


DENSE = 0.125
"""A term held by at least this share of a configuration's chunks keeps its weights in an ``array`` over every
chunk (8 bytes a chunk, less than a dict's entry and its float for each chunk holding the term, and the faster
lookup: contiguous, where a dict's entries and a list's floats are scattered)."""
COUNTED = 2.0
"""A term with at least this many occurrences per chunk (half as many with overlap, where mapping a position
costs more) is counted in every chunk at once (``str.count`` over each chunk's stretch of
:attr:`Positions.text`), which then costs less than mapping each of its positions to its chunks (measured
term by term at SciFact's size: the two cost the same at about 2–3.5 occurrences per chunk without
overlap, and 0.8–1.8 with it)."""
FRACTIONS = 16
"""Term frequencies up to this are weighted from a table per configuration (``tf / (tf + norm)`` of every
chunk): a lookup instead of three operations per posting."""


class Bm25:
    """BM25 over the chunks of one configuration (:class:`~raglab_core.corpus.chunks.ChunkTable`)."""

    def __init__(self, table, positions: Positions, k1: float = K1, b: float = B):
        self.table, self.positions, self.k1, self.b = table, positions, k1, b
        lengths = table.lengths
        self.count = len(lengths)
        self.average = sum(lengths) / self.count if self.count else 0.0
        average = self.average or 1.0
        self.norms = [k1 * (1 - b + b * length / average) for length in lengths]
        self.fractions = [None]  # fractions[tf][chunk] = tf / (tf + norm), built as needed
        # Each corpus position's first chunk: a chunk's new tokens start where the previous one ended (within its
        # document). With overlap, its last chunk: its last tokens end where the next chunk starts.
        firsts, lasts, documents = table.firsts, table.lasts, table.documents
        # same[i]: chunk i + 1 is in chunk i's document
        same = list(map(eq, islice(documents, 1, None), documents))
        same.append(False)
        new = list(map(sub, lasts, chain((0,), map(mul, lasts, same))))
        final = list(map(sub, map(getitem, zip(lasts, islice(chain(firsts, (0,)), 1, None)), same), firsts))
        self.spread = max((-(-table.chunk // (table.chunk - table.overlap))), 1)  # chunks a token can be in
        self.last, self.shared = None, bool(table.overlap) and self.spread <= 2
        if self.shared:
            # A token is in its first chunk c and, in the stretch the next chunk overlaps, in c + 1 too: first[]
            # holds c before that stretch and -(c + 1) within it (one map for both chunks).
            shared = list(map(int.__sub__, lengths, final))
            values = chain.from_iterable(zip(range(self.count), range(-1, -self.count - 1, -1)))
            self.first = _runs(values, chain.from_iterable(zip(map(int.__sub__, new, shared), shared)))
        else:
            self.first = _runs(range(self.count), new)
            if table.overlap:
                self.last = _runs(range(self.count), final)
        # Counting a term in every chunk needs the corpus as text; from how many occurrences it pays (COUNTED).
        self.counted = None
        if positions.text is not None and self.count:
            self.counted = COUNTED * self.count / (2 if table.overlap else 1)
        self.begins = self.ends = None
        self.cache = {}

    def postings(self, term: int) -> Postings:
        """The :class:`Postings` of ``term`` (cached): its BM25 weight in each chunk holding it."""
        found = self.cache.get(term)
        if found is not None:
            return found
        if self.counted is not None and self.positions.occurrences(term) >= self.counted:
            found = self.cache[term] = self._counted(term)
            return found
        held = self.positions.of(term)
        first = _gather(self.first, held)
        if self.shared:
            counts = Counter(first)
            for both in [key for key in counts if key < 0]:  # -(c + 1): in chunks c and c + 1
                times = counts.pop(both)
                counts[-both - 1] += times
                counts[-both] += times
        elif self.last is not None:
            last = _gather(self.last, held)
            counts = Counter(tuple(chain.from_iterable(map(range, first, map(add, last, repeat(1))))))
        else:
            counts = Counter(first)
        chunks = list(counts)
        weight = idf(self.count, len(chunks))
        if len(chunks) == len(held) and not self.shared and self.last is None:  # each tf is 1
            fraction = self._fractions(1)
            values = [weight * fraction[chunk] for chunk in chunks]
        else:
            top = max(counts.values())
            if top <= FRACTIONS:
                self._fractions(top)
                fractions = self.fractions
                values = [weight * fractions[frequency][chunk] for chunk, frequency in counts.items()]
            else:
                norms = self.norms
                values = [weight * (frequency / (frequency + norms[chunk])) for chunk, frequency in counts.items()]
        dense = None
        if len(chunks) >= DENSE * self.count:
            dense = array("d", bytes(8 * self.count))
            for chunk, value in zip(chunks, values):
                dense[chunk] = value
        found = self.cache[term] = Postings(chunks, values, dense, max(values, default=0.0))
        return found

    def _counted(self, term: int) -> Postings:
        """A very frequent term's postings, counted in every chunk's stretch of the corpus's text (C loops)."""
        if self.begins is None:
            table = self.table
            self.begins = list(map(add, map(self.positions.offsets.__getitem__, table.documents), table.firsts))
            self.ends = list(map(add, self.begins, table.lengths))
        frequencies = list(map(self.positions.text.count, repeat(chr(term)), self.begins, self.ends))
        chunks = list(compress(range(self.count), frequencies))
        weight = idf(self.count, len(chunks))
        values = [weight * (frequency / (frequency + norm)) for frequency, norm in zip(frequencies, self.norms)
                  if frequency]
        dense = array("d", bytes(8 * self.count))
        for chunk, value in zip(chunks, values):
            dense[chunk] = value
        return Postings(chunks, values, dense, max(values, default=0.0))

    def _fractions(self, top: int) -> list:
        """``tf / (tf + norm)`` of every chunk, for each ``tf`` up to ``top`` (kept); the table for ``top``."""
        while len(self.fractions) <= top:
            frequency = len(self.fractions)
            self.fractions.append([frequency / (frequency + norm) for norm in self.norms])
        return self.fractions[top]

    def plan(self, terms) -> list:
        """The query's terms in the order they are added: ``[(highest contribution, -term, repeats, postings)]``,
        the largest possible contribution (highest weight times repeats) first, terms no chunk holds left out."""
        plan = []
        for term, repeats in Counter(terms).items():
            postings = self.postings(term)
            if postings.frequency:
                plan.append((postings.highest * repeats, -term, float(repeats), postings))
        plan.sort(reverse=True)
        return plan

    def scores(self, terms) -> dict:
        """``{chunk: score}`` for every chunk sharing a term with the query: the definition, which :meth:`search`
        computes only the top of. A term given ``n`` times adds ``n`` times its weight; the terms are added in
        :meth:`plan`'s order, as :meth:`search` adds them, so that both give the same floating-point sums.

        >>> from raglab_core.corpus.tokens import tokenize_corpus
        >>> from raglab_core.corpus.chunks import chunk_table
        >>> corpus = tokenize_corpus({"a": "x y", "b": "y"})
        >>> index = Bm25(chunk_table(corpus, 5, 0), Positions(corpus))
        >>> {c: round(s, 6) for c, s in index.scores([0, 1, 1]).items()}
        {0: 0.523659, 1: 0.204856}
        """
        total = {}
        for _, _, repeats, postings in self.plan(terms):
            for chunk, weight in postings.weights.items():
                total[chunk] = total.get(chunk, 0.0) + (weight if repeats == 1.0 else weight * repeats)
        return total

    def search(self, terms, depth: int = DEPTH) -> list:
        """The top ``depth`` chunks for a query's term numbers (repeats count): ``[(chunk, score), ...]`` in
        trec_eval's order. Chunks sharing no term with the query are not retrieved."""
        plan = self.plan(terms)
        left = math.fsum(step[0] for step in plan)
        # Every chunk of the first terms, added into one dict of scores (C loops: map and dict.update).
        found, total, step = {}, 0.0, 0
        while step < len(plan):
            highest, _, repeats, postings = plan[step]
            step += 1
            left -= highest
            chunks = postings.chunks
            added = postings.values if repeats == 1.0 else list(map(mul, postings.values, repeat(repeats)))
            if found:
                for chunk, weight in zip(chunks, added):  # a loop beats map(found.get, ...) in Python 3.11
                    found[chunk] = get(chunk, 0.0) + weight
            else:
                found = dict(zip(chunks, added))
                get = found.get
            total += sum(added)
            # The terms left cannot lift a chunk not seen yet into the top once depth chunks score above their
            # highest weights' sum (bound). The depth-th score is at most the mean of the top depth, so at most
            # total / depth: only then is it worth counting the scores above the bound (a filter, not a sort).
            bound = left * (1 + SLACK)
            if step < len(plan) and len(found) >= depth and bound * depth < total:
                above = [score for score in found.values() if score > bound]
                if len(above) >= depth:
                    break
        if step == len(plan):
            return self.ranked(found, depth)
        # The other terms only add to the chunks seen, those that can still reach the depth-th score so far
        # (floor) with the terms left. The best TOP * depth chunks seen are completed first (in chunk order, so
        # that the arrays are read in order): the depth-th of their final scores is a floor much closer to the
        # final one. Then every other chunk seen that can still reach that floor is completed (held as two
        # parallel lists), those that cannot being dropped before each term but the last.
        above.sort(reverse=True)
        rest, floor, first = plan[step:], above[depth - 1], above[min(TOP * depth, len(above)) - 1]
        top = sorted(chunk for chunk, score in found.items() if score >= first)
        finals = [found[chunk] for chunk in top]
        for _, _, repeats, postings in rest:
            finals = postings.added(finals, top, repeats)
        floor = max(floor, _kth(finals, depth))
        cut = floor / (1 + SLACK) - left
        chunks = [chunk for chunk, score in found.items() if cut <= score < first]
        scores = [score for score in found.values() if cut <= score < first]
        for number, (highest, _, repeats, postings) in enumerate(rest, 1):
            cut = floor / (1 + SLACK) - left
            if 1 < number < len(rest) and cut > 0:
                keep = [score >= cut for score in scores]
                chunks, scores = list(compress(chunks, keep)), list(compress(scores, keep))
            left -= highest
            scores = postings.added(scores, chunks, repeats)
        return self._top(chunks + top, scores + finals, depth)

    def ranked(self, scores: dict, depth: int) -> list:
        """The top ``depth`` of ``{chunk: score}`` in trec_eval's order (ties: chunk id descending)."""
        return self._top(list(scores), list(scores.values()), depth)

    def _top(self, chunks: list, scores: list, depth: int) -> list:
        """The top ``depth`` of distinct ``chunks`` scoring ``scores``, as :meth:`ranked` gives them."""
        if len(scores) > depth:
            cut = _kth(scores, depth)
            keep = [score >= cut for score in scores]
            chunks, scores = list(compress(chunks, keep)), list(compress(scores, keep))
        order = sorted(zip(scores, map(self.table.chunk_ids.__getitem__, chunks), chunks), reverse=True)
        return [(chunk, score) for score, _, chunk in order[:depth]]

    def forget(self, term: int) -> None:
        """Drop ``term``'s cached postings (no query left needs them)."""
        self.cache.pop(term, None)


def _kth(values, k: int) -> float:
    """The ``k``-th largest of ``values`` (a sized iterable; the smallest when there are fewer)."""
    if len(values) <= k:
        return min(values)
    return sorted(values)[-k]
