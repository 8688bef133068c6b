"""dist/ as publishers serve it: stock nginx and Caddy under a sub-path, a host that does not compress
(``python -m http.server``), and an origin that is not secure.

nginx is Debian's, with its stock mime.types (which has no .mjs) and the recipe of
docs/publishing.md, docs/hosting/nginx.conf, pasted into a server block as a publisher would; Caddy
runs docs/hosting/Caddyfile. The dev server that the
other browser tests use applies dist/_headers as Netlify and Cloudflare Pages do, so every one of
those tests also runs under the CSP sent as a real header.
"""

import os
import subprocess
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

from raglab_site.devserver import serving

from ..support.chromium import CHROMIUM_ARGS, find_test_chromium
from ..conftest import ROOT
from ..support.lab_page import SNAPSHOT, WAIT_FOR_CONTROL, Lab
from ..support.servers import (
    BROTLI_MODULE, HOW_TO_GET_CADDY, HOW_TO_GET_NGINX, find_caddy, find_nginx, free_port, nginx_conf, wait_for_port,
)

RECIPES = ROOT / "docs" / "hosting"
SUB_PATH = "/user/lab/"

# The host under test: docs/publishing.md's recipe, with the brotli module and gzip on.
SERVER = """    server {{
        listen 127.0.0.1:{port};
        server_name _;
{recipe}
    }}"""


def start_nginx(site_dir, tmp, port):
    nginx = find_nginx()
    if not nginx:
        pytest.fail(HOW_TO_GET_NGINX)
    recipe = (RECIPES / "nginx.conf").read_text("utf-8").replace("/srv/raglab/dist/", f"{site_dir}/")
    conf = tmp / "nginx.conf"
    conf.write_text(nginx_conf(tmp, SERVER.format(port=port, recipe=recipe), f"load_module {BROTLI_MODULE};",
                               "    sendfile on;\n    gzip on;\n"), "utf-8")
    check = subprocess.run([nginx, "-t", "-p", str(tmp), "-c", str(conf)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    return subprocess.Popen([nginx, "-p", str(tmp), "-c", str(conf)], stderr=subprocess.PIPE, text=True)


def start_caddy(site_dir, tmp, port):
    caddy = find_caddy()
    if not caddy:
        pytest.fail(HOW_TO_GET_CADDY)
    recipe = (RECIPES / "Caddyfile").read_text("utf-8")
    recipe = recipe.replace("/srv/raglab/dist", str(site_dir)).replace("example.org {", f"http://:{port} {{\n\tbind 127.0.0.1")  # any host name, loopback only
    conf = tmp / "Caddyfile"
    conf.write_text("{\n\tadmin off\n\tauto_https off\n}\n" + recipe, "utf-8")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp), "XDG_CONFIG_HOME": str(tmp), "HOME": str(tmp)}
    return subprocess.Popen([caddy, "run", "--config", str(conf), "--adapter", "caddyfile"],
                            stderr=subprocess.PIPE, text=True, env=env, cwd=tmp)


@pytest.fixture(scope="session", params=["nginx", "caddy"])
def host_url(request, site_dir, tmp_path_factory):
    """dist/ served under /user/lab/ by a real server configured with the recipe of docs/publishing.md."""
    tmp = tmp_path_factory.mktemp(request.param)
    port = free_port()
    start = start_nginx if request.param == "nginx" else start_caddy
    process = start(site_dir, tmp, port)
    wait_for_port(process, port)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=10)


def fetch(url, accept_encoding="identity"):
    request = urllib.request.Request(url, headers={"Accept-Encoding": accept_encoding})

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    try:
        with urllib.request.build_opener(NoRedirect).open(request) as response:
            return response.status, response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.headers


def test_the_host_serves_every_file_with_a_type_browsers_accept(host_url, site_dir):
    """Stock types (nginx's mime.types knows no .mjs): .js as JavaScript, .wasm as application/wasm;
    the precompressed copies; the cache headers of the recipe."""
    status, headers = fetch(host_url + SUB_PATH.rstrip("/"))
    assert status == 301 and headers["Location"].rstrip("?") == SUB_PATH  # the slash-less address redirects
    version = next(site_dir.glob("pyodide/*")).name
    for path, mime, cache in [
        ("", "text/html", "no-cache"),
        (f"pyodide/{version}/pyodide.module.js", "javascript", "immutable"),
        (f"pyodide/{version}/pyodide.asm.js", "javascript", "immutable"),
    ]:
        status, headers = fetch(host_url + SUB_PATH + path, "gzip, br")
        assert status == 200, path
        assert headers["Content-Type"].split(";")[0].endswith(mime), path
        assert headers["Content-Encoding"] == "br", path  # brotli_static found the .br copy
        assert cache in headers["Cache-Control"], path
    status, headers = fetch(host_url + SUB_PATH + f"pyodide/{version}/pyodide.asm.js", "gzip")
    assert headers["Content-Encoding"] == "gzip"
    # The runtime's wasm is a brotli copy that the worker decodes itself: sent as it is.
    status, headers = fetch(host_url + SUB_PATH + f"pyodide/{version}/pyodide.asm.wasm.bin", "gzip, br")
    assert status == 200 and headers["Content-Encoding"] is None and "immutable" in headers["Cache-Control"]


