"""An evaluation's inputs, read as streams: the qrels, then one run or more (on the page, up to MAX_RUNS).

The one driver of "read the file; if it is a run whose lines are not grouped
by query, read it again, held whole", for the command line
(:mod:`raglab_core.runs.eval_command`), the page's panel for whole texts
(:func:`raglab_core.runs.session.evaluate_files`) and the page's worker, which
streams files chunk by chunk (:class:`raglab_core.browser.EvaluationBridge`):

* :class:`Reading` says which file to read now (:meth:`~Reading.next`), takes
  its text a chunk at a time (:meth:`~Reading.feed`), and ends it
  (:meth:`~Reading.end`). A run is read as a stream, one query in memory at a
  time (:class:`raglab_core.runs.trec.RunReader` into
  :class:`raglab_core.runs.evaluation.RunEvaluator`); when one of its queries comes
  back after others, ``feed`` says stop and ``next`` asks for the same file
  again, to be read whole (trec_eval accepts such runs).
* :func:`read_all` runs that loop over any source of text chunks.

>>> reading = Reading("q.txt", ["r.txt"], parse_measures("P@2"))
>>> texts = {"qrels": ["q1 0 a 1\\nq2 0 b 1\\n"], "A": ["q1 Q0 a 1 1 t\\nq2 Q0 b 1 1 t\\nq1 Q0 c 2 0.5 t\\n"]}
>>> asked = []
>>> read_all(reading, lambda slot: asked.append(slot) or texts[slot]).evaluations["A"].mean
(0.5,)
>>> asked
['qrels', 'A', 'A']
"""

import os
from dataclasses import replace

from .decoding import NotUTF8, undecodable
from ..errors import LabError
from .evaluation import KEPT, RunEvaluator
from .measures import parse_measures  # noqa: F401 (the doctest)
from .trec import QrelsReader, RunNotGrouped, RunReader

SLOTS = tuple("ABCDEFGHIJKL")
"""The page's runs' slots, in input order: run A (the baseline of every comparison with it), B, … up to L."""
MAX_RUNS = len(SLOTS)
"""At most this many runs are evaluated together on the page (ranx's tables letter them a to l); the command
line takes any number (:func:`slots`)."""


def slots(count: int) -> list[str]:
    """The slots of ``count`` runs: :data:`SLOTS` first, then on as a spreadsheet names its columns (… Z, AA,
    AB, …), so that a TREC track's 30 to 100 runs each have one.

    >>> slots(3), slots(28)[-3:]
    (['A', 'B', 'C'], ['Z', 'AA', 'AB'])
    """
    names = []
    for index in range(count):
        name, index = "", index + 1
        while index:
            index, rest = divmod(index - 1, 26)
            name = chr(ord("A") + rest) + name
        names.append(name)
    return names


def run_names(names) -> list[str]:
    """Each run's name, as the command line's report and the page both show it: its file name (a path's
    last part), made distinct with its slot («A: », «B: », …) only where two runs have the same one. A
    missing name is «run A», «run B», ….

    >>> run_names(["x/bm25.txt", "dense.txt"]), run_names(["x/run.txt", "y/run.txt"])
    (['bm25.txt', 'dense.txt'], ['A: run.txt', 'B: run.txt'])
    >>> run_names(["", None]), run_names(["a/r.txt", "b.txt", "c/r.txt"])
    (['run A', 'run B'], ['A: r.txt', 'b.txt', 'C: r.txt'])
    """
    names = list(names)
    lettered = slots(len(names))
    names = [
        os.path.basename(name) if isinstance(name, str) and name.strip() else f"run {slot}"
        for name, slot in zip(names, lettered)
    ]
    repeated = {name for name in names if names.count(name) > 1}
    return [f"{slot}: {name}" if name in repeated else name for slot, name in zip(lettered, names)]


