"""«¿Te fías de tus juicios?» in the page's worker: «Tus datos»'s session with a second qrels, the judge's.

:class:`AgreementSession` is :class:`raglab_core.runs.session.EvaluationSession` (the same files read as
streams, the same evaluation, the same downloads) with one more file, the judge's qrels (slot ``"judge"``), read
right after the reference's. Each run is read once and evaluated under both qrels as its text arrives
(:class:`PairedReading`, :class:`raglab_core.runs.inputs.Reading`'s ``also``), so that the agreement's system part (:func:`raglab_core.judges.agreement.agreement_report`,
``agree --json``) costs no second reading; the reference's comparisons (Holm over every pair) are the evaluation's
own, not tested twice. With no run, only the label level. ``settings``: the evaluation's, plus ``"judge"`` (the
file's name), ``"judge_for_runs"`` (the runs' panel evaluated with the judge's qrels instead of the reference's;
the agreement is the same either way) and ``"judge_sample"`` (the judge's qrels are the page's synthetic sample).

>>> session = AgreementSession({"qrels": "people.txt", "judge": "llm.txt", "runs": []})
>>> read = {"qrels": "q1 0 a 1\\nq1 0 b 0\\n", "judge": "q1 0 a 1\\nq1 0 b 1\\n"}
>>> [(slot, session.feed(read[slot]), session.end()) for slot in iter(session.next, None)]
[('qrels', False, None), ('judge', False, None)]
>>> panel = session.finish()
>>> panel["agreement"]["figures"][1]["text"], session.agreement["labels"]["exact"]
('50,0\\xa0%', 0.5)
"""

from ..errors import LabError
from ..runs.inputs import SLOTS, Reading
from ..runs.report import require_common_queries
from ..runs.session import EvaluationSession
from . import words
from .agreement import agreement_json, agreement_report
from .panel import agreement_view


class PairedReading:
    """The reference's :class:`~raglab_core.runs.inputs.Reading`, with the judge's qrels read in between, as the
    session sees one reading: the reference's qrels, then the judge's (``"judge"``, read by a Reading of its own),
    then each run, read once and evaluated under both (the reference's Reading's ``also``). ``index``, ``files``
    and ``grouped`` are the reference's (the progress counts its files); ``qrels`` and ``evaluations`` are the
    ``main`` side's, the one the runs' panel shows."""

    def __init__(self, reference: Reading, judge: Reading, main: str = "reference"):
        self.reference, self.judge = reference, judge
        self.for_judge = main == "judge"
        self.on_judge = False
        if self.for_judge:  # the runs' panel under the judge's qrels: its query detail and overlaps need the tops
            reference.also_keep = reference.keep

    files = property(lambda self: self.reference.files)
    index = property(lambda self: self.reference.index)
    grouped = property(lambda self: self.reference.grouped)
    comments = property(lambda self: self.reference.comments)
    qrels = property(lambda self: self.judge.qrels if self.for_judge else self.reference.qrels)
    evaluations = property(lambda self: self.judge_evaluations if self.for_judge else self.reference.evaluations)
    judge_evaluations = property(lambda self: self.reference.also_evaluations)

    @property
    def slot(self) -> str:
        return "judge" if self.on_judge else self.reference.slot

    @property
    def name(self) -> str:
        return self.judge.files[0][1] if self.on_judge else self.reference.name

    def next(self) -> str | None:
        if self.on_judge:
            return "judge"
        if self.reference.index >= 1 and self.judge.index == 0:
            self.on_judge = True
            self.judge.next()
            return "judge"
        return self.reference.next()

    def feed(self, text: str) -> bool:
        return (self.judge if self.on_judge else self.reference).feed(text)

    def end(self) -> None:
        if not self.on_judge:
            self.reference.end()
            return
        self.judge.end()
        self.on_judge = False
        self.reference.also = self.judge.qrels  # every run from here on: evaluated under both

    def unreadable(self, reason: str) -> None:
        (self.judge if self.on_judge else self.reference).unreadable(reason)

    def undecodable(self, head: bytes, offset: int, byte: int | None = None) -> None:
        (self.judge if self.on_judge else self.reference).undecodable(head, offset, byte)


class AgreementSession(EvaluationSession):
    """«Tus datos» with the judge's qrels: the evaluation (when there are runs) and the agreement (see the module)."""

    MIN_RUNS = 0

    def __init__(self, settings, progress=None):
        super().__init__(settings, progress)
        judge = settings.get("judge")
        self.judge_name = judge if isinstance(judge, str) and judge.strip() else words.JUDGE_NAME
        self.reference_name = self.qrels_name
        self.for_runs = settings.get("judge_for_runs") is True
        self.sample = settings.get("judge_sample") is True  # the page's synthetic judge: the reading says so
        reference = self.reading
        judging = Reading(self.judge_name, [], self.measures)  # the judge's qrels alone
        self.reading = PairedReading(reference, judging, "judge" if self.for_runs else "reference")
        if self.for_runs:
            self.qrels_name = self.judge_name
        self.agreement = None  # once finished: what ``agree --json`` prints

    @property
    def slot(self) -> str | None:
        if self.fusing is None and self.reading.on_judge:
            return "judge"
        return super().slot

    def _judging(self) -> bool:
        """The judge's qrels are being read, or are next."""
        paired = self.reading
        return self.fusing is None and (paired.on_judge or (paired.reference.index >= 1 and paired.judge.index == 0))

    def next(self) -> str | None:
        if self._judging():  # no share of the progress of its own: the reference's files keep theirs
            return self.reading.next()
        return super().next()

    def feed(self, text: str, done: int | None = None) -> bool:
        if self.fusing is None and self.reading.on_judge:  # a qrels: read in a moment, no progress of its own
            return self.reading.feed(text)
        return super().feed(text, done)

    def finish(self) -> dict:
        """The evaluation's panel (none without runs) with the agreement's view under ``"agreement"``."""
        reference, judging = self.reading.reference, self.reading.judge
        if judging.qrels is None:
            raise LabError.page(words.QRELS_FIRST)
        panel = super().finish() if self.names else {"rows": []}
        theirs = self.reading.judge_evaluations
        runs = [(name, reference.evaluations[slot], theirs[slot]) for name, slot in zip(self.names, SLOTS)]
        for index, name in ((1, self.reference_name), (2, self.judge_name)):
            require_common_queries([(run[0], run[index]) for run in runs], name)
        self.agreement = agreement_report(self.reference_name, reference.qrels, self.judge_name, judging.qrels, runs,
                                          report=None if self.for_runs else self.report)
        panel["agreement"] = agreement_view(self.agreement, self.for_runs, self.sample)
        return panel

    def agreement_json(self) -> str:
        """What ``python -m raglab_core agree REFERENCE JUDGE [RUN …] --json`` prints for these files."""
        return agreement_json(self.agreement)

    def download(self, kind: str) -> dict:
        """Once finished: the agreement as ``agree --json`` prints it (``kind`` ``"agreement"``), or the
        evaluation's downloads (:meth:`EvaluationSession.download`)."""
        if kind == "agreement":
            return {"name": "raglab-acuerdo.json", "type": "application/json", "text": self.agreement_json()}
        return super().download(kind)
