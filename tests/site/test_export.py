"""`build.py export DIR` (DESIGN §4.11, raglab_site/export.py): what DIR/index.md says, that DIR/app/
is the build (with config.yaml's `export` settings), the options, the refusals, and that the same inputs give the same bytes.

The sites that hold the export, built by Material for MkDocs and Zensical and driven in Chromium,
are tests/browser/test_docsite.py's.
"""

import json
import re
from pathlib import Path

import pytest
import yaml

import build
from raglab_site import export
from raglab_site.assets import read_static

from tests.conftest import ROOT

CONTENT = ROOT / "site_src" / "content" / "index.md"


@pytest.fixture(scope="module")
def site(site_dir):
    return read_static(site_dir)


def split(markdown: str) -> tuple[dict, str]:
    front, body = re.fullmatch(r"---\n(.*?)\n---\n(.*)", markdown, re.S).groups()
    return yaml.safe_load(front), body


def iframe(body: str) -> dict[str, str | None]:
    tags = re.findall(r"<iframe\b([^>]*)></iframe>", body)
    assert len(tags) == 1, body
    return {name: value for name, value in re.findall(r'([\w-]+)(?:="([^"]*)")?', tags[0])}


def run_export(argv, site, capsys):
    """The subcommand with a given build (the CLI's parsing and checks, without building again)."""
    status = export.main(argv, lambda: site, build.read_page, CONTENT)
    return status, capsys.readouterr()


def test_index_md_is_a_page_with_the_contents_words_and_the_lab_in_a_frame(site, tmp_path, capsys):
    status, said = run_export([str(tmp_path / "lab")], site, capsys)
    assert status == 0 and said.err == "" and "add it to your site's nav" in said.out
    front, body = split((tmp_path / "lab" / "index.md").read_text("utf-8"))
    source = yaml.safe_load(CONTENT.read_text("utf-8").split("---\n")[1])
    assert front == {"title": source["title"], "description": source["description"], "keywords": source["keywords"],
                     "hide": ["navigation", "toc", "footer"]}
    # The introduction, what the site's search indexes, as the content words it; then a link to the lab's own page.
    assert " ".join(source["intro"].split()) in body and "navegador" in source["intro"]
    assert '<a href="app/">Abre el laboratorio en su propia página</a>' in body
    frame = iframe(body)
    assert frame == {"data-raglab": "", "data-raglab-palette": "host", "src": "app/", "title": source["title"],
                     "width": "100%", "height": str(export.DEFAULT_HEIGHT), "style": "display: block; border: 0"}
    assert body.rstrip().endswith("</iframe>")  # the frame last: nothing of the host's page under the lab


def test_app_is_the_build_with_the_exports_settings_and_the_export_is_deterministic(site_dir, tmp_path, capsys):
    """Two exports, each building the site again: the same bytes. app/ is dist/ as build writes it but for
    the page (and its compressed copies, and sw.js, whose version hashes them): there config.yaml's
    `export` settings apply, the site's eyebrow and its related pages, which dist/ published alone lacks."""
    first, second = tmp_path / "a", tmp_path / "b"
    assert build.main(["export", str(first)]) == 0
    assert build.main(["export", str(second), "--palette-sync"]) == 0
    files = read_static(first)
    assert files == read_static(second)
    app = {path.removeprefix("app/"): data for path, data in files.items() if path != "index.md"}
    dist = read_static(site_dir)
    assert app.keys() == dist.keys()
    assert sorted(path for path in app if app[path] != dist[path]) == ["index.html", "index.html.br", "index.html.gz", "sw.js"]
    assert sorted(files)[0] == "app/_headers" and "index.md" in files and "app/sw.js" in files
    settings = yaml.safe_load((ROOT / "site_src" / "config.yaml").read_text("utf-8"))
    assert settings["related"] == [] and settings["export"]["related"]
    for html, eyebrow, related in ((app["index.html"], settings["export"]["eyebrow"], settings["export"]["related"]),
                                   (dist["index.html"], settings["eyebrow"], [])):
        html = html.decode("utf-8")
        assert f'<p class="eyebrow">{eyebrow}</p>' in html
        links = re.findall(r'<nav class="related".*?</nav>', html, re.S)
        hrefs = re.findall(r'<a href="([^"]*)" target="_top">', links[0]) if links else []
        assert hrefs == [tool["url"] for tool in related]
    # From app/, a page beside the export's folder: DIR/app/ -> ../../name/.
    assert all(tool["url"].startswith("../../") for tool in settings["export"]["related"])


def test_base_puts_the_frame_under_the_sites_path_and_sync_can_be_off(site, tmp_path, capsys):
    assert run_export([str(tmp_path / "lab"), "--base", "/docs/laboratorio", "--no-palette-sync"], site, capsys)[0] == 0
    _, body = split((tmp_path / "lab" / "index.md").read_text("utf-8"))
    frame = iframe(body)
    assert frame["src"] == "/docs/laboratorio/app/" and '<a href="/docs/laboratorio/app/">' in body
    assert "data-raglab-palette" not in frame and "data-raglab" in frame
    for bad in ("docs/lab", "/a b/", "/lab/?x=1", "https://host/lab/", "//host/lab/"):
        status, said = run_export([str(tmp_path / "other"), "--base", bad], site, capsys)
        assert status == 1 and said.err.startswith("error: --base must be an absolute URL path"), (bad, said.err)
    assert not (tmp_path / "other").exists()


