"""The lab's page as the browser tests drive it (not a test module): the `Lab` helper, what the page
shows read as plain data (DOM_STATE) and what compute() says it must show (expected_dom), and the
few page scripts, route patterns and storage resets several browser modules share."""

import time
from urllib.parse import parse_qsl, urlsplit

from playwright.sync_api import Page, expect

from raglab_core import compute
from tests.conftest import load_scenario

OUTPUT_NAMES = [
    "precision", "recall", "mrr", "ndcg", "relevant_in_k",
    "chunks", "indexed_tokens", "duplicated_tokens", "duplication", "stride",
]
TEXT_OUTPUTS = ["metrics_reading", "chunking_reading"]
FORBIDDEN = ("NaN", "Infinity", "undefined", "None", "null")
# Outputs with no data-value: the readings, and the breakdown's sentences under the table.
TEXT_ONLY = TEXT_OUTPUTS + ["ideal_order", "ndcg_division", "mrr_rank", "conventions_reading"]
BREAKDOWN_CELLS = ("relevant_text", "mrr_text", "gain_text", "discount_text", "contribution_text", "running_text")

# The rendered text (innerText) of the element `selector` names, as if the blocks the page lays out only
# when the reader nears them (lab.css: content-visibility: auto, whose skipped content innerText leaves
# out) were laid out: a constructed style sheet, which the page's CSP allows, lays them out for the read.
RENDERED_TEXT = """(selector) => {
  const all = new CSSStyleSheet();
  all.replaceSync("* { content-visibility: visible !important; }");
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, all];
  try {
    return document.querySelector(selector).innerText;
  } finally {
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => sheet !== all);
  }
}"""

# What the page shows, as plain data (runs in the page; evaluate() works under the page's CSP).
DOM_STATE = """() => {
  const rendered = """ + RENDERED_TEXT + """;
  const text = (node) => node.textContent.replace(/\\s+/g, " ").trim();
  const outputs = {};
  for (const node of document.querySelectorAll("[data-output]")) {
    if (["OL", "UL", "TABLE", "svg"].includes(node.tagName)) continue;
    outputs[node.dataset.output] = [text(node), node.getAttribute("data-value")];
  }
  const errors = {};
  for (const node of document.querySelectorAll("[data-error-for]")) errors[node.dataset.errorFor] = text(node);
  const invalid = {};
  for (const node of document.querySelectorAll(".panel-ranking input[name], .panel-chunking input[name]")) invalid[node.name] = node.getAttribute("aria-invalid") === "true";
  const ranking = Array.from(document.querySelectorAll('ol[data-output="ranking"] > li'), (li) =>
    [li.dataset.doc, li.dataset.grade, li.dataset.inK, li.dataset.reranked, li.dataset.cutK, li.dataset.cutRerank]);
  const breakdown = Array.from(document.querySelectorAll('table[data-output="breakdown"] tr[data-rank]'), (tr) =>
    [Number(tr.dataset.rank), tr.dataset.doc, tr.dataset.grade, parseFloat(tr.dataset.gain),
     parseFloat(tr.dataset.discount), parseFloat(tr.dataset.contribution), tr.dataset.inK,
     Array.from(tr.querySelectorAll("td"), text)]);
  const strip = document.querySelector('[data-output="chunk-windows"]');
  const windows = [strip.dataset.windows, Array.from(strip.querySelectorAll("[data-window]"), (w) =>
    [Number(w.dataset.start), Number(w.dataset.end)])];
  const unretrieved = Array.from(document.querySelectorAll('ul[data-output="unretrieved"] > li'), (li) =>
    [li.dataset.doc, li.dataset.grade, li.dataset.relevant]);
  const total = document.querySelector('[name="total"]').value;
  const conventions = Array.from(document.querySelectorAll('[data-output="conventions"] [data-convention]'), (tr) =>
    [tr.dataset.convention, tr.dataset.value, text(tr.querySelector('[data-field="text"]')),
     text(tr.querySelector('[data-field="diff_text"]'))]);
  return {outputs, errors, invalid, ranking, unretrieved, total, breakdown, windows, conventions,
          text: rendered("main")};
}"""


def squash(text: str) -> str:
    return " ".join(text.split())


