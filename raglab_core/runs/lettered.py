"""Three runs or more in the «Tus datos» panel: ranx's lettered table, every pair, and what they say.

From :func:`raglab_core.runs.report.build_report`'s report (every pair of runs
compared, Holm-adjusted over the pairs of each measure) this builds what the
panel shows beyond the two-run comparison:

* each run's mean marked with the letters of the runs it beats, as ranx's
  tables mark them (:func:`raglab_core.runs.report.beaten`: a higher mean and
  a Holm-adjusted p-value below :data:`~raglab_core.runs.report.ALPHA`);
* the pairs table: per pair and measure, the mean difference and the adjusted
  p-value, and the pair's Jaccard@10 and RBO (:mod:`raglab_core.runs.overlap`);
* the reading (:func:`many_reading`), which names the runs no other run beats
  and says when they are statistically tied, never calling one «el mejor»;
* :func:`oriented_pair`: any pair as a two-run comparison, either run the baseline.

Runs are lettered a, b, c… in input order (:data:`~raglab_core.runs.fused.LETTERS`).
"""

from ..formatting import decimal, integer, spanish_list
from ..readings import reading
from .cells import cell
from .fused import LETTERS
from .report import ALPHA, RUN_WARNINGS, beaten
from .statistics import p_text


def pair_index(count: int, i: int, j: int) -> int:
    """The position of pair ``(i, j)``, ``i < j``, in the report's ``comparisons`` (i < j, in input order).

    >>> [pair_index(4, i, j) for i in range(4) for j in range(i + 1, 4)]
    [0, 1, 2, 3, 4, 5]
    """
    return i * (2 * count - i - 1) // 2 + (j - i - 1)


def adjusted_text(p: float, permutations: int, pairs: int, exact: bool = True) -> str:
    """A Holm-adjusted p-value in Spanish. Of exact p-values: four decimals (``< 0,0001`` below). Of estimated
    ones (never 0: :func:`~raglab_core.runs.statistics.randomization_test`): four decimals, or as many more as it
    needs not to read 0 (:func:`~raglab_core.runs.statistics.p_text`), as the raw p-value reads.
    ``permutations`` and ``pairs`` are kept for the callers; the value alone decides.

    >>> adjusted_text(0.0123, 10_000, 3), adjusted_text(6 / 10_001, 10_000, 6, exact=False)
    ('0,0123', '0,0006')
    >>> adjusted_text(1 / 100_001, 100_000, 1, exact=False), adjusted_text(2e-6, 10_000, 6)
    ('0,00001', '< 0,0001')
    """
    return p_text(p, exact)


def oriented_pair(report, baseline: int, candidate: int) -> dict:
    """The comparison of runs ``candidate`` and ``baseline`` (positions, in either order), shaped as the report's
    two-run ``"comparison"``: the report's pair as it is, or turned round (differences negated, wins and
    losses swapped, the same p-values).

    >>> report = {"runs": [{}, {}], "comparisons": [{"baseline": "x", "candidate": "y", "metrics": {"P@1": {
    ...     "mean_delta": 0.5, "ci95": [0.25, 0.75], "wins": 2, "ties": 1, "losses": 0, "p_value": 0.5,
    ...     "p_value_adjusted": 0.5, "p_value_exact": True, "p_value_se": 0.0, "per_query": {"q1": 0.5}}}}]}
    >>> flipped = oriented_pair(report, 1, 0)
    >>> flipped["baseline"], flipped["metrics"]["P@1"]["mean_delta"], flipped["metrics"]["P@1"]["ci95"]
    ('y', -0.5, [-0.75, -0.25])
    >>> flipped["metrics"]["P@1"]["wins"], flipped["metrics"]["P@1"]["losses"], flipped["metrics"]["P@1"]["per_query"]
    (0, 2, {'q1': -0.5})
    """
    first, second = sorted((baseline, candidate))
    pair = report["comparisons"][pair_index(len(report["runs"]), first, second)]
    if baseline < candidate:
        return pair
    metrics = {}
    for name, result in pair["metrics"].items():
        low, high = result["ci95"]
        metrics[name] = {
            **result,
            "mean_delta": 0.0 - result["mean_delta"],  # 0.0 - 0.0 is 0.0, not -0.0
            "ci95": [0.0 - high, 0.0 - low],
            "wins": result["losses"],
            "losses": result["wins"],
            "per_query": {qid: 0.0 - delta for qid, delta in result["per_query"].items()},
        }
    return {**pair, "baseline": pair["candidate"], "candidate": pair["baseline"], "metrics": metrics}


