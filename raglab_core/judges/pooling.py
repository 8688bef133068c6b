"""Which (query, document) pairs to judge: depth-k pools of runs, seeded samples, and samples stratified by a
model's grade (DESIGN §4.13). Both edges use it: the ``pool`` command (:mod:`raglab_core.judges.pool_command`) and
the judging page (:mod:`raglab_core.judges.session`). It also reads the pool file back (:func:`read_pool`).

**Depth-k pooling.** The pool of runs at depth k is, for each query, the union of the top k documents of every
run; only those pairs are judged, and a document outside the pool counts as not relevant. TREC has built its qrels
so since TREC-1 (1992): E. M. Voorhees and D. K. Harman, *TREC: Experiment and Evaluation in Information
Retrieval*, MIT Press 2005, ch. 3; K. Sparck Jones and C. J. van Rijsbergen, "Report on the need for and provision
of an 'ideal' information retrieval test collection", 1975, first proposed it. Each run is ranked as trec_eval
ranks it (:func:`raglab_core.runs.evaluation.trec_order`: score descending, ties by docid descending), so the top
k here are the top k every measure of ``eval`` sees. Pairs that qrels already judge (any grade, −1 included) are
left out: they need no second judgment.

**The pool's order** (:func:`pool`), deterministic and independent of the order the runs are given in:

1. queries in sorted order (code point order, which is trec_eval's ``strcmp`` on UTF-8);
2. within a query, each document by its best rank over the runs (1 first);
3. documents with the same best rank by docid, ascending.

**Sampling** (:func:`sample`): n pairs drawn uniformly without replacement with :class:`random.Random` seeded
with the seed, by a partial Fisher–Yates shuffle that calls only ``random()`` (``j = i + int(random() * (m − i))``
for i = 0 … n − 1; Knuth, *TAOCP* vol. 2, §3.4.2, Algorithm P): Python guarantees ``random()``'s sequence for a
seed across versions, not ``sample``'s or ``shuffle``'s, so the command line and the page (Pyodide) draw the
same pairs. The drawn pairs keep the order they had.

**Stratified sampling** (:func:`stratified`, :func:`allocation`): to check a model's grades, sample the pairs it
judged grade by grade (stratum by stratum), so that a rare grade (often 3, or 0 in a lenient model's hands) is
still seen. For n pairs over L grades present, stratum g holding c_g pairs:

1. a floor: each grade gets min(c_g, ⌈n / (2L)⌉) pairs (at most half of the sample goes to floors);
2. the remaining R pairs go proportionally to what each stratum has left, s_g = c_g − floor_g: ⌊R·s_g / S⌋ each
   (S = Σ s_g), then one more to the strata with the largest remainders R·s_g mod S (ties: lower grade first)
   until R is used — Hamilton's largest-remainder method, in integers;
3. when n < L not every grade can have one: the n largest strata get one each (ties: lower grade first);
4. with n ≥ Σ c_g, every pair.

Then each stratum is sampled as :func:`sample` samples, grade by grade in ascending order, from one seeded
generator. Cochran, *Sampling Techniques*, 3rd ed., 1977, ch. 5 (proportional allocation).

>>> runs = [{"q1": {"a": 3.0, "b": 2.0, "c": 1.0}}, {"q1": {"c": 9.0, "d": 8.0, "a": 0.5}}]
>>> pool(runs, 2)
[('q1', 'a'), ('q1', 'c'), ('q1', 'b'), ('q1', 'd')]
>>> pool(runs, 2, judged={"q1": {"a": 0}})
[('q1', 'c'), ('q1', 'b'), ('q1', 'd')]
>>> allocation({0: 80, 1: 15, 2: 4, 3: 1}, 20)
{0: 12, 1: 4, 2: 3, 3: 1}
"""

import math
import random
from itertools import zip_longest

from ..checks import whole_number
from ..notices import Notice
from ..runs.evaluation import trec_order
from ..runs.statistics import SEED
from ..runs.trec import QrelsReader, RunNotGrouped, RunReader
from ..text_reader import TextReader



