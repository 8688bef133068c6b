"""Issue 49, item 2: every «Tus datos» reading opens with its verdict and stays within its visible budget with 12
runs, and no caveat of the readings before it is lost (they move into «Cómo leer esto»)."""

import pytest

from raglab_core.runs.lettered import lettered_view
from raglab_core.runs.measures import DEFAULT_MEASURES
from raglab_core.runs.panel import pair_view
from raglab_core.runs.report import beaten
from tests.support.readings import BUDGET, opens_with_its_verdict, visible

LABELS = DEFAULT_MEASURES.split()
NAMES = [f"sistema-{i:02d}.trec" for i in range(12)]


def report_of(shape: str, runs: int = 12, warned: bool = False) -> dict:
    """A report as :func:`~raglab_core.runs.report.build_report` shapes it, for ``runs`` synthetic runs.
    ``ladder``: the means fall run by run and, in the first measure, runs five apart or more differ (p = 0,001;
    in the others, 2 to 6 apart); ``plateau``: the first eight are tied at the top and each beats the last four
    (the first 8 − m, in measure m); ``flat``: nothing differs. Every measure reads differently."""
    means = [0.9 - 0.05 * i for i in range(runs)]
    comparisons, overlap = [], []

    def apart(i, j, m):
        return {"ladder": j - i >= (5, 2, 3, 4, 6, 2)[m], "plateau": i < 8 - m <= j, "flat": False}[shape]

    for i in range(runs):
        for j in range(i + 1, runs):
            delta = means[j] - means[i]
            metrics = {label: {"mean_delta": delta, "ci95": [delta - 0.02, delta + 0.02], "wins": 10 if delta > 0 else 4,
                               "ties": 2, "losses": 4 if delta > 0 else 10, "p_value": 0.0003 if apart(i, j, m) else 0.2,
                               "p_value_adjusted": 0.001 if apart(i, j, m) else 0.4,
                               "p_value_exact": False, "p_value_se": 0.0001,
                               "per_query": {f"q{k}": delta for k in range(16)}}
                       for m, label in enumerate(LABELS)}
            comparisons.append({"baseline": NAMES[i], "candidate": NAMES[j], "queries": 16, "permutations": 10_000,
                                "resamples": 1000, "metrics": metrics})
            overlap.append({"baseline": NAMES[i], "candidate": NAMES[j], "jaccard@10": 0.3 + 0.01 * (i + j),
                            "rbo": 0.5})
    warnings = [{"code": "run_low_judged", "run": NAMES[i]} for i in range(runs)] if warned else []
    return {"runs": [{"name": NAMES[i], "queries": 16, "mean": dict.fromkeys(LABELS, means[i])} for i in range(runs)],
            "measures": LABELS, "comparisons": comparisons, "overlap": overlap, "warnings": warnings}


def readings_of(report) -> dict:
    warned = [warning["run"] for warning in report["warnings"]]
    many = lettered_view(report, warned, "«RRF(a, b)» fusiona a y b con RRF (k = 60). Si pruebas varias fusiones y "
                                         "te quedas con la que más puntúa en estos qrels, eliges sobre las mismas "
                                         "consultas que la evalúan, y su cifra sale optimista.")
    return {"many": many["reading"], "overlap": many["overlap_reading"], "pair": pair_view(report, 0, 11),
            "near": pair_view(report, 1, 0)}


@pytest.mark.parametrize("shape", ["ladder", "plateau", "flat"])
@pytest.mark.parametrize("warned", [False, True])
def test_every_reading_opens_with_its_verdict_within_its_visible_budget_with_12_runs(shape, warned):
    readings = readings_of(report_of(shape, warned=warned))
    for name, parts in readings.items():
        parts = parts["reading"] if name in ("pair", "near") else parts
        words, _ = visible(parts)
        assert opens_with_its_verdict(parts), (name, parts["verdict"])
        assert words <= BUDGET, (name, words, parts)
        assert parts["caveats"], name  # the caveats are there, behind «Cómo leer esto»
    # «Todos los pares» never lists 8 to 11 runs per measure where it shows: it counts them.
    many = readings["many"]
    for line in many["lines"]:
        assert sum(name in line for name in NAMES) <= 1 and line.split(": ", 1)[-1].count(",") <= 1, line