def expected_dom(view: dict, state: dict) -> dict:
    """What DOM_STATE must read for ``view`` of ``state``, plus the page's text (compared separately).

    The total input shows the total in use (DESIGN §4.1), except what the user typed, left as typed.
    """
    total = view["controls"]["total"]
    typed = "total" in state and total["raised_from"] is None
    outputs = {
        name: [squash(out["text"]), None if name in TEXT_ONLY else out["raw"]]
        for name, out in view["outputs"].items()
    }
    windows = view["chunk_windows"]
    return {
        "outputs": outputs,
        "errors": {name: squash(control["error"] or "") for name, control in view["controls"].items()},
        "invalid": {name: bool(control["error"]) for name, control in view["controls"].items() if name != "grades"},
        "ranking": [[row["id"], row["grade_token"], str(row["in_k"]).lower(), str(row["reranked"]).lower(),
                     str(row["cut_k"]).lower(), str(row["cut_rerank"]).lower()] for row in view["ranking"]],
        "breakdown": [[row["rank"], row["doc"], row["grade_token"], row["gain"], row["discount"], row["contribution"],
                       str(row["in_k"]).lower(),
                       [row["doc"], row["grade_text"]] + [squash(row[f]) for f in BREAKDOWN_CELLS]]
                      for row in view["breakdown"]],
        "windows": ["" if windows["windows"] is None else str(windows["windows"]),
                    [[w["start"], w["end"]] for w in windows["shown"]]],
        "unretrieved": [[row["id"], str(row["grade"]), str(row["relevant"]).lower()] for row in view["unretrieved"]],
        "total": str(state["total"]) if typed else "" if total["value"] is None else str(total["value"]),
        "conventions": [[row["name"], row["raw"], row["text"], row["diff_text"]] for row in view["conventions"]],
    }


class Lab:
    """A loaded lab page plus the state the test has driven it into."""

    def __init__(self, page: Page, base_url: str, query: str = ""):
        self.page = page
        self.scenario = load_scenario()
        self.errors = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.goto(base_url + query)
        expect(page.locator("html")).to_have_attribute("data-ready", "true", timeout=60_000)
        self.state = {"scenario": self.scenario, **dict(parse_qsl(query.lstrip("?"), keep_blank_values=True))}
        self.viewport = page.viewport_size

    def reset(self):
        """The page as a load of the bare URL leaves it, without a new load (and Python's boot): «Restablecer»
        (DESIGN §4.3) brings every control, the grades and the URL back to the scenario's defaults and the outputs
        to their view; the viewport, the scroll, the focus and any open definition come back too. What the console
        said before is the previous test's, and is dropped."""
        page = self.page
        page.keyboard.press("Escape")  # an open definition closes
        page.set_viewport_size(self.viewport)
        page.locator('[data-action="reset"]').click()
        page.evaluate("() => { document.activeElement.blur(); window.scrollTo(0, 0); }")
        assert urlsplit(page.url).query == ""
        self.state = {"scenario": self.scenario}
        self.expect_matches_core()
        self.errors.clear()

    def edit(self, name, value):
        """Record what lab.js records: the value, and ``name`` as the most recently changed control."""
        self.state[name] = value
        edited = [n for n in self.state.get("edited", []) if n != name]
        self.state["edited"] = edited + [name]

    def control(self, name):
        return self.page.locator(f'[name="{name}"]')

    def press(self, name, key, times=1):
        control = self.control(name)
        control.focus()
        for _ in range(times):
            control.press(key)
        self.edit(name, control.input_value())
        return self.state[name]

    def type(self, name, text):
        control = self.control(name)
        control.click()
        control.press("Control+A")
        control.press("Backspace")
        if text:
            self.page.keyboard.type(text)
        self.edit(name, text)

    def paste(self, name, text):
        """Replace the field's text at once, as a paste does (one input event)."""
        self.control(name).fill(text)
        self.edit(name, text)

    def grade(self, doc_id, grade):
        """Choose ``grade`` for ``doc_id`` in its select, and note it in the state as the page's form holds it (the
        grades in the scenario's order, the others as they were). The state is the test's own record, not the
        selects read back: a view still in flight from an earlier change can rewrite the rows for a moment."""
        self.page.locator(f'[data-grade-for="{doc_id}"]').select_option(str(grade))
        documents = self.scenario["documents"]
        held = self.state.get("grades")
        grades = held.split(",") if held else [str(document["grade"]) for document in documents]
        grades[[document["id"] for document in documents].index(doc_id)] = str(grade)
        self.edit("grades", ",".join(grades))

    def shown(self) -> dict:
        """Everything the page shows that compute() decides, read in one round trip."""
        return self.page.evaluate(DOM_STATE)

    def expect_matches_core(self, timeout: float = 10.0):
        """Every output, error and ranking row equals compute(state) from CPython (waits for it)."""
        view = compute(self.state)
        expected = expected_dom(view, self.state)
        deadline = time.monotonic() + timeout
        while True:
            shown = self.shown()
            page_text = shown.pop("text")
            if shown == expected or time.monotonic() > deadline:
                break
            self.page.wait_for_timeout(20)
        assert shown == expected
        for word in FORBIDDEN:
            assert word not in page_text
        expect(self.page.locator("[data-busy-region][aria-busy]")).to_have_count(0)  # the values shown are this state's
        return view

    def url_params(self, settled=None, timeout: float = 5.0):
        """The URL's query (lab.js writes it on every change); or, with ``settled``, once ``settled(params)``
        holds (a total raised by Python is written when its view arrives)."""
        deadline = time.monotonic() + timeout
        while True:
            params = dict(parse_qsl(urlsplit(self.page.url).query, keep_blank_values=True))
            if settled is None or settled(params) or time.monotonic() > deadline:
                return params
            self.page.wait_for_timeout(20)


