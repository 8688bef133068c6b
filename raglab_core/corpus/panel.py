"""The «Tu corpus» panel's view: chunking configurations measured on your own corpus, as the panel shows them.

The panel's session (:class:`raglab_core.corpus.session.CorpusSession`, in the page's worker) answers a
row per configuration as each is measured (:func:`config_row`) and, once every configuration is compared
with the baseline, the whole panel (:func:`panel_view`, from the report ``chunks --json`` prints): the
rows with their comparison, the warnings, the plot of quality against indexed tokens (:func:`plot`) and
its reading (:func:`reading`), for every measure. :func:`query_detail` shows one query's evidence and the
first chunks of one or two configurations. Every number arrives both raw and as Spanish text.
"""

import math

from ..formatting import DASH, count, decimal, integer, percent, span, spanish_list
from ..notices import from_json
from ..runs.cells import cell
from ..runs.lettered import adjusted_text
from ..runs.report import ALPHA
from ..runs.statistics import PERMUTATIONS, RESAMPLES
from ..readings import reading as reading_parts
from ..words import corpus_panel_words
from .bm25 import B, K1
from .evaluate import CUTS
from .measures import held

DEFAULT_SWEEP = "128:0 256:0 256:32 512:0 512:64 1024:128"
"""The configurations the panel starts from (the chunking panel's own is added by its link)."""
LIMITS = {"corpus": 32_000_000, "queries": 8_000_000, "evidence": 16_000_000, "qrels": 16_000_000,
          "chunks": 64_000_000, "run": 64_000_000}
"""The most bytes (or pasted characters) of each input the browser takes; beyond, the command line."""
DETAIL_DEPTH = 20
"""The query detail shows each configuration's top k chunks, k the largest cut, but never more than this many."""
EXCERPT = 360
"""Characters of a chunk the query detail shows (then «…»)."""
QUERY_OPTIONS = 500
"""The query detail's list offers the first this many queries."""
FAMILIES_SHOWN = ("EvidenceRecall", "CharIoU", "CharPrecision")
"""The evidence measures the table shows at each cut, after the ceiling (CharRecall is in the JSON)."""
EVIDENCE_FAMILIES = ("Ceiling", "EvidenceRecall", "CharRecall", "CharIoU", "CharPrecision")
"""The evidence measures (spans); every other measure is a document measure (qrels)."""


# --- the view ---------------------------------------------------------------------------------------


def shown_measures(names, cuts) -> list:
    """The measures the table shows, in order: the ceiling, then each family of :data:`FAMILIES_SHOWN` at each
    cut, then the document measures (those of ``names`` not evidence measures).

    >>> shown_measures(["Ceiling", "EvidenceRecall@1", "CharRecall@1", "CharIoU@1", "CharPrecision@1", "P@1"], [1])
    ['Ceiling', 'EvidenceRecall@1', 'CharIoU@1', 'CharPrecision@1', 'P@1']
    """
    evidence = ["Ceiling", *(f"{family}@{k}" for family in FAMILIES_SHOWN for k in cuts)]
    others = [name for name in names if name.split("@")[0] not in EVIDENCE_FAMILIES]
    return [name for name in evidence if name in names] + others


def table_columns(measures) -> list:
    """The table's headings: the configuration, its footprint, then each shown measure."""
    return ["Configuración", "Chunks", "Tokens indexados", "Duplicación", *measures]


def lead_measure(names, cuts) -> str:
    """The measure the plot and the reading start from: EvidenceRecall at the largest cut up to 5.

    >>> lead_measure(["Ceiling", "EvidenceRecall@1", "EvidenceRecall@10"], [1, 10])
    'EvidenceRecall@1'
    """
    cut = max([k for k in cuts if k <= 5] or [min(cuts)])
    name = f"EvidenceRecall@{cut}"
    return name if name in names else names[0]


