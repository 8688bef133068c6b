"""compute(): the lab view, the teaching scenario, and per-field errors."""

import re
from math import log2

import pytest

from raglab_core import LabError, compute, metrics
from raglab_core.lab import form
from raglab_core.lab import check_defaults

NBSP = "\u00a0"


def view_of(scenario, **controls):
    return compute({"scenario": scenario, **controls})


def values(view):
    return {name: out["value"] for name, out in view["outputs"].items() if out["raw"] != ""}


def test_default_view_hand_computed(scenario):
    view = view_of(scenario)
    # Reranking the first 6 by reranker score: d04(3) d02(2) d06(2) d03(1) d01(0) | d05(0) d07(3)…
    assert [row["id"] for row in view["ranking"][:7]] == ["d04", "d02", "d06", "d03", "d01", "d05", "d07"]
    out = view["outputs"]
    assert out["precision"]["value"] == 3 / 5 and out["precision"]["text"] == "0,600"
    # 8 judged documents reach grade 2: d02 d04 d06 d07 d10 ranked, d13 d14 d15 never retrieved.
    assert view["controls"]["total"] == {"value": 8, "error": None, "set": False, "raised_from": None}
    assert out["recall"]["value"] == 3 / 8
    assert out["mrr"]["value"] == 1 / 1
    dcg = 7 / log2(2) + 3 / log2(3) + 3 / log2(4) + 1 / log2(5) + 0 / log2(6)
    # IDCG over all 17 judgments: grades 3 (d04, d07, d13), 2 (d02 …) sorted, cut at 5.
    idcg = 7 / log2(2) + 7 / log2(3) + 7 / log2(4) + 3 / log2(5) + 3 / log2(6)
    assert out["ndcg"]["value"] == pytest.approx(dcg / idcg, abs=1e-15)
    assert out["relevant_in_k"]["text"] == "3 de 5"
    # 10 000 documents of 1200 tokens, chunks of 512 with 64 overlap: 3 windows, 1328 tokens each.
    assert out["chunks"]["value"] == 30000 and out["chunks"]["text"] == f"30{NBSP}000"
    assert out["indexed_tokens"]["value"] == 13_280_000
    assert out["duplicated_tokens"]["value"] == 1_280_000
    assert out["duplication"]["value"] == 1_280_000 / 12_000_000
    assert out["duplication"]["text"] == f"10,7{NBSP}%"
    assert out["stride"]["value"] == 448
    assert all(control["error"] is None for control in view["controls"].values())


def test_scenario_teaches_what_the_issue_asks(scenario):
    d = scenario["defaults"]
    grades = [doc["grade"] for doc in scenario["documents"]]
    first_stage = view_of(scenario, rerank=0)["outputs"]["ndcg"]["value"]
    reranked = view_of(scenario)["outputs"]["ndcg"]["value"]
    assert reranked > first_stage  # reranking the default prefix improves nDCG
    assert any(g == 3 for g in grades[d["rerank"]:])  # a highly relevant document below the prefix
    unretrieved = [doc["grade"] for doc in scenario["unretrieved"]]
    assert sum(1 for g in unretrieved if g >= d["umbral"]) == 3  # relevant documents the first stage missed
    assert 3 in unretrieved and 0 in unretrieved  # one of them very relevant; one judged non-relevant
    assert "total" not in d  # the total follows the threshold
    whole = view_of(scenario, rerank=len(grades), k=len(grades))["outputs"]["ndcg"]["value"]
    assert whole < 1  # reranking everything cannot rescue what was never retrieved
    assert 10 <= len(grades) <= 12


def test_readings_say_what_the_numbers_say(scenario):
    out = view_of(scenario)["outputs"]
    reading = out["metrics_reading"]["text"]
    assert "3 de los 5 primeros resultados alcanzan el grado 2; el primer relevante está en la posición 1." in reading
    assert "nDCG@5 pasa de 0,311 (orden inicial) a 0,623" in reading
    assert "«Qrels y juicios de relevancia al estilo TREC» (grado 3) está en la posición 7" in reading
    assert "De esos 8, 3 no están en el ranking: son documentos juzgados que la primera etapa no recuperó" in reading
    assert "no pasará de 0,625" in reading  # 5 of 8 known relevant are in the ranking
    chunking = out["chunking_reading"]["text"]
    assert "3 chunks con un stride de 448 tokens" in chunking
    assert "qrels reales" in chunking


@pytest.mark.parametrize("solape", ["0", "64", "511"])
@pytest.mark.parametrize("chunk", ["512", "2000"])
def test_chunking_reading_never_claims_relevance_gains(scenario, chunk, solape):
    text = view_of(scenario, chunk=chunk, solape=solape)["outputs"]["chunking_reading"]["text"].lower()
    for claim in ("mejora la relevancia", "mejor recuperación", "aumenta la relevancia", "más preciso"):
        assert claim not in text
    assert "no calidad" in text


