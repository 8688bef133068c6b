"""The exported lab (`build.py export`, DESIGN §4.11) inside real documentation sites, in Chromium.

One small site of three pages, with the exported folder in its nav and `navigation.instant` on, is
built once per run with each generator, from one mkdocs.yml (its site_url aside): Material for
MkDocs 9.8.1 (mkdocs 1.6.1) and Zensical 0.0.73. Each build is served by nginx (stock mime.types, no
configuration of ours beyond the root), and the Zensical project also by `zensical serve`, its dev
server, whose quirks (0.0.73 types .wasm as application/octet-stream and appends an inline
live-reload script to every HTML file) must leave the lab working, with no error.

One test per server, in a browser context of its own (service workers allowed), as one reader's
visit: the site's search finds the page by a word of its introduction and takes the reader there by
instant navigation; the lab inside the iframe becomes ready, its slider shows what the core computes;
it follows the host's palette toggle, live, against the system's preference; the frame is as tall
as the lab (no second scroll bar); out and back by instant navigation leave one frame and one
worker; nothing reaches the console. Checks that do not depend on the server run on one or two
(EXTRA): «Tus datos»' sample evaluates; without the sync the system's scheme applies; offline, the
lab's own address still boots from its service worker.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from raglab_core import compute
from raglab_site.assets import read_static
from raglab_site.export import export_files

from ..conftest import ROOT, load_scenario
from ..support.servers import HOW_TO_GET_NGINX, find_nginx, free_port, nginx_conf, wait_for_port
from ..support.lab_page import WAIT_FOR_CONTROL

BIN = Path(sys.executable).parent
# The host site: what a site owner has, plus the exported folder in the nav. No web fonts (Material
# fetches them from a CDN; the tests reach nothing outside the machine). site_url is where it is
# served, as on a real site: Material 9.8.1's instant navigation compares links with the sitemap's
# addresses, which it moves to the page's host name but not to its port.
MKDOCS_YML = """\
site_name: Herramientas
site_url: {site_url}
theme:
  name: material
  language: es
  font: false
  features:
    - navigation.instant
  palette:
    - scheme: default
      toggle:
        icon: material/brightness-4
        name: Modo oscuro
    - scheme: slate
      toggle:
        icon: material/brightness-7
        name: Modo claro
nav:
  - Inicio: index.md
  - Guía: guia.md
  - Laboratorio: laboratorio/index.md
"""
PAGES = {
    "index.md": "# Inicio\n\nUna página de prueba del sitio, con su [guía](guia.md).\n",
    "guia.md": "# Guía\n\nOtra página de prueba, que enlaza al [laboratorio](laboratorio/index.md).\n",
}
SEARCHED = "navegador"  # a word of the export's introduction only (site_src/content/index.md, `intro`)

SERVER = "    server {{ listen 127.0.0.1:{port}; root {root}; index index.html; }}\n"

LAB_WORKER = "/app/assets/worker."
DARK_BG, LIGHT_BG = "rgb(17, 19, 22)", "rgb(247, 247, 245)"  # base.css's --bg, dark and light


def make_project(folder: Path, site: dict[str, bytes], site_url: str, palette_sync: bool = True) -> Path:
    """A documentation project: mkdocs.yml, two pages, and the export of ``site`` (a build) as
    docs/laboratorio/, written as `build.py export docs/laboratorio` writes it."""
    import build

    page = build.read_page(ROOT / "site_src" / "content" / "index.md")
    (folder / "docs").mkdir(parents=True)
    (folder / "mkdocs.yml").write_text(MKDOCS_YML.format(site_url=site_url), "utf-8")
    for name, text in PAGES.items():
        (folder / "docs" / name).write_text(text, "utf-8")
    for relative, data in export_files(site, page, palette_sync=palette_sync).items():
        target = folder / "docs" / "laboratorio" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return folder


def copy_project(project: Path, folder: Path, site_url: str) -> Path:
    """``project`` for another address: its pages hard-linked, its own mkdocs.yml and build."""
    shutil.copytree(project / "docs", folder / "docs", copy_function=os.link)
    (folder / "mkdocs.yml").write_text(MKDOCS_YML.format(site_url=site_url), "utf-8")
    return folder


def build_sites(projects: dict[str, Path]) -> dict[str, Path]:
    """Each project built by its generator (``mkdocs`` or ``zensical``), at once: two seconds each."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    runs = {
        name: subprocess.Popen([BIN / name, "build"], cwd=folder, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for name, folder in projects.items()
    }
    for name, run in runs.items():
        output, _ = run.communicate(timeout=120)
        assert run.returncode == 0, f"{name} build failed:\n{output}"
    return {name: folder / "site" for name, folder in projects.items()}