def run_label(report, index: int) -> str:
    """A run as the readings name it: ``«run-bm25.txt» (a)``."""
    return f"«{report['runs'][index]['name']}» ({LETTERS[index]})"


def lettered_view(report, warned=(), fusion_note: str = "") -> dict:
    """What the panel shows for three runs or more: ``means`` (per run: its ``letter`` and, per measure, the
    letters it ``beats`` with their ``beats_text``), the captions, the ``pairs`` table's rows, the
    readings, and the runs as the pair pickers offer them (``options``)."""
    labels, runs = report["measures"], report["runs"]
    count = len(runs)
    pairs = count * (count - 1) // 2
    wins = beaten(report)
    alpha = decimal(ALPHA, 2)
    means = [
        {
            "letter": LETTERS[index],
            "cells": [
                {"beats": "".join(LETTERS[other] for other in wins[label][index]),
                 "beats_text": _beats_text([LETTERS[other] for other in wins[label][index]])}
                for label in labels
            ],
        }
        for index in range(count)
    ]
    rows = []
    index_pairs = [(i, j) for i in range(count) for j in range(i + 1, count)]
    for (i, j), pair, overlap in zip(index_pairs, report["comparisons"], report["overlap"]):
        cells = []
        for label in labels:
            result = pair["metrics"][label]
            cells.append({
                "measure": label,
                "mean_delta": result["mean_delta"],
                "p_value": result["p_value"],
                "p_adjusted": result["p_value_adjusted"],
                "delta_text": cell(result["mean_delta"], signed=True)["text"],
                "p_text": "p aj. " + adjusted_text(result["p_value_adjusted"], pair["permutations"], pairs,
                                                   result["p_value_exact"]),
                "significant": result["p_value_adjusted"] < ALPHA and result["mean_delta"] != 0,
            })
        rows.append({
            "pair": f"{LETTERS[i]}-{LETTERS[j]}",
            "label": f"{LETTERS[j]} − {LETTERS[i]}",
            "names": f"«{runs[j]['name']}» − «{runs[i]['name']}»",
            "cells": cells,
            "jaccard": cell(overlap["jaccard@10"]),
            "rbo": cell(overlap["rbo"]),
        })
    return {
        "means_caption": (
            f"Medias por run; en superíndice, como en ranx, las letras de los runs a los que supera (media mayor y "
            f"p < {alpha} tras ajustar por Holm sobre los {pairs} pares)"
        ),
        "reading": many_reading(report, wins, warned, fusion_note),
        "pairs_caption": (
            f"Los {pairs} pares: diferencia media («b − a», la media de b menos la de a) y p ajustado por Holm; en "
            f"negrita, p ajustado < {alpha}. Jaccard@10 y RBO comparan los rankings sin mirar los juicios"
        ),
        "pairs_columns": ["Par", *labels, "Jaccard@10", "RBO"],
        "pairs": rows,
        "overlap_reading": overlap_reading(report, wins),
        "options": [f"{LETTERS[index]} · {run['name']}" for index, run in enumerate(runs)],
        "pair_hint": pair_options_note(count),
        "letters": list(LETTERS[:count]),
        "means": means,
    }


def _beats_text(letters) -> str:
    """``'supera al run a'``, ``'supera a los runs a y c'``; empty for none.

    >>> _beats_text(["a"]), _beats_text(["a", "c"]), _beats_text([])
    ('supera al run a', 'supera a los runs a y c', '')
    """
    if not letters:
        return ""
    return f"supera al run {letters[0]}" if len(letters) == 1 else f"supera a los runs {spanish_list(letters)}"