def test_overlap_at_or_above_chunk_blanks_only_chunking_outputs(scenario):
    view = view_of(scenario, chunk="100", solape="100")
    assert view["controls"]["solape"]["error"] == "Debe ser menor que el tamaño del chunk."
    assert view["controls"]["chunk"]["error"] is None
    for name in ("chunks", "indexed_tokens", "duplicated_tokens", "duplication", "stride"):
        assert view["outputs"][name]["text"] == "—"
        assert view["outputs"][name]["raw"] == ""
    # Every «—» says why (issue 20, item 4), next to it.
    notes = [view["outputs"][name]["note"] for name in ("chunks", "indexed_tokens", "duplicated_tokens", "duplication", "stride")]
    assert notes == ["Sin calcular: corrige el solape."] * 5
    assert values(view_of(scenario))["precision"] == view["outputs"]["precision"]["value"]


@pytest.mark.parametrize(
    "edited, field, message",
    [
        (["chunk"], "chunk", "Debe ser mayor que el solape (64 tokens)."),  # dragging chunk down to 64
        (["chunk", "solape"], "solape", "Debe ser menor que el tamaño del chunk."),
        (["docs"], "solape", "Debe ser menor que el tamaño del chunk."),  # neither touched (a URL): the seed's hint
    ],
)
def test_overlap_conflict_is_reported_on_the_field_the_user_changed(scenario, edited, field, message):
    view = view_of(scenario, chunk="64", solape="64", edited=edited)
    errors = {name: control["error"] for name, control in view["controls"].items() if control["error"]}
    assert errors == {field: message}
    assert view["outputs"]["metrics_reading"]["text"] == view_of(scenario)["outputs"]["metrics_reading"]["text"]


def test_bad_docs_keeps_the_stride(scenario):
    view = view_of(scenario, docs="abc")
    assert view["controls"]["docs"]["error"].startswith("No es un número entero")
    assert view["outputs"]["stride"]["value"] == 448
    assert view["outputs"]["chunks"]["raw"] == ""


def test_bad_umbral_keeps_ndcg_and_chunking(scenario):
    view = view_of(scenario, umbral="7")
    assert "entre 1 y 3" in view["controls"]["umbral"]["error"]
    assert view["outputs"]["precision"]["raw"] == ""
    assert view["outputs"]["ndcg"]["value"] == view_of(scenario)["outputs"]["ndcg"]["value"]
    assert view["outputs"]["chunks"]["value"] == 30000
    assert not any(row["relevant"] for row in view["ranking"])


def test_k_beyond_the_ranking_is_an_error_naming_its_size(scenario):
    view = view_of(scenario, k="13")
    assert view["controls"]["k"]["error"] == "Debe ser un entero entre 1 y 12 (el ranking tiene 12 documentos)."
    assert not any(row["in_k"] for row in view["ranking"])


def test_total_typed_below_the_judged_count_is_an_error_naming_the_cause(scenario):
    view = view_of(scenario, total="4", edited=["umbral", "total"])
    assert view["controls"]["total"]["error"] == (
        "Debe ser al menos 8: hay 8 documentos juzgados que alcanzan el grado 2 (5 en el ranking y 3 sin recuperar)."
    )
    assert view["outputs"]["recall"]["raw"] == ""
    assert view["outputs"]["precision"]["value"] == 0.6


@pytest.mark.parametrize("edited", [None, ["umbral"], ["total", "umbral"], ["total", "grades"]])
def test_total_below_the_judged_count_is_raised_when_the_user_did_not_just_type_it(scenario, edited):
    state = {"total": "5", "umbral": "1"} | ({"edited": edited} if edited else {})
    view = view_of(scenario, **state)
    # At umbral 1: 8 ranked (d02 d03 d04 d06 d07 d08 d10 d11) + 4 unretrieved (d13–d16) reach it.
    assert view["controls"]["total"] == {"value": 12, "error": None, "set": True, "raised_from": 5}
    assert all(control["error"] is None for control in view["controls"].values())
    assert view["outputs"]["recall"]["value"] == 4 / 12
    assert "el total de relevantes conocidos sube de 5 a 12" in view["outputs"]["metrics_reading"]["text"]


@pytest.mark.parametrize("umbral, judged", [(1, 12), (2, 8), (3, 3)])
def test_total_follows_the_threshold_until_the_user_sets_it(scenario, umbral, judged):
    view = view_of(scenario, umbral=umbral)
    assert view["controls"]["total"] == {"value": judged, "error": None, "set": False, "raised_from": None}
    found = view["outputs"]["relevant_in_k"]["value"]
    assert view["outputs"]["recall"]["value"] == found / judged
    assert view_of(scenario, umbral=umbral, total="30")["outputs"]["recall"]["value"] == found / 30


def test_a_user_total_above_the_judgments_changes_recall_but_not_ndcg(scenario):
    view = view_of(scenario, total="20")
    assert view["outputs"]["ndcg"]["value"] == view_of(scenario)["outputs"]["ndcg"]["value"]
    reading = view["outputs"]["metrics_reading"]["text"]
    assert "hay 3 documentos juzgados que la primera etapa no recuperó y 12 relevantes que nadie juzgó" in reading
    assert "el DCG ideal no puede incluirlos" in reading