def config_row(entry: dict, corpus_tokens: int, cuts, comparison=None) -> dict:
    """One configuration's table row: its footprint and each shown measure's mean with its 95 % interval;
    with ``comparison`` (its pair with the baseline in the report), each measure's difference and Holm p."""
    names = list(entry["mean"])
    cells = []
    for name in shown_measures(names, cuts):
        shown = cell(entry["mean"][name])
        low, high = entry["ci95"].get(name, (None, None))
        item = {"measure": name, "raw": shown["raw"], "text": shown["text"],
                "ci": [low, high], "ci_text": span(low, high) if low is not None else ""}
        if comparison is not None:
            result = comparison["metrics"][name]
            item["delta"] = result["mean_delta"]
            item["p_adjusted"] = result["p_value_adjusted"]
            item["significant"] = result["p_value_adjusted"] < ALPHA
            delta = cell(result["mean_delta"], signed=True)["text"]
            item["mark"] = ("▲" if result["mean_delta"] > 0 else "▼") if item["significant"] else ""
            item["mark_text"] = (f"{delta} frente a la línea base, p ajustado (Holm) "
                                 f"{_p(result, comparison)}")
            # What the mark stands on, shown under every compared mean (issue 49: sighted readers saw only ▲/▼).
            p_text = _p(result, comparison)
            item["mark_said"] = (" (por encima de la línea base)" if result["mean_delta"] > 0 else
                                 " (por debajo de la línea base)") if item["significant"] else ""
            item["detail"] = f"Δ {delta}; p {p_text if p_text.startswith('<') else '= ' + p_text}"
            item["detail_title"] = (f"Diferencia con la línea base: {delta}; p ajustado por Holm: {p_text}"
                                    + (" (la marca ▲ o ▼ la señala)" if item["significant"] else
                                       f" (≥ {decimal(ALPHA, 2)}: sin marca)"))
        cells.append(item)
    duplication = entry["duplicated_tokens"] / corpus_tokens if entry["duplicated_tokens"] is not None \
        and corpus_tokens else None
    return {
        "name": entry["name"],
        "chunks": entry["chunks"], "chunks_text": integer(entry["chunks"]),
        "indexed_tokens": entry["indexed_tokens"],
        "indexed_text": DASH if entry["indexed_tokens"] is None else integer(entry["indexed_tokens"]),
        "duplication": duplication,
        "duplication_text": DASH if duplication is None else percent(duplication),
        "cells": cells,
    }


def _p(result, comparison) -> str:
    """A Holm-adjusted p-value as the runs' tables write it (exact or estimated: :func:`adjusted_text`)."""
    return adjusted_text(result["p_value_adjusted"], comparison.get("permutations", PERMUTATIONS), 0,
                         result.get("p_value_exact", False))


def panel_view(data: dict, cuts) -> dict:
    """What the panel shows once every configuration is measured and compared (``data``: the JSON report)."""
    configs = data["configs"]
    tokens = data["corpus"]["tokens"]
    by_candidate = {pair["candidate"]: pair for pair in data["comparisons"]}
    rows = [config_row(entry, tokens, cuts, by_candidate.get(entry["name"])) for entry in configs]
    for row in rows:
        row["baseline"] = row["name"] == data["baseline"]
    names = list(configs[0]["mean"]) if configs else []
    measures = shown_measures(names, cuts)
    lead = lead_measure(measures, cuts) if measures else None
    corpus = data["corpus"]
    documents = [name for name in measures if name.split("@")[0] not in EVIDENCE_FAMILIES]
    read = [count(corpus['documents'], 'documento'), count(corpus['tokens'], 'token'),
            count(corpus['queries'], 'consulta')]
    if corpus["spans"] or not documents:
        read.append(f"{count(corpus['spans'], 'fragmento', 'fragmentos')} de evidencia")
    summary = (
        f"{spanish_list(read)}; BM25 (variante de Lucene) con k1 = {_plain(data['bm25']['k1'])} y "
        f"b = {_plain(data['bm25']['b'])}, los {data['bm25']['depth']} primeros chunks de cada consulta. "
        f"Línea base: {data['baseline']}."
    )
    if documents:
        summary += (f" Con los qrels, {spanish_list(documents)} miden el run de documentos (cada documento puntúa "
                    "como su mejor chunk) sobre las consultas de los qrels.")
    return {
        "summary": summary,
        "warnings": [{"code": w["code"], "text": from_json(w).render("es")} for w in data["warnings"]],
        "columns": table_columns(measures),
        "caption": (
            f"Media de cada medida sobre las consultas con evidencia y, debajo, su intervalo de confianza del 95 % "
            f"(bootstrap, {integer(RESAMPLES)} remuestreos). ▲ o ▼: difiere de la línea base ({data['baseline']}) con "
            f"p ajustado por Holm < {decimal(ALPHA, 2)}."
        ),
        "rows": rows,
        "measures": measures,
        "lead": lead,
        "plots": {name: plot(data, name) for name in measures},
        "readings": {name: reading(data, name) for name in measures},
        "configs": [row["name"] for row in rows],
        "queries": query_options(data),
    }


