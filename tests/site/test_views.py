"""The build-time view table (raglab_site/views.py): every view in it is raglab_core.compute's for its
state, whatever order the sliders were moved in; it is small, reproducible and integrity-checked."""

import base64
import gzip
import hashlib
import itertools
import json
import random
import re

import pytest

from raglab_core import compute
from raglab_site import views

from tests.conftest import load_scenario


@pytest.fixture(scope="module")
def shipped(site_dir):
    """The table dist/ ships, and the page configuration's entry for it."""
    dist = site_dir
    html = (dist / "index.html").read_text("utf-8")
    config = json.loads(re.search(r'<script type="application/json" id="lab-config">(.*?)</script>', html, re.S).group(1))
    entry = config["views"]
    data = gzip.decompress((dist / entry["url"]).read_bytes())  # shipped gzip-compressed: boot.js decodes it
    return json.loads(data), entry, data


def states(table):
    """Every state of the table, as lab.js sends it (without ``edited``), with its positions."""
    names = [name for name, _ in table["axes"]]
    for positions in itertools.product(*(range(len(values)) for _, values in table["axes"])):
        values = {name: table["axes"][axis][1][at] for axis, (name, at) in enumerate(zip(names, positions))}
        yield list(positions), {"scenario": load_scenario(), **table["state"], **values}


def test_every_view_in_the_table_is_what_compute_gives_for_its_state(shipped):
    table, _, _ = shipped
    assert [name for name, _ in table["axes"]] == ["k", "umbral", "rerank"]
    checked = 0
    for positions, state in states(table):
        assert views.view_at(table, positions) == compute(state), state
        checked += 1
    assert checked == 12 * 3 * 13  # k 1–12, umbral 1–3, rerank 0–12: total follows umbral


def test_the_table_state_is_the_page_start_state(shipped):
    """Every control but total, as its input's default text: compute() sees the scenario's defaults."""
    table, _, _ = shipped
    scenario = load_scenario()
    assert table["state"] == {name: str(value) for name, value in scenario["defaults"].items() if name != "total"}
    assert compute({"scenario": scenario, **table["state"]}) == compute({"scenario": scenario})


def test_the_order_of_slider_moves_does_not_change_a_view(shipped):
    """lab.js looks a state up whatever order k, umbral and rerank were edited in: compute agrees."""
    table, _, _ = shipped
    rng = random.Random(24)
    sample = rng.sample(list(states(table)), 40)
    orders = [list(order) for n in range(1, 4) for order in itertools.permutations(["k", "umbral", "rerank"], n)]
    for positions, state in sample:
        expected = views.view_at(table, positions)
        for order in rng.sample(orders, 4):
            assert compute({**state, "edited": order}) == expected, (state, order)


def test_the_table_is_small_and_shipped_small(shipped, site_dir):
    _, entry, data = shipped
    assert len(data) <= 300_000
    assert (site_dir / entry["url"]).stat().st_size <= 40_000  # gzip-compressed, whatever the host sends


def test_the_table_is_integrity_checked(shipped, site_dir):
    _, entry, _ = shipped
    shipped_bytes = (site_dir / entry["url"]).read_bytes()
    assert entry["integrity"] == "sha384-" + base64.b64encode(hashlib.sha384(shipped_bytes).digest()).decode()
    assert entry["url"].startswith("assets/views.") and entry["url"].endswith(".bin")  # gzip inside


def test_the_table_is_made_again_byte_for_byte_without_the_cache(shipped, tmp_path, monkeypatch):
    _, _, data = shipped
    monkeypatch.setattr(views, "CACHE", tmp_path)
    assert views.table_bytes(load_scenario()) == data
    assert list(tmp_path.rglob("*.json"))  # and it is cached for the next build


def test_a_change_to_a_module_in_a_subpackage_invalidates_the_table_cache(tmp_path):
    """The key reads every module, subpackages included: a stale table would answer with old views."""
    import shutil

    core = tmp_path / "raglab_core"
    shutil.copytree(views.CORE, core, ignore=shutil.ignore_patterns("__pycache__"))
    scenario = load_scenario()
    before = views.cache_key(scenario, core)
    assert views.cache_key(scenario, core) == before  # deterministic
    for module in (core / "lab" / "ranking_reading.py", core / "runs" / "measures.py", core / "words.py"):
        module.write_text(module.read_text("utf-8") + "\n# changed\n", "utf-8")
        after = views.cache_key(scenario, core)
        assert after != before, module
        before = after
    (core / "lab" / "__init__.py").rename(core / "runs" / "moved.py")  # a file moved, same bytes
    assert views.cache_key(scenario, core) != before