def test_recall_undefined_without_known_relevants(scenario):
    del scenario["unretrieved"]
    view = view_of(scenario, grades=[0] * 12, total=0)
    assert view["outputs"]["recall"]["text"] == "—"
    assert "total 0" in view["outputs"]["recall"]["note"]
    assert view["outputs"]["ndcg"]["text"] == "—"
    assert view["outputs"]["precision"]["value"] == 0.0
    reading = view["outputs"]["metrics_reading"]["text"]
    assert "Precision@5 y MRR@5 valen 0,000, y Recall@5 no está definido" in reading


def test_the_issues_all_zero_state_agrees_with_the_cards(scenario):
    # ?grades=0,…&total=0: the unretrieved judgments still hold 3 relevant documents, so the total is raised.
    view = view_of(scenario, grades=[0] * 12, total="0")
    assert view["controls"]["total"]["value"] == 3 and view["outputs"]["recall"]["text"] == "0,000"
    assert view["outputs"]["metrics_reading"]["text"].startswith(
        "Ninguno de los 5 primeros resultados alcanza el grado 2: Precision@5, Recall@5 y MRR@5 valen 0,000."
    )


def test_unretrieved_rows(scenario):
    rows = view_of(scenario, umbral=3)["unretrieved"]
    assert [(row["id"], row["grade"], row["relevant"]) for row in rows] == [
        ("d13", 3, True), ("d14", 2, False), ("d15", 2, False), ("d16", 1, False), ("d17", 0, False)
    ]
    assert rows[0]["grade_label"] == "muy relevante"


def test_edited_grades_change_ndcg_and_flags(scenario):
    grades = [doc["grade"] for doc in scenario["documents"]]
    grades[0] = 3  # d01 was 0; after reranking it sits at rank 5, inside k
    view = view_of(scenario, grades=",".join(map(str, grades)))
    row = next(row for row in view["ranking"] if row["id"] == "d01")
    assert row["grade"] == 3 and row["relevant"] and row["in_k"]
    ranked = [grades[int(r["id"][1:]) - 1] for r in view["ranking"]]
    judged = grades + [doc["grade"] for doc in scenario["unretrieved"]]
    assert view["outputs"]["ndcg"]["value"] == metrics.ndcg_at_k(ranked, 5, judgments=judged)
    assert view["outputs"]["ndcg"]["value"] != view_of(scenario)["outputs"]["ndcg"]["value"]


@pytest.mark.parametrize("grades", ["1,2", "9,0,0,0,0,0,0,0,0,0,0,0", "a,b", "", [1] * 13])
def test_bad_grades_fall_back_to_the_scenario_with_a_message(scenario, grades):
    view = view_of(scenario, grades=grades)
    assert "Se muestran los grados del escenario" in view["controls"]["grades"]["error"]
    assert view["outputs"]["precision"]["value"] == 0.6


def test_ranking_rows_flags_and_movement(scenario):
    rows = view_of(scenario)["ranking"]
    assert [row["rank"] for row in rows] == list(range(1, 13))
    assert sum(row["in_k"] for row in rows) == 5
    assert [row["reranked"] for row in rows] == [True] * 6 + [False] * 6
    d04 = rows[0]
    assert (d04["first_stage_rank"], d04["movement"], d04["movement_text"]) == (4, 3, "▲3")
    assert rows[4]["movement_text"] == "▼4" and rows[4]["movement_label"] == "baja 4 puestos tras el reranking"
    assert rows[6]["movement_text"] == "" and "fuera del prefijo" in rows[6]["movement_label"]
    assert d04["flags_label"] == "dentro del top-5, relevante, en el prefijo reordenado"
    assert rows[6]["flags_label"] == "fuera del top-k, relevante"
    assert rows[4]["flags_label"] == "dentro del top-5, no alcanza el umbral, en el prefijo reordenado, corte k = 5"
    assert [row["cut_label"] for row in rows if row["cut_label"]] == ["corte k = 5", "fin del reranking"]
    assert [row["rank"] for row in rows if row["cut_k"]] == [5] and [row["rank"] for row in rows if row["cut_rerank"]] == [6]


def test_depth_zero_is_first_stage_order(scenario):
    view = view_of(scenario, rerank="0")
    assert [row["id"] for row in view["ranking"]] == [doc["id"] for doc in scenario["documents"]]
    assert "Sin reranking" in view["outputs"]["metrics_reading"]["text"]


def test_inputs_accept_numbers_and_strings_alike(scenario):
    assert view_of(scenario, k=3, chunk=256.0) == view_of(scenario, k=" 3 ", chunk="256")


