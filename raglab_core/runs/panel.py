"""The «Tus datos» panel: your own qrels and runs, evaluated as they are read and explained in Spanish.

The page's worker reads each file as a stream and hands its text to an
:class:`EvaluationSession` a chunk at a time (nothing leaves the browser, and
no file is ever held whole): the qrels are read, then each run is evaluated
query by query as it streams (:class:`raglab_core.runs.trec.RunReader` into
:class:`raglab_core.runs.evaluation.RunEvaluator`), exactly as
``python -m raglab_core eval`` does. :meth:`EvaluationSession.finish` builds
the report (:func:`raglab_core.runs.report.build_report`, the same numbers as the
command line) and :func:`panel_view` turns it into what the panel shows: a
summary, the means, a sortable per-query table, the comparison with its
reading, and the per-query deltas to chart. Every number arrives both raw
(for sorting and for tests) and as Spanish text. :func:`evaluate_files` does
all of it for whole texts.
"""

import csv
import io

from ..errors import LabError
from ..formatting import DASH, NBSP, count, decimal, integer, spanish_list
from ..words import UNJUDGED_LABEL, data_panel_words, fusion_progress, reading_progress
from .cells import cell as _cell, interval as _interval
from .evaluation import tie_mode
from .fused import LETTERS, FusedRun, fused_description, fusion_settings, page_options
from .inputs import MAX_RUNS, SLOTS, Reading, read_all, run_names
from .lettered import adjusted_text, lettered_view, oriented_pair, pair_index, warned_names
from .measures import DEFAULT_MEASURES, parse_measures
from .report import ALPHA, build_report, report_json, require_common_queries, warned_runs
from .sanity import Notice
from .statistics import EXACT_LIMIT, PERMUTATIONS, RESAMPLES, p_value_text

ROWS_SHOWN = 200
"""Per-query rows the page draws at once (the worker sorts every query and sends the first ones)."""
DETAIL_DEPTH = 10
"""The query detail shows each run's first this many documents."""
MAX_BARS = 600
"""Above this many queries the chart is one path through ``values``: per-query bars would be thinner than a pixel."""
TIES_TEXT = {
    "double": "empates en doble precisión, como trec_eval 10 y ranx",
    "float32": "empates en precisión simple, como trec_eval 9 y pytrec_eval",
}


def read_share(runs: int) -> float:
    """The progress bar's share for reading the files, by number of runs; the rest: comparing the pairs and
    building the tables (one pair for two runs, 66 for twelve).

    >>> [read_share(n) for n in (1, 2, 3, 12)]
    [0.99, 0.9, 0.85, 0.5]
    """
    return 0.99 if runs == 1 else max(0.5, round(0.9 - 0.05 * (runs - 2), 2))


