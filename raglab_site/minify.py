"""The page's own scripts and stylesheet as dist/ ships them: comments and whitespace taken out and
the syntax shortened by esbuild (npm, pinned in package.json), nothing renamed, so a stack trace
still names our functions.

A host that does not compress sends every byte of them (what this saves: docs/performance.md,
«The runtime's wasm, decoded by the page»). The sources keep their comments; the build checks
them (inline files, stylesheet blocks) before this step, so its errors name the source's lines.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from . import ROOT, BuildError
from .cache import cached_transform

ESBUILD_DIR = ROOT / "node_modules" / "esbuild"
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
LOADERS = {".js": "js", ".mjs": "js", ".css": "css"}
# Whitespace and syntax only (no renaming); non-ASCII characters kept as they are, not escaped.
FLAGS = ("--minify-whitespace", "--minify-syntax", "--legal-comments=none", "--charset=utf8")


def minified(path: Path, data: bytes) -> bytes:
    """``data`` (the file at ``path``) minified if it is a script or a stylesheet, else as it is."""
    loader = LOADERS.get(path.suffix)
    if loader is None:
        return data
    if not ESBUILD.exists():
        raise BuildError(ESBUILD, "missing: run `npm ci` (or `make`)")
    version = json.loads((ESBUILD_DIR / "package.json").read_text("utf-8"))["version"]
    return cached_transform(data, f"esbuild-{version}.{loader}", lambda source: run_esbuild(path, source, loader))


def run_esbuild(path: Path, source: bytes, loader: str) -> bytes:
    result = subprocess.run([str(ESBUILD), f"--loader={loader}", *FLAGS], input=source, capture_output=True)
    if result.returncode != 0:
        raise BuildError(path, "esbuild could not read it: " + result.stderr.decode("utf-8", "replace").strip())
    return result.stdout
