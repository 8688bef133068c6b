"""Shared fixtures. Browser fixtures live in tests/browser/conftest.py."""

import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCENARIO_PATH = ROOT / "site_src" / "data" / "scenario.json"


def load_scenario() -> dict:
    return json.loads(SCENARIO_PATH.read_text(encoding="utf-8"))


@pytest.fixture
def scenario() -> dict:
    return load_scenario()