class EvaluationSession:
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

    def __init__(self, settings, progress=None):
        if not isinstance(settings, dict):
            raise LabError.page("La petición debe ser un objeto JSON.")
        measures = parse_measures(settings.get("measures") or DEFAULT_MEASURES)
        ties = tie_mode(settings.get("ties") or "double")
        runs = settings.get("runs")
        if not isinstance(runs, list) or not 1 <= len(runs) <= MAX_RUNS:
            raise LabError.page(f"Elige entre 1 y {MAX_RUNS} runs.", field="run")
        names = list(runs)
        self.fusion = None  # raglab_core.runs.fused.FusionSettings: the fused run, the last one
        if settings.get("fusion") is not None:
            if len(runs) >= MAX_RUNS:
                raise LabError.page(f"Con {MAX_RUNS} runs no cabe uno fusionado: quita uno para fusionar.",
                                    field="fuse-runs")
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
        self.progress = progress
        count = 1 + len(runs)
        sizes, files = settings.get("sizes"), settings.get("files")
        self.sizes = [max(int(size), 1) for size in sizes[:count]] if isinstance(sizes, list) else None
        self.files = files if isinstance(files, list) else [False] * count
        if self.sizes and self.fusion:  # the fused run's share: reading its runs again
            self.sizes.append(sum(self.sizes[1 + index] for index in self.fusion.sources))
        self.share = read_share(len(self.names))
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
        if self.progress:
            self.progress(self.reached, f"Evaluando el run fusionado «{self.fusion.name}»…")
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
            if done is not None and self.sizes and self.progress:
                self._fusion_progress(done)
            return False
        stop = self.reading.feed(text)
        if done is not None and self.sizes and self.progress:
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

    def finish(self) -> dict:
        """The panel (:func:`panel_view`) once every file is read."""
        evaluations = self.reading.evaluations
        if len(evaluations) < len(self.names):
            raise LabError.page("Lee primero los qrels y después los runs, en orden.")
        runs = [(name, evaluations[slot]) for name, slot in zip(self.names, SLOTS)]
        require_common_queries(runs, self.qrels_name)
        count = len(self.measures)
        progress = self.progress or (lambda fraction, text: None)
        share = max(self.share, self.reached)
        pairs = len(runs) * (len(runs) - 1) // 2
        progress(share, "Comparando B con A…" if len(runs) == 2 else
                 "Comparando los runs por pares…" if pairs else "Preparando las tablas…")

        def compared(index, name, pair=(0, 1), pairs=1):
            position = pair_index(len(runs), *pair)
            if name is None:
                text = f"Calculando los intervalos de confianza ({integer(RESAMPLES)} remuestreos)…"
                position, index = pairs - 1, count
            elif pairs == 1:
                text = f"Comparando B con A: {name} ({index + 1} de {count}, {_permutations(PERMUTATIONS)})…"
            else:
                baseline, candidate = (SLOTS[i] for i in pair)
                text = (f"Comparando {candidate} con {baseline} (par {position + 1} de {pairs}): {name} "
                        f"({index + 1} de {count}, {_permutations(PERMUTATIONS)})…")
            progress(share + (1 - share) * (position * count + index) / (pairs * count + 1), text)

        report, comparisons = build_report(runs, progress=compared)
        self.report, self.runs = report, runs
        progress(1.0, "Preparando las tablas…")
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


def _permutations(count: int) -> str:
    return f"{integer(count)} permutaciones"


