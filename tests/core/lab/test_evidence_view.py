"""The chunking panel's evidence (DESIGN §4.5) in the view and the built page, and issue 23's four fixes."""

import re
from fractions import Fraction

import pytest

from raglab_core import chunking, compute, evidence

NBSP = "\u00a0"


def view_of(scenario, **controls):
    return compute({"scenario": scenario, **controls})


def plain(text):
    return text.replace(NBSP, " ")


def reading(view):
    return plain(view["outputs"]["chunking_reading"]["text"])


# --- outputs ------------------------------------------------------------------------------


def test_default_outputs_are_the_brute_forced_fractions(scenario):
    out = view_of(scenario)["outputs"]
    # Windows [0,512) [448,960) [896,1200); starts 0–1100: held 0–412, 448–860, 896–1100.
    assert out["containment"]["value"] == float(Fraction(413 + 413 + 205, 1101))
    assert plain(out["containment"]["text"]) == "93,6 %"
    assert out["windows_holding"]["value"] == float(Fraction(413 + 413 + 205, 1101))
    touching = sum(
        sum(1 for a, b in ((0, 512), (448, 960), (896, 1200)) if a < p + 100 and p < b) for p in range(1101)
    )
    assert out["windows_touching"]["value"] == touching / 1101
    assert out["min_overlap_whole"]["value"] == 99 and out["min_overlap_whole"]["raw"] == "99"
    assert out["indexed_tokens_whole"]["value"] == chunking.footprint(10_000, 1200, 512, 99).indexed_tokens == 13_980_000


def test_longer_than_the_document_is_undefined_without_an_error(scenario):
    view = view_of(scenario, evidencia="2000", edited=["evidencia"])
    assert view["controls"]["evidencia"] == {"value": 2000, "error": None}
    out = view["outputs"]
    for name in ("containment", "windows_holding", "windows_touching", "min_overlap_whole", "indexed_tokens_whole"):
        assert out[name]["raw"] == "" and out[name]["text"] == "—"
    assert plain(out["containment"]["note"]) == (
        "Una evidencia de 2000 tokens no cabe en un documento de 1200 tokens: no hay ninguna posición donde medirla."
    )
    assert "no hay ninguna posición donde medirla" in reading(view)
    assert view["chunk_windows"]["evidence"] is None and view["controls"]["posicion"]["value"] is None


@pytest.mark.parametrize("raw", ["0", "-3", "1,5", "x", ""])
def test_a_bad_length_is_an_error_on_its_field_only(scenario, raw):
    view = view_of(scenario, evidencia=raw, edited=["evidencia"])
    assert view["controls"]["evidencia"]["error"]
    assert [name for name, c in view["controls"].items() if c["error"]] == ["evidencia"]
    assert view["outputs"]["containment"]["note"] == "Sin calcular: corrige la longitud de la evidencia."
    assert view["outputs"]["chunks"]["raw"] == "30000"  # the footprint does not depend on it
    assert "Sin lectura de la evidencia hasta que corrijas la longitud de la evidencia." in reading(view)


# --- the reading -----------------------------------------------------------------------------


def test_reading_defaults(scenario):
    text = reading(view_of(scenario))
    assert (
        "Con chunks de 512 y solape 64, una evidencia de 100 tokens queda entera en al menos un chunk en el 93,6 % "
        "de las posiciones. Con un solape de 99 o más quedaría siempre entera, y el índice pasaría de 13 280 000 a "
        "13 980 000 tokens." in text
    )
    assert "De media la tocan 1,30 chunks" in text
    assert "la geometría del corte, no calidad ni relevancia" in text and "qrels reales" in text


def test_reading_at_the_minimum_overlap_says_100_percent(scenario):
    view = view_of(scenario, solape="99", evidencia="100")
    assert plain(view["outputs"]["containment"]["text"]) == "100 %" and view["outputs"]["containment"]["raw"] == "1.0"
    text = reading(view)
    assert "una evidencia de 100 tokens queda siempre entera en al menos un chunk. Un solape de 99 es justo el mínimo para eso." in text
    more = reading(view_of(scenario, solape="200", evidencia="100"))
    assert "queda siempre entera en al menos un chunk. Bastaría un solape de 99: el índice pasaría de" in more


def test_reading_longer_than_the_chunk_says_0_percent(scenario):
    view = view_of(scenario, evidencia="600")
    assert plain(view["outputs"]["containment"]["text"]) == "0 %" and view["outputs"]["containment"]["value"] == 0
    assert view["outputs"]["min_overlap_whole"]["raw"] == "" and view["outputs"]["indexed_tokens_whole"]["raw"] == ""
    assert plain(view["outputs"]["min_overlap_whole"]["note"]) == (
        "Ningún solape basta: la evidencia (600 tokens) es más larga que el chunk (512 tokens)."
    )
    assert (
        "Una evidencia de 600 tokens no cabe entera en ningún chunk de 512 tokens, con ningún solape: queda siempre "
        "partida. Para que quepa hace falta un chunk de al menos 600 tokens." in reading(view)
    )