def top(scores: dict, depth: int) -> dict:
    """A run's top ``depth`` documents for one query, ``{docid: score}`` in rank order (as trec_eval ranks them,
    :func:`~raglab_core.runs.evaluation.trec_order`): the one cut of a run to the pool's depth, wherever a run is
    read (``pool``'s files, the judging page's) or pooled.

    >>> top({"a": 1.0, "b": 3.0, "c": 2.0}, 2)
    {'b': 3.0, 'c': 2.0}
    """
    return {docid: scores[docid] for docid in trec_order(scores, depth)}


def pool(runs, depth: int, judged=None) -> list[tuple[str, str]]:
    """The depth-``depth`` pool of ``runs`` (each ``{qid: {docid: score}}``), minus the pairs ``judged``
    (``{qid: {docid: grade}}``) holds, as ``(qid, docid)`` pairs in the pool's order (the module's docstring).

    >>> pool([{"q2": {"x": 1.0}, "q1": {"b": 1.0, "a": 1.0}}], 1)
    [('q1', 'b'), ('q2', 'x')]
    """
    whole_number(depth, "depth", 1)
    judged = judged or {}
    runs = list(runs)
    pairs = []
    for qid in sorted({qid for run in runs for qid in run}):
        orders = [list(top(run[qid], depth)) for run in runs if qid in run]
        seen = set(judged.get(qid, ()))  # the judged are never new
        # rank by rank over the runs: a document first met at rank r has best rank r (set operations, in C)
        for tier in zip_longest(*orders):
            new = set(tier)
            new.discard(None)
            new -= seen
            if new:
                seen |= new
                pairs.extend((qid, docid) for docid in sorted(new))
    return pairs


def _permutation(count: int, n: int, rng: random.Random) -> list[int]:
    """The first ``n`` places of a Fisher–Yates shuffle of ``0 … count − 1`` that uses ``rng.random()`` only
    (``j = i + int(random() * (count − i))``), in the order drawn."""
    indices = list(range(count))
    for i in range(n):
        j = i + int(rng.random() * (count - i))
        indices[i], indices[j] = indices[j], indices[i]
    return indices[:n]


def _draw(count: int, n: int, rng: random.Random) -> list[int]:
    """``n`` of the indices ``0 … count − 1`` drawn by :func:`_permutation`, in ascending order."""
    return sorted(_permutation(count, n, rng))


def shuffled(items, rng: random.Random) -> list:
    """``items`` in the order of a Fisher–Yates shuffle drawn from ``rng.random()`` alone (the same sequence in
    every Python version and in Pyodide, unlike :meth:`random.Random.shuffle`).

    >>> shuffled(["a", "b", "c", "d"], random.Random(42))
    ['c', 'b', 'a', 'd']
    """
    items = list(items)
    return [items[i] for i in _permutation(len(items), len(items), rng)]


def sample(pairs, n: int, seed: int = SEED) -> list:
    """``n`` of ``pairs`` drawn at random (all when ``n`` ≥ their number), seeded, in their order.

    >>> sample([("q1", "a"), ("q1", "b"), ("q2", "c"), ("q2", "d")], 2, seed=7)
    [('q1', 'a'), ('q1', 'b')]
    """
    whole_number(n, "sample", 0)
    pairs = list(pairs)
    return [pairs[i] for i in _draw(len(pairs), min(n, len(pairs)), random.Random(seed))]


def allocation(counts: dict, n: int) -> dict:
    """How many of ``n`` pairs each grade gets, its stratum holding ``counts[grade]`` pairs (the module's
    docstring: a floor of min(c, ⌈n / 2L⌉), the rest by largest remainder). Grades with no pair get none.

    >>> allocation({0: 3, 2: 1}, 10), allocation({0: 50, 1: 30, 2: 20}, 2), allocation({0: 5, 1: 5}, 3)
    ({0: 3, 2: 1}, {0: 1, 1: 1, 2: 0}, {0: 2, 1: 1})
    """
    whole_number(n, "sample", 0)
    grades = sorted(grade for grade, count in counts.items() if count > 0)
    total = sum(counts[grade] for grade in grades)
    if n >= total:
        return {grade: counts[grade] for grade in grades}
    if n < len(grades):
        largest = set(sorted(grades, key=lambda grade: (-counts[grade], grade))[:n])
        return {grade: int(grade in largest) for grade in grades}
    floor = math.ceil(n / (2 * len(grades)))
    taken = {grade: min(counts[grade], floor) for grade in grades}
    rest = n - sum(taken.values())
    spare = {grade: counts[grade] - taken[grade] for grade in grades}
    room = sum(spare.values())  # > rest, since n < total
    for grade in grades:
        taken[grade] += rest * spare[grade] // room
    short = n - sum(taken.values())
    by_remainder = sorted(grades, key=lambda grade: (-(rest * spare[grade] % room), grade))
    for grade in by_remainder[:short]:
        taken[grade] += 1
    return taken


