#!/usr/bin/env python3
"""Build the Laboratorio de recuperación RAG from site_src/ into dist/.

    python build.py [build] [--out DIR]        build (default: dist/)
    python build.py serve [--port 8000]        build, serve on 127.0.0.1, rebuild on changes
    python build.py export DIR [--base PATH]   the lab as a folder for a documentation site (raglab_site/export.py)

Stages, in reading order (see ``make_site``): read the sources, validate them,
compute the default view with ``raglab_core``, render, then write everything
at once into a fresh directory that replaces the old one only when the build
has succeeded. Every error names the file (and line, where there is one) and
exits non-zero.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

from markupsafe import Markup

from raglab_site import ROOT, BuildError
from raglab_site import headers as site_headers
from raglab_site.assets import (
    hashed_name, read_static, script_entries, short_hash, subresource_integrity, write_atomically,
)
from raglab_site.minify import minified
from raglab_site.corpus_site import corpus_config
from raglab_site.judging_site import judge_config, sample_files
from raglab_site.compression import add_precompressed, compress_ahead, is_precompressed_copy, wire_size
from raglab_site.markdown_math import mathml
from raglab_site.runtime import RUNTIME_MODULE, WASM, build_wheel, read_pyodide, runtime_assets
from raglab_site.sources import placeholder_urls, read_config, read_page, read_text  # noqa: F401 (tests call them here)
from raglab_site.snapshot import snapshot_assets
from raglab_site.stylesheets import page_styles
from raglab_site.templates import (
    MissingAsset, check_no_html_entities, render, template_environment, unclosed_css_block, without_indentation,
)
from raglab_site.views import view_table_assets

SRC = ROOT / "site_src"

sys.path.insert(0, str(ROOT))
from raglab_core import LabError, words  # noqa: E402
from raglab_core.lab import check_defaults, compute, conventions, default_state, form  # noqa: E402
from raglab_core.lab.controls import UNJUDGED  # noqa: E402
from raglab_core.runs import panel  # noqa: E402
from raglab_core.runs.inputs import SLOTS  # noqa: E402


# --- reading the sources ------------------------------------------------------------------


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


# --- assets and rendering -----------------------------------------------------------------


# What an inline file cannot hold: the end of its element, or an HTML comment's start.
INLINE_FORBIDDEN = {".js": re.compile(r"</script|<!--", re.IGNORECASE), ".css": re.compile(r"</style|<!--", re.IGNORECASE)}


def read_inline(directory: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The files the pages carry inline (site_src/inline/), each allowed by the SHA-256 of its text
    in the CSP: the scripts (boot.js, frame.js), which run while the HTML is still being parsed, before
    any request, minified one by one; and each page's stylesheet (raglab_site/stylesheets.py), which the
    first layout then needs no request for. Returns (scripts by name, stylesheets by page)."""
    scripts, sheets = {}, {}
    for name, data in read_static(directory).items():
        text = data.decode("utf-8")
        suffix = Path(name).suffix
        if suffix not in INLINE_FORBIDDEN:
            raise BuildError(directory / name, "an inline file must be a script (.js) or a stylesheet (.css)")
        if INLINE_FORBIDDEN[suffix].search(text):
            end = "</script" if suffix == ".js" else "</style"
            raise BuildError(directory / name, f"an inline file cannot contain '{end}' or '<!--'")
        if suffix == ".css":
            if (line := unclosed_css_block(text)) is not None:
                raise BuildError(directory / name, "a block opened here is never closed (or a '}' closes nothing)", line)
            sheets[name] = text
        else:
            scripts[name] = minified(directory / name, data).decode("utf-8")
    return scripts, page_styles(sheets, directory)


