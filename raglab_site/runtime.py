"""The browser runtime: Pyodide's files as the page loads them, the brotli decoder, and the core's
wheel (the memory snapshot made from them is raglab_site/snapshot.py's).

Pyodide's npm package ships ES modules as ``.mjs``, a type that stock nginx (and other servers'
default tables) do not know: they serve it as ``application/octet-stream``, which browsers refuse
for module scripts. So the page ships them under ``.js`` names, which every server types as
JavaScript, and the one place that names the runtime module is patched to match. Each patch is
checked: when a Pyodide upgrade changes the expected text, the build fails instead of shipping a
page that cannot boot.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from pathlib import Path

from . import ROOT, BuildError
from .assets import short_hash, subresource_integrity
from .compression import brotli_copy

PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
# Fixed zip timestamps make the wheel, and so dist/, byte-identical across builds.
SOURCE_DATE_EPOCH = "315532800"
# A snapshot-booted page needs no standard library archive (every module it uses is in the
# snapshot's heap), but Pyodide fetches one anyway: give it an empty zip (22 bytes).
EMPTY_ZIP = b"PK\x05\x06" + bytes(18)
# The runtime module's name in dist/, the one worker.js imports.
RUNTIME_MODULE = "pyodide.module.js"
# The runtime's wasm ships only as its brotli copy, which the worker decodes as it arrives: 2.7 MB on
# the wire from any host, where the plain file is 9.6 MB from a host that does not compress
# (docs/performance.md, «The runtime's wasm, decoded by the page»). Brotli inside, but no ".br"
# name, for the snapshot's reason: a host that labelled it Content-Encoding: br would have the
# browser decode it before the worker could.
WASM = "pyodide.asm.wasm"
WASM_COPY = "pyodide.asm.wasm.bin"
# Browsers' DecompressionStream knows no brotli: the worker decodes the wasm and the snapshot with
# this wasm decoder (its size: docs/design.md), streaming.
BROTLI_DECODER_DIR = ROOT / "node_modules" / "brotli-dec-wasm" / "pkg"
BROTLI_DECODER_FILES = ("brotli_dec_wasm.js", "brotli_dec_wasm_bg.wasm")
# The decoder cannot decode itself: its wasm ships as a gzip copy (97 kB where the plain file is
# 208 kB from a host that does not compress), which the worker inflates with the browser's own
# DecompressionStream. A ".bin" name, for WASM_COPY's reason.
DECODER_WASM_COPY = "brotli_dec_wasm_bg.wasm.gz.bin"

# What the page loads from the pyodide package, under the name it gets in dist/, and the exact
# replacements made on the way, each with the number of times its text must occur. The lock file
# is not among them: the worker passes Pyodide a minimal lock inline, as the page loads no package.
PYODIDE_FILES: dict[str, tuple[str, tuple[tuple[str, str, int], ...]]] = {
    "pyodide.mjs": (RUNTIME_MODULE, (
        ("`${e.indexURL}pyodide.asm.mjs`", "`${e.indexURL}pyodide.asm.js`", 1),  # loadWasmScript
        ("\n//# sourceMappingURL=pyodide.mjs.map", "", 1),  # the map is not shipped
    )),
    "pyodide.asm.mjs": ("pyodide.asm.js", (
        ('.includes("pyodide.asm.mjs")', '.includes("pyodide.asm.js")', 1),  # trims its own stack frames
    )),
    WASM: (WASM, ()),  # shipped as WASM_COPY (runtime_assets)
    "python_stdlib.zip": ("python_stdlib.zip", ()),
}


def patch(path: Path, data: bytes, replacements) -> bytes:
    """``data`` with each ``(old, new, count)`` replaced, after checking ``old`` occurs ``count`` times."""
    for old, new, count in replacements:
        found = data.count(old.encode())
        if found != count:
            raise BuildError(path, f"expected {count} occurrence(s) of {old.strip()!r} to patch, found {found}: "
                                   "the pinned Pyodide changed; update raglab_site/runtime.py")
        data = data.replace(old.encode(), new.encode())
    return data


def read_pyodide() -> tuple[str, dict[str, bytes], dict]:
    """The pinned Pyodide version, the files the page loads (by their dist/ names) and the lock's ``info``."""
    pinned = json.loads((ROOT / "package.json").read_text("utf-8"))["dependencies"]["pyodide"]
    manifest = PYODIDE_DIR / "package.json"
    if not manifest.exists():
        raise BuildError(PYODIDE_DIR, "Pyodide is not installed: run `npm ci` (or `make`)")
    installed = json.loads(manifest.read_text("utf-8"))["version"]
    if installed != pinned:
        raise BuildError(manifest, f"Pyodide {installed} is installed but package.json pins {pinned}: run `npm ci`")
    files = {}
    for source, (name, replacements) in PYODIDE_FILES.items():
        path = PYODIDE_DIR / source
        if not path.exists():
            raise BuildError(path, "missing from the Pyodide package: run `npm ci`")
        files[name] = patch(path, path.read_bytes(), replacements)
    lock_info = json.loads((PYODIDE_DIR / "pyodide-lock.json").read_text("utf-8"))["info"]
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


def runtime_assets(base: str, pyodide_files: dict[str, bytes]) -> tuple[dict[str, bytes], dict]:
    """The runtime's files in dist/, ``{path: bytes}`` (Pyodide's under ``base``, its wasm as
    WASM_COPY; the empty standard library; the brotli decoder), and the page configuration's
    entries for the two the worker is told of: ``wasm`` (the copy's URL and SHA-256) and ``decoder``."""
    files = {base + name: data for name, data in pyodide_files.items() if name != WASM}
    files[base + "empty.zip"] = EMPTY_ZIP
    files[base + WASM_COPY] = copy = brotli_copy(pyodide_files[WASM])
    decoder = read_brotli_decoder()
    decoder_base = f"assets/brotli-{short_hash(b''.join(decoder.values()))}/"
    files[decoder_base + "brotli_dec_wasm.js"] = decoder["brotli_dec_wasm.js"]
    files[decoder_base + DECODER_WASM_COPY] = gzip.compress(decoder["brotli_dec_wasm_bg.wasm"], 9, mtime=0)
    return files, {
        "wasm": {"url": base + WASM_COPY, "integrity": subresource_integrity(copy, "sha256")},
        "decoder": {"module": decoder_base + "brotli_dec_wasm.js", "wasm": decoder_base + DECODER_WASM_COPY},
    }


def read_brotli_decoder() -> dict[str, bytes]:
    """The brotli decoder's ES module and wasm, as the npm package ships them."""
    files = {}
    for name in BROTLI_DECODER_FILES:
        path = BROTLI_DECODER_DIR / name
        if not path.exists():
            raise BuildError(path, "missing: run `npm ci` (or `make`)")
        files[name] = path.read_bytes()
    return files
