"""Streaming readers for qrels and runs (TREC, BEIR TSV, JSON), with bilingual error reports.

A reader takes its input a piece at a time, so that a 7 M-line run never has
to be held whole: :meth:`~RunReader.read` takes any iterable of lines (an open
file, a list in a test), :meth:`~TextReader.feed` takes chunks of text as the
browser reads them (lines may straddle chunks), and :meth:`~RunReader.close`
ends the input. These readers are :class:`raglab_core.text_reader.TextReader` s (chunks cut into numbered
lines, and a file's problems), as every reader of a file's text is. :class:`RunReader` hands each query's documents to a callback
as soon as the query ends (:class:`raglab_core.runs.evaluation.RunEvaluator` scores
and drops them); :func:`parse_qrels` and :func:`parse_run` read a whole input
into plain dicts. Nothing partial is returned: on bad input, ``close()``
raises one :class:`TrecFormatError` listing the first :data:`~raglab_core.text_reader.MAX_REPORTED`
problems with their line numbers and counting the rest.

Formats, detected from the first record (those of trec_eval 10.0 [1]_, BEIR
[3]_, ranx and pytrec_eval [2]_):

* **TREC qrels**: ``qid iter docid rel`` (whitespace-separated) ->
  ``{qid: {docid: rel}}``. ``iter`` is ignored; ``rel`` is an integer and may
  be negative (trec_eval's "judged non-relevant").
* **BEIR qrels**: tab-separated ``query-id corpus-id score``, with or without
  the header line ``query-id<TAB>corpus-id<TAB>score`` (a first record whose score
  is not an integer is taken as the header).
* **TREC run**: ``qid Q0 docid rank score tag`` -> ``{qid: {docid: score}}``;
  ``Q0``, ``rank``, ``tag`` and any further columns are ignored, as
  trec_eval 10 ignores them (the ranking comes from the scores alone).
* **JSON** qrels ``{qid: {docid: rel}}`` and runs ``{qid: {docid: score}}``
  (ranx's and pytrec_eval's in-memory shape), detected when the first
  character is ``{``; JSON is parsed whole when the input ends.
* Blank lines and lines starting with ``#`` (trec_eval 10's comments) are
  skipped, so a query id cannot start with ``#``.

Numbers are strict ASCII: ``rel`` matches ``[+-]?[0-9]+`` and a score is what
C's ``strtod`` reads from ASCII (digits, ``.``, ``e``, a sign), finite.
Python's own rules would read ``1_0`` as 10 and ``١`` (Arabic-Indic one) or
``９`` (fullwidth nine) as digits; here they are errors with their line, as is
``1e400`` (beyond the double range). A (qid, docid) pair given twice is an
error. A first record with the other file's column count is reported once as
a swapped file ("this looks like a run file, not qrels").

>>> parse_qrels(["# judged by NIST", "q1 0 d1 2", "", "q1 0 d2 0", "q2 0 d1 -1"], name="qrels.txt")
{'q1': {'d1': 2, 'd2': 0}, 'q2': {'d1': -1}}
>>> parse_qrels("query-id\\tcorpus-id\\tscore\\nq1\\td1\\t1\\n", name="test.tsv")
{'q1': {'d1': 1}}
>>> parse_run("q1 Q0 d1 1 0.5 bm25 extra\\nq1 Q0 d2 2 0.25 bm25\\n", name="run.txt")
{'q1': {'d1': 0.5, 'd2': 0.25}}
>>> parse_run(['{"q1": {"d1": 0.5, "d2": 1}}'], name="run.json")
{'q1': {'d1': 0.5, 'd2': 1.0}}
>>> try:
...     parse_qrels(["q1 0 d1 2", "q1 0 d2 1_0"], name="qrels.txt")
... except TrecFormatError as error:
...     print(error.english())
...     print(error)
qrels.txt, line 2: relevance '1_0' is not an integer in ASCII digits
«qrels.txt», línea 2: la relevancia «1_0» no es un número entero en cifras ASCII

References
----------
.. [1] NIST, *trec_eval* 10.0, https://github.com/usnistgov/trec_eval (README:
   formats of the qrels and results files).
.. [2] E. Bassani, "ranx: A Blazing-Fast Python Library for Ranking
   Evaluation and Comparison", ECIR 2022.
.. [3] N. Thakur et al., "BEIR: A Heterogeneous Benchmark for Zero-shot
   Evaluation of Information Retrieval Models", NeurIPS 2021 Datasets and
   Benchmarks (``qrels/test.tsv``).
"""

