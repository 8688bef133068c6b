"""Real static servers for the publishing tests: find them, or say how to get them.

tests/support/system.py checks for them with the other programs the tests need.
"""

import shutil
import socket
import time
from pathlib import Path

BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")
STOCK_MIME_TYPES = Path("/etc/nginx/mime.types")

HOW_TO_GET_NGINX = (
    "No nginx (with its stock mime.types and the brotli_static module) for the publishing tests. "
    "Install Debian's: 'sudo apt-get install nginx libnginx-mod-http-brotli-static'."
)


HOW_TO_GET_CADDY = "No caddy for the publishing tests. Install Debian's: 'sudo apt-get install caddy'."


def find_caddy() -> str | None:
    return shutil.which("caddy")


def find_nginx() -> str | None:
    path = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).is_file()), None)
    if path and STOCK_MIME_TYPES.is_file() and BROTLI_MODULE.is_file():
        return path
    return None


def nginx_conf(tmp, servers: str, before_events: str = "", http: str = "") -> str:
    """An nginx.conf for a test: in the foreground, one process, writing only under ``tmp``; ``before_events``
    (say, a ``load_module`` line), ``http`` (more directives of the http block) and ``servers`` (its server
    blocks) are the caller's."""
    return f"""
daemon off;
master_process off;
worker_processes 1;
error_log {tmp}/error.log;
pid {tmp}/nginx.pid;
{before_events}
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
{http}    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
{servers}
}}
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(process, port):
    deadline = time.monotonic() + 15
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server did not start: {process.stderr.read()}") from None
            time.sleep(0.05)
