"""compute(): the lab view, the teaching scenario, and per-field errors."""

from math import log2

import pytest

from raglab_core import LabError, compute, metrics
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
    assert out["recall"]["value"] == 3 / 8
    assert out["mrr"]["value"] == 1 / 1
    dcg = 7 / log2(2) + 3 / log2(3) + 3 / log2(4) + 1 / log2(5) + 0 / log2(6)
    idcg = 7 / log2(2) + 7 / log2(3) + 3 / log2(4) + 3 / log2(5) + 3 / log2(6)
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
    assert d["total"] > sum(1 for g in grades if g >= d["umbral"])  # incomplete judgments
    assert 10 <= len(grades) <= 12


def test_readings_say_what_the_numbers_say(scenario):
    out = view_of(scenario)["outputs"]
    reading = out["metrics_reading"]["text"]
    assert "3 de los 5 primeros resultados son relevantes (grado ≥ 2)" in reading
    assert "posición 1" in reading
    assert "nDCG@5 pasa de 0,352 (orden inicial) a 0,704" in reading
    assert "«Qrels y juicios de relevancia al estilo TREC» (grado 3) está en la posición 7" in reading
    assert "no pasará de 0,625" in reading  # 5 of 8 known relevant are in the ranking
    chunking = out["chunking_reading"]["text"]
    assert "3 chunks con stride 448" in chunking
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
    for name in ("chunks", "indexed_tokens", "duplicated_tokens", "duplication", "stride"):
        assert view["outputs"][name]["text"] == "—"
        assert view["outputs"][name]["raw"] == ""
        assert "el solape" in view["outputs"][name]["note"]
    assert values(view_of(scenario))["precision"] == view["outputs"]["precision"]["value"]


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


def test_total_below_relevant_found(scenario):
    view = view_of(scenario, total="4")
    assert view["controls"]["total"]["error"].startswith("Debe ser al menos 5")
    assert view["outputs"]["recall"]["raw"] == ""
    assert view["outputs"]["precision"]["value"] == 0.6


def test_recall_undefined_without_known_relevants(scenario):
    view = view_of(scenario, grades=[0] * 12, total=0)
    assert view["outputs"]["recall"]["text"] == "—"
    assert "total 0" in view["outputs"]["recall"]["note"]
    assert view["outputs"]["ndcg"]["text"] == "—"
    assert view["outputs"]["precision"]["value"] == 0.0


def test_edited_grades_change_ndcg_and_flags(scenario):
    grades = [doc["grade"] for doc in scenario["documents"]]
    grades[0] = 3  # d01 was 0; after reranking it sits at rank 5, inside k
    view = view_of(scenario, grades=",".join(map(str, grades)))
    row = next(row for row in view["ranking"] if row["id"] == "d01")
    assert row["grade"] == 3 and row["relevant"] and row["in_k"]
    ranked = [grades[int(r["id"][1:]) - 1] for r in view["ranking"]]
    assert view["outputs"]["ndcg"]["value"] == metrics.ndcg_at_k(ranked, 5, judgments=grades)
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


def test_depth_zero_is_first_stage_order(scenario):
    view = view_of(scenario, rerank="0")
    assert [row["id"] for row in view["ranking"]] == [doc["id"] for doc in scenario["documents"]]
    assert "Sin reranking" in view["outputs"]["metrics_reading"]["text"]


def test_inputs_accept_numbers_and_strings_alike(scenario):
    assert view_of(scenario, k=3, chunk=256.0) == view_of(scenario, k=" 3 ", chunk="256")


def test_announcements(scenario):
    announcements = view_of(scenario)["announcements"]
    assert announcements["metrics"] == "Precision@5 0,600, Recall@5 0,375, MRR@5 1,000, nDCG@5 0,704."
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
    from raglab_core import form

    for row in form.table(len(scenario["documents"]))["controls"]:
        assert view_of(scenario, **{row["name"]: str(row["max"] + 1)})["controls"][row["name"]]["error"], row["name"]
        if row["min"] > 0:
            assert view_of(scenario, **{row["name"]: str(row["min"] - 1)})["controls"][row["name"]]["error"]
    umbral = view_of(scenario, umbral="4")["controls"]["umbral"]["error"]
    assert umbral == f"Debe ser un entero entre 1 y {form.MAX_GRADE} (la escala de grados va de 0 a {form.MAX_GRADE})."