def test_announcements(scenario):
    announcements = view_of(scenario)["announcements"]
    assert announcements["metrics"] == "Precision@5 0,600, Recall@5 0,375, MRR@5 1,000, nDCG@5 0,623."
    assert announcements["chunking"].startswith(f"Chunks 30{NBSP}000")


@pytest.mark.parametrize(
    "mutate, field",
    [
        (lambda s: s["documents"][1].update(id="d01"), "scenario.documents[1].id"),
        (lambda s: s["documents"][2].update(grade=4), "scenario.documents[2].grade"),
        (lambda s: s["documents"][3].update(reranker_score="alto"), "scenario.documents[3].reranker_score"),
        (lambda s: s["documents"][4].update(first_stage_score=0.99), "scenario.documents[4].first_stage_score"),
        (lambda s: s["defaults"].pop("chunk"), "scenario.defaults"),
        (lambda s: s.update(documents=[]), "scenario.documents"),
        (lambda s: s["unretrieved"][0].update(id="d02"), "scenario.unretrieved[0].id"),
        (lambda s: s["unretrieved"][1].update(grade=-1), "scenario.unretrieved[1].grade"),
        (lambda s: s["unretrieved"][2].pop("title"), "scenario.unretrieved[2].title"),
        (lambda s: s.update(unretrieved={}), "scenario.unretrieved"),
    ],
)
def test_invalid_scenarios_are_rejected_with_the_path(scenario, mutate, field):
    mutate(scenario)
    with pytest.raises(LabError) as caught:
        compute({"scenario": scenario})
    assert caught.value.field == field


def test_invalid_defaults_are_caught(scenario):
    scenario["defaults"]["solape"] = 600
    with pytest.raises(LabError) as caught:
        check_defaults(scenario)
    assert caught.value.field == "scenario.defaults.solape"


def test_compute_is_deterministic_and_does_not_mutate_its_input(scenario):
    import copy
    import json

    state = {"scenario": scenario, "k": "4", "grades": [1] * 12}
    before = copy.deepcopy(state)
    first = json.dumps(compute(state), sort_keys=True)
    assert json.dumps(compute(state), sort_keys=True) == first
    assert state == before


def test_controls_are_read_within_the_form_tables_ranges(scenario):
    from raglab_core.lab import form

    for row in form.table(len(scenario["documents"]))["controls"]:
        if row["name"] == "posicion":  # a place on the strip: clamped to it, never an error
            position = view_of(scenario, posicion=str(row["max"] + 1))["controls"]["posicion"]
            assert position["error"] is None and position["value"] == position["max"] == 1200 - 100
            continue
        assert view_of(scenario, **{row["name"]: str(row["max"] + 1)})["controls"][row["name"]]["error"], row["name"]
        if row["min"] > 0:
            assert view_of(scenario, **{row["name"]: str(row["min"] - 1)})["controls"][row["name"]]["error"]
    umbral = view_of(scenario, umbral="4")["controls"]["umbral"]["error"]
    assert umbral == f"Debe ser un entero entre 1 y {form.MAX_GRADE} (la escala de grados va de 0 a {form.MAX_GRADE})."


# --- readings never contradict the cards -----------------------------------------------------

# Phrases a reading must never contain: wrong agreement, a "change" to the same value, the old
# "grado ≥" wording for a threshold, a ceiling of zero, and anything that is not a number.
BAD_PATTERNS = [
    r"\blos 1\b", r"\blas 1\b", r"\b1 (?:tokens|chunks|puestos|documentos|relevantes|juzgados|copias)\b",
    r"\bde (\d+(?:,\d+)?) (?:\(orden inicial\) )?a \1\b", r"grado ≥", r"no es relevante \(",
    r"no pasará de 0,000", r"\b(?:None|nan|NaN|inf|Infinity|undefined|null)\b", r"  ", r" [.,:;]", r"\.\.",
    r"\b1 de ellos no están\b", r"\b(?:[2-9]|\d\d+) de ellos no está\b",
    # issue 20: «ellos» right after the retrieved count reads as those retrieved; «son 1 documento»
    r"\bde ellos\b", r"\bson 1\b", r"candidate set",
]
RANKING_STATES = [
    {"k": k, "umbral": umbral, "rerank": rerank, **extra}
    for k in (1, 2, 3, 5, 12)
    for umbral in (1, 2, 3)
    for rerank in (0, 1, 3, 6, 12)
    for extra in (
        {},
        {"total": "20"},
        {"total": "1", "edited": ["umbral"]},
        {"grades": [0] * 12},
        {"grades": [3] * 12},
        {"grades": "0,0,0,0,0,0,0,0,0,0,0,3"},
        {"grades": "1,0,0,0,0,0,0,0,0,0,0,0", "umbral": 1},
        # issue 20: reranking the whole ranking makes nDCG fall, or leaves it where it was
        {"grades": "3,2,0,2,2,2,3,3,2,2,2,1"},
        {"grades": "0,0,0,0,0,0,0,0,0,0,0,1"},
        {"grades": "3,2,0,2,2,2,3,3,2,2,2,1", "total": "9", "umbral": 3, "edited": ["total"]},
    )
]
CHUNKING_STATES = [
    {"docs": docs, "tokens_doc": tokens, "chunk": chunk, "solape": overlap, "evidencia": length}
    for docs in (0, 1, 3)
    for tokens in (0, 1, 2, 100, 1200)
    for chunk, overlap in ((1, 0), (2, 1), (100, 0), (100, 99), (512, 64), (64, 64))
    for length in (1, 2, 100, 600)
]
NUMBER = r"\d+(?:,\d+)?"