def page_context(page, config, scenario, view, assets, lab_config, inline) -> dict:
    """The one place that defines what templates may use (``inline``: read_inline's scripts and styles)."""
    scripts, styles = inline

    def inline_file(name: str) -> Markup:
        if name not in scripts:
            raise MissingAsset(name)
        return Markup(scripts[name])  # checked by read_inline; hashed into the CSP

    def asset(name: str) -> str:
        if name not in assets:
            raise MissingAsset(name)
        return assets[name]["url"]

    def integrity(name: str) -> str:
        return assets[name]["integrity"]

    # One policy for the site (the <meta> of both pages and the _headers' header): every inline text of either page.
    policy = site_headers.csp(list(scripts.values()), [styles[name] for name in sorted(styles)])
    return {
        "page": page,
        "config": config,
        "scenario": scenario,
        "view": view,
        "csp": policy,
        "header_rules": site_headers.site_rules(policy),
        "asset": asset,
        "inline": inline_file,
        "style": Markup(styles["lab"]),  # the page's one <style> (raglab_site/stylesheets.py)
        "integrity": integrity,
        "lab_config": lab_config,
        "ranking_size": len(scenario["documents"]),
        # The conventions panel (DESIGN §4.4): its table, and its formulas as MathML, made here.
        "conventions": {row["name"]: row for row in conventions.TABLE},
        "mathml": lambda latex: Markup(mathml(latex, "inline")),
        "unjudged": {"token": UNJUDGED, "label": words.UNJUDGED_LABEL},  # the grade select's «sin juicio»
        "complete_label": words.COMPLETE_LABEL,  # «Tus datos»' checkbox, named by its warnings too
    }


# --- the pipeline -------------------------------------------------------------------------


def make_site(export: bool = False) -> dict[str, bytes]:
    """Everything dist/ will hold, as {relative path: bytes}. Reads sources, writes nothing. With
    ``export``, the lab for ``build.py export``: config.yaml's ``export`` settings apply."""
    config = read_config(SRC / "config.yaml", export)
    page = read_page(SRC / "content" / "index.md")
    scenario = read_scenario(SRC / "data" / "scenario.json")
    view = compute(default_state(scenario))
    pyodide_version, pyodide_files, lock_info = read_pyodide()
    compress_ahead(pyodide_files)  # the wasm's brotli copy (half a minute, once) while the snapshot is made
    wheel_name, wheel = build_wheel()
    snapshot_files, snapshot_entry = snapshot_assets(wheel, pyodide_files[WASM])
    pyodide_base = f"pyodide/{pyodide_version}/"
    files, runtime_entries = runtime_assets(pyodide_base, pyodide_files)  # its wasm, as its brotli copy
    wheel_path = f"assets/wheel-{short_hash(wheel)}/{wheel_name}"
    files[wheel_path] = wheel
    files.update(snapshot_files)
    # Python's view of every state the ranking's sliders reach from the defaults (lab.js, before Python).
    views_files, views_entry = view_table_assets(scenario)
    files.update(views_files)

    assets = {}
    for name, data in read_static(SRC / "static").items():
        data = minified(SRC / "static" / name, data)
        url = "assets/" + (name if name.endswith((".svg", ".png", ".ico")) else hashed_name(name, data))
        files[url] = data
        assets[name] = {"url": url, "integrity": subresource_integrity(data)}

    samples = {}
    for path in sorted((SRC / "data" / "sample").glob("*.txt")):
        files[f"data/sample/{path.name}"] = path.read_bytes()
        samples[path.stem] = f"data/sample/{path.name}"

    lab_config = {
        **script_entries(assets, SRC / "static"),  # the worker's and the panels' scripts, loaded on first use
        "pyodide": pyodide_base,
        "runtime": pyodide_base + RUNTIME_MODULE,
        **runtime_entries,  # "wasm" and "decoder"
        "wheel": {"url": wheel_path, "sha256": hashlib.sha256(wheel).hexdigest()},
        "snapshot": snapshot_entry,
        "views": views_entry,
        "lock": {"info": lock_info, "packages": {}},
        "scenario": scenario,
        "form": form.table(len(scenario["documents"])),  # controls and outputs: the template's and lab.js's
        # The «Tus datos» panel's sample: qrels and two runs, in this order.
        "sample": [samples[name] for name in ("qrels", "run-bm25", "run-densa") if name in samples],
        # «¿Te fías de tus juicios?»'s synthetic sample: the qrels, a lenient judge's and five runs, in this order.
        "judges_sample": [samples[name] for name in ("qrels", "qrels-llm", "run-bm25", "run-densa", "run-splade",
                                                     "run-hibrida", "run-rerank") if name in samples],
        "data": panel.page_settings(),  # its default measures, rows drawn and sentences
        "runSlots": list(SLOTS),  # the runs' slots, A to L, as Python names them: the template's, the scripts', the worker's
        "corpus": corpus_config(SRC / "data" / "corpus", files),  # «Tu corpus»: settings, words, sample
    }
    # What Python's fast start downloads from a host that serves the brotli copies: the page names it
    # when a data saver makes it wait for the reader (boot.js).
    runtime_files = [pyodide_base + name for name in (RUNTIME_MODULE, "pyodide.asm.js", "empty.zip")]
    runtime_files += [lab_config["wasm"]["url"], assets["worker.js"]["url"], assets["worker-router.js"]["url"], *snapshot_files]
    runtime_files += lab_config["decoder"].values()
    lab_config["runtimeBytes"] = sum(wire_size(path, files[path]) for path in runtime_files)
    # Its two big files, which boot.js preloads at once (the worker's own requests for them come
    # after the first frame and are answered from the HTTP cache).
    lab_config["preload"] = {"wasm": lab_config["wasm"]["url"], "snapshot": snapshot_entry and snapshot_entry["url"]}
    lab_config["serviceWorker"] = bool(config.get("service_worker", True))
    lab_config.update(words.page_texts(lab_config["runtimeBytes"]))  # every sentence the scripts show
    env = template_environment(SRC / "templates")
    inline = read_inline(SRC / "inline")
    context = page_context(page, config, scenario, view, assets, lab_config, inline)
    files["index.html"] = without_indentation(render(env, "page.html.j2", context)).encode("utf-8")
    files["_headers"] = render(env, "_headers.j2", context).encode("utf-8")
    files["juzgar/index.html"] = render_judging_page(env, config, assets, files, lab_config, context, inline[1]["juzgar"])
    add_precompressed(files)
    files["sw.js"] = render_service_worker(env, files, lab_config["serviceWorker"], snapshot_entry["keptCache"])
    check_no_html_entities(files, SRC / "templates")
    return files


