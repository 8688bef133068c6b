"""Property tests (hypothesis) for the metrics and for compute()."""

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from raglab_core import LabError, compute, evidence, metrics

from tests.conftest import load_scenario

grades_st = st.lists(st.integers(0, 3), min_size=1, max_size=30)


@given(grades_st, st.integers(1, 40), st.integers(0, 4), st.integers(0, 10))
def test_metrics_lie_in_the_unit_interval(grades, k, threshold, extra):
    total = sum(1 for g in grades if g >= threshold) + extra
    values = [
        metrics.precision_at_k(grades, k, threshold),
        metrics.recall_at_k(grades, k, threshold, total),
        metrics.mrr_at_k(grades, k, threshold),
        metrics.ndcg_at_k(grades, k),
    ]
    for value in values:
        assert value is None or 0.0 <= value <= 1.0 + 1e-15


@given(grades_st, st.integers(1, 40))
def test_ndcg_of_the_ideal_order_is_one(grades, k):
    ideal = sorted(grades, reverse=True)
    value = metrics.ndcg_at_k(ideal, k, judgments=grades)
    assert value is None if not any(grades[:]) else value == 1.0


@given(grades_st, st.integers(1, 4), st.integers(0, 10))
def test_recall_never_decreases_with_k_and_reaches_its_ceiling(grades, threshold, extra):
    found = sum(1 for g in grades if g >= threshold)
    total = found + extra
    values = [metrics.recall_at_k(grades, k, threshold, total) for k in range(1, len(grades) + 2)]
    if total == 0:
        assert all(v is None for v in values)
        return
    assert all(a <= b for a, b in zip(values, values[1:]))
    assert values[-1] == found / total


@given(grades_st, st.integers(1, 40), st.integers(1, 3), st.integers(0, 10))
def test_precision_times_k_equals_recall_times_total(grades, k, threshold, extra):
    total = sum(1 for g in grades if g >= threshold) + extra
    recall = metrics.recall_at_k(grades, k, threshold, total)
    if recall is not None:
        assert math.isclose(metrics.precision_at_k(grades, k, threshold) * k, recall * total, abs_tol=1e-9)


json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=20,
)
control_value = st.one_of(
    st.integers(-10, 10**12),
    st.floats(),
    st.text(max_size=25),
    st.sampled_from(["", " ", "-1", "0", "1e309", "NaN", "0x10", "٣", "1,5", "10e3", "5", "512", "64"]),
    json_like,
)
NAMES = ["k", "umbral", "rerank", "total", "docs", "tokens_doc", "chunk", "solape", "evidencia", "posicion", "grades",
         "edited"]
FORBIDDEN = ("nan", "inf", "none", "null", "undefined")


def texts_of(view):
    for output in view["outputs"].values():
        yield output["text"]
        if output["note"]:
            yield output["note"]
    for control in view["controls"].values():
        if control["error"]:
            yield control["error"]
    yield from view["announcements"].values()


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(NAMES), control_value))
def test_compute_on_any_control_values_gives_clean_json(values):
    view = compute({"scenario": load_scenario(), **values})
    json.dumps(view, allow_nan=False)
    for text in texts_of(view):
        words = text.lower().replace(",", " ").replace(".", " ").split()
        assert not set(words) & set(FORBIDDEN), text
    for name, output in view["outputs"].items():
        assert (output["raw"] == "") == (output["value"] is None)
        if output["raw"]:
            assert math.isfinite(float(output["raw"]))


@settings(max_examples=100, deadline=None)
@given(json_like | st.dictionaries(st.sampled_from(NAMES + ["scenario"]), json_like))
def test_compute_raises_nothing_but_laberror(state):
    try:
        view = compute(state)
    except LabError:
        return
    json.dumps(view, allow_nan=False)


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_compute_survives_a_mangled_scenario(data):
    scenario = load_scenario()
    section = data.draw(st.sampled_from(["query", "grade_labels", "documents", "defaults", "doc"]))
    value = data.draw(json_like)
    if section == "doc":
        doc = data.draw(st.sampled_from(scenario["documents"]))
        doc[data.draw(st.sampled_from(["id", "title", "grade", "first_stage_score", "reranker_score"]))] = value
    else:
        scenario[section] = value
    try:
        view = compute({"scenario": scenario})
    except LabError as error:
        assert error.field and error.field.startswith("scenario")
        return
    json.dumps(view, allow_nan=False)


