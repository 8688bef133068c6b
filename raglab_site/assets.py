"""How dist/ names, checks and writes its files: content-hashed names, integrity digests, an atomic swap."""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import tempfile
from pathlib import Path, PurePosixPath


def short_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def subresource_integrity(data: bytes, algorithm: str = "sha384") -> str:
    """An ``integrity`` value (https://www.w3.org/TR/SRI/): the algorithm, a dash, the base64 digest."""
    return f"{algorithm}-" + base64.b64encode(hashlib.new(algorithm, data).digest()).decode()


def hashed_name(name: str, data: bytes) -> str:
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}.{short_hash(data)}.{suffix}" if dot else f"{name}.{short_hash(data)}"


def read_static(directory: Path) -> dict[str, bytes]:
    return {
        path.relative_to(directory).as_posix(): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


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
