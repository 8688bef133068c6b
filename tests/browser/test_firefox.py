"""The lab in a second engine: Firefox ESR boots from the snapshot and computes what CPython computes."""

import json
import subprocess

import pytest

from raglab_core import compute

from ..conftest import ROOT, load_scenario
from ..firefox import HOW_TO_GET_ONE, find_firefox


from .conftest import OUTPUT_NAMES


def raw_outputs(view, names):
    return {name: view["outputs"][name]["raw"] for name in names}


def test_firefox_boots_from_the_snapshot_and_matches_cpython(base_url):
    firefox = find_firefox()
    if not firefox:
        pytest.fail(HOW_TO_GET_ONE)
    result = subprocess.run(
        ["node", str(ROOT / "tests" / "browser" / "firefox.mjs"), firefox, base_url + "?k=4&umbral=1"],
        capture_output=True, text=True, timeout=180, cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    shown = json.loads(result.stdout.strip().splitlines()[-1])
    scenario = load_scenario()
    assert shown["before"]["boot"] == "snapshot"
    names = set(shown["before"]["outputs"])
    assert names >= set(OUTPUT_NAMES)
    assert shown["before"]["outputs"] == raw_outputs(compute({"scenario": scenario, "k": "4", "umbral": "1"}), names)
    assert shown["after"]["k"] == "5"
    assert shown["after"]["outputs"] == raw_outputs(compute({"scenario": scenario, "k": "5", "umbral": "1"}), names)
    assert shown["problems"] == []
