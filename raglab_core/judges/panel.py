"""«¿Te fías de tus juicios?»: the agreement report (``agree --json``) as «Tus datos» shows it, in Spanish.

:func:`agreement_view` is a view over :func:`raglab_core.judges.agreement.agreement_report`'s report, as
:mod:`raglab_core.runs.panel` is over ``eval``'s: every number arrives raw (``value``, for the page's data
attributes and the tests) and as Spanish text, every sentence is worded here, and the warnings come first. The
reading puts its verdict first (one sentence), then a short list, then how to read it in a disclosure. It never
calls a judge reliable from κ alone, nor says the order holds when a pair the reference separates flips.

>>> report = {"reference": {"file": "gente.txt", "max": 1}, "judge": {"file": "llm.txt", "max": 1},
...           "pairs": {"both": 4, "reference_only": 0, "judge_only": 0},
...           "labels": {"n": 4, "confusion": [[1, 1], [0, 2]], "exact": 0.75, "kappa": 0.5, "kappa_ci95": None,
...                      "kappa_linear": 0.5, "kappa_quadratic": 0.5, "alpha_ordinal": 0.46, "alpha_interval": 0.46,
...                      "binary": [{"reference_threshold": 1, "judge_threshold": 1, "table": [[1, 1], [0, 2]],
...                                  "exact": 0.75, "kappa": 0.5, "pabak": 0.5, "ac1": 0.53, "reference_rate": 0.5,
...                                  "judge_rate": 0.75}],
...                      "bias": {"mean": 0.25, "sd": 0.5, "limits": [-0.73, 1.23]}},
...           "per_query": {}, "systems": {"runs": []}, "warnings": []}
>>> view = agreement_view(report)
>>> [(f["name"], f["text"]) for f in view["figures"][:3]]
[('pairs', '4'), ('exact', '75,0\\xa0%'), ('kappa', '0,500')]
>>> view["reading"]["verdict"]
'Acuerdo moderado en las etiquetas (κ 0,500); κ solo no dice si el juez sirve para decidir: carga tus runs y mira si cambia su orden.'
>>> [cell["count"] for row in view["confusion"]["rows"] for cell in row["cells"]]
[1, 1, 0, 2]
"""

import math

from ..formatting import DASH, count, decimal, integer, percent, span, spanish_list
from ..notices import from_json
from ..readings import reading
from ..runs.cells import cell
from ..runs.statistics import p_text

BANDS = ((0.0, "pobre"), (0.20, "leve"), (0.40, "aceptable"), (0.60, "moderado"), (0.80, "sustancial"),
         (1.0, "casi perfecto"))
"""Landis & Koch (1977): the upper end of each band of κ and its name (below 0: «pobre»)."""
SHADES = 5
"""The confusion matrix's cells are shaded in this many steps of their count (0: empty)."""

# the slopegraph, laid out as the corpus plot is (raglab_core.corpus.panel): text of FONT units, a phone layout
FONT = 11
GLYPH = 0.62
ROW = 24
TOP = 34
WIDE = (600, 240, 360)
"""Width, and the x of the reference's column and of the judge's, of the slopegraph on a wide screen."""
NARROW = (320, 124, 196)
"""The same on a phone: drawn at about its own size, so that its text is not scaled down below 11 px."""


def band(kappa: float) -> str:
    """Landis & Koch's name for a value of κ.

    >>> [band(k) for k in (-0.1, 0.1, 0.3, 0.5, 0.7, 0.9)]
    ['pobre', 'leve', 'aceptable', 'moderado', 'sustancial', 'casi perfecto']
    """
    if kappa < 0:
        return "pobre"
    return next(name for top, name in BANDS if kappa <= top + 1e-12)


def signed(value: float) -> str:
    """A difference with its sign, as «Tus datos» writes one (:func:`raglab_core.runs.cells.cell`): ``+0,120``,
    ``−0,050`` (a minus sign), ``0,000``.

    >>> signed(0.12), signed(-0.05), signed(0.0)
    ('+0,120', '−0,050', '0,000')
    """
    return cell(value, signed=True)["text"]


