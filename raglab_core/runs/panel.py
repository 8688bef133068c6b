"""The «Tus datos» panel's view: your own qrels and runs, evaluated, as the panel shows them and explains them in Spanish.

:func:`panel_view` turns the report of the panel's session
(:class:`raglab_core.runs.session.EvaluationSession`, which reads the files in the page's worker; the same
numbers as ``python -m raglab_core eval``) into what the panel shows: a summary, the means, a sortable
per-query table, the comparison with its reading, and the per-query deltas to chart. :func:`pair_view`
compares any two runs in detail, :func:`query_detail` shows one query's first documents in each run and
:func:`per_query_csv` is the per-query download. Every number arrives both raw (for sorting and for
tests) and as Spanish text.
"""

import csv
import io

from ..errors import LabError, message
from ..formatting import DASH, NBSP, count, decimal, integer, spanish_list
from ..notices import from_json
from ..readings import reading
from ..words import UNJUDGED_LABEL, data_panel_words, permutations_text as _permutations
from .cells import cell as _cell, interval as _interval
from .fused import LETTERS, fused_description, page_options
from .fusion import MIN_RUNS as FUSION_MIN_RUNS
from .inputs import MAX_RUNS
from .lettered import adjusted_text, lettered_view, oriented_pair, warned_names
from .measures import DEFAULT_MEASURES, parse_measures  # noqa: F401 (parse_measures: the doctest)
from .report import ALPHA, build_report, warned_runs  # noqa: F401 (build_report: the doctest)
from .sanity import missing_note
from .statistics import EXACT_LIMIT, p_text, p_value_text

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
    unjudged) and its text, ``relevance`` (:func:`grade_marks`: ``"relevant"``,
    ``"not-relevant"`` or ``"unjudged"``, which the page shows by shape and weight, not colour alone) with
    its ``strength`` (0 to 3, 3 the qrels' highest grade), and ``shared``: whether every other run's first
    documents hold it too (with two runs or more). Each column's ``value``/``value_text``: the run's value
    of the first measure for this query (as in the per-query table), which its header shows.
    ``many``: three runs or more, lettered, which the page lays side by side in a row that scrolls.

    >>> from raglab_core.runs.evaluation import RunEvaluator
    >>> qrels = {"q1": {"a": 2, "b": 0}}
    >>> runs = []
    >>> for name, scores in (("x", {"a": 2.0, "c": 1.0}), ("y", {"c": 3.0, "b": 1.0})):
    ...     evaluator = RunEvaluator(qrels, parse_measures("P@1"), keep=10)
    ...     evaluator.add("q1", scores)
    ...     runs.append((name, evaluator.result()))
    >>> detail = query_detail("q1", qrels, runs)
    >>> [(d["id"], d["grade_text"], d["shared"], d["relevance"]) for d in detail["runs"][1]["documents"]]
    [('c', 'sin juicio', True, 'unjudged'), ('b', 'grado 0', False, 'not-relevant')]
    >>> [(column["value_text"], detail["runs"][0]["documents"][0]["strength"]) for column in detail["runs"]]
    [('P@1 1,000', 3), ('P@1 0,000', 3)]
    >>> query_detail("q1", qrels, runs * 2)["note"]
    'Marcados con «en todos»: 1 documento que los 4 runs ponen entre sus 10 primeros.'
    """
    judged = qrels.get(qid, {}) if qrels else {}
    top_grade = max((grade for grades in (qrels or {}).values() for grade in grades.values()), default=1)
    label = runs[0][1].names[0] if runs else ""
    tops = [(result.top.get(qid) or [])[:DETAIL_DEPTH] for _, result in runs]
    many = len(runs) > 2
    shared = set.intersection(*(set(top) for top in tops)) if len(tops) >= 2 else set()
    columns = []
    for index, ((name, result), top) in enumerate(zip(runs, tops)):
        documents = []
        for rank, docid in enumerate(top or (), start=1):
            grade = judged.get(docid)
            documents.append({
                "rank": rank,
                "id": docid,
                "grade": grade,
                "grade_text": UNJUDGED_LABEL if grade is None else f"grado {grade}",
                **grade_marks(grade, top_grade),
                "shared": docid in shared,
            })
        value = (result.per_query.get(qid) or [None])[0]
        letter = f"{LETTERS[index]} · " if many else ""
        columns.append({
            "name": name,
            "letter": LETTERS[index] if many else "",
            "caption": f"{letter}«{name}»: sus {len(documents)} primeros" if len(documents) != 1
            else f"{letter}«{name}»: su primer documento",
            "value": value,
            "value_text": f"{label} {_cell(value)['text']}",
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
        "legend": grade_legend(top_grade, label),
        "runs": columns,
    }


def grade_marks(grade, top_grade: int) -> dict:
    """How the query detail marks a document's grade: ``relevance`` and ``strength``, which the page draws as
    a badge whose outline, fill and weight grow with the grade (so the grade reads in greyscale too).

    Relevant is a grade of 1 or more, as the measures count it by default; ``strength`` is 3 for the qrels'
    highest grade (a filled badge), 1 or 2 below it (outlined, thin or thick), 0 when not relevant.

    >>> [grade_marks(g, 3)["strength"] for g in (None, 0, 1, 2, 3)]
    [0, 0, 1, 2, 3]
    >>> [grade_marks(g, 1)["relevance"] for g in (None, -1, 1)], [grade_marks(g, 4)["strength"] for g in (1, 2, 3, 4)]
    (['unjudged', 'not-relevant', 'relevant'], [1, 1, 2, 3])
    """
    if grade is None:
        return {"relevance": "unjudged", "strength": 0}
    if grade <= 0:
        return {"relevance": "not-relevant", "strength": 0}
    strength = 3 if grade >= top_grade else min(2, -(-2 * grade // top_grade))
    return {"relevance": "relevant", "strength": strength}


def grade_legend(top_grade: int, label: str) -> str:
    """The query detail's key to its marks, and to the number in each column's header.

    >>> grade_legend(3, "nDCG@10")
    'Grado en recuadro: relevante (grado 1 o más); relleno: el grado más alto de estos qrels (3); en gris, sin recuadro: grado 0 o sin juicio. Junto a cada run, su nDCG@10 en esta consulta.'
    """
    return (
        f"Grado en recuadro: relevante (grado 1 o más); relleno: el grado más alto de estos qrels ({top_grade}); "
        f"en gris, sin recuadro: grado 0 o sin juicio. Junto a cada run, su {label} en esta consulta."
    )


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
            {"code": warning["code"], "text": from_json(warning).render("es")} for warning in report["warnings"]
        ],
        "complete_note": " ".join(
            missing_note(from_json(warning)) for warning in report["warnings"] if warning["code"] == "queries_missing_from_run"
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
    the default measures, how many per-query rows it draws, its sentences (``{name}``: a file's name; and why
    «Fusionar» cannot be used with :data:`MAX_RUNS` runs, the session's refusal), how
    many runs it takes, the fewest a fusion combines, and the fusion's methods and normalisations (the template's
    options)."""
    return {
        "default_measures": DEFAULT_MEASURES,
        "rows_shown": ROWS_SHOWN,
        "words": {**data_panel_words(), "fuse_too_many": message("fusion_no_room", max=MAX_RUNS)},
        "max_runs": MAX_RUNS,
        "fusion_min_runs": FUSION_MIN_RUNS,
        "fusion": page_options(),
    }


def _summary(report, runs) -> str:
    queries = max(run["queries"] for run in report["runs"])
    text = (
        f"{count(queries, 'consulta evaluada', 'consultas evaluadas')} con {spanish_list(report['measures'])} "
        f"({TIES_TEXT[report['ties']]})."
    )
    text += gain_note(report["measures"])
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


def gain_note(labels) -> str:
    """Which gain each nDCG of the panel uses, beside the lab's, whose nDCG@k shares the name (issue 49): the
    panel's ``nDCG@k`` is trec_eval's (linear gain), the lab's is ``nDCG(dcg='exp-log2')@k`` (2^g − 1).

    >>> gain_note(["nDCG@10", "R@100"])
    " nDCG@10 usa aquí la ganancia lineal g, como trec_eval; el nDCG@k del laboratorio usa 2^g − 1 (aquí, nDCG(dcg='exp-log2')@10)."
    >>> gain_note(["nDCG(dcg='exp-log2')@10"]), gain_note(["P@5"])
    (" nDCG(dcg='exp-log2')@10 usa la ganancia 2^g − 1, la del nDCG@k del laboratorio.", '')
    """
    ndcg = [label for label in labels if label.startswith("nDCG")]
    linear = [label for label in ndcg if "exp-log2" not in label]
    exponential = [label for label in ndcg if "exp-log2" in label]
    said = []
    if linear:
        cut = linear[0].partition("@")[2]
        said.append(f"{spanish_list(linear)} {'usa' if len(linear) == 1 else 'usan'} aquí la ganancia lineal g, como "
                    f"trec_eval; el nDCG@k del laboratorio usa 2^g − 1 (aquí, nDCG(dcg='exp-log2'){'@' + cut if cut else ''}).")
    if exponential and not linear:
        said.append(f"{spanish_list(exponential)} {'usa' if len(exponential) == 1 else 'usan'} la ganancia 2^g − 1, la "
                    "del nDCG@k del laboratorio.")
    return "".join(f" {sentence}" for sentence in said)


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


def _reading(data, labels, warned=(), pairs=1) -> dict:
    """What the comparison shows and what it does not, in plain Spanish, verdict first
    (:func:`raglab_core.readings.reading`).

    The runs some warning concerns, when there are any, come above the verdict: the conclusion rests on those
    data. The verdict reads the first measure: a difference the paired test (Holm-adjusted with more than two
    runs) tells from chance is given its direction; any other is said to be indistinguishable, never a win. A
    mean difference that rounds to 0,000 is said to be so, with no direction: no run "beats" the other by
    0,000. Then the counts and the measures grouped by p; in the disclosure, what p and the confidence interval
    (the spread the choice of queries leaves) mean, and what the test does not cover.
    """
    a, b, n = f"«{data['baseline']}»", f"«{data['candidate']}»", data["queries"]
    label = labels[0]
    first = data["metrics"][label]
    delta = first["mean_delta"]
    key, p = ("p_value", "p") if pairs == 1 else ("p_value_adjusted", "p ajustado")
    alpha = decimal(ALPHA, 2)
    holm = f" (Holm, sobre los {pairs} pares)" if pairs > 1 else ""
    warning = ""
    if warned:
        runs = spanish_list([f"«{name}»" for name in warned])
        warning = (
            f"Atención: esta comparación se apoya en datos con avisos (arriba) sobre {runs}; revísalos antes de "
            "sacar conclusiones."
        )
    counts = (
        f"{count(first['wins'], 'ganada', 'ganadas')}, {count(first['ties'], 'empatada', 'empatadas')} y "
        f"{count(first['losses'], 'perdida', 'perdidas')} por {b}"
    )
    paired = f"En {count(n, 'consulta emparejada', 'consultas emparejadas')}"
    shown_p = p_text(first[key], first["p_value_exact"])
    p_named = "p ajustado por Holm" if pairs > 1 else "p"
    p_said = f"{p_named} {shown_p}" if shown_p.startswith("<") else f"{p_named} = {shown_p}"
    lines = []
    if first["wins"] == first["losses"] == 0:
        verdict = f"{paired}, {b} y {a} obtienen el mismo {label} en cada consulta."
    elif decimal(abs(delta)) == decimal(0.0):
        verdict = (
            f"{paired}, la diferencia media de {label} entre {b} y {a} redondea a {decimal(0.0)}: "
            "ninguno queda por encima del otro en media."
        )
        lines.append(f"{label}: {counts}.")
    elif first[key] < ALPHA:
        direction = "queda por encima de" if delta > 0 else "queda por debajo de"
        verdict = (
            f"{b} {direction} {a} en {label} por {decimal(abs(delta))} de media ({p_said}): una diferencia "
            "que estos datos distinguen del azar."
        )
        lines.append(f"{label}, {paired.lower()}: {counts}.")
    else:
        verdict = (
            f"Estos datos no distinguen {b} de {a} en {label}: la diferencia media, "
            f"{_cell(delta, signed=True)['text']}, da {p_said}."
        )
        lines.append(f"{label}, {paired.lower()}: {counts}.")
    low = [name for name in labels if data["metrics"][name][key] < ALPHA]
    high = [name for name in labels if data["metrics"][name][key] >= ALPHA]
    if len(labels) > 1:
        if low:
            lines.append(f"Para {spanish_list(low)}, {p} < {alpha}{holm}.")
        if high:
            lines.append(f"Para {spanish_list(high)}, {p} ≥ {alpha}{holm if not low else ''}.")
    caveats = []
    if low:
        caveats.append(
            f"{_cap(p)} < {alpha}: una diferencia de ese tamaño sería rara si los dos sistemas fueran intercambiables "
            "en estas consultas."
        )
    if high:
        caveats.append(
            f"{_cap(p)} ≥ {alpha}: estos datos no permiten distinguir la diferencia del azar, lo que no demuestra que "
            "los sistemas sean iguales."
        )
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
        caveats.append(
            f"El intervalo de confianza del 95 % de la diferencia media de {label}, {ends}, recoge cuánto "
            f"cambiaría esa media al remuestrear estas {integer(n)} consultas; {side}. No cubre otras "
            "colecciones ni otros juicios."
        )
    several = f", no corrige por mirar {len(labels)} medidas a la vez," if len(labels) > 1 else ""
    caveats.append(
        f"La prueba no mide cuánto importa la diferencia a tus usuarios{several} y solo habla de estas consultas "
        "y estos juicios: con qrels incompletos, los documentos sin juzgar cuentan como no relevantes "
        "(Judged@k dice qué parte de los primeros k está juzgada)."
    )
    return reading(verdict, lines, caveats=caveats, warning=warning)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
