"""«La misma lista, otras definiciones» (DESIGN §4.4) against the libraries whose conventions it shows.

Every row of the panel, on generated lab states (grades with and without «u», every k, umbral,
reranking depth, and a total R the user may set above the judged count), against:

* pytrec_eval (trec_eval 9): ``recall_k``, ``map_cut_k`` and ``ndcg_cut_k`` for ``recall``, ``ap`` and
  ``ndcg_linear``; with ``judged_docs_only_flag`` (trec_eval ``-J``) ``P_k`` and ``ndcg_cut_k`` on
  ``2^g − 1`` grades for ``condensed_precision`` and ``condensed_ndcg``;
* ir_measures 0.4.3: ``Success(rel=umbral)@k`` and ``Judged@k``;
* scikit-learn's ``ndcg_score`` on the displayed ranking alone (gains ``2^g − 1``) for
  ``ndcg_ranking_ideal``;
* ranx's ``ndcg_burges@k`` for ``ndcg`` (the card);
* BEIR's ``R_cap@k`` and ragas' context precision: neither installs cleanly here (beir pulls torch
  and CUDA, about 3 GB; ragas pulls langchain, openai and some fifty packages), so their formulas
  are written below from their source files, cited.

How the lab maps to the tools: the displayed ranking is a run with strictly decreasing scores; the
qrels are its judged documents with their grades, plus the unretrieved judged documents; an
unjudged document is absent from the qrels. R above the judged count becomes relevant documents
that only the qrels for recall and AP hold (no grade: they never enter an ideal DCG). Where a value
is undefined (R = 0, an ideal DCG of 0) the tools report 0 and the lab None.
"""

import functools

import ir_measures
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from raglab_core import compute
from raglab_core.lab import conventions

from tests.conftest import load_scenario

TOLERANCE = 1e-12
# Examples per property: 500 each, still the suite's largest (the three properties and ranx's pass over
# their states took 25 s of one lane at 1000, the most of any CPython module; docs/performance.md,
# «The test suite»).
STATES = 500


@functools.cache
def scenario():
    return load_scenario()


@st.composite
def states(draw, unjudged: bool):
    """A valid lab state; with ``unjudged``, at least one document nobody judged («u» or None)."""
    grade = st.sampled_from([0, 1, 2, 3, None]) if unjudged else st.integers(0, 3)
    grades = draw(st.lists(grade, min_size=12, max_size=12))
    if unjudged and None not in grades:
        grades[draw(st.integers(0, 11))] = None
    state = {"k": draw(st.integers(1, 12)), "umbral": draw(st.integers(1, 3)), "rerank": draw(st.integers(0, 12)),
             # the URL's form («u») or a list with None: both are the page's
             "grades": draw(st.sampled_from([grades, ",".join("u" if g is None else str(g) for g in grades)]))}
    if draw(st.booleans()):
        state["total"] = str(draw(st.integers(0, 30)))  # below the judged count it is raised (§4.1)
    return state


def lab(state):
    view = compute({"scenario": scenario(), **state})
    rows = {row["name"]: row for row in view["conventions"]}
    shown = [row["grade"] for row in view["ranking"]]
    return view, rows, shown


def as_tools(shown, umbral, total):
    """The run, the qrels for the ideal (judged only) and the qrels for R (with the relevant nobody judged)."""
    run = {"q": {f"r{i}": float(len(shown) - i) for i in range(len(shown))}}
    judged = {f"r{i}": g for i, g in enumerate(shown) if g is not None}
    judged.update({doc["id"]: doc["grade"] for doc in scenario()["unretrieved"]})
    with_r = dict(judged)
    missing = total - sum(1 for g in judged.values() if g >= umbral)
    with_r.update({f"nobody{j}": umbral for j in range(missing)})
    return run, {"q": judged}, {"q": with_r}


# --- BEIR and ragas, from their source ---------------------------------------------------------------