def _undominated(report, wins, label) -> list:
    """The runs no other run beats in ``label``, highest mean first."""
    count = len(report["runs"])
    beaten_by = {j for i in range(count) for j in wins[label][i]}
    top = [i for i in range(count) if i not in beaten_by]
    return sorted(top, key=lambda i: (report["runs"][i]["mean"][label] is None, -(report["runs"][i]["mean"][label] or 0.0), i))


def _highest(report, label, among) -> list:
    """Those of ``among`` whose mean is the highest of them (more than one when they share it)."""
    means = [report["runs"][i]["mean"][label] for i in among]
    known = [mean for mean in means if mean is not None]
    if not known:
        return []
    return [i for i, mean in zip(among, means) if mean == max(known)]


def _mean(report, label, index) -> str:
    return cell(report["runs"][index]["mean"][label])["text"]


def leading_reading(report, wins, label) -> str:
    """What the first measure says about every run: who no other run beats, and who is tied with whom.

    >>> runs = [{"name": n, "mean": {"P@1": m}} for n, m in (("x", 0.2), ("y", 0.6), ("z", 0.5))]
    >>> print(leading_reading({"runs": runs, "measures": ["P@1"]}, {"P@1": [[], [0], []]}, "P@1"))
    En P@1, ningún otro run supera a «y» (b) ni a «z» (c): con estos datos están estadísticamente empatados entre sí (ninguna diferencia entre ellos llega a p ajustado < 0,05). «y» (b) tiene la media más alta (0,600), pero esa ventaja no se distingue del azar. «x» (a) queda por debajo de al menos otro run.
    """
    count = len(report["runs"])
    pairs = count * (count - 1) // 2
    alpha = decimal(ALPHA, 2)
    top = _undominated(report, wins, label)
    rest = [i for i in range(count) if i not in top]
    named = [run_label(report, i) for i in top]
    if len(top) == count:
        parts = [
            f"En {label}, ninguna de las {pairs} diferencias entre los {count} runs llega a p ajustado < {alpha}: con "
            f"estos datos, los {count} runs están estadísticamente empatados."
        ]
    elif len(top) == 1:
        leader = top[0]
        tied = [i for i in range(count) if i != leader and i not in wins[label][leader]]
        if not tied:
            return (
                f"En {label}, {named[0]} supera a cada uno de los otros {count - 1} runs: su media, "
                f"{_mean(report, label, leader)}, es mayor que la de cada uno, y cada diferencia da p ajustado < {alpha}."
            )
        others = spanish_list([run_label(report, i) for i in tied])
        parts = [
            f"En {label}, ningún otro run supera a {named[0]}, que tiene la media más alta "
            f"({_mean(report, label, leader)}); pero tampoco él supera a {others}: con estos datos queda "
            f"estadísticamente empatado con {'él' if len(tied) == 1 else 'ellos'}."
        ]
    else:
        parts = [
            f"En {label}, ningún otro run supera a {_nor(named)}: con estos datos están estadísticamente empatados "
            f"entre sí (ninguna diferencia entre ellos llega a p ajustado < {alpha})."
        ]
    if len(top) > 1:
        highest = _highest(report, label, top)
        if len(highest) == 1:
            parts.append(
                f"{run_label(report, highest[0])} tiene la media más alta ({_mean(report, label, highest[0])}), pero esa "
                "ventaja no se distingue del azar."
            )
        elif highest:
            parts.append(
                f"{spanish_list([run_label(report, i) for i in highest])} comparten la media más alta "
                f"({_mean(report, label, highest[0])})."
            )
    if rest and len(top) < count:
        below = spanish_list([run_label(report, i) for i in rest])
        parts.append(f"{below} {'queda' if len(rest) == 1 else 'quedan cada uno'} por debajo de al menos otro run.")
    return " ".join(parts)