def start_nginx(roots: dict[str, Path], ports: dict[str, int], tmp: Path) -> subprocess.Popen:
    nginx = find_nginx()
    if not nginx:
        pytest.fail(HOW_TO_GET_NGINX)
    servers = "".join(SERVER.format(port=ports[name], root=root) for name, root in roots.items())
    conf = tmp / "nginx.conf"
    conf.write_text(nginx_conf(tmp, servers), "utf-8")
    process = subprocess.Popen([nginx, "-p", str(tmp), "-c", str(conf)], stderr=subprocess.PIPE, text=True)
    for name in roots:
        wait_for_port(process, ports[name])
    return process


def start_zensical_serve(project: Path, port: int) -> subprocess.Popen:
    return subprocess.Popen([BIN / "zensical", "serve", "--dev-addr", f"127.0.0.1:{port}"], cwd=project,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_for_site(process: subprocess.Popen, url: str):
    """Until ``url`` serves the lab: `zensical serve` listens before its first build is done."""
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url + "laboratorio/app/sw.js") as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        assert process.poll() is None and time.monotonic() < deadline, f"{url} did not serve the site"
        time.sleep(0.1)


SERVERS = ["mkdocs", "zensical", "zensical-serve"]  # nginx, nginx, Zensical's dev server


@pytest.fixture(scope="module")
def sites(site_dir, tmp_path_factory):
    """The project built by each generator and served by nginx, and by `zensical serve` (a copy of
    its own: the dev server builds into its site/, which nginx must not see change)."""
    tmp = tmp_path_factory.mktemp("docsite")
    urls = {name: f"http://127.0.0.1:{free_port()}/" for name in SERVERS}
    projects = {"mkdocs": make_project(tmp / "mkdocs", read_static(site_dir), urls["mkdocs"])}
    for name in SERVERS[1:]:
        projects[name] = copy_project(projects["mkdocs"], tmp / name, urls[name])
    ports = {name: int(url.rsplit(":", 1)[1].strip("/")) for name, url in urls.items()}
    dev = start_zensical_serve(projects["zensical-serve"], ports["zensical-serve"])  # builds meanwhile
    roots = build_sites({name: projects[name] for name in ("mkdocs", "zensical")})
    nginx = start_nginx(roots, ports, tmp)
    wait_for_site(dev, urls["zensical-serve"])
    yield {"roots": roots, "urls": urls}
    for process in (nginx, dev):
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(params=SERVERS)
def server(request):
    return request.param


@pytest.fixture
def host(server, sites):
    return sites["urls"][server]


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    yield context
    context.close()


class Visit:
    """A page of the host site, with what its console said (the lab's frame's included)."""

    def __init__(self, context, url):
        self.page = context.new_page()
        self.errors = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        # Instant navigation takes over the links once the theme has read the sitemap: until the
        # network is quiet, a click is an ordinary page load.
        self.page.goto(url, wait_until="networkidle")
        # Gone after a full load: instant navigation swaps the page's content and keeps its window.
        self.page.evaluate("window.raglabTestMarker = 1")

    def instant(self) -> bool:
        return self.page.evaluate("window.raglabTestMarker === 1")

    @property
    def frame(self):
        return self.page.frame_locator("iframe[data-raglab]")

    def lab_frame(self):
        return self.page.locator("iframe[data-raglab]").element_handle().content_frame()

    def expect_ready(self):
        expect(self.page.locator("iframe[data-raglab]")).to_have_count(1)
        expect(self.frame.locator("html")).to_have_attribute("data-ready", "true", timeout=60_000)

    def lab_workers(self) -> list[str]:
        """The lab's workers alive in the browser (its targets, as the DevTools protocol lists them)."""
        cdp = self.page.context.new_cdp_session(self.page)
        try:
            targets = cdp.send("Target.getTargets")["targetInfos"]
        finally:
            cdp.detach()
        return [target["url"] for target in targets if target["type"] == "worker" and LAB_WORKER in target["url"]]

    def expect_lab_workers(self, count: int):
        deadline = time.monotonic() + 10
        while len(workers := self.lab_workers()) != count:
            assert time.monotonic() < deadline, (workers, [worker.url for worker in self.page.workers])
            time.sleep(0.05)

    def fits(self) -> dict:
        """The frame's height and the lab's: equal, and the lab's own document does not scroll."""
        frame = self.lab_frame()
        return {
            "frame": self.page.locator("iframe[data-raglab]").evaluate("e => e.getBoundingClientRect().height"),
            "lab": frame.evaluate("Math.ceil(document.documentElement.getBoundingClientRect().height)"),
            "scrolls": frame.evaluate("document.documentElement.scrollHeight > innerHeight"),
        }


def expect_fits(visit):
    deadline = time.monotonic() + 5
    while (fit := visit.fits()) and (fit["frame"] != fit["lab"] or fit["scrolls"]):
        assert time.monotonic() < deadline, fit
        time.sleep(0.05)
    return fit


