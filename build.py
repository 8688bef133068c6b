#!/usr/bin/env python3
"""Build the Laboratorio de recuperación RAG from site_src/ into dist/.

    python build.py [build] [--out DIR]        build (default: dist/)
    python build.py serve [--port 8000]        build, serve on 127.0.0.1, rebuild on changes

Stages, in reading order (see ``make_site``): read the sources, validate them,
compute the default view with ``raglab_core``, render, then write everything
at once into a fresh directory that replaces the old one only when the build
has succeeded. Every error names the file (and line, where there is one) and
exits non-zero.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import traceback
import xml.etree.ElementTree as etree
from pathlib import Path, PurePosixPath

import jinja2
import markdown
import yaml
from latex2mathml.converter import convert as latex_to_mathml
from markdown.inlinepatterns import InlineProcessor
from markdown.preprocessors import Preprocessor

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "site_src"
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
# What the page loads from the pyodide package (the rest of it is never requested). The lock file
# is not among them: the worker passes Pyodide a minimal lock inline, as the page loads no package.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# A snapshot-booted page needs no standard library archive (every module it uses is in the
# snapshot's heap), but Pyodide fetches one anyway: give it an empty zip (22 bytes).
EMPTY_ZIP = b"PK\x05\x06" + bytes(18)
SNAPSHOT_SCRIPT = ROOT / "snapshot.mjs"
CACHE = Path(os.environ.get("RAGLAB_CACHE", ROOT / ".cache"))
# Fixed zip timestamps make the wheel, and so dist/, byte-identical across builds.
SOURCE_DATE_EPOCH = "315532800"
CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; worker-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)

sys.path.insert(0, str(ROOT))
from raglab_core import LabError, form  # noqa: E402
from raglab_core.lab import check_defaults, compute, default_state  # noqa: E402


class BuildError(Exception):
    """A problem in the sources; ``str()`` is ``path:line: message``."""

    def __init__(self, path: Path | str, message: str, line: int | None = None):
        self.path, self.message, self.line = Path(path), message, line
        super().__init__(str(self))

    def __str__(self) -> str:
        try:
            shown = self.path.resolve().relative_to(ROOT)
        except ValueError:
            shown = self.path
        where = f"{shown}:{self.line}" if self.line else f"{shown}"
        return f"{where}: {self.message}"


# --- reading the sources ------------------------------------------------------------------


def read_yaml(path: Path, text: str, first_line: int = 1):
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = first_line + mark.line if mark else None
        raise BuildError(path, f"invalid YAML: {getattr(error, 'problem', None) or error}", line) from None


def read_config(path: Path) -> dict:
    config = read_yaml(path, read_text(path))
    if not isinstance(config, dict):
        raise BuildError(path, "expected a mapping of settings")
    for key in ("site_name", "locale", "sources", "related"):
        if key not in config:
            raise BuildError(path, f"missing setting '{key}'")
    return config


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BuildError(path, "file not found") from None
    except UnicodeDecodeError as error:
        raise BuildError(path, f"not UTF-8 text ({error.reason} at byte {error.start})") from None


PAGE_KEYS = ("title", "description", "keywords", "eyebrow", "headline", "lead", "cards")


def read_page(path: Path) -> dict:
    """Split YAML front matter from the Markdown body and render the body to HTML."""
    text = read_text(path)
    match = re.match(r"---\n(.*?)\n---\n", text, re.S)
    if not match:
        raise BuildError(path, "expected YAML front matter between '---' lines at the top", 1)
    meta = read_yaml(path, match.group(1), first_line=2)
    if not isinstance(meta, dict):
        raise BuildError(path, "front matter must be a mapping of keys to values", 2)
    missing = [key for key in PAGE_KEYS if key not in meta]
    if missing:
        raise BuildError(path, f"front matter is missing: {', '.join(missing)}", 2)
    meta.setdefault("hide", [])
    try:
        meta["body"] = render_markdown(text[match.end():])
    except MathError as error:
        line = next((n for n, row in enumerate(text.splitlines(), 1) if error.latex in row), None)
        raise BuildError(path, str(error), line) from None
    return meta


def read_scenario(path: Path) -> dict:
    try:
        scenario = json.loads(read_text(path))
    except json.JSONDecodeError as error:
        raise BuildError(path, f"invalid JSON: {error.msg} (column {error.colno})", error.lineno) from None
    try:
        check_defaults(scenario)  # validates the scenario, then its defaults against the form's rules
    except LabError as error:
        raise BuildError(path, f"invalid scenario at {error.field}: {error}") from None
    return scenario


# --- Markdown with LaTeX formulas rendered to MathML at build time ------------------------


class MathError(ValueError):
    def __init__(self, latex: str, reason: str):
        super().__init__(f"cannot convert formula ${latex}$ to MathML: {reason}")
        self.latex = latex


def mathml(latex: str, display: str) -> str:
    """MathML for ``latex`` (no xmlns: the HTML parser puts <math> in the MathML namespace)."""
    try:
        html = latex_to_mathml(latex, display=display)
    except Exception as error:  # latex2mathml raises a family of its own exception types
        raise MathError(latex, str(error) or type(error).__name__) from None
    unknown = re.search(r">(\\[A-Za-z]+)<", html)
    if unknown:  # latex2mathml passes unknown commands through as text
        raise MathError(latex, f"unknown command {unknown.group(1)}")
    return html.replace(' xmlns="http://www.w3.org/1998/Math/MathML"', "", 1)


class DisplayMath(Preprocessor):
    """``$$ … $$`` on its own line becomes a MathML block (stashed, so Markdown leaves it alone)."""

    def run(self, lines):
        out = []
        for line in lines:
            match = re.fullmatch(r"\s*\$\$(.+)\$\$\s*", line)
            if match:
                html = (
                    # Focusable: on a narrow screen a long formula scrolls, and keyboards must reach it.
                    f'<div class="formula" tabindex="0" role="group" aria-label="Fórmula">'
                    f'{mathml(match.group(1).strip(), "block")}</div>'
                )
                out.append(self.md.htmlStash.store(html))
            else:
                out.append(line)
        return out


class InlineMath(InlineProcessor):
    """``$ … $`` inside a paragraph becomes inline MathML."""

    def handleMatch(self, m, data):
        element = etree.Element("span", {"class": "math"})
        element.text = self.md.htmlStash.store(mathml(m.group(1), "inline"))
        return element, m.start(0), m.end(0)


class MathExtension(markdown.Extension):
    def extendMarkdown(self, md):
        md.preprocessors.register(DisplayMath(md), "display_math", 27)
        # Before escapes (180) and emphasis, so "\," and "_" inside formulas stay LaTeX.
        md.inlinePatterns.register(InlineMath(r"(?<!\\)\$([^$\n]+?)\$", md), "inline_math", 185)


def render_markdown(text: str) -> str:
    return markdown.markdown(text, extensions=["attr_list", MathExtension()], output_format="html")


# --- the browser runtime: Pyodide and the core wheel --------------------------------------


def read_pyodide() -> tuple[str, dict[str, bytes], dict]:
    """The pinned Pyodide version, the files the page loads and the lock file's ``info``."""
    pinned = json.loads(read_text(ROOT / "package.json"))["dependencies"]["pyodide"]
    manifest = PYODIDE_DIR / "package.json"
    if not manifest.exists():
        raise BuildError(PYODIDE_DIR, "Pyodide is not installed: run `npm ci` (or `make`)")
    installed = json.loads(read_text(manifest))["version"]
    if installed != pinned:
        raise BuildError(manifest, f"Pyodide {installed} is installed but package.json pins {pinned}: run `npm ci`")
    files = {}
    for name in PYODIDE_FILES:
        path = PYODIDE_DIR / name
        if not path.exists():
            raise BuildError(path, "missing from the Pyodide package: run `npm ci`")
        files[name] = path.read_bytes()
    lock_info = json.loads(read_text(PYODIDE_DIR / "pyodide-lock.json"))["info"]
    return installed, files, lock_info