def _number(value, places=3) -> str:
    return DASH if value is None else decimal(value, places)


def agreement_view(report: dict, for_runs: bool = False, sample: bool = False) -> dict:
    """What «¿Te fías de tus juicios?» shows for ``report`` (``agree --json``'s dict): ``warnings`` (Spanish,
    first), ``reading`` (:func:`raglab_core.readings.reading`: the verdict, its lines, the caveats), ``figures`` (each with the DOM ``name`` of
    DESIGN §4.12, or ``""``), ``confusion``, ``binary`` and, with runs, ``systems``. ``for_runs``: the runs'
    panel is evaluated with the judge's qrels (said in a note); ``sample``: the judge's qrels are the page's
    synthetic sample (said in the reading)."""
    found = report["labels"]
    n = found["n"]
    confusion = found["confusion"]
    reference_rate = sum(map(sum, confusion[1:])) / n if n else None
    judge_rate = sum(sum(row[1:]) for row in confusion) / n if n else None
    first = found["binary"][0] if found["binary"] else None
    codes = [warning["code"] for warning in report["warnings"]]
    view = {
        "title": "¿Te fías de tus juicios?",
        "files": (f"Referencia: «{report['reference']['file']}» (grados 0 a {report['reference']['max']}); juicios "
                  f"a comparar: «{report['judge']['file']}» (grados 0 a {report['judge']['max']})."),
        "warnings": [{"code": warning["code"], "text": from_json(warning).render("es")}
                     for warning in report["warnings"]],
        "figures": _figures(report, reference_rate, judge_rate, first, codes),
        "confusion": _confusion(report),
        "binary": _binary(found, report["reference"]["max"] == report["judge"]["max"]),
        "systems": _systems(report["systems"], for_runs, report["judge"]["file"]) if report["systems"]["runs"] else None,
    }
    view.update(_reading(report, reference_rate, judge_rate, first, codes, sample))
    return view


def _figures(report, reference_rate, judge_rate, first, codes) -> list:
    found, pairs = report["labels"], report["pairs"]
    interval = found["kappa_ci95"]
    rates = "" if reference_rate is None else (
        f"Relevantes (grado ≥ 1): la referencia, {percent(reference_rate)}; el juez, {percent(judge_rate)}.")
    scales = (f"Sin definir: las escalas difieren (0 a {report['reference']['max']} y 0 a {report['judge']['max']}) y "
              "las distancias entre grados no se comparan entre dos escalas.")
    bias = found["bias"]
    leaning = ("el juez es más generoso que la referencia" if "judge_lenient" in codes
               else "el juez es más estricto que la referencia" if "judge_strict" in codes
               else "sin sesgo claro: su intervalo incluye el 0")
    weighted = {
        "kappa_linear": ("κ ponderado lineal", "Pesa la distancia entre grados, |i − j|."),
        "kappa_quadratic": ("κ ponderado cuadrático", "Pesa el cuadrado de la distancia entre grados."),
        "alpha_ordinal": ("α de Krippendorff, ordinal", "Los grados como un orden."),
        "alpha_interval": ("α de Krippendorff, de intervalo", "Los grados como números."),
    }
    figures = [
        {"name": "pairs", "label": "Pares comparados", "value": found["n"], "text": integer(found["n"]),
         "note": (f"{count(pairs['both'], 'par juzgado', 'pares juzgados')} por los dos; "
                  f"{integer(pairs['reference_only'])} solo por la referencia y {integer(pairs['judge_only'])} solo "
                  "por el juez.")},
        {"name": "exact", "label": "Acuerdo exacto", "value": found["exact"],
         "text": DASH if found["exact"] is None else percent(found["exact"]),
         "note": "Pares con el mismo grado en los dos lados (sin corregir por el azar)."},
        {"name": "kappa", "label": "κ de Cohen", "value": found["kappa"], "text": _number(found["kappa"]),
         "note": (f"IC 95 %: {span(*interval)} (bootstrap por consultas). " if interval else "") + rates},
    ]
    for name, (label, note) in weighted.items():
        value = found[name]
        figures.append({"name": name, "label": label, "value": value, "text": _number(value),
                        "note": scales if value is None else note})
    figures += [
        {"name": "pabak", "label": "PABAK (grado ≥ 1)", "value": first and first["pabak"],
         "text": _number(first and first["pabak"]), "note": "2 · acuerdo − 1: no depende de las tasas de relevantes."},
        {"name": "", "label": "AC1 de Gwet (grado ≥ 1)", "value": first and first["ac1"],
         "text": _number(first and first["ac1"]), "note": "Corrige por el azar sin hundirse a tasas extremas."},
        {"name": "bias", "label": "Sesgo del juez", "value": bias["mean"],
         "text": DASH if bias["mean"] is None else signed(bias["mean"]),
         "note": DASH if bias["mean"] is None else (
             f"Juez menos referencia, cada grado entre el máximo de su escala: {leaning}"
             + ("" if bias["limits"] is None else
                f"; límites de acuerdo {signed(bias['limits'][0])} a {signed(bias['limits'][1])}") + ".")},
    ]
    return figures


