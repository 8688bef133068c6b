"""Shared fixtures. Browser fixtures live in tests/browser/conftest.py."""

import json
import os
import pathlib
import shutil
import tempfile
import threading
import time

import pytest
from hypothesis import settings

# tests/support's helpers assert too (Lab.expect_matches_core compares what the page shows with compute()):
# rewritten like the tests' own asserts, their failures show the difference.
pytest.register_assert_rewrite("tests.support")

from .support import lanes  # noqa: E402 (after the rewrite's registration)

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
    snapshot, which releases the GIL: the CPython tests run meanwhile on the other core.

    It builds into ``folder``/dist (``folder``: a new temporary directory by default) and leaves
    ``folder``/built, or ``folder``/failed with the error, for the other xdist workers
    (:class:`BuiltElsewhere`)."""

    def __init__(self, folder: pathlib.Path | None = None):
        self.owned = folder is None
        self.folder = folder or pathlib.Path(tempfile.mkdtemp(prefix="raglab-site-"))
        self.error = None
        self.thread = threading.Thread(target=self._build, name="raglab-build-ahead", daemon=True)
        self.thread.start()

    def _build(self):
        try:
            import build

            build.build(self.folder / "dist")
            (self.folder / "built").touch()
        except BaseException as error:  # re-raised in the tests that need the build
            self.error = error
            (self.folder / "failed").write_text(f"{type(error).__name__}: {error}", "utf-8")

    def result(self) -> pathlib.Path:
        self.thread.join()
        if self.error is not None:
            raise self.error
        return self.folder / "dist"


class BuiltElsewhere:
    """dist/ that the xdist worker ``lanes.BUILD_LANE`` builds into ``folder`` (:class:`BuildAhead`)."""

    def __init__(self, folder: pathlib.Path):
        self.folder = folder

    def result(self, timeout: float = 900.0) -> pathlib.Path:
        deadline = time.monotonic() + timeout
        while not (self.folder / "built").exists():
            if (self.folder / "failed").exists():
                raise RuntimeError(f"the build in worker {lanes.BUILD_LANE} failed: " + (self.folder / "failed").read_text("utf-8"))
            if time.monotonic() > deadline:
                raise TimeoutError(f"worker {lanes.BUILD_LANE} did not finish building dist/ in {timeout:.0f} s")
            time.sleep(0.2)
        return self.folder / "dist"


BUILD_AHEAD = pytest.StashKey[BuildAhead | BuiltElsewhere]()
SHARED_SITE = pytest.StashKey[pathlib.Path]()


def needs_the_build(item) -> bool:
    """Whether a test reads dist/ or builds (and so wants the build cache warm): the browser tests, the build
    tests, and any test of the built page."""
    return item.nodeid.startswith(("tests/browser/", "tests/site/test_build.py")) or "site_dir" in getattr(item, "fixturenames", ())


def the_build(config) -> BuildAhead | BuiltElsewhere:
    """In one process, a build of its own; under xdist, one build in the folder the controller
    gave every worker, made by ``lanes.BUILD_LANE`` and waited for by the others."""
    shared = getattr(config, "workerinput", {}).get("raglab_site")
    if shared is None:
        return BuildAhead()
    if config.workerinput["workerid"] == lanes.BUILD_LANE:
        return BuildAhead(pathlib.Path(shared))
    return BuiltElsewhere(pathlib.Path(shared))


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected: no build for a run that needs none
def pytest_collection_modifyitems(config, items):
    """The tests that need the build run last (in their order), and the build starts now."""
    items.sort(key=needs_the_build)
    if not config.option.collectonly and any(map(needs_the_build, items)):
        config.stash[BUILD_AHEAD] = the_build(config)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`pytest -n 2` (make test): tests/support/lanes.py. An explicit `--dist` keeps pytest-xdist's own."""
    return lanes.TwoLanes(config, log) if config.getvalue("dist") == "load" else None


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """The controller gives every worker the same folder for the one build."""
    if SHARED_SITE not in node.config.stash:
        node.config.stash[SHARED_SITE] = pathlib.Path(tempfile.mkdtemp(prefix="raglab-site-"))
    node.workerinput["raglab_site"] = str(node.config.stash[SHARED_SITE])


def built(config) -> pathlib.Path:
    if BUILD_AHEAD not in config.stash:  # a test that needs the build, where none was started
        config.stash[BUILD_AHEAD] = the_build(config)
    return config.stash[BUILD_AHEAD].result()


def pytest_unconfigure(config):
    shared = config.stash.get(SHARED_SITE, None)  # the controller, once its workers are done
    if shared is not None:
        shutil.rmtree(shared, ignore_errors=True)
    ahead = config.stash.get(BUILD_AHEAD, None)
    if isinstance(ahead, BuildAhead) and ahead.owned and not ahead.thread.is_alive():
        shutil.rmtree(ahead.folder, ignore_errors=True)


def system_installed(status_file: str | None, timeout: float = 900.0) -> None:
    """Wait for `make test`'s install of the system programs (Chromium, Firefox, nginx, Caddy), which runs beside
    the CPython tests: ``status_file`` (``$RAGLAB_SYSTEM_STATUS``) holds its exit status once it has ended. No file
    named: nothing to wait for (the programs are found or explained where they are used)."""
    if not status_file:
        return
    path = pathlib.Path(status_file)
    deadline = time.monotonic() + timeout
    while not (status := path.read_text().strip() if path.exists() else ""):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the system programs' install did not end in {timeout:.0f} s ({path})")
        time.sleep(0.2)
    if status != "0":
        raise RuntimeError(f"the system programs' install failed (exit status {status}): see make test's output "
                           "above, or tests/support/system.py")


def needs_the_system(item) -> bool:
    """Whether a test drives a browser or a real host (tests/browser/)."""
    return item.nodeid.startswith("tests/browser/")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """A browser test waits for the system programs' install, when `make test` runs it beside the tests: before
    any of its fixtures (a module's browser among them) is set up."""
    if needs_the_system(item):
        system_installed(os.environ.get("RAGLAB_SYSTEM_STATUS"))


@pytest.fixture(autouse=True)
def _built_first(request):
    """A test that builds waits for the build ahead: its own build then finds the build cache warm."""
    if needs_the_build(request.node):
        built(request.config)


@pytest.fixture(scope="session")
def site_dir(request):
    """dist/ built once per session from the current sources, in a temporary directory."""
    return built(request.config)
