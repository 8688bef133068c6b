"""Response headers for the published page, in the ``_headers`` format of Netlify and Cloudflare Pages.

One list, written by the build to ``dist/_headers`` and read back by the development server, which
applies it as those hosts do: every rule whose path pattern matches adds its headers. The recipes of
docs/publishing.md for other servers (nginx, Caddy, Apache) set the same headers.
https://docs.netlify.com/routing/headers/ · https://developers.cloudflare.com/pages/configuration/headers/
"""

from __future__ import annotations

import re

CSP_TEMPLATE = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{scripts}; style-src 'self'{styles}; "
    "img-src 'self' data:; connect-src 'self'; worker-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)


def csp(inline_scripts: list[str] = (), inline_styles: list[str] = ()) -> str:
    """The Content-Security-Policy: scripts and styles from the page's own origin, plus each inline
    script and stylesheet allowed by the SHA-256 of its exact text (CSP Level 3 hash-source;
    'unsafe-inline' never, so no style="" attribute either).
    https://www.w3.org/TR/CSP3/#grammardef-hash-source

    >>> csp([]) == CSP_TEMPLATE.format(scripts="", styles="")
    True
    >>> empty = "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"
    >>> f"'wasm-unsafe-eval' {empty}; style-src 'self';" in csp([""])
    True
    >>> f"style-src 'self' {empty};" in csp([], [""])
    True
    """
    import base64
    import hashlib

    def hashes(texts: list[str]) -> str:
        return "".join(f" 'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'" for text in texts)

    return CSP_TEMPLATE.format(scripts=hashes(inline_scripts), styles=hashes(inline_styles))


# Content-addressed folders: any change to a file there changes its path, so it never goes stale.
LONG_CACHED = ("assets/", "pyodide/")
CACHE_FOREVER = "public, max-age=31536000, immutable"
# Everything else (the page, sw.js, the sample data) is revalidated on every use.
REVALIDATE = "no-cache"

Rule = tuple[str, list[tuple[str, str]]]


# Only a page of the lab's own origin may frame it: a documentation site that holds it
# (`build.py export`) can, a foreign page cannot (clickjacking). A header only: in a <meta> policy
# browsers ignore frame-ancestors, and say so on the console.
FRAMING = "frame-ancestors 'self'"


def site_rules(policy: str) -> list[Rule]:
    """The rules for ``_headers``: security headers everywhere (``policy`` is the CSP, to which the
    header adds :data:`FRAMING`), long caching where paths are hashed."""
    rules: list[Rule] = [("/*", [
        ("Content-Security-Policy", f"{policy}; {FRAMING}"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
    ])]
    rules += [(f"/{folder}*", [("Cache-Control", CACHE_FOREVER)]) for folder in LONG_CACHED]
    return rules


def parse(text: str) -> list[Rule]:
    """The rules of a ``_headers`` file: a path pattern at the start of a line, then indented
    ``Name: value`` lines; ``#`` starts a comment line.

    >>> parse("# c\\n/*\\n  X-A: 1\\n/a/*\\n  X-B: two: 2\\n")
    [('/*', [('X-A', '1')]), ('/a/*', [('X-B', 'two: 2')])]
    """
    rules: list[Rule] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            rules.append((line.strip(), []))
        elif rules and ":" in line:
            name, value = line.split(":", 1)
            rules[-1][1].append((name.strip(), value.strip()))
    return rules


def headers_for(rules: list[Rule], path: str) -> list[tuple[str, str]]:
    """The headers for a request path (no query), as the hosts apply them: every matching rule,
    in order, where ``*`` matches any run of characters.

    >>> rules = [("/*", [("X-A", "1")]), ("/assets/*", [("Cache-Control", "immutable")])]
    >>> headers_for(rules, "/assets/a.js")
    [('X-A', '1'), ('Cache-Control', 'immutable')]
    >>> headers_for(rules, "/")
    [('X-A', '1')]
    """
    found = []
    for pattern, headers in rules:
        if re.fullmatch(".*".join(map(re.escape, pattern.split("*"))), path):
            found.extend(headers)
    return found