import json
import math

from ..messages import BEIR_LAYOUT, QRELS_LAYOUT, RUN_LAYOUT
from ..text_reader import MAX_REPORTED, FileFormatError, Problem, TextReader  # noqa: F401 (MAX_REPORTED: the docs)

class TrecFormatError(FileFormatError):
    """A qrels or run file that cannot be read (:class:`~raglab_core.text_reader.FileFormatError`, the
    kernel's format error, raised by the readers here).

    >>> error = TrecFormatError("run.txt", "run", [Problem(3, "score", {"value": "n/a"})], more=2)
    >>> print(error.english())
    run.txt: 3 problems
      line 3: score 'n/a' is not a number in ASCII digits
      … and 2 more
    """


class RunNotGrouped(Exception):
    """A streaming :class:`RunReader` met a query again after other queries: its lines are not grouped.

    Not an input error (trec_eval accepts such runs): the caller reads the
    input again with ``grouped=False``, holding every query until the end.
    """


def _skippable(fields) -> bool:
    """A blank line (no fields) or a ``#`` comment."""
    return not fields or fields[0][0] == "#"


def _ascii_number(text) -> bool:
    """Did Python read ``text`` as C would? Only ASCII, and no ``_`` (Python's digit separator)."""
    return text.isascii() and "_" not in text


class _Reader(TextReader):
    """What both readers share: format detection, JSON, lines given as any iterable."""

    error = TrecFormatError

    def __init__(self, name: str):
        super().__init__(name)
        self.format = None  # detected from the first record
        self.json_lines = None
        self.commented = 0  # lines skipped as ``#`` comments
        self.first_comment = None  # the first: (line number, its text)

    def _comment(self, number: int, line: str) -> None:
        """Line ``number`` starts with ``#`` and is skipped as a comment: count it, keep the first.

        trec_eval reads such a line as data (``#303`` is a query id to it), so
        the sanity warning ``comment_lines`` says how many were skipped.
        """
        if not self.commented:
            self.first_comment = (number, line.rstrip("\r\n"))
        self.commented += 1

    @property
    def comments(self) -> tuple | None:
        """``(count, first line number, its text)`` of the lines skipped as comments, ``None`` without any.

        >>> reader = QrelsReader("q.txt")
        >>> reader.read("# judged by hand\\n301 0 d1 1\\n#303 0 d2 1\\n"); reader.close()
        {'301': {'d1': 1}}
        >>> reader.comments
        (2, 1, '# judged by hand')
        """
        return (self.commented, *self.first_comment) if self.commented else None

    def _is_json(self, fields) -> bool:
        return fields[0][0] == "{"

    def read(self, lines) -> None:
        """Read the next lines (an iterable, e.g. an open file; a ``str`` is split into lines)."""
        self.lines(lines.splitlines() if isinstance(lines, str) else lines)

    def lines(self, lines) -> None:
        lines = iter(lines)
        if self.format is None:
            for line in lines:
                self.number += 1
                fields = line.split()
                if _skippable(fields):
                    if fields:
                        self._comment(self.number, line)
                    continue
                if self._is_json(fields):
                    self.format, self.json_lines, self.json_start = "json", [], self.number
                    self.json_lines.append(line.rstrip("\r\n"))
                else:
                    self.number -= 1
                    self.format = self._detect(line, fields)
                    self._records((line,))  # then the rest, straight from the iterator (no wrapper per line)
                break
        if self.format == "json":
            self.json_lines.extend(line.rstrip("\r\n") for line in lines)
        elif self.format is not None:
            self._records(lines)

    def _json(self):
        """The JSON document read, checked to be ``{qid: {docid: value}}``: ``[(qid, {docid: value})]``."""
        try:
            data = json.loads("\n".join(self.json_lines), object_pairs_hook=_object_noting_repeats)
        except json.JSONDecodeError as error:
            self.problems.fail(self.json_start + error.lineno - 1, "json_syntax", column=error.colno)
        self.json_lines = None
        if not isinstance(data, dict):
            self.problems.fail(self.json_start, "json_shape", what=self.field, where=None)
        for qid in data.repeated:
            self.problems.add(None, "duplicate_query", qid=qid)
        queries = []
        for qid, values in data.items():
            if not isinstance(values, dict):
                self.problems.add(None, "json_shape", what=self.field, where=qid)
                continue
            for docid in values.repeated:
                self.problems.add(None, "duplicate", qid=qid, docid=docid)
            queries.append((qid, values))
        return queries


