"""The browser runtime: Pyodide's files as the page loads them, the core's wheel, the memory snapshot.

Pyodide's npm package ships ES modules as ``.mjs``, a type that stock nginx (and other servers'
default tables) do not know: they serve it as ``application/octet-stream``, which browsers refuse
for module scripts. So the page ships them under ``.js`` names, which every server types as
JavaScript, and the one place that names the runtime module is patched to match. Each patch is
checked: when a Pyodide upgrade changes the expected text, the build fails instead of shipping a
page that cannot boot.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import ROOT, BuildError, wasm
from .cache import CACHE, cached_transform, store

PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
# The snapshot ships brotli-compressed (a third smaller than gzip), and browsers' DecompressionStream
# knows no brotli: the worker decodes it with this wasm decoder (about 80 KB compressed), streaming.
BROTLI_DECODER_DIR = ROOT / "node_modules" / "brotli-dec-wasm" / "pkg"
BROTLI_DECODER_FILES = ("brotli_dec_wasm.js", "brotli_dec_wasm_bg.wasm")
SNAPSHOT_SCRIPT = Path(__file__).with_name("snapshot.mjs")
# Fixed zip timestamps make the wheel, and so dist/, byte-identical across builds.
SOURCE_DATE_EPOCH = "315532800"
# A snapshot-booted page needs no standard library archive (every module it uses is in the
# snapshot's heap), but Pyodide fetches one anyway: give it an empty zip (22 bytes).
EMPTY_ZIP = b"PK\x05\x06" + bytes(18)
# The runtime module's name in dist/, the one worker.js imports.
RUNTIME_MODULE = "pyodide.module.js"

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
    "pyodide.asm.wasm": ("pyodide.asm.wasm", ()),
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


def read_brotli_decoder() -> dict[str, bytes]:
    """The brotli decoder's ES module and wasm, as the npm package ships them."""
    files = {}
    for name in BROTLI_DECODER_FILES:
        path = BROTLI_DECODER_DIR / name
        if not path.exists():
            raise BuildError(path, "missing: run `npm ci` (or `make`)")
        files[name] = path.read_bytes()
    return files


def snapshot_delta(snapshot: bytes, base: bytes) -> bytes:
    """The snapshot with the first ``len(base)`` bytes of its memory image XORed with ``base``.

    Pyodide's snapshot is a header (its first 16 bytes: magic, the memory image's offset, the JSON
    state's length, a build id), that JSON state, then the memory image from address 0 (the
    ``API.makeSnapshot`` / ``API.restoreSnapshot`` pair in pyodide.asm.js). XOR is its own inverse:
    the same call with the same ``base`` gives the snapshot back.
    """
    offset = image_offset(snapshot)
    return snapshot[:offset] + wasm.xor(snapshot[offset:], base)


def image_offset(snapshot: bytes) -> int:
    """Where a Pyodide snapshot's memory image starts: its header's second 32-bit field."""
    return int.from_bytes(snapshot[4:8], "little")


PAGE = 65536  # a WebAssembly page


def zero_pages_left_out(snapshot: bytes) -> tuple[bytes, dict]:
    """The snapshot without the 64 KiB pages of its memory image that are all zeros, and where the
    rest goes: ``{"head": bytes before the image, "page": 65536, "runs": [[first page, count], …]}``.

    About 60 % of the heap is such pages (301 of 480 when measured): they cost almost nothing
    compressed, but decoding writes every byte, and the worker's buffer starts zeroed anyway.
    Decoding the rest took 55 ms in Node against 155 ms for the whole (brotli-dec-wasm, 5 runs).
    ``pages_put_back`` is the inverse.
    """
    head = image_offset(snapshot)
    image = memoryview(snapshot)[head:]
    zeros = bytes(PAGE)
    runs: list[list[int]] = []
    kept = [snapshot[:head]]
    for first in range(0, len(image), PAGE):
        page = image[first:first + PAGE]
        if page == zeros[:len(page)]:
            continue
        index = first // PAGE
        if runs and runs[-1][0] + runs[-1][1] == index:
            runs[-1][1] += 1
        else:
            runs.append([index, 1])
        kept.append(bytes(page))
    return b"".join(kept), {"head": head, "page": PAGE, "runs": runs}


def pages_put_back(packed: bytes, layout: dict, size: int) -> bytes:
    """The whole snapshot (``size`` bytes) from ``zero_pages_left_out``'s output, as worker.js
    rebuilds it: the head, then each run of pages at its place, zeros elsewhere."""
    out = bytearray(size)
    head, page = layout["head"], layout["page"]
    out[:head] = packed[:head]
    at = head
    for first, count in layout["runs"]:
        start = head + first * page
        length = min(count * page, size - start)
        out[start:start + length] = packed[at:at + length]
        at += length
    if at != len(packed):
        raise ValueError(f"{len(packed) - at} bytes beyond the layout")
    return bytes(out)


def compress_snapshot(gzipped: bytes, module: bytes) -> tuple[bytes, int, int, dict]:
    """The snapshot as the page downloads it, its size decoded, how many bytes of its memory image
    are stored as an XOR against the memory ``module`` (pyodide.asm.wasm) starts with, and where
    its bytes go (``zero_pages_left_out``).

    About 3.7 of the first 3.8 MB of the heap are the wasm's own static data, unchanged: as an XOR
    they become zeros (see raglab_site/wasm.py). Pages of zeros are left out. Then brotli (quality
    11, 16 MB window), which takes about 40 s on the heap, so the result is cached by content.
    Measured on one snapshot: gzip -9 5.32 MB, brotli q9 4.23 MB, q11 with a 16 MB window 3.60 MB;
    as an XOR against the wasm's data, q9 2.97 MB.
    """
    import gzip

    import brotli

    base = wasm.initial_memory(module)
    raw = gzip.decompress(gzipped)
    packed, layout = zero_pages_left_out(snapshot_delta(raw, base))
    kind = f"snapshot-xor{hashlib.sha256(base).hexdigest()[:12]}-pages-q11w24.br"
    compressed = cached_transform(gzipped, kind, lambda _: brotli.compress(packed, quality=11, lgwin=24))
    return compressed, len(raw), len(base), layout


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


def make_snapshot(wheel: bytes) -> bytes:
    """The gzipped Pyodide memory snapshot with raglab_core imported (see snapshot.mjs).

    Making one takes seconds (Node boots Pyodide from the npm package), so it is cached under
    .cache/ by the hashes of everything it depends on: Pyodide's files, the wheel and the script
    itself. snapshot.mjs makes it reproducibly, so a cache miss gives the same bytes.
    """
    key = hashlib.sha256()
    for source in sorted(PYODIDE_FILES):
        key.update(source.encode() + hashlib.sha256((PYODIDE_DIR / source).read_bytes()).digest())
    key.update(hashlib.sha256(wheel).digest() + hashlib.sha256(SNAPSHOT_SCRIPT.read_bytes()).digest())
    cached = CACHE / "snapshots" / f"{key.hexdigest()[:24]}.bin.gz"
    if cached.exists():
        return cached.read_bytes()
    node = shutil.which("node")
    if not node:
        raise BuildError(SNAPSHOT_SCRIPT, "Node.js (>= 20) is needed to make the Pyodide snapshot: install it, then run `make`")
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
