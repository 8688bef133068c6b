"""The templates (site_src/templates/): each one rendered or included, and the file slots made by one macro."""

import re

import pytest

from tests.conftest import ROOT

TEMPLATES = ROOT / "site_src" / "templates"
# What build.py renders by name; every other template is included or imported by one of these.
RENDERED = {"page.html.j2", "juzgar.html.j2", "_headers.j2", "sw.js.j2"}


def test_every_template_is_rendered_or_used_by_one_that_is():
    names = {path.relative_to(TEMPLATES).as_posix() for path in TEMPLATES.rglob("*.j2")}
    build = (ROOT / "build.py").read_text("utf-8")
    assert {name for name in RENDERED if f'"{name}"' in build} == RENDERED
    used = set()
    for name in names:
        text = (TEMPLATES / name).read_text("utf-8")
        used |= set(re.findall(r'\{%-?\s*(?:include|import|from)\s+"([^"]+)"', text))
    assert names - RENDERED - used == set(), "a template nothing renders"
    assert used <= names, "a template that does not exist"
    assert {name for name in names if name.startswith("panels/")} == {
        "panels/ranking.html.j2", "panels/chunking.html.j2", "panels/tu-corpus.html.j2", "panels/tus-datos.html.j2",
        "panels/te-fias.html.j2"}


@pytest.mark.parametrize("page, prefix, count", [("index.html", "corpus-", 6), ("index.html", "", 14),
                                                 ("juzgar/index.html", "judge-", 8)])
def test_each_file_slot_names_its_parts_after_its_input(site_dir, page, prefix, count):
    """The file slots (macros.html.j2, file_slot): a label for the input, a hint that describes it, and in the lab a
    hidden input opened by «Elegir fichero…», «Quitar» and the slot's status, all named after the slot."""
    html = (site_dir / page).read_text("utf-8")
    attribute = f' data-{prefix}slot="([^"]+)"' if page == "index.html" else "()"
    slots = re.findall(rf'<div class="data-slot"{attribute}[^>]*>(.*?)</div>', html, re.DOTALL)
    assert len(slots) == count
    for slot, body in slots:
        slot = slot or re.search(r'data-file-for="([^"]+)"', body).group(1)
        input_id = f"{prefix}file-{slot}"
        assert f'<label for="{input_id}">' in body and f'<p class="hint" id="{input_id}-hint">' in body, slot
        assert re.search(rf'<input id="{input_id}" type="file"[^>]* data-file-for="[^"]+"', body), slot
        if page == "index.html":
            assert f'data-{prefix}pick-for="{slot}" aria-describedby="{input_id}-hint"' in body, slot
            assert f'data-{prefix}clear-for="{slot}" hidden>' in body and f'data-{prefix}slot-status="{slot}"' in body
            assert re.search(r"<input [^>]*\bhidden>", body), slot
            assert ("data-paste-for" in body) == (prefix == ""), slot
        else:
            assert f'aria-describedby="{input_id}-hint"' in body and "file-pick" not in body, slot