class QrelsReader(_Reader):
    """Reads qrels (TREC, BEIR TSV or JSON) into ``{qid: {docid: rel}}``; :meth:`close` returns them."""

    field = "qrels"

    def __init__(self, name: str = "qrels"):
        super().__init__(name)
        self.qrels = {}
        self.current = self.judged = None

    def _is_json(self, fields) -> bool:
        return fields[0][0] == "{" and len(fields) != 4  # "{x} 0 d 1" is a TREC line

    def _detect(self, line, fields):
        if len(fields) >= 6:
            self.problems.fail(self.number + 1, "looks_like_run")
        if len(line.rstrip("\r\n").split("\t")) == 3:
            return "beir"
        return "trec"

    def _records(self, lines):
        if self.format == "beir":
            return self._beir(lines)
        number, current, judged, qrels, problems = self.number, self.current, self.judged, self.qrels, self.problems
        # The hot loop: one split, one int(), two dict operations; the rare cases in the except branch.
        for line in lines:
            number += 1
            fields = line.split()
            try:
                qid, _, docid, text = fields
                grade = int(text)
            except ValueError:
                if not _skippable(fields):
                    if len(fields) != 4:
                        problems.add(number, "columns", expected=4, layout=QRELS_LAYOUT, found=len(fields))
                    else:
                        problems.add(number, "relevance", value=text)
                elif fields:
                    self._comment(number, line)
                continue
            if not text.isascii() or "_" in text:  # _ascii_number, inlined in the hot loop
                if qid[0] != "#":
                    problems.add(number, "relevance", value=text)
                else:
                    self._comment(number, line)
                continue
            if qid != current:
                if qid[0] == "#":
                    self._comment(number, line)
                    continue
                judged = qrels.get(qid)
                if judged is None:
                    judged = qrels[qid] = {}
                current = qid
            if docid in judged:
                problems.add(number, "duplicate", qid=qid, docid=docid)
                continue
            judged[docid] = grade
        self.number, self.current, self.judged = number, current, judged

    def _beir(self, lines):
        for line in lines:
            self.number += 1
            fields = line.rstrip("\r\n").split("\t")
            if _skippable(line.split()):
                if line.strip():
                    self._comment(self.number, line)
                continue
            if len(fields) != 3:
                self.problems.add(self.number, "columns", expected=3, layout=BEIR_LAYOUT, found=len(fields))
                continue
            qid, docid, text = fields
            try:
                grade = int(text)
            except ValueError:
                grade = None
            if grade is None or not _ascii_number(text):
                if self.qrels or self.problems.listed or self.current == "header":
                    self.problems.add(self.number, "relevance", value=text)
                self.current = "header"  # a first record whose score is not a number: the header
                continue
            self.current = "records"
            judged = self.qrels.setdefault(qid, {})
            if docid in judged:
                self.problems.add(self.number, "duplicate", qid=qid, docid=docid)
            else:
                judged[docid] = grade

    def close(self) -> dict:
        """End the input: the qrels read, or :class:`TrecFormatError`."""
        self.end_text()
        if self.format == "json":
            for qid, values in self._json():
                judged = self.qrels[qid] = {}
                for docid, value in values.items():
                    if isinstance(value, int) and not isinstance(value, bool):
                        judged[docid] = value
                    else:
                        self.problems.add(None, "json_relevance", value=value)
        self.problems.raise_if_any()
        if not any(self.qrels.values()):
            self.problems.fail(None, "empty_qrels")
        return self.qrels