def slide_k(lab):
    """Move the k slider one step (``lab``: a page or a frame): the lab shows what the core computes."""
    k = lab.locator('[name="k"]')
    before = int(k.input_value())
    k.focus()
    k.press("ArrowRight")
    assert k.input_value() == str(before + 1)
    view = compute({"scenario": load_scenario(), "k": str(before + 1), "edited": ["k"]})
    for name in ("precision", "ndcg", "relevant_in_k"):
        expect(lab.locator(f'[data-output="{name}"]')).to_have_attribute("data-value", view["outputs"][name]["raw"])
    expect(lab.locator("[aria-busy=true]")).to_have_count(0)


# What each server's visit checks besides the rest: checks whose outcome does not depend on the
# server run once, where they cost least (each is one more boot of the lab, or an evaluation's).
EXTRA = {"mkdocs": {"sample", "offline"}, "zensical": {"no sync"}, "zensical-serve": {"offline"}}


def test_the_lab_inside_a_documentation_site(context, server, host):
    """One reader's visit, in a context that prefers dark: the host's light scheme must still win."""
    visit = Visit(context, host)
    page = visit.page
    # What the dev server appends to every HTML file: its live-reload script, which the lab's page
    # keeps in its inert last element (page.html.j2); the nginx hosts send the files as they are.
    with urllib.request.urlopen(host + "laboratorio/app/") as response:
        tail = response.read().decode("utf-8").rsplit("<template data-tail>", 1)[1]
    assert ("new WebSocket(" in tail) == (server == "zensical-serve"), tail[:200]

    # The site's search finds the page by a word of its introduction, and takes the reader there
    # by instant navigation (the page's window is kept).
    button = page.locator(".md-search__button")  # Zensical opens a dialog; Material has the field
    (button if button.is_visible() else page.locator(".md-search__input")).click()
    page.keyboard.type(SEARCHED)
    result = page.locator("a", has=page.locator("mark", has_text=SEARCHED))
    expect(result).to_have_count(1)
    result.click()
    page.wait_for_url("**/laboratorio/")
    visit.expect_ready()
    assert visit.instant()
    frame = visit.frame
    slide_k(frame)

    # The lab follows the host's palette, live.
    root, body = frame.locator("html"), frame.locator("body")
    expect(root).to_have_attribute("data-host-scheme", "default")
    expect(root).to_have_attribute("data-raglab-palette", "light")
    expect(body).to_have_css("background-color", LIGHT_BG)
    toggle = page.locator('form[data-md-component="palette"] label:not([hidden])')
    toggle.click()
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    expect(root).to_have_attribute("data-raglab-palette", "dark")
    expect(body).to_have_css("background-color", DARK_BG)
    toggle.click()
    expect(root).to_have_attribute("data-raglab-palette", "light")
    expect(body).to_have_css("background-color", LIGHT_BG)

    if "sample" in EXTRA[server]:  # «Tus datos»' sample: two runs evaluated, in a worker of the frame's
        frame.locator('[data-action="sample"]').click()
        expect(frame.locator("[data-data-status]")).to_have_text("Evaluación terminada.", timeout=60_000)
        expect(frame.locator('[data-panel-output="means"] th')).to_have_text(["run-bm25.txt", "run-densa.txt"])
    fit = expect_fits(visit)  # the frame is as tall as the lab, grown with the results or not
    assert fit["lab"] > 3000

    # Out, by the logo, and back, by the browser's history: one frame, one worker, nothing said.
    page.locator("a.md-logo").first.click()
    expect(page.locator("iframe[data-raglab]")).to_have_count(0)
    visit.expect_lab_workers(0)
    page.go_back()
    page.wait_for_url("**/laboratorio/")
    visit.expect_ready()
    assert visit.instant()
    visit.expect_lab_workers(1)
    expect_fits(visit)

    if "no sync" in EXTRA[server]:  # `--no-palette-sync` writes no data-raglab-palette: the system's scheme
        page.locator("iframe[data-raglab]").evaluate(
            "e => { e.removeAttribute('data-raglab-palette'); e.contentWindow.location.reload(); }")
        visit.expect_ready()
        expect(visit.frame.locator("html")).not_to_have_attribute("data-raglab-palette", re.compile(".*"))
        expect(visit.frame.locator("body")).to_have_css("background-color", DARK_BG)
    assert visit.errors == []

    if "offline" in EXTRA[server]:  # after one visit, the lab's own page, from its service worker (scope app/)
        assert visit.lab_frame().evaluate(WAIT_FOR_CONTROL)
        context.set_offline(True)
        page.goto(host + "laboratorio/app/")
        expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=60_000)
        slide_k(page)
        assert visit.errors == []
