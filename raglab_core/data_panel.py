"""The «Tus datos» panel: your own qrels and runs, evaluated as they are read and explained in Spanish.

The page's worker reads each file as a stream and hands its text to an
:class:`EvaluationSession` a chunk at a time (nothing leaves the browser, and
no file is ever held whole): the qrels are read, then each run is evaluated
query by query as it streams (:class:`raglab_core.trec.RunReader` into
:class:`raglab_core.evaluation.RunEvaluator`), exactly as
``python -m raglab_core eval`` does. :meth:`EvaluationSession.finish` builds
the report (:func:`raglab_core.report.build_report`, the same numbers as the
command line) and :func:`panel_view` turns it into what the panel shows: a
summary, the means, a sortable per-query table, the comparison with its
reading, and the per-query deltas to chart. Every number arrives both raw
(for sorting and for tests) and as Spanish text. :func:`evaluate_files` does
all of it for whole texts.
"""

import csv
import io

from .errors import LabError
from .evaluation import DEFAULT_MEASURES, RunEvaluator, parse_measures, tie_mode
from .formatting import DASH, decimal, integer, spanish_list
from .report import (
    PERMUTATIONS, RESAMPLES, build_report, p_value_text, report_json, require_common_queries, warned_runs,
)
from .sanity import Notice
from .trec import QrelsReader, RunNotGrouped, RunReader

ALPHA = 0.05
DETAIL_DEPTH = 10
"""The query detail shows each run's first this many documents."""
COMPLETE_LABEL = "Contar como 0 las consultas que falten"
"""The complete checkbox's label, named by the warnings about missing queries (raglab_core.sanity too)."""
MAX_BARS = 600
"""Above this many queries the chart is one path through ``values``: per-query bars would be thinner than a pixel."""
SLOTS = ("A", "B")
"""The runs' slots: run A (the baseline) and run B (compared with A)."""
TIES_TEXT = {
    "double": "empates en doble precisión, como trec_eval 10 y ranx",
    "float32": "empates en precisión simple, como trec_eval 9 y pytrec_eval",
}


def run_names(names) -> list[str]:
    """The runs' names as the panel shows them: «A: file» and «B: file» when there are two.

    >>> run_names(["run.txt"]), run_names(["run.txt", "run.txt"])
    (['run.txt'], ['A: run.txt', 'B: run.txt'])
    """
    names = [name if isinstance(name, str) and name.strip() else f"run {slot}" for name, slot in zip(names, SLOTS)]
    return [f"{slot}: {name}" for slot, name in zip(SLOTS, names)] if len(names) == 2 else names


