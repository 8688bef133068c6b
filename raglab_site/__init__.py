"""The site generator's parts, beside build.py (which reads as the pipeline only), one line each.

Sources to pages:
- ``sources``: reading config.yaml, the pages' front matter and Markdown, text files; errors name file and line.
- ``markdown_math``: Markdown with LaTeX formulas rendered to MathML at build time.
- ``templates``: the strict Jinja2 environment; its errors name the template's file and line.
- ``stylesheets``: each page's one inline stylesheet, site_src/inline/'s sheets joined in cascade order.
- ``views``: the build-time view table: Python's view of every state the ranking's sliders reach.
- ``corpus_site``: the «Tu corpus» panel's part: its sample's files and its entry in the page's configuration.
- ``judging_site``: the judging page's part (``dist/juzgar/``): its sample job's files and its configuration.
- ``export``: ``build.py export DIR``, the lab as a page of a Material for MkDocs or Zensical site.

The browser runtime:
- ``runtime``: Pyodide's files as the page loads them, the brotli decoder, the core's wheel.
- ``snapshot``: the Pyodide memory snapshot: its making (``snapshot.mjs``, in Node), its format, its configuration.
- ``wasm``: the data segments a wasm module writes into its memory, which the snapshot is XORed against.

Files and hosts:
- ``assets``: content-hashed names, integrity digests, the atomic write of dist/; the page configuration's
  entries for the worker's and the panels' scripts, which no template names (``script_entries``).
- ``minify``: the pages' scripts and stylesheets minified by esbuild, nothing renamed.
- ``compression``: the precompressed ``.br``/``.gz`` copies beside each compressible file.
- ``headers``: the response headers every host should send, written to ``dist/_headers``.
- ``cache``: the build cache shared by every clone: slow, deterministic results kept by content hash.
- ``devserver``: the dev server and watcher of ``build.py serve``, tests and benchmarks; a host that does not compress.

Here: :class:`BuildError`, what every part raises for a problem in the sources.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