# --- the judgments model (DESIGN §4.1) over valid states ---------------------------------------

CONTROLS = ["k", "umbral", "rerank", "total", "docs", "tokens_doc", "chunk", "solape", "evidencia", "posicion", "grades"]


@st.composite
def valid_states(draw):
    """States whose every value is valid on its own; only the cross-field rules can object."""
    state = {
        "k": draw(st.integers(1, 12)),
        "umbral": draw(st.integers(1, 3)),
        "rerank": draw(st.integers(0, 12)),
        "docs": draw(st.integers(0, 50)),
        "tokens_doc": draw(st.integers(0, 3000)),
        "chunk": draw(st.integers(1, 600)),
        "solape": draw(st.integers(0, 600)),
        "evidencia": draw(st.integers(1, 4000)),  # longer than the document or the chunk: no error either
        "grades": draw(st.lists(st.integers(0, 3), min_size=12, max_size=12)),
        "edited": draw(st.lists(st.sampled_from(CONTROLS), unique=True, max_size=5)),
    }
    if draw(st.booleans()):
        state["total"] = str(draw(st.integers(0, 40)))
    if draw(st.booleans()):
        state["posicion"] = str(draw(st.integers(0, 5000)))
    return state


@settings(max_examples=300, deadline=None)
@given(valid_states())
def test_every_state_follows_the_one_judgments_model(state):
    scenario = load_scenario()
    view = compute({"scenario": scenario, **state})
    grades = state["grades"]
    judged = grades + [doc["grade"] for doc in scenario["unretrieved"]]
    displayed = [row["grade"] for row in view["ranking"]]
    k, threshold = state["k"], state["umbral"]
    out, total = view["outputs"], view["controls"]["total"]
    # nDCG = DCG(displayed) / IDCG(all judgments)
    ideal = metrics.dcg_at_k(sorted(judged, reverse=True), k)
    assert out["ndcg"]["value"] == (metrics.dcg_at_k(displayed, k) / ideal if ideal else None)
    # The total in use is the judged count unless the user set one, which is never below it without an error.
    judged_count = sum(1 for g in judged if g >= threshold)
    if "total" not in state:
        assert total == {"value": judged_count, "error": None, "set": False, "raised_from": None}
    elif total["error"] is None:
        assert total["value"] == max(int(state["total"]), judged_count)
    # Recall = relevant in k / the total shown.
    if total["value"]:
        assert out["recall"]["value"] == out["relevant_in_k"]["value"] / total["value"]
    # No field the user did not change carries an error.
    # (A conflict between values neither of which the user changed, as from a URL, goes on the
    # solape, whose hint states the rule.)
    errors = {name for name, control in view["controls"].items() if control["error"]}
    assert errors <= set(state["edited"]) | {"solape"}
    pair = [name for name in state["edited"] if name in ("chunk", "solape")]
    assert ("chunk" in errors) == (state["solape"] >= state["chunk"] and pair[-1:] == ["chunk"])
    assert ("solape" in errors) == (state["solape"] >= state["chunk"] and pair[-1:] != ["chunk"])
    if "total" in errors:
        assert [name for name in state["edited"] if name in ("total", "umbral", "grades")][-1] == "total"
    # The evidence's cards are the exact fractions, and the drawn span lies in the document.
    if out["containment"]["raw"]:
        found = evidence.evidence(state["tokens_doc"], state["chunk"], state["solape"], state["evidencia"])
        assert out["containment"]["value"] == float(found.containment)
        assert out["windows_touching"]["value"] == float(found.windows_touching)
        marks = view["chunk_windows"]["evidence"]
        assert 0 <= marks["start"] and marks["end"] <= state["tokens_doc"] and marks["end"] - marks["start"] == state["evidencia"]


@given(st.floats(-1e7, 1e7, allow_nan=False), st.integers(0, 4))
def test_decimal_fast_path_agrees_with_the_rae_rules(x, places):
    from raglab_core.formatting import NBSP, decimal

    text = f"{abs(x):.{places}f}"
    whole, _, fraction = text.partition(".")
    grouped = f"{int(whole):,}".replace(",", NBSP) if len(whole) > 4 else whole
    negative = x < 0 and any(ch not in "0." for ch in text)
    expected = ("-" if negative else "") + grouped + (f",{fraction}" if places else "")
    assert decimal(x, places) == expected
