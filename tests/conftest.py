"""Shared fixtures. Browser fixtures live in tests/browser/conftest.py."""

import json
import pathlib

import pytest
from hypothesis import settings

# Hypothesis's default 200 ms deadline per example measures the machine, not the code: on a loaded
# 2-core runner an example of the snapshot's round trip took longer and failed a correct property.
settings.register_profile("raglab", deadline=None)
settings.load_profile("raglab")

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCENARIO_PATH = ROOT / "site_src" / "data" / "scenario.json"


def load_scenario() -> dict:
    return json.loads(SCENARIO_PATH.read_text(encoding="utf-8"))


@pytest.fixture
def scenario() -> dict:
    return load_scenario()


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory):
    """dist/ built once per session from the current sources, in a temporary directory."""
    import build

    out = tmp_path_factory.mktemp("site") / "dist"
    build.build(out)
    return out


# Modules whose tests compare with ranx: one worker runs them all, so ranx's kernels (numba) compile once.
RANX_MODULES = {"test_evaluation.py", "test_reference.py"}


def pytest_collection_modifyitems(config, items):
    """Units of work for `pytest -n 2 --dist loadgroup` (how `make test` runs the suite on two cores).

    The browser tests form one unit: one worker runs them in order, as they run alone, sharing one
    Chromium and the dist/ it serves. Every other module is a unit of its own (its module fixtures
    are built once), and the modules that call ranx share one. Without xdist, nothing is marked.
    """
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        path = pathlib.Path(item.path).relative_to(ROOT)
        if path.parts[:2] == ("tests", "browser"):
            group = "browser"
        elif path.name in RANX_MODULES:
            group = "ranx"
        else:
            group = path.as_posix()
        item.add_marker(pytest.mark.xdist_group(group))