def test_export_replaces_an_earlier_export_but_no_other_folder(site, tmp_path, capsys):
    docs = tmp_path / "docs"
    (docs / "guia").mkdir(parents=True)
    (docs / "index.md").write_text("# Mi sitio\n", "utf-8")
    status, said = run_export([str(docs)], site, capsys)
    assert status == 1 and said.err == f"error: {docs} is not empty and holds no earlier export: choose a new or empty folder\n"
    assert (docs / "index.md").read_text("utf-8") == "# Mi sitio\n" and not (docs / "app").exists()
    lab = docs / "laboratorio"
    assert run_export([str(lab)], site, capsys)[0] == 0
    (lab / "app" / "stale.js").write_text("old", "utf-8")
    assert run_export([str(lab), "--no-palette-sync"], site, capsys)[0] == 0  # an earlier export: replaced whole
    assert not (lab / "app" / "stale.js").exists() and 'data-raglab-palette' not in (lab / "index.md").read_text("utf-8")
    (tmp_path / "file").write_text("x", "utf-8")
    status, said = run_export([str(tmp_path / "file")], site, capsys)
    assert status == 1 and "is not a folder" in said.err


def test_nothing_in_app_is_a_page_for_the_site_and_the_sample_keeps_its_name(site):
    """MkDocs and Zensical render every .md in docs/ as a page: «Tu corpus»' Markdown sample is
    published as .md.txt, and the page tells the panel its real name."""
    assert not [path for path in site if path.lower().endswith(export.PAGE_SUFFIXES)]
    assert "data/corpus/state_of_the_union.md.txt" in site
    config = json.loads(re.search(rb'<script type="application/json" id="lab-config">(.*?)</script>', site["index.html"]).group(1))
    assert config["corpus"]["sample"] == [
        {"url": "data/corpus/state_of_the_union.md.txt", "name": "state_of_the_union.md"},
        {"url": "data/corpus/questions_df.csv", "name": "questions_df.csv"},
    ]
    assert site["data/corpus/state_of_the_union.md.txt"] == (ROOT / "site_src/data/corpus/state_of_the_union.md").read_bytes()
    with pytest.raises(ValueError, match="the build holds notes.md, which a documentation site would render as a page"):
        export.export_files({**site, "notes.md": b"# x"}, build.read_page(CONTENT))
    # No .wasm either: every wasm ships as a .bin that the worker types itself, so a server that sends
    # .wasm as application/octet-stream (zensical serve 0.0.73) changes nothing.
    assert not [path for path in site if path.endswith(".wasm")]


def test_the_page_can_be_framed_by_its_own_site_only_and_survives_a_dev_servers_script(site):
    html = site["index.html"].decode("utf-8")
    headers = site["_headers"].decode("utf-8")
    assert "frame-ancestors 'self'" in headers and "frame-ancestors" not in html  # a <meta> policy ignores it
    # A dev server's live-reload script lands in the page's last element, an inert <template>: at
    # the end of the file (zensical serve) or before a </body> that is not there (mkdocs serve).
    assert html.endswith("<template data-tail>\n") and "</body>" not in html and "</html>" not in html
    assert html.count("<template data-tail>") == 1


def test_a_content_without_an_introduction_is_refused(site, tmp_path, capsys):
    content = tmp_path / "index.md"
    content.write_text(CONTENT.read_text("utf-8").replace("\nintro:", "\nintro_old:"), "utf-8")
    status = export.main([str(tmp_path / "lab")], lambda: site, build.read_page, content)
    assert status == 1 and "front matter is missing: intro" in capsys.readouterr().err
    assert not (tmp_path / "lab").exists()


@pytest.mark.parametrize("change, said", [
    (("\nown_page:", "\nown_page_old:"), "index.md:2: front matter is missing: own_page"),
    (("[Abre el laboratorio en su propia página]", "Abre el laboratorio en su propia página"),
     "index.md:2: front matter: own_page must hold one link's words between [ ]"),
])
def test_a_content_without_the_sentence_that_links_the_labs_own_page_is_refused(site, tmp_path, capsys, change, said):
    """The link's sentence is the content's (`own_page`): without it, or without its link, the file and field are named."""
    content = tmp_path / "index.md"
    text = CONTENT.read_text("utf-8")
    assert change[0] in text
    content.write_text(text.replace(*change), "utf-8")
    status = export.main([str(tmp_path / "lab")], lambda: site, build.read_page, content)
    assert status == 1 and said in capsys.readouterr().err
    assert not (tmp_path / "lab").exists()