def test_a_sub_path_boots_from_the_snapshot_and_works_offline(browser, host_url):
    context = browser.new_context()
    page = context.new_page()
    # The slash-less address a reader types redirects, and the URL's state applies.
    lab = Lab(page, host_url + SUB_PATH.rstrip("/"), "?k=3&umbral=1")
    assert page.url.startswith(host_url + SUB_PATH + "?")
    expect(page.locator("html")).to_have_attribute("data-boot", "snapshot")
    lab.expect_matches_core()
    lab.press("k", "ArrowRight")  # a slider recomputes
    assert lab.state["k"] == "4"
    lab.expect_matches_core()
    assert page.evaluate(WAIT_FOR_CONTROL)
    assert lab.url_params()["k"] == "4"  # the URL follows every change: the offline reload keeps it
    context.set_offline(True)
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=60_000)
    lab.press("rerank", "ArrowRight")
    lab.expect_matches_core()
    assert lab.errors == []
    context.close()


def test_a_host_that_does_not_compress_still_sends_the_wasms_brotli_copy(browser, site_dir):
    """``python -m http.server`` sends every file as it is: the runtime's wasm still crosses the
    network as its brotli copy, which the worker decodes, and the plain wasm is never asked for."""
    with serving(site_dir, precompressed=False) as url:
        context = browser.new_context(service_workers="block")
        page = context.new_page()
        responses = []
        page.on("response", lambda response: responses.append((response.url, response.headers.get("content-encoding"))))
        lab = Lab(page, url, "?k=3")
        expect(page.locator("html")).to_have_attribute("data-boot", "snapshot")
        lab.press("k", "ArrowRight")
        lab.expect_matches_core()
        assert lab.errors == []
        context.close()
    names = [url.rsplit("/", 1)[-1] for url, _ in responses]
    assert "pyodide.asm.wasm.bin" in names and "pyodide.asm.wasm" not in names, names
    assert {encoding for _, encoding in responses} == {None}


@pytest.fixture(scope="module")
def insecure_browser(playwright):
    """A Chromium that resolves lab.raglab.test to 127.0.0.1: plain HTTP from a host name that is
    not this machine's loopback is not a secure context (no crypto.subtle, no service worker). What
    makes an origin secure is its URL's host, not the address it resolves to, and no traffic leaves
    the machine."""
    browser = playwright.chromium.launch(
        executable_path=find_test_chromium(),
        args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP lab.raglab.test 127.0.0.1"],
    )
    yield browser
    browser.close()


def insecure_url(host_url):
    return f"http://lab.raglab.test:{host_url.rsplit(':', 1)[1]}{SUB_PATH}"


def test_a_non_secure_origin_still_boots_from_the_snapshot(insecure_browser, host_url):
    page = insecure_browser.new_page()
    lab = Lab(page, insecure_url(host_url), "?k=3")
    assert page.evaluate("[window.isSecureContext, Boolean(self.crypto && crypto.subtle)]") == [False, False]
    expect(page.locator("html")).to_have_attribute("data-boot", "snapshot")
    expect(page.locator("[data-status-text]")).to_contain_text("Sin HTTPS, esta página no queda guardada")
    lab.press("k", "ArrowLeft")
    lab.expect_matches_core()
    assert lab.errors == []
    page.close()


# The check is the browser's and the worker's (SRI on the fetch where crypto.subtle is missing), whatever the
# server: one of the two recipes is enough, and saves a plain Pyodide boot per run.
@pytest.mark.parametrize("host_url", ["nginx"], indirect=True)
def test_a_non_secure_origin_still_refuses_a_tampered_snapshot(insecure_browser, host_url):
    page = insecure_browser.new_page()

    def tampered(route):  # Playwright fetches by itself, outside the browser's host mapping
        response = route.fetch(url=route.request.url.replace("lab.raglab.test", "127.0.0.1"))
        body = bytearray(response.body())
        if body:  # not the worker's HEAD request, which asks whether the file is there at all
            body[len(body) // 2] ^= 0xFF
        route.fulfill(response=response, body=bytes(body))

    page.route(SNAPSHOT, tampered)
    lab = Lab(page, insecure_url(host_url), "?umbral=2")
    expect(page.locator("html")).to_have_attribute("data-boot", "plain")
    expect(page.locator("[data-status]")).to_contain_text("no superó la comprobación de integridad")
    lab.expect_matches_core()
    page.close()


def test_the_publishing_guide_shows_the_tested_recipes():
    guide = (ROOT / "docs" / "publishing.md").read_text("utf-8")
    for name in ("nginx.conf", "Caddyfile"):
        assert (RECIPES / name).read_text("utf-8") in guide, name
