"""Print gives a usable report (print.css): dark text on white in either colour scheme, panels that
run on across pages, tables printed whole, and no control but the values it chose."""

from playwright.sync_api import expect

from ..support.lab_page import evaluated

# An A4 page (210 × 297 mm at 96 px per inch) inside print.css's @page margins (1.5 cm, 1.2 cm): the width
# print lays the page out at, and the height a block must stay under to be kept in one piece.
PAGE_WIDTH, PAGE_HEIGHT = 703, 1009

# The relative luminance (WCAG) of an element's text and of the first opaque background behind it; the
# corpus plot's labels are drawn by corpus.js once it has results, so a label is put where it draws them.
COLOURS = """(selectors) => {
  const plot = document.querySelector('[data-corpus-output="plot"]');
  const label = document.createElementNS("http://www.w3.org/2000/svg", "text");
  plot.append(label);
  const luminance = (colour) => {
    const [r, g, b] = colour.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      v = Number(v) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const behind = (node) => {
    for (; node; node = node.parentElement) {
      const colour = getComputedStyle(node).backgroundColor;
      if (!/rgba\\(.*, 0\\)$/.test(colour) && colour !== "transparent") return colour;
    }
    return "rgb(255, 255, 255)";  // the canvas: white, as paper is
  };
  const read = {};
  for (const selector of selectors) {
    const node = document.querySelector(selector);
    const style = getComputedStyle(node);
    read[selector] = [luminance(node instanceof SVGElement ? style.fill : style.color), luminance(behind(node))];
  }
  label.remove();
  return read;
}"""

# Each cell of the per-query table: its box, whether its text is on one line, and the ancestors with a
# non-visible overflow that cut it off (a scroll box printed as it stands shows only what is in view).
PER_QUERY = """() => {
  const cells = [];
  for (const row of document.querySelectorAll(".per-query tr")) {
    cells.push(Array.from(row.cells, (cell) => {
      const box = cell.getBoundingClientRect();
      const clipped = [];
      for (let up = cell.parentElement; up && up !== document.documentElement; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowX === "visible" && style.overflowY === "visible") continue;
        const edge = up.getBoundingClientRect();
        if (box.left < edge.left - 0.5 || box.right > edge.right + 0.5 || box.top < edge.top - 0.5 || box.bottom > edge.bottom + 0.5) {
          clipped.push(up.tagName + "." + up.className);
        }
      }
      const range = document.createRange();
      range.selectNodeContents(cell);
      const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
      return {width: box.width, height: box.height, right: box.right, lines, clipped, number: cell.tagName === "TD"};
    }));
  }
  return {cells, width: document.documentElement.clientWidth};
}"""

# The controls print shows none of: [what, whether it or an ancestor is display: none]. The settings' text
# fields and textareas print their values as text, as the sliders' echoes do.
CONTROLS = """() => Array.from(
  document.querySelectorAll('button, input[type="file"], input[type="range"], textarea:not([data-setting]), progress, nav'),
  (node) => {
    let hidden = false;
    for (let up = node; up && !hidden; up = up.parentElement) hidden = getComputedStyle(up).display === "none";
    return [node.outerHTML.slice(0, 80), hidden, Boolean(node.closest("th"))];
  })"""

# Every block print keeps in one piece (break-inside: avoid), with its height.
KEPT_WHOLE = """() => Array.from(document.querySelectorAll("body *"), (node) => {
  const style = getComputedStyle(node);
  return style.breakInside.startsWith("avoid") ? [node.tagName + "." + node.className, node.getBoundingClientRect().height] : null;
}).filter(Boolean)"""


def test_print_is_a_report_in_either_scheme(lab):
    """The sample evaluated once; then print emulated in the light scheme and in the dark one."""
    page = lab.page
    page.click('[data-action="sample"]')
    evaluated(page)
    page.set_viewport_size({"width": PAGE_WIDTH, "height": 900})
    for scheme in ("light", "dark"):
        page.emulate_media(media="print", color_scheme=scheme)

        # Dark text on white: body text, paragraphs, hints, tables, the plots' labels.
        texts = ["body", ".panel-intro", ".hint", ".reading", ".means td", ".per-query td", ".per-query th",
                 ".chart-y-label", ".chart-ticks li", ".corpus-plot text"]
        for selector, (text, background) in page.evaluate(COLOURS, texts).items():
            assert text < 0.2 and background > 0.9, (scheme, selector, text, background)

        # The per-query table prints whole: 40 queries and 19 columns, each cell laid out, within the page's
        # width, cut off by no scroll box, its number on one line.
        table = page.evaluate(PER_QUERY)
        assert len(table["cells"]) == 41 and {len(row) for row in table["cells"]} == {19}
        for row in table["cells"]:
            for cell in row:
                assert cell["width"] > 0 and cell["height"] > 0 and cell["clipped"] == []
                assert cell["right"] <= table["width"] + 0.5
        assert {cell["lines"] for row in table["cells"] for cell in row if cell["number"]} == {1}

        # The readings' «Cómo leer esto» print open: the caveats are part of the report.
        caveats = page.locator(".reading details.reading-more > :not(summary)")
        assert caveats.count() >= 2
        assert all(box["height"] > 0 for box in caveats.evaluate_all("nodes => nodes.map(n => n.getBoundingClientRect())"))

        # No control prints (the per-query table's sort buttons and query names are its headers)...
        for html, hidden, in_header in page.evaluate(CONTROLS):
            assert hidden != in_header, html
        # ...but what the sliders chose does.
        for name in ("k", "umbral", "rerank"):
            echo = page.locator(f'[data-echo="{name}"]')
            expect(echo).to_have_text(page.locator(f'[name="{name}"]').input_value())
            assert echo.bounding_box()["height"] > 0

        # Every block is laid out (content-visibility: auto is the screen's), and panels run on across pages;
        # only blocks shorter than a page are kept whole.
        skipped = page.locator(".panel, .method, .unretrieved, .breakdown-wrap, .conventions-wrap").evaluate_all(
            "blocks => blocks.map(b => getComputedStyle(b).contentVisibility)")
        assert set(skipped) == {"visible"}
        for block, height in page.evaluate(KEPT_WHOLE):
            assert height < PAGE_HEIGHT, block
        heights = page.locator(".panel").evaluate_all("panels => panels.map(p => p.getBoundingClientRect().height)")
        assert max(heights) > PAGE_HEIGHT  # the check above met a panel taller than a page