def beir_recall_cap(run, qrels, k, umbral):
    """BEIR's ``recall_cap`` (beir-cellar/beir, ``beir/retrieval/custom_metrics.py``), for one query:
    the top k by score; relevant = qrels grade > 0 (here: >= umbral, the lab's relevance);
    ``len(retrieved relevant) / min(len(relevant judgments), k)``. BEIR divides by zero when the query has no
    relevant document; the lab says undefined (None)."""
    top = sorted(run.items(), key=lambda item: item[1], reverse=True)[:k]
    relevant = [doc for doc, grade in qrels.items() if grade >= umbral]
    retrieved = [doc for doc, _ in top if qrels.get(doc, 0) >= umbral]
    denominator = min(len(relevant), k)
    return len(retrieved) / denominator if denominator else None


def ragas_context_precision(verdicts):
    """ragas' ``_calculate_average_precision`` (explodinggradients/ragas,
    ``src/ragas/metrics/_context_precision.py``): Σ_i (hits in the first i / i) · v_i divided by
    Σ v_i + 1e-10 (the 1e-10 keeps an all-irrelevant list at 0)."""
    numerator = sum(sum(verdicts[: i + 1]) / (i + 1) * verdicts[i] for i in range(len(verdicts)))
    return numerator / (sum(verdicts) + 1e-10)


def check(state):
    from sklearn.metrics import ndcg_score  # here, not at collection: its import alone takes seconds

    view, rows, shown = lab(state)
    k, umbral = view["controls"]["k"]["value"], view["controls"]["umbral"]["value"]
    total = view["controls"]["total"]["value"]
    run, judged, with_r = as_tools(shown, umbral, total)

    def value(name):
        return rows[name]["value"]

    trec = pytrec_eval.RelevanceEvaluator(with_r, {f"recall.{k}", f"map_cut.{k}"}, relevance_level=umbral).evaluate(run)["q"]
    assert (value("recall") or 0.0) == pytest.approx(trec[f"recall_{k}"], abs=TOLERANCE)
    assert (value("ap") or 0.0) == pytest.approx(trec[f"map_cut_{k}"], abs=TOLERANCE)
    assert (value("recall") is None) == (value("ap") is None) == (total == 0)
    linear = pytrec_eval.RelevanceEvaluator(judged, {f"ndcg_cut.{k}"}).evaluate(run)["q"][f"ndcg_cut_{k}"]
    assert (value("ndcg_linear") or 0.0) == pytest.approx(linear, abs=TOLERANCE)

    success = ir_measures.Success(rel=umbral) @ k
    qrels_im = [ir_measures.Qrel("q", d, g) for d, g in with_r["q"].items()]
    runs_im = [ir_measures.ScoredDoc("q", d, s) for d, s in run["q"].items()]
    got = {str(m.measure): m.value for m in ir_measures.iter_calc([success, ir_measures.Judged @ k], qrels_im, runs_im)}
    assert value("success") == got[str(success)]

    gains = [[0 if g is None else 2**g - 1 for g in shown]]
    if any(gains[0]):
        sk = ndcg_score(gains, [[float(len(shown) - i) for i in range(len(shown))]], k=k)
        assert value("ndcg_ranking_ideal") == pytest.approx(sk, abs=TOLERANCE)
    else:
        assert value("ndcg_ranking_ideal") is None

    assert value("recall_cap") == pytest.approx(beir_recall_cap(run["q"], with_r["q"], k, umbral), abs=TOLERANCE)
    verdicts = [1 if g is not None and g >= umbral else 0 for g in shown[:k]]
    assert value("context_precision") == pytest.approx(ragas_context_precision(verdicts), abs=1e-9)

    if None in shown:
        assert value("judged") == pytest.approx(got[str(ir_measures.Judged @ k)], abs=TOLERANCE)
        condensed = pytrec_eval.RelevanceEvaluator(judged, {f"P.{k}"}, relevance_level=umbral,
                                                   judged_docs_only_flag=True).evaluate(run)["q"]
        assert value("condensed_precision") == pytest.approx(condensed[f"P_{k}"], abs=TOLERANCE)
        exp_gains = {"q": {d: 2**g - 1 for d, g in judged["q"].items()}}
        condensed_ndcg = pytrec_eval.RelevanceEvaluator(exp_gains, {f"ndcg_cut.{k}"},
                                                        judged_docs_only_flag=True).evaluate(run)["q"]
        assert (value("condensed_ndcg") or 0.0) == pytest.approx(condensed_ndcg[f"ndcg_cut_{k}"], abs=TOLERANCE)
    else:
        assert not {"judged", "condensed_precision", "condensed_ndcg"} & set(rows)
    return view, rows, shown, judged, run