def number(text):
    return text.replace("\u00a0", " ")


def claims(pattern, reading):
    return re.findall(pattern, reading)


def check_metrics_reading(scenario, state, view):
    """Every number the metrics reading quotes equals the output it names (or the stated comparison)."""
    out, controls = view["outputs"], view["controls"]
    reading = out["metrics_reading"]["text"]
    k, umbral, total = (controls[name]["value"] for name in ("k", "umbral", "total"))
    first_stage = compute({**state, "scenario": scenario, "rerank": 0})["outputs"]
    whole = compute({**state, "scenario": scenario, "k": len(scenario["documents"])})["outputs"]
    for found, shown_k, verb, grade in claims(r"(\d+) de los (\d+) primeros resultados (alcanzan?) el grado (\d)", reading):
        assert (int(found), int(shown_k), int(grade)) == (out["relevant_in_k"]["value"], k, umbral)
        assert verb == ("alcanza" if found == "1" else "alcanzan")
    for rank in claims(r"está en la posición (\d+)\.", reading):
        assert out["mrr"]["value"] == 1 / int(rank)
    for found, shown_total in claims(r"recupera (\d+) de los (\d+) relevantes conocidos", reading):
        assert (int(found), int(shown_total)) == (out["relevant_in_k"]["value"], total)
    for shown_k, ceiling in claims(rf"Recall@(\d+) no pasará de ({NUMBER})", reading):
        assert int(shown_k) == k and ceiling == whole["recall"]["text"]  # Recall at the ranking's length
    for shown_k, before, after in claims(rf"nDCG@(\d+) (?:pasa|empeora: baja) de ({NUMBER}) \(orden inicial\) a ({NUMBER})", reading):
        assert (int(shown_k), before, after) == (k, first_stage["ndcg"]["text"], out["ndcg"]["text"])
        assert before != after
        assert ("empeora" in reading) == (out["ndcg"]["value"] < first_stage["ndcg"]["value"])
    for shown_k, value in claims(rf"nDCG@(\d+) no cambia \(({NUMBER})\)", reading):
        assert value == out["ndcg"]["text"] == first_stage["ndcg"]["text"]
    for shown_k, value in claims(rf"MRR@(\d+) no cambia \(({NUMBER})\)", reading):
        assert value == out["mrr"]["text"] == first_stage["mrr"]["text"]
        assert out["ndcg"]["text"] != first_stage["ndcg"]["text"] or out["precision"]["text"] != first_stage["precision"]["text"]
    for names, value in claims(rf"((?:(?:Precision|Recall|MRR|nDCG)@\d+(?:, | y )?)+) valen? ({NUMBER})", reading):
        for name, shown_k in re.findall(r"(Precision|Recall|MRR|nDCG)@(\d+)", names):
            assert int(shown_k) == k and out[name.lower()]["text"] == value, (name, reading)
    if "Recall@" in reading and "no está definido" in reading:
        assert out["recall"]["raw"] == ""
    for shown_k in claims(r"Recall@(\d+) vale 0,000 con cualquier k", reading):
        assert whole["recall"]["text"] == out["recall"]["text"] == "0,000"
    for before, after in claims(r"sube de (\d+) a (\d+)", reading):
        assert (int(before), int(after)) == (int(state["total"]), total) and controls["total"]["raised_from"] == int(before)
    for shown_k in claims(r"(?:top-|@)(\d+)", reading):
        assert int(shown_k) == k
    for grade, rank in claims(r"\(grado (\d)\) está en la posición (\d+), fuera del prefijo", reading):
        row = view["ranking"][int(rank) - 1]
        assert row["grade"] == int(grade) >= umbral and not row["reranked"]
        # only when it matters: lifting it would put it above a lower grade inside the top k
        assert any(above["grade"] < int(grade) for above in view["ranking"][: min(k, int(rank) - 1)]), reading
    if "el reranker mejora el orden" in reading:
        assert out["ndcg"]["value"] > first_stage["ndcg"]["value"] and out["ndcg"]["text"] != first_stage["ndcg"]["text"]
    for shown_total, missing in claims(r"De esos (\d+), (\d+) no están? en el ranking", reading):
        in_ranking = sum(row["relevant"] for row in view["ranking"])
        assert (int(shown_total), int(missing)) == (total, total - in_ranking)
    for best in claims(rf"Ni el mejor orden posible de estos \d+ documentos pasaría de ({NUMBER})", reading):
        assert best != out["ndcg"]["text"] and best != "1,000"
    if "Es el mejor orden posible" in reading:
        assert out["ndcg"]["text"] != "1,000"
    # Every decimal quoted is a card's, the first stage's, or Recall@k's ceiling (over the whole ranking).
    known = {o["text"] for o in (*out.values(), *first_stage.values(), whole["recall"])}
    for value in re.findall(r"\d+,\d{3}\b", reading):
        assert value in known or "mejor orden posible" in reading, (value, reading)