def _confusion(report) -> dict:
    """The confusion matrix as a table: a header per grade, each cell's count, its text and its shade."""
    matrix = report["labels"]["confusion"]
    largest = max((max(row) for row in matrix), default=0)
    return {
        "caption": "Matriz de confusión: en las filas, el grado de la referencia; en las columnas, el del juez.",
        "corner": "Referencia \\ juez",
        "columns": [f"Juez {grade}" for grade in range(len(matrix[0]) if matrix else 0)],
        "rows": [{
            "header": f"Referencia {reference}",
            "cells": [{"reference": reference, "judge": judge, "count": value, "text": integer(value),
                       "shade": math.ceil(SHADES * value / largest) if value else 0}
                      for judge, value in enumerate(row)],
        } for reference, row in enumerate(matrix)],
    }


def _binary(found, same) -> dict:
    """Relevant or not at each threshold (the same on both sides when the scales match, ``same``; every pair
    otherwise)."""
    rows = [b for b in found["binary"] if not same or b["reference_threshold"] == b["judge_threshold"]]
    return {
        "caption": "Relevante o no, según el umbral: κ, PABAK y AC1, y cuánto llama relevante cada lado.",
        "columns": ["Umbral", "κ", "PABAK", "AC1", "Relevantes, referencia", "Relevantes, juez"],
        "rows": [{"threshold": f"≥ {b['reference_threshold']}" if same else
                  f"≥ {b['reference_threshold']} / ≥ {b['judge_threshold']}",
                  "cells": [_number(b["kappa"]), _number(b["pabak"]), _number(b["ac1"]), percent(b["reference_rate"]),
                            percent(b["judge_rate"])]} for b in rows],
    }


def _flip_text(measure, flip) -> str:
    p = flip["p_value_adjusted"]
    said = "sin comparar" if p is None else (
        f"p de Holm {p_text(p, False)}, {'la referencia los separa' if flip['significant'] else 'la referencia no los separa'}")
    return (f"{measure}: «{flip['candidate']}» frente a «{flip['baseline']}», {signed(flip['reference_delta'])} con la "
            f"referencia y {signed(flip['judge_delta'])} con el juez ({said}).")


