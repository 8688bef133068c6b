"""One number, one meaning (issue 49): an interval never has fewer decimals than its mean, zero is «0,000»
whatever its sign, and an estimated p-value is never 0 nor written as 0."""

from hypothesis import given, settings
from hypothesis import strategies as st

from raglab_core.corpus.panel import config_row
from raglab_core.formatting import span
from raglab_core.runs.cells import cell, interval
from raglab_core.runs.lettered import adjusted_text
from raglab_core.runs.statistics import p_text, p_value_text


def number(text: str) -> float:
    """A Spanish number as shown, back to a float (the sign «−» included)."""
    return float(text.replace("−", "-").replace("+", "").replace(",", "."))


def entry(mean: float, low: float, high: float) -> dict:
    return {"name": "256:32", "chunks": 3, "indexed_tokens": 90, "duplicated_tokens": 0,
            "mean": {"EvidenceRecall@5": mean}, "ci95": {"EvidenceRecall@5": [low, high]}}


def test_the_corpus_table_gives_the_interval_its_means_decimals():
    # The issue's case: «0,007» over «0,01–0,01», an interval that excludes its own mean.
    [shown] = config_row(entry(0.0072, 0.0051, 0.0098), 100, [5])["cells"]
    assert (shown["text"], shown["ci_text"]) == ("0,007", "0,005–0,010")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=3, max_size=3).map(sorted))
def test_a_shown_mean_lies_in_its_shown_interval_with_as_many_decimals(ends):
    low, mean, high = ends
    [shown] = config_row(entry(mean, low, high), 100, [5])["cells"]
    first, second = shown["ci_text"].split("–")
    decimals = len(shown["text"].split(",")[1])
    assert len(first.split(",")[1]) >= decimals and len(second.split(",")[1]) >= decimals
    assert number(first) <= number(shown["text"]) <= number(second)


@settings(max_examples=300, deadline=None)
@given(st.floats(-1, 1, allow_nan=False))
def test_zero_is_0_000_and_a_sign_goes_only_with_a_nonzero_number(value):
    text, plain = cell(value, signed=True)["text"], cell(value)["text"]
    if number(text) == 0:
        assert text == plain == "0,000"
    else:
        assert text[0] == ("+" if value > 0 else "−") and number(text) == round(value, 3)


def test_the_issues_zero_interval_reads_without_signs():
    # «[±0,000; ±0,000]» before; tiny ends of either sign round to zero too.
    assert interval([0.0, 0.0]) == interval([-0.0001, 0.0004]) == "[0,000; 0,000]"
    assert cell(-0.0, signed=True)["text"] == cell(-0.0004, signed=True)["text"] == "0,000"
    assert span(0.0, 0.0) == "0,000–0,000"


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 10**7), st.data())
def test_an_estimated_p_value_never_reads_0_and_reads_its_value(permutations, data):
    reached = data.draw(st.integers(0, permutations))
    p = (reached + 1) / (permutations + 1)  # randomization_test's estimate
    se = (p * (1 - p) / permutations) ** 0.5
    for text in (p_value_text(p, permutations, False, se), p_text(p, False), adjusted_text(p, permutations, 3, False)):
        estimate = text.split(" ± ")[0]
        assert number(estimate) > 0, text
        places = len(estimate.split(",")[1])
        assert places >= 4 and number(estimate) == round(p, places), text
        assert places == 4 or p < 0.00005  # more decimals only where four would read 0
    english = p_value_text(p, permutations, False, se, "en").split(" ± ")[0]
    assert english == p_value_text(p, permutations, False, se).split(" ± ")[0].replace(",", ".")