def _plain(value: float) -> str:
    """A setting as the reader wrote it: ``0.9`` as ``0,9``."""
    return repr(value).replace(".", ",").removesuffix(",0")


def query_options(data: dict) -> list:
    """``[[qid, label], …]``: the queries the detail offers (those with a value, the first :data:`QUERY_OPTIONS`)."""
    qids = report_queries_of(data)[:QUERY_OPTIONS]
    return [[qid, qid] for qid in qids]


def report_queries_of(data: dict) -> list:
    return sorted(set().union(*(entry["per_query"] for entry in data["configs"]))) if data["configs"] else []


# --- the plot: quality against indexed tokens ----------------------------------------------------------

WIDTH, HEIGHT = 600, 320
LEFT, RIGHT, TOP, BOTTOM = 56, 36, 16, 44
NARROW_WIDTH, NARROW_HEIGHT = 320, 300
"""The phone's plot: drawn at about its own size, so that its text (``FONT``) is not scaled down below 11 px."""
FONT = 11
"""The plot's text size in viewBox units (the page's style sheet sets the same)."""
GLYPH = 0.62
"""A generous width of one character of the plot's text, in ems: label boxes are estimated with it."""


def nice_step(largest: float) -> float:
    """A round step (1, 2 or 5 times a power of ten) that cuts ``0..largest`` into 3 to 6 parts.

    >>> nice_step(9794), nice_step(1), nice_step(0), nice_step(0.03)
    (2000, 0.2, 1, 0.005)
    """
    if largest <= 0:
        return 1
    power = 10 ** math.floor(math.log10(largest / 4))
    for factor in (1, 2, 5, 10):
        if largest / (factor * power) <= 6:
            step = factor * power
            return int(step) if step >= 1 else round(step, 12)
    return 10 * power


def quality_axis(highest: float) -> tuple:
    """``(top, step, places)``: the quality axis from 0 to a round ``top`` just above ``highest`` (never past 1 when
    ``highest`` is not), cut every ``step`` and written with ``places`` decimals.

    >>> quality_axis(0.974), quality_axis(0.0281), quality_axis(0.0)
    ((1.0, 0.2, 1), (0.03, 0.005, 3), (1, 1, 0))
    """
    step = nice_step(highest)
    top = round(step * max(1, math.ceil(highest / step - 1e-9)), 12)
    places = max(0, -math.floor(math.log10(step) + 1e-9))
    return top, step, places


def plot(data: dict, measure: str) -> dict:
    """The plot of ``measure`` against indexed tokens, one point per configuration with its 95 % interval, as
    coordinates in a ``WIDTH`` × ``HEIGHT`` SVG viewBox, and its values in words (the accessible text); under
    ``narrow``, the same plot laid out for a phone (``NARROW_WIDTH`` × ``NARROW_HEIGHT``).

    The cost axis is the chunking panel's own figure (indexed tokens: overlaps counted each time), over round
    numbers around the configurations'; the quality axis runs from 0 to a round number just above the highest
    interval (CharIoU, about 0,01, would lie on the floor of a 0–1 axis). Each point is labelled by its name
    where the names fit beside their points without touching each other; otherwise by its number, which the
    ``legend`` names.
    """
    view = _plot_layout(data, measure, WIDTH, HEIGHT)
    view["narrow"] = _plot_layout(data, measure, NARROW_WIDTH, NARROW_HEIGHT)
    return view