RANX_BATCH = []


@settings(max_examples=STATES, deadline=None)
@given(states(unjudged=True))
def test_every_row_matches_its_reference_with_unjudged_documents(state):
    view, rows, shown, judged, run = check(state)
    RANX_BATCH.append((rows["ndcg"]["value"], view["controls"]["k"]["value"], judged, run))


@settings(max_examples=STATES, deadline=None)
@given(states(unjudged=False))
def test_every_row_matches_its_reference_without_unjudged_documents(state):
    view, rows, shown, judged, run = check(state)
    RANX_BATCH.append((rows["ndcg"]["value"], view["controls"]["k"]["value"], judged, run))


def test_the_lab_ndcg_row_matches_ranx_ndcg_burges():
    """ranx, once over every state the two tests above generated (one query each: ranx's set-up is slow)."""
    from ranx import Qrels, Run, evaluate

    if len(RANX_BATCH) < 2 * STATES:  # run on its own: generate the states here
        RANX_BATCH.clear()
        test_every_row_matches_its_reference_with_unjudged_documents()
        test_every_row_matches_its_reference_without_unjudged_documents()
    assert len(RANX_BATCH) >= 2 * STATES
    qrels, runs, expected = {}, {}, {}
    for i, (ours, k, judged, run) in enumerate(RANX_BATCH):
        positive = {d: g for d, g in judged["q"].items() if g > 0}
        if not positive:  # ranx cannot hold a query without positive judgments; ours is None then
            assert ours is None
            continue
        qrels[f"q{i}"], runs[f"q{i}"], expected[f"q{i}"] = positive, run["q"], (ours, k)
    ranx_run = Run(runs)
    evaluate(Qrels(qrels), ranx_run, sorted({f"ndcg_burges@{k}" for _, k in expected.values()}))
    for qid, (ours, k) in expected.items():
        assert ours == pytest.approx(ranx_run.scores[f"ndcg_burges@{k}"][qid], abs=TOLERANCE)


def test_the_rows_follow_the_contract_and_the_cards():
    view, rows, _ = lab({"k": "5"})
    assert list(rows) == [name for name in conventions.NAMES if name not in ("judged", "condensed_precision", "condensed_ndcg")]
    assert rows["recall"]["value"] == view["outputs"]["recall"]["value"]
    assert rows["ndcg"]["value"] == view["outputs"]["ndcg"]["value"]
    assert all(row["raw"] == ("" if row["value"] is None else repr(row["value"])) for row in rows.values())
    _, rows, _ = lab({"k": "5", "grades": "3,u,2,u,0,2,3,1,0,2,1,0"})
    assert list(rows) == list(conventions.NAMES)
    _, rows, _ = lab({"k": "0"})
    assert all(row["value"] is None and row["raw"] == "" and row["text"] == "—" for row in rows.values())


# --- the panel's reading: what differs most for this state, and why ----------------------------------