def stratified(judge_qrels, n: int, seed: int = SEED, exclude=None) -> list[tuple[str, str]]:
    """``n`` of the pairs ``judge_qrels`` (a model's ``{qid: {docid: grade}}``) judges, minus those ``exclude``
    (``{qid: {docid: …}}``, e.g. qrels already made) holds, stratified by the model's grade (:func:`allocation`),
    each stratum sampled as :func:`sample` samples; the pairs sorted by query, then docid.

    >>> judge = {"q1": {"a": 0, "b": 0, "c": 0, "d": 3}, "q2": {"e": 0, "f": 1}}
    >>> stratified(judge, 3, seed=1)
    [('q1', 'a'), ('q1', 'd'), ('q2', 'f')]
    """
    whole_number(n, "sample", 0)
    exclude = exclude or {}
    strata = {}
    for qid in sorted(judge_qrels):
        done = exclude.get(qid, {})
        for docid in sorted(judge_qrels[qid]):
            if docid not in done:
                strata.setdefault(judge_qrels[qid][docid], []).append((qid, docid))
    sizes = allocation({grade: len(pairs) for grade, pairs in strata.items()}, n)
    rng = random.Random(seed)
    chosen = []
    for grade in sorted(strata):
        pairs = strata[grade]
        chosen.extend(pairs[i] for i in _draw(len(pairs), sizes[grade], rng))
    return sorted(chosen)


def choose(runs, depth: int, judged=None, n=None, seed: int = SEED, judge=None):
    """What ``pool`` prints and the judging page judges: ``(pairs, notices)``.

    The depth-``depth`` pool of ``runs`` minus the pairs ``judged`` holds (:func:`pool`). With a model's qrels
    ``judge``, only the pool's pairs it grades, and with ``n`` a sample of ``n`` of them stratified by its grade
    (:func:`stratified`); without ``judge``, with ``n``, a sample of ``n`` (:func:`sample`). Either way the pairs
    keep the pool's order. ``notices`` (:class:`~raglab_core.notices.Notice`): ``pool_empty`` (nothing left
    to judge), ``sample_whole_pool`` (``n`` is not below the number of pairs: all are kept),
    ``judge_misses_pool`` (pool pairs the model did not grade, left out).

    >>> runs = [{"q1": {"a": 2.0, "b": 1.0}}, {"q1": {"c": 1.0}}]
    >>> pairs, notices = choose(runs, 2, judge={"q1": {"a": 1, "c": 0}}, n=5)
    >>> pairs, [notice.code for notice in notices]
    ([('q1', 'a'), ('q1', 'c')], ['judge_misses_pool', 'sample_whole_pool'])
    """
    pairs = pool(runs, depth, judged)
    notices = []
    if judge is not None:
        graded = [(qid, docid) for qid, docid in pairs if docid in judge.get(qid, {})]
        if len(graded) < len(pairs):
            notices.append(Notice("judge_misses_pool", {"count": len(pairs) - len(graded), "total": len(pairs)}))
        pairs = graded
    if n is not None:
        if n >= len(pairs) and pairs:
            notices.append(Notice("sample_whole_pool", {"count": len(pairs), "sample": n}))
        if judge is not None:
            qrels = {}
            for qid, docid in pairs:
                qrels.setdefault(qid, {})[docid] = judge[qid][docid]
            kept = set(stratified(qrels, n, seed))
            pairs = [pair for pair in pairs if pair in kept]
        else:
            pairs = sample(pairs, n, seed)
    if not pairs:
        notices.append(Notice("pool_empty", {}))
    return pairs, notices


def pool_text(pairs) -> str:
    """The pool file: one ``query_id<TAB>doc_id`` line per pair, as ``pool`` prints it.

    >>> pool_text([("q1", "a"), ("q2", "b")])
    'q1\\ta\\nq2\\tb\\n'
    """
    return "".join(f"{qid}\t{docid}\n" for qid, docid in pairs)


