"""build.py: what dist/ holds, that it equals the core's view, resolves, stays local, is reproducible."""

import hashlib
import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

import build
from raglab_site import runtime
from raglab_site.assets import subresource_integrity
from raglab_site.devserver import serving
from raglab_site.runtime import PYODIDE_FILES, WASM, WASM_COPY
from raglab_site.templates import HTML_ENTITY
from raglab_core import compute

from tests.conftest import ROOT, load_scenario


class PageParser(HTMLParser):
    """Collects what the tests look at: outputs, URL attributes, ids, the lab config."""

    def __init__(self):
        super().__init__()
        self.outputs, self.urls, self.ids, self.stack = {}, [], set(), []
        self.config_text, self._in_config, self._capture = "", False, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for key in ("href", "src"):
            if key in attrs:
                self.urls.append((tag, key, attrs[key]))
        if attrs.get("id") == "lab-config":
            self._in_config = True
        # Not the lists (ranking, unretrieved), the breakdown table or the chunk-window strip.
        if "data-output" in attrs and tag not in ("ol", "ul", "table", "svg"):
            self._capture = attrs["data-output"]
            self.outputs[self._capture] = {"raw": attrs.get("data-value"), "text": ""}

    def handle_endtag(self, tag):
        self._in_config = False
        if tag in ("span", "p"):
            self._capture = None

    def handle_data(self, data):
        if self._in_config:
            self.config_text += data
        if self._capture:
            self.outputs[self._capture]["text"] += data


@pytest.fixture
def dist(site_dir):
    return site_dir


@pytest.fixture
def parsed(dist):
    parser = PageParser()
    parser.feed((dist / "index.html").read_text("utf-8"))
    return parser


def test_dist_holds_what_the_page_needs(dist, parsed):
    config = json.loads(parsed.config_text)
    for name, _patches in PYODIDE_FILES.values():
        assert (dist / config["pyodide"] / (WASM_COPY if name == WASM else name)).is_file()
    assert config["runtime"] == config["pyodide"] + "pyodide.module.js"
    assert not list(dist.rglob("*.mjs"))  # stock servers do not type .mjs as JavaScript
    wheel = (dist / config["wheel"]["url"]).read_bytes()
    assert hashlib.sha256(wheel).hexdigest() == config["wheel"]["sha256"]
    assert (dist / config["worker"]).is_file()
    assert (dist / "_headers").read_text().count("Content-Security-Policy") == 1


def test_server_rendered_numbers_equal_compute_of_the_default_state(parsed):
    view = compute({"scenario": load_scenario()})
    for name, output in view["outputs"].items():
        shown = parsed.outputs[name]
        assert shown["text"].strip() == output["text"], name
        if shown["raw"] is not None:
            assert shown["raw"] == output["raw"], name
    assert {"precision", "recall", "mrr", "ndcg", "duplication", "stride"} <= {
        name for name, shown in parsed.outputs.items() if shown["raw"]
    }


def test_the_form_table_drives_the_page_and_lab_js(dist, parsed):
    from raglab_core.lab import form

    html = (dist / "index.html").read_text("utf-8")
    table = form.table(len(load_scenario()["documents"]))
    assert json.loads(parsed.config_text)["form"] == json.loads(json.dumps(table))
    for row in table["controls"]:
        control = html[html.index(f'<div class="control" data-control="{row["name"]}">'):]
        control = control[: control.index('data-error-for="')]
        assert f'name="{row["name"]}"' in control
        assert f">{row['label']}</label>" in control and f">{row['hint']}</p>" in control
        kind = 'type="range"' if row["kind"] == "range" else 'type="text"'
        assert kind in control, row["name"]
        if row["kind"] == "range" and not row["follows"]:  # a following control's range is the view's
            assert f'min="{row["min"]}" max="{row["max"]}"' in control
    assert set(parsed.outputs) == set(form.OUTPUT_NAMES)
    for row in table["outputs"]:
        if row["label"]:
            assert f"<dt>{row['label']}</dt>" in html
    lab_js = (ROOT / "site_src" / "static" / "lab.js").read_text("utf-8")
    assert not any(f'"{name}"' in lab_js for name in ("umbral", "tokens_doc", "solape"))


