"""Reading the site's sources: YAML settings, the pages' front matter and Markdown, text files; every error
a :class:`BuildError` naming the file and, where there is one, the line. ``build.py`` reads with these."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

from . import BuildError
from .markdown_math import MathError, render_markdown


def read_yaml(path: Path, text: str, first_line: int = 1):
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = first_line + mark.line if mark else None
        raise BuildError(path, f"invalid YAML: {getattr(error, 'problem', None) or error}", line) from None


def read_config(path: Path, export: bool = False) -> dict:
    """config.yaml's settings; for ``build.py export``, with its ``export`` block's over them (the
    documentation site's eyebrow and related pages, which dist/ published alone does not have)."""
    config = read_yaml(path, read_text(path))
    if not isinstance(config, dict):
        raise BuildError(path, "expected a mapping of settings")
    for key in ("site_name", "locale", "sources", "related"):
        if key not in config:
            raise BuildError(path, f"missing setting '{key}'")
    overrides = config.pop("export", None) or {}
    if not isinstance(overrides, dict):
        raise BuildError(path, "'export' must be a mapping of settings")
    if export:
        config.update(overrides)
    config.setdefault("eyebrow", "")
    for warning in placeholder_urls(config):
        print(f"warning: {path.name}: {warning}", file=sys.stderr)
    return config


PLACEHOLDER_HOST = re.compile(r"^[a-z][a-z0-9+.-]*://(?:[^/?#@]*@)?(?:[^/?#:]*\.)?example(?:\.[a-z]+)?(?:[:/?#]|$)", re.I)


def placeholder_urls(config: dict) -> list[str]:
    """One warning per configured URL on a placeholder domain (example.com, raglab.example, …)."""
    urls = []
    for prefix, settings in (("", config), ("export.", config.get("export"))):
        related = settings.get("related") if isinstance(settings, dict) and isinstance(settings.get("related"), list) else []
        urls += [(f"{prefix}related[{i}].url", tool.get("url")) for i, tool in enumerate(related) if isinstance(tool, dict)]
    urls.append(("site_url", config.get("site_url")))
    return [
        f"{where} is a placeholder address ({url}): point it at the real page"
        for where, url in urls
        if isinstance(url, str) and PLACEHOLDER_HOST.match(url)
    ]


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BuildError(path, "file not found") from None
    except UnicodeDecodeError as error:
        raise BuildError(path, f"not UTF-8 text ({error.reason} at byte {error.start})") from None


PAGE_KEYS = ("title", "description", "keywords", "headline", "lead", "cards", "nav")


def read_page(path: Path) -> dict:
    """Split YAML front matter from the Markdown body and render the body to HTML."""
    text = read_text(path)
    match = re.match(r"---\n(.*?)\n---\n", text, re.S)
    if not match:
        raise BuildError(path, "expected YAML front matter between '---' lines at the top", 1)
    meta = read_yaml(path, match.group(1), first_line=2)
    if not isinstance(meta, dict):
        raise BuildError(path, "front matter must be a mapping of keys to values", 2)
    missing = [key for key in PAGE_KEYS if key not in meta]
    if missing:
        raise BuildError(path, f"front matter is missing: {', '.join(missing)}", 2)
    meta.setdefault("hide", [])
    try:
        meta["body"] = render_markdown(text[match.end():])
    except MathError as error:
        line = next((n for n, row in enumerate(text.splitlines(), 1) if error.latex in row), None)
        raise BuildError(path, str(error), line) from None
    return meta