def read_tops(name: str, chunks, depth: int) -> dict:
    """A run's top ``depth`` documents per query, ``{qid: {docid: score}}``, read as ``eval`` reads a run
    (:class:`~raglab_core.runs.trec.RunReader`: TREC or JSON, errors naming the file and line): ``chunks()``
    gives its text, an iterable of chunks, anew at each call. Its lines grouped by query, one query is held at a
    time; otherwise it is read again, held whole. The pool of the tops is the pool of the runs.

    >>> read_tops("r.txt", lambda: ["q1 Q0 a 1 0.5 t\\nq1 Q0 b 2 0.9 t\\nq2 Q0 c 1 1 t\\nq1 Q0 d 3 0.7 t\\n"], 2)
    {'q1': {'b': 0.9, 'd': 0.7}, 'q2': {'c': 1.0}}
    """
    whole_number(depth, "depth", 1)
    for grouped in (True, False):
        tops = {}
        reader = RunReader(name, lambda qid, scores: tops.__setitem__(qid, top(scores, depth)), grouped)
        try:
            for text in chunks():
                reader.feed(text)
            reader.close()
        except RunNotGrouped:
            continue
        return tops
    raise AssertionError("a run read whole is never ungrouped")  # pragma: no cover


def read_qrels(name: str, chunks) -> dict:
    """Qrels ``{qid: {docid: grade}}`` read as ``eval`` reads them (TREC, BEIR TSV or JSON); ``chunks()`` as in
    :func:`read_tops`.

    >>> read_qrels("q.txt", lambda: ["q1 0 a 2\\nq1 0 ", "b 0\\n"])
    {'q1': {'a': 2, 'b': 0}}
    """
    reader = QrelsReader(name)
    for text in chunks():
        reader.feed(text)
    return reader.close()


def is_id(value) -> bool:
    """Whether ``value`` is a query's or a document's id: a non-empty text without whitespace, as in a TREC run."""
    return isinstance(value, str) and bool(value) and value.split() == [value]


class PoolReader(TextReader):
    """Reads a pool file, the TSV ``pool`` prints (``query_id<TAB>doc_id`` per line; blank lines skipped, a
    trailing ``\\r`` dropped), into a list of pairs in file order; each problem is named with its line. An id is
    non-empty and holds no whitespace, as in a TREC run."""

    field = "pool"

    def __init__(self, name: str = "pool.tsv"):
        super().__init__(name)
        self.result = []
        self.seen = set()

    def lines(self, lines) -> None:
        for text in lines:
            self.number += 1
            text = text[:-1] if text.endswith("\r") else text
            if text.strip():
                self.line(self.number, text)

    def line(self, number, text):
        fields = text.split("\t")
        if len(fields) != 2:
            self.problems.add(number, "pool_columns", found=len(fields))
            return
        for value in fields:
            if not value:
                self.problems.add(number, "id_blank", key="id")
                return
            if not is_id(value):
                self.problems.add(number, "id_space", value=value)
                return
        pair = (fields[0], fields[1])
        if pair in self.seen:
            self.problems.add(number, "duplicate", qid=pair[0], docid=pair[1])
            return
        self.seen.add(pair)
        self.result.append(pair)

    def close(self) -> list:
        """End the text: the pairs read, or :class:`~raglab_core.text_reader.FileFormatError` with every problem."""
        self.end_text()
        if not self.result and not self.problems.listed:
            self.problems.add(None, "no_pairs")
        self.problems.raise_if_any()
        return self.result

    def read(self, text: str) -> list:
        """Read a whole text at once."""
        self.feed(text)
        return self.close()


def read_pool(text: str, name: str = "pool.tsv") -> list:
    """A whole pool file's text read into ``[(qid, docid)]``.

    >>> read_pool("q1\\ta\\nq1\\tb\\n")
    [('q1', 'a'), ('q1', 'b')]
    >>> read_pool("q1\\ta\\nq1 b\\n", name="pool.tsv")
    Traceback (most recent call last):
      ...
    raglab_core.text_reader.FileFormatError: «pool.tsv», línea 2: se esperaban 2 columnas separadas por un tabulador (query_id<TAB>doc_id) y hay 1
    """
    return PoolReader(name).read(text)
