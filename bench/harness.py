"""What every page benchmark shares: where the page is served from, the reference page beside it,
the browser, and the profiles it is loaded under (a phone's CPU and network).

* ``serve(dist, host)`` serves a built ``dist/`` as one of the two kinds of host (``HOSTS``): one
  that sends the precompressed copies (the dev server, as nginx's ``brotli_static`` and Caddy's
  ``precompressed`` do) and one that sends every file as it is (Python's ``http.server``, as
  ``python -m http.server`` does; an S3 bucket or a plain Apache behave alike). Both serve a
  temporary overlay that adds the reference page under ``/__plain/``: Pyodide booted the plain way
  on the main thread (``loadPyodide()`` + ``loadPackage(core wheel)`` + ``compute(default)``), from
  the same files.
* ``CHROMIUM_ARGS`` and ``find_chromium()`` come from ``tests/support/chromium.py``, their one home: the
  benchmarks launch the full browser, which is what readers run; the tests, its headless shell.
* ``PhoneCpu``: Chromium held to half a CPU, every process and thread of it (a cgroup).
* ``FOUR_G``, ``SLOW_NETWORK``: the networks, for the DevTools protocol's
  ``Network.emulateNetworkConditions``.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from raglab_site.devserver import make_plain_server, make_server  # noqa: E402
from raglab_site.runtime import PYODIDE_DIR, WASM  # noqa: E402
from tests.support.chromium import CHROMIUM_ARGS, find_chromium, find_test_chromium  # noqa: E402, F401

__all__ = ["ROOT", "CHROMIUM_ARGS", "find_chromium", "find_test_chromium", "lab_config", "HOSTS", "serve",
           "FOUR_G", "SLOW_NETWORK", "PhoneCpu", "DEVTOOLS_CPU_RATE"]

# --- serving ---------------------------------------------------------------------------------------

PLAIN_HTML = """<!doctype html><html lang="es"><head><meta charset="utf-8"><title>plain Pyodide boot</title>
<script type="module" src="plain.js"></script></head><body><p id="out">…</p></body></html>"""

PLAIN_JS = """
import { loadPyodide } from "../%(runtime)s";
const config = %(config)s;
const py = await loadPyodide({ indexURL: new URL("../%(pyodide)s", location.href).href });
await py.loadPackage(new URL("../" + config.wheel.url, location.href).href);
py.globals.set("scenario_json", JSON.stringify(config.scenario));
const text = py.runPython(`
import json, raglab_core
raglab_core.compute({"scenario": json.loads(scenario_json)})["outputs"]["precision"]["text"]
`);
document.getElementById("out").textContent = text;
performance.mark("raglab:ready");
document.documentElement.dataset.ready = "true";
"""


def lab_config(dist: Path) -> dict:
    """The page's configuration (the JSON in index.html's ``#lab-config``)."""
    html = (dist / "index.html").read_text("utf-8")
    return json.loads(html.split('id="lab-config">', 1)[1].split("</script>", 1)[0])


def add_precompressed_copies(path: Path) -> None:
    import gzip

    import brotli

    data = path.read_bytes()
    path.with_name(path.name + ".br").write_bytes(brotli.compress(data, quality=11))
    path.with_name(path.name + ".gz").write_bytes(gzip.compress(data, compresslevel=9, mtime=0))


def overlay(dist: Path) -> Path:
    """A temporary folder of links to ``dist``'s files (absolute: give an absolute ``dist``), plus
    the reference page under ``__plain/``; ``dist`` itself is untouched."""
    config = lab_config(dist)
    folder = Path(tempfile.mkdtemp(prefix="raglab-bench-"))
    for path in dist.rglob("*"):
        if path.is_file():
            target = folder / path.relative_to(dist)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(path, target)
    # The plain boot reads Pyodide's stock lock file, which the lab itself does not ship; with its
    # precompressed copies, as every other file (119 KB as is, 22 KB brotli: a CDN compresses it too).
    runtime = folder / config["pyodide"]
    os.symlink(PYODIDE_DIR / "pyodide-lock.json", runtime / "pyodide-lock.json")
    add_precompressed_copies(runtime / "pyodide-lock.json")
    # And the plain wasm, which the lab ships only as its brotli copy (the same bytes as the .br
    # beside it that a build without that copy shipped).
    if not (runtime / WASM).exists():
        os.symlink(PYODIDE_DIR / WASM, runtime / WASM)
        os.symlink(dist / config["wasm"]["url"], runtime / (WASM + ".br"))
    plain = folder / "__plain"
    plain.mkdir()
    (plain / "index.html").write_text(PLAIN_HTML, "utf-8")
    (plain / "plain.js").write_text(
        PLAIN_JS % {"pyodide": config["pyodide"], "runtime": config["runtime"],
                    "config": json.dumps({"wheel": config["wheel"], "scenario": config["scenario"]})},
        "utf-8",
    )
    return folder