def per_query_csv(report) -> str:
    """The per-query table as CSV: one row per query, one column per (run, measure), then one Δ per measure.

    Numbers as Python writes them (``0.5``, a point), empty where undefined
    or where the run has no value for the query.

    >>> from raglab_core.runs.evaluation import evaluate_run
    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> runs = [(n, evaluate_run(qrels, r, ["P@1"])) for n, r in (("x", {"q1": {"a": 1.0}, "q2": {"c": 1.0}}), ("y", {"q1": {"c": 1.0}}))]
    >>> print(per_query_csv(build_report(runs)[0]), end="")
    query,x P@1,y P@1,Δ P@1
    q1,1.0,0.0,-1.0
    q2,0.0,,
    """
    runs, labels = report["runs"], report["measures"]
    comparison = report["comparison"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["query"] + [f"{run['name']} {label}" for run in runs for label in labels]
    if comparison:
        header += [f"Δ {label}" for label in labels]
    writer.writerow(header)
    for qid in sorted(set().union(*(run["per_query"] for run in runs))):
        row = [qid]
        for run in runs:
            values = run["per_query"].get(qid)
            row += [_raw(values[label]) if values else "" for label in labels]
        if comparison:
            row += [_raw(comparison["metrics"][label]["per_query"].get(qid)) for label in labels]
        writer.writerow(row)
    return out.getvalue()


def _raw(value):
    return "" if value is None else repr(value)


def query_detail(qid, qrels, runs) -> dict:
    """Query ``qid``'s first :data:`DETAIL_DEPTH` documents in each run, side by side, with their grades.

    ``runs``: ``[(name, RunEvaluation)]`` evaluated with ``keep`` (their
    ``top``). Each document: ``rank``, ``id``, ``grade`` (``None``:
    unjudged) and its text, and ``shared``: whether every other run's first
    documents hold it too (with two runs or more). ``many``: three runs or
    more, lettered, which the page lays side by side in a row that scrolls.

    >>> from raglab_core.runs.evaluation import RunEvaluator
    >>> qrels = {"q1": {"a": 2, "b": 0}}
    >>> runs = []
    >>> for name, scores in (("x", {"a": 2.0, "c": 1.0}), ("y", {"c": 3.0, "b": 1.0})):
    ...     evaluator = RunEvaluator(qrels, parse_measures("P@1"), keep=10)
    ...     evaluator.add("q1", scores)
    ...     runs.append((name, evaluator.result()))
    >>> detail = query_detail("q1", qrels, runs)
    >>> [(d["id"], d["grade_text"], d["shared"]) for d in detail["runs"][1]["documents"]]
    [('c', 'sin juicio', True), ('b', 'grado 0', False)]
    >>> query_detail("q1", qrels, runs * 2)["note"]
    'Marcados con «en todos»: 1 documento que los 4 runs ponen entre sus 10 primeros.'
    """
    judged = qrels.get(qid, {}) if qrels else {}
    tops = [(result.top.get(qid) or [])[:DETAIL_DEPTH] for _, result in runs]
    many = len(runs) > 2
    shared = set.intersection(*(set(top) for top in tops)) if len(tops) >= 2 else set()
    columns = []
    for index, ((name, _), top) in enumerate(zip(runs, tops)):
        documents = []
        for rank, docid in enumerate(top or (), start=1):
            grade = judged.get(docid)
            documents.append({
                "rank": rank,
                "id": docid,
                "grade": grade,
                "grade_text": UNJUDGED_LABEL if grade is None else f"grado {grade}",
                "shared": docid in shared,
            })
        letter = f"{LETTERS[index]} · " if many else ""
        columns.append({
            "name": name,
            "letter": LETTERS[index] if many else "",
            "caption": f"{letter}«{name}»: sus {len(documents)} primeros" if len(documents) != 1
            else f"{letter}«{name}»: su primer documento",
            "empty": "" if documents else "El run no tiene resultados para esta consulta.",
            "documents": documents,
        })
    note = ""
    if len(runs) == 2:
        note = (
            f"Marcados con «en los dos»: {count(len(shared), 'documento', 'documentos')} que los dos runs ponen "
            f"entre sus {DETAIL_DEPTH} primeros."
        )
    elif many:
        note = (
            f"Marcados con «en todos»: {count(len(shared), 'documento', 'documentos')} que los {len(runs)} runs "
            f"ponen entre sus {DETAIL_DEPTH} primeros."
        )
    return {
        "qid": qid,
        "title": f"Consulta «{qid}»: los {DETAIL_DEPTH} primeros documentos de cada run",
        "shared_text": "en todos" if many else "en los dos",
        "note": note,
        "many": many,
        "label": f"Los {DETAIL_DEPTH} primeros documentos de los {len(runs)} runs, uno al lado de otro" if many else "",
        "runs": columns,
    }


def panel_view(report, runs, comparisons, fusion=None) -> dict:
    """What the panel shows, from :func:`~raglab_core.runs.report.build_report`'s results (``runs``: ``[(name,
    RunEvaluation)]``, ``comparisons`` its pairs; ``fusion``: the last run's
    :class:`~raglab_core.runs.fused.FusionSettings`, when it is a fused run).

    Two runs: the comparison of B with A, as it always was. Three or more (:mod:`raglab_core.runs.lettered`):
    ``many`` (the lettered means, every pair, the readings) and the comparison of any two, a and b first.
    """
    labels = report["measures"]
    names = [run["name"] for run in report["runs"]]
    two = len(names) == 2 and bool(comparisons)
    fusion_note = ""
    fused = None
    if fusion:
        description = fused_description(fusion, names)
        fused = {"name": names[-1], "letter": LETTERS[len(names) - 1], "description": description}
        fusion_note = (
            f"{description} Si pruebas varias fusiones y te quedas con la que más puntúa en estos qrels, eliges sobre "
            "las mismas consultas que la evalúan, y su cifra sale optimista."
        )
    many = lettered_view(report, warned_names(report), fusion_note) if len(names) >= 3 else None
    rows = _rows(report, two)
    means = []
    for index, run in enumerate(report["runs"]):
        cells = [_cell(run["mean"][m]) for m in labels]
        if many:
            cells = [{**shown, **marks} for shown, marks in zip(cells, many["means"][index]["cells"])]
        means.append({"name": run["name"], "letter": many["means"][index]["letter"] if many else "",
                      "queries": run["queries"], "queries_text": integer(run["queries"]), "cells": cells})
    if many:
        del many["means"]
    view = {
        "warnings": [
            {"code": warning["code"], "text": _notice(warning).render("es")} for warning in report["warnings"]
        ],
        "complete_note": " ".join(
            _notice(warning).note() for warning in report["warnings"] if warning["code"] == "queries_missing_from_run"
        ),
        "summary": _summary(report, runs),
        "metric_labels": labels,
        "means_columns": ["Run", "Consultas", *labels],  # the means table's headings
        "means_caption": many["means_caption"] if many else "Medias por run",
        "means": means,
        "columns": ["Consulta"]
        + [f"{label} · {run['name']}" for run in report["runs"] for label in labels]
        + ([f"Δ {label}" for label in labels] if two else []),
        "rows": rows,
        "per_query_caption": per_query_caption(len(rows)),
        "comparison": _comparison(report["comparison"], labels, warned_runs(report)) if two
        else pair_view(report, 0, 1) if many else None,
        "many": many,
        "fused": fused,
    }
    return view


def pair_view(report, baseline: int, candidate: int) -> dict:
    """Runs ``candidate`` and ``baseline`` (positions, either order; three runs or more) compared in detail, as two
    runs are: the same table, with the p-value adjusted by Holm over all the pairs beside the raw one, the reading,
    and the per-query differences against the chosen baseline."""
    count = len(report["runs"])
    if not (isinstance(baseline, int) and isinstance(candidate, int) and 0 <= baseline < count and 0 <= candidate < count):
        raise LabError.page("Elige dos de los runs evaluados.", field="pair")
    if baseline == candidate:
        raise LabError.page("Elige dos runs distintos para compararlos.", field="pair")
    data = oriented_pair(report, baseline, candidate)
    warned = [name for name in (data["baseline"], data["candidate"]) if name in warned_names(report)]
    letters = (LETTERS[baseline], LETTERS[candidate])
    return _comparison(data, report["measures"], warned, count * (count - 1) // 2, letters)


def per_query_caption(total: int) -> str:
    """The per-query table's caption: the page draws the first :data:`ROWS_SHOWN` rows of the chosen order.

    >>> per_query_caption(40)
    'Por consulta (pulsa una cabecera para ordenar)'
    >>> per_query_caption(12000).replace(NBSP, " ")
    'Por consulta: las 200 primeras de 12 000 según el orden elegido (pulsa una cabecera para ordenar)'
    """
    if total <= ROWS_SHOWN:
        return "Por consulta (pulsa una cabecera para ordenar)"
    return f"Por consulta: las {ROWS_SHOWN} primeras de {integer(total)} según el orden elegido (pulsa una cabecera para ordenar)"


def page_settings() -> dict:
    """What the page's «Tus datos» script needs before Python runs (the build puts it in ``lab_config``):
    the default measures, how many per-query rows it draws, its sentences (``{name}``: a file's name), how
    many runs it takes, and the fusion's methods and normalisations (the template's options)."""
    return {
        "default_measures": DEFAULT_MEASURES,
        "rows_shown": ROWS_SHOWN,
        "words": data_panel_words(),
        "max_runs": MAX_RUNS,
        "fusion": page_options(),
    }


def _notice(warning) -> Notice:
    """A warning of the report (JSON) as the :class:`~raglab_core.runs.sanity.Notice` it was made from."""
    params = {key: value for key, value in warning.items() if key not in ("code", "message", "run")}
    return Notice(warning["code"], warning["run"], params)


def _summary(report, runs) -> str:
    queries = max(run["queries"] for run in report["runs"])
    text = (
        f"{count(queries, 'consulta evaluada', 'consultas evaluadas')} con {spanish_list(report['measures'])} "
        f"({TIES_TEXT[report['ties']]})."
    )
    for name, result in runs:
        skipped = []
        if result.not_in_qrels:
            skipped.append(f"{count(len(result.not_in_qrels), 'consulta', 'consultas')} sin juicios en los qrels")
        if result.not_in_run:
            skipped.append(f"{count(len(result.not_in_run), 'consulta', 'consultas')} de los qrels sin resultados en el run")
        if skipped:
            one = len(skipped) == 1 and len(result.not_in_qrels or result.not_in_run) == 1
            text += f" «{name}»: se omite{'' if one else 'n'} {' y '.join(skipped)}."
    return text


def _rows(report, two) -> list:
    runs, labels = report["runs"], report["measures"]
    qids = sorted(set().union(*(run["per_query"] for run in runs)))
    rows = []
    for qid in qids:
        cells = [{"raw": qid, "text": qid}]
        for run in runs:
            scores = run["per_query"].get(qid)
            cells += [_cell(scores[m]) if scores else {"raw": None, "text": DASH} for m in labels]
        if two:
            for m in labels:
                delta = report["comparison"]["metrics"][m]["per_query"].get(qid)
                cells.append(_cell(delta, signed=True))
        rows.append(cells)
    return rows


COMPARISON_COLUMNS = ["Métrica", "Δ media", "IC 95 %", "Ganadas", "Empates", "Perdidas", "p-valor"]
"""The comparison table's headings (two runs); with more, the Holm-adjusted p-value follows."""


def _comparison(data, labels, warned=(), pairs=1, letters=None) -> dict:
    """One pair of runs compared in detail: ``data`` shaped as the report's ``"comparison"``; ``pairs``: how many
    pairs Holm's correction spans (1 for two runs: then the table and the reading are the two-run ones);
    ``letters``: the pair's letters (baseline, candidate) when there are more than two runs."""
    metrics = []
    for label in labels:
        result = data["metrics"][label]
        metrics.append(
            {
                "label": label,
                "delta": _cell(result["mean_delta"], signed=True),
                "wins": result["wins"],
                "ties": result["ties"],
                "losses": result["losses"],
                "counts_text": [integer(result[key]) for key in ("wins", "ties", "losses")],
                "ci95": {"raw": result["ci95"], "text": _interval(result["ci95"])},
                "p_value": {
                    "raw": result["p_value"],
                    "text": p_value_text(result["p_value"], data["permutations"], result["p_value_exact"], result["p_value_se"]),
                },
            }
        )
        if pairs > 1:
            metrics[-1]["p_adjusted"] = {
                "raw": result["p_value_adjusted"],
                "text": adjusted_text(result["p_value_adjusted"], data["permutations"], pairs, result["p_value_exact"]),
            }
    first = data["metrics"][labels[0]]
    bars = sorted(first["per_query"].items(), key=lambda item: (-item[1], item[0]))
    largest = max((abs(delta) for _, delta in bars), default=0.0)
    return {
        "baseline": data["baseline"],
        "candidate": data["candidate"],
        "queries": data["queries"],
        "caption": (
            "Diferencia media con su intervalo de confianza del 95 % (bootstrap sobre las consultas, "
            f"{integer(data['resamples'])} remuestreos), consultas ganadas, empatadas y perdidas, y p-valor de la "
            f"prueba de aleatorización pareada: exacto con {EXACT_LIMIT} consultas distintas o menos; si no, estimado con "
            f"{_permutations(data['permutations'])}, ± su error de Monte Carlo"
            + (f"; y ese p-valor ajustado por Holm sobre los {pairs} pares" if pairs > 1 else "")
        ),
        "title": f"Comparación de «{data['candidate']}» ({letters[1]}) con «{data['baseline']}» ({letters[0]})"
        if letters else "Comparación de B con A",
        "columns": COMPARISON_COLUMNS + (["p ajustado (Holm)"] if pairs > 1 else []),
        "metrics": metrics,
        "reading": _reading(data, labels, warned, pairs),
        "chart": {
            "label": f"Δ {labels[0]} por consulta ({data['candidate']} − {data['baseline']})",
            "description": (
                f"Δ {labels[0]} por consulta ({data['candidate']} − {data['baseline']}): "
                f"{count(len(bars), 'consulta', 'consultas')}, de mayor ganancia a mayor pérdida; el eje vertical va "
                f"de {_cell(-largest, signed=True)['text']} a {_cell(largest, signed=True)['text']}."
            ),
            "y_label": f"Δ {labels[0]}",
            "x_label": f"{count(len(bars), 'consulta', 'consultas')}, de mayor ganancia a mayor pérdida",
            "ticks": [_cell(largest, signed=True)["text"], "0", _cell(-largest, signed=True)["text"]],
            "bars": [{"qid": qid, "raw": delta, "text": f"{qid}: {_cell(delta, signed=True)['text']}"} for qid, delta in bars]
            if len(bars) <= MAX_BARS
            else [],
            "values": [delta for _, delta in bars],
            "max": largest,
        },
    }


def _reading(data, labels, warned=(), pairs=1) -> str:
    """What the comparison shows and what it does not, in plain Spanish (never a verdict).

    It opens with the runs some warning concerns, when there are any: the
    conclusion rests on those data. The first measure leads. A mean
    difference that rounds to 0,000 is said to be so, with no direction: no
    run "beats" the other by 0,000. Its confidence interval is read for what
    it is: the spread the choice of queries leaves.
    """
    a, b, n = f"«{data['baseline']}»", f"«{data['candidate']}»", data["queries"]
    label = labels[0]
    first = data["metrics"][label]
    delta = first["mean_delta"]
    caveat = []
    if warned:
        runs = spanish_list([f"«{name}»" for name in warned])
        caveat = [
            f"Atención: esta comparación se apoya en datos con avisos (arriba) sobre {runs}; revísalos antes de "
            "sacar conclusiones."
        ]
    counts = (
        f"{count(first['wins'], 'ganada', 'ganadas')}, {count(first['ties'], 'empatada', 'empatadas')} y "
        f"{count(first['losses'], 'perdida', 'perdidas')} por {b}"
    )
    paired = f"En {count(n, 'consulta emparejada', 'consultas emparejadas')}"
    if first["wins"] == first["losses"] == 0:
        parts = [f"{paired}, {b} y {a} obtienen el mismo {label} en cada consulta."]
    elif decimal(abs(delta)) == decimal(0.0):
        parts = [
            f"{paired}, la diferencia media de {label} entre {b} y {a} redondea a {decimal(0.0)}: "
            f"ninguno queda por encima del otro en media ({counts})."
        ]
    else:
        direction = "queda por encima de" if delta > 0 else "queda por debajo de"
        parts = [f"{paired}, {b} {direction} {a} en {label} por {decimal(abs(delta))} de media ({counts})."]
    low_end, high_end = first["ci95"]
    if first["wins"] or first["losses"]:
        ends = f"{_interval(first['ci95'])}"
        if low_end > 0 or high_end < 0:
            side = (
                "no incluye el 0: la diferencia media conserva su signo en al menos el 97,5 % de los remuestreos"
            )
        else:
            side = (
                "incluye el 0: la diferencia media se anula o cambia de signo en más del 2,5 % de los remuestreos, "
                "así que estos datos no fijan hacia qué lado va"
            )
        parts.append(
            f"El intervalo de confianza del 95 % de la diferencia media de {label}, {ends}, recoge cuánto "
            f"cambiaría esa media al remuestrear estas {integer(n)} consultas; {side}. No cubre otras "
            "colecciones ni otros juicios."
        )
    key, p = ("p_value", "p") if pairs == 1 else ("p_value_adjusted", "p ajustado")
    low = [label for label in labels if data["metrics"][label][key] < ALPHA]
    high = [label for label in labels if data["metrics"][label][key] >= ALPHA]
    alpha = decimal(ALPHA, 2)
    holm = f" (Holm, sobre los {pairs} pares)" if pairs > 1 else ""
    if low:
        parts.append(
            f"Para {spanish_list(low)}, {p} < {alpha}{holm}: una diferencia de ese tamaño sería rara si los dos "
            "sistemas fueran intercambiables en estas consultas."
        )
    if high:
        parts.append(
            f"Para {spanish_list(high)}, {p} ≥ {alpha}{holm if not low else ''}: estos datos no permiten distinguir "
            "la diferencia del azar, lo que no demuestra que los sistemas sean iguales."
        )
    several = f", no corrige por mirar {len(labels)} medidas a la vez," if len(labels) > 1 else ""
    parts.append(
        f"La prueba no mide cuánto importa la diferencia a tus usuarios{several} y solo habla de estas consultas "
        "y estos juicios: con qrels incompletos, los documentos sin juzgar cuentan como no relevantes "
        "(Judged@k dice qué parte de los primeros k está juzgada)."
    )
    return " ".join(caveat + parts)