def _systems(systems, for_runs, judge_file) -> dict:
    agreement = systems["agreement"]
    flips = [(measure, flip) for measure, found in agreement.items() for flip in found["flips"]]
    flips.sort(key=lambda item: not item[1]["significant"])  # stable: significant first, then measure order
    lead = next(iter(agreement), None)
    return {
        "caption": "El orden de los runs con el juez frente al de la referencia, por medida.",
        "columns": ["Medida", "τ-b", "τ_AP", "ρ", "Pares invertidos", "Significativos"],
        "measures": [{
            "measure": measure, "tau_b": found["kendall_tau_b"], "tau_ap": found["tau_ap"],
            "spearman": found["spearman"], "flips": len(found["flips"]),
            "cells": [_number(found["kendall_tau_b"]), _number(found["tau_ap"]), _number(found["spearman"]),
                      integer(len(found["flips"])), integer(sum(flip["significant"] for flip in found["flips"]))],
        } for measure, found in agreement.items()],
        "flips_title": "Pares que cambian de orden" if flips else "Ningún par cambia de orden",
        "flips": [{"significant": flip["significant"], "text": _flip_text(measure, flip)} for measure, flip in flips],
        "slopegraph": slopegraph(systems, lead) if lead else None,
        "note": (f"Las medias y comparaciones de arriba usan los juicios a comparar («{judge_file}»), no los de "
                 "referencia." if for_runs else ""),
    }


def slopegraph(systems: dict, measure: str) -> dict:
    """The runs' order by ``measure`` under the reference (left) and under the judge (right), one line per run,
    laid out as SVG coordinates for a wide screen and, under ``narrow``, for a phone."""
    view = _slopes(systems, measure, *WIDE)
    view["narrow"] = _slopes(systems, measure, *NARROW)
    return view


def _places(values) -> list:
    """Each run's place (0: first), best mean first, ties in the runs' order."""
    order = sorted(range(len(values)), key=lambda index: (-values[index], index))
    places = [0] * len(values)
    for place, index in enumerate(order):
        places[index] = place
    return places


def _short(name: str, room: int) -> str:
    return name if len(name) <= room else name[: max(room - 1, 1)] + "…"


def _slopes(systems, measure, width, left, right) -> dict:
    names = systems["runs"]
    ours = [systems["reference_means"][name][measure] for name in names]
    theirs = [systems["judge_means"][name][measure] for name in names]
    flipped = {}
    for flip in systems["agreement"][measure]["flips"]:
        for name in (flip["baseline"], flip["candidate"]):
            flipped[name] = flipped.get(name, False) or flip["significant"]
    room = int((left - 10) / (FONT * GLYPH)) - 6  # characters of a name beside its value
    places_ours, places_theirs = _places(ours), _places(theirs)

    def y(place):
        return TOP + ROW * place + ROW / 2

    lines = []
    for name, a, b, pa, pb in zip(names, ours, theirs, places_ours, places_theirs):
        kind = "significant" if flipped.get(name) else "flipped" if name in flipped else "kept"
        lines.append({
            "run": name, "kind": kind, "y1": y(pa), "y2": y(pb),
            "left": f"{_short(name, room)} {decimal(a)}", "right": f"{decimal(b)} {_short(name, room)}",
            "text": f"«{name}»: {pa + 1}.º con la referencia ({decimal(a)}), {pb + 1}.º con el juez ({decimal(b)})",
        })
    return {
        "width": width, "height": TOP + ROW * len(names) + 6, "x1": left, "x2": right,
        "title": f"El orden de los runs por {measure}",
        "left_label": "Referencia", "right_label": "Juez",
        "description": (f"El orden de los runs por {measure}, con la referencia a la izquierda y con el juez a la "
                        f"derecha: {'; '.join(line['text'] for line in lines)}."),
        "lines": lines,
    }


# --- the reading: verdict first ----------------------------------------------------------------------------


def _kappa_band(found) -> str:
    """«acuerdo moderado», or «acuerdo entre moderado y sustancial» when κ's interval spans two bands."""
    kappa, interval = found["kappa"], found["kappa_ci95"]
    if kappa is None:
        return "κ sin definir"
    low, high = (band(interval[0]), band(interval[1])) if interval else (band(kappa), band(kappa))
    return f"acuerdo {low}" if low == high else f"acuerdo entre {low} y {high}"


def _kappa_numbers(found) -> str:
    interval = found["kappa_ci95"]
    return f"κ {_number(found['kappa'])}" + (f" (IC 95 % {span(*interval)})" if interval else "")


