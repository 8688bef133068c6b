"""Every module of raglab_core has docstring examples (a module losing its examples fails here).

The examples themselves run once, under ``--doctest-modules`` (pyproject.toml's
``addopts``, with ``raglab_core`` in ``testpaths``); this test only makes sure
that no module, including one added later in any subpackage, is left without them.
"""

import doctest
import importlib
import pkgutil

import pytest

import raglab_core

MODULES = sorted(module.name for module in pkgutil.walk_packages(raglab_core.__path__, "raglab_core."))


def test_the_modules_are_found_in_every_subpackage():
    assert {"raglab_core.metrics", "raglab_core.__main__", "raglab_core.lab.compute",
            "raglab_core.runs.measures"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_every_module_has_doctest_examples(name):
    module = importlib.import_module(name)
    examples = sum(len(test.examples) for test in doctest.DocTestFinder().find(module))
    assert examples > 0, f"{name} has no doctest examples"


def test_the_doctests_run_under_pytest(pytestconfig):
    assert pytestconfig.getoption("doctestmodules"), "run pytest with --doctest-modules (pyproject addopts)"
