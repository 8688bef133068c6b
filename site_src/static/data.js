/* data.js — the «Tus datos» panel: choose qrels and runs, evaluate them in a worker, show the result.
 *
 * Files are read inside the browser and handed to a worker of their own (so the lab's sliders stay
 * live, and «Cancelar» can simply stop it); raglab_core.data_panel parses, evaluates and words
 * everything. This file only moves files in and writes the returned panel out — as text nodes.
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
  const errorLine = $("[data-data-error]");
  const progressBox = $("[data-data-progress]");
  const progressBar = progressBox.querySelector("progress");
  const buttons = {
    sample: $('[data-action="sample"]'),
    evaluate: $('[data-action="evaluate"]'),
    cancel: $('[data-action="cancel"]'),
  };
  let worker = null;
  let running = false;
  let lastRequestKey = "";

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
    input.addEventListener("change", () => {
      const file = input.files && input.files[0];
      choose(slot, file ? { name: file.name, file } : null);
    });
    const area = $(`[data-paste-for="${slot}"]`);
    area.addEventListener("input", () => {
      input.value = "";
      choose(slot, area.value.trim() ? { name: `${slot} (texto pegado)`, text: area.value } : null);
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
      errorLine.textContent = "No se pudieron cargar los datos de ejemplo. Recarga la página.";
    }
  });

  // --- evaluating ----------------------------------------------------------------------------

  function labValue(name) {
    return document.querySelector(`[name="${name}"]`).value;
  }

  function requestKey() {
    return JSON.stringify([labValue("k"), labValue("umbral"), SLOTS.map((slot) => chosen[slot] || null)]);
  }

  function markStale() {
    const result = $("[data-data-result]");
    if (!result.hidden && requestKey() !== lastRequestKey) {
      statusLine.textContent = "Cambiaron los datos, k o el umbral: pulsa «Evaluar» para actualizar los resultados.";
      result.dataset.stale = "true";
    }
  }
  for (const name of ["k", "umbral"]) document.querySelector(`[name="${name}"]`).addEventListener("input", markStale);

  function setRunning(on) {
    running = on;
    buttons.cancel.hidden = !on;
    buttons.evaluate.disabled = on;
    buttons.sample.disabled = on;
    progressBox.hidden = !on;
    panel.setAttribute("aria-busy", String(on));
  }

  function evaluate() {
    errorLine.textContent = "";
    if (!chosen.qrels || !chosen["run-a"]) {
      errorLine.textContent = "Faltan datos: elige al menos los qrels y el run A.";
      return;
    }
    if (!window.raglabBoot || !window.raglabBoot.spawn) {
      errorLine.textContent = "Python no está disponible en esta página (mira el aviso de arriba).";
      return;
    }
    if (!worker) {
      worker = window.raglabBoot.spawn();
      worker.addEventListener("message", (event) => onMessage(event.data));
      worker.addEventListener("error", (event) => {
        event.preventDefault();
        finish();
        worker = null;
        errorLine.textContent = "El cálculo se detuvo. Vuelve a pulsar «Evaluar».";
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
      request: { qrels: chosen.qrels, runs, k: labValue("k"), umbral: labValue("umbral") },
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
      finish();
      if (message.ok) {
        statusLine.textContent = "Evaluación terminada.";
        show(message.panel);
      } else {
        if (message.detail) console.error("raglab: evaluation", message.detail);
        statusLine.textContent = "";
        errorLine.textContent = message.message;
      }
    } else if (message.type === "error") {
      finish();
      worker = null;
      errorLine.textContent = message.text;
      console.error("raglab: evaluation worker", message.detail);
    }
  }

  // --- showing the result ------------------------------------------------------------------------

  function show(view) {
    const result = $("[data-data-result]");
    result.hidden = false;
    delete result.dataset.stale;
    out("summary").textContent = view.summary;

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
    showPerQuery(view.columns, view.rows);
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
  function drawChart(chart) {
    const svg = out("chart");
    const NS = "http://www.w3.org/2000/svg";
    const width = 600;
    const height = 200;
    const middle = height / 2;
    const scale = chart.max > 0 ? (middle - 8) / chart.max : 0;
    const step = width / Math.max(chart.bars.length, 1);
    out("chart-label").textContent = chart.label;
    svg.setAttribute("aria-label", `${chart.label}: ${chart.bars.length} consultas, de mayor ganancia a mayor pérdida.`);
    const axis = document.createElementNS(NS, "line");
    for (const [name, value] of Object.entries({ x1: 0, x2: width, y1: middle, y2: middle, class: "axis" })) {
      axis.setAttribute(name, String(value));
    }
    const bars = chart.bars.map((bar, index) => {
      const rect = document.createElementNS(NS, "rect");
      const length = Math.abs(bar.raw) * scale;
      rect.setAttribute("x", String(index * step + step * 0.1));
      rect.setAttribute("width", String(step * 0.8));
      rect.setAttribute("y", String(bar.raw >= 0 ? middle - length : middle));
      rect.setAttribute("height", String(Math.max(length, 0.5)));
      rect.setAttribute("class", bar.raw > 0 ? "gain" : bar.raw < 0 ? "loss" : "tie");
      const title = document.createElementNS(NS, "title");
      title.textContent = `${bar.qid}: ${bar.text}`;
      rect.append(title);
      return rect;
    });
    svg.replaceChildren(axis, ...bars);
  }

  function showPerQuery(columns, rows) {
    const head = el("tr");
    let sortColumn = 0;
    let ascending = true;
    const headers = columns.map((label, index) => {
      const th = el("th", { scope: "col", "aria-sort": index === 0 ? "ascending" : "none" });
      const button = el("button", { type: "button" }, label);
      button.addEventListener("click", () => {
        ascending = sortColumn === index ? !ascending : index === 0;
        sortColumn = index;
        headers.forEach((other, i) =>
          other.setAttribute("aria-sort", i === index ? (ascending ? "ascending" : "descending") : "none")
        );
        render();
      });
      th.append(button);
      head.append(th);
      return th;
    });
    out("per-query-head").replaceChildren(head);

    function render() {
      // Undefined values (—) always sort last.
      const sorted = rows.slice().sort((a, b) => {
        const x = a[sortColumn].raw;
        const y = b[sortColumn].raw;
        if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
        const order = x < y ? -1 : x > y ? 1 : 0;
        return ascending ? order : -order;
      });
      out("per-query").replaceChildren(
        ...sorted.map((cells) => {
          const row = el("tr");
          cells.forEach((cell, index) =>
            row.append(el(index === 0 ? "th" : "td", index === 0 ? { scope: "row" } : { "data-raw": cell.raw ?? "" }, cell.text))
          );
          return row;
        })
      );
    }
    render();
  }
})();
