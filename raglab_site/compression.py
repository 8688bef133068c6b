"""Precompressed copies: X.br and X.gz beside each compressible X, for hosts that serve them by
Accept-Encoding (nginx's gzip_static/brotli_static, Caddy's precompressed, the dev server)."""

from __future__ import annotations

import gzip
import hashlib
from concurrent.futures import Future, ThreadPoolExecutor

import brotli

from .cache import cached_transform

COMPRESSIBLE = (".wasm", ".js", ".css", ".html", ".svg", ".json")


# Brotli's quality for every copy, the runtime's wasm included: quality 11 makes it 12 % smaller
# than quality 9 but takes half a minute on it (docs/performance.md, «What was kept»), paid once
# per machine and Pyodide version (the build cache), in the background (compress_ahead) while the
# build makes the snapshot.
BROTLI_QUALITY = 11
SLOW_TO_COMPRESS = 1_000_000  # bytes: what compress_ahead starts early

_ahead: dict[str, Future] = {}
_compressor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="brotli")


def compress_ahead(files: dict[str, bytes]) -> None:
    """Start the brotli copies of ``files``' big compressible files in a background thread (the
    brotli module releases the GIL while it compresses); ``brotli_copy`` then waits for them."""
    for path, data in files.items():
        if compressible(path, data) and len(data) > SLOW_TO_COMPRESS:
            key = hashlib.sha256(data).hexdigest()
            if key not in _ahead:
                _ahead[key] = _compressor.submit(_cached_brotli, data)


def add_precompressed(files: dict[str, bytes]) -> None:
    """Add X.br and X.gz beside each compressible X, for hosts (and the dev server) that serve
    precompressed files by Accept-Encoding. Both are cached by content."""
    for path in sorted(files):
        data = files[path]
        if not compressible(path, data):
            continue
        files[path + ".br"] = brotli_copy(data)
        files[path + ".gz"] = gzip_copy(data)


def compressible(path: str, data: bytes) -> bool:
    return path.endswith(COMPRESSIBLE) and len(data) >= 1024


def brotli_copy(data: bytes) -> bytes:
    """``data`` brotli-compressed at BROTLI_QUALITY (its window brotli's default, 4 MB)."""
    ahead = _ahead.get(hashlib.sha256(data).hexdigest()) if len(data) > SLOW_TO_COMPRESS else None
    return ahead.result() if ahead else _cached_brotli(data)


def gzip_copy(data: bytes) -> bytes:
    """``data`` gzip-compressed at level 9, without a timestamp (reproducible)."""
    return cached_transform(data, "9.gz", lambda d: gzip.compress(d, compresslevel=9, mtime=0))


def _cached_brotli(data: bytes) -> bytes:
    return cached_transform(data, f"q{BROTLI_QUALITY}.br", lambda d: brotli.compress(d, quality=BROTLI_QUALITY))


def wire_size(path: str, data: bytes) -> int:
    """The bytes a browser downloads for ``path`` from a host that serves the brotli copies."""
    return len(brotli_copy(data)) if compressible(path, data) else len(data)


def is_precompressed_copy(path: str, files) -> bool:
    return path.endswith((".br", ".gz")) and path[:-3] in files