class EvaluationSession:
    """One evaluation in the worker: settings first, then each file's text in chunks, then the panel.

    ``settings``: ``{"measures": "nDCG@10 …", "ties": "double", "qrels": name,
    "runs": [name A, name B?]}``; bad measures raise ``LabError`` (field
    ``"measures"``). For each file, in order (``"qrels"``, ``"A"``,
    ``"B"``): :meth:`begin`, :meth:`feed` any number of times, :meth:`end`.
    :meth:`end` returns ``"regroup"`` when a run's lines are not grouped by
    query: the caller feeds that file again after ``begin(slot,
    grouped=False)``. A bad file raises :class:`~raglab_core.trec.TrecFormatError`
    from :meth:`end`.

    >>> session = EvaluationSession({"measures": "P@1 RR", "qrels": "q.txt", "runs": ["r.txt"]})
    >>> session.begin("qrels"); session.feed("q1 0 a 1\\nq1 0 b 0\\n"); session.end()
    'ok'
    >>> session.begin("A"); session.feed("q1 Q0 b 1 2.0 x\\nq1 Q0 a 2 1.0"); session.feed(" x\\n"); session.end()
    'ok'
    >>> session.finish()["means"][0]["cells"][1]["text"]
    '0,500'
    """

    def __init__(self, settings):
        if not isinstance(settings, dict):
            raise LabError.page("La petición debe ser un objeto JSON.")
        self.measures = parse_measures(settings.get("measures") or DEFAULT_MEASURES)
        self.ties = tie_mode(settings.get("ties") or "double")
        runs = settings.get("runs")
        if not isinstance(runs, list) or not 1 <= len(runs) <= 2:
            raise LabError.page("Elige uno o dos runs.", field="run")
        self.names = run_names(runs)
        self.qrels_name = settings.get("qrels") if isinstance(settings.get("qrels"), str) else "qrels"
        self.complete = settings.get("complete") is True
        self.qrels = None
        self.evaluations = {}
        self.reader = self.evaluator = self.slot = None
        self.regroup = False
        self.report = self.runs = None  # once finished: what the downloads and the query detail read

    def begin(self, slot: str, grouped: bool = True) -> None:
        """Start reading the file of ``slot``: ``"qrels"`` (first), then ``"A"`` and ``"B"``."""
        self.slot, self.regroup = slot, False
        if slot == "qrels":
            self.reader = QrelsReader(self.qrels_name)
            return
        if self.qrels is None or slot not in SLOTS[: len(self.names)]:
            raise LabError.page("Lee primero los qrels y después los runs A y B.")
        self.evaluator = RunEvaluator(self.qrels, self.measures, self.ties, self.complete, keep=DETAIL_DEPTH)
        self.reader = RunReader(self.names[SLOTS.index(slot)], self.evaluator.add, grouped)

    def feed(self, text: str) -> None:
        """The next chunk of the current file's text (ignored once ``regroup`` is set: read it again)."""
        if self.regroup:
            return
        try:
            self.reader.feed(text)
        except RunNotGrouped:
            self.regroup = True

    def end(self) -> str:
        """End the current file: ``"ok"``, or ``"regroup"`` (feed it again, ungrouped)."""
        if not self.regroup:
            try:
                result = self.reader.close()
            except RunNotGrouped:
                self.regroup = True
        if self.regroup:
            return "regroup"
        if self.slot == "qrels":
            self.qrels = result
        else:
            self.evaluations[self.slot] = self.evaluator.result()
        self.reader = self.evaluator = None
        return "ok"

    def finish(self, progress=None) -> dict:
        """The panel (:func:`panel_view`) once every file is read; ``progress(fraction, text)`` during the comparison."""
        runs = [(name, self.evaluations[slot]) for name, slot in zip(self.names, SLOTS)]
        require_common_queries(runs, self.qrels_name)
        count = len(self.measures)

        def compared(index, name):
            if not progress:
                return
            if name is None:
                progress(index / (count + 1), f"Calculando los intervalos de confianza ({integer(RESAMPLES)} remuestreos)…")
            else:
                progress(index / (count + 1), f"Comparando B con A: {name} ({index + 1} de {count}, {_permutations(PERMUTATIONS)})…")

        report, comparison = build_report(runs, progress=compared)
        self.report, self.runs = report, runs
        if progress:
            progress(1.0, "Preparando las tablas…")
        return panel_view(report, runs, comparison)

    def query_detail(self, qid: str) -> dict:
        """The first :data:`DETAIL_DEPTH` documents of each run for query ``qid`` (:func:`query_detail`)."""
        return query_detail(qid, self.qrels, self.runs)

    def report_json(self) -> str:
        """What ``python -m raglab_core eval --json`` prints for these files and settings."""
        return report_json(self.report)

    def per_query_csv(self) -> str:
        """The per-query table as CSV (:func:`per_query_csv`)."""
        return per_query_csv(self.report)


def evaluate_files(qrels, runs, measures=None, ties="double", progress=None, complete=False) -> dict:
    """Evaluate whole texts: ``qrels`` and each of the one or two ``runs`` are ``{"name", "text"}``.

    Raises ``LabError`` (a :class:`~raglab_core.trec.TrecFormatError` for a
    bad file, naming it and its lines); returns :func:`panel_view`'s dict.

    >>> view = evaluate_files({"name": "q.txt", "text": "q1 0 a 2\\nq1 0 b 1"},
    ...                       [{"name": "r.txt", "text": "q1 Q0 b 1 0.9 x\\nq1 Q0 a 2 0.5 x"}], "P(rel=2)@2")
    >>> view["means"][0]["cells"][0]["text"], view["summary"]
    ('0,500', '1 consulta evaluada con P(rel=2)@2 (empates en doble precisión, como trec_eval 10 y ranx).')
    """
    if not isinstance(runs, list):
        raise LabError.page("Elige uno o dos runs.", field="run")
    session = EvaluationSession(
        {"measures": measures, "ties": ties, "qrels": _name(qrels, "qrels"), "runs": [_name(run, None) for run in runs],
         "complete": complete}
    )
    for slot, item in zip(("qrels", *SLOTS), [qrels, *runs]):
        for grouped in (True, False):
            session.begin(slot, grouped)
            session.feed(_text(item, "qrels" if slot == "qrels" else "run"))
            if session.end() == "ok":
                break
    return session.finish(progress)


def _text(item, field):
    if not isinstance(item, dict) or not isinstance(item.get("text"), str):
        raise LabError.page("Falta el contenido del fichero.", field=field)
    return item["text"] if item["text"].endswith("\n") else item["text"] + "\n"


def _name(item, default):
    name = item.get("name") if isinstance(item, dict) else None
    return name if isinstance(name, str) and name.strip() else default