def _nor(named) -> str:
    """``«a», a «b» ni a «c»``: the objects of «ningún otro run supera a …», joined with «ni a».

    >>> _nor(["x", "y", "z"]), _nor(["x", "y"])
    ('x, a y ni a z', 'x ni a y')
    """
    return named[0] if len(named) == 1 else ", a ".join(named[:-1]) + " ni a " + named[-1]


def other_reading(report, wins, label) -> str:
    """One more measure, in one sentence: the runs no other run beats.

    >>> runs = [{"name": n, "mean": {"R@1": m}} for n, m in (("x", 0.2), ("y", 0.6), ("z", 0.5))]
    >>> report = {"runs": runs}
    >>> other_reading(report, {"R@1": [[], [0, 2], []]}, "R@1")
    'En R@1, «y» (b) supera a cada uno de los demás.'
    >>> other_reading(report, {"R@1": [[], [], []]}, "R@1")
    'En R@1, ninguna diferencia llega a p ajustado < 0,05: los 3 runs están estadísticamente empatados.'
    """
    count = len(report["runs"])
    top = _undominated(report, wins, label)
    if len(top) == count:
        return (f"En {label}, ninguna diferencia llega a p ajustado < {decimal(ALPHA, 2)}: los {count} runs están "
                "estadísticamente empatados.")
    if len(top) == 1:
        leader = top[0]
        if len(wins[label][leader]) == count - 1:
            return f"En {label}, {run_label(report, leader)} supera a cada uno de los demás."
        return f"En {label}, ningún otro run supera a {run_label(report, leader)}, aunque él tampoco supera a todos."
    return (f"En {label}, ningún otro run supera a {_nor([run_label(report, i) for i in top])}, estadísticamente "
            "empatados entre sí.")


def _runs_text(report, indices, most: int = 3) -> str:
    """Runs as a visible line names them: by name and letter up to ``most``, else their count and letters.

    >>> runs = {"runs": [{"name": f"r{i}"} for i in range(12)]}
    >>> _runs_text(runs, [1, 2]), _runs_text(runs, [0, 3, 4, 7])
    ('«r1» (b) y «r2» (c)', 'los runs a, d, e y h')
    """
    if len(indices) <= most:
        return spanish_list([run_label(report, i) for i in indices])
    return f"los runs {spanish_list([LETTERS[i] for i in indices])}"


def leading_verdict(report, wins, label) -> str:
    """The reading's verdict: ONE sentence on the first measure, which never names more than three runs.

    >>> runs = [{"name": n, "mean": {"P@1": m}} for n, m in (("x", 0.2), ("y", 0.6), ("z", 0.5))]
    >>> print(leading_verdict({"runs": runs}, {"P@1": [[], [0], []]}, "P@1"))
    En P@1, ningún otro run supera a «y» (b) ni a «z» (c): con estos datos están estadísticamente empatados entre sí (p ajustado por Holm ≥ 0,05).
    """
    count = len(report["runs"])
    pairs = count * (count - 1) // 2
    alpha = decimal(ALPHA, 2)
    top = _undominated(report, wins, label)
    if len(top) == count:
        return (
            f"En {label}, ninguna de las {pairs} diferencias entre los {count} runs llega a p ajustado < {alpha}: con "
            f"estos datos, los {count} runs están estadísticamente empatados."
        )
    if len(top) == 1:
        leader = top[0]
        tied = [i for i in range(count) if i != leader and i not in wins[label][leader]]
        if not tied:
            return (f"En {label}, {run_label(report, leader)} supera a cada uno de los otros {count - 1} runs "
                    f"(p ajustado por Holm < {alpha} en cada par).")
        return (f"En {label}, ningún otro run supera a {run_label(report, leader)}, que supera a "
                f"{len(wins[label][leader])} de los otros {count - 1}; del resto no se distingue.")
    named = _nor([run_label(report, i) for i in top]) if len(top) <= 3 else _runs_text(report, top)
    return (f"En {label}, ningún otro run supera a {named}: con estos datos están estadísticamente empatados entre "
            f"sí (p ajustado por Holm ≥ {alpha}).")