class Reading:
    """The qrels, then each run, read and evaluated as their text arrives.

    ``qrels_name`` and ``names`` (1 run or more; the page's at most :data:`MAX_RUNS`) name the files in their
    messages: the command line gives their paths, the page their names. A bad file raises
    :class:`~raglab_core.runs.trec.TrecFormatError` (a :class:`LabError`) from
    :meth:`feed` or :meth:`end`; with ``keep_going`` it is kept in
    :attr:`errors` instead and the next file is read, so that every bad file
    is reported at once (the runs of bad qrels are still read, for their own
    problems). ``keep``: see :class:`~raglab_core.runs.evaluation.RunEvaluator`. Results: :attr:`qrels` and
    :attr:`evaluations` (slot ->
    :class:`~raglab_core.runs.evaluation.RunEvaluation`).

    ``also``: a second qrels, already read (``agree``'s judge's): each run is evaluated with it too, from the
    same reading of the run, into :attr:`also_evaluations` (slot -> its evaluation, with the same comments);
    :attr:`also_keep`, the first documents those evaluations keep (none unless set: the page's switch that
    shows the runs under the judge's qrels sets it to ``keep``'s). Either may be set before the runs are read.
    """

    def __init__(self, qrels_name, names, measures, ties="double", complete=False, keep_going=False, keep=0,
                 also=None):
        self.files = [("qrels", qrels_name), *zip(slots(len(names)), names)]
        self.measures, self.ties, self.complete, self.keep_going = measures, ties, complete, keep_going
        # each query's first documents the evaluator keeps: the page's query detail, and with two runs or
        # more the rankings the report's overlap compares (RBO over the top 100)
        self.keep = max(keep, KEPT) if len(names) >= 2 else keep
        self.index = 0  # the file being read
        self.grouped = True  # False on a run's second reading
        self.reader = self.evaluator = self.also_evaluator = None
        self.again = False
        self.qrels = None
        self.evaluations = {}
        self.also, self.also_evaluations, self.also_keep = also, {}, 0
        self.comments = {}  # file name -> the lines it skipped as comments (QrelsReader.comments)
        self.errors = []

    @property
    def slot(self) -> str:
        """The file being read: ``"qrels"``, or a run's slot, ``"A"``, ``"B"``, …"""
        return self.files[self.index][0]

    @property
    def name(self) -> str:
        return self.files[self.index][1]

    def next(self) -> str | None:
        """The slot of the file to read now, from its start, or ``None`` once every file is read."""
        if self.reader is None:
            if self.index == len(self.files):
                return None
            if self.slot == "qrels":
                self.reader = QrelsReader(self.name)
            else:
                self.evaluator = RunEvaluator(self.qrels or {}, self.measures, self.ties, self.complete, self.keep)
                add = self.evaluator.add
                if self.also is not None:
                    self.also_evaluator = RunEvaluator(self.also, self.measures, self.ties, self.complete,
                                                       self.also_keep)
                    add = _both(add, self.also_evaluator.add)
                self.reader = RunReader(self.name, add, self.grouped)
            self.again = False
        return self.slot

    def feed(self, text: str) -> bool:
        """The next chunk of the file's text (lines may straddle chunks). ``True``: stop reading it (it must
        be read again from its start, or it failed with ``keep_going``); then call :meth:`end`."""
        if self.again or self.reader is None:
            return True
        try:
            self.reader.feed(text)
        except RunNotGrouped:
            self.again = True
        except LabError as error:
            self._failed(error)
        return self.again or self.reader is None

    def end(self) -> None:
        """End the file: keep its result, or make :meth:`next` ask for it again (read whole)."""
        if self.reader is not None and not self.again:
            try:
                result = self.reader.close()
            except RunNotGrouped:
                self.again = True
            except LabError as error:
                self._failed(error)
        if self.reader is None:  # failed (kept in errors)
            return
        reader, self.reader = self.reader, None
        if self.again:
            self.grouped = False
            return
        if reader.comments:
            self.comments[self.name] = reader.comments
        if self.slot == "qrels":
            self.qrels = result
        else:
            comments = tuple((role, name, *self.comments[name])
                             for role, name in (("qrels", self.files[0][1]), ("run", self.name)) if name in self.comments)
            self.evaluations[self.slot] = replace(self.evaluator.result(), comments=comments)
            if self.also_evaluator is not None:
                self.also_evaluations[self.slot] = replace(self.also_evaluator.result(), comments=comments)
        self.evaluator = self.also_evaluator = None
        self.index += 1
        self.grouped = True

    def unreadable(self, reason: str) -> None:
        """The file is not UTF-8 text: a failure like a bad file's."""
        field = "qrels" if self.slot == "qrels" else "run"
        self._failed(LabError("not_utf8", field=field, name=self.name, reason=reason))

    def undecodable(self, head: bytes, offset: int, byte: int | None = None) -> None:
        """The file is not UTF-8 at byte ``offset``: a failure that says its likely encoding
        (:func:`raglab_core.runs.decoding.undecodable`)."""
        self._failed(undecodable(self.name, "qrels" if self.slot == "qrels" else "run", head, offset, byte))

    def _failed(self, error: LabError) -> None:
        self.reader = self.evaluator = self.also_evaluator = None
        self.index += 1
        self.grouped = True
        if not self.keep_going:
            raise error
        self.errors.append(error)


def _both(first, second):
    """One reader's callback that hands each query to two evaluators."""

    def add(qid, scores):
        first(qid, scores)
        second(qid, scores)

    return add


def read_all(reading: Reading, chunks) -> Reading:
    """Read every file ``reading`` asks for: ``chunks(slot)`` gives the file's text, an iterable of chunks
    (anew at each call). A ``UnicodeDecodeError`` while reading is :meth:`Reading.unreadable`."""
    while (slot := reading.next()) is not None:
        try:
            for text in chunks(slot):
                if reading.feed(text):
                    break
        except NotUTF8 as error:  # raglab_core.runs.decoding.read_text_chunks: where, and what it looks like
            reading.undecodable(error.head, error.offset, error.byte)
            continue
        except UnicodeDecodeError as error:
            reading.unreadable(error.reason)
            continue
        reading.end()
    return reading
