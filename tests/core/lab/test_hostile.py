"""Hostile text in every field, in CPython: each value gets a message or is read, and breaks nothing.

This matrix used to go, value by value, through the page (tests/browser/test_robustness.py). What
it checks is compute()'s: the page shows compute(state) exactly, which the browser tests prove on
a representative case of each kind (BROWSER_CASES, in tests/support/hostile.py: empty, HTML, a newline
the input drops, non-ASCII digits, beyond a double, a conflict between fields, a valid edge value).
"""

import json

import pytest

from raglab_core import compute

from tests.conftest import load_scenario
from tests.support.hostile import BROWSER_CASES, CHUNKING, RANKING, VALID

# Words that must never reach the page (case as the page would show them).
FORBIDDEN = ("NaN", "Infinity", "undefined", "None", "null")

# (field, what a user types). Each hostile text goes to two fields, in rotation; then the cases of
# the issue that depend on other fields, and valid edge values that must not raise a message.
HOSTILE_TEXT = ["", "   ", "-1", "1e309", "NaN", "Infinity", "0x10", "٣", "1,5", "1.5", "10e3",
                "12345678901234567890", "abc\n12", "<script>alert(1)</script>"]
FIELDS = ("total", "docs", "tokens_doc", "chunk", "solape")
HOSTILE = [
    (FIELDS[(i + shift) % len(FIELDS)], text) for i, text in enumerate(HOSTILE_TEXT) for shift in (0, 2)
] + [
    ("solape", "512"), ("solape", "9999"), ("chunk", "0"), ("chunk", "64"),   # overlap ≥ chunk
    ("total", "4"), ("total", "0"),                                            # total < relevant found
    ("docs", "0"), ("tokens_doc", "0"), ("solape", "0"), ("docs", " 7 "),      # valid edge values
    ("docs", "<img src=x onerror=alert(1)>"), ("total", "９"), ("tokens_doc", "1 000"), ("chunk", "+512"),
]
IDS = [f"{field}={value!r}" for field, value in HOSTILE]


def shown_texts(view):
    """Every string of the view the page writes (not the controls' parsed values)."""
    def strings(node):
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            for key, value in node.items():
                yield from strings(value)
        elif isinstance(node, list):
            for value in node:
                yield from strings(value)

    for key, part in view.items():
        if key == "controls":
            yield from (control["error"] for control in part.values() if control["error"])
        else:
            yield from strings(part)


def test_at_least_forty_hostile_values():
    assert len(HOSTILE) >= 40 and set(BROWSER_CASES) <= set(HOSTILE)


@pytest.mark.parametrize("field, value", HOSTILE, ids=IDS)
def test_hostile_input_gets_a_message_and_breaks_nothing(field, value):
    state = {"scenario": load_scenario(), field: value, "edited": [field]}
    view = compute(state)
    json.dumps(view, allow_nan=False)
    for text in shown_texts(view):
        assert not any(word in text for word in FORBIDDEN), text
    error = view["controls"][field]["error"]
    if error:
        other = RANKING if field in CHUNKING else CHUNKING[2:]
        for name in other:  # the other panel keeps working
            assert view["controls"][name]["error"] is None
        assert view["outputs"]["precision" if field in CHUNKING else "stride"]["raw"] != ""
    # The next valid input works.
    after = compute({**state, field: VALID[field]})
    assert after["controls"][field]["error"] is None
    json.dumps(after, allow_nan=False)
