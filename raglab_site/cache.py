"""The build cache under .cache/ (or $RAGLAB_CACHE): slow, deterministic results kept by content hash."""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path
from typing import Callable

from . import ROOT

CACHE = Path(os.environ.get("RAGLAB_CACHE", ROOT / ".cache"))


def store(path: Path, data: bytes) -> None:
    """Write a cache entry atomically: a build interrupted mid-write leaves no half file, and two
    builds at once (the test lanes) each write a partial file of their own."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    partial.write_bytes(data)
    os.replace(partial, path)


def cached_transform(data: bytes, kind: str, transform: Callable[[bytes], bytes]) -> bytes:
    """``transform(data)``, remembered by the content's hash (``transform`` must be deterministic)."""
    cached = CACHE / "compressed" / f"{hashlib.sha256(data).hexdigest()[:24]}.{kind}"
    if cached.exists():
        return cached.read_bytes()
    result = transform(data)
    store(cached, result)
    return result
