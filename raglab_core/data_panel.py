"""The «Tus datos» panel: your own qrels and runs, evaluated and explained in Spanish.

:func:`evaluate_files` parses the texts the page read (nothing leaves the
browser), evaluates one or two runs with :func:`raglab_core.report.build_report`
— the same numbers as ``python -m raglab_core eval`` — and :func:`panel_view`
turns the report into what the panel shows: a summary, the means, a sortable
per-query table, the comparison with its reading, and the per-query deltas to
chart. Every number arrives both raw (for sorting and for tests) and as
Spanish text.
"""

from .controls import whole_in_range
from .errors import LabError
from .evaluation import METRICS
from .formatting import DASH, decimal, integer, spanish_list
from .report import PERMUTATIONS, build_report, metric_labels, p_value_text
from .trec import parse_qrels, parse_run

MAX_K = 1000
MAX_UMBRAL = 100
ALPHA = 0.05
PROGRESS_EVERY = 50_000  # lines


def _lines_with_progress(text: str, progress, start: float, span: float, what: str):
    """The lines of ``text``, calling ``progress(fraction, message)`` every PROGRESS_EVERY lines."""
    lines = text.splitlines()
    total = len(lines) or 1
    for number in range(0, len(lines), PROGRESS_EVERY):
        if progress:
            progress(start + span * number / total, f"Leyendo {what} (línea {integer(number + 1)} de {integer(total)})…")
        yield from lines[number : number + PROGRESS_EVERY]


def evaluate_files(qrels, runs, k, umbral, progress=None) -> dict:
    """Parse and evaluate: ``qrels`` and each of the one or two ``runs`` are ``{"name", "text"}``.

    ``k`` and ``umbral`` are the lab's controls (strings or numbers). Raises
    ``LabError`` (a :class:`~raglab_core.trec.TrecFormatError` for a bad file,
    naming it and its lines) and returns :func:`panel_view`'s dict otherwise.

    >>> view = evaluate_files({"name": "q.txt", "text": "q1 0 a 2\\nq1 0 b 1"},
    ...                       [{"name": "r.txt", "text": "q1 Q0 b 1 0.9 x\\nq1 Q0 a 2 0.5 x"}], k=2, umbral=2)
    >>> view["means"][0]["cells"][0]["text"], view["summary"]
    ('0,500', '1 consulta evaluada con k = 2 y umbral 2 (ganancia exponencial).')
    """
    k = whole_in_range(k, "k", 1, MAX_K)
    umbral = whole_in_range(umbral, "umbral", 1, MAX_UMBRAL)
    if not isinstance(runs, list) or not 1 <= len(runs) <= 2:
        raise LabError.page("Elige uno o dos runs.", field="run")
    share = 0.5 / (len(runs) + 1)
    parsed_qrels = parse_qrels(
        _lines_with_progress(_text(qrels, "qrels"), progress, 0.0, share, "los qrels"), _name(qrels, "qrels")
    )
    parsed_runs = []
    for index, run in enumerate(runs, start=1):
        lines = _lines_with_progress(_text(run, "run"), progress, share * index, share, f"el run {index}")
        parsed_runs.append((_name(run, f"run {index}"), parse_run(lines, _name(run, f"run {index}"))))
    if progress:
        progress(0.5, "Evaluando…" if len(runs) == 1 else f"Evaluando y comparando ({_permutations(PERMUTATIONS)})…")
    report, evaluations, comparison = build_report(parsed_qrels, parsed_runs, k, umbral)
    return panel_view(report, evaluations, comparison)


def _text(item, field):
    if not isinstance(item, dict) or not isinstance(item.get("text"), str):
        raise LabError.page("Falta el contenido del fichero.", field=field)
    return item["text"]


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