def build_wheel() -> tuple[str, bytes]:
    """Build raglab_core's wheel with its PEP 517 backend (flit_core), reproducibly."""
    import flit_core.buildapi as backend

    previous_cwd, previous_epoch = os.getcwd(), os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = SOURCE_DATE_EPOCH
    try:
        os.chdir(ROOT)
        with tempfile.TemporaryDirectory() as tmp:
            name = backend.build_wheel(tmp)
            return name, (Path(tmp) / name).read_bytes()
    finally:
        os.chdir(previous_cwd)
        if previous_epoch is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = previous_epoch


def make_snapshot(pyodide_files: dict[str, bytes], wheel: bytes) -> bytes:
    """The gzipped Pyodide memory snapshot with raglab_core imported (see snapshot.mjs).

    Making one takes seconds (Node boots Pyodide), so it is cached under .cache/ (or
    $RAGLAB_CACHE) by the hashes of everything it depends on: Pyodide's files, the wheel and the
    script itself. snapshot.mjs makes it reproducibly, so a cache miss gives the same bytes.
    """
    key = hashlib.sha256()
    for name in sorted(pyodide_files):
        key.update(name.encode() + hashlib.sha256(pyodide_files[name]).digest())
    key.update(hashlib.sha256(wheel).digest() + hashlib.sha256(SNAPSHOT_SCRIPT.read_bytes()).digest())
    cached = CACHE / "snapshots" / f"{key.hexdigest()[:24]}.bin.gz"
    if cached.exists():
        return cached.read_bytes()
    node = shutil.which("node")
    if not node:
        raise BuildError(SNAPSHOT_SCRIPT, "Node.js (>= 20) is needed to make the Pyodide snapshot: install it, then run `make`")
    import subprocess

    with tempfile.TemporaryDirectory() as tmp:
        wheel_path, out_path = Path(tmp) / "core.whl", Path(tmp) / "snapshot.bin.gz"
        wheel_path.write_bytes(wheel)
        result = subprocess.run([node, str(SNAPSHOT_SCRIPT), str(PYODIDE_DIR), str(wheel_path), str(out_path)],
                                capture_output=True, text=True)
        if result.returncode or not out_path.exists():
            detail = (result.stderr or result.stdout).strip().splitlines()[-5:]
            raise BuildError(SNAPSHOT_SCRIPT, "making the Pyodide snapshot failed: " + " | ".join(detail))
        compressed = out_path.read_bytes()
    store(cached, compressed)
    return compressed