def measure_line(report, wins, label) -> str:
    """One more measure, in a short line that names at most one run (its letter) and counts the rest.

    >>> runs = [{"name": n, "mean": {"R@1": m}} for n, m in (("x", 0.2), ("y", 0.6), ("z", 0.5))]
    >>> report = {"runs": runs}
    >>> measure_line(report, {"R@1": [[], [0, 2], []]}, "R@1"), measure_line(report, {"R@1": [[], [0], []]}, "R@1")
    ('R@1: b supera a los otros 2.', 'R@1: b supera a 1 de 2; sin superar, 2 runs.')
    >>> measure_line(report, {"R@1": [[], [], []]}, "R@1")
    'R@1: los 3 runs, estadísticamente empatados.'
    """
    return f"{label}: {_measure_said(report, wins, label)}"


def _measure_said(report, wins, label) -> str:
    count = len(report["runs"])
    top = _undominated(report, wins, label)
    if len(top) == count:
        return f"los {count} runs, estadísticamente empatados."
    most = max(top, key=lambda i: (len(wins[label][i]), report["runs"][i]["mean"][label] or 0.0, -i))
    beaten_count = len(wins[label][most])
    if len(top) == 1 and beaten_count == count - 1:
        return f"{LETTERS[most]} supera a los otros {count - 1}."
    if len(top) == 1:
        return f"{LETTERS[most]} supera a {beaten_count} de {count - 1} y nadie lo supera."
    return f"{LETTERS[most]} supera a {beaten_count} de {count - 1}; sin superar, {len(top)} runs."


def measure_lines(report, wins, labels) -> list:
    """:func:`measure_line` for ``labels``, the measures that read alike in one line.

    >>> runs = [{"name": n, "mean": {"R@1": m, "P@1": m}} for n, m in (("x", 0.2), ("y", 0.6), ("z", 0.5))]
    >>> measure_lines({"runs": runs}, {"R@1": [[], [0, 2], []], "P@1": [[], [0, 2], []]}, ["R@1", "P@1"])
    ['R@1 y P@1: b supera a los otros 2.']
    """
    said = {}
    for label in labels:
        said.setdefault(_measure_said(report, wins, label), []).append(label)
    return [f"{spanish_list(names)}: {text}" for text, names in said.items()]


def many_reading(report, wins, warned=(), fusion_note: str = "") -> dict:
    """The reading of three runs or more, in plain Spanish, verdict first (:func:`raglab_core.readings.reading`;
    never a verdict beyond what the tests say).

    Above the verdict, the runs some warning concerns, when there are any (counted when more than three). The
    verdict reads the first measure (:func:`leading_verdict`); one short line per other measure follows
    (:func:`measure_line`). In the disclosure: every measure in full (:func:`leading_reading`,
    :func:`other_reading`), what «supera» and «empatados» mean here and what Holm's correction covers, and the
    fused run's note (``fusion_note``).
    """
    labels = report["measures"]
    count = len(report["runs"])
    pairs = count * (count - 1) // 2
    warning = ""
    if warned:
        runs = spanish_list([f"«{name}»" for name in warned]) if len(warned) <= 3 else \
            f"{len(warned)} de los {count} runs"
        warning = (
            f"Atención: estas comparaciones se apoyan en datos con avisos (arriba) sobre {runs}; revísalos antes de "
            "sacar conclusiones."
        )
    caveats = [leading_reading(report, wins, labels[0])]
    caveats += [other_reading(report, wins, label) for label in labels[1:]]
    several = f" Holm no corrige por mirar {len(labels)} medidas a la vez." if len(labels) > 1 else ""
    caveats.append(
        f"Aquí un run supera a otro cuando su media es mayor y el p-valor de la prueba de aleatorización pareada, "
        f"ajustado por Holm sobre los {pairs} pares, queda por debajo de {decimal(ALPHA, 2)}; las letras junto a cada "
        "media dicen a cuáles. «Estadísticamente empatados» no demuestra que sean iguales: estas consultas no bastan "
        f"para separarlos.{several}"
    )
    if fusion_note:
        caveats.append(fusion_note)
    return reading(leading_verdict(report, wins, labels[0]),
                   measure_lines(report, wins, labels[1:]), caveats=caveats, warning=warning)


