"""The Pyodide memory snapshot: how it is made, its format on the wire, and what the page needs to
restore it.

The build hands over a snapshot in which raglab_core is already imported (snapshot.mjs), so the
page's worker starts Python without its standard library or the wheel. On the way to dist/ the
snapshot's memory image is stored as an XOR against the memory pyodide.asm.wasm starts with
(``snapshot_delta``), without its pages of zeros (``zero_pages_left_out``), brotli-compressed; the
worker undoes each step (worker.js: ``undoXor``, ``placement``, ``decodeBrotli``) with the wasm
brotli decoder the page ships (raglab_site/runtime.py). :func:`snapshot_assets` is all build.py
sees: the file, and the ``snapshot`` entry of the page's configuration, whose fields worker.js reads.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

from raglab_core import words

from . import BuildError, wasm
from .assets import short_hash, subresource_integrity
from .cache import CACHE, cached_transform, load, store
from .runtime import PYODIDE_DIR, PYODIDE_FILES

SNAPSHOT_SCRIPT = Path(__file__).with_name("snapshot.mjs")
# The Cache Storage cache where worker.js keeps the decoded snapshot for repeat visits: sw.js's
# clean-up of older raglab caches must spare it, or a first visit's activation could delete it just
# after it was written. Both files take the name from here (the page's configuration, sw.js.j2).
KEPT_CACHE = "raglab-snapshot-decoded"


def snapshot_assets(wheel: bytes, module: bytes) -> tuple[dict[str, bytes], dict]:
    """The file the snapshot boot downloads, ``{dist/ path: bytes}``, and the page configuration's
    ``snapshot`` entry, for ``raglab_core``'s ``wheel`` and Pyodide's ``module`` (pyodide.asm.wasm).
    It ships brotli-compressed (a third smaller than gzip), decoded by the worker as it arrives."""
    snapshot, size, xor_bytes, layout = compress_snapshot(make_snapshot(wheel), module)
    # Brotli inside, but no ".br" name: some hosts (Apache's AddEncoding, S3 metadata) would then
    # label it Content-Encoding: br, and the browser would decode it before the worker could.
    path = f"assets/snapshot.{short_hash(snapshot)}.bin"
    entry = {
        "url": path,
        "integrity": subresource_integrity(snapshot, "sha256"),
        "size": size,
        # The memory image's first bytes are stored XORed with the memory the wasm starts with.
        "xorBytes": xor_bytes,
        # Its pages of zeros are left out: where the bytes that are there go.
        "layout": layout,
        # The status line while it downloads, worded here: the worker shows the last step reached.
        "progress": words.download_steps(len(snapshot)),
        "keptCache": KEPT_CACHE,
    }
    return {path: snapshot}, entry


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
    worker.js puts them back (its inverse in Python, for the tests: tests/support/snapshot_pages.py).
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


def make_snapshot(wheel: bytes) -> bytes:
    """The gzipped Pyodide memory snapshot with raglab_core imported (see snapshot.mjs).

    Making one takes seconds (Node boots Pyodide from the npm package), so it is cached
    (raglab_site/cache.py) by the hashes of everything it depends on: Pyodide's files, the wheel
    and the script itself. snapshot.mjs makes it reproducibly, so a cache miss gives the same bytes.
    """
    key = hashlib.sha256()
    for source in sorted(PYODIDE_FILES):
        key.update(source.encode() + hashlib.sha256((PYODIDE_DIR / source).read_bytes()).digest())
    key.update(hashlib.sha256(wheel).digest() + hashlib.sha256(SNAPSHOT_SCRIPT.read_bytes()).digest())
    cached = CACHE / "snapshots" / f"{key.hexdigest()[:24]}.bin.gz"
    hit = load(cached)
    if hit is not None:
        return hit
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