class RunReader(_Reader):
    """Reads a run (TREC or JSON), handing each query's ``{docid: score}`` to ``on_query(qid, scores)``.

    Streaming (``grouped=True``, the default): a query is handed over as soon
    as the next one starts, so only one query is held at a time; meeting a
    query again raises :class:`RunNotGrouped`. With ``grouped=False`` every
    query is held until :meth:`close` (any line order). Without ``on_query``,
    :meth:`close` returns the whole run ``{qid: {docid: score}}``.
    """

    field = "run"

    def __init__(self, name: str = "run", on_query=None, grouped: bool = True):
        super().__init__(name)
        self.on_query = on_query
        self.streaming = on_query is not None and grouped
        self.run = {}  # every query when not streaming
        self.done = set()  # queries handed over (streaming)
        self.current, self.block = None, {}

    def _detect(self, line, fields):
        if len(fields) in (3, 4):
            self.problems.fail(self.number + 1, "looks_like_qrels", found=len(fields))
        return "trec"

    def _start(self, qid):
        """Begin query ``qid``'s lines: hand over the previous query (streaming); the dict to fill."""
        if self.streaming:
            if self.current is not None:
                self.on_query(self.current, self.block)
                self.done.add(self.current)
            if qid in self.done:
                raise RunNotGrouped(qid)
            block = {}
        else:
            block = self.run.get(qid)
            if block is None:
                block = self.run[qid] = {}
        self.current, self.block = qid, block
        return block

    def _records(self, lines):
        number, current, block, problems = self.number, self.current, self.block, self.problems
        # The hot loop: one split, one float(), a few checks, two dict operations.
        for line in lines:
            number += 1
            fields = line.split()
            try:
                qid, docid, text = fields[0], fields[2], fields[4]
                fields[5]  # noqa: B018 (at least 6 columns; more are ignored, as trec_eval 10 does)
                score = float(text)
            except (IndexError, ValueError):
                if not _skippable(fields):
                    if len(fields) < 6:
                        problems.add(number, "run_columns", found=len(fields))
                    else:
                        problems.add(number, "score", value=text)
                elif fields:
                    self._comment(number, line)
                continue
            if score - score or not text.isascii() or "_" in text:  # NaN - NaN, inf - inf: NaN (truthy)
                if qid[0] != "#":
                    problems.add(number, "score" if score - score == 0 else "not_finite", value=text)
                else:
                    self._comment(number, line)
                continue
            if qid != current:
                if qid[0] == "#":
                    self._comment(number, line)
                    continue
                self.number = number
                block = self._start(qid)
                current = qid
            if docid in block:
                problems.add(number, "duplicate", qid=qid, docid=docid)
                continue
            block[docid] = score
        self.number = number

    def close(self):
        """End the input: hand over what is left (or return the run without ``on_query``); :class:`TrecFormatError` on bad input."""
        self.end_text()
        if self.format == "json":
            for qid, values in self._json():
                scores = self.run[qid] = {}
                for docid, value in values.items():
                    if isinstance(value, bool) or not isinstance(value, (int, float)):
                        self.problems.add(None, "json_score", value=value)
                        continue
                    try:
                        score = float(value)
                    except OverflowError:  # an integer beyond the double range
                        score = math.inf
                    if score - score:
                        self.problems.add(None, "not_finite", value=value)
                    else:
                        scores[docid] = score
        self.problems.raise_if_any()
        if self.streaming and self.format != "json":
            if self.current is not None:
                self.on_query(self.current, self.block)
                self.done.add(self.current)
            if not self.done:
                self.problems.fail(None, "empty_run")
            return None
        if not any(self.run.values()):
            self.problems.fail(None, "empty_run")
        if self.on_query is None:
            return self.run
        for qid, scores in self.run.items():
            self.on_query(qid, scores)
        return None


class _JSONObject(dict):
    """A JSON object that remembers the keys it saw more than once (``json.loads`` keeps the last)."""

    repeated = ()


def _object_noting_repeats(pairs):
    obj = _JSONObject(pairs)
    if len(obj) < len(pairs):
        seen = set()
        obj.repeated = [key for key, _ in pairs if key in seen or seen.add(key)]
    return obj


def parse_qrels(lines, name: str = "qrels") -> dict[str, dict[str, int]]:
    """Read whole qrels (TREC, BEIR TSV or JSON; ``lines`` an iterable of lines or a ``str``) into ``{qid: {docid: rel}}``.

    >>> parse_qrels("q1 0 d1 1\\nq1 0 d1 2\\n", name="q.txt")
    Traceback (most recent call last):
      ...
    raglab_core.runs.trec.TrecFormatError: «q.txt», línea 2: el documento «d1» aparece más de una vez en la consulta «q1»
    """
    reader = QrelsReader(name)
    reader.read(lines)
    return reader.close()


def parse_run(lines, name: str = "run") -> dict[str, dict[str, float]]:
    """Read a whole run (TREC or JSON; any line order) into ``{qid: {docid: score}}``.

    >>> parse_run(["q1 Q0 d1 1 nan tag", "q1 Q0 d2 2 0.1", "q1 Q0 d3 3 ١ tag"], name="r.txt")
    Traceback (most recent call last):
      ...
    raglab_core.runs.trec.TrecFormatError: «r.txt» tiene 3 problemas:
      línea 1: la puntuación «nan» no es un número finito
      línea 2: se esperaban al menos 6 columnas (qid Q0 docid rank score tag) y hay 5
      línea 3: la puntuación «١» no es un número en cifras ASCII
    """
    reader = RunReader(name)
    reader.read(lines)
    return reader.close()