def panel_view(report, evaluations, comparison) -> dict:
    """What the panel shows, from :func:`~raglab_core.report.build_report`'s results."""
    labels = metric_labels(report["k"])
    runs = report["runs"]
    view = {
        "summary": _summary(report, evaluations),
        "metric_labels": labels,
        "means": [
            {"name": run["name"], "queries": run["queries"], "cells": [_cell(run["mean"][m]) for m in METRICS]}
            for run in runs
        ],
        "columns": ["Consulta"]
        + [f"{label} · {run['name']}" for run in runs for label in labels]
        + ([f"Δ {label}" for label in labels] if comparison else []),
        "rows": _rows(report, comparison),
        "comparison": _comparison(report, labels) if comparison else None,
    }
    return view


def _summary(report, evaluations) -> str:
    queries = max(run["queries"] for run in report["runs"])
    gain = "exponencial" if report["gain"] == "exponential" else "lineal"
    text = (
        f"{integer(queries)} consulta{'s' if queries != 1 else ''} evaluada{'s' if queries != 1 else ''} "
        f"con k = {report['k']} y umbral {report['umbral']} (ganancia {gain})."
    )
    for run, result in zip(report["runs"], evaluations):
        skipped = []
        if result.not_in_qrels:
            skipped.append(f"{integer(len(result.not_in_qrels))} sin juicios en los qrels")
        if result.not_in_run:
            skipped.append(f"{integer(len(result.not_in_run))} de los qrels sin resultados en el run")
        if skipped:
            text += f" «{run['name']}»: se omiten {' y '.join(skipped)}."
    return text


def _rows(report, comparison) -> list:
    runs = report["runs"]
    qids = sorted(set().union(*(run["per_query"] for run in runs)))
    rows = []
    for qid in qids:
        cells = [{"raw": qid, "text": qid}]
        for run in runs:
            scores = run["per_query"].get(qid)
            cells += [_cell(scores[m]) if scores else {"raw": None, "text": DASH} for m in METRICS]
        if comparison:
            for m in METRICS:
                delta = report["comparison"]["metrics"][m]["per_query"].get(qid)
                cells.append(_cell(delta, signed=True))
        rows.append(cells)
    return rows


def _comparison(report, labels) -> dict:
    data = report["comparison"]
    metrics = []
    for name, label in zip(METRICS, labels):
        result = data["metrics"][name]
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
    ndcg = data["metrics"]["ndcg"]
    bars = sorted(ndcg["per_query"].items(), key=lambda item: (-item[1], item[0]))
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
            "label": f"Δ {labels[3]} por consulta ({data['candidate']} − {data['baseline']})",
            "bars": [{"qid": qid, "raw": delta, "text": _cell(delta, signed=True)["text"]} for qid, delta in bars],
            "max": max((abs(delta) for _, delta in bars), default=0.0),
        },
    }


def _reading(data, labels) -> str:
    """What the comparison shows and what it does not, in plain Spanish (never a verdict)."""
    a, b, n = f"«{data['baseline']}»", f"«{data['candidate']}»", data["queries"]
    ndcg = data["metrics"]["ndcg"]
    delta = ndcg["mean_delta"]
    direction = "supera a" if delta > 0 else "queda por debajo de" if delta < 0 else "empata con"
    parts = [
        f"En {integer(n)} consultas emparejadas, {b} {direction} {a} en {labels[3]} por "
        f"{decimal(abs(delta))} de media ({ndcg['wins']} ganadas, {ndcg['ties']} empatadas, "
        f"{ndcg['losses']} perdidas)."
    ]
    low = [label for name, label in zip(METRICS, labels) if data["metrics"][name]["p_value"] < ALPHA]
    high = [label for name, label in zip(METRICS, labels) if data["metrics"][name]["p_value"] >= ALPHA]
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
    parts.append(
        "La prueba no mide cuánto importa la diferencia a tus usuarios, no corrige por mirar cuatro "
        "métricas a la vez y solo habla de estas consultas y estos juicios: con qrels incompletos, "
        "los documentos sin juzgar cuentan como no relevantes."
    )
    return " ".join(parts)
