"""The build cache: slow, deterministic results kept by content hash.

It lives in the user's cache folder (``$XDG_CACHE_HOME/raglab``, else ``~/.cache/raglab``) or in
``$RAGLAB_CACHE``, so that every clone and worktree of the project shares it, as uv and npm share
theirs: a fresh clone's first build then skips the work (about a minute of CPU: compressing Pyodide's
runtime, making the snapshot, computing the view table) when an earlier one did it with the same
inputs. Every key is the hash of everything the result depends on, so sharing cannot serve a stale
entry. Entries unused for ``KEEP_DAYS`` are deleted when a new one is stored beside them.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from pathlib import Path
from typing import Callable

KEEP_DAYS = 30


def default_folder(environ=os.environ) -> Path:
    """``$RAGLAB_CACHE``, else ``$XDG_CACHE_HOME/raglab``, else ``~/.cache/raglab``.

    >>> default_folder({"RAGLAB_CACHE": "/tmp/c", "XDG_CACHE_HOME": "/x"}).as_posix()
    '/tmp/c'
    >>> default_folder({"XDG_CACHE_HOME": "/x"}).as_posix()
    '/x/raglab'
    """
    if environ.get("RAGLAB_CACHE"):
        return Path(environ["RAGLAB_CACHE"])
    base = environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "raglab"


CACHE = default_folder()


def load(path: Path) -> bytes | None:
    """The entry's bytes, or None if there is none; a hit marks the entry as used (its mtime)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        os.utime(path)
    except OSError:  # a read-only cache still serves
        pass
    return data


def store(path: Path, data: bytes) -> None:
    """Write a cache entry atomically: a build interrupted mid-write leaves no half file, and two
    builds at once (the test lanes, two clones) each write a partial file of their own. Entries of
    the same folder unused for KEEP_DAYS are deleted."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    partial.write_bytes(data)
    os.replace(partial, path)
    oldest = time.time() - KEEP_DAYS * 86400
    for entry in path.parent.iterdir():
        try:
            if entry.stat().st_mtime < oldest:
                entry.unlink()
        except OSError:  # deleted by another build meanwhile
            pass


def cached_transform(data: bytes, kind: str, transform: Callable[[bytes], bytes]) -> bytes:
    """``transform(data)``, remembered by the content's hash (``transform`` must be deterministic)."""
    cached = CACHE / "compressed" / f"{hashlib.sha256(data).hexdigest()[:24]}.{kind}"
    hit = load(cached)
    if hit is not None:
        return hit
    result = transform(data)
    store(cached, result)
    return result
