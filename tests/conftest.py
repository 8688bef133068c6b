"""Shared fixtures. Browser fixtures live in tests/browser/conftest.py."""

import json
import os
import pathlib
import shutil
import tempfile
import threading

import pytest
from hypothesis import settings

from . import lanes

# Hypothesis's default 200 ms deadline per example measures the machine, not the code: on a loaded
# 2-core runner an example of the snapshot's round trip took longer and failed a correct property.
settings.register_profile("raglab", deadline=None)
settings.load_profile("raglab")

# ranx is numba code. Compiled, it costs a fresh clone about 100 s of CPU (its measures compile at
# import, in every xdist worker, and again for each data type) to save a few seconds of running;
# interpreted, it is the same Python source, run by CPython (docs/performance.md, «The test suite»).
os.environ.setdefault("NUMBA_DISABLE_JIT", "1")

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCENARIO_PATH = ROOT / "site_src" / "data" / "scenario.json"


def load_scenario() -> dict:
    return json.loads(SCENARIO_PATH.read_text(encoding="utf-8"))


@pytest.fixture
def scenario() -> dict:
    return load_scenario()


class BuildAhead:
    """dist/, built from the current sources in a thread of its own while the tests that do not
    need it run. On a fresh clone the build takes about 25 s, most of it brotli compressing the
    snapshot, which releases the GIL: the CPython tests run meanwhile on the other core."""

    def __init__(self):
        self.out = pathlib.Path(tempfile.mkdtemp(prefix="raglab-site-")) / "dist"
        self.error = None
        self.thread = threading.Thread(target=self._build, name="raglab-build-ahead", daemon=True)
        self.thread.start()

    def _build(self):
        try:
            import build

            build.build(self.out)
        except BaseException as error:  # re-raised in the tests that need the build
            self.error = error

    def result(self) -> pathlib.Path:
        self.thread.join()
        if self.error is not None:
            raise self.error
        return self.out


BUILD_AHEAD = pytest.StashKey[BuildAhead]()


def needs_the_build(item) -> bool:
    """Whether a test reads dist/ or builds (and so wants .cache/ warm): the browser tests, the build
    tests, and any test of the built page."""
    return item.nodeid.startswith(("tests/browser/", "tests/test_build.py")) or "site_dir" in getattr(item, "fixturenames", ())


def builds_here(config) -> bool:
    """In one process, or on the xdist worker that runs the build's tests (tests/lanes.py)."""
    workerinput = getattr(config, "workerinput", None)
    return workerinput is None or workerinput["workerid"] == lanes.BUILD_LANE


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected: no build for a run that needs none
def pytest_collection_modifyitems(config, items):
    """The tests that need the build run last (in their order), and the build starts now."""
    items.sort(key=needs_the_build)
    if not config.option.collectonly and builds_here(config) and any(map(needs_the_build, items)):
        config.stash[BUILD_AHEAD] = BuildAhead()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`pytest -n 2` (make test): the CPython tests on both workers, then the build's on one."""
    return lanes.TwoLanes(config, log)


def built(config) -> pathlib.Path:
    if BUILD_AHEAD not in config.stash:  # a test that needs the build, where none was started
        config.stash[BUILD_AHEAD] = BuildAhead()
    return config.stash[BUILD_AHEAD].result()


def pytest_unconfigure(config):
    ahead = config.stash.get(BUILD_AHEAD, None)
    if ahead is not None and not ahead.thread.is_alive():
        shutil.rmtree(ahead.out.parent, ignore_errors=True)


@pytest.fixture(autouse=True)
def _built_first(request):
    """A test that builds waits for the build ahead: its own build then finds .cache/ warm."""
    if needs_the_build(request.node):
        built(request.config)


@pytest.fixture(scope="session")
def site_dir(request):
    """dist/ built once per session from the current sources, in a temporary directory."""
    return built(request.config)
