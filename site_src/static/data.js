/* data.js — the «Tus datos» panel: choose qrels and runs, evaluate them in a worker, show the result.
 *
 * Files (File objects, never read here) go to a worker of their own, which streams them into Python
 * (so the lab's sliders stay live, and «Cancelar» can simply stop it); raglab_core.runs.panel parses,
 * evaluates and words everything. This file only hands files over and writes the returned panel
 * out — as text nodes.
 */
(() => {
  "use strict";

  const panel = document.querySelector('[data-panel="data"]');
  const config = JSON.parse(document.getElementById("lab-config").textContent);
  const WORDS = config.data.words; // raglab_core.words.data_panel_words: every sentence of this file
  const LETTERS = "abcdefghijkl".slice(0, config.data.max_runs).split(""); // the runs' slots, as ranx letters them
  const RUN_SLOTS = LETTERS.map((letter) => `run-${letter}`);
  const SLOTS = ["qrels", ...RUN_SLOTS];
  const chosen = {}; // slot -> {name, file} | {name, text}
  const $ = (selector) => panel.querySelector(selector);
  const out = (name) => panel.querySelector(`[data-panel-output="${name}"]`);
  const statusLine = $("[data-data-status]");
  const errorBox = $("[data-data-error]");
  const errorLine = $("[data-data-error-text]");
  const problemList = $("[data-data-problems]");
  const measuresError = $('[data-data-error-for="measures"]');
  const settings = {
    measures: $('[data-setting="measures"]'),
    ties: $('[data-setting="ties"]'),
    complete: $('[data-setting="complete"]'),
    fuseMethod: $('[data-setting="fuse-method"]'),
    fuseNorm: $('[data-setting="fuse-norm"]'),
    fuseK: $('[data-setting="fuse-k"]'),
    fuseWeights: $('[data-setting="fuse-weights"]'),
    baseline: $('[data-setting="baseline"]'),
    candidate: $('[data-setting="candidate"]'),
  }; // no name: not the lab's controls
  const fuseSources = Array.from(panel.querySelectorAll("[data-fuse-source]"));
  const progressBox = $("[data-data-progress]");
  const progressBar = progressBox.querySelector("progress");
  const buttons = {
    sample: $('[data-action="sample"]'),
    evaluate: $('[data-action="evaluate"]'),
    cancel: $('[data-action="cancel"]'),
    downloadJson: $('[data-action="download-json"]'),
    downloadCsv: $('[data-action="download-csv"]'),
    downloadFused: $('[data-action="download-fused"]'),
    addRun: $('[data-action="add-run"]'),
    fuse: $('[data-action="fuse"]'),
    unfuse: $('[data-action="unfuse"]'),
  };
  const warningList = $('[data-output="data-warnings"]');
  const detail = out("query-detail");
  let worker = null;
  let busy = false; // an evaluation runs, or the sample files load: no second one starts
  let evaluation = 0; // the id of the latest evaluation: every message about one carries it
  let lastRequestKey = "";
  let fusing = false; // «Fusionar» was pressed: the fused run is evaluated with the others until «Quitar»

  const fill = (template, name) => template.replace("{name}", name);

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
    const said = !item
      ? WORDS.no_file
      : item.file
        ? fill(WORDS.chosen_file, item.name)
        : item.sample
          ? fill(WORDS.chosen_sample, item.name)
          : WORDS.chosen_text;
    $(`[data-slot-status="${slot}"]`).textContent = said;
    if (item) reveal(slot);
    const source = $(`[data-fuse-source-for="${slot}"]`);
    if (source) source.hidden = !item;
    markStale();
  }

  /** Show a run's slot (a file set on a hidden one, or «Añadir run»); the button goes once all are shown. */
  function reveal(slot) {
    $(`[data-slot="${slot}"]`).hidden = false;
    buttons.addRun.hidden = RUN_SLOTS.every((name) => !$(`[data-slot="${name}"]`).hidden);
  }

  buttons.addRun.addEventListener("click", () => {
    const next = RUN_SLOTS.find((name) => $(`[data-slot="${name}"]`).hidden);
    if (!next) return;
    reveal(next);
    $(`[data-pick-for="${next}"]`).focus(); // the new slot's own button: the keyboard goes on from there
  });

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
      choose(slot, area.value.trim() ? { name: WORDS.pasted[slot], text: area.value } : null);
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
    if (busy) return;
    setBusy(true);
    statusLine.textContent = WORDS.loading_sample;
    try {
      const texts = await Promise.all(
        config.sample.map(async (url) => {
          const response = await fetch(url);
          if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
          return { name: url.split("/").pop(), text: await response.text(), sample: true };
        })
      );
      SLOTS.forEach((slot, index) => (texts[index] || chosen[slot]) && choose(slot, texts[index] || null));
    } catch (error) {
      console.error("raglab: sample", error);
      fail(WORDS.sample_failed);
      return;
    }
    setBusy(false);
    evaluate();
  });

  // --- evaluating ----------------------------------------------------------------------------

  /** The fusion the page asks for (raglab_core.runs.fused.fusion_settings reads and checks it). */
  function fusionRequest() {
    const runs = fuseSources
      .filter((box) => box.checked && chosen[RUN_SLOTS[Number(box.dataset.fuseSource)]])
      .map((box) => Number(box.dataset.fuseSource));
    return {
      runs,
      method: settings.fuseMethod.value,
      norm: settings.fuseNorm.value,
      k: settings.fuseK.value,
      weights: settings.fuseWeights.value,
    };
  }

  function requestKey() {
    return JSON.stringify([
      settings.measures.value,
      settings.ties.value,
      settings.complete.checked,
      SLOTS.map((slot) => chosen[slot] || null),
      fusing ? fusionRequest() : null,
    ]);
  }

  function markStale() {
    const result = $("[data-data-result]");
    if (!result.hidden && requestKey() !== lastRequestKey) {
      statusLine.textContent = WORDS.stale;
      result.dataset.stale = "true";
    }
  }
  settings.measures.addEventListener("input", markStale);
  settings.ties.addEventListener("change", markStale);
  settings.complete.addEventListener("change", markStale);
  for (const control of [settings.fuseNorm, settings.fuseK, settings.fuseWeights, ...fuseSources]) {
    control.addEventListener(control.tagName === "INPUT" && control.type === "text" ? "input" : "change", markStale);
  }

  /** Only the chosen method's parameter is shown: RRF's k, or WSUM's weights. */
  function showFuseParams() {
    for (const row of panel.querySelectorAll("[data-fuse-param]")) row.hidden = row.dataset.fuseParam !== settings.fuseMethod.value;
  }
  settings.fuseMethod.addEventListener("change", () => {
    showFuseParams();
    markStale();
  });
  showFuseParams();

  /** The controls an error is about (its `field`, and for a file the slot that holds it). */
  function fieldControls(field, slot) {
    if (field === "measures") return [settings.measures];
    const fusion = {
      "fuse-method": [settings.fuseMethod],
      "fuse-norm": [settings.fuseNorm],
      "fuse-k": [settings.fuseK],
      "fuse-weights": [settings.fuseWeights],
      "fuse-runs": fuseSources.filter((box) => !box.closest("[hidden]")),
    }[field];
    if (fusion) return fusion;
    const run = slot && RUN_SLOTS.includes(`run-${slot.toLowerCase()}`) ? `run-${slot.toLowerCase()}` : "run-a";
    const slots = field === "qrels" ? ["qrels"] : field === "run" ? [run] : [];
    return slots.flatMap((name) => [$(`[data-pick-for="${name}"]`), $(`[data-paste-for="${name}"]`)]).filter(Boolean);
  }

  /** Mark the controls of a failed field invalid, described by the message (none: clear every mark). */
  function markInvalid(controls) {
    for (const control of panel.querySelectorAll("[data-invalid-by-panel]")) {
      control.removeAttribute("aria-invalid");
      control.removeAttribute("data-invalid-by-panel");
      const describedBy = (control.getAttribute("aria-describedby") || "").split(" ").filter((id) => id && id !== errorBox.id);
      if (describedBy.length) control.setAttribute("aria-describedby", describedBy.join(" "));
      else control.removeAttribute("aria-describedby");
    }
    for (const control of controls) {
      control.setAttribute("aria-invalid", "true");
      control.dataset.invalidByPanel = "";
      if (control !== settings.measures) {
        const describedBy = (control.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
        control.setAttribute("aria-describedby", [...describedBy, errorBox.id].join(" "));
      }
    }
  }

  /**
   * A message, and a bad file's problems as a list (Python's lines: at most ten, then how many more),
   * tied to the field it is about; a measures error is written under the measures field.
   */
  function showError(message, problems = [], field = null, slot = null) {
    const onMeasures = field === "measures";
    measuresError.textContent = onMeasures ? message : "";
    errorLine.textContent = onMeasures ? "" : message;
    const items = problems.map((text) => el("li", {}, text));
    problemList.replaceChildren(...items);
    problemList.hidden = items.length === 0;
    markInvalid(message ? fieldControls(field, slot) : []);
  }

  function setBusy(on) {
    busy = on;
    // aria-disabled, not disabled: a disabled button would drop the keyboard focus to <body>.
    for (const button of [buttons.evaluate, buttons.sample]) button.setAttribute("aria-disabled", String(on));
  }

  function setRunning(on) {
    setBusy(on);
    buttons.cancel.hidden = !on;
    progressBox.hidden = !on;
    panel.setAttribute("aria-busy", String(on));
  }

  function dropWorker() {
    if (worker) worker.terminate();
    worker = null;
  }

  function clearResult() {
    const result = $("[data-data-result]");
    result.hidden = true;
    for (const name of ["means-head", "means", "comparison-rows", "per-query-head", "per-query", "chart", "pairs-head", "pairs-rows"]) {
      out(name).replaceChildren();
    }
    out("many").hidden = true;
    out("fused").textContent = "";
    buttons.downloadFused.hidden = true;
    warningList.replaceChildren();
    $("[data-data-warnings]").hidden = true;
    out("complete-note").textContent = "";
    detail.hidden = true;
  }

  function evaluate() {
    if (busy) return;
    showError("");
    if (!chosen.qrels || !chosen["run-a"]) return fail(WORDS.missing, [], "qrels" in chosen ? "run" : "qrels");
    const last = RUN_SLOTS.reduce((found, slot, index) => (chosen[slot] ? index : found), 0);
    const gap = RUN_SLOTS.slice(0, last).findIndex((slot) => !chosen[slot]);
    if (gap >= 0) return fail(fill(WORDS.gap, LETTERS[gap].toUpperCase()), [], "run", LETTERS[gap].toUpperCase());
    if (!window.raglabBoot || !window.raglabBoot.spawn) return fail(WORDS.no_python);
    if (!worker) {
      worker = window.raglabBoot.spawn();
      worker.addEventListener("message", (event) => onMessage(event.data));
      worker.addEventListener("error", (event) => {
        event.preventDefault();
        console.error("raglab: evaluation worker", event.message);
        dropWorker();
        clearResult();
        if (busy) fail(WORDS.stopped);
      });
    }
    lastRequestKey = requestKey();
    evaluation += 1;
    const runs = RUN_SLOTS.map((slot) => chosen[slot]).filter(Boolean);
    setRunning(true);
    progressBar.removeAttribute("value");
    statusLine.textContent = WORDS.preparing;
    worker.postMessage({
      type: "evaluate",
      request: {
        evaluation,
        qrels: chosen.qrels,
        runs,
        measures: settings.measures.value,
        ties: settings.ties.value,
        complete: settings.complete.checked,
        fusion: fusing ? fusionRequest() : null,
      },
    });
  }

  /** The evaluation failed: say so in the status line (a live region), and move the focus to the reason. */
  function fail(message, problems = [], field = null, slot = null) {
    setRunning(false);
    statusLine.textContent = WORDS.failed;
    showError(message, problems, field, slot);
    if (field && field.startsWith("fuse-")) setFusing(false); // «Evaluar» works again without it
    if (field === "measures") settings.measures.focus();
    else errorBox.focus();
  }

  function setFusing(on) {
    fusing = on;
    buttons.unfuse.hidden = !on;
  }

  buttons.evaluate.addEventListener("click", evaluate);
  buttons.fuse.addEventListener("click", () => {
    if (busy) return;
    setFusing(true);
    evaluate();
  });
  buttons.unfuse.addEventListener("click", () => {
    if (busy) return;
    setFusing(false);
    buttons.fuse.focus(); // «Quitar» hides itself
    if (!$("[data-data-result]").hidden) evaluate();
  });
  buttons.cancel.addEventListener("click", () => {
    if (!busy) return;
    dropWorker(); // the only way to stop Python mid-run; the next evaluation starts a new one
    clearResult(); // its rows lived in that worker
    setRunning(false);
    buttons.evaluate.focus(); // Cancel hides itself: the focus must not drop to <body>
    statusLine.textContent = WORDS.cancelled;
  });

  function onMessage(message) {
    // About an evaluation since replaced (the boot's messages, "error" included, carry no id)
    if ("evaluation" in message && message.evaluation !== evaluation) return;
    if (message.type === "eval-progress") {
      progressBar.value = message.fraction;
      statusLine.textContent = message.text;
    } else if (message.type === "evaluated") {
      if (message.ok) {
        show(message.panel, message.evaluation, () => {
          setRunning(false);
          statusLine.textContent = WORDS.done;
        });
      } else {
        if (message.detail) console.error("raglab: evaluation", message.detail);
        fail(message.message, message.problems || [], message.field, message.slot);
      }
    } else if (message.type === "rows") {
      if (onRows) onRows(message);
    } else if (message.type === "detail") {
      if (message.ok) showDetail(message.detail);
    } else if (message.type === "pair") {
      out("pair-error").textContent = message.ok ? "" : message.message;
      out("comparison").hidden = !message.ok;
      if (message.ok) showComparison(message.comparison);
    } else if (message.type === "download") {
      if (message.ok) save(message.blob, message.name);
    } else if (message.type === "error") {
      console.error("raglab: evaluation worker", message.detail);
      dropWorker(); // a worker that failed to boot
      clearResult();
      fail(message.text);
    }
  }
  let onRows = null;

  // --- showing the result ------------------------------------------------------------------------

  function show(view, id, done) {
    const result = $("[data-data-result]");
    result.hidden = false;
    delete result.dataset.stale;
    out("summary").textContent = view.summary;
    // Warnings come first: they say what the numbers below rest on (raglab_core.runs.sanity words them).
    warningList.replaceChildren(...view.warnings.map((warning) => el("li", { "data-code": warning.code }, warning.text)));
    $("[data-data-warnings]").hidden = view.warnings.length === 0;
    out("complete-note").textContent = view.complete_note; // next to the choice that decides how they count
    detail.hidden = true;

    const head = el("tr");
    for (const label of view.means_columns) head.append(el("th", { scope: "col" }, label));
    out("means-head").replaceChildren(head);
    out("means-caption").textContent = view.means_caption;
    out("means").replaceChildren(
      ...view.means.map((run) => {
        const row = el("tr", run.letter ? { "data-run": run.letter } : {});
        const name = el("th", { scope: "row" });
        if (run.letter) name.append(el("span", { class: "run-letter" }, run.letter), " ");
        name.append(run.name);
        row.append(name, el("td", {}, run.queries_text));
        for (const cell of run.cells) {
          const td = el("td", { "data-raw": cell.raw ?? "" }, cell.text);
          // ranx's marks: the letters of the runs this one beats, and the same said in words for screen readers
          if (cell.beats) {
            td.dataset.beats = cell.beats;
            td.append(el("sup", { class: "beats", "aria-hidden": "true" }, cell.beats), el("span", { class: "visually-hidden" }, ` (${cell.beats_text})`));
          }
          row.append(td);
        }
        return row;
      })
    );

    out("fused").textContent = view.fused ? view.fused.description : "";
    buttons.downloadFused.hidden = !view.fused;
    out("many").hidden = !view.many;
    if (view.many) showMany(view.many);
    const comparison = out("comparison");
    comparison.hidden = !view.comparison;
    if (view.comparison) showComparison(view.comparison);
    showPerQuery(view.columns, view.per_query_caption, id, done);
  }

  /** Three runs or more: every pair (one row each, a cell per measure with its raw numbers), the readings,
   * and the pickers of the pair shown in detail below (a and b first). */
  function showMany(many) {
    out("many-reading").textContent = many.reading;
    out("overlap-reading").textContent = many.overlap_reading;
    out("pairs-caption").textContent = many.pairs_caption;
    const head = el("tr");
    for (const label of many.pairs_columns) head.append(el("th", { scope: "col" }, label));
    out("pairs-head").replaceChildren(head);
    out("pairs-rows").replaceChildren(
      ...many.pairs.map((pair) => {
        const row = el("tr", { "data-pair": pair.pair });
        const name = el("th", { scope: "row", title: pair.names });
        name.append(pair.label, el("span", { class: "visually-hidden" }, ` (${pair.names})`));
        row.append(name);
        for (const cell of pair.cells) {
          const td = el("td", {
            "data-measure": cell.measure,
            "data-mean-delta": cell.mean_delta,
            "data-p-value": cell.p_value,
            "data-p-adjusted": cell.p_adjusted,
            "data-significant": String(cell.significant),
          });
          td.append(el("span", { class: "pair-delta" }, cell.delta_text), " ", el("span", { class: "pair-p" }, cell.p_text));
          row.append(td);
        }
        row.append(
          el("td", { "data-overlap": "jaccard@10", "data-raw": pair.jaccard.raw ?? "" }, pair.jaccard.text),
          el("td", { "data-overlap": "rbo", "data-raw": pair.rbo.raw ?? "" }, pair.rbo.text)
        );
        return row;
      })
    );
    out("pair-hint").textContent = many.pair_hint;
    out("pair-error").textContent = "";
    for (const [select, chosenIndex] of [[settings.baseline, 0], [settings.candidate, 1]]) {
      select.replaceChildren(...many.options.map((text, index) => el("option", { value: String(index) }, text)));
      select.value = String(chosenIndex);
    }
  }

  for (const select of [settings.baseline, settings.candidate]) {
    select.addEventListener("change", () => {
      if (!worker || busy) return;
      worker.postMessage({ type: "evaluate-pair", evaluation, baseline: Number(settings.baseline.value),
                           candidate: Number(settings.candidate.value) });
    });
  }

  function showComparison(comparison) {
    out("comparison-title").textContent = comparison.title;
    out("comparison-caption").textContent = comparison.caption;
    out("reading").textContent = comparison.reading;
    const head = el("tr");
    for (const label of comparison.columns) head.append(el("th", { scope: "col" }, label));
    out("comparison-head").replaceChildren(head);
    out("comparison-rows").replaceChildren(
      ...comparison.metrics.map((metric) => {
        const row = el("tr");
        row.append(
          el("th", { scope: "row" }, metric.label),
          el("td", { "data-raw": metric.delta.raw }, metric.delta.text),
          el("td", { "data-low": metric.ci95.raw[0], "data-high": metric.ci95.raw[1] }, metric.ci95.text),
          ...metric.counts_text.map((text) => el("td", {}, text)),
          el("td", { "data-raw": metric.p_value.raw }, metric.p_value.text)
        );
        if (metric.p_adjusted) row.append(el("td", { "data-raw": metric.p_adjusted.raw, "data-p-adjusted": "" }, metric.p_adjusted.text));
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
    svg.setAttribute("aria-label", chart.description);
    const step = width / Math.max(chart.values.length, 1);
    const shape = (tag, attributes) => {
      const node = document.createElementNS(NS, tag);
      for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
      return node;
    };
    const axis = shape("line", { x1: 0, x2: width, y1: middle, y2: middle, class: "axis" });
    if (chart.bars.length < chart.values.length) {
      const at = (coordinate) => Math.round(coordinate * 100) / 100; // to 0.01 px: a short path, still exact enough
      const gains = chart.values.map((value, index) => `L${at(index * step)} ${at(middle - value * scale)}`);
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
      title.textContent = bar.text;
      rect.append(title);
      return rect;
    });
    svg.replaceChildren(axis, ...bars);
  }

  // The per-query table: the worker sorts every query and sends the first rows of that order
  // (config.data.rows_shown), so that thousands of rows never cross to this thread (nor block it).
  // The table asks for the rows of its own evaluation (`id`): a later evaluation's worker refuses.
  function showPerQuery(columns, caption, id, done) {
    const head = el("tr");
    let sortColumn = 0;
    let ascending = true;
    let asked = 0;
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
    out("per-query-caption").textContent = caption;

    function request(index, order) {
      if (!worker || id !== evaluation) return;
      asked += 1;
      const number = asked;
      onRows = (message) => {
        if (message.request !== number || !message.rows) return;
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
      worker.postMessage({ type: "evaluate-rows", evaluation: id, column: index, ascending: order,
                           limit: config.data.rows_shown, request: number });
    }

    function draw(rows) {
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

  // --- one query, opened: each run's first documents side by side (raglab_core.runs.panel.query_detail) ---

  function askDetail(qid) {
    if (worker && !busy) worker.postMessage({ type: "evaluate-detail", evaluation, qid });
  }

  function showDetail(view) {
    detail.querySelector("[data-detail-title]").textContent = view.title;
    detail.querySelector("[data-detail-note]").textContent = view.note;
    const columns = detail.querySelector("[data-detail-runs]");
    // Three runs or more: one row of columns that scrolls sideways (a region the keyboard can scroll).
    for (const [name, value] of [["data-many", ""], ["tabindex", "0"], ["role", "group"], ["aria-label", view.label]]) {
      if (view.many) columns.setAttribute(name, value);
      else columns.removeAttribute(name);
    }
    columns.replaceChildren(
      ...view.runs.map((run) => {
        const column = el("div", run.letter ? { class: "query-detail-run", "data-run": run.letter } : { class: "query-detail-run" });
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

  for (const [button, kind] of [[buttons.downloadJson, "json"], [buttons.downloadCsv, "csv"], [buttons.downloadFused, "fused"]]) {
    button.addEventListener("click", () => worker && worker.postMessage({ type: "evaluate-download", evaluation, kind }));
  }
})();
