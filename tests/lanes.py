"""Two lanes for `make test` (`pytest -n 2`): the CPython tests on both cores, then the tests that
need the build on one.

The browser tests keep both cores busy on their own (Chromium's threads and the Pyodide worker), so
running them beside anything else only slows both. The CPython tests run on one core and leave the
other idle. So the CPython test modules are shared out one at a time to whichever worker is free,
and the tests that need the build (tests/conftest.py sorts them to the end of every worker's
collection) go as one unit to the first worker, `gw0`, the only one that builds `dist/` ahead;
they are sent once no CPython module is left to share. Measured in docs/performance.md.

pytest-xdist's own modes cannot say this: `loadscope`/`loadfile` would spread the browser tests
over both workers, and `loadgroup` does nothing under pytest 9 (it renames `item._nodeid`, which
pytest 9 no longer reads).
"""

from __future__ import annotations

from collections import OrderedDict

from xdist.scheduler import LoadScopeScheduling

BUILD_LANE = "gw0"
BUILD_UNIT = "the tests that need the build"

# The longest CPython modules (measured), handed out first so that no lane ends long after the other.
LONGEST_FIRST = ["tests/test_conventions.py", "tests/test_evaluation.py", "tests/test_cli.py"]


def starts_the_build_tail(nodeid: str) -> bool:
    """The first test of the sorted tail: tests/conftest.py puts the browser tests first in it."""
    return nodeid.startswith(("tests/browser/", "tests/test_build.py"))


class TwoLanes(LoadScopeScheduling):
    """LoadScopeScheduling with one module per unit, except the build tail, which only the
    building worker runs, and only when the CPython units are all handed out."""

    def __init__(self, config, log=None):
        super().__init__(config, log)
        self.tail: set[str] = set()
        self.tail_sent = False

    def _split_scope(self, nodeid: str) -> str:
        if nodeid in self.tail:
            return BUILD_UNIT
        return nodeid.split("::", 1)[0]

    def schedule(self) -> None:
        assert self.collection_is_completed
        if self.collection is not None:
            for node in self.nodes:
                self._reschedule(node)
            return
        if not self._check_nodes_have_same_collection():
            self.log("**Different tests collected, aborting run**")
            return
        self.collection = list(next(iter(self.registered_collections.values())))
        start = next((i for i, nodeid in enumerate(self.collection) if starts_the_build_tail(nodeid)), None)
        if start is not None:
            self.tail = set(self.collection[start:])
        units: OrderedDict[str, dict[str, bool]] = OrderedDict()
        for nodeid in self.collection:
            units.setdefault(self._split_scope(nodeid), {})[nodeid] = False
        self.tail_unit = units.pop(BUILD_UNIT, None)
        for slow in reversed(LONGEST_FIRST):  # the first of them to a lane that does not build
            if slow in units:
                units.move_to_end(slow, last=False)
        self.workqueue.update(units)
        for node in sorted(self.nodes, key=lambda node: node.gateway.id == BUILD_LANE):
            self._reschedule(node)

    def _reschedule(self, node) -> None:
        if node.shutting_down:
            return
        pending = self._pending_of(self.assigned_work[node])
        if self.workqueue:
            if pending <= 2:
                self._assign_work_unit(node)
            return
        if self.tail_unit is not None and not self.tail_sent and node.gateway.id == BUILD_LANE:
            self.tail_sent = True
            self.workqueue[BUILD_UNIT] = self.tail_unit
            self._assign_work_unit(node)
            return
        node.shutdown()  # nothing more for it: a worker holds its last test until it is told so