def _plot_layout(data: dict, measure: str, width: int, height: int) -> dict:
    configs = [entry for entry in data["configs"] if entry["indexed_tokens"] is not None]
    tokens = [entry["indexed_tokens"] for entry in configs] or [0]
    step = nice_step(max(max(tokens) - min(tokens), max(tokens) * 0.2, 1))
    if width < WIDTH:  # fewer cost ticks on a phone: their labels must not touch
        step = nice_step(max(max(tokens) - min(tokens), max(tokens) * 0.2, 1) * 2)
    low_x = step * math.floor(min(tokens) * 0.98 / step)
    top_x = step * math.ceil(max(tokens) * 1.02 / step)
    if top_x <= low_x:
        top_x = low_x + step
    highest = max([max(entry["mean"][measure], *entry["ci95"].get(measure, (0, 0))) for entry in configs] or [0])
    top_y, step_y, places = quality_axis(min(max(highest, 0.0), 1.0))
    left, right, top, bottom = LEFT, width - RIGHT + (12 if width < WIDTH else 0), TOP, height - BOTTOM
    inner_w, inner_h = right - left, bottom - top

    def x(value):
        return round(left + inner_w * (value - low_x) / (top_x - low_x), 2)

    def y(value):
        return round(top + inner_h * (1 - min(max(value, 0.0), top_y) / top_y), 2)

    points = []
    for number, entry in enumerate(configs, 1):
        mean = entry["mean"][measure]
        low, high = entry["ci95"].get(measure, (mean, mean))
        points.append({
            "name": entry["name"], "number": str(number), "baseline": entry["name"] == data["baseline"],
            "cx": x(entry["indexed_tokens"]), "cy": y(mean), "y1": y(low), "y2": y(high),
            "text": (f"{entry['name']}: {integer(entry['indexed_tokens'])} tokens indexados, {measure} "
                     f"{decimal(mean)} (IC 95 % {span(low, high)})"),
        })
    frame = {"left": left, "right": right, "top": top, "bottom": bottom}
    bounds = (left + 2, 2, width - 2, bottom - 2)  # inside the SVG, above the cost axis and its ticks
    numbered = not _place_labels(points, bounds, "name", 14)
    if numbered:
        _place_labels(points, bounds, "number", None)
    values = "; ".join(point["text"] for point in points)
    return {
        "measure": measure,
        "width": width, "height": height,
        "title": f"{measure} frente a tokens indexados",
        "description": (f"{measure} (eje vertical, de 0 a {decimal(top_y, places)}) frente a los tokens indexados (eje "
                        f"horizontal, de {integer(int(low_x))} a {integer(int(top_x))}), un punto por configuración con "
                        f"su intervalo del 95 %: {values}."),
        "x_label": "Tokens indexados (el coste del panel de chunking)" if width >= WIDTH else "Tokens indexados",
        "y_label": measure,
        "x_ticks": [{"at": x(value), "text": integer(int(value)) if float(value).is_integer() else decimal(value, 1)}
                    for value in _ticks(low_x, top_x, step)],
        "y_ticks": [{"at": y(value), "text": decimal(value, places)} for value in _ticks(0, top_y, step_y)],
        "y_top": top_y,
        "frame": frame,
        "points": points,
        "legend": [{"number": point["number"], "name": point["name"]} for point in points] if numbered else [],
        "legend_title": "Configuraciones del gráfico, por número" if numbered else "",
    }


def label_box(x: float, y: float, text: str) -> tuple:
    """``(left, top, right, bottom)``: a generous box around ``text`` written from ``x`` with its baseline at ``y``."""
    return (x - 1, y - FONT, x + len(text) * FONT * GLYPH + 1, y + 0.3 * FONT)


def _place_labels(points: list, bounds: tuple, key: str, reach) -> bool:
    """Gives each point a label (its ``key``) whose box touches no other label, no point and stays in ``bounds``:
    the nearest free place around its point, tried at growing distances, joined to it by a leader line when far.
    With ``reach`` (the farthest a label may sit), says False as soon as one does not fit so near."""

    def overlaps(a, b):
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    def inside(box):
        return bounds[0] <= box[0] and box[2] <= bounds[2] and bounds[1] <= box[1] and box[3] <= bounds[3]

    taken = [(p["cx"] - 5, p["cy"] - 5, p["cx"] + 5, p["cy"] + 5) for p in points]
    limit = reach if reach is not None else 2 * (bounds[2] - bounds[0])
    for point in sorted(points, key=lambda point: (point["cx"], point["cy"])):
        text = point[key]
        wide = len(text) * FONT * GLYPH
        found = None
        distance = 8
        while found is None and distance <= limit:
            for dx, dy in ((1, 0), (-1, 0), (0, -1), (0, 1), (1, -1), (-1, -1), (1, 1), (-1, 1)):
                cx, cy = point["cx"] + dx * distance, point["cy"] + dy * distance
                lx = cx if dx > 0 else cx - wide if dx < 0 else cx - wide / 2
                ly = cy + 0.35 * FONT if dy == 0 else cy + FONT if dy > 0 else cy
                box = label_box(lx, ly, text)
                if inside(box) and not any(overlaps(box, other) for other in taken):
                    found = (round(lx, 2), round(ly, 2), box)
                    break
            distance += 4
        if found is None:
            return False
        point["label"] = text
        point["label_x"], point["label_y"] = found[0], found[1]
        point["label_anchor"] = "start"
        box = found[2]
        near = (min(max(point["cx"], box[0]), box[2]), min(max(point["cy"], box[1]), box[3]))
        point["leader"] = [point["cx"], point["cy"], round(near[0], 2), round(near[1], 2)] \
            if math.dist(near, (point["cx"], point["cy"])) > 14 else None
        taken.append(box)
    return True


