"""The pages' stylesheets (raglab_site/stylesheets.py): each page inlines its sheets of site_src/inline/ joined in
cascade order, print last; the colours are the palette's."""

import re

import pytest

from raglab_site.stylesheets import PAGE_SHEETS

from tests.conftest import ROOT

INLINE = ROOT / "site_src" / "inline"
# A rule only each sheet has (minified as esbuild writes it), to find the sheet in a page's <style>.
MARKER = {"base.css": ".data-slot{", "lab.css": ".ranking{", "tus-datos.css": ".previous-note{",
          "tu-corpus.css": ".corpus-configs td{", "te-fias.css": ".agreement{", "print.css": "@media print{"}


@pytest.fixture(scope="module")
def styles(site_dir):
    def style(page):
        return re.search(r"<style>(.*?)</style>", (site_dir / page).read_text("utf-8"), re.DOTALL).group(1)
    return {"lab": style("index.html"), "juzgar": style("juzgar/index.html")}


def block_end(text: str, start: int) -> int:
    """The index just after the block that opens at the first `{` from ``start`` (no strings hold braces here)."""
    depth = 0
    for index in range(text.index("{", start), len(text)):
        depth += {"{": 1, "}": -1}.get(text[index], 0)
        if depth == 0:
            return index + 1
    raise AssertionError("unclosed block")


def test_every_sheet_is_inlined_by_a_page_and_the_lab_wears_them_all():
    assert sorted(path.name for path in INLINE.glob("*.css")) == sorted({name for names in PAGE_SHEETS.values()
                                                                          for name in names})
    assert set(PAGE_SHEETS["lab"]) == set(MARKER) and PAGE_SHEETS["juzgar"] == ("base.css", "print.css")


@pytest.mark.parametrize("page", PAGE_SHEETS)
def test_each_page_holds_its_sheets_in_order_and_print_last(styles, page):
    """Where two rules of equal weight meet, the later sheet's wins: the panels' after the lab's, and nothing after
    print (the «¿Te fías?» rules were once appended after it, and printed in the screen's colours)."""
    style = styles[page]
    for name, marker in MARKER.items():
        assert (style.count(marker) == 1) == (name in PAGE_SHEETS[page]), (page, name)
    positions = [style.index(MARKER[name]) for name in PAGE_SHEETS[page]]
    assert positions == sorted(positions), page
    assert block_end(style, style.index("@media print{")) == len(style.rstrip()), "a rule follows the print section"


def test_the_confusion_shades_are_the_palettes():
    """«¿Te fías?»'s confusion matrix is shaded by five of the palette's colours (base.css's :root, light and dark),
    not by colours of its own."""
    palette = re.search(r":root \{(.*?)\n\}", (INLINE / "base.css").read_text("utf-8"), re.DOTALL).group(1)
    sheet = (INLINE / "te-fias.css").read_text("utf-8")
    shades = re.findall(r'\.confusion td\[data-shade="(\d)"\] \{\n  background: var\(--confusion-(\d)\);', sheet)
    assert shades == [(str(n), str(n)) for n in range(1, 6)]
    for n in range(1, 6):
        assert re.search(rf"--confusion-{n}: light-dark\(#[0-9a-f]{{6}}, #[0-9a-f]{{6}}\);", palette), n
    assert re.findall(r"#[0-9a-fA-F]{3,8}\b|light-dark\(|rgb\(", sheet) == []
