"""The development server behind ``build.py serve``, the browser tests and the benchmarks, and a
host that does not compress (``make_plain_server``: ``python -m http.server``'s), beside it.

It behaves like a static host with the page's ``_headers`` applied (Netlify, Cloudflare Pages):
it types files by extension from a classic table (no ``.mjs``, as stock nginx), sends the headers
that ``dist/_headers`` lists, and serves the precompressed ``X.br``/``X.gz`` copies by
``Accept-Encoding``, q-values included, as nginx's ``gzip_static``/``brotli_static`` do.
"""

from __future__ import annotations

import contextlib
import functools
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from . import ROOT
from . import headers as site_headers

MIME_TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".css": "text/css",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".txt": "text/plain",
    ".whl": "application/zip",
    ".zip": "application/zip",
    "": "application/octet-stream",
}
PRECOMPRESSED = (("br", ".br"), ("gzip", ".gz"))  # in order of preference at equal q


def chosen_encoding(accept_encoding: str) -> str | None:
    """The precompressed encoding to send for an ``Accept-Encoding`` header (RFC 9110 §12.5.3):
    the acceptable one (q > 0) with the highest q, brotli first at equal q; ``*`` covers the rest.

    >>> chosen_encoding("gzip, deflate, br")
    'br'
    >>> chosen_encoding("br;q=0, gzip")
    'gzip'
    >>> chosen_encoding("gzip;q=0.5, br;q=0.8")
    'br'
    >>> chosen_encoding("identity") is None
    True
    >>> chosen_encoding("*;q=0.1, br;q=0")
    'gzip'
    """
    weights = {}
    for part in accept_encoding.split(","):
        name, *params = [piece.strip() for piece in part.split(";")]
        weight = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if name:
            weights[name.lower()] = weight
    best, best_weight = None, 0.0
    for encoding, _suffix in PRECOMPRESSED:
        weight = weights.get(encoding, weights.get("*", 0.0))
        if weight > best_weight:
            best, best_weight = encoding, weight
    return best


def make_server(directory: Path, port: int = 0) -> ThreadingHTTPServer:
    """A threaded HTTP server for ``directory`` on 127.0.0.1 (port 0: any free port), not yet started."""

    class Handler(SimpleHTTPRequestHandler):
        def guess_type(self, path):
            # Only the classic table, never the OS's: a stock server knows no .mjs either.
            return MIME_TYPES.get(Path(path).suffix.lower(), MIME_TYPES[""])

        def end_headers(self):
            rules_file = Path(self.directory) / "_headers"
            rules = site_headers.parse(rules_file.read_text("utf-8")) if rules_file.is_file() else []
            sent = site_headers.headers_for(rules, urlsplit(self.path).path)
            for name, value in sent:
                self.send_header(name, value)
            if not any(name.lower() == "cache-control" for name, _ in sent):
                self.send_header("Cache-Control", site_headers.REVALIDATE)
            if not any(name.lower() == "x-content-type-options" for name, _ in sent):
                self.send_header("X-Content-Type-Options", "nosniff")
            super().end_headers()

        def send_head(self):
            """Serve X.br or X.gz for X (or a folder's index.html) when the client accepts it."""
            path = Path(self.translate_path(self.path))
            if path.is_dir() and self.path.split("?", 1)[0].endswith("/"):
                path = path / "index.html"
            encoding = chosen_encoding(self.headers.get("Accept-Encoding", ""))
            suffix = dict(PRECOMPRESSED).get(encoding)
            copy = path.with_name(path.name + suffix) if suffix else None
            if copy is None or not path.is_file() or not copy.is_file():
                return super().send_head()
            source = open(copy, "rb")
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", encoding)
            self.send_header("Content-Length", str(copy.stat().st_size))
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return source

        def copyfile(self, source, outputfile):
            # Zero-copy sendfile: several times faster than the default 64 KB copy loop, which
            # otherwise dominates loading the multi-megabyte runtime from this server.
            outputfile.flush()
            self.connection.sendfile(source)

        def log_message(self, format, *args):  # quiet: one line per rebuild is enough
            pass

    return ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=str(directory)))


class AsItIs(SimpleHTTPRequestHandler):
    """``python -m http.server``'s handler, quiet: every file as it is (no precompressed copy, no
    Content-Encoding, no _headers), typed by Python's own table, as many plain hosts do."""

    def log_message(self, format, *args):
        pass


def make_plain_server(directory: Path, port: int = 0) -> ThreadingHTTPServer:
    """A host that does not compress, as ``python -m http.server`` is, for ``directory`` on 127.0.0.1."""
    return ThreadingHTTPServer(("127.0.0.1", port), functools.partial(AsItIs, directory=str(directory)))


@contextlib.contextmanager
def serving(directory: Path, port: int = 0, precompressed: bool = True):
    """Serve ``directory`` in a background thread, as this dev server does (or, not ``precompressed``,
    as ``python -m http.server`` does); yields the base URL (``http://127.0.0.1:PORT/``)."""
    with running((make_server if precompressed else make_plain_server)(directory, port)) as url:
        yield url


@contextlib.contextmanager
def running(httpd: ThreadingHTTPServer):
    """Run ``httpd`` (``make_server``'s, perhaps with its handler changed) in a background thread;
    yields its base URL and shuts it down after."""
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


def serve(out: Path, port: int, sources: list[Path]) -> None:
    """Serve ``out`` on 127.0.0.1:``port`` and rebuild it when anything under ``sources`` changes."""
    server = make_server(out, port)
    threading.Thread(target=watch_and_rebuild, args=(out, sources), daemon=True).start()
    print(f"serving {out} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl+C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def watch_and_rebuild(out: Path, sources: list[Path]) -> None:
    """Rebuild in a fresh process, so edits to raglab_core reach the server-side render too."""
    import watchfiles

    for changes in watchfiles.watch(*sources):
        names = ", ".join(sorted({Path(path).name for _, path in changes}))
        result = subprocess.run([sys.executable, str(ROOT / "build.py"), "build", "--out", str(out)],
                                capture_output=True, text=True)
        if result.returncode:
            print(f"rebuild failed ({names}): {result.stderr.strip()}; still serving the last good build", file=sys.stderr)
        else:
            print(f"rebuilt after changes in {names}")
