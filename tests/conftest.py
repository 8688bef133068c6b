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

