"""``python build.py export DIR``: the lab as a folder to copy into a Material for MkDocs or
Zensical site's ``docs/`` (DESIGN §4.11; docs/publishing.md, «Inside a documentation site»).

``DIR/index.md`` is a page of the host site: the content's title, description and keywords in its
front matter, its Spanish introduction (``intro``: what the site's search indexes), its sentence that
links to the lab's own page (``own_page``), and the lab in an iframe. Every word of it comes from the
content's front matter (site_src/content/index.md); this module writes none.
``DIR/app/`` is the build, what ``build.py`` writes to ``dist/`` but with config.yaml's ``export``
settings (the site's eyebrow and related pages, which ``dist/`` published alone lacks).

Why files and an iframe. Zensical reads ``mkdocs.yml`` but ignores the plugins it does not
reimplement and has no hooks: files in ``docs_dir`` are what works on both generators, and the
folder needs no plugin and no Markdown extension (an iframe is raw HTML that Python-Markdown passes
through). Framed, the lab keeps its own CSP, worker, snapshot and service worker (whose scope is
``app/``); the host's instant navigation cannot run its scripts twice or leave its worker behind,
since removing the iframe ends its document and so its worker; and neither page's styles reach the
other's. The lab fits the frame's height to its own and, when asked, follows the host's dark
scheme, itself (site_src/inline/frame.js): the host runs no script of ours.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Callable

import yaml
from markupsafe import escape

from . import BuildError
from .assets import write_atomically

# What the host's page hides: the original page's own front matter, so the lab gets the width.
HIDE = ["navigation", "toc", "footer"]
# The frame's height before the lab sets it (frame.js), and where it cannot (its scripts blocked):
# the lab's height in Material's and in Zensical's content column in a 1280 px window, 14,612 px in
# both (bench/docsite_screenshots.py prints it), rounded up. Too short, the frame would scroll; too
# tall, the page would end in blank space.
DEFAULT_HEIGHT = 14650
# Python-Markdown's and so MkDocs' and Zensical's page suffixes: such a file inside app/ would be
# rendered as a page of the site instead of being served as it is.
PAGE_SUFFIXES = (".md", ".markdown", ".mdown", ".mkdn", ".mkd")
# What marks a folder as an earlier export, which a new one may replace.
MARK = "<!-- Written by raglab's `build.py export`:"
# The front matter's keys export needs, beyond those build.py's read_page requires.
TEXTS = ("title", "description", "keywords", "intro", "own_page")
# `own_page`'s link: its words between [ ] (not followed by "(", which would be a Markdown link).
LINK = re.compile(r"\[([^\[\]]+)\](?!\()")


def app_base(base: str | None) -> str:
    """The iframe's ``src`` folder: ``app/`` beside the page, or under ``base``, the URL path where
    the site publishes DIR (for a host whose pages are not served from their own folder).

    >>> app_base(None), app_base("/docs/laboratorio"), app_base("/lab/")
    ('app/', '/docs/laboratorio/app/', '/lab/app/')
    """
    if base is None:
        return "app/"
    # Not "//host/…": that is another origin, which the lab's frame-ancestors 'self' refuses.
    if not base.startswith("/") or base.startswith("//") or re.search(r"[\s\"'<>?#\\]", base):
        raise ValueError(f"--base must be an absolute URL path such as /docs/laboratorio/, not {base!r}")
    return base.rstrip("/") + "/app/"


def page_markdown(page: dict, base: str | None = None, palette_sync: bool = True) -> str:
    """``DIR/index.md``: front matter, the introduction, a link to the lab's own page, the iframe."""
    src = app_base(base)
    front = yaml.safe_dump(
        {"title": page["title"], "description": page["description"], "keywords": page["keywords"], "hide": HIDE},
        allow_unicode=True, sort_keys=False, width=10_000, default_flow_style=None,
    )
    # data-raglab marks the frame that frame.js may size; data-raglab-palette="host", one whose
    # host's scheme it follows.
    palette = ' data-raglab-palette="host"' if palette_sync else ""
    frame = (f'<iframe data-raglab{palette} src="{escape(src)}" title="{escape(page["title"])}" '
             f'width="100%" height="{DEFAULT_HEIGHT}" style="display: block; border: 0"></iframe>')
    return (
        f"---\n{front}---\n\n"
        f"{MARK} run it again instead of editing. -->\n\n"
        f"{page['intro'].strip()}\n\n"
        # Its own page holds the state in its URL (the frame's URL is not the reader's).
        f"{own_page_link(page['own_page'], src)}\n\n"
        f"{frame}\n"
    )