def test_reading_one_window_per_document(scenario):
    view = view_of(scenario, tokens_doc="300")
    assert view["outputs"]["min_overlap_whole"]["value"] == 0 and view["outputs"]["containment"]["value"] == 1
    text = reading(view)
    assert "Por eso una evidencia de 100 tokens queda siempre entera, sin necesidad de solape." in text
    assert "Cada posición de la evidencia la toca un solo chunk: ocupa un solo puesto del top-k." in text


def test_reading_singular_and_plural(scenario):
    one = reading(view_of(scenario, tokens_doc="300", evidencia="1"))
    assert "una evidencia de 1 token queda siempre entera" in one
    text = reading(view_of(scenario, tokens_doc="1", chunk="1", solape="0", evidencia="1"))
    assert "Cada documento (1 token) cabe en un solo chunk de 1 token" in text and "1 tokens" not in text
    assert "Por eso una evidencia de 1 token queda siempre entera" in text
    span = view_of(scenario, posicion="470")["chunk_windows"]["text"]
    assert "la contiene entera la ventana 2, y la toca sin contenerla 1 más." in span
    many = view_of(scenario, chunk="100", solape="90", evidencia="20", posicion="35")["chunk_windows"]["text"]
    # Windows start every 10: [0,100) … ; the span [35, 55) is held by windows 1–4 and touched by window 5 and 6.
    assert "La evidencia ocupa los tokens 35–55: la contienen entera las ventanas 1 a 4, y la tocan sin contenerla 2 más." in many


def test_share_never_rounds_to_the_extremes():
    # 99 995 of 100 000 positions held: 99,995 % would print as 100,0 %.
    assert plain(evidence_share(Fraction(99_995, 100_000))) == "más del 99,9 %"
    assert plain(evidence_share(Fraction(1, 100_000))) == "menos del 0,1 %"


def evidence_share(fraction):
    from raglab_core.lab.chunking_reading import share

    return share(fraction)


# --- the strip ----------------------------------------------------------------------------


def test_default_span_crosses_the_first_border_and_no_window_holds_it(scenario):
    w = view_of(scenario)["chunk_windows"]
    assert (w["evidence"]["start"], w["evidence"]["end"]) == (430, 530)
    assert [(win["holds"], win["touches"]) for win in w["shown"]] == [(False, True), (False, True), (False, False)]
    assert "La evidencia ocupa los tokens 430–530: ninguna ventana la contiene entera; queda partida entre las ventanas 1 y 2." in w["text"]


@pytest.mark.parametrize("position", [0, 1, 412, 413, 447, 448, 860, 896, 1100, 5000])
def test_marks_match_a_brute_force(scenario, position):
    view = view_of(scenario, posicion=str(position))
    w, control = view["chunk_windows"], view["controls"]["posicion"]
    start = min(position, 1100)
    assert control["value"] == w["evidence"]["start"] == start and control["set"] and control["max"] == 1100
    for win in w["shown"]:
        holds = win["start"] <= start and start + 100 <= win["end"]
        touches = win["start"] < start + 100 and start < win["end"]
        assert (win["holds"], win["touches"]) == (holds, touches and not holds)
    assert control["valuetext"] == f"tokens {start}–{start + 100}, " + (
        "entera en un chunk" if any(win["holds"] for win in w["shown"]) else "partida"
    )


def test_an_unreadable_position_follows_the_border(scenario):
    view = view_of(scenario, posicion="abc")
    assert view["controls"]["posicion"]["error"] is None and view["controls"]["posicion"]["value"] == 430


# --- issue 23, item 5 -------------------------------------------------------------------------


def test_the_zoom_says_which_tokens_it_draws(scenario):
    w = view_of(scenario, docs="10000000", tokens_doc="10000000", chunk="1", solape="0")["chunk_windows"]
    # stretched to twice the evidence (100 tokens), so that the span can still be moved (QA: at 100 it
    # filled the strip and its slider ran from 0 to 0)
    assert not w["whole"] and w["span"] == 200
    assert w["evidence"]["max"] == 100
    assert plain(w["scale"]) == "Se dibujan los tokens 0–200 de 10 000 000: las 12 primeras ventanas."
    assert plain(w["scale"]) in plain(w["text"])
    assert w["doc_legend"] == "los tokens 0–200 del documento"
    short = view_of(scenario, docs="10000000", tokens_doc="10000000", chunk="1", solape="0", evidencia="1")["chunk_windows"]
    assert plain(short["scale"]) == "Se dibujan los tokens 0–12 de 10 000 000: las 12 primeras ventanas."
    whole = view_of(scenario)["chunk_windows"]
    assert whole["scale"] == "Se dibujan los 1200 tokens del documento." and whole["doc_legend"] == "el documento"