def check_chunking_reading(view):
    out = view["outputs"]
    reading = number(out["chunking_reading"]["text"])
    for stride in claims(r"stride de (\d+) tokens?", reading):
        assert number(out["stride"]["text"]) == f"{stride} {'token' if stride == '1' else 'tokens'}"
    for indexed in claims(r"El índice guarda ([\d ]+) tokens", reading):
        assert indexed == number(out["indexed_tokens"]["text"])
    for pct in claims(r"\(el ([\d ]+,\d %) del corpus, no del índice\)", reading):
        assert pct == number(out["duplication"]["text"])
    for share in claims(r"queda entera en al menos un chunk en (?:el )?((?:más del |menos del )?[\d,]+ %) de las posiciones", reading):
        assert share == number(out["containment"]["text"]) and 0 < out["containment"]["value"] < 1
    if "queda siempre entera" in reading:
        assert out["containment"]["value"] == 1
    if "queda siempre partida" in reading:
        assert out["containment"]["value"] == 0 and out["min_overlap_whole"]["raw"] == ""
    for minimum in claims(r"(?:Con un solape de|Bastaría un solape de|Un solape de) ([\d ]+)", reading):
        assert int(minimum.replace(" ", "")) == out["min_overlap_whole"]["value"]
    for before, after in claims(r"el índice pasaría de ([\d ]+) a ([\d ]+) tokens", reading):
        assert (before, after) == (number(out["indexed_tokens"]["text"]), number(out["indexed_tokens_whole"]["text"]))
    for touching in claims(r"De media la tocan ([\d ,]+) chunks", reading):
        assert touching == number(out["windows_touching"]["text"])
    for chunks in claims(r"el índice guarda ([\d ]+) chunks?", reading):
        assert chunks == number(out["chunks"]["text"])


@pytest.mark.parametrize("state", RANKING_STATES + CHUNKING_STATES, ids=lambda s: "&".join(f"{k}={v}" for k, v in s.items()))
def test_readings_quote_the_cards_and_use_correct_spanish(scenario, state):
    view = compute({"scenario": scenario, **state})
    check_metrics_reading(scenario, state, view)
    check_chunking_reading(view)
    texts = [view["outputs"][name]["text"] for name in ("metrics_reading", "chunking_reading", "stride", "duplicated_tokens")]
    texts += [view["chunk_windows"]["text"], view["chunk_windows"].get("scale", "")]
    texts += [row["movement_label"] for row in view["ranking"]]
    texts += [c["error"] for c in view["controls"].values() if c["error"]]
    for text in texts:
        for pattern in BAD_PATTERNS:
            assert not re.search(pattern, number(text)), (pattern, text)


@pytest.mark.parametrize(
    "old_text",
    [
        "El reranking reordena solo los 1 primeros.", "con stride 1 tokens", "nDCG@5 pasa de 0,352 (orden inicial) a 0,352.",
        "El primer resultado no es relevante (grado ≥ 3).", "así que Recall@k no pasará de 0,000.",
    ],
)
def test_the_bad_patterns_catch_the_issues_examples(old_text):
    assert any(re.search(pattern, old_text) for pattern in BAD_PATTERNS)


def test_the_readings_test_sees_the_comparisons_the_issue_asks_for(scenario):
    """The table covers the live comparisons: nDCG worse after reranking, and MRR's blind spot."""
    readings = [compute({"scenario": scenario, **state})["outputs"]["metrics_reading"]["text"] for state in RANKING_STATES]
    assert any("empeora" in text for text in readings)
    assert any("MRR@" in text and "no cambia" in text and "no distingue lo que viene después" in text for text in readings)
    assert any("nDCG@12 no llega a 1" in text for text in readings)
    assert any("no cambia (" in text and "nDCG@" in text for text in readings)
    # issue 20: with the whole ranking reranked, nDCG falls, stays, and rises, each said truthfully
    assert any("reordena todo el ranking y nDCG@" in text and "empeora" in text and "no rescata" in text for text in readings)
    assert any("reordena todo el ranking, pero nDCG@" in text and "no rescata" in text for text in readings)
    assert any("el reranker mejora el orden" in text for text in readings)
    assert any(re.search(r"De esos \d+, \d+ no están", text) for text in readings)
    assert any("hay 1 documento juzgado que la primera etapa no recuperó" in text for text in readings)


