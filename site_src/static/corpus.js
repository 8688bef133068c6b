/* corpus.js — the «Tu corpus» panel: choose a corpus, queries and evidence, measure chunking
 * configurations in a worker, show each row as it comes, then the comparison, plot and reading.
 *
 * Files (File objects, never read here) go to a worker of its own, which streams them into Python
 * (raglab_core.corpus.panel); «Cancelar» stops that worker. Every number, sentence and plot
 * coordinate comes from Python; this file hands files over and writes what comes back as text nodes.
 * The machinery every panel shares is panel-kit.js's, loaded before this file (boot.js loads both on
 * the panel's first use).
 */
(() => {
  "use strict";

  const panel = document.querySelector('[data-panel="corpus"]');
  if (!panel) return;
  const kit = window.raglabPanelKit;
  const { el, svg } = kit;
  const config = JSON.parse(document.getElementById("lab-config").textContent);
  const WORDS = config.corpus.words; // raglab_core.words.corpus_panel_words: every sentence of this file
  const SLOTS = ["corpus", "queries", "evidence", "qrels", "chunks", "run"];
  // «Tus datos», after this panel, names its own qrels input data-file-for="qrels": this one differs.
  const fileInput = (slot) => $(`[data-file-for="${slot === "qrels" ? "corpus-qrels" : slot}"]`);
  const SETTINGS = ["sweep", "baseline", "k1", "b", "at"];
  const chosen = {}; // slot -> [{name, file | text}] (the corpus) or {name, file | text}
  const $ = (selector) => panel.querySelector(selector);
  const out = (name) => panel.querySelector(`[data-corpus-output="${name}"]`);
  const setting = (name) => $(`[data-setting="${name}"]`);
  const button = (action) => $(`[data-action="${action}"]`);
  const detailBox = out("detail");
  let view = null; // the finished panel

  const panelKit = kit.panel({
    name: "corpus",
    label: "corpus",
    root: panel,
    words: WORDS,
    actions: { start: "corpus-run", cancel: "corpus-cancel", sample: "corpus-sample" },
    fieldControls,
    requestKey,
    clearResult,
    keepPrevious,
    on: {
      row: (message) => {
        if (!panelKit.busy) return;
        if (!out("head").childElementCount) out("head").replaceChildren(kit.headRow(message.row.columns));
        resultBox.hidden = false;
        out("rows").append(row(message.row));
      },
      result: (message) => {
        if (message.ok) {
          panelKit.setRunning(false); // first: the panel asks the worker for its first query's detail
          show(message.panel);
          statusLine.textContent = WORDS.done;
        } else {
          if (message.detail) console.error("raglab: corpus", message.detail);
          clearResult();
          fail(message.message, message.problems || [], message.field || message.slot);
        }
      },
      detail: (message) => message.ok && showDetail(message.detail),
      file: (message) => message.ok && kit.save(message.blob, message.name),
    },
  });
  const { fail, markStale, showError, status: statusLine, result: resultBox } = panelKit;

  // --- choosing inputs -----------------------------------------------------------------------

  function choose(slot, item) {
    if (item && (!Array.isArray(item) || item.length)) chosen[slot] = item;
    else delete chosen[slot];
    const first = Array.isArray(item) ? item[0] : item;
    const said = !chosen[slot]
      ? WORDS.no_file
      : Array.isArray(item) && item.length > 1
        ? WORDS.chosen_files.replace("{count}", String(item.length))
        : (first.sample ? WORDS.chosen_sample : WORDS.chosen_file).replace("{name}", first.name);
    $(`[data-corpus-slot-status="${slot}"]`).textContent = said;
    const clear = $(`[data-corpus-clear-for="${slot}"]`);
    if (clear) clear.hidden = !chosen[slot];
    markStale();
  }

  const fileItem = (file, path) => ({ name: path || file.webkitRelativePath || file.name, file });

  /** The files under a dropped folder (any depth), named by their path from the folder (its name first). */
  async function entryFiles(entry, prefix = "") {
    if (entry.isFile) {
      const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
      return [fileItem(file, prefix + entry.name)];
    }
    const reader = entry.createReader();
    const entries = [];
    for (;;) {
      const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
      if (!batch.length) break;
      entries.push(...batch);
    }
    const found = await Promise.all(entries.map((child) => entryFiles(child, `${prefix}${entry.name}/`)));
    return found.flat().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  for (const slot of SLOTS) {
    const input = fileInput(slot);
    $(`[data-corpus-pick-for="${slot}"]`).addEventListener("click", () => input.click());
    input.addEventListener("change", () => {
      const files = Array.from(input.files || []).map((file) => fileItem(file));
      choose(slot, slot === "corpus" ? files : files[0] || null);
    });
    const clear = $(`[data-corpus-clear-for="${slot}"]`);
    if (clear) {
      clear.addEventListener("click", () => {
        input.value = "";
        choose(slot, null);
        $(`[data-corpus-pick-for="${slot}"]`).focus(); // «Quitar» hides itself
      });
    }
    kit.dropZone($(`[data-corpus-slot="${slot}"]`), async (transfer) => {
      const entries = Array.from(transfer.items || [], (item) => item.webkitGetAsEntry && item.webkitGetAsEntry()).filter(Boolean);
      let files;
      if (slot === "corpus" && entries.some((entry) => entry.isDirectory)) {
        files = (await Promise.all(entries.map((entry) => entryFiles(entry)))).flat();
      } else {
        files = Array.from(transfer.files || [], (file) => fileItem(file));
      }
      choose(slot, slot === "corpus" ? files : files[0] || null);
    });
  }

  // --- settings, and the chunking panel's link ---------------------------------------------------

  function requestKey() {
    return JSON.stringify([SETTINGS.map((name) => setting(name).value), SLOTS.map((slot) => chosen[slot] || null)]);
  }
  for (const name of SETTINGS) setting(name).addEventListener("input", markStale);

  const link = document.querySelector('[data-action="corpus-from-chunking"]');
  if (link) {
    link.addEventListener("click", (event) => {
      const chunk = document.querySelector('[name="chunk"]');
      const overlap = document.querySelector('[name="solape"]');
      if (!chunk || !overlap || !/^\d+$/.test(chunk.value.trim()) || !/^\d+$/.test(overlap.value.trim())) return;
      event.preventDefault();
      const name = `${chunk.value.trim()}:${overlap.value.trim()}`;
      const sweep = setting("sweep");
      const listed = sweep.value.split(/[\s,]+/).filter(Boolean);
      if (!listed.includes(name)) sweep.value = [name, ...listed].join(" ");
      // The configuration the reader came with is the baseline, whether it was listed or not (and WORDS.carried says so).
      setting("baseline").value = name;
      panel.scrollIntoView({ block: "start" });
      sweep.focus();
      statusLine.textContent = WORDS.carried.replace("{name}", name);
      markStale();
    });
  }

  // --- the sample ------------------------------------------------------------------------------

  button("corpus-sample").addEventListener("click", () =>
    // Each under its own name: the published file's may differ (raglab_site/corpus_site.py).
    panelKit.sample(config.corpus.sample, ([corpus, evidence]) => {
      choose("corpus", [corpus]);
      choose("evidence", evidence);
      for (const slot of ["queries", "qrels", "chunks", "run"]) {
        fileInput(slot).value = "";
        choose(slot, null);
      }
      measure();
    })
  );

  // --- measuring --------------------------------------------------------------------------------

  const CLEARED = ["head", "rows", "warnings", "plot", "legend"];
  let previous = null; // the finished results a new measurement set aside, until it ends

  function clearResult() {
    resultBox.hidden = true;
    out("after").hidden = true;
    for (const name of CLEARED) out(name).replaceChildren();
    $("[data-corpus-warnings]").hidden = true;
    view = null;
  }

  /** Before a new measurement streams its rows in: set the finished results aside (kept if it is cancelled). */
  function setAside() {
    previous = view && !resultBox.hidden
      ? { view, warned: !$("[data-corpus-warnings]").hidden, nodes: CLEARED.map((name) => [...out(name).childNodes]) }
      : null;
    clearResult();
  }

  /** «Cancelar»: the results set aside come back (panel-kit marks them as previous); false if there were none. */
  function keepPrevious() {
    if (!previous) return false;
    CLEARED.forEach((name, index) => out(name).replaceChildren(...previous.nodes[index]));
    $("[data-corpus-warnings]").hidden = !previous.warned;
    view = previous.view;
    resultBox.hidden = false;
    out("after").hidden = false;
    previous = null;
    return true;
  }

  /** The controls an error is about: a setting's field, or a file's button. */
  function fieldControls(field) {
    if (SETTINGS.includes(field)) return [setting(field)];
    if (SLOTS.includes(field)) return [$(`[data-corpus-pick-for="${field}"]`)];
    return [];
  }

  function measure() {
    if (panelKit.busy) return;
    showError("");
    if (!chosen.corpus || !(chosen.evidence || chosen.qrels)) return fail(WORDS.missing, [], chosen.corpus ? "evidence" : "corpus");
    setAside();
    const request = { corpus: chosen.corpus };
    for (const slot of SLOTS.slice(1)) request[slot] = chosen[slot] || null;
    for (const name of SETTINGS) request[name] = setting(name).value;
    panelKit.begin("measure", { request });
  }

  button("corpus-run").addEventListener("click", measure);

  // --- the table ----------------------------------------------------------------------------------

  function row(data) {
    const tr = el("tr", { "data-config": data.name });
    if (data.baseline) tr.dataset.baseline = "true";
    tr.append(
      el("th", { scope: "row" }, data.name),
      el("td", { "data-value": data.chunks }, data.chunks_text),
      el("td", { "data-value": data.indexed_tokens ?? "" }, data.indexed_text),
      el("td", { "data-value": data.duplication ?? "" }, data.duplication_text)
    );
    for (const cell of data.cells) {
      const td = el("td", { "data-measure": cell.measure, "data-value": cell.raw ?? "" });
      td.append(el("span", { class: "corpus-mean" }, cell.text));
      if (cell.mark) {
        td.dataset.pAdjusted = cell.p_adjusted;
        td.dataset.meanDelta = cell.delta;
        td.append(el("span", { class: "corpus-mark", "aria-hidden": "true" }, cell.mark), el("span", { class: "visually-hidden" }, cell.detail ? cell.mark_said : ` (${cell.mark_text})`));
      } else if (cell.p_adjusted !== undefined) {
        td.dataset.pAdjusted = cell.p_adjusted;
        td.dataset.meanDelta = cell.delta;
      }
      if (cell.ci_text) td.append(el("span", { class: "corpus-ci" }, cell.ci_text));
      // Δ and p behind the mark (or its absence): seen, heard, and said in full on hover.
      if (cell.detail) {
        td.append(el("span", { class: "corpus-detail" }, cell.detail));
        td.title = cell.detail_title;
      }
      tr.append(td);
    }
    return tr;
  }

  // --- the finished panel ---------------------------------------------------------------------------

  function show(data) {
    view = data;
    previous = null;
    resultBox.hidden = false;
    out("summary").textContent = data.summary;
    out("warnings").replaceChildren(...data.warnings.map((warning) => el("li", { "data-code": warning.code }, warning.text)));
    $("[data-corpus-warnings]").hidden = data.warnings.length === 0;
    out("caption").textContent = data.caption;
    out("head").replaceChildren(kit.headRow(data.columns));
    out("rows").replaceChildren(...data.rows.map(row));
    out("after").hidden = false;
    kit.options(setting("plot-measure"), data.measures.map((name) => [name, name]), data.lead);
    drawPlot();
    const configs = data.configs.map((name, index) => [String(index), name]);
    kit.options(setting("download-config"), configs, "0");
    kit.options(setting("corpus-first"), configs, "0");
    kit.options(setting("corpus-second"), configs, String(Math.min(1, configs.length - 1)));
    kit.options(setting("corpus-query"), data.queries, data.queries.length ? data.queries[0][0] : undefined);
    clearDetail();
    askDetail();
  }

  let plotLayout = ""; // "wide" or "narrow": the layout drawn (Python lays out both)

  function drawPlot() {
    if (!view) return;
    const name = setting("plot-measure").value;
    const figure = out("plot").closest("figure");
    const wide = view.plots[name];
    // The phone's layout wherever the desktop's would be scaled down (its text under 11 px).
    plotLayout = figure.clientWidth >= wide.width ? "wide" : "narrow";
    const plot = plotLayout === "wide" ? wide : wide.narrow;
    out("plot-title").textContent = plot.title;
    kit.reading(out("reading"), view.readings[name]);
    const chart = out("plot");
    chart.setAttribute("aria-label", plot.description);
    chart.setAttribute("viewBox", `0 0 ${plot.width} ${plot.height}`);
    chart.style.aspectRatio = `${plot.width} / ${plot.height}`;
    chart.dataset.layout = plotLayout;
    const { left, right, top, bottom } = plot.frame;
    const parts = [
      svg("line", { x1: left, x2: right, y1: bottom, y2: bottom, class: "axis" }),
      svg("line", { x1: left, x2: left, y1: top, y2: bottom, class: "axis" }),
    ];
    for (const tick of plot.x_ticks) {
      parts.push(svg("line", { x1: tick.at, x2: tick.at, y1: bottom, y2: bottom + 4, class: "axis" }));
      parts.push(svg("text", { x: tick.at, y: bottom + 16, "text-anchor": "middle", class: "tick" }, tick.text));
    }
    for (const tick of plot.y_ticks) {
      parts.push(svg("line", { x1: left, x2: right, y1: tick.at, y2: tick.at, class: "grid" }));
      parts.push(svg("text", { x: left - 6, y: tick.at + 4, "text-anchor": "end", class: "tick" }, tick.text));
    }
    parts.push(svg("text", { x: (left + right) / 2, y: plot.height - 4, "text-anchor": "middle", class: "label" }, plot.x_label));
    for (const point of plot.points) {
      const group = svg("g", { class: point.baseline ? "point baseline" : "point", "data-config": point.name });
      group.append(
        svg("title", {}, point.text),
        svg("line", { x1: point.cx, x2: point.cx, y1: point.y1, y2: point.y2, class: "interval" }),
        svg("circle", { cx: point.cx, cy: point.cy, r: 4.5 })
      );
      if (point.leader) {
        const [x1, y1, x2, y2] = point.leader;
        group.append(svg("line", { x1, y1, x2, y2, class: "leader" }));
      }
      group.append(svg("text", { x: point.label_x, y: point.label_y, "text-anchor": point.label_anchor, class: "name" }, point.label));
      parts.push(group);
    }
    chart.replaceChildren(...parts);
    const legend = out("legend");
    legend.replaceChildren(
      ...plot.legend.map((item) => {
        const entry = el("li", { "data-config": item.name });
        entry.append(el("span", { class: "corpus-legend-number" }, item.number), " ", item.name);
        return entry;
      })
    );
    legend.setAttribute("aria-label", plot.legend_title);
    legend.hidden = plot.legend.length === 0;
  }
  // A change of width that changes the layout (a phone turned, a window resized) draws the plot again.
  new ResizeObserver(() => {
    const figure = out("plot").closest("figure");
    if (view && !out("after").hidden && (figure.clientWidth >= view.plots[setting("plot-measure").value].width ? "wide" : "narrow") !== plotLayout) drawPlot();
  }).observe(out("plot").closest("figure"));
  setting("plot-measure").addEventListener("change", drawPlot);

  // --- one query in detail --------------------------------------------------------------------------

  function clearDetail() {
    for (const name of ["query", "spanless", "judged"]) detailBox.querySelector(`[data-corpus-detail="${name}"]`).textContent = "";
    for (const name of ["spans", "columns"]) detailBox.querySelector(`[data-corpus-detail="${name}"]`).replaceChildren();
  }

  function askDetail() {
    if (panelKit.busy || !view) return;
    panelKit.ask("open", {
      qid: setting("corpus-query").value,
      first: Number(setting("corpus-first").value),
      second: Number(setting("corpus-second").value),
    });
  }
  for (const name of ["corpus-query", "corpus-first", "corpus-second"]) setting(name).addEventListener("change", askDetail);

  function showDetail(detail) {
    const part = (name) => detailBox.querySelector(`[data-corpus-detail="${name}"]`);
    part("query").textContent = `${detail.title}: ${detail.query}`;
    part("spanless").textContent = detail.no_spans;
    part("judged").textContent = detail.judged;
    part("spans").replaceChildren(
      ...detail.spans.map((span) => {
        const item = el("li", { "data-span": span.number });
        item.append(el("strong", {}, span.label), el("q", {}, span.text));
        return item;
      })
    );
    part("columns").replaceChildren(
      ...detail.columns.map((column) => {
        const box = el("div", { class: "query-detail-run", "data-config": column.name });
        box.append(el("h4", {}, column.caption));
        if (column.ceiling) box.append(el("p", { class: "hint" }, column.ceiling));
        if (column.empty) box.append(el("p", {}, column.empty));
        const list = el("ol");
        for (const chunk of column.chunks) {
          const item = el("li", { "data-chunk": chunk.id, "data-whole": chunk.whole.join(" "), "data-cut": chunk.cut.join(" ") });
          item.append(el("span", { class: "doc-id" }, chunk.id), el("span", { class: "doc-grade" }, chunk.score),
            el("span", { class: "corpus-relation" }, chunk.relation), el("span", { class: "corpus-chunk-text" }, chunk.text));
          list.append(item);
        }
        box.append(list);
        return box;
      })
    );
  }

  // --- downloads: the worker builds them; here they are only saved ---------------------------------

  for (const kind of ["json", "chunks", "chunk-run", "document-run"]) {
    button(`corpus-download-${kind}`).addEventListener("click", () => {
      if (view) panelKit.ask("export", { kind, index: Number(setting("download-config").value) });
    });
  }
})();
