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

from .errors import LabError
from .evaluation import DEFAULT_MEASURES, RunEvaluator, parse_measures, tie_mode
from .formatting import DASH, decimal, integer, spanish_list
from .report import PERMUTATIONS, build_report, p_value_text, require_common_queries
from .trec import QrelsReader, RunNotGrouped, RunReader

ALPHA = 0.05
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
        self.qrels = None
        self.evaluations = {}
        self.reader = self.evaluator = self.slot = None
        self.regroup = False

    def begin(self, slot: str, grouped: bool = True) -> None:
        """Start reading the file of ``slot``: ``"qrels"`` (first), then ``"A"`` and ``"B"``."""
        self.slot, self.regroup = slot, False
        if slot == "qrels":
            self.reader = QrelsReader(self.qrels_name)
            return
        if self.qrels is None or slot not in SLOTS[: len(self.names)]:
            raise LabError.page("Lee primero los qrels y después los runs A y B.")
        self.evaluator = RunEvaluator(self.qrels, self.measures, self.ties)
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
            if progress:
                progress(index / count, f"Comparando B con A: {name} ({index + 1} de {count}, {_permutations(PERMUTATIONS)})…")

        report, comparison = build_report(runs, progress=compared)
        if progress:
            progress(1.0, "Preparando las tablas…")
        return panel_view(report, runs, comparison)


def evaluate_files(qrels, runs, measures=None, ties="double", progress=None) -> dict:
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
        {"measures": measures, "ties": ties, "qrels": _name(qrels, "qrels"), "runs": [_name(run, None) for run in runs]}
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


def panel_view(report, runs, comparison) -> dict:
    """What the panel shows, from :func:`~raglab_core.report.build_report`'s results (``runs``: ``[(name, RunEvaluation)]``)."""
    labels = report["measures"]
    view = {
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
                "p_value": {"raw": result["p_value"], "text": p_value_text(result["p_value"], data["permutations"])},
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
            "Diferencia media, consultas ganadas, empatadas y perdidas, y p-valor de la prueba de "
            f"aleatorización pareada ({_permutations(data['permutations'])})"
        ),
        "metrics": metrics,
        "reading": _reading(data, labels),
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


def _reading(data, labels) -> str:
    """What the comparison shows and what it does not, in plain Spanish (never a verdict).

    The first measure leads. A mean difference that rounds to 0,000 is said
    to be so, with no direction: no run "beats" the other by 0,000.
    """
    a, b, n = f"«{data['baseline']}»", f"«{data['candidate']}»", data["queries"]
    label = labels[0]
    first = data["metrics"][label]
    delta = first["mean_delta"]
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
    return " ".join(parts)
