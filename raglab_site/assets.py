"""How dist/ names, checks and writes its files: content-hashed names, integrity digests, an atomic swap;
and the page configuration's entries for the scripts that load on first use."""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import tempfile
from pathlib import Path, PurePosixPath

from . import BuildError


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


# The panels whose scripts load on first use, by their data-panel name: each has NAME.js (the page's
# part, on panel-kit.js) and NAME-worker.js (the worker's, on worker-kit.js).
PANELS = ("corpus", "data")
# What a panel's script stands on besides panel-kit.js, loaded between the two: «¿Te fías de tus juicios?»'s
# writer, a part of «Tus datos».
PANEL_PARTS = {"data": ("agreement.js",)}
# The scripts no template names, only the page's configuration.
PAGE_CONFIG_ASSETS = (
    ("worker.js", "the page's Python worker (its boot)"),
    ("worker-router.js", "where the worker's messages go"),
    ("worker-kit.js", "what the panels' parts of the worker share"),
    ("data-worker.js", "the worker's «Tus datos» code"),
    ("corpus-worker.js", "the worker's «Tu corpus» code"),
    ("panel-kit.js", "what the panels' scripts share"),
    ("data.js", "the «Tus datos» panel's script"),
    ("agreement.js", "the «¿Te fías de tus juicios?» part of «Tus datos»"),
    ("corpus.js", "the «Tu corpus» panel's script"),
)


def script_entries(assets: dict, static: Path) -> dict:
    """The page configuration's entries for the scripts no template names (``assets``: name -> {url,
    integrity}): the worker; each panel's part of the worker and what they share, imported by the
    worker on the panel's first job; each panel's scripts in order (the kit first) with their digests,
    which boot.js injects on the panel's first use. BuildError names a missing one."""
    for name, what in PAGE_CONFIG_ASSETS:
        if name not in assets:
            raise BuildError(static / name, f"missing asset: {what}")
    return {
        "worker": assets["worker.js"]["url"],
        "workerRouter": assets["worker-router.js"]["url"],
        "workerKit": assets["worker-kit.js"]["url"],
        "panelWorkers": {name: assets[f"{name}-worker.js"]["url"] for name in PANELS},
        "panelScripts": {
            name: [{"url": assets[script]["url"], "integrity": assets[script]["integrity"]}
                   for script in ("panel-kit.js", *PANEL_PARTS.get(name, ()), f"{name}.js")]
            for name in PANELS
        },
    }
