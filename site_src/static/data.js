/* data.js — the «Tus datos» panel: choose qrels and runs, evaluate them in a worker, show the result.
 *
 * Files (File objects, never read here) go to a worker of their own, which streams them into Python
 * (so the lab's sliders stay live, and «Cancelar» can simply stop it); raglab_core.data_panel parses,
 * evaluates and words everything. This file only hands files over and writes the returned panel
 * out — as text nodes.
 */
(() => {
  "use strict";

  const panel = document.querySelector('[data-panel="data"]');
  const config = JSON.parse(document.getElementById("lab-config").textContent);
  const SLOTS = ["qrels", "run-a", "run-b"];
  const chosen = {}; // slot -> {name, file} | {name, text}
  const $ = (selector) => panel.querySelector(selector);
  const out = (name) => panel.querySelector(`[data-panel-output="${name}"]`);
  const statusLine = $("[data-data-status]");
  const errorLine = $("[data-data-error-text]");
  const problemList = $("[data-data-problems]");
  const settings = {
    measures: $('[data-setting="measures"]'),
    ties: $('[data-setting="ties"]'),
    complete: $('[data-setting="complete"]'),
  }; // no name: not the lab's controls
  const SLOT_NAMES = { qrels: "qrels", "run-a": "run A", "run-b": "run B" };
  const MAX_ROWS = 200; // per-query rows drawn at once (the sort still covers every query)
  const progressBox = $("[data-data-progress]");
  const progressBar = progressBox.querySelector("progress");
  const buttons = {
    sample: $('[data-action="sample"]'),
    evaluate: $('[data-action="evaluate"]'),
    cancel: $('[data-action="cancel"]'),
    downloadJson: $('[data-action="download-json"]'),
    downloadCsv: $('[data-action="download-csv"]'),
  };
  const warningList = $('[data-output="data-warnings"]');
  const detail = out("query-detail");
  let worker = null;
  let running = false;
  let rowsRequest = 0; // the per-query rows live in the worker: the page asks for the ones it draws
  let onRows = null;
  let lastRequestKey = "";

  // An integer as the page writes it (RAE: groups of three with a no-break space, from five digits).
  const integer = (n) => (String(n).length > 4 ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, "\u00a0") : String(n));

  function el(tag, attributes = {}, text) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // --- choosing inputs -----------------------------------------------------------------------

  function choose(slot, item) {
    if (item) chosen[slot] = item;
    else delete chosen[slot];
    const where = !item ? null : item.file ? `fichero «${item.name}»` : item.sample ? `ejemplo «${item.name}»` : "texto pegado";
    $(`[data-slot-status="${slot}"]`).textContent = where ? `Elegido: ${where}.` : "Sin fichero.";
    markStale();
  }

  for (const slot of SLOTS) {
    const input = $(`[data-file-for="${slot}"]`);
    $(`[data-pick-for="${slot}"]`).addEventListener("click", () => input.click());
    input.addEventListener("change", () => {
      const file = input.files && input.files[0];
      choose(slot, file ? { name: file.name, file } : null);
    });
    const area = $(`[data-paste-for="${slot}"]`);
    area.addEventListener("input", () => {
      input.value = "";
      choose(slot, area.value.trim() ? { name: `${SLOT_NAMES[slot]} (texto pegado)`, text: area.value } : null);
    });
    const zone = $(`[data-slot="${slot}"]`);
    zone.addEventListener("dragover", (event) => {
      event.preventDefault();
      zone.dataset.dragging = "true";
    });
    zone.addEventListener("dragleave", () => delete zone.dataset.dragging);
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      delete zone.dataset.dragging;
      const file = event.dataTransfer && event.dataTransfer.files[0];
      if (file) choose(slot, { name: file.name, file });
    });
  }

  buttons.sample.addEventListener("click", async () => {
    try {
      const texts = await Promise.all(
        config.sample.map(async (url) => {
          const response = await fetch(url);
          if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
          return { name: url.split("/").pop(), text: await response.text(), sample: true };
        })
      );
      SLOTS.forEach((slot, index) => choose(slot, texts[index] || null));
      evaluate();
    } catch (error) {
      console.error("raglab: sample", error);
      showError("No se pudieron cargar los datos de ejemplo. Recarga la página.");
    }
  });

  // --- evaluating ----------------------------------------------------------------------------

  function requestKey() {
    return JSON.stringify([
      settings.measures.value,
      settings.ties.value,
      settings.complete.checked,
      SLOTS.map((slot) => chosen[slot] || null),
    ]);
  }

  function markStale() {
    const result = $("[data-data-result]");
    if (!result.hidden && requestKey() !== lastRequestKey) {
      statusLine.textContent = "Cambiaron los datos o las medidas: pulsa «Evaluar» para actualizar los resultados.";
      result.dataset.stale = "true";
    }
  }
  settings.measures.addEventListener("input", markStale);
  settings.ties.addEventListener("change", markStale);
  settings.complete.addEventListener("change", markStale);

  /** A message, and a bad file's problems as a list (Python's lines: at most ten, then how many more). */
  function showError(message, problems = []) {
    errorLine.textContent = message;
    const items = problems.map((text) => el("li", {}, text));
    problemList.replaceChildren(...items);
    problemList.hidden = items.length === 0;
  }

  function setRunning(on) {
    running = on;
    buttons.cancel.hidden = !on;
    buttons.evaluate.disabled = on;
    buttons.sample.disabled = on;
    progressBox.hidden = !on;
    panel.setAttribute("aria-busy", String(on));
  }

  function evaluate() {
    showError("");
    if (!chosen.qrels || !chosen["run-a"]) {
      showError("Faltan datos: elige al menos los qrels y el run A.");
      return;
    }
    if (!window.raglabBoot || !window.raglabBoot.spawn) {
      showError("Python no está disponible en esta página (mira el aviso de arriba).");
      return;
    }
    if (!worker) {
      worker = window.raglabBoot.spawn();
      worker.addEventListener("message", (event) => onMessage(event.data));
      worker.addEventListener("error", (event) => {
        event.preventDefault();
        finish();
        worker = null;
        showError("El cálculo se detuvo. Vuelve a pulsar «Evaluar».");
        console.error("raglab: evaluation worker", event.message);
      });
    }
    lastRequestKey = requestKey();
    const runs = [chosen["run-a"], chosen["run-b"]].filter(Boolean);
    setRunning(true);
    progressBar.removeAttribute("value");
    statusLine.textContent = "Preparando Python para evaluar…";
    worker.postMessage({
      type: "evaluate",
      request: {
        qrels: chosen.qrels,
        runs,
        measures: settings.measures.value,
        ties: settings.ties.value,
        complete: settings.complete.checked,
      },
    });
  }

  function finish() {
    setRunning(false);
  }

  buttons.evaluate.addEventListener("click", evaluate);
  buttons.cancel.addEventListener("click", () => {
    if (!running) return;
    worker.terminate(); // the only way to stop Python mid-run; the next evaluation starts a new one
    worker = null;
    finish();
    statusLine.textContent = "Evaluación cancelada.";
  });

  function onMessage(message) {
    if (message.type === "eval-progress") {
      progressBar.value = message.fraction;
      statusLine.textContent = message.text;
    } else if (message.type === "evaluated") {
      if (message.ok) {
        show(message.panel, () => {
          finish();
          statusLine.textContent = "Evaluación terminada.";
        });
      } else {
        finish();
        if (message.detail) console.error("raglab: evaluation", message.detail);
        statusLine.textContent = "";
        showError(message.message, message.problems || []);
      }
    } else if (message.type === "rows") {
      if (message.request === rowsRequest && onRows) onRows(message);
    } else if (message.type === "detail") {
      if (message.ok) showDetail(message.detail);
    } else if (message.type === "download") {
      if (message.ok) save(message.blob, message.name);
    } else if (message.type === "error") {
      finish();
      worker = null;
      showError(message.text);
      console.error("raglab: evaluation worker", message.detail);
    }
  }

  // --- showing the result ------------------------------------------------------------------------

  function show(view, done) {
    const result = $("[data-data-result]");
    result.hidden = false;
    delete result.dataset.stale;
    out("summary").textContent = view.summary;
    // Warnings come first: they say what the numbers below rest on (raglab_core.sanity words them).
    warningList.replaceChildren(...view.warnings.map((warning) => el("li", { "data-code": warning.code }, warning.text)));
    $("[data-data-warnings]").hidden = view.warnings.length === 0;
    detail.hidden = true;

    const head = el("tr");
    head.append(el("th", { scope: "col" }, "Run"), el("th", { scope: "col" }, "Consultas"));
    for (const label of view.metric_labels) head.append(el("th", { scope: "col" }, label));
    out("means-head").replaceChildren(head);
    out("means").replaceChildren(
      ...view.means.map((run) => {
        const row = el("tr");
        row.append(el("th", { scope: "row" }, run.name), el("td", {}, String(run.queries)));
        for (const cell of run.cells) row.append(el("td", { "data-raw": cell.raw ?? "" }, cell.text));
        return row;
      })
    );

    const comparison = out("comparison");
    comparison.hidden = !view.comparison;
    if (view.comparison) showComparison(view.comparison);
    showPerQuery(view.columns, view.row_count, done);
  }

  function showComparison(comparison) {
    out("comparison-caption").textContent = comparison.caption;
    out("reading").textContent = comparison.reading;
    out("comparison-rows").replaceChildren(
      ...comparison.metrics.map((metric) => {
        const row = el("tr");
        row.append(
          el("th", { scope: "row" }, metric.label),
          el("td", { "data-raw": metric.delta.raw }, metric.delta.text),
          el("td", { "data-low": metric.ci95.raw[0], "data-high": metric.ci95.raw[1] }, metric.ci95.text),
          el("td", {}, String(metric.wins)),
          el("td", {}, String(metric.ties)),
          el("td", {}, String(metric.losses)),
          el("td", { "data-raw": metric.p_value.raw }, metric.p_value.text)
        );
        return row;
      })
    );
    drawChart(comparison.chart);
  }

  // Bars of the per-query differences, largest gain first; drawing only (the numbers are Python's).
  // Up to 600 queries, one bar each (with its value as a tooltip); beyond, one path through the
  // values, as bars would be thinner than a pixel.
  function drawChart(chart) {
    const svg = out("chart");
    const NS = "http://www.w3.org/2000/svg";
    const width = 600;
    const height = 200;
    const middle = height / 2;
    const scale = chart.max > 0 ? (middle - 8) / chart.max : 0;
    out("chart-label").textContent = chart.label;
    out("chart-y-label").textContent = chart.y_label;
    out("chart-x-label").textContent = chart.x_label;
    out("chart-ticks").replaceChildren(...chart.ticks.map((tick) => el("li", {}, tick)));
    svg.setAttribute(
      "aria-label",
      `${chart.label}: ${chart.x_label}; el eje vertical va de ${chart.ticks[2]} a ${chart.ticks[0]}.`
    );
    const step = width / Math.max(chart.values.length, 1);
    const shape = (tag, attributes) => {
      const node = document.createElementNS(NS, tag);
      for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
      return node;
    };
    const axis = shape("line", { x1: 0, x2: width, y1: middle, y2: middle, class: "axis" });
    if (chart.bars.length < chart.values.length) {
      const gains = chart.values.map((value, index) => `L${(index * step).toFixed(2)} ${(middle - value * scale).toFixed(2)}`);
      const d = `M0 ${middle} ${gains.join(" ")} L${width} ${middle} Z`;
      svg.replaceChildren(axis, shape("path", { d, class: "area" }));
      return;
    }
    const bars = chart.bars.map((bar, index) => {
      const length = Math.abs(bar.raw) * scale;
      const rect = shape("rect", {
        x: index * step + step * 0.1,
        width: step * 0.8,
        y: bar.raw >= 0 ? middle - length : middle,
        height: Math.max(length, 0.5),
        class: bar.raw > 0 ? "gain" : bar.raw < 0 ? "loss" : "tie",
      });
      const title = document.createElementNS(NS, "title");
      title.textContent = `${bar.qid}: ${bar.text}`;
      rect.append(title);
      return rect;
    });
    svg.replaceChildren(axis, ...bars);
  }

  // The per-query table: the worker sorts every query and sends the first MAX_ROWS of that order,
  // so that thousands of rows never cross to this thread (nor block it).
  function showPerQuery(columns, total, done) {
    const head = el("tr");
    let sortColumn = 0;
    let ascending = true;
    const headers = columns.map((label, index) => {
      const th = el("th", { scope: "col", "aria-sort": "none" });
      const button = el("button", { type: "button" }, label);
      button.addEventListener("click", () => {
        request(index, sortColumn === index ? !ascending : index === 0);
      });
      th.append(button);
      head.append(th);
      return th;
    });
    out("per-query-head").replaceChildren(head);

    function request(index, order) {
      if (!worker) return;
      rowsRequest += 1;
      onRows = (message) => {
        sortColumn = index;
        ascending = order;
        headers.forEach((other, i) =>
          other.setAttribute("aria-sort", i === index ? (ascending ? "ascending" : "descending") : "none")
        );
        draw(message.rows);
        if (done) {
          done();
          done = null;
        }
      };
      worker.postMessage({ type: "evaluate-rows", column: index, ascending: order, limit: MAX_ROWS, request: rowsRequest });
    }

    function draw(rows) {
      out("per-query-caption").textContent =
        rows.length < total
          ? `Por consulta: las ${rows.length} primeras de ${integer(total)} según el orden elegido (pulsa una cabecera para ordenar)`
          : "Por consulta (pulsa una cabecera para ordenar)";
      out("per-query").replaceChildren(
        ...rows.map((cells) => {
          const row = el("tr", { "data-query": cells[0].raw });
          // The query's own button opens its detail (keyboard); a click anywhere on the row does too.
          const head = el("th", { scope: "row" });
          head.append(el("button", { type: "button", "aria-controls": "query-detail" }, cells[0].text));
          row.append(head);
          cells.slice(1).forEach((cell) => row.append(el("td", { "data-raw": cell.raw ?? "" }, cell.text)));
          row.addEventListener("click", () => askDetail(cells[0].raw));
          return row;
        })
      );
    }
    request(0, true);
  }

  // --- one query, opened: each run's first documents side by side (raglab_core.data_panel.query_detail) ---

  function askDetail(qid) {
    if (worker && !running) worker.postMessage({ type: "evaluate-detail", qid });
  }

  function showDetail(view) {
    detail.querySelector("[data-detail-title]").textContent = view.title;
    detail.querySelector("[data-detail-note]").textContent = view.note;
    detail.querySelector("[data-detail-runs]").replaceChildren(
      ...view.runs.map((run) => {
        const column = el("div", { class: "query-detail-run" });
        column.append(el("h4", {}, run.caption));
        if (run.empty) column.append(el("p", {}, run.empty));
        const list = el("ol");
        for (const doc of run.documents) {
          const item = el("li", { "data-doc": doc.id, "data-grade": doc.grade ?? "", "data-shared": String(doc.shared) });
          item.append(el("span", { class: "doc-id" }, doc.id), el("span", { class: "doc-grade" }, doc.grade_text));
          if (doc.shared) item.append(el("span", { class: "doc-shared" }, view.shared_text));
          list.append(item);
        }
        column.append(list);
        return column;
      })
    );
    detail.hidden = false;
    detail.focus();
  }

  // --- downloads: the worker builds them from what it holds; here they are only saved ---------------

  function save(blob, name) {
    const url = URL.createObjectURL(blob);
    const link = el("a", { href: url, download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  buttons.downloadJson.addEventListener("click", () => worker && worker.postMessage({ type: "evaluate-download", kind: "json" }));
  buttons.downloadCsv.addEventListener("click", () => worker && worker.postMessage({ type: "evaluate-download", kind: "csv" }));
})();
