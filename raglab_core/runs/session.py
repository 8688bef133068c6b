"""The «Tus datos» panel's session: your own qrels and runs, read in the page's worker and evaluated as they stream.

The page's worker reads each file as a stream and hands its text to an
:class:`EvaluationSession` a chunk at a time (nothing leaves the browser, and
no file is held whole unless a run's lines are not grouped by query, when
:mod:`raglab_core.runs.inputs` reads it again and holds it; the protocol is :class:`raglab_core.runs.stream.StreamSession`'s):
the qrels are read, then each run is evaluated query by query as it streams
(:class:`raglab_core.runs.trec.RunReader` into
:class:`raglab_core.runs.evaluation.RunEvaluator`), exactly as
``python -m raglab_core eval`` does. :meth:`EvaluationSession.finish` builds
the report (:func:`raglab_core.runs.report.build_report`, the same numbers as the
command line) and :func:`raglab_core.runs.panel.panel_view` turns it into what the
panel shows; once finished, the session answers a pair in detail, a query in detail
and the downloads. :func:`evaluate_files` does all of it for whole texts.
"""

from ..errors import LabError
from ..words import (TABLES_PROGRESS, comparing_progress, comparison_progress, fused_progress, fusion_progress,
                     intervals_progress, reading_progress)
from .evaluation import tie_mode
from .fused import FusedRun, file_name, fusion_settings
from .inputs import MAX_RUNS, SLOTS, Reading, read_all, run_names
from .lettered import pair_index
from .measures import DEFAULT_MEASURES, parse_measures
from .panel import DETAIL_DEPTH, pair_view, panel_view, per_query_csv, query_detail
from .report import build_report, report_json, require_common_queries
from .statistics import PERMUTATIONS, RESAMPLES
from .stream import StreamSession


READ_BYTES_PER_TEST = 150_000
"""Bytes of input read and evaluated in about the time one measure of one pair of runs takes to test
(:data:`~raglab_core.runs.statistics.PERMUTATIONS` permutations over some 40 queries; measured in CPython, and
Pyodide is slower at both alike): how :func:`read_share` weighs reading against comparing."""


def read_share(runs: int, measures: int = 6, size: int | None = None) -> float:
    """The progress bar's share for reading the files; the rest: comparing the pairs (``measures`` tests
    each) and building the tables. Each phase weighs what it costs, so that the bar agrees with the step the
    status line names: at «par 8 de 66» it is about 8/66 of the way, not halfway because reading had half.

    ``size``: the files' bytes (or characters); without it (text pasted, no sizes), reading counts as
    little. One run: no pairs, reading is nearly all. The share stays between 5 % and 95 %, so that
    each phase moves the bar.

    >>> [read_share(n, 6, 200_000) for n in (1, 2, 3, 12)]
    [0.99, 0.182, 0.069, 0.05]
    >>> read_share(2, 6, 9_000_000), read_share(12, 1, 1_200_000), read_share(2)
    (0.909, 0.108, 0.05)
    """
    pairs = runs * (runs - 1) // 2
    if not pairs:
        return 0.99
    reading = (size or 0) / READ_BYTES_PER_TEST
    return round(min(0.95, max(0.05, reading / (reading + pairs * max(measures, 1)))), 3)


