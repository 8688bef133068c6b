"""Two lanes for `make test` (`pytest -n 2`): the CPython test modules first, then the modules that
need the build, each module handed whole to whichever worker is free, the longest first.

The order matters: `dist/` is built in a thread of the first worker (tests/conftest.py) while the
CPython tests run, and the browser tests, which need it, come after them. Whole modules keep each
module's shared fixtures (a served site, a booted page) to one worker. pytest-xdist's `loadfile`
hands out modules in collection order, where the browser tests come first (tests/browser/ sorts
before tests/core/ and tests/site/); `loadgroup` does nothing under pytest 9 (it renames `item._nodeid`, which
pytest 9 no longer reads). Measured in docs/performance.md.
"""

from __future__ import annotations

from collections import OrderedDict

from xdist.scheduler import LoadScopeScheduling

BUILD_LANE = "gw0"  # the worker that builds dist/; the others wait for it

# The modules whose judges import the scientific stack: ranx (with pandas, scipy.stats and matplotlib,
# about 6 s of CPU to import, interpreted), scikit-learn and statsmodels (each about 4 s on its own,
# mostly the same scipy and pandas). Handed out as one unit, the first, so that one worker imports
# the stack once; split over both lanes, each lane paid for it (in a clean clone's run, the first
# ranx test of each lane took 6–7 s, its import included).
SCIENTIFIC = "the modules that import the scientific stack"
SCIENTIFIC_MODULES = frozenset({
    "tests/core/lab/test_conventions.py", "tests/core/runs/test_evaluation.py", "tests/core/kernel/test_reference.py",
    "tests/core/runs/test_fusion.py", "tests/core/runs/test_fuse_cli.py", "tests/core/runs/test_holm.py",
    "tests/core/runs/test_many_runs.py", "tests/core/corpus/test_corpus_sweep.py",
    # the judges' judges: scikit-learn, krippendorff, irrCAC (pandas), scipy
    "tests/core/judges/test_labels.py", "tests/core/judges/test_systems.py", "tests/core/judges/test_agree_cli.py",
})

# The longest modules (measured), handed out first so that no lane ends long after the other.
# Firefox's one test leads the browser modules: its start waits on the disk (vmstat: 50–97 % I/O
# wait in the last 40 s of a run where it came last), which the other lane's work then overlaps.
LONGEST_FIRST = [
    SCIENTIFIC, "tests/core/runs/test_cli.py",
    "tests/browser/test_firefox.py", "tests/browser/test_faults.py", "tests/browser/test_docsite.py",
    "tests/browser/test_lab.py",
    "tests/browser/test_data_panel.py", "tests/browser/test_learner.py", "tests/browser/test_robustness.py",
    "tests/browser/test_judging.py", "tests/browser/test_hosts.py", "tests/browser/test_fit.py",
    "tests/browser/test_judges.py",
]
BUILT = " (built)"  # the scope of a module's tests that need the build, where the module has others


def starts_the_build_tail(nodeid: str) -> bool:
    """The first test of the tail that tests/conftest.py sorts last: the browser tests lead it."""
    return nodeid.startswith(("tests/browser/", "tests/site/test_build.py"))


class TwoLanes(LoadScopeScheduling):
    """LoadScopeScheduling by module (the scientific stack's modules as one unit), the CPython modules before
    those of the build's tail."""

    def __init__(self, config, log=None):
        super().__init__(config, log)
        self.tail: set[str] = set()

    def _split_scope(self, nodeid: str) -> str:
        module = nodeid.split("::", 1)[0]
        if nodeid in self.tail:
            return module if module.startswith("tests/browser/") else module + BUILT
        return SCIENTIFIC if module in SCIENTIFIC_MODULES else module

    def schedule(self) -> None:
        assert self.collection_is_completed
        if self.collection is not None:  # the first distribution is done: more work for the nodes
            for node in self.nodes:
                self._reschedule(node)
            return
        if not self._check_nodes_have_same_collection():
            self.log("**Different tests collected, aborting run**")
            return
        self.collection = list(next(iter(self.registered_collections.values())))
        start = next((i for i, nodeid in enumerate(self.collection) if starts_the_build_tail(nodeid)), None)
        self.tail = set(self.collection[start:]) if start is not None else set()
        units: OrderedDict[str, dict[str, bool]] = OrderedDict()
        for nodeid in self.collection:
            units.setdefault(self._split_scope(nodeid), {})[nodeid] = False
        rank = {module: i for i, module in enumerate(LONGEST_FIRST)}
        for scope in sorted(units, key=lambda scope: (next(iter(units[scope])) in self.tail, rank.get(scope, len(rank)))):
            self.workqueue[scope] = units[scope]
        for node in sorted(self.nodes, key=lambda node: node.gateway.id == BUILD_LANE):
            self._reschedule(node)  # the longest module to a lane that does not build