def render_judging_page(env, config, assets, files, lab_config, lab_context, style: str) -> bytes:
    """dist/juzgar/index.html, the judging page (DESIGN §4.13), from site_src/content/juzgar.md: one folder
    down, so its URLs start with ../; the lab's policy, its own inline stylesheet (the base and print sheets) and
    the lab's inline worker spawn (spawn.js).
    Its sample job's files are added to ``files``."""
    from raglab_core.judges.words import page_words

    files.update(sample_files(SRC / "data" / "corpus"))
    page = read_page(SRC / "content" / "juzgar.md")

    def asset(name: str) -> str:
        if name not in assets:
            raise MissingAsset(name)
        return "../" + assets[name]["url"]

    context = {"page": page, "config": config, "csp": lab_context["csp"], "asset": asset,
               "integrity": lab_context["integrity"], "inline": lab_context["inline"], "style": Markup(style),
               "judge_config": judge_config(lab_config, assets, files, page_words())}
    return without_indentation(render(env, "juzgar.html.j2", context)).encode("utf-8")


def render_service_worker(env, files: dict[str, bytes], enabled: bool, kept: str) -> bytes:
    """sw.js, versioned by a hash of everything it precaches (so any change makes a new worker);
    its clean-up spares the cache ``kept`` (the decoded snapshot that worker.js keeps)."""
    # A page is precached by its folder's URL (juzgar/), the one readers open and the worker matches.
    precache = ["./"] + sorted(
        path.removesuffix("index.html") for path in files
        if path != "index.html" and not path.startswith("_") and not is_precompressed_copy(path, files)
    )
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.encode() + b"\0" + hashlib.sha256(files[path]).digest())
    context = {"version": digest.hexdigest()[:16], "precache": precache, "enabled": enabled, "kept": kept}
    return render(env, "sw.js.j2", context).encode("utf-8")


def build(out: Path) -> dict[str, bytes]:
    files = make_site()
    write_atomically(files, out)
    return files


# --- command line -------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    if (argv := sys.argv[1:] if argv is None else argv)[:1] == ["export"]:  # its own options: export.py
        from raglab_site.export import main as export
        return export(argv[1:], lambda: make_site(export=True), read_page, SRC / "content" / "index.md")
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
    print(f"built {args.out} ({len(files)} files, {sum(map(len, files.values())) / 1e6:.1f} MB)")
    if args.command == "serve":
        from raglab_site.devserver import serve

        serve(args.out, args.port, sources=[SRC, ROOT / "raglab_core"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