def store(path: Path, data: bytes) -> None:
    """Write a cache entry atomically: a build interrupted mid-write leaves no half file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".tmp")
    partial.write_bytes(data)
    os.replace(partial, path)


# --- assets and rendering -----------------------------------------------------------------


def short_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def sri(data: bytes) -> str:
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()


def hashed_name(name: str, data: bytes) -> str:
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}.{short_hash(data)}.{suffix}" if dot else f"{name}.{short_hash(data)}"


def read_static(directory: Path) -> dict[str, bytes]:
    return {
        path.relative_to(directory).as_posix(): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


class MissingAsset(LookupError):
    pass


def template_environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(SRC / "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["j2", "html"]),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def template_line(error: BaseException) -> tuple[Path, int | None]:
    """The template file and line a rendering error came from (Jinja keeps them in the traceback)."""
    templates = str(SRC / "templates")
    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        if frame.filename.startswith(templates):
            return Path(frame.filename), frame.lineno
    return SRC / "templates", None


def render(env: jinja2.Environment, name: str, context: dict) -> str:
    try:
        return env.get_template(name).render(context)
    except jinja2.TemplateSyntaxError as error:
        raise BuildError(error.filename or SRC / "templates" / name, f"template syntax: {error.message}", error.lineno) from None
    except jinja2.UndefinedError as error:
        path, line = template_line(error)
        raise BuildError(path, f"unknown template variable: {error.message}", line) from None
    except MissingAsset as error:
        path, line = template_line(error)
        raise BuildError(path, f"missing asset: {error.args[0]} is not in site_src/static/", line) from None


def page_context(page, config, scenario, view, assets, lab_config) -> dict:
    """The one place that defines what templates may use."""
    def asset(name: str) -> str:
        if name not in assets:
            raise MissingAsset(name)
        return assets[name]["url"]

    def integrity(name: str) -> str:
        return assets[name]["integrity"]

    return {
        "page": page,
        "config": config,
        "scenario": scenario,
        "view": view,
        "csp": CSP,
        "asset": asset,
        "integrity": integrity,
        "lab_config": lab_config,
        "ranking_size": len(scenario["documents"]),
    }


# --- the pipeline -------------------------------------------------------------------------


def make_site() -> dict[str, bytes]:
    """Everything dist/ will hold, as {relative path: bytes}. Reads sources, writes nothing."""
    config = read_config(SRC / "config.yaml")
    page = read_page(SRC / "content" / "index.md")
    scenario = read_scenario(SRC / "data" / "scenario.json")
    view = compute(default_state(scenario))
    pyodide_version, pyodide_files, lock_info = read_pyodide()
    wheel_name, wheel = build_wheel()
    snapshot = make_snapshot(pyodide_files, wheel)

    files: dict[str, bytes] = {}
    pyodide_base = f"pyodide/{pyodide_version}/"
    for name, data in pyodide_files.items():
        files[pyodide_base + name] = data
    files[pyodide_base + "empty.zip"] = EMPTY_ZIP
    wheel_path = f"assets/wheel-{short_hash(wheel)}/{wheel_name}"
    files[wheel_path] = wheel
    snapshot_path = f"assets/snapshot.{short_hash(snapshot)}.bin.gz"
    files[snapshot_path] = snapshot

    assets = {}
    for name, data in read_static(SRC / "static").items():
        url = "assets/" + (name if name.endswith((".svg", ".png", ".ico")) else hashed_name(name, data))
        files[url] = data
        assets[name] = {"url": url, "integrity": sri(data)}

    samples = {}
    for path in sorted((SRC / "data" / "sample").glob("*.txt")):
        files[f"data/sample/{path.name}"] = path.read_bytes()
        samples[path.stem] = f"data/sample/{path.name}"

    if "worker.js" not in assets:  # named by no template, only by the page's configuration
        raise BuildError(SRC / "static" / "worker.js", "missing asset: the page's Python worker")
    lab_config = {
        "worker": assets["worker.js"]["url"],
        "pyodide": pyodide_base,
        "wheel": {"url": wheel_path, "sha256": hashlib.sha256(wheel).hexdigest()},
        "snapshot": {"url": snapshot_path, "sha256": hashlib.sha256(snapshot).hexdigest()},
        "lock": {"info": lock_info, "packages": {}},
        "scenario": scenario,
        "form": form.table(len(scenario["documents"])),  # controls and outputs: the template's and lab.js's
        # The «Tus datos» panel's sample: qrels and two runs, in this order.
        "sample": [samples[name] for name in ("qrels", "run-bm25", "run-densa") if name in samples],
    }
    lab_config["serviceWorker"] = bool(config.get("service_worker", True))
    env = template_environment()
    context = page_context(page, config, scenario, view, assets, lab_config)
    files["index.html"] = render(env, "page.html.j2", context).encode("utf-8")
    files["_headers"] = render(env, "_headers.j2", context).encode("utf-8")
    add_precompressed(files)
    files["sw.js"] = render_service_worker(env, files, enabled=lab_config["serviceWorker"])
    return files


COMPRESSIBLE = (".wasm", ".mjs", ".js", ".css", ".html", ".svg", ".json")


def add_precompressed(files: dict[str, bytes]) -> None:
    """Add X.br and X.gz beside each compressible X, for hosts (and the dev server) that serve
    precompressed files by Accept-Encoding. Both are cached by content: brotli quality 11 on the
    9.6 MB wasm takes about 40 s, so files over 1 MB get quality 9 (about 12 % larger, 20 times
    faster)."""
    import gzip

    import brotli

    for path in sorted(files):
        data = files[path]
        if not path.endswith(COMPRESSIBLE) or len(data) < 1024:
            continue
        quality = 9 if len(data) > 1_000_000 else 11
        files[path + ".br"] = cached_transform(data, f"q{quality}.br", lambda d: brotli.compress(d, quality=quality))
        files[path + ".gz"] = cached_transform(data, "9.gz", lambda d: gzip.compress(d, compresslevel=9, mtime=0))


def cached_transform(data: bytes, kind: str, transform) -> bytes:
    """``transform(data)``, remembered under .cache/ by the content's hash (a deterministic transform)."""
    cached = CACHE / "compressed" / f"{hashlib.sha256(data).hexdigest()[:24]}.{kind}"
    if cached.exists():
        return cached.read_bytes()
    result = transform(data)
    store(cached, result)
    return result