READINGS = [
    # The example: R > k, the top k full of relevant documents.
    ({"grades": "3,3,2,2,3,0,0,0,0,0,0,0", "rerank": "0", "k": "5"},
     "Con k = 5 y 8 relevantes, Recall@5 no puede pasar de 5/8 (0,625); el R_cap de BEIR divide entre 5 y da "
     "1,000. La context precision de ragas da 1,000 y el AP@5 de trec_eval 0,625: suman las mismas precisiones, "
     "pero ragas divide entre 5 relevantes recuperados y AP entre los 8 relevantes conocidos, así que ragas no ve "
     "los que faltan."),
    # Singular: one relevant retrieved, k = 1.
    ({"grades": "3,3,2,2,3,0,0,0,0,0,0,0", "rerank": "0", "k": "1"},
     "Con k = 1 y 8 relevantes, Recall@1 no puede pasar de 1/8 (0,125); el R_cap de BEIR divide entre 1 y da "
     "1,000. La context precision de ragas da 1,000 y el AP@1 de trec_eval 0,125: suman las mismas precisiones, "
     "pero ragas divide entre 1 relevante recuperado y AP entre los 8 relevantes conocidos, así que ragas no ve "
     "los que faltan."),
    # The default state at k = 5.
    ({"k": "5"},
     "La context precision de ragas da 1,000 y el AP@5 de trec_eval 0,375: suman las mismas precisiones, pero "
     "ragas divide entre 3 relevantes recuperados y AP entre los 8 relevantes conocidos, así que ragas no ve los "
     "que faltan. Success@5 («hit rate») vale 1,000 en cuanto aparece un relevante; Recall@5 mide qué parte de "
     "los 8 relevantes conocidos está en el top-5: 0,375. No son la misma medida."),
    # Two unjudged documents within k: what they change first, then the largest gap.
    ({"grades": "3,u,2,u,0,2,3,1,0,2,1,0", "k": "5"},
     "Hay 2 documentos sin juicio en el top-5: cuentan como no relevantes (la convención de trec_eval). Si fueran "
     "relevantes, Precision@5 valdría 1,000 (y no 0,600) y MRR@5 1,000 (y no 0,333); si se quitan y se cierran "
     "los huecos (lista condensada, trec_eval -J), Precision@5 vale 0,800 y nDCG@5 0,639. Success@5 («hit rate») "
     "vale 1,000 en cuanto aparece un relevante; Recall@5 mide qué parte de los 8 relevantes conocidos está en el "
     "top-5: 0,375. No son la misma medida."),
    # One unjudged document: singular.
    ({"rerank": "0", "k": "1", "grades": "u,3,0,0,0,0,0,0,0,0,0,0"},
     "Hay 1 documento sin juicio en el top-1: cuenta como no relevante (la convención de trec_eval). Si fuera "
     "relevante, Precision@1 valdría 1,000 (y no 0,000) y MRR@1 1,000 (y no 0,000); si se quita y se cierran los "
     "huecos (lista condensada, trec_eval -J), Precision@1 vale 1,000 y nDCG@1 1,000."),
    # Nothing relevant in the top k: every definition agrees.
    ({"grades": "0,0,0,0,0,0,0,0,0,0,0,3", "rerank": "0", "k": "3"},
     "Con este ranking y k = 3, ningún par de convenciones de la tabla se separa (con tres decimales): aquí la "
     "definición elegida no cambia la lectura."),
    ({"k": "0"}, "Sin comparación de convenciones hasta que corrijas k."),
    ({"umbral": "9", "total": "x"}, "Sin comparación de convenciones hasta que corrijas el umbral y los relevantes totales."),
]


@pytest.mark.parametrize("state, expected", READINGS, ids=[str(i) for i in range(len(READINGS))])
def test_the_panels_reading(state, expected):
    view, _, _ = lab(state)
    assert view["outputs"]["conventions_reading"]["text"] == expected


def test_the_reading_names_the_ideal_and_gain_rows_when_they_differ_most():
    view, rows, _ = lab({"grades": "1,1,0,0,0,0,0,0,0,0,0,0", "rerank": "0", "k": "2", "umbral": "1"})
    reading = view["outputs"]["conventions_reading"]["text"]
    assert f"nDCG@2 sube a {rows['ndcg_ranking_ideal']['text']} desde {rows['ndcg']['text']}" in reading
    assert "ignora los relevantes que la primera etapa no recuperó" in reading


# --- «Tus datos» and the CLI: R_cap@k, named as BEIR names it ------------------------------------------

docids = st.sampled_from([f"d{i}" for i in range(12)])
qids = st.sampled_from(["q1", "q2", "q3"])


