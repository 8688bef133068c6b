"""Jinja2 for the site: strict (an unknown variable is an error), HTML-escaped only for HTML.

Rendering errors become :class:`BuildError` naming the template file and line.
"""

from __future__ import annotations

import re
import traceback
from pathlib import Path

import jinja2

from . import BuildError


class MissingAsset(LookupError):
    """A template named a static file that site_src/static/ does not have."""


def template_environment(directory: Path) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(directory),
        undefined=jinja2.StrictUndefined,
        # HTML escaping for HTML templates only: in _headers or sw.js an escaped quote is a bug.
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2"), default=False),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def template_line(directory: Path, error: BaseException) -> tuple[Path, int | None]:
    """The template file and line a rendering error came from (Jinja keeps them in the traceback)."""
    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        if frame.filename.startswith(str(directory)):
            return Path(frame.filename), frame.lineno
    return directory, None


def render(env: jinja2.Environment, name: str, context: dict) -> str:
    directory = Path(env.loader.searchpath[0])
    try:
        return env.get_template(name).render(context)
    except jinja2.TemplateSyntaxError as error:
        raise BuildError(error.filename or directory / name, f"template syntax: {error.message}", error.lineno) from None
    except jinja2.UndefinedError as error:
        path, line = template_line(directory, error)
        raise BuildError(path, f"unknown template variable: {error.message}", line) from None
    except MissingAsset as error:
        path, line = template_line(directory, error)
        raise BuildError(path, f"missing asset: {error.args[0]} is not in site_src/static/", line) from None


# What HTML autoescaping writes (markupsafe: & < > " '): in a file that is not HTML, always a bug.
HTML_ENTITY = re.compile(rb"&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);")
NOT_TEXT = (".br", ".gz", ".wasm", ".zip", ".whl", ".bin", ".png", ".ico")


def check_no_html_entities(files: dict[str, bytes], templates: Path) -> None:
    """Fail the build when a file other than HTML holds an HTML entity (an escaped template value)."""
    for path, data in sorted(files.items()):
        if path.endswith((".html", *NOT_TEXT)):
            continue
        found = HTML_ENTITY.search(data)
        if found:
            line = data.count(b"\n", 0, found.start()) + 1
            raise BuildError(templates, f"dist/{path}:{line} holds the HTML entity {found.group().decode()}: "
                                                "only HTML templates may be HTML-escaped")


def unclosed_css_block(text: str) -> int | None:
    """The line of the first `{` in a stylesheet that no `}` closes (or of a `}` that closes
    nothing), or None when every block closes. Comments and quoted strings are skipped. A block
    left open makes every later rule part of it: the browser drops them without a word."""
    opened: list[int] = []
    for match in re.finditer(r"/\*.*?\*/|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|[{}]", text, re.S):
        token = match.group()
        line = text.count("\n", 0, match.start()) + 1
        if token == "{":
            opened.append(line)
        elif token == "}":
            if not opened:
                return line
            opened.pop()
    return opened[0] if opened else None


# Elements whose text keeps its whitespace: preformatted, typed into, or hashed into the CSP.
KEEP_WHITESPACE = re.compile(r"(<(pre|textarea|script|style)\b.*?</\2\s*>)", re.S | re.I)


def without_indentation(html: str) -> str:
    """``html`` with each line's leading spaces and tabs taken out (11 kB of the page, which a host
    that does not compress sends as they are), except inside ``pre``, ``textarea``, ``script`` and
    ``style``. Outside them, a newline followed by spaces and a bare newline render the same.

    >>> without_indentation("<p>\\n    a\\n  <b>b</b></p>\\n  <pre>\\n  x</pre>")
    '<p>\\na\\n<b>b</b></p>\\n<pre>\\n  x</pre>'
    """
    parts = KEEP_WHITESPACE.split(html)
    # split() with two groups gives [text, element, tag name, text, element, tag name, …]
    out = []
    for index, part in enumerate(parts):
        kind = index % 3
        if kind == 0:
            out.append(re.sub(r"\n[ \t]+", "\n", part))
        elif kind == 1:
            out.append(part)
    return "".join(out)
