"""The system programs the tests need, found or explained: Chromium, Firefox, nginx, Caddy.

    python tests/support/system.py          prints each program's path, or says how to get the missing ones (exit 1)
    python tests/support/system.py --apt    prints the Debian packages that would provide the missing ones

The Makefile installs those packages with apt-get when it runs as root; otherwise `make test`
stops with the explanation. The tests never skip for a missing program: they fail saying the same.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run as a script, or imported by pytest

from chromium import HOW_TO_GET_ONE as HOW_TO_GET_CHROMIUM, find_test_chromium  # noqa: E402
from firefox import HOW_TO_GET_ONE as HOW_TO_GET_FIREFOX, find_firefox  # noqa: E402
from servers import HOW_TO_GET_CADDY, HOW_TO_GET_NGINX, find_caddy, find_nginx  # noqa: E402

# (name, finder, Debian packages, how to get it)
PROGRAMS = [
    ("Chromium headless shell", find_test_chromium, ["chromium-headless-shell"], HOW_TO_GET_CHROMIUM),
    ("Firefox", find_firefox, ["firefox-esr"], HOW_TO_GET_FIREFOX),
    ("nginx", find_nginx, ["nginx", "libnginx-mod-http-brotli-static"], HOW_TO_GET_NGINX),
    ("Caddy", find_caddy, ["caddy"], HOW_TO_GET_CADDY),
]

if __name__ == "__main__":
    missing = [(name, packages, how) for name, find, packages, how in PROGRAMS if not find()]
    if "--apt" in sys.argv[1:]:
        print(" ".join(package for _, packages, _ in missing for package in packages))
    elif missing:
        sys.exit("\n".join(how for _, _, how in missing))
    else:
        for name, find, _, _ in PROGRAMS:
            print(f"{name}: {find()}")