def _ticks(low: float, top: float, step: float) -> list:
    return [round(low + step * i, 12) for i in range(int(round((top - low) / step)) + 1)]


# --- the reading ---------------------------------------------------------------------------------------


NAMED = 4
"""A visible line of the reading names at most this many configurations; beyond, it counts them (the table marks
each one with ▲ or ▼, and the disclosure lists them)."""


def reading(data: dict, measure: str) -> dict:
    """What the sweep shows for ``measure``, in Spanish, verdict first (:func:`raglab_core.readings.reading`),
    agreeing with every number: how many configurations the data tell from the baseline, above or below it
    (Holm-corrected), the others being indistinguishable from it; the groups in short lines; in the disclosure,
    what the extra tokens bought (one line per configuration), what the ceiling says, and that BM25 is what is
    measured. It names no winner: each configuration is compared only with the baseline.
    """
    configs = {entry["name"]: entry for entry in data["configs"]}
    base_name = data["baseline"]
    base = configs[base_name]
    warning = "Atención: hay avisos sobre estos datos (arriba); léelos antes que estas cifras." if data["warnings"] else ""
    lines, details, caveats = [], [], []
    alpha = decimal(ALPHA, 2)
    if len(configs) == 1:
        verdict = (f"Con una sola configuración no hay comparación: {base_name} da {measure} "
                   f"{decimal(base['mean'][measure])} (IC 95 % {interval_text(base, measure)}).")
    else:
        same, above, below = [], [], []
        for pair in data["comparisons"]:
            result = pair["metrics"][measure]
            if result["p_value_adjusted"] >= ALPHA:
                same.append(pair["candidate"])
            elif result["mean_delta"] > 0:
                above.append(pair["candidate"])
            else:
                below.append(pair["candidate"])
        total = len(data["comparisons"])
        holm = f"p ajustado por Holm sobre las {total} comparaciones"
        if not above and not below:
            verdict = (f"En {measure}, estos datos no distinguen de la línea base {base_name} ninguna de las "
                       f"{count(total, 'configuración comparada', 'configuraciones comparadas')} "
                       f"(p ajustado por Holm ≥ {alpha}).")
        else:
            sides = [(len(group), side) for group, side in ((above, "encima"), (below, "debajo")) if group]
            said = f"{count(sides[0][0], 'configuración queda', 'configuraciones quedan')} por {sides[0][1]}"
            if len(sides) == 2:
                said += f" y {integer(sides[1][0])} por {sides[1][1]}"
            rest = f"; {integer(len(same))} no se {'distingue' if len(same) == 1 else 'distinguen'} de ella" if same else ""
            verdict = (f"En {measure}, frente a la línea base {base_name}: {said} (p ajustado por Holm < {alpha})"
                       f"{rest}.")
        for group, what, mark in ((above, "Por encima de la línea base", "▲"), (below, "Por debajo de la línea base", "▼"),
                                  (same, "Sin diferencia que estos datos distingan", "")):
            if group and len(group) > NAMED:  # the verdict counts them; the table marks them; here, their names
                details.append(f"{what}: {spanish_list(group)}.")
            elif group and (group is not same or above or below):
                lines.append(f"{what}: {_named(group, mark)}.")
        if same:
            caveats.append(
                f"En {measure}, que estos datos no distingan una configuración de la línea base {base_name} "
                f"({holm} ≥ {alpha}) no demuestra que rindan igual."
            )
        if above or below:
            caveats.append(f"Por encima o por debajo: {holm} < {alpha}.")
        if len(above) > 1:
            caveats.append("Cada configuración se compara solo con la línea base: que varias la superen no dice cuál "
                           "de ellas es mejor.")
        bought, line = _tokens_bought(data, configs, base, measure)
        lines.append(line)
        details += bought
    caveats.append(_ceiling_text(configs, measure))
    caveats.append(
        "Lo que se mide es BM25 sobre los chunks: un recuperador denso puede ordenar las configuraciones de otra "
        "manera. Para medir el tuyo, descarga los chunks (JSONL), recupéralos con tu modelo y trae el run (TREC, "
        "con el chunk_id como documento) en «Trae tus chunks y tu run»: se mide con las mismas medidas."
    )
    return reading_parts(verdict, lines, details, caveats, warning)