def _reading(report, reference_rate, judge_rate, first, codes, sample) -> dict:
    found, systems = report["labels"], report["systems"]
    points, agreement_band = [], _kappa_band(found)
    if not found["n"]:
        verdict = "No hay pares juzgados por los dos lados: no hay nada que comparar (mira los avisos)."
    elif not systems["runs"]:
        verdict = (f"{agreement_band[0].upper()}{agreement_band[1:]} en las etiquetas ({_kappa_numbers(found)}); κ solo "
                   "no dice si el juez sirve para decidir: carga tus runs y mira si cambia su orden.")
    else:
        agreement = systems["agreement"]
        significant = [(measure, flip) for measure, a in agreement.items() for flip in a["flips"] if flip["significant"]]
        flips = sum(len(a["flips"]) for a in agreement.values())
        if significant:
            pairs = {}  # each pair of runs flipped significantly, with the measures it flips in
            for measure, flip in significant:
                pairs.setdefault((flip["candidate"], flip["baseline"]), []).append(measure)
            (candidate, baseline), measures = next(iter(pairs.items()))
            more = f" y {count(len(pairs) - 1, 'par más', 'pares más')}" if len(pairs) > 1 else ""
            verdict = (f"El juez invierte «{candidate}» y «{baseline}» en {spanish_list(measures)}{more}, que la "
                       "referencia separa con significación: no decidas entre ellos con estos juicios.")
        elif flips:
            verdict = (f"{count(flips, 'par de runs cambia', 'pares de runs cambian')} de orden, pero ninguno que la "
                       f"referencia separe con significación; en las etiquetas, {agreement_band}.")
        else:
            measures = "la medida" if len(agreement) == 1 else f"ninguna de las {len(agreement)} medidas"
            verdict = (f"Ningún par de tus {len(systems['runs'])} runs cambia de orden con el juez, en {measures}; "
                       f"en las etiquetas, {agreement_band}.")
    if found["n"] and reference_rate is not None:
        points.append(f"{_kappa_numbers(found)}; relevantes: {percent(reference_rate)} referencia, "
                      f"{percent(judge_rate)} juez; PABAK {_number(first and first['pabak'])}, AC1 "
                      f"{_number(first and first['ac1'])}.")
    bias = found["bias"]["mean"]
    if bias is not None:
        leaning = ("juez más generoso" if "judge_lenient" in codes else
                   "juez más estricto" if "judge_strict" in codes else "sin sesgo claro")
        points.append(f"Sesgo {signed(bias)}: {leaning}; sus valores absolutos no sustituyen a los de la referencia."
                      if leaning != "sin sesgo claro" else f"Sesgo {signed(bias)}: sin sesgo claro.")
    if systems["runs"]:
        taus = [a["kendall_tau_b"] for a in systems["agreement"].values() if a["kendall_tau_b"] is not None]
        flips = [flip for a in systems["agreement"].values() for flip in a["flips"]]
        tau = (f"τ-b de {decimal(min(taus))} a {decimal(max(taus))}" if taus and min(taus) != max(taus)
               else f"τ-b {decimal(taus[0])}" if taus else "τ-b sin definir")
        points.append(f"Orden: {tau}; {count(len(flips), 'par invertido', 'pares invertidos')}, "
                      f"{integer(sum(flip['significant'] for flip in flips))} significativos.")
    if sample:
        points.append("Juez sintético de ejemplo, no un LLM real.")
    caveats = [
        "κ compara etiqueta a etiqueta; τ, el orden de los runs: son preguntas distintas, y un valor no predice el otro.",
        "κ solo no basta para fiarte de un juez: léelo con su intervalo, las tasas de relevantes, PABAK y AC1 (a "
        "tasas extremas κ se hunde aunque los dos lados coincidan casi siempre).",
        "Un τ alto tampoco basta: lo que decide es si se invierte algún par que la referencia separa con "
        "significación. Un par invertido dentro de un empate no dice nada.",
        "Un juez que ordena bien puede ser generoso o estricto: el sesgo dice cuánto se mueven los valores.",
    ]
    return {"reading": reading(verdict, points, caveats=caveats)}