def _cell(value, signed=False) -> dict:
    if value is None:
        return {"raw": None, "text": DASH}
    text = decimal(value)
    if signed:
        text = ("+" if value > 0 else "−" if value < 0 else "±") + decimal(abs(value))
    return {"raw": value, "text": text}


def _permutations(count: int) -> str:
    return f"{integer(count)} permutaciones"


def _plural(count: int, singular: str, plural: str) -> str:
    """``'1 consulta'``, ``'40 consultas'``.

    >>> _plural(1, "ganada", "ganadas"), _plural(0, "ganada", "ganadas")
    ('1 ganada', '0 ganadas')
    """
    return f"{integer(count)} {singular if count == 1 else plural}"


def per_query_csv(report) -> str:
    """The per-query table as CSV: one row per query, one column per (run, measure), then one Δ per measure.

    Numbers as Python writes them (``0.5``, a point), empty where undefined
    or where the run has no value for the query.

    >>> from raglab_core.evaluation import evaluate_run
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
    unjudged) and its text, and ``shared``: whether the other run's first
    documents hold it too (only with two runs).

    >>> from raglab_core.evaluation import RunEvaluator
    >>> qrels = {"q1": {"a": 2, "b": 0}}
    >>> runs = []
    >>> for name, scores in (("x", {"a": 2.0, "c": 1.0}), ("y", {"c": 3.0, "b": 1.0})):
    ...     evaluator = RunEvaluator(qrels, parse_measures("P@1"), keep=10)
    ...     evaluator.add("q1", scores)
    ...     runs.append((name, evaluator.result()))
    >>> detail = query_detail("q1", qrels, runs)
    >>> [(d["id"], d["grade_text"], d["shared"]) for d in detail["runs"][1]["documents"]]
    [('c', 'sin juicio', True), ('b', 'grado 0', False)]
    """
    judged = qrels.get(qid, {}) if qrels else {}
    tops = [result.top.get(qid) for _, result in runs]
    shared = set(tops[0] or ()) & set(tops[1] or ()) if len(tops) == 2 else set()
    columns = []
    for (name, _), top in zip(runs, tops):
        documents = []
        for rank, docid in enumerate(top or (), start=1):
            grade = judged.get(docid)
            documents.append({
                "rank": rank,
                "id": docid,
                "grade": grade,
                "grade_text": "sin juicio" if grade is None else f"grado {grade}",
                "shared": docid in shared,
            })
        columns.append({
            "name": name,
            "caption": f"«{name}»: sus {len(documents)} primeros" if len(documents) != 1 else f"«{name}»: su primer documento",
            "empty": "" if documents else "El run no tiene resultados para esta consulta.",
            "documents": documents,
        })
    note = ""
    if len(runs) == 2:
        note = (
            f"Marcados con «en los dos»: {_plural(len(shared), 'documento', 'documentos')} que los dos runs ponen "
            f"entre sus {DETAIL_DEPTH} primeros."
        )
    return {
        "qid": qid,
        "title": f"Consulta «{qid}»: los {DETAIL_DEPTH} primeros documentos de cada run",
        "shared_text": "en los dos",
        "note": note,
        "runs": columns,
    }


def panel_view(report, runs, comparison) -> dict:
    """What the panel shows, from :func:`~raglab_core.report.build_report`'s results (``runs``: ``[(name, RunEvaluation)]``)."""
    labels = report["measures"]
    view = {
        "warnings": [
            {"code": warning["code"], "text": _notice(warning).render("es")} for warning in report["warnings"]
        ],
        "summary": _summary(report, runs),
        "metric_labels": labels,
        "means": [
            {"name": run["name"], "queries": run["queries"], "cells": [_cell(run["mean"][m]) for m in labels]}
            for run in report["runs"]
        ],
        "columns": ["Consulta"]
        + [f"{label} · {run['name']}" for run in report["runs"] for label in labels]
        + ([f"Δ {label}" for label in labels] if comparison else []),
        "rows": _rows(report, comparison),
        "comparison": _comparison(report, labels) if comparison else None,
    }
    return view


def _notice(warning) -> Notice:
    """A warning of the report (JSON) as the :class:`~raglab_core.sanity.Notice` it was made from."""
    params = {key: value for key, value in warning.items() if key not in ("code", "message", "run")}
    return Notice(warning["code"], warning["run"], params)