# Resolves once a service worker controls the page (the offline and hosting tests).
WAIT_FOR_CONTROL = """() => new Promise(resolve => {
    if (navigator.serviceWorker.controller) return resolve(true);
    navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true));
})"""

# The memory snapshot's requests, for page.route.
SNAPSHOT = "**/assets/snapshot.*.bin"

# Controls smaller than 24 × 24 CSS px (WCAG 2.5.8), as [outerHTML, width, height].
TARGETS = """() => {
  const small = [];
  for (const node of document.querySelectorAll("button, input, select, summary, textarea, [tabindex]")) {
    if (node.closest("[hidden]") || node.type === "hidden" || node.hidden) continue;
    const style = getComputedStyle(node);
    if (style.display === "none" || style.visibility === "hidden") continue;
    const box = node.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.width < 24 || box.height < 24) {
      small.push([node.outerHTML.slice(0, 90), Math.round(box.width), Math.round(box.height)]);
    }
  }
  return small;
}"""


# Every table of the two panels: each cell with a number is whole (its text not clipped) and, scrolled to, lies
# inside its scroll box's visible part, right of the sticky first column when it is not that column.
TABLE_CELLS = """() => {
  const all = new CSSStyleSheet();
  // Laid out as if near the reader (RENDERED_TEXT); the text for screen readers only is no part of what is seen.
  all.replaceSync("* { content-visibility: visible !important; } .visually-hidden { display: none !important; }");
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, all];
  const bad = [];
  let cells = 0;
  for (const table of document.querySelectorAll('[data-panel="data"] table, [data-panel="corpus"] table')) {
    if (!table.offsetParent) continue;
    const box = table.closest(".table-wrap");
    for (const row of table.rows) {
      const sticky = row.cells[0];
      for (const cell of row.cells) {
        if (!/^[\\s+−\\-–±<≥≤▲▼]*\\d/.test(cell.textContent)) continue; // a number (the headers are text)
        cells += 1;
        if (cell.scrollWidth > cell.clientWidth) bad.push(["clipped", cell.textContent, cell.scrollWidth, cell.clientWidth]);
        cell.scrollIntoView({ block: "nearest", inline: "end" });
        const text = document.createRange();
        text.selectNodeContents(cell); // the text itself: a cell may be wider than it (a long column heading)
        const seen = box.getBoundingClientRect(), at = text.getBoundingClientRect();
        const from = cell === sticky ? seen.left : Math.max(seen.left, sticky.getBoundingClientRect().right);
        if (at.left < from - 1 || at.right > seen.right + 1) bad.push(["unreachable", table.className, cell.textContent, at.left, at.right, from, seen.right]);
      }
      box.scrollLeft = 0;
    }
  }
  document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => sheet !== all);
  return { cells, bad };
}"""


def forget_the_kept_snapshot(context, page, base_url):
    """The origin of ``base_url`` without the snapshot kept in Cache Storage, nor boot.js's note that the runtime
    was ready there: its next load boots as a first visit does (the ``cold_boot`` tests)."""
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(base_url))
    cdp = context.new_cdp_session(page)
    # Cache Storage holds the kept snapshot; localStorage, boot.js's note that the runtime was ready
    # here (then it preloads nothing).
    cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "cache_storage,local_storage"})
    cdp.detach()


def raw_cells(page, selector):
    return page.locator(selector).evaluate_all(
        "rows => rows.map(row => Array.from(row.querySelectorAll('td[data-raw]'), td => td.dataset.raw))"
    )


def evaluated(page):
    expect(page.locator("[data-data-status]")).to_have_text("Evaluación terminada.", timeout=60_000)


def settled_box(locator, timeout: float = 5.0) -> dict:
    """``locator`` scrolled into view, and its bounding box once two reads a frame apart agree: a block below
    the fold (lab.css, content-visibility: auto) is laid out when it nears the viewport, and the page can
    still move for a frame or two after the scroll."""
    locator.scroll_into_view_if_needed()
    deadline = time.monotonic() + timeout
    box = locator.bounding_box()
    while True:
        locator.page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        again = locator.bounding_box()
        if again == box or time.monotonic() > deadline:
            return again
        box = again