def test_the_duplication_says_its_base_and_times_indexed(scenario):
    out = view_of(scenario)["outputs"]
    assert plain(out["duplicated_tokens"]["text"]) == "1 280 000 tokens duplicados, sobre un corpus de 12 000 000: se indexa 1,11 veces"
    assert "1 280 000 (el 10,7 % del corpus, no del índice) son copias creadas por el solape, así que el corpus se indexa 1,11 veces." in reading(view_of(scenario))
    stride_one = view_of(scenario, chunk="100", solape="99")["outputs"]
    assert plain(stride_one["duplication"]["text"]) == "9075,0 %"  # (1100 · 99) / 1200
    assert plain(stride_one["duplicated_tokens"]["text"]).endswith("se indexa 91,75 veces")
    assert plain(view_of(scenario, solape="0")["outputs"]["duplicated_tokens"]["text"]).endswith("el corpus se indexa una sola vez")


def test_built_page_shows_the_evidence_and_the_fixes(site_dir):
    html = (site_dir / "index.html").read_text("utf-8")
    for name, raw in (("containment", "0.9364214350590372"), ("min_overlap_whole", "99"), ("indexed_tokens_whole", "13980000")):
        assert re.search(rf'data-output="{name}" data-value="{raw}"', html), name
    assert re.search(r'data-output="windows_holding" data-value="0\.93\d+"', html)
    assert re.search(r'data-output="windows_touching" data-value="1\.29\d+"', html)
    assert re.search(r'<rect class="window-evidence" data-evidence data-start="430" data-end="530"', html)
    body = html[html.index("<body"):]  # the inline stylesheet's selectors name these attributes too
    assert body.count('data-touches="true"') == 2 and 'data-holds="true"' not in body
    assert re.search(r'name="posicion" type="range" min="0"\s+max="1100" step="1" value="430"', html)
    assert 'aria-valuetext="tokens 430–530, partida"' in html
    assert 'name="evidencia"' in html and 'value="100"' in html
    assert 'data-define="duplication"' in html and 'data-define="containment"' in html
    assert "Se dibujan los 1200 tokens del documento." in html
    assert "Chunks estimados" in html
    method = html[html.index('id="metodo-chunking"'):]
    assert "estimación" in method[:4000] and "exacta" in method[:4000]
    # The strip's sizes come from the view: the template holds no copy of them.
    assert 'viewBox="0 0 600 ' in html


def test_no_copy_of_the_strip_geometry_outside_python():
    from tests.conftest import ROOT

    lab_js = (ROOT / "site_src" / "static" / "lab.js").read_text("utf-8")
    macros = (ROOT / "site_src" / "templates" / "macros.html.j2").read_text("utf-8")
    strip = macros[macros.index("{% macro window_strip"):]
    strip = strip[: strip.index("{% endmacro %}")]
    assert not re.search(r"\b(?:600|24|10|9|17)\b", strip)
    windows_js = lab_js[lab_js.index("function applyWindows"):]
    windows_js = windows_js[: windows_js.index("\n  }\n")]
    assert not re.search(r"\b(?:600|24|10|9|17)\b", windows_js)


def test_the_scenario_explains_its_evidence_default(scenario):
    from raglab_core import LabError
    from raglab_core.lab.scenario import validate_scenario

    assert scenario["defaults"]["evidencia"] == 100 and "100 tokens" in scenario["notes"]["evidencia"]
    with pytest.raises(LabError) as caught:
        validate_scenario({**scenario, "notes": {"evidencia": 3}})
    assert caught.value.field == "scenario.notes"


def test_the_huge_strip_reads_as_spanish(scenario):
    """QA on ?docs=10000000&tokens_doc=10000000&chunk=1&solape=0: «que empiezan cada 1» and «queda partida
    entre las ventanas 1 a 100» read badly."""
    text = plain(view_of(scenario, docs="10000000", tokens_doc="10000000", chunk="1", solape="0")["chunk_windows"]["text"])
    assert "ventanas de hasta 1 token que empiezan en cada token: 0–1, 1–2," in text
    assert text.endswith("ninguna ventana la contiene entera; queda repartida en 100 ventanas, de la 1 a la 100.")