def test_the_issue_20_readings(scenario):
    """The examples of issue 20, items 1, 6 and 7, in the words the page now uses."""
    def reading(**state):
        return compute({"scenario": scenario, **state})["outputs"]["metrics_reading"]["text"]

    fell = reading(k=11, rerank=12, grades="3,2,0,2,2,2,3,3,2,2,2,1")
    assert "nDCG@11 empeora: baja de 0,792 (orden inicial) a 0,725" in fell and "mejora el orden" not in fell
    stayed = reading(k=3, rerank=12, grades="0,0,0,0,0,0,0,0,0,0,0,1")
    assert "nDCG@3 no cambia (0,000)" in stayed and "mejora el orden" not in stayed
    first = reading()
    assert "El top-5 recupera 3 de los 8 relevantes conocidos. De esos 8, 3 no están en el ranking" in first
    assert "fuera del prefijo" not in reading(grades=[3] * 12)


# --- issue 12: the arithmetic on screen (DESIGN §4.2) -----------------------------------------


def test_breakdown_rebuilds_ndcg_and_mrr(scenario):
    view = view_of(scenario)
    rows, out = view["breakdown"], view["outputs"]
    assert [row["doc"] for row in rows] == [row["id"] for row in view["ranking"]]
    assert [(row["rank"], row["grade"], row["gain"]) for row in rows[:3]] == [(1, 3, 7), (2, 2, 3), (3, 2, 3)]
    assert rows[1]["discount"] == log2(3) and rows[1]["contribution"] == 3 / log2(3)
    assert [row["in_k"] for row in rows] == [True] * 5 + [False] * 7
    dcg = 7 / log2(2) + 3 / log2(3) + 3 / log2(4) + 1 / log2(5) + 0 / log2(6)
    idcg = 7 / log2(2) + 7 / log2(3) + 7 / log2(4) + 3 / log2(5) + 3 / log2(6)
    assert out["dcg"]["value"] == pytest.approx(dcg, abs=1e-12) and out["idcg"]["value"] == pytest.approx(idcg, abs=1e-12)
    assert rows[4]["running"] == pytest.approx(dcg, abs=1e-12)
    assert out["ndcg_division"]["text"] == "nDCG@5 = DCG@5 / IDCG@5 = 10,823 / 17,369 = 0,623"
    assert out["ideal_order"]["text"] == "Orden ideal de todos los juicios (los 5 grados más altos): 3, 3, 3, 2, 2."
    assert [row["mrr_text"] for row in rows if row["first"]] == ["● 1/1"]
    first_stage = view_of(scenario, rerank=0)
    assert [row["mrr_text"] for row in first_stage["breakdown"] if row["mrr_text"]] == ["● 1/2"]
    assert first_stage["outputs"]["mrr_rank"]["text"].startswith("MRR@5 = 1 / 2 = 0,500")


def test_breakdown_outputs_follow_invalid_controls(scenario):
    view = view_of(scenario, k="x")
    assert view["outputs"]["dcg"]["raw"] == "" and view["outputs"]["idcg"]["raw"] == ""
    assert not any(row["in_k"] for row in view["breakdown"])
    assert view_of(scenario, rerank="x")["outputs"]["idcg"]["value"] == view_of(scenario)["outputs"]["idcg"]["value"]


@pytest.mark.parametrize("tokens, chunk, overlap", [(1200, 512, 64), (1200, 512, 511), (100, 512, 0), (0, 10, 0), (10, 3, 1)])
def test_chunk_windows_follow_the_contract(scenario, tokens, chunk, overlap):
    from raglab_core import chunking

    w = view_of(scenario, tokens_doc=tokens, chunk=chunk, solape=overlap)["chunk_windows"]
    stride = chunk - overlap
    assert w["windows"] == chunking.footprint(1, tokens, chunk, overlap).chunks
    assert [(s["start"], s["end"]) for s in w["shown"]] == [
        (j * stride, min(j * stride + chunk, tokens)) for j in range(min(w["windows"], 12))
    ]
    assert w["more"] == w["windows"] - len(w["shown"])
    assert all(0 <= s["x"] and s["x"] + s["width"] <= w["geometry"]["width"] + 0.01 for s in w["shown"])
    if w["more"]:
        assert f"y {w['more']} ventanas más" in w["text"]


def test_extreme_overlap_is_warned_about_in_words(scenario):
    reading = view_of(scenario, chunk=512, solape=511)["outputs"]["chunking_reading"]["text"]
    assert "689 chunks con un stride de 1 token" in reading
    assert "así que el corpus se indexa 293,97 veces" in reading
    assert "Aviso: un solape de 511 en chunks de 512 deja un stride de 1 token: la mayor parte de lo que guarda el índice son copias" in reading
    assert "Aviso" not in view_of(scenario)["outputs"]["chunking_reading"]["text"]


# --- issue 20, items 3–5: honest controls, notes and totals ------------------------------------