# The two kinds of host, by the name the benchmarks report.
HOSTS = {"precompressed": make_server, "uncompressed": make_plain_server}


def serve(dist: Path, host: str = "precompressed"):
    """Serve ``dist`` and the reference page (``overlay``) as the ``host`` of HOSTS, on a free
    loopback port, in a thread. Returns ``(server, base URL)``; ``server.shutdown()`` stops it."""
    httpd = HOSTS[host](overlay(dist.resolve()), 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


# --- networks ---------------------------------------------------------------------------------------
#
# Every throttled load is cold in a fresh context, whose HTTP cache starts empty; the cache is not
# disabled (Network.setCacheDisabled): with it off, the worker's requests for the runtime could not
# join the downloads boot.js preloads, and the page would download them twice.

SLOW_NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}
FOUR_G = {"offline": False, "latency": 60, "downloadThroughput": 9e6 / 8, "uploadThroughput": 9e6 / 8}

# --- a phone's CPU ----------------------------------------------------------------------------------
#
# A phone's CPU is slower on every thread, the worker's included. DevTools' Emulation.setCPUThrottlingRate
# slows a page's main thread only (on a worker target it answers "Operation is only supported for pages,
# not workers"): it would slow the plain boot, which runs on the main thread, and spare the lab's worker.
# So Chromium runs in a cgroup (v1 `cpu` controller) held to half a CPU (cfs_quota_us 50000 of a
# cfs_period_us 100000): a small wrapper joins the group, then execs Chromium, whose every process and
# thread inherits it. Where no group can be made (not root, no cgroup v1), the DevTools throttle stands
# in, and the report says it slows the main thread only.

CGROUP_CPU = Path("/sys/fs/cgroup/cpu")
PHONE_QUOTA_US, PHONE_PERIOD_US = 50_000, 100_000
DEVTOOLS_CPU_RATE = 4  # the fallback's slowdown of the main thread


class PhoneCpu:
    """A Chromium wrapper in a cgroup held to half a CPU (``path``), or ``path = None`` and a reason."""

    def __init__(self, chromium: str):
        self.group = CGROUP_CPU / f"raglab-bench-phone-{os.getpid()}"
        self.path, self.reason = None, None
        try:
            self.group.mkdir()
            (self.group / "cpu.cfs_period_us").write_text(str(PHONE_PERIOD_US))
            (self.group / "cpu.cfs_quota_us").write_text(str(PHONE_QUOTA_US))
        except OSError as error:
            self.reason = f"no cgroup could be made ({error.strerror}: {self.group})"
            return
        self.dir = Path(tempfile.mkdtemp(prefix="raglab-phone-"))
        wrapper = self.dir / "chromium-half-cpu"
        wrapper.write_text(f"#!/bin/sh\n# joins the cgroup before exec, so that every Chromium process is in it\n"
                           f"echo $$ > '{self.group}/cgroup.procs' || exit 1\nexec '{chromium}' \"$@\"\n")
        wrapper.chmod(0o755)
        self.path = str(wrapper)

    def close(self) -> None:
        """Remove the group once the browser's processes have left it."""
        if self.path is None:
            return
        for _ in range(100):
            try:
                self.group.rmdir()
                break
            except OSError:
                time.sleep(0.1)
        shutil.rmtree(self.dir, ignore_errors=True)
