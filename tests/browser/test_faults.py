"""Faults while loading or running Python: the server-rendered page stays, one Spanish message says
what to do, and the detail goes to the console. Faults are injected with Playwright's `route`."""

import pytest
from playwright.sync_api import expect

from raglab_core import compute
from raglab_site.devserver import serving
from raglab_site.snapshot import KEPT_CACHE

from ..conftest import load_scenario
from ..support.lab_page import SNAPSHOT, Lab, forget_the_kept_snapshot

DEFAULT = compute({"scenario": load_scenario()})
pytestmark = pytest.mark.cold_boot  # every test here is about the boot: no snapshot kept from an earlier test


def garbage(route):
    route.fulfill(status=200, body=b"\x00\x01garbage{{ not what you expected", content_type="text/javascript")


def not_found(route):
    route.fulfill(status=404, body=b"not found")


def tampered(route):
    response = route.fetch()
    body = bytearray(response.body())
    body[len(body) // 2] ^= 0xFF
    route.fulfill(response=response, body=bytes(body))


def truncated(route):
    response = route.fetch()
    body = response.body()
    route.fulfill(response=response, body=body[: len(body) // 2])


def throwing_worker(route):
    route.fulfill(status=200, body=b"throw new Error('injected worker failure');", content_type="text/javascript")


WASM = "**/pyodide.asm.wasm.bin"  # the runtime's wasm, as the brotli copy the worker decodes
RUNTIME_FAILED = "No se pudo descargar o iniciar Python"
# fault: ([(URL pattern, handler), …], the message the page must show)
FAULTS = {
    "worker 404": ([("**/assets/worker.*.js", not_found)], "cálculo en segundo plano"),
    "worker garbage": ([("**/assets/worker.*.js", garbage)], "cálculo en segundo plano"),
    "worker throws": ([("**/assets/worker.*.js", throwing_worker)], "cálculo en segundo plano"),
    "runtime module 404": ([("**/pyodide.module.js", not_found)], RUNTIME_FAILED),
    "pyodide runtime garbage": ([("**/pyodide.asm.js", garbage)], RUNTIME_FAILED),
    "wasm not brotli": ([(WASM, garbage)], RUNTIME_FAILED),  # missing, truncated, tampered: on both hosts, below
    # The decoder serves the wasm as well as the snapshot: without it, no boot.
    "brotli decoder 404": ([("**/brotli_dec_wasm_bg.wasm.gz.bin", not_found)], RUNTIME_FAILED),
    # The wheel is only fetched on the plain boot: take the snapshot away too.
    "wheel 404": ([(SNAPSHOT, not_found), ("**/*.whl", not_found)], "No se pudo descargar el núcleo de cálculo"),
    "snapshot tampered, wheel tampered": (
        [(SNAPSHOT, tampered), ("**/*.whl", tampered)],
        "no coincide con el publicado (falla su SHA-256)",
    ),
}


@pytest.mark.parametrize("fault", FAULTS)
def test_fault_leaves_the_server_render_and_one_clear_message(page, base_url, fault):
    routes, message = FAULTS[fault]
    expect_one_clear_message(page, base_url, routes, message)


def expect_one_clear_message(page, url, routes, message):
    """Load ``url`` with ``routes`` faulty: the boot fails, the server's render stays, and the page
    says ``message``, once."""
    console = []
    page.on("console", lambda m: console.append((m.type, m.text)))
    for pattern, handler in routes:
        page.route(pattern, handler)
    # Without the view table (which would answer ?k=3 at once: tests/browser/test_views.py), the
    # URL's state can only wait for Python.
    page.route("**/assets/views.*.bin", not_found)
    page.goto(url + "?k=3")
    status = page.locator("[data-status]")
    expect(status).to_have_attribute("data-status", "error", timeout=60_000)
    expect(status).to_contain_text(message)
    expect(status).to_contain_text("Recarga la página")
    expect(page.locator("html")).not_to_have_attribute("data-ready", "true")
    # The server-rendered numbers stay, never silently different ones.
    for name in ("precision", "ndcg", "chunks"):
        expect(page.locator(f'[data-output="{name}"]')).to_have_attribute("data-value", DEFAULT["outputs"][name]["raw"])
    # They belong to another state than the URL's: still marked as such.
    expect(page.locator("html")).to_have_attribute("data-pending", "stale")
    assert any(kind == "error" and "raglab:" in text for kind, text in console), console
    # Exactly one message: the status box, not a cascade.
    assert len([t for k, t in console if k == "error" and t.startswith("raglab:")]) == 1


# --- the runtime's wasm, decoded by the worker, behind both kinds of host --------------------------


@pytest.fixture(scope="session")
def hosts(base_url, site_dir):
    """The two kinds of host: one that sends the precompressed copies (the dev server, as nginx's
    brotli_static does) and one that sends every file as it is (``python -m http.server``)."""
    with serving(site_dir, precompressed=False) as as_it_is:
        yield {"precompressed": base_url, "uncompressed": as_it_is}


@pytest.mark.parametrize("host", ["precompressed", "uncompressed"])
@pytest.mark.parametrize("fault", [not_found, truncated, tampered], ids=["missing", "truncated", "tampered"])
def test_a_broken_wasm_copy_fails_the_boot_on_either_host(page, shared_context, hosts, host, fault):
    """The wasm's brotli copy is checked (its SHA-256) and decoded by the worker: missing, cut short
    or altered, it fails the boot with the runtime's message, whatever the host sends."""
    forget_the_kept_snapshot(shared_context, page, hosts[host])  # (the page fixture's origin is the first host's)
    expect_one_clear_message(page, hosts[host], [(WASM, fault)], RUNTIME_FAILED)
    forget_the_kept_snapshot(shared_context, page, hosts[host])


# --- the snapshot: the fast path, and the plain boot when it cannot be used -----------------------


# A missing snapshot's plain boot: test_a_snapshot_failing_before_pyodide_instantiates_leaves_the_plain_boot_free.
@pytest.mark.parametrize(
    "pattern, fault, notice",
    [
        (SNAPSHOT, None, None),
        (SNAPSHOT, tampered, "no superó la comprobación de integridad"),
    ],
    ids=["snapshot", "snapshot tampered"],
)
def test_snapshot_and_fallback_boots_both_compute_what_cpython_computes(page, base_url, pattern, fault, notice):

    if fault:
        page.route(pattern, fault)
    lab = Lab(page, base_url, "?k=7&umbral=1&chunk=300&solape=40")
    expect(page.locator("html")).to_have_attribute("data-boot", "plain" if fault else "snapshot")
    lab.expect_matches_core()
    lab.press("rerank", "End")
    lab.grade("d12", 3)
    lab.type("docs", "123456")
    lab.expect_matches_core()
    status = page.locator("[data-status]")
    if notice:
        expect(status).to_have_attribute("data-status", "warning")
        expect(status).to_contain_text(notice)
    else:
        expect(status).to_have_attribute("data-status", "ready")
    assert lab.errors == []


@pytest.mark.parametrize("slow", ["**/pyodide.asm.js", "**/empty.zip"])
def test_a_snapshot_failing_before_pyodide_instantiates_leaves_the_plain_boot_free(page, base_url, slow):
    """The snapshot cannot be had (404) while the snapshot attempt still waits for one of its files:
    the plain boot must still come up, compute what CPython computes, and say nothing is wrong.
    (Written for an ordering hole between the abandoned attempt's instantiation and the plain boot's,
    seen once as a hang; holding these files did not reproduce it, so this covers the scenario, not that
    hole.)"""
    missing, held = [], []

    def release():  # the file arrives once the snapshot's 404 is answered, to the page's preload and to the worker
        if len(missing) >= 2:
            while held:
                held.pop().continue_()

    def snapshot_missing(route):
        not_found(route)
        missing.append(route.request.url)
        release()

    def late(route):
        held.append(route)
        release()

    page.route(SNAPSHOT, snapshot_missing)
    page.route(slow, late)
    lab = Lab(page, base_url, "?k=3")
    expect(page.locator("html")).to_have_attribute("data-boot", "plain")
    lab.expect_matches_core()
    lab.press("k", "ArrowRight")
    lab.expect_matches_core()
    # A missing snapshot is not a damaged one: no notice (and the preload's 404, the browser's line).
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "ready")
    assert lab.errors == ["Failed to load resource: the server responded with a status of 404 (Not Found)"]


# --- repeat visits: the snapshot kept in Cache Storage ---------------------------------------------

KEPT = KEPT_CACHE


def eventually(page, check, timeout_ms=15_000):
    """Poll ``check()`` until it is true (Playwright's wait_for_function needs eval: the CSP forbids it)."""
    for _ in range(timeout_ms // 100):
        if check():
            return
        page.wait_for_timeout(100)
    assert check()


def kept_snapshots(page) -> list[str]:
    return page.evaluate(f"caches.open('{KEPT}').then(c => c.keys()).then(keys => keys.map(k => k.url))")


def boot_milestones(page) -> set[str]:
    return set(page.evaluate(
        "performance.getEntriesByType('mark').map(m => m.name)"
        ".filter(n => n.startsWith('raglab:worker:')).map(n => n.slice(14))"
    ))


def test_a_repeat_visit_restores_the_kept_snapshot_and_computes_what_cpython_computes(page, base_url):

    downloads = []
    page.on("request", lambda request: downloads.append(request.url) if "/snapshot." in request.url else None)
    Lab(page, base_url)
    expect(page.locator("html")).to_have_attribute("data-boot", "snapshot")
    eventually(page, lambda: len(kept_snapshots(page)) == 1)  # kept a second after ready
    # The page's preload (boot.js) and the worker's request, which the HTTP cache answers: one
    # download (test_lab.py's test_the_runtimes_big_files_download_from_the_start_and_once counts it
    # at the server).
    assert "snapshotFromCache" not in boot_milestones(page) and len(set(downloads)) == 1 and len(downloads) == 2
    first_visit = len(downloads)

    lab = Lab(page, base_url, "?k=9&umbral=3&chunk=256&solape=64")  # the repeat visit
    expect(page.locator("html")).to_have_attribute("data-boot", "snapshot")
    lab.expect_matches_core()
    lab.press("rerank", "End")
    lab.grade("d03", 0)
    lab.expect_matches_core()
    assert "snapshotFromCache" in boot_milestones(page) and "snapshotDecoded" not in boot_milestones(page)
    assert len(downloads) == first_visit  # neither preloaded nor downloaded again
    assert lab.errors == []


@pytest.mark.parametrize("kept", ["short", "garbage"])
def test_a_damaged_kept_snapshot_is_not_trusted(page, base_url, kept):
    """A kept copy of the wrong length is ignored (the snapshot is downloaded again); one of the right
    length that Pyodide refuses ends in the plain boot, and is deleted so the next visit is clean."""

    Lab(page, base_url)
    eventually(page, lambda: len(kept_snapshots(page)) == 1)
    page.evaluate(
        """async ([name, kind]) => {
          const cache = await caches.open(name);
          const [key] = await cache.keys();
          const bytes = new Uint8Array(await (await cache.match(key)).arrayBuffer());
          await cache.put(key, new Response(kind === "short" ? bytes.subarray(1) : new Uint8Array(bytes.length).fill(7)));
        }""",
        [KEPT, kept],
    )
    if kept == "garbage":  # refused and deleted, and the plain boot under way: its wheel is asked for
        with page.expect_request("**/*.whl", timeout=60_000):
            page.goto(base_url + "?k=4")
        eventually(page, lambda: kept_snapshots(page) == [])  # (only a kept copy that was read is deleted)
        return  # the plain boot's end is the snapshot's tampered fallback's (above)
    lab = Lab(page, base_url, "?k=4")
    expect(page.locator("html")).to_have_attribute("data-boot", "snapshot")
    lab.expect_matches_core()
    assert "snapshotFromCache" not in boot_milestones(page)