def _summary(report, runs) -> str:
    queries = max(run["queries"] for run in report["runs"])
    text = (
        f"{_plural(queries, 'consulta evaluada', 'consultas evaluadas')} con {spanish_list(report['measures'])} "
        f"({TIES_TEXT[report['ties']]})."
    )
    for name, result in runs:
        skipped = []
        if result.not_in_qrels:
            skipped.append(f"{_plural(len(result.not_in_qrels), 'consulta', 'consultas')} sin juicios en los qrels")
        if result.not_in_run:
            skipped.append(f"{_plural(len(result.not_in_run), 'consulta', 'consultas')} de los qrels sin resultados en el run")
        if skipped:
            one = len(skipped) == 1 and len(result.not_in_qrels or result.not_in_run) == 1
            text += f" «{name}»: se omite{'' if one else 'n'} {' y '.join(skipped)}."
    return text


def _rows(report, comparison) -> list:
    runs, labels = report["runs"], report["measures"]
    qids = sorted(set().union(*(run["per_query"] for run in runs)))
    rows = []
    for qid in qids:
        cells = [{"raw": qid, "text": qid}]
        for run in runs:
            scores = run["per_query"].get(qid)
            cells += [_cell(scores[m]) if scores else {"raw": None, "text": DASH} for m in labels]
        if comparison:
            for m in labels:
                delta = report["comparison"]["metrics"][m]["per_query"].get(qid)
                cells.append(_cell(delta, signed=True))
        rows.append(cells)
    return rows


def _comparison(report, labels) -> dict:
    data = report["comparison"]
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
                "ci95": {"raw": result["ci95"], "text": _interval(result["ci95"])},
                "p_value": {
                    "raw": result["p_value"],
                    "text": p_value_text(result["p_value"], data["permutations"], result["p_value_exact"], result["p_value_se"]),
                },
            }
        )
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
            f"prueba de aleatorización pareada: exacto con 30 consultas distintas o menos; si no, estimado con "
            f"{_permutations(data['permutations'])}, ± su error de Monte Carlo"
        ),
        "metrics": metrics,
        "reading": _reading(data, labels, warned_runs(report)),
        "chart": {
            "label": f"Δ {labels[0]} por consulta ({data['candidate']} − {data['baseline']})",
            "y_label": f"Δ {labels[0]}",
            "x_label": f"{_plural(len(bars), 'consulta', 'consultas')}, de mayor ganancia a mayor pérdida",
            "ticks": [_cell(largest, signed=True)["text"], "0", _cell(-largest, signed=True)["text"]],
            "bars": [{"qid": qid, "raw": delta, "text": _cell(delta, signed=True)["text"]} for qid, delta in bars]
            if len(bars) <= MAX_BARS
            else [],
            "values": [delta for _, delta in bars],
            "max": largest,
        },
    }


def _interval(ci95) -> str:
    """``[lo, hi]`` in Spanish: ``'[+0,033; +0,175]'`` (a semicolon, as the decimal comma asks)."""
    low, high = (_cell(end, signed=True)["text"] for end in ci95)
    return f"[{low}; {high}]"


def _reading(data, labels, warned=()) -> str:
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
        f"{_plural(first['wins'], 'ganada', 'ganadas')}, {_plural(first['ties'], 'empatada', 'empatadas')} y "
        f"{_plural(first['losses'], 'perdida', 'perdidas')} por {b}"
    )
    paired = f"En {_plural(n, 'consulta emparejada', 'consultas emparejadas')}"
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
            side = "no incluye el 0: con consultas como estas, la diferencia media tendría el mismo signo"
        else:
            side = "incluye el 0: con consultas como estas, la diferencia media podría ser nula o de signo contrario"
        parts.append(
            f"El intervalo de confianza del 95 % de la diferencia media de {label}, {ends}, recoge cuánto "
            f"cambiaría esa media al remuestrear estas {integer(n)} consultas; {side}. No cubre otras "
            "colecciones ni otros juicios."
        )
    low = [label for label in labels if data["metrics"][label]["p_value"] < ALPHA]
    high = [label for label in labels if data["metrics"][label]["p_value"] >= ALPHA]
    if low:
        parts.append(
            f"Para {spanish_list(low)}, p < 0,05: una diferencia de ese tamaño sería rara si los dos sistemas "
            "fueran intercambiables en estas consultas."
        )
    if high:
        parts.append(
            f"Para {spanish_list(high)}, p ≥ 0,05: estos datos no permiten distinguir la diferencia del azar, "
            "lo que no demuestra que los sistemas sean iguales."
        )
    several = f", no corrige por mirar {len(labels)} medidas a la vez," if len(labels) > 1 else ""
    parts.append(
        f"La prueba no mide cuánto importa la diferencia a tus usuarios{several} y solo habla de estas consultas "
        "y estos juicios: con qrels incompletos, los documentos sin juzgar cuentan como no relevantes "
        "(Judged@k dice qué parte de los primeros k está juzgada)."
    )
    return " ".join(caveat + parts)