class EvaluationSession(StreamSession):
    """One evaluation in the worker: settings first, then each file's text in chunks, then the panel.

    ``settings``: ``{"measures": "nDCG@10 …", "ties": "double", "complete": false, "qrels": name,
    "runs": [name A, name B, …] (1 to 12), "sizes": [bytes or characters of each file]?, "files": [is it a
    file, not pasted text]?, "fusion": {…}?}``; bad measures raise ``LabError`` (field ``"measures"``).
    ``fusion`` (:func:`raglab_core.runs.fused.fusion_settings`) adds the fused run as one more run, last.
    The files are read as :class:`raglab_core.runs.inputs.Reading` asks: :meth:`next` names the file to
    read from its start (``"qrels"``, ``"A"``, ``"B"``, …, a run again when its queries are not grouped,
    or when the fused run's turn comes and the runs it fuses are read again, whole; ``None`` when all are
    read), :meth:`feed` takes its text a chunk at a time (``True``: stop), :meth:`end` ends it. A bad file
    raises :class:`~raglab_core.runs.trec.TrecFormatError`. ``progress(fraction, text)``, when given, hears
    how far the reading (with ``sizes``) and the comparisons are, in words.

    >>> session = EvaluationSession({"measures": "P@1 RR", "qrels": "q.txt", "runs": ["r.txt"]})
    >>> session.next(), session.feed("q1 0 a 1\\nq1 0 b 0\\n"), session.end()
    ('qrels', False, None)
    >>> session.next(), session.feed("q1 Q0 b 1 2.0 x\\nq1 Q0 a 2 1.0"), session.feed(" x\\n"), session.end()
    ('A', False, False, None)
    >>> session.next() is None, session.finish()["means"][0]["cells"][1]["text"]
    (True, '0,500')
    """

    MIN_RUNS = 1
    """Fewer runs are refused (:class:`raglab_core.judges.agreement_session.AgreementSession` takes none)."""

    def __init__(self, settings, progress=None):
        super().__init__(progress)
        if not isinstance(settings, dict):
            raise LabError.page("La petición debe ser un objeto JSON.")
        measures = parse_measures(settings.get("measures") or DEFAULT_MEASURES)
        ties = tie_mode(settings.get("ties") or "double")
        runs = settings.get("runs")
        if not isinstance(runs, list) or not self.MIN_RUNS <= len(runs) <= MAX_RUNS:
            raise LabError.page(f"Elige entre 1 y {MAX_RUNS} runs.", field="run")
        names = list(runs)
        self.fusion = None  # raglab_core.runs.fused.FusionSettings: the fused run, the last one
        if settings.get("fusion") is not None:
            if len(runs) >= MAX_RUNS:
                raise LabError("fusion_no_room", field="fuse-runs", max=MAX_RUNS)
            self.fusion = fusion_settings(settings["fusion"], len(runs))
            names.append(self.fusion.name)
        self.names = run_names(names)
        self.fused_slot = SLOTS[len(runs)] if self.fusion else None
        self.fusing = self.fused = None  # the FusedRun being built, then built
        self.qrels_name = settings.get("qrels") if isinstance(settings.get("qrels"), str) else "qrels"
        self.measures = measures
        self.complete = settings.get("complete") is True
        self.reading = Reading(self.qrels_name, self.names, measures, ties, self.complete, keep=DETAIL_DEPTH)
        self.report = self.runs = None  # once finished: what the downloads and the query detail read
        count = 1 + len(runs)
        sizes, files = settings.get("sizes"), settings.get("files")
        self.sizes = [max(int(size), 1) for size in sizes[:count]] if isinstance(sizes, list) else None
        self.files = files if isinstance(files, list) else [False] * count
        if self.sizes and self.fusion:  # the fused run's share: reading its runs again
            self.sizes.append(sum(self.sizes[1 + index] for index in self.fusion.sources))
        self.share = read_share(len(self.names), len(measures), sum(self.sizes) if self.sizes else None)
        self.reached = self.reported = 0.0
        self.span = (0.0, 0.0)
        self.source_done = 0  # bytes of the fused runs read again before the one being read

    @property
    def qrels(self):
        """The qrels read (``None`` until they are)."""
        return self.reading.qrels

    @property
    def slot(self) -> str | None:
        """The file being read (``"qrels"``, ``"A"``, …; a fused run's own run while it is read again), or ``None``."""
        if self.fusing is not None and self.fusing.reader is not None:
            return self.fusing.slots[len(self.fusing.runs)]
        reading = self.reading
        return reading.slot if reading.index < len(reading.files) else None

    def next(self) -> str | None:
        """The slot of the file to read now, from its start, or ``None`` once every file is read."""
        if self.fusing is not None:
            if self.fusing.reader is not None:  # the run just read again was not ended
                return self.fusing.slots[len(self.fusing.runs)]
            slot = self.fusing.next()
            if slot is not None:
                self.reported = -1.0
                return slot
            self._evaluate_fused()
        slot = self.reading.next()
        if slot is not None and self.sizes:
            index, total = self.reading.index, sum(self.sizes)
            before = sum(self.sizes[:index])
            self.span = (max(self.reached, self.share * before / total), self.share * (before + self.sizes[index]) / total)
            self.reported = -1.0
        if slot is not None and slot == self.fused_slot and self.fused is None:
            self.fusing = FusedRun(self.fusion, SLOTS, self.names)
            return self.next()
        return slot

    def _evaluate_fused(self):
        """The runs read again are fused: the fused run is evaluated from its TREC text, as ``eval`` reads the
        downloaded file."""
        self.fused, self.fusing = self.fusing, None
        self.progress(self.reached, fused_progress(self.fusion.name))
        while self.reading.next() == self.fused_slot:
            for text in self.fused.chunks():
                if self.reading.feed(text):
                    break
            self.reading.end()

    def feed(self, text: str, done: int | None = None) -> bool:
        """The next chunk of the file's text, ``done`` bytes (or characters) of it read so far; ``True``: stop
        reading this file (call :meth:`end`, then :meth:`next`)."""
        if self.fusing is not None:
            self.fusing.feed(text)
            if done is not None and self.sizes and self.heard:
                self._fusion_progress(done)
            return False
        stop = self.reading.feed(text)
        if done is not None and self.sizes and self.heard:
            self._reading_progress(done, stop)
        return stop

    def _reading_progress(self, done, stop):
        """The bar never moves back: a second reading fills what is left of the file's share."""
        index = self.reading.index
        size = self.sizes[index]
        start, end = self.span
        self.reached = start + (end - start) * min(done, size) / size
        if self.reached - self.reported >= 0.005 or stop:
            self.reported = self.reached
            on_disk = index < len(self.files) and self.files[index]  # pasted text: no megabytes
            text = reading_progress(self.reading.slot, not self.reading.grouped, *((done, size) if on_disk else ()))
            self.progress(self.reached, text)

    def _fusion_progress(self, done):
        """A fused run read again: its part of the fused run's share (the sizes of the runs it fuses)."""
        position = self.fusion.sources[len(self.fusing.runs)]
        size, total = self.sizes[1 + position], self.sizes[self.reading.index]
        start, end = self.span
        self.reached = start + (end - start) * min(self.source_done + min(done, size), total) / total
        if self.reached - self.reported >= 0.005:
            self.reported = self.reached
            on_disk = 1 + position < len(self.files) and self.files[1 + position]
            self.progress(self.reached, fusion_progress(SLOTS[position], *((done, size) if on_disk else ())))

    def end(self) -> None:
        """End the file being read."""
        if self.fusing is not None:
            if self.sizes:
                self.source_done += self.sizes[1 + self.fusion.sources[len(self.fusing.runs)]]
            self.fusing.end()
            return
        self.reading.end()

    def unreadable(self, reason: str) -> None:
        """The file being read is not UTF-8 text (raises its ``LabError``)."""
        if self.fusing is not None:
            name = self.fusing.names[len(self.fusing.runs)]
            raise LabError("not_utf8", field="run", name=name, reason=reason)
        self.reading.unreadable(reason)

    def undecodable(self, head: bytes, offset: int, byte: int | None = None) -> None:
        """The file being read is not UTF-8 at byte ``offset`` (raises its ``LabError``,
        :meth:`raglab_core.runs.inputs.Reading.undecodable`)."""
        self.reading.undecodable(head, offset, byte)

    def finish(self) -> dict:
        """The panel (:func:`panel_view`) once every file is read."""
        evaluations = self.reading.evaluations
        if len(evaluations) < len(self.names):
            raise LabError.page("Lee primero los qrels y después los runs, en orden.")
        runs = [(name, evaluations[slot]) for name, slot in zip(self.names, SLOTS)]
        require_common_queries(runs, self.qrels_name)
        count = len(self.measures)
        progress = self.progress
        share = max(self.share, self.reached)
        progress(share, comparing_progress(len(runs)))

        def compared(index, name, pair=(0, 1), pairs=1):
            position = pair_index(len(runs), *pair)
            if name is None:
                text = intervals_progress(RESAMPLES)
                position, index = pairs - 1, count
            else:
                text = comparison_progress(name, index, count, PERMUTATIONS, pair=tuple(SLOTS[i] for i in pair),
                                           position=position, pairs=pairs)
            progress(share + (1 - share) * (position * count + index) / (pairs * count + 1), text)

        report, comparisons = build_report(runs, progress=compared)
        self.report, self.runs = report, runs
        progress(1.0, TABLES_PROGRESS)
        return panel_view(report, runs, comparisons, self.fusion)

    def pair(self, baseline: int, candidate: int) -> dict:
        """Once finished: runs ``candidate`` and ``baseline`` (positions) compared in detail (:func:`pair_view`)."""
        return pair_view(self.report, baseline, candidate)

    def query_detail(self, qid: str) -> dict:
        """The first :data:`DETAIL_DEPTH` documents of each run for query ``qid`` (:func:`query_detail`)."""
        return query_detail(qid, self.qrels, self.runs)

    def report_json(self) -> str:
        """What ``python -m raglab_core eval --json`` prints for these files and settings."""
        return report_json(self.report)

    def per_query_csv(self) -> str:
        """The per-query table as CSV (:func:`per_query_csv`)."""
        return per_query_csv(self.report)

    def fused_text(self) -> str:
        """Once finished: the fused run as ``python -m raglab_core fuse`` prints it (empty without one)."""
        return self.fused.text() if self.fused else ""

    def download(self, kind: str) -> dict:
        """Once finished: ``{"name", "type", "text"}``, the report as ``eval --json`` prints it (``kind``
        ``"json"``), the per-query table (``"csv"``) or the fused run as ``fuse`` prints it (``"fused"``, saved as
        a safe file name, ``rrf-a-b.txt`` for «RRF(a, b)»: ``eval`` names a run by its file, so the page's JSON
        names it as ``eval`` does a file named as the run)."""
        if kind == "json":
            return {"name": "raglab-evaluacion.json", "type": "application/json", "text": self.report_json()}
        if kind == "fused":
            return {"name": file_name(self.names[-1]), "type": "text/plain", "text": self.fused_text()}
        return {"name": "raglab-por-consulta.csv", "type": "text/csv", "text": self.per_query_csv()}