def test_notes_name_only_what_is_wrong(scenario):
    """umbral 0 is invalid; the total that follows it is not, and recall's note does not blame it."""
    view = view_of(scenario, umbral="0")
    assert view["outputs"]["recall"]["note"] == "Sin calcular: corrige el umbral."
    assert view["controls"]["total"]["error"] is None
    hint = next(row["hint"] for row in form.table(12)["controls"] if row["name"] == "umbral")
    assert "(1–3)" in hint and "0–3" not in hint


def test_every_dash_says_why_and_so_does_the_live_region(scenario):
    view = view_of(scenario, k="abc")
    for name in ("precision", "recall", "mrr", "ndcg", "relevant_in_k"):
        assert view["outputs"][name]["text"] == "—" and view["outputs"][name]["note"] == "Sin calcular: corrige k."
    assert view["announcements"]["metrics"].endswith("nDCG@k —. Sin calcular: corrige k.")
    zero = view_of(scenario, total="0", umbral="3", edited=["total"])
    assert "Recall@5 —" in zero["announcements"]["metrics"]
    assert zero["announcements"]["metrics"].endswith(zero["outputs"]["recall"]["note"])


@pytest.mark.parametrize("state", [{"rerank": "13"}, {"k": "abc"}, {"rerank": "-1", "umbral": "0"}])
def test_the_breakdown_shows_no_number_the_cards_refuse(scenario, state):
    view = view_of(scenario, **state)
    assert view["outputs"]["ndcg"]["text"] == "—"
    for row in view["breakdown"]:
        assert not row["first"]
        for cell in ("relevant_text", "mrr_text", "gain_text", "discount_text", "contribution_text", "running_text"):
            assert row[cell] == "—", (cell, row)


def test_the_breakdown_keeps_its_numbers_when_only_the_threshold_is_wrong(scenario):
    view = view_of(scenario, umbral="0")
    assert view["outputs"]["ndcg"]["text"] != "—"
    assert [row["running_text"] for row in view["breakdown"]] == [row["running_text"] for row in view_of(scenario)["breakdown"]]
    assert {row["relevant_text"] for row in view["breakdown"]} == {"—"}


@pytest.mark.parametrize("typed", ["", "  "])
def test_an_emptied_total_follows_the_threshold_again_without_error(scenario, typed):
    for umbral, judged in ((1, 12), (2, 8), (3, 3)):
        view = view_of(scenario, total=typed, umbral=umbral, edited=["total"])
        assert view["controls"]["total"] == {"value": judged, "error": None, "set": False, "raised_from": None}


@pytest.mark.parametrize("typed, message", [
    ("x", "No es un número entero. Escribe un entero entre 8 y 100\u00a0000."),
    ("-2", "No puede ser negativo: debe ser un entero entre 8 y 100\u00a0000."),
    ("100001", "Debe ser un entero entre 8 y 100\u00a0000."),
])
def test_a_bad_total_states_its_real_range(scenario, typed, message):
    assert view_of(scenario, total=typed, edited=["total"])["controls"]["total"]["error"] == message


def test_a_raised_total_is_temporary(scenario):
    """Issue 20, item 5: 9, umbral 1 (raised to 12), umbral 3 again: the user's 9 is back."""
    raised = view_of(scenario, total="9", umbral=1, edited=["total", "umbral"])
    assert raised["controls"]["total"]["value"] == 12 and raised["controls"]["total"]["raised_from"] == 9
    back = view_of(scenario, total="9", umbral=3, edited=["total", "umbral"])
    assert back["controls"]["total"] == {"value": 9, "error": None, "set": True, "raised_from": None}
    assert back["outputs"]["recall"]["value"] == 1 / 9 and "relevantes que nadie juzgó" in back["outputs"]["metrics_reading"]["text"]


@pytest.mark.parametrize("typed, message", [
    (" 5 ", None),
    ("\uff15", "Usa las cifras 0 a 9: debe ser un entero entre 1 y 12."),
    ("1 2", "Escribe las cifras sin espacios entre ellas: debe ser un entero entre 1 y 12."),
])
def test_spaces_around_a_number_are_fine_and_the_messages_say_so(scenario, typed, message):
    """Issue 20, item 13: « 5 » is accepted, so no message may say «sin espacios» about anything else."""
    assert view_of(scenario, k=typed)["controls"]["k"]["error"] == message


@pytest.mark.parametrize("state, reason", [
    ({"k": "abc"}, "Sin calcular: corrige k."),
    ({"rerank": "13"}, "Sin calcular: corrige la profundidad de reranking."),
])
def test_the_arithmetic_says_why_it_has_no_numbers(scenario, state, reason):
    """QA: «nDCG@k = DCG@k / IDCG@k: Sin calcular: corrige k.» (a capital after a colon, two colons) and
    «MRR@k: sin calcular.» with no reason, under cards that each gave theirs."""
    out = view_of(scenario, **state)["outputs"]
    assert out["ndcg_division"]["text"] == f"nDCG@k = DCG@k / IDCG@k. {reason}"
    assert out["mrr_rank"]["text"] == f"MRR@k = 1 / posición del primer relevante. {reason}"
    assert out["mrr"]["note"] == reason