def is_precompressed_copy(path: str, files) -> bool:
    return path.endswith((".br", ".gz")) and path[:-3] in files


def render_service_worker(env: jinja2.Environment, files: dict[str, bytes], enabled: bool) -> bytes:
    """sw.js, versioned by a hash of everything it precaches (so any change makes a new worker)."""
    precache = ["./"] + sorted(
        path for path in files
        if path != "index.html" and not path.startswith("_") and not is_precompressed_copy(path, files)
    )
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.encode() + b"\0" + hashlib.sha256(files[path]).digest())
    context = {"version": digest.hexdigest()[:16], "precache": precache, "enabled": enabled}
    return render(env, "sw.js.j2", context).encode("utf-8")


def write_atomically(files: dict[str, bytes], out: Path) -> None:
    """Write ``files`` into a fresh sibling directory, then swap it in for ``out``."""
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-new-", dir=out.parent))
    try:
        for relative, data in sorted(files.items()):
            target = staging / PurePosixPath(relative)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        os.chmod(staging, 0o755)
        retired = None
        if out.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-", dir=out.parent))
            os.rename(out, retired / out.name)
        os.rename(staging, out)
        if retired:
            shutil.rmtree(retired, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def build(out: Path) -> dict[str, bytes]:
    files = make_site()
    write_atomically(files, out)
    return files


# --- development server -------------------------------------------------------------------

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    "": "application/octet-stream",
}


