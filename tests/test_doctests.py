"""The docstring examples run, pass, and exist (a module losing its examples fails here)."""

import doctest
import importlib

import pytest

MODULES = [
    "errors", "validate", "metrics", "ranking", "chunking", "formatting", "controls", "scenario", "lab",
    "browser", "trec", "evaluation", "report", "__main__", "data_panel", "form",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests_ran_and_passed(name):
    module = importlib.import_module(f"raglab_core.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0
    assert result.attempted > 0, f"raglab_core.{name} has no doctest examples"