def own_page_link(sentence: str, src: str) -> str:
    """The content's ``own_page`` sentence, its words between [ ] made a link to the lab at ``src``.

    >>> own_page_link("[Open the lab on its own page]: its address keeps the state.", "/lab/app/")
    '<a href="/lab/app/">Open the lab on its own page</a>: its address keeps the state.'
    """
    return LINK.sub(lambda match: f'<a href="{escape(src)}">{escape(match.group(1))}</a>', sentence.strip(), count=1)


def export_files(site: dict[str, bytes], page: dict, base: str | None = None, palette_sync: bool = True) -> dict[str, bytes]:
    """What DIR will hold, as {relative path: bytes}: ``index.md`` and the build ``site`` under ``app/``."""
    pages = sorted(path for path in site if path.lower().endswith(PAGE_SUFFIXES))
    if pages:  # the build would be wrong inside a documentation site: say so, do not rename here
        raise ValueError(f"the build holds {pages[0]}, which a documentation site would render as a page")
    files = {"index.md": page_markdown(page, base, palette_sync).encode("utf-8")}
    files.update((f"app/{path}", data) for path, data in site.items())
    return files


def check_replaceable(out: Path) -> None:
    """Refuse to replace a folder that is neither empty nor an earlier export (``docs/`` by mistake)."""
    if not out.exists():
        return
    if not out.is_dir():
        raise ValueError(f"{out} exists and is not a folder")
    index = out / "index.md"
    earlier = index.is_file() and MARK in index.read_text("utf-8", errors="replace")
    if any(out.iterdir()) and not earlier:
        raise ValueError(f"{out} is not empty and holds no earlier export: choose a new or empty folder")


def read_export_page(read_page: Callable[[Path], dict], content: Path) -> dict:
    """The content's front matter (build.py's ``read_page``), with the text export writes above the lab."""
    page = read_page(content)
    for key in TEXTS:
        if not isinstance(page.get(key), str) or not page[key].strip():
            raise BuildError(content, f"front matter is missing: {key} (a text: build.py export writes it into index.md)", 2)
    if len(LINK.findall(page["own_page"])) != 1:
        raise BuildError(content, "front matter: own_page must hold one link's words between [ ] "
                                  "(build.py export links them to the lab's own page)", 2)
    return page


def main(argv: list[str], make_site: Callable[[], dict[str, bytes]], read_page: Callable[[Path], dict], content: Path) -> int:
    """The ``export`` subcommand of build.py, which passes in its pipeline's steps and its content page."""
    parser = argparse.ArgumentParser(prog="build.py export",
                                     description="Write the lab as a folder for a Material for MkDocs or Zensical site.")
    parser.add_argument("dir", metavar="DIR", type=Path, help="the folder to write, e.g. docs/laboratorio (replaced if it is an earlier export)")
    parser.add_argument("--base", metavar="PATH", help="the URL path where the site publishes DIR, e.g. /docs/laboratorio/ "
                                       "(default: the iframe's address is relative to its page)")
    parser.add_argument("--palette-sync", action=argparse.BooleanOptionalAction, default=True,
                        help="the lab follows the host's dark scheme (Material's and Zensical's 'slate'); default: on")
    args = parser.parse_args(argv)
    try:
        app_base(args.base)
        check_replaceable(args.dir)
        page = read_export_page(read_page, content)
        files = export_files(make_site(), page, args.base, args.palette_sync)
        write_atomically(files, args.dir)
    except (BuildError, ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"exported {args.dir} (index.md and app/, {len(files) - 1} files): add it to your site's nav")
    return 0