def make_server(directory: Path, port: int = 0):
    """A threaded HTTP server for ``directory`` on 127.0.0.1 (port 0: any free port), not yet started."""
    import functools
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Handler(SimpleHTTPRequestHandler):
        extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

        def end_headers(self):
            # Content-addressed paths never change (a rebuild renames them), as dist/_headers says.
            immutable = self.path.startswith(("/assets/", "/pyodide/"))
            self.send_header("Cache-Control", "public, max-age=31536000, immutable" if immutable else "no-cache")
            self.send_header("X-Content-Type-Options", "nosniff")
            super().end_headers()

        def send_head(self):
            """Serve X.br or X.gz for X when the client accepts it and the copy exists."""
            path = Path(self.translate_path(self.path))
            accepted = self.headers.get("Accept-Encoding", "")
            for encoding, suffix in (("br", ".br"), ("gzip", ".gz")):
                copy = path.with_name(path.name + suffix)
                if path.is_file() and encoding in accepted and copy.is_file():
                    source = open(copy, "rb")
                    self.send_response(200)
                    self.send_header("Content-Type", self.guess_type(str(path)))
                    self.send_header("Content-Encoding", encoding)
                    self.send_header("Content-Length", str(copy.stat().st_size))
                    self.send_header("Vary", "Accept-Encoding")
                    self.end_headers()
                    return source
            return super().send_head()

        def copyfile(self, source, outputfile):
            # Zero-copy sendfile: several times faster than the default 64 KB copy loop, which
            # otherwise dominates loading the multi-megabyte runtime from this server.
            outputfile.flush()
            self.connection.sendfile(source)

        def log_message(self, format, *args):  # quiet: one line per rebuild is enough
            pass

    return ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=str(directory)))


def serve(out: Path, port: int) -> None:
    """Serve ``out`` on 127.0.0.1:``port`` and rebuild when site_src/ or raglab_core/ change."""
    import threading

    server = make_server(out, port)
    threading.Thread(target=watch_and_rebuild, args=(out,), daemon=True).start()
    print(f"serving {out} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl+C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def watch_and_rebuild(out: Path) -> None:
    """Rebuild in a fresh process, so edits to raglab_core reach the server-side render too."""
    import subprocess

    import watchfiles

    for changes in watchfiles.watch(SRC, ROOT / "raglab_core"):
        names = ", ".join(sorted({Path(path).name for _, path in changes}))
        result = subprocess.run([sys.executable, __file__, "build", "--out", str(out)], capture_output=True, text=True)
        if result.returncode:
            print(f"rebuild failed ({names}): {result.stderr.strip()}; still serving the last good build", file=sys.stderr)
        else:
            print(f"rebuilt after changes in {names}")


# --- command line -------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="build.py", description="Build the Laboratorio de recuperación RAG.")
    parser.add_argument("command", nargs="?", default="build", choices=["build", "serve"])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="output directory (default: dist/)")
    parser.add_argument("--port", type=int, default=8000, help="port for serve (default: 8000)")
    args = parser.parse_args(argv)
    try:
        files = build(args.out)
    except BuildError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    size = sum(len(data) for data in files.values())
    print(f"built {args.out} ({len(files)} files, {size / 1e6:.1f} MB)")
    if args.command == "serve":
        serve(args.out, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