def test_every_internal_url_resolves_and_nothing_foreign_loads(dist, parsed):
    for tag, key, url in parsed.urls:
        parts = urlsplit(url)
        if tag == "a" and (parts.scheme in ("http", "https") or url.startswith("../")):
            continue  # a link to elsewhere (or to a sibling tool of the site) loads nothing until followed
        assert not parts.scheme and not parts.netloc and not url.startswith("/"), f"<{tag} {key}={url}>"
        if url.startswith("#"):
            assert url[1:] in parsed.ids, url
        else:  # a folder's URL (juzgar/, the judging page) is its index.html
            assert (dist / (parts.path + ("index.html" if parts.path.endswith("/") else ""))).is_file(), url
    html = (dist / "index.html").read_text("utf-8")
    assert "http://" not in html  # nothing over plain HTTP, not even a namespace


def test_scripts_and_styles_carry_subresource_integrity(dist):
    html = (dist / "index.html").read_text("utf-8")

    tags = re.findall(r"<script\b[^>]*\bsrc=[^>]*>|<link\b[^>]*\brel=\"stylesheet\"[^>]*>", html)
    # The panels' scripts are injected on first use (boot.js) from the page's configuration, digests included.
    config = json.loads(re.search(r'<script type="application/json" id="lab-config">(.*?)</script>', html, re.DOTALL).group(1))
    lazy = {entry["url"]: entry["integrity"] for scripts in config["panelScripts"].values() for entry in scripts}
    assert len(tags) + len(lazy) >= 2  # lab.js; panel-kit.js, data.js, corpus.js (the stylesheet is inline)
    for tag in tags:
        assert 'integrity="sha384-' in tag, tag
    for url, integrity in lazy.items():
        assert integrity.startswith("sha384-") and integrity == subresource_integrity((dist / url).read_bytes()), url
    # The inline scripts (spawn.js, boot.js, frame.js) and each page's one inline stylesheet
    # (raglab_site/stylesheets.py) are allowed by the SHA-256 of their exact text, in the CSP's script-src and style-src.
    import base64
    import hashlib

    sheets = re.findall(r"<style>(.*?)</style>", html, re.DOTALL)
    judging = re.findall(r"<style>(.*?)</style>", (dist / "juzgar" / "index.html").read_text("utf-8"), re.DOTALL)
    assert len(sheets) == 1 and ".file-note" in sheets[0] and "<link rel=\"stylesheet\"" not in html
    assert len(judging) == 1 and ".data-slot" in judging[0] and ".file-note" not in judging[0]
    sheet_digests = {f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"
                     for text in (sheets[0], judging[0])}
    inline = re.findall(r"<script>(.*?)</script>", html, re.DOTALL)
    assert len(inline) == 3 and "new Worker" in inline[0] and "raglabSpawn(" in inline[1] and "frameElement" in inline[2]
    digests = [f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'" for text in inline]
    import html as entities

    csp = entities.unescape(re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1))
    script_src = re.search(r"script-src ([^;]+);", csp).group(1).split()
    assert sorted(script_src) == sorted(["'self'", "'wasm-unsafe-eval'", *digests]) and "unsafe-inline" not in csp
    assert set(re.search(r"style-src 'self' ([^;]+);", csp).group(1).split()) == sheet_digests
    for match in re.finditer(r'<(script|link)\b[^>]*(?:src|href)="(assets/[^"]+\.(?:js|css))"[^>]*>', html):
        assert 'integrity="sha384-' in match.group(0)