def warned_names(report) -> list:
    """The runs some warning about one run concerns, in input order."""
    concerned = {warning["run"] for warning in report["warnings"] if warning["code"] in RUN_WARNINGS}
    return [run["name"] for run in report["runs"] if run["name"] in concerned]


def overlap_reading(report, wins) -> dict:
    """What Jaccard@10 and RBO say, verdict first: two runs the first measure cannot tell apart whose top 10s
    differ most, or else the pairs whose top 10s differ most and least; then Judged@10, when it is measured;
    what the two overlaps are, in the disclosure."""
    labels, count = report["measures"], len(report["runs"])
    first = labels[0]
    caveats = [
        "Jaccard@10 divide los documentos que dos runs comparten entre sus 10 primeros por todos los distintos que "
        "traen entre los dos (0: ninguno en común; 1: los mismos); RBO mide cuánto coinciden los dos rankings, "
        "pesando más los primeros puestos (p = 0,9, sobre los 100 primeros). Son medias por consulta y no miran los "
        "juicios: dos runs con la misma media pueden devolver documentos muy distintos, y con qrels escasos esa "
        "diferencia no se ve en las medidas, porque los documentos sin juzgar cuentan como no relevantes."
    ]
    index_pairs = [(i, j) for i in range(count) for j in range(i + 1, count)]
    known = [(overlap["jaccard@10"], i, j) for (i, j), overlap in zip(index_pairs, report["overlap"])
             if overlap["jaccard@10"] is not None]
    tied = [(jaccard, i, j) for jaccard, i, j in known if j not in wins[first][i] and i not in wins[first][j]]
    verdict = ""
    if tied:
        jaccard, i, j = min(tied)
        if jaccard < 0.5:
            verdict = (
                f"{run_label(report, i)} y {run_label(report, j)} no se distinguen en {first}, pero su "
                f"Jaccard@10 es {decimal(jaccard)}: sus 10 primeros coinciden poco."
            )
    if not verdict and known:
        low, high = min(known), max(known, key=lambda item: (item[0], -item[1], -item[2]))
        verdict = (
            f"Los 10 primeros que menos coinciden son los de {LETTERS[low[1]]} y {LETTERS[low[2]]} (Jaccard@10 "
            f"{decimal(low[0])}); los que más, los de {LETTERS[high[1]]} y {LETTERS[high[2]]} ({decimal(high[0])})."
        )
    if not verdict:
        verdict = "Jaccard@10 y RBO, en la tabla de pares, dicen cuánto se parecen los rankings de cada par."
    lines = []
    judged = "Judged@10"
    if judged in labels:
        values = [(run["mean"][judged], index) for index, run in enumerate(report["runs"]) if run["mean"][judged] is not None]
        if values:
            low, high = min(values), max(values)
            said = "Judged@10, en las medias, dice qué parte de los 10 primeros de cada run está juzgada: "
            if decimal(low[0]) == decimal(high[0]):  # a range from a value to itself says nothing
                said += f"vale {decimal(low[0])} en {'los dos runs' if len(values) == 2 else f'los {integer(len(values))} runs'}."
            else:
                said += f"va de {decimal(low[0])} ({LETTERS[low[1]]}) a {decimal(high[0])} ({LETTERS[high[1]]})."
            lines.append(said)
    else:
        lines.append("Añade Judged@10 a las medidas para ver qué parte de los 10 primeros de cada run está juzgada.")
    return reading(verdict, lines, caveats=caveats)


def pair_options_note(count: int) -> str:
    """The pickers' hint: which pair the detail below compares.

    >>> pair_options_note(5)
    'Elige dos de los 5 runs: debajo, su comparación en detalle y la diferencia por consulta.'
    """
    return f"Elige dos de los {integer(count)} runs: debajo, su comparación en detalle y la diferencia por consulta."