def _named(names, mark: str = "") -> str:
    """Configurations as a line names them: up to :data:`NAMED`, else their count (and the table's ``mark``).

    >>> _named(["128:0", "256:0"]), _named(["1:0", "2:0", "3:0", "4:0", "5:0"], "▲")
    ('128:0 y 256:0', '5 configuraciones (▲ en la tabla)')
    """
    if len(names) <= NAMED:
        return spanish_list(names)
    return f"{len(names)} configuraciones" + (f" ({mark} en la tabla)" if mark else "")


def _of(names) -> str:
    return spanish_list(names)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def interval_text(entry, measure) -> str:
    return span(*entry["ci95"][measure])


def _tokens_bought(data, configs, base, measure) -> tuple:
    """What the configurations that index more tokens than the baseline got for them, in ``measure``: one line
    per configuration (the disclosure's) and one visible line that counts them."""
    tokens = base["indexed_tokens"]
    if tokens is None:
        return [], ""
    pairs = {pair["candidate"]: pair["metrics"][measure] for pair in data["comparisons"]}
    more = [name for name, entry in configs.items() if entry["indexed_tokens"] is not None and entry["indexed_tokens"] > tokens]
    if not more:
        return [], f"Ninguna configuración indexa más tokens que la línea base ({integer(tokens)})."
    said = []
    told = 0
    for name in more:
        entry, result = configs[name], pairs[name]
        extra = entry["indexed_tokens"] / tokens - 1
        delta = cell(result["mean_delta"], signed=True)["text"]
        low, high = (cell(end, signed=True)["text"] for end in result["ci95"])
        distinguished = result["p_value_adjusted"] < ALPHA
        told += distinguished
        said.append(f"{name}: un {percent(extra)} más de tokens ({integer(entry['indexed_tokens'])}), {measure} "
                    f"{delta} (IC 95 % de la diferencia {low} a {high}): "
                    f"{'distinguible' if distinguished else 'no distinguible del azar'}.")
    line = (f"Frente a la línea base ({integer(tokens)} tokens indexados), "
            f"{count(len(more), 'configuración indexa', 'configuraciones indexan')} más; "
            f"{'ninguna' if not told else integer(told)} con una diferencia en {measure} que estos datos distingan.")
    return said, line


def _ceiling_text(configs, measure) -> str:
    ceilings = {name: entry["mean"].get("Ceiling") for name, entry in configs.items()}
    if any(value is None for value in ceilings.values()):
        return ""
    low = min(ceilings, key=lambda name: (ceilings[name], name))
    high = max(ceilings, key=lambda name: (ceilings[name], name))
    text = (
        "El techo (Ceiling) es la parte de la evidencia que cabe entera en algún chunk, antes de recuperar nada: "
        "ningún recuperador, ni BM25 ni uno denso, puede pasar de él en EvidenceRecall con esos chunks. "
    )
    if ceilings[low] == ceilings[high]:
        text += f"Aquí vale {decimal(ceilings[low])} en todas las configuraciones."
    else:
        text += f"Aquí va de {decimal(ceilings[low])} ({low}) a {decimal(ceilings[high])} ({high})."
    if measure.startswith("EvidenceRecall"):
        gaps = {name: ceilings[name] - configs[name]["mean"][measure] for name in configs}
        widest = max(gaps, key=lambda name: (gaps[name], name))
        text += (f" La mayor distancia entre el techo y {measure} es la de {widest} ({decimal(gaps[widest])}): esa "
                 "parte la pierde la recuperación, no el corte.")
    return text


