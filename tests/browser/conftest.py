"""Browser fixtures: dist/ built from the current sources, served on a free port, a system Chromium.

Browser tests never skip: without a Chromium they fail with the way to get one.
"""

import pytest

from raglab_site.devserver import serving

from ..support.chromium import CHROMIUM_ARGS, HOW_TO_GET_ONE, find_test_chromium
from ..support.lab_page import Lab, forget_the_kept_snapshot

@pytest.fixture(scope="session")
def base_url(site_dir):
    """dist/ served as a host that applies its _headers would (see raglab_site.devserver)."""
    with serving(site_dir) as url:
        yield url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    path = find_test_chromium()
    if not path:
        pytest.fail(HOW_TO_GET_ONE)
    return {**browser_type_launch_args, "executable_path": path, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def shared_context(browser, browser_context_args):
    """One browser context for the session: its HTTP and compiled-wasm caches make every page after
    the first boot faster, as on a reader's repeat visit. Service workers are blocked in it, so
    that `page.route` sees every request and no test leaves a worker behind for the next; the
    offline tests make contexts of their own."""
    context = browser.new_context(**browser_context_args, service_workers="block")
    yield context
    context.close()


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "cold_boot: the page's origin starts without the snapshot kept in Cache Storage (tests about the boot)"
    )
    config.addinivalue_line(
        "markers", "one_lab_page: the module's tests share one lab page as their `lab`, reset between them"
    )


@pytest.fixture
def page(shared_context, base_url, request):
    """A page in the shared context.

    Most tests boot from the decoded snapshot that an earlier test's boot kept in Cache Storage, as
    a reader's repeat visit does: how the snapshot is downloaded, checked and decoded is not their
    subject. Tests about the boot are marked ``cold_boot`` (all of test_faults.py): their origin
    starts without a kept copy, so each downloads, checks and decodes the snapshot (or fails to)
    itself, and it ends without one, so that no damaged copy reaches the next test."""
    page = shared_context.new_page()
    cold = request.node.get_closest_marker("cold_boot") is not None
    if cold:
        forget_the_kept_snapshot(shared_context, page, base_url)
    yield page
    if cold:
        # The page's worker keeps the decoded snapshot a second after the page is ready (worker.js,
        # afterReady): a test that ends sooner leaves that timer running, and a worker outlives page.close()
        # for a moment, so its write could land after the next cold test's origin was cleared, which then
        # started with a kept copy and no preload. Leaving the page first ends the worker and its timer.
        page.goto("about:blank")
        forget_the_kept_snapshot(shared_context, page, base_url)
    page.close()


@pytest.fixture
def lab(request, shared_context, base_url):  # shared_context named: the tests keep their [chromium] id
    """A lab page loaded with Python ready, whose console must stay free of errors. In a module marked
    ``one_lab_page`` it is the module's one page (``module_lab``), reset to the scenario's defaults
    (``Lab.reset``): for tests that only drive the lab's controls and read what the page shows, a Python boot
    saved per test (1.6–2.3 s of CPU). A test about the load itself (the URL's state, the boot, what is
    requested or kept) takes ``page`` and loads it."""
    if request.node.get_closest_marker("one_lab_page"):
        lab = request.getfixturevalue("module_lab")
        lab.reset()
    else:
        lab = Lab(request.getfixturevalue("page"), base_url)
    yield lab
    assert lab.errors == []


@pytest.fixture(scope="module")
def module_lab(shared_context, base_url):
    """One lab page for a module, loaded (and Python booted) once: see ``lab``."""
    page = shared_context.new_page()
    yield Lab(page, base_url)
    page.close()