def test_the_verdicts_call_no_winner_the_holm_adjusted_p_does_not_support():
    ladder = readings_of(report_of("ladder"))
    # a to e are tied at the top; a beats runs f to l (7 of 11): no one is «el mejor».
    assert ladder["many"]["verdict"] == ("En nDCG@10, ningún otro run supera a los runs a, b, c, d y e: con estos "
                                         "datos están estadísticamente empatados entre sí (p ajustado por Holm ≥ 0,05).")
    assert ladder["many"]["lines"][0] == "R@100 y Judged@10: a supera a 10 de 11; sin superar, 2 runs."
    flat = readings_of(report_of("flat"))["many"]
    assert flat["verdict"].startswith("En nDCG@10, ninguna de las 66 diferencias entre los 12 runs llega a p ajustado")
    plateau = readings_of(report_of("plateau"))["many"]
    assert plateau["verdict"] == ("En nDCG@10, ningún otro run supera a los runs a, b, c, d, e, f, g y h: con estos "
                                  "datos están estadísticamente empatados entre sí (p ajustado por Holm ≥ 0,05).")
    assert plateau["lines"][0] == "R@100: a supera a 5 de 11; sin superar, 7 runs."
    # A pair the adjusted p cannot tell apart gets no direction; one it can, gets its direction and its p.
    near = readings_of(report_of("ladder"))["near"]["reading"]
    assert near["verdict"].startswith("Estos datos no distinguen «sistema-00.trec» de «sistema-01.trec» en nDCG@10")
    assert "por encima" not in near["verdict"] and "p ajustado por Holm = 0,4000" in near["verdict"]
    far = readings_of(report_of("ladder"))["pair"]["reading"]
    assert far["verdict"].startswith("«sistema-11.trec» queda por debajo de «sistema-00.trec» en nDCG@10 por 0,550 de "
                                     "media (p ajustado por Holm = 0,0010): una diferencia")


# Today's caveats (before issue 49), one fragment of each, as the readings said them: each is still said.
PAIR_CAVEATS = [
    "Atención: esta comparación se apoya en datos con avisos (arriba) sobre",
    "una diferencia de ese tamaño sería rara si los dos sistemas fueran intercambiables en estas consultas",
    "estos datos no permiten distinguir la diferencia del azar, lo que no demuestra que los sistemas sean iguales",
    "recoge cuánto cambiaría esa media al remuestrear estas 16 consultas",
    "No cubre otras colecciones ni otros juicios.",
    "La prueba no mide cuánto importa la diferencia a tus usuarios, no corrige por mirar 6 medidas a la vez,",
    "los documentos sin juzgar cuentan como no relevantes (Judged@k dice qué parte de los primeros k está juzgada)",
]
MANY_CAVEATS = [
    "Atención: estas comparaciones se apoyan en datos con avisos (arriba) sobre",
    "«Estadísticamente empatados» no demuestra que sean iguales: estas consultas no bastan para separarlos.",
    "Holm no corrige por mirar 6 medidas a la vez.",
    "ajustado por Holm sobre los 66 pares, queda por debajo de 0,05",
    "Si pruebas varias fusiones y te quedas con la que más puntúa en estos qrels",
    "pero esa ventaja no se distingue del azar",
]
OVERLAP_CAVEATS = [
    "Son medias por consulta y no miran los juicios",
    "con qrels escasos esa diferencia no se ve en las medidas, porque los documentos sin juzgar cuentan como no relevantes",
]


def test_no_caveat_of_the_readings_is_lost():
    ladder, plateau = readings_of(report_of("ladder", warned=True)), readings_of(report_of("plateau"))
    pair_text = ladder["pair"]["reading"]["text"] + " " + ladder["near"]["reading"]["text"]
    for caveat in PAIR_CAVEATS:
        assert caveat in pair_text, caveat
    for caveat in MANY_CAVEATS:
        assert caveat in ladder["many"]["text"] + " " + plateau["many"]["text"], caveat
    for caveat in OVERLAP_CAVEATS:
        assert caveat in ladder["overlap"]["text"], caveat
    # The caveats are behind the disclosure, not in the visible part.
    assert not any("no demuestra" in line for line in ladder["many"]["lines"] + [ladder["many"]["verdict"]])
    assert beaten(report_of("ladder"))["nDCG@10"][0] == list(range(5, 12))


def test_a_reading_is_written_as_the_page_builds_it():
    from raglab_core.readings import reading
    from tests.support.readings import reading_html

    assert reading_html(reading("A < B.", ["x"], caveats=["y"])) == (
        '<p class="reading-verdict"><strong>A &lt; B.</strong></p><ul class="reading-lines"><li>x</li></ul>'
        '<details class="reading-more"><summary>Cómo leer esto</summary><p>y</p></details>')