@settings(max_examples=STATES, deadline=None)
@given(st.dictionaries(qids, st.dictionaries(docids, st.integers(-1, 3), min_size=1), min_size=1),
       st.dictionaries(qids, st.dictionaries(docids, st.floats(-5, 5, allow_nan=False), min_size=1)),
       st.integers(1, 15), st.integers(1, 3))
def test_the_evaluators_r_cap_is_beirs_recall_cap(qrels, run, k, rel):
    """BEIR sorts by score alone (Python's stable sort on ties); the run's distinct scores here are
    made strictly decreasing in trec_eval's order first, so both see one order."""
    from raglab_core.runs.evaluation import evaluate_run, trec_order

    strict = {q: {d: float(-i) for i, d in enumerate(trec_order(scores))} for q, scores in run.items()}
    result = evaluate_run(qrels, strict, [f"R_cap(rel={rel})@{k}" if rel != 1 else f"R_cap@{k}"])
    for qid, (ours,) in result.per_query.items():
        assert ours == beir_recall_cap(strict[qid], qrels[qid], k, rel)


def test_r_cap_is_listed_and_named_as_beir_names_it():
    from raglab_core.runs.measures import SUPPORTED, parse_measures

    assert [str(m) for m in parse_measures("R_cap@10 R_cap(rel=2)@5")] == ["R_cap@10", "R_cap(rel=2)@5"]
    assert SUPPORTED.endswith("R_cap@k")
    with pytest.raises(Exception):  # ir_measures has no such measure: we say so in the page and the docs
        ir_measures.parse_measure("R_cap@10")


# --- «sin juicio»: the URL's «u», None in a list, "grade": null in the scenario ---------------------------


def test_u_in_the_url_and_none_in_a_list_are_the_same_state():
    by_url, _, _ = lab({"grades": "3,u,2,u,0,2,3,1,0,2,1,0"})
    by_list, _, _ = lab({"grades": [3, None, 2, None, 0, 2, 3, 1, 0, 2, 1, 0]})
    assert by_url == by_list
    assert by_url["controls"]["grades"] == {"value": [3, None, 2, None, 0, 2, 3, 1, 0, 2, 1, 0], "error": None}
    row = next(row for row in by_url["ranking"] if row["id"] == "d02")
    assert (row["grade"], row["grade_token"], row["relevant"]) == (None, "u", False)
    cell = next(row for row in by_url["breakdown"] if row["doc"] == "d02")
    assert (cell["grade_token"], cell["grade_text"], cell["gain"], cell["gain_text"]) == ("u", "sin juicio", 0, "—")


def test_unjudged_documents_leave_the_ideal_and_the_default_total():
    unjudged, _, _ = lab({"grades": "3,u,2,u,0,2,3,1,0,2,1,0", "umbral": "2", "k": "12"})
    judged, _, _ = lab({"grades": "3,3,2,3,0,2,3,1,0,2,1,0", "umbral": "2", "k": "12"})
    assert judged["controls"]["total"]["value"] - unjudged["controls"]["total"]["value"] == 2
    ideal = unjudged["outputs"]["ideal_order"]["text"]
    assert ideal.endswith(": 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1, 0.") and "3, 3, 3, 3, 3" in judged["outputs"]["ideal_order"]["text"]


@pytest.mark.parametrize("grades", ["3,x,2,u,0,2,3,1,0,2,1,0", "3,U,2,0,0,2,3,1,0,2,1,0", "3,,2,0,0,2,3,1,0,2,1,0"])
def test_only_u_means_unjudged(grades):
    view, _, _ = lab({"grades": grades})
    assert "«u», sin juicio" in view["controls"]["grades"]["error"]


def test_the_scenario_may_leave_a_ranked_document_unjudged_but_not_an_unretrieved_one():
    from raglab_core import LabError

    scenario = load_scenario()
    scenario["documents"][1]["grade"] = None
    view = compute({"scenario": scenario})
    assert view["ranking"][0]["grade"] is not None and "judged" in {row["name"] for row in view["conventions"]}
    scenario["unretrieved"][0]["grade"] = None
    with pytest.raises(LabError) as caught:
        compute({"scenario": scenario})
    assert caught.value.field == "scenario.unretrieved[0].grade"