# --- one query in detail ---------------------------------------------------------------------------------


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` with its whitespace runs made single spaces, cut at ``limit`` characters with «…».

    >>> excerpt("uno\\n\\ndos   tres", 8)
    'uno dos…'
    """
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit].rstrip() + "…"


def query_detail(session, qid: str, picked: list) -> dict:
    """Query ``qid``'s evidence spans and, for each configuration of ``picked`` (indices), its top k chunks (k the
    largest cut the measures read, at most :data:`DETAIL_DEPTH`), each saying which spans it holds whole and which
    it cuts."""
    prepared = session.prepared
    spans = prepared.evidence.get(qid, [])
    documents = prepared.documents
    items = []
    for number, (doc, start, end) in enumerate(spans, 1):
        items.append({"number": number, "doc": doc, "start": start, "end": end,
                      "label": f"Evidencia {number} · «{doc}», caracteres {integer(start)}–{integer(end)}",
                      "text": excerpt(documents[doc].body[start:end], 600)})
    judged = (session.qrels or {}).get(qid, {})
    columns = []
    for index in picked:
        result = session.results[index]
        ranked = list(result.chunk_run.get(qid, {}).items())[:min(max(session.settings.cuts), DETAIL_DEPTH)]
        chunks = []
        for rank, (chunk_id, score) in enumerate(ranked, 1):
            doc, start, end = session.chunk_characters(index, chunk_id)
            whole = [n for n, span in enumerate(spans, 1) if held(span, (doc, start, end))]
            cut = [n for n, (d, s, e) in enumerate(spans, 1)
                   if d == doc and s < end and start < e and n not in whole]
            said = []
            if whole:
                said.append(f"contiene entera{'s las evidencias' if len(whole) > 1 else ' la evidencia'} "
                            f"{spanish_list(map(str, whole))}")
            if cut:
                said.append(f"corta {'las evidencias' if len(cut) > 1 else 'la evidencia'} {spanish_list(map(str, cut))}")
            grade = judged.get(doc)
            if grade is not None and grade > 0:
                said.append(f"su documento es relevante en los qrels (grado {grade})")
            chunks.append({
                "rank": rank, "id": chunk_id, "score": decimal(score, 3),
                "whole": whole, "cut": cut, "relevant": grade if grade is not None and grade > 0 else None,
                "relation": "; ".join(said) if said else
                "ni toca ninguna evidencia ni su documento es relevante en los qrels" if session.qrels is not None
                else "no toca ninguna evidencia",
                "text": excerpt(documents[doc].body[start:end]),
            })
        ceiling = result.per_query.get(qid, {}).get("Ceiling")
        columns.append({
            "name": result.name,
            "caption": f"{result.name}: sus {len(chunks)} primeros chunks" if len(chunks) != 1 else
            f"{result.name}: su primer chunk",
            "empty": "" if chunks else "BM25 no recupera ningún chunk para esta consulta.",
            "ceiling": "" if ceiling is None else f"Techo de esta consulta: {decimal(ceiling)}.",
            "chunks": chunks,
        })
    return {
        "qid": qid,
        "title": f"Consulta «{qid}»",
        "query": prepared.queries[qid],
        "spans": items,
        "no_spans": "" if items or session.qrels is not None and not session.spans else
        "Esta consulta no tiene evidencia: las medidas de evidencia la dejan fuera.",
        "judged": _judged_text(session.qrels, judged),
        "columns": columns,
    }


def _judged_text(qrels, judged: dict) -> str:
    """What the qrels (when given) say of a query: its relevant documents, with their grades."""
    if qrels is None:
        return ""
    relevant = [f"«{doc}» (grado {grade})" for doc, grade in judged.items() if grade > 0]
    if not relevant:
        return "Los qrels no dan ningún documento relevante para esta consulta."
    shown = relevant[:DETAIL_DEPTH]
    more = f" y {integer(len(relevant) - len(shown))} más" if len(relevant) > len(shown) else ""
    return f"Relevantes según los qrels: {', '.join(shown)}{more}."


def page_settings() -> dict:
    """What the page's «Tu corpus» script and template need before Python runs (the build's ``lab_config``)."""
    return {
        "sweep": DEFAULT_SWEEP,
        "k1": _plain(K1),
        "b": _plain(B),
        "at": ",".join(map(str, CUTS)),
        "limits": LIMITS,
        "words": corpus_panel_words(),
    }