def evaluate_files(qrels, runs, measures=None, ties="double", progress=None, complete=False, fusion=None) -> dict:
    """Evaluate whole texts: ``qrels`` and each of the 1 to 12 ``runs`` are ``{"name", "text"}``; ``fusion``
    (:func:`raglab_core.runs.fused.fusion_settings`' request) adds the fused run.

    Raises ``LabError`` (a :class:`~raglab_core.runs.trec.TrecFormatError` for a
    bad file, naming it and its lines); returns :func:`panel_view`'s dict.

    >>> view = evaluate_files({"name": "q.txt", "text": "q1 0 a 2\\nq1 0 b 1"},
    ...                       [{"name": "r.txt", "text": "q1 Q0 b 1 0.9 x\\nq1 Q0 a 2 0.5 x"}], "P(rel=2)@2")
    >>> view["means"][0]["cells"][0]["text"], view["summary"]
    ('0,500', '1 consulta evaluada con P(rel=2)@2 (empates en doble precisión, como trec_eval 10 y ranx).')
    """
    if not isinstance(runs, list):
        raise LabError.page(f"Elige entre 1 y {MAX_RUNS} runs.", field="run")
    session = EvaluationSession(
        {"measures": measures, "ties": ties, "qrels": _name(qrels, "qrels"), "runs": [_name(run, None) for run in runs],
         "complete": complete, "fusion": fusion},
        progress,
    )
    items = {"qrels": qrels, **dict(zip(SLOTS, runs))}
    read_all(session, lambda slot: [_text(items[slot], "qrels" if slot == "qrels" else "run")])
    return session.finish()


def _text(item, field):
    if not isinstance(item, dict) or not isinstance(item.get("text"), str):
        raise LabError.page("Falta el contenido del fichero.", field=field)
    return item["text"] if item["text"].endswith("\n") else item["text"] + "\n"


def _name(item, default):
    name = item.get("name") if isinstance(item, dict) else None
    return name if isinstance(name, str) and name.strip() else default