def test_build_is_deterministic(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    build.build(first)
    build.build(second)
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    for relative in files:
        assert (first / relative).read_bytes() == (second / relative).read_bytes(), relative


def test_formulas_are_mathml_and_the_method_is_there(parsed, dist):
    html = (dist / "index.html").read_text("utf-8")
    assert html.count("<math") >= 8
    assert "$" not in html.split('id="metodo"')[1].split("</section>")[0]
    for heading in ("metodo-preguntas", "metodo-reranking", "metodo-chunking", "metodo-juicios", "fuentes"):
        assert heading in parsed.ids


# --- bad sources: a clear message naming the file, exit 1, the previous dist/ untouched ---------------


@pytest.fixture
def sources(tmp_path, monkeypatch):
    copy = tmp_path / "site_src"
    shutil.copytree(build.SRC, copy)
    monkeypatch.setattr(build, "SRC", copy)
    return copy


def edit(path: Path, old: str, new: str):
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


BAD_SOURCES = {
    "front matter": (lambda s: edit(s / "content/index.md", "hide:\n", "hide: [\n"), "content/index.md:"),
    "no front matter": (lambda s: edit(s / "content/index.md", "---\n", ""), "content/index.md:1: expected YAML front matter"),
    "unknown variable": (
        lambda s: edit(s / "templates/page.html.j2", "{{ page.headline }}", "{{ page.headlinez }}"),
        "templates/page.html.j2:",
    ),
    "missing asset": (lambda s: (s / "static/lab.js").unlink(), "missing asset: lab.js"),
    "missing inline stylesheet": (lambda s: (s / "inline/lab.css").unlink(),
                                  "inline/lab.css: missing stylesheet: the lab page inlines it"),
    "stylesheet no page inlines": (lambda s: (s / "inline/extra.css").write_text("p { color: red; }", "utf-8"),
                                   "inline/extra.css: no page inlines this stylesheet"),
    "stylesheet closing its element": (
        lambda s: (s / "inline/lab.css").write_text("p::after { content: '</style>'; }", "utf-8"),
        "inline/lab.css: an inline file cannot contain '</style' or '<!--'",
    ),
    "stylesheet with a block never closed": (
        lambda s: edit(s / "inline/base.css", ".site-footer {", ".site-footer {\n  .x {"),
        "a block opened here is never closed",
    ),
    "missing worker": (lambda s: (s / "static/worker.js").unlink(), "static/worker.js: missing asset"),
    "missing data worker": (lambda s: (s / "static/data-worker.js").unlink(), "static/data-worker.js: missing asset"),
    "missing panel kit": (lambda s: (s / "static/panel-kit.js").unlink(), "static/panel-kit.js: missing asset"),
    "invalid scenario": (
        lambda s: edit(s / "data/scenario.json", '"grade": 3', '"grade": 7'),
        "data/scenario.json: invalid scenario at scenario.documents[3].grade",
    ),
    "broken JSON": (lambda s: edit(s / "data/scenario.json", '"query"', "query"), "data/scenario.json:2: invalid JSON"),
    "invalid default": (
        lambda s: edit(s / "data/scenario.json", '"solape": 64', '"solape": 900'),
        "scenario.defaults.solape",
    ),
    "bad formula": (lambda s: edit(s / "content/index.md", r"\frac{\text{rel}_k}{k}", r"\frac{\nosuchcmd_k}{k}"),
                    "content/index.md:67: cannot convert formula"),
    "unbalanced formula": (lambda s: edit(s / "content/index.md", r"\right\rceil", ""), "ExtraLeftOrMissingRightError"),
}


@pytest.mark.parametrize("case", BAD_SOURCES, ids=list(BAD_SOURCES))
def test_bad_sources_fail_naming_the_file_and_keep_the_old_dist(case, sources, site_dir, tmp_path, capsys):
    out = tmp_path / "dist"
    shutil.copytree(site_dir, out)  # a good build of these same sources
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    break_it, message = BAD_SOURCES[case]
    break_it(sources)
    capsys.readouterr()
    assert build.main(["--out", str(out)]) == 1
    error = capsys.readouterr().err
    assert error.startswith("error: ") and message in error, error
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert [p.name for p in out.parent.iterdir() if p.name.startswith(".dist")] == []


def test_missing_pyodide_says_to_run_npm_ci(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(runtime, "PYODIDE_DIR", tmp_path / "nowhere")
    assert build.main(["--out", str(tmp_path / "dist")]) == 1
    assert "run `npm ci` (or `make`)" in capsys.readouterr().err


def test_cli_exit_code_and_message(tmp_path):
    result = subprocess.run(
        [sys.executable, str(ROOT / "build.py"), "build", "--out", str(tmp_path / "dist")],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"built {tmp_path / 'dist'}")


def test_precompressed_copies_decode_to_the_original(dist):
    import gzip

    import brotli

    script = next(dist.glob("pyodide/*/pyodide.asm.js"))
    original = script.read_bytes()
    assert brotli.decompress(script.with_name(script.name + ".br").read_bytes()) == original
    assert gzip.decompress(script.with_name(script.name + ".gz").read_bytes()) == original
    html = (dist / "index.html").read_bytes()
    assert brotli.decompress((dist / "index.html.br").read_bytes()) == html


def test_the_runtimes_wasm_ships_only_as_the_brotli_copy_the_worker_checks(dist, parsed):
    """worker.js fetches the wasm's brotli copy, checks its SHA-256 and decodes it: the plain wasm is
    not shipped, and the copy, under a name no host labels Content-Encoding: br, is Pyodide's wasm."""
    import brotli

    from raglab_site.assets import subresource_integrity
    from raglab_site.runtime import PYODIDE_DIR

    entry = json.loads(parsed.config_text)["wasm"]
    copy = (dist / entry["url"]).read_bytes()
    assert entry["url"].endswith("/pyodide.asm.wasm.bin") and entry["integrity"] == subresource_integrity(copy, "sha256")
    assert brotli.decompress(copy) == (PYODIDE_DIR / "pyodide.asm.wasm").read_bytes()
    assert [path.name for path in dist.glob("pyodide/*/pyodide.asm.wasm*")] == ["pyodide.asm.wasm.bin"]


def test_dev_server_types_headers_and_precompressed_copies(dist):
    import urllib.request

    version = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    with serving(dist) as base:
        for path, mime, cache in [
            ("index.html", "text/html", "no-cache"),
            (f"pyodide/{version}/pyodide.asm.wasm.bin", "application/octet-stream", "immutable"),
            (f"pyodide/{version}/pyodide.module.js", "text/javascript", "immutable"),
            (f"pyodide/{version}/empty.zip", "application/zip", "immutable"),
        ]:
            with urllib.request.urlopen(base + path) as response:
                assert response.headers["Content-Type"].split(";")[0] == mime, path
                assert response.headers["X-Content-Type-Options"] == "nosniff"
                assert cache in response.headers["Cache-Control"], path
                assert "'self'" in response.headers["Content-Security-Policy"]  # dist/_headers applied
                assert response.headers.get("Content-Encoding") is None  # urllib asks for none

        def fetch(path, accept):
            request = urllib.request.Request(base + path, headers={"Accept-Encoding": accept})
            with urllib.request.urlopen(request) as response:
                return response.headers, len(response.read())

        script = f"pyodide/{version}/pyodide.asm.js"
        # A client that accepts brotli gets the precompressed copy, with the original's type.
        headers, size = fetch(script, "gzip, br")
        assert (headers["Content-Encoding"], headers["Content-Type"]) == ("br", "text/javascript")
        assert headers["Vary"] == "Accept-Encoding"
        assert size == (dist / (script + ".br")).stat().st_size
        # q=0 refuses an encoding (RFC 9110): gzip, not brotli.
        headers, size = fetch(script, "br;q=0, gzip")
        assert headers["Content-Encoding"] == "gzip" and size == (dist / (script + ".gz")).stat().st_size
        headers, _ = fetch(script, "identity")
        assert headers.get("Content-Encoding") is None
        # The files the worker decodes itself come as they are, whatever the client accepts.
        headers, size = fetch(f"pyodide/{version}/pyodide.asm.wasm.bin", "gzip, br")
        assert headers.get("Content-Encoding") is None and size == (dist / f"pyodide/{version}/pyodide.asm.wasm.bin").stat().st_size
        # The folder's index is served precompressed like any other file.
        headers, size = fetch("", "br")
        assert (headers["Content-Encoding"], headers["Content-Type"]) == ("br", "text/html")
        assert size == (dist / "index.html.br").stat().st_size


def test_no_html_entities_outside_html(dist):
    headers = (dist / "_headers").read_text("utf-8")
    assert "script-src 'self' 'wasm-unsafe-eval'" in headers and "&#" not in headers
    for path in dist.rglob("*"):
        if path.suffix in (".js", ".json", ".css", ".txt") or path.name == "_headers":
            assert not HTML_ENTITY.search(path.read_bytes()), path


def test_an_escaped_value_outside_html_fails_the_build(sources, tmp_path, capsys):
    edit(sources / "templates" / "_headers.j2", "{{ value }}", "{{ value | e }}")
    assert build.main(["--out", str(tmp_path / "dist")]) == 1
    assert "dist/_headers:4 holds the HTML entity &#39;" in capsys.readouterr().err


def test_serve_rebuilds_when_a_source_changes(tmp_path):
    """`build.py serve` rebuilds after a change under site_src/ (here: touching the scenario).

    The server's output is read in a thread, so that a watcher that never reports fails the test at
    its deadline instead of blocking it; the scenario is touched again every second until the
    rebuild is reported, since a touch made before the watcher has started is not seen (a loaded
    machine once let one pass that way, and the old test waited forever for a line)."""
    import os
    import queue
    import threading
    import time

    out = tmp_path / "dist"
    process = subprocess.Popen(
        [sys.executable, "-u", str(ROOT / "build.py"), "serve", "--port", "0", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    said: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [said.put(line) for line in process.stdout], daemon=True).start()
    lines = []

    def wait_for(prefix: str, seconds: float, every=None) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if every:
                every()
            try:
                line = said.get(timeout=1)
            except queue.Empty:
                continue
            lines.append(line)
            if line.startswith(prefix):
                return True
        return False

    try:
        assert wait_for("serving", 120), lines
        assert "http://127.0.0.1:" in lines[-1]
        first = (out / "index.html").stat().st_ino
        scenario = build.SRC / "data" / "scenario.json"
        assert wait_for("rebuilt", 60, every=lambda: os.utime(scenario)), lines
        assert lines[-1].startswith("rebuilt after changes in scenario.json"), lines
        assert (out / "index.html").stat().st_ino != first
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_service_worker_precaches_everything_and_can_be_disabled(dist, sources, tmp_path):
    worker = (dist / "sw.js").read_text("utf-8")
    precache = json.loads(worker.split("const PRECACHE = ", 1)[1].split(";\n", 1)[0])
    shipped = {p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file()}
    copies = {path for path in shipped if path.endswith((".br", ".gz")) and path[:-3] in shipped}
    assert copies and all(path.endswith((".br", ".gz")) for path in copies)
    # Everything but the precompressed copies (the cache holds what the browser decoded); a page other than
    # the lab by its folder's URL (juzgar/), the one a reader opens offline.
    pages = {path.removesuffix("index.html") for path in shipped - copies - {"index.html", "_headers", "sw.js"}}
    assert "juzgar/" in pages and set(precache) == {"./"} | pages
    assert "raglab-" in worker and "unregister" not in worker

    edit(sources / "config.yaml", "service_worker: true", "service_worker: false")
    out = tmp_path / "off"
    build.build(out)
    assert "self.registration.unregister()" in (out / "sw.js").read_text("utf-8")
    assert '"serviceWorker": false' in (out / "index.html").read_text("utf-8")


def test_placeholder_urls_are_warned_about(capsys, tmp_path):
    config = {"site_name": "x", "locale": "es_ES", "sources": [], "site_url": "https://example.com/lab/",
              "related": [{"url": "https://raglab.example/notas/"}, {"url": "../notas/"},
                          {"url": "https://examples.com/"}]}
    assert [w.split(" is ")[0] for w in build.placeholder_urls(config)] == ["related[0].url", "site_url"]
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(config), "utf-8")
    build.read_config(path)
    assert capsys.readouterr().err.count("warning: config.yaml:") == 2
    assert build.placeholder_urls(build.read_config(ROOT / "site_src" / "config.yaml")) == []


def test_the_service_worker_leaves_the_kept_snapshot_alone(dist, parsed):
    """worker.js keeps the decoded snapshot in the cache the configuration names; sw.js's clean-up spares it
    (that the worker really uses this name, tests/browser/test_faults.py and test_offline.py check)."""
    kept = json.loads(parsed.config_text)["snapshot"]["keptCache"]
    sw = (dist / "sw.js").read_text("utf-8")
    assert kept.startswith("raglab-") and f"const KEPT = {json.dumps(kept)};" in sw and "key !== KEPT" in sw


def test_the_service_worker_precaches_every_file_the_boot_fetches(dist, parsed):
    """Offline, the worker's boot finds each of its files in the service worker's cache: the runtime
    module and script, the wasm's brotli copy, the decoder, the snapshot, the empty standard library."""
    config = json.loads(parsed.config_text)
    sw = (dist / "sw.js").read_text("utf-8")
    precache = json.loads(sw.split("const PRECACHE = ", 1)[1].split(";\n", 1)[0])
    boot = [config["runtime"], config["pyodide"] + "pyodide.asm.js", config["pyodide"] + "empty.zip",
            config["wasm"]["url"], *config["decoder"].values(), config["snapshot"]["url"], config["worker"]]
    assert set(boot) <= set(precache), set(boot) - set(precache)


def test_every_source_reads_as_sentences():
    """Each source is printed «Authors (year). Title. Venue.»: a venue after a full stop starts with a
    capital (one read «trec_eval 10.0. el programa de evaluación de TREC…»)."""
    config = yaml.safe_load((ROOT / "site_src" / "config.yaml").read_text(encoding="utf-8"))
    for source in config["sources"]:
        assert source["venue"][:1].isupper() or source["venue"][:1].isdigit(), source["venue"]


def test_the_conventions_value_comes_right_after_its_name(dist):
    """QA at 390 px: the conventions table scrolls sideways, and its value sat fourth, off screen, behind
    the libraries and the formula; the first columns seen are the name, the value and the difference."""
    html = (dist / "index.html").read_text(encoding="utf-8")
    table = html[html.index('<table class="conventions"'):]
    head = table[:table.index("</thead>")]
    assert re.findall(r'<th scope="col">([^<]+)</th>', head) == [
        "Convención", "Valor", "Frente a la tarjeta", "Quién la usa", "Fórmula"]
    first_row = table[table.index("<tr data-convention"):]
    first_row = first_row[:first_row.index("</tr>")]
    assert re.findall(r'<td class="([\w-]+)"', first_row) == ["value", "difference", "source", "convention-formula"]


def test_big_files_are_compressed_ahead_at_brotli_quality_11(monkeypatch, tmp_path):
    """compress_ahead starts the brotli copies of the big compressible files (the runtime's wasm)
    in the background, and brotli_copy hands over that very copy, made at quality 11."""
    import brotli

    from raglab_site import cache, compression

    monkeypatch.setattr(cache, "CACHE", tmp_path)  # nothing of this test's in the shared cache
    monkeypatch.setattr(compression, "SLOW_TO_COMPRESS", 2000)
    monkeypatch.setattr(compression, "_ahead", {})
    big = "".join(f"{i} " for i in range(3000)).encode()
    compression.compress_ahead({"runtime.wasm": big, "small.js": big[:1500], "data.zip": big + b"!"})
    assert len(compression._ahead) == 1  # not the small file, not an incompressible kind
    copy = compression.brotli_copy(big)
    assert copy is compression._ahead.popitem()[1].result()
    assert copy == brotli.compress(big, quality=11) and brotli.decompress(copy) == big


def test_scripts_and_stylesheet_ship_without_comments_or_indentation(dist, parsed):
    """esbuild minifies the page's scripts and stylesheet (no renaming), and the HTML loses its
    indentation except where whitespace is kept (raglab_site/minify.py, templates.without_indentation)."""
    from raglab_site.templates import without_indentation

    source = (ROOT / "site_src" / "static" / "lab.js").read_text("utf-8")
    shipped = next(dist.glob("assets/lab.*.js")).read_text("utf-8")
    assert "/**" in source and "/**" not in shipped and len(shipped) < 0.7 * len(source)
    assert "function " in shipped  # names kept: a stack trace still reads
    html = (dist / "index.html").read_text("utf-8")
    assert "/*" not in re.search(r"<style>(.*?)</style>", html, re.DOTALL).group(1) and "\n  <" not in html
    assert without_indentation("<div>\n    <p>a</p>\n  <script>\n  x()</script>\n <style>\n  a{}</style>") == (
        "<div>\n<p>a</p>\n<script>\n  x()</script>\n<style>\n  a{}</style>")


def test_each_file_input_has_its_own_name(dist):
    """Outside checks find the inputs by ``[data-file-for=…]`` alone (DESIGN §4.6, §4.10): «Tu corpus»,
    before «Tus datos» on the page, must not take a name «Tus datos» uses (its qrels: corpus-qrels)."""
    html = (dist / "index.html").read_text("utf-8")
    names = re.findall(r'data-file-for="([^"]+)"', html)
    assert len(names) == len(set(names)) and "qrels" in names and "corpus-qrels" in names, names


def test_the_judging_page_is_built_like_the_lab(dist):
    """dist/juzgar/ (issue 51): the lab's CSP, precompressed, no script of its own inline (only the lab's spawn.js), every URL it names
    (its configuration's too) inside dist/, and linked both ways with the lab."""
    import html as entities
    import posixpath

    page = (dist / "juzgar" / "index.html").read_text("utf-8")
    lab = (dist / "index.html").read_text("utf-8")
    policy = re.compile(r'http-equiv="Content-Security-Policy" content="([^"]+)"')
    assert policy.search(page).group(1) == policy.search(lab).group(1)
    assert (dist / "juzgar" / "index.html.br").is_file() and (dist / "juzgar" / "index.html.gz").is_file()
    # the configuration is JSON, not a script; the one inline script is the lab's spawn.js, the same text
    assert re.findall(r"<script>(.*?)</script>", page, re.S) == re.findall(r"<script>(.*?)</script>", lab, re.S)[:1]
    config = json.loads(entities.unescape(re.search(r'id="juzgar-config">(.*?)</script>', page, re.S).group(1)))
    urls = re.findall(r'(?:src|href)="([^"#]+)', page) + [config["worker"], config["workerRouter"], config["workerKit"], config["wheel"]["url"],
                                                          *config["panelWorkers"].values(), config["sample"]["corpus"]]
    for url in urls:
        assert not urlsplit(url).scheme, url
        path = posixpath.normpath(posixpath.join("juzgar", url))
        assert (dist / path).is_file() or (dist / path / "index.html").is_file(), url
    assert 'href="../"' in page and 'href="juzgar/"' in lab
