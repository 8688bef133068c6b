/* data.js — the «Tus datos» panel: choose qrels and runs, evaluate them in a worker, show the result.
 *
 * Files (File objects, never read here) go to a worker of their own, which streams them into Python
 * (so the lab's sliders stay live, and «Cancelar» can simply stop it); raglab_core.runs.panel parses,
 * evaluates and words everything. This file only hands files over and writes the returned panel
 * out — as text nodes. The machinery every panel shares (its worker, busy state, errors, messages)
 * is panel-kit.js's, and «¿Te fías de tus juicios?»'s view is written by agreement.js: both are loaded
 * before this file (boot.js loads the three on the panel's first use).
 */
(() => {
  "use strict";

  const panel = document.querySelector('[data-panel="data"]');
  if (!panel) return;
  const kit = window.raglabPanelKit;
  const { el } = kit;
  const config = JSON.parse(document.getElementById("lab-config").textContent);
  const WORDS = config.data.words; // raglab_core.words.data_panel_words: every sentence of this file
  const LETTERS = config.runSlots.slice(0, config.data.max_runs); // raglab_core.runs.inputs.SLOTS: A, B, …
  const RUN_SLOTS = LETTERS.map((letter) => `run-${letter.toLowerCase()}`);
  const JUDGE = "judge-qrels"; // the judge's qrels, compared with the qrels in «¿Te fías de tus juicios?»
  const SLOTS = ["qrels", JUDGE, ...RUN_SLOTS];
  const chosen = {}; // slot -> {name, file} | {name, text}
  const $ = (selector) => panel.querySelector(selector);
  const out = (name) => panel.querySelector(`[data-panel-output="${name}"]`);
  const measuresError = $('[data-data-error-for="measures"]');
  const settings = {
    measures: $('[data-setting="measures"]'),
    ties: $('[data-setting="ties"]'),
    complete: $('[data-setting="complete"]'),
    judgeForRuns: $('[data-setting="judge-for-runs"]'),
    fuseMethod: $('[data-setting="fuse-method"]'),
    fuseNorm: $('[data-setting="fuse-norm"]'),
    fuseK: $('[data-setting="fuse-k"]'),
    fuseWeights: $('[data-setting="fuse-weights"]'),
    baseline: $('[data-setting="baseline"]'),
    candidate: $('[data-setting="candidate"]'),
  }; // no name: not the lab's controls
  const fuseSources = Array.from(panel.querySelectorAll("[data-fuse-source]"));
  const buttons = {
    sample: $('[data-action="sample"]'),
    evaluate: $('[data-action="evaluate"]'),
    cancel: $('[data-action="cancel"]'),
    downloadJson: $('[data-action="download-json"]'),
    downloadCsv: $('[data-action="download-csv"]'),
    downloadFused: $('[data-action="download-fused"]'),
    downloadAgreement: $('[data-action="download-agreement"]'),
    addRun: $('[data-action="add-run"]'),
    fuse: $('[data-action="fuse"]'),
    unfuse: $('[data-action="unfuse"]'),
  };
  const warningList = $('[data-output="data-warnings"]');
  const agreement = $("[data-data-agreement]");
  const detail = out("query-detail");
  let fusing = false; // «Fusionar» was pressed: the fused run is evaluated with the others until «Quitar»

  const fill = (template, name) => template.replace("{name}", name);

  const panelKit = kit.panel({
    name: "data", label: "evaluation", root: panel, words: WORDS,
    actions: { start: "evaluate", cancel: "cancel", sample: "sample" },
    fieldLines: { measures: measuresError }, // written under the field, which then takes the focus
    fieldControls, requestKey, clearResult,
    keepPrevious: () => !$("[data-data-result]").hidden, // a re-run leaves the results on screen until it ends
    onFail: (field) => {
      if (!field || !field.startsWith("fuse-")) return;
      setFusing(false); // «Evaluar» works again without it
      statusLine.textContent = WORDS.fusion_failed; // only the fusion was refused
    },
    on: {
      result: (message) => {
        if (message.ok) {
          const finished = () => {
            panelKit.setRunning(false);
            statusLine.textContent = WORDS.done;
          };
          agreement.hidden = true; // shown again only with a judge's qrels
          if (message.panel.agreement) window.raglabAgreement.show(panel, message.panel.agreement);
          if (message.panel.means) show(message.panel, message.id, finished);
          else finished(); // the judges compared, no run
        } else {
          if (message.detail) console.error("raglab: evaluation", message.detail);
          fail(message.message, message.problems || [], message.field, message.slot);
        }
      },
      rows: (message) => onRows && onRows(message),
      detail: (message) => message.ok && showDetail(message.detail),
      comparison: (message) => {
        out("pair-error").textContent = message.ok ? "" : message.message;
        out("comparison").hidden = !message.ok;
        if (message.ok) showComparison(message.comparison);
      },
      file: (message) => message.ok && kit.save(message.blob, message.name),
    },
  });
  const { fail, markStale, showError, status: statusLine } = panelKit;
  let onRows = null; // the per-query table's answer to its latest ask

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
    $(`[data-clear-for="${slot}"]`).hidden = !item;
    if (item) reveal(slot);
    const source = $(`[data-fuse-source-for="${slot}"]`);
    if (source) source.hidden = !item;
    if (slot === JUDGE) $("[data-judge-switch]").hidden = !item;
    showFuseUse();
    markStale();
  }

  /** «Fusionar y evaluar» is aria-disabled, saying why under it, unless enough runs (raglab_core's
   * fusion_min_runs) are chosen and marked and there is room for one more (else the worker would refuse the
   * fusion: raglab_core's words). */
  function showFuseUse() {
    const count = RUN_SLOTS.filter((slot) => chosen[slot]).length;
    const why =
      count >= RUN_SLOTS.length ? WORDS.fuse_too_many
        : count < config.data.fusion_min_runs ? WORDS.fuse_too_few
          : fusionRequest().runs.length < config.data.fusion_min_runs ? WORDS.fuse_unchecked
            : "";
    buttons.fuse.setAttribute("aria-disabled", String(Boolean(why)));
    out("fuse-why").textContent = why;
    out("fuse-why").hidden = !why;
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
    $(`[data-clear-for="${slot}"]`).addEventListener("click", () => {
      input.value = "";
      area.value = "";
      choose(slot, null);
      $(`[data-pick-for="${slot}"]`).focus(); // «Quitar» hides itself
    });
    area.addEventListener("input", () => {
      input.value = "";
      choose(slot, area.value.trim() ? { name: WORDS.pasted[slot], text: area.value } : null);
    });
    kit.dropZone($(`[data-slot="${slot}"]`), (transfer) => {
      const file = transfer.files[0];
      if (file) choose(slot, { name: file.name, file });
    });
  }

  // The sample: its qrels and runs in order (the judge's qrels too for the judges' sample); every other slot emptied.
  function loadSample(urls, slots) {
    panelKit.sample(urls.map((url) => ({ url, name: url.split("/").pop() })), (texts) => {
      for (const slot of SLOTS) {
        const index = slots.indexOf(slot);
        const text = index >= 0 ? texts[index] : null;
        if (text || chosen[slot]) choose(slot, text || null);
      }
      evaluate();
    });
  }

  buttons.sample.addEventListener("click", () => loadSample(config.sample, ["qrels", ...RUN_SLOTS]));
  $('[data-action="judges-sample"]').addEventListener("click", () =>
    loadSample(config.judges_sample, ["qrels", JUDGE, ...RUN_SLOTS])
  );

  // The judging page's qrels («Evaluar en Tus datos», juzgar.js): handed over once, in this tab's
  // sessionStorage, with the runs they judge; evaluated at once.
  let handoff = null;
  try {
    handoff = JSON.parse(sessionStorage.getItem("raglab-handoff") || "null");
    sessionStorage.removeItem("raglab-handoff");
  } catch {}
  // With «Comparar con el juez», the model's qrels come too: the agreement is shown on the judged pairs.
  if (handoff && handoff.qrels) {
    choose("qrels", handoff.qrels);
    if (handoff.judge) choose(JUDGE, handoff.judge);
    (handoff.runs || []).slice(0, RUN_SLOTS.length).forEach((run, index) => {
      reveal(RUN_SLOTS[index]);
      choose(RUN_SLOTS[index], run);
    });
    if ((handoff.runs || []).length || handoff.judge) setTimeout(() => evaluate());
  }

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
      settings.judgeForRuns.checked,
      SLOTS.map((slot) => chosen[slot] || null),
      fusing ? fusionRequest() : null,
    ]);
  }

  settings.measures.addEventListener("input", markStale);
  settings.ties.addEventListener("change", markStale);
  settings.complete.addEventListener("change", markStale);
  settings.judgeForRuns.addEventListener("change", markStale);
  for (const control of [settings.fuseNorm, settings.fuseK, settings.fuseWeights, ...fuseSources]) {
    control.addEventListener(control.tagName === "INPUT" && control.type === "text" ? "input" : "change", markStale);
  }
  for (const box of fuseSources) box.addEventListener("change", showFuseUse);
  showFuseUse();

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
    if (slot === "judge") return [$(`[data-pick-for="${JUDGE}"]`), $(`[data-paste-for="${JUDGE}"]`)];
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
    agreement.hidden = true;
  }

  function evaluate() {
    if (panelKit.busy) return;
    showError("");
    if (!chosen.qrels || !(chosen["run-a"] || chosen[JUDGE])) return fail(WORDS.missing, [], "qrels" in chosen ? "run" : "qrels");
    const last = RUN_SLOTS.reduce((found, slot, index) => (chosen[slot] ? index : found), 0);
    const gap = RUN_SLOTS.slice(0, last).findIndex((slot) => !chosen[slot]);
    if (gap >= 0) return fail(fill(WORDS.gap, LETTERS[gap]), [], "run", LETTERS[gap]);
    panelKit.begin("evaluate", {
      request: {
        qrels: chosen.qrels,
        runs: RUN_SLOTS.map((slot) => chosen[slot]).filter(Boolean),
        measures: settings.measures.value,
        ties: settings.ties.value,
        complete: settings.complete.checked,
        fusion: fusing ? fusionRequest() : null,
        judge: chosen[JUDGE] || null,
        judgeForRuns: Boolean(chosen[JUDGE]) && settings.judgeForRuns.checked,
        judgeSample: Boolean(chosen[JUDGE] && chosen[JUDGE].sample), // the synthetic judge: the reading says so
      },
    });
  }

  function setFusing(on) {
    fusing = on;
    buttons.unfuse.hidden = !on;
  }

  buttons.evaluate.addEventListener("click", evaluate);
  buttons.fuse.addEventListener("click", () => {
    if (panelKit.busy || buttons.fuse.getAttribute("aria-disabled") === "true") return;
    setFusing(true);
    evaluate();
  });
  buttons.unfuse.addEventListener("click", () => {
    if (panelKit.busy) return;
    setFusing(false);
    buttons.fuse.focus(); // «Quitar» hides itself
    if (!$("[data-data-result]").hidden) evaluate();
  });

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

    out("means-head").replaceChildren(kit.headRow(view.means_columns));
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
    kit.reading(out("many-reading"), many.reading);
    kit.reading(out("overlap-reading"), many.overlap_reading);
    out("pairs-caption").textContent = many.pairs_caption;
    out("pairs-head").replaceChildren(kit.headRow(many.pairs_columns));
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
      if (panelKit.busy) return;
      panelKit.ask("compare", { baseline: Number(settings.baseline.value), candidate: Number(settings.candidate.value) });
    });
  }

  function showComparison(comparison) {
    out("comparison-title").textContent = comparison.title;
    out("comparison-caption").textContent = comparison.caption;
    kit.reading(out("reading"), comparison.reading);
    out("comparison-head").replaceChildren(kit.headRow(comparison.columns));
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
    const shape = kit.svg;
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
      rect.append(shape("title", {}, bar.text));
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
      if (!panelKit.worker || id !== panelKit.id) return panelKit.unavailable();
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
      panelKit.ask("sort", { column: index, ascending: order, limit: config.data.rows_shown, request: number }, id);
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
    if (!panelKit.busy) panelKit.ask("open", { qid });
  }

  function showDetail(view) {
    detail.querySelector("[data-detail-title]").textContent = view.title;
    detail.querySelector("[data-detail-note]").textContent = view.note;
    detail.querySelector("[data-detail-legend]").textContent = view.legend;
    const columns = detail.querySelector("[data-detail-runs]");
    // Three runs or more: one row of columns that scrolls sideways (a region the keyboard can scroll).
    for (const [name, value] of [["data-many", ""], ["tabindex", "0"], ["role", "group"], ["aria-label", view.label]]) {
      if (view.many) columns.setAttribute(name, value);
      else columns.removeAttribute(name);
    }
    columns.replaceChildren(
      ...view.runs.map((run) => {
        const column = el("div", run.letter ? { class: "query-detail-run", "data-run": run.letter } : { class: "query-detail-run" });
        const heading = el("h4", {}, run.caption);
        heading.append(" ", el("span", { class: "detail-value", "data-value": run.value ?? "" }, run.value_text));
        column.append(heading);
        if (run.empty) column.append(el("p", {}, run.empty));
        const list = el("ol");
        for (const doc of run.documents) {
          const item = el("li", { "data-doc": doc.id, "data-grade": doc.grade ?? "", "data-shared": String(doc.shared),
            "data-relevance": doc.relevance, "data-strength": String(doc.strength) });
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

  for (const [button, kind] of [[buttons.downloadJson, "json"], [buttons.downloadCsv, "csv"], [buttons.downloadFused, "fused"],
    [buttons.downloadAgreement, "agreement"]]) {
    button.addEventListener("click", () => panelKit.ask("export", { kind }));
  }
})();
