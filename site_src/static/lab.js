/* lab.js — carries the form's state to the Python worker and writes the returned view into the page.
 *
 * No metric logic lives here: raglab_core.compute, running under Pyodide in worker.js, parses every
 * value and produces every number and sentence. This file only reads what the user typed, keeps the
 * URL in step, and copies the view into [data-output], [data-error-for] and the ranking.
 */
(() => {
  "use strict";

  const ANNOUNCE_DELAY_MS = 900;
  const root = document.documentElement;
  const config = JSON.parse(document.getElementById("lab-config").textContent);
  const NAMES = config.form.controls.map((row) => row.name); // raglab_core.lab.form's table
  // Controls whose value follows the others until the URL or the user sets it (`total`, `posicion`).
  const FOLLOWING = config.form.controls.filter((row) => row.follows).map((row) => row.name);
  const documents = config.scenario.documents;
  const TEXTS = config.texts; // raglab_core.words.status_texts: every sentence this file shows

  const controls = {};
  const defaults = {};
  for (const name of NAMES) {
    controls[name] = document.querySelector(`[name="${name}"]`);
    defaults[name] = controls[name].defaultValue;
  }
  const ranking = document.querySelector('[data-output="ranking"]');
  const rows = {};
  const gradeSelects = {};
  for (const doc of documents) {
    rows[doc.id] = ranking.querySelector(`[data-doc="${doc.id}"]`);
    gradeSelects[doc.id] = ranking.querySelector(`[data-grade-for="${doc.id}"]`);
  }
  const gradesOfSelects = () => documents.map((d) => gradeSelects[d.id].value).join(",");
  // The scenario's grades: what the server rendered selected (a reload may restore other choices).
  const defaultGrade = (doc) => Array.from(gradeSelects[doc.id].options).find((o) => o.defaultSelected).value;
  const defaultGrades = documents.map(defaultGrade).join(",");
  // The conventions panel's rows (DESIGN §4.4), those shown and those kept aside in a <template>.
  const conventionsBody = document.querySelector("[data-conventions-body]");
  const conventionRows = new Map();
  for (const node of [...document.querySelectorAll("[data-convention]"),
    ...(document.querySelector("[data-conventions-spare]")?.content.querySelectorAll("[data-convention]") || [])]) {
    conventionRows.set(node.dataset.convention, node);
  }
  const unretrieved = Array.from(document.querySelectorAll('[data-output="unretrieved"] > li'));
  const breakdownRows = Array.from(document.querySelectorAll('[data-output="breakdown"] tr[data-rank]'));
  const strip = document.querySelector('[data-output="chunk-windows"]');
  const SVG = "http://www.w3.org/2000/svg";
  // The regions holding the lab's outputs: aria-busy while they show another state's values.
  const busyRegions = document.querySelectorAll("[data-busy-region]");
  const statusBox = document.querySelector("[data-status]");
  const statusText = statusBox.querySelector("[data-status-text]");
  const statusProgress = statusBox.querySelector("[data-status-progress]");
  const liveRegion = document.querySelector("[data-announce]");

  // What the user asked for, by name, exactly as typed or as found in the URL: Python judges it.
  // `total` and `posicion` are absent until the URL or the user sets them: Python then uses the judged
  // count, and the first window border.
  const raw = { ...defaults };
  for (const name of FOLLOWING) delete raw[name];
  // The controls the user changed, most recent last: Python puts a conflict's error on the last one.
  const edited = [];

  // A control the reader moved before this script ran (the page is painted, and its sliders answer
  // the keyboard, before the deferred scripts run): the change counts, as if made now.
  function readEarlyMoves() {
    const params = new URLSearchParams(location.search);
    for (const name of NAMES) {
      if (params.has(name) || controls[name].value === controls[name].defaultValue) continue;
      raw[name] = controls[name].value;
      echo(name);
      edited.push(name);
    }
  }

  // The slider of each control: the control itself, or the mouse-friendly companion of a text field.
  const sliderOf = {};
  for (const name of NAMES) {
    sliderOf[name] = controls[name].type === "range" ? controls[name] : document.querySelector(`[data-companion-for="${name}"]`);
  }

  function readUrl() {
    const params = new URLSearchParams(location.search);
    for (const name of NAMES) {
      if (!params.has(name)) continue;
      raw[name] = params.get(name);
      controls[name].value = raw[name]; // a range input clamps what it cannot hold; raw keeps it
      echo(name);
    }
    if (params.has("grades")) raw.grades = params.get("grades");
  }

  // The URL follows every change (DESIGN §4), with history.replaceState, skipped when it would not
  // change. It is written after the state has gone to Python: a replaceState costs the browser a
  // same-document navigation that, on a two-core machine, can take longer than Python's compute.
  function writeUrl() {
    const params = new URLSearchParams();
    for (const name of NAMES) {
      if (raw[name] !== undefined && (FOLLOWING.includes(name) || raw[name] !== defaults[name])) params.set(name, raw[name]);
    }
    if (raw.grades !== undefined && raw.grades !== defaultGrades) params.set("grades", raw.grades);
    const query = params.toString().replace(/%2C/g, ","); // commas need no escape in a query: grades stay readable
    const url = (query ? `?${query}` : location.pathname) + location.hash;
    if (new URL(url, location.href).href !== location.href) history.replaceState(null, "", url);
  }

  // The echo repeats what the state holds, as typed or as the URL said it; a slider that cannot show
  // that value (?umbral=0, ?k=abc) is marked data-unheld, sits at its minimum with no thumb (lab.css)
  // rather than point at a value the state does not hold. `control` is the view's, once Python has
  // judged it.
  function echo(name, control) {
    const shown = document.querySelector(`[data-echo="${name}"]`);
    if (shown) setText(shown, raw[name] === undefined ? controls[name].value : String(raw[name]));
    const slider = sliderOf[name];
    if (!slider || FOLLOWING.includes(name)) return; // a following control's words are the view's (adoptPosition)
    const companion = slider !== controls[name];
    if (companion && slider.value !== controls[name].value) {
      fitStep(slider, controls[name].value);
      slider.value = controls[name].value;
    }
    let held = slider.value === String(raw[name]);
    if (!held && control !== undefined && control.value !== null) {
      if (companion) fitStep(slider, String(control.value));
      slider.value = String(control.value); // how Python read what was typed: "05" is 5
      held = slider.value === String(control.value);
    }
    if (held) {
      slider.removeAttribute("data-unheld");
      slider.removeAttribute("aria-valuetext");
    } else {
      slider.value = slider.min; // and no filled track up to a value it does not hold either
      slider.setAttribute("data-unheld", "");
      slider.setAttribute("aria-valuetext", String(raw[name]));
    }
  }

  // A companion slider's step is for dragging: a value typed between its steps (solape 99, step 16) is
  // still one it can hold, at step 1 (until a value on the steps comes back), rather than one it cannot show.
  function fitStep(slider, value) {
    const step = slider.dataset.step || (slider.dataset.step = slider.getAttribute("step") || "1");
    const offStep = /^\d+$/.test(value) && (Number(value) - Number(slider.min)) % Number(step) !== 0;
    slider.step = offStep ? "1" : step;
  }

  // The state sent to Python for these typed values and this order of edits.
  function stateOf(values, editOrder) {
    const current = { scenario: config.scenario };
    for (const name of NAMES) if (values[name] !== undefined) current[name] = values[name];
    if (values.grades !== undefined && values.grades !== defaultGrades) current.grades = values.grades;
    if (editOrder.length) current.edited = editOrder.slice();
    return current;
  }
  const state = () => stateOf(raw, edited);

  // The state the shown values belong to (the server's render: the defaults), as a comparable key.
  const key = (current) => JSON.stringify({ ...current, scenario: undefined });
  let shownKey = key(state());

  // Honest while loading (DESIGN §4): values of another state than the form's are marked busy at
  // once, and dimmed (data-dim) if they still are after DIM_DELAY_MS: no visible change, and so no
  // rendering work, for a compute that answers sooner.
  const DIM_DELAY_MS = 150;
  let dimTimer = 0;
  function markBusy() {
    const busyNow = key(state()) !== shownKey;
    for (const region of busyRegions) {
      if (busyNow) region.setAttribute("aria-busy", "true");
      else region.removeAttribute("aria-busy");
    }
    if (busyNow) {
      if (root.dataset.pending !== "stale") root.dataset.pending = "true";
      if (!dimTimer && root.dataset.dim === undefined) {
        dimTimer = setTimeout(() => {
          dimTimer = 0;
          if (root.dataset.pending) root.dataset.dim = "";
        }, DIM_DELAY_MS);
      }
    } else {
      delete root.dataset.pending;
      delete root.dataset.dim;
      clearTimeout(dimTimer);
      dimTimer = 0;
    }
  }

  // --- the worker: one request in flight, and only the latest state waits behind it ---------

  let worker = null;
  let sent = null; // the state of the request in flight
  let ready = false;
  let busy = false;
  let queued = false;
  let lastAnnounced = null;
  let notice = "";
  let announceTimer = 0;
  let actionSaid = ""; // the last action's message, kept at the head of the announcement that follows it

  // Views Python computed, by state: compute is deterministic and the scenario fixed, so a state met
  // again (a slider moved back) is shown at once, with the very view Python gave for it.
  const VIEWS_KEPT = 128; // a view is some 14 kB as JSON
  const views = new Map();
  function keep(stateKey, view) {
    views.delete(stateKey);
    views.set(stateKey, view);
    if (views.size > VIEWS_KEPT) views.delete(views.keys().next().value);
  }

  // --- the build-time view table (raglab_site/views.py) ------------------------------------------
  // Python's views of every state the ranking's sliders (k, umbral, rerank) reach from the defaults,
  // computed by raglab_core.compute at build time. A state is looked up only when it is exactly one
  // of those: every other field as the table's state, and no edit but of those sliders. Its view is
  // then rebuilt (a copy of `base`, each varying leaf's value put back) and shown, before Python has
  // loaded and after. Any other state waits for Python. Nothing here computes a value.
  let table = null;

  function useTable(loaded) {
    if (!loaded || loaded.format !== 1 || !Array.isArray(loaded.axes) || !Array.isArray(loaded.paths)) return;
    table = loaded;
    root.dataset.views = "table";
    performance.mark("raglab:views-table"); // for bench/page.py
    // The announcements' baseline: what the page shows, when it shows the form's state.
    const shownView = key(state()) === shownKey && viewFromTable(state());
    if (lastAnnounced === null && shownView) lastAnnounced = { ...shownView.announcements };
    if (!ready && statusBox.dataset.status === "loading") setStatus("loading", config.views.loading);
    if (key(state()) !== shownKey) request();
  }

  // While Python loads, the status says what already answers: the table's sentence once it is in.
  const loadingText = (pythonText) => (table ? config.views.loading : pythonText);

  /** The view of `current` from the table, or null when the table does not hold exactly that state. */
  function viewFromTable(current) {
    if (!table) return null;
    const axes = table.axes.map(([name]) => name);
    if ((current.edited || []).some((name) => !axes.includes(name))) return null;
    const names = Object.keys(current).filter((name) => name !== "scenario" && name !== "edited");
    const expected = Object.keys(table.state);
    if (names.length !== expected.length) return null;
    for (const name of expected) {
      if (!(name in current) || (!axes.includes(name) && current[name] !== table.state[name])) return null;
    }
    const positions = table.axes.map(([name, values]) => values.indexOf(current[name]));
    if (positions.includes(-1)) return null;
    let view = structuredClone(table.base);
    table.paths.forEach(([path, columnNumber, joined], i) => {
      const [used, column] = table.columns[columnNumber];
      let at = 0;
      for (const axis of used) at = at * table.axes[axis][1].length + positions[axis];
      let value = table.values[i][column[at]];
      if (joined) value = value.map((piece) => table.texts[piece]).join(""); // a text stored by its pieces
      if (!path.length) return void (view = value);
      let node = view;
      for (const step of path.slice(0, -1)) node = node[step];
      node[path[path.length - 1]] = value;
    });
    return view;
  }
  // --- end of the view table ---------------------------------------------------------------------

  // Changes are numbered so that a view never replaces a newer one already shown.
  let changes = 0;
  let sentChange = 0;
  let shownChange = 0;

  // `live`: ask Python even for a state the table holds (its first answer sets data-ready).
  function request(live = false) {
    const current = state();
    const fromTable = !live && viewFromTable(current);
    if (fromTable) {
      queued = false;
      show(fromTable, current, changes);
      if (ready) computeAhead();
      return;
    }
    if (!worker || !ready) return; // sent as soon as Python is ready
    const view = root.dataset.ready === "true" && views.get(key(current));
    if (view) {
      queued = false;
      show(view, current, changes);
      computeAhead();
      return;
    }
    if (busy) {
      queued = true;
      return;
    }
    busy = true;
    queued = false;
    sent = current;
    sentChange = changes;
    worker.postMessage({ type: "lab-compute", state: sent });
  }

  // Computing ahead: while Python is idle, it computes the states one step away (each slider's
  // value ± its step, the slider moved last first), so that a slider's next step is shown at once,
  // with the view Python computed for it. At most AHEAD per change; a change that finds Python busy
  // with one of them waits for that one only (2–3 ms). Python computes every view shown, as ever.
  const AHEAD = 6;
  let aheadLeft = AHEAD; // and so for the first view too
  const sliders = [];
  for (const name of NAMES) {
    const slider = sliderOf[name];
    if (slider && !FOLLOWING.includes(name)) sliders.push({ name, slider });
  }

  function statesAhead() {
    const order = [...edited].reverse();
    const byRecency = sliders.slice().sort((a, b) => {
      const x = order.indexOf(a.name);
      const y = order.indexOf(b.name);
      return (x < 0 ? Infinity : x) - (y < 0 ? Infinity : y);
    });
    const found = [];
    for (const { name, slider } of byRecency) {
      const value = Number(raw[name]);
      const step = Number(slider.step) || 1;
      if (!Number.isInteger(value) || !Number.isInteger(step)) continue; // typed: no step to take
      for (const next of [value + step, value - step]) {
        if (next < Number(slider.min) || next > Number(slider.max)) continue;
        found.push(stateOf({ ...raw, [name]: String(next) }, [...edited.filter((n) => n !== name), name]));
      }
    }
    return found;
  }

  function computeAhead() {
    if (busy || queued || aheadLeft <= 0 || root.dataset.ready !== "true" || statusBox.dataset.status === "error") return;
    const next = statesAhead().find((candidate) => !views.has(key(candidate)) && !viewFromTable(candidate));
    if (!next) return;
    aheadLeft -= 1;
    busy = true;
    sent = next;
    sentChange = -1; // never shown: only kept
    worker.postMessage({ type: "lab-compute", state: next, ahead: true });
  }

  // For bench/page.py: the time from the latest input to its view written into the page.
  let inputAt = null;

  function changed(name) {
    inputAt = performance.now();
    changes += 1;
    aheadLeft = AHEAD;
    const at = edited.indexOf(name);
    if (at >= 0) edited.splice(at, 1);
    edited.push(name);
    request();
    writeUrl();
    markBusy();
  }

  // Writes `view`, computed for `viewState` (the form's state at change number `change`).
  function show(view, viewState, change) {
    const applyStart = performance.now();
    applyView(view);
    showTotal(view.controls.total, viewState);
    shownKey = key(viewState);
    shownChange = change;
    markBusy();
    performance.measure("raglab:apply-view", { start: applyStart });
    if (inputAt !== null && change === changes) {
      performance.measure("raglab:input-to-view", { start: inputAt });
      inputAt = null;
    }
  }

  function onMessage(message) {
    if (message.type === "boot-progress") {
      setStatus("loading", loadingText(message.text), message.fraction);
    } else if (message.type === "boot-notice") {
      notice = message.text;
      setStatus("loading", notice);
    } else if (message.type === "boot-ready") {
      ready = true;
      root.dataset.boot = message.boot; // "snapshot", or "plain" when the fast path was not usable
      for (const [name, at] of Object.entries(message.milestones || {})) {
        performance.mark(`raglab:worker:${name}`, { startTime: Math.max(0, at - performance.timeOrigin) });
      }
      request(true);
    } else if (message.type === "lab-view") {
      busy = false;
      const arrived = performance.now();
      performance.measure("raglab:worker-compute", { start: arrived - message.ms, duration: message.ms });
      const viewState = sent;
      const viewChange = sentChange;
      keep(key(viewState), message.view);
      const newer = viewChange > shownChange || root.dataset.ready !== "true";
      if (queued) request(); // Python starts on the latest state while this one is written
      if (newer) show(message.view, viewState, viewChange);
      if (root.dataset.ready !== "true" || statusBox.dataset.status === "error") {
        if (root.dataset.ready !== "true") performance.mark("raglab:ready");
        root.dataset.ready = "true";
        const readyText = config.serviceWorker && !window.isSecureContext ? TEXTS.ready_without_offline : TEXTS.ready;
        // Two whole sentences of Python's (what the boot recovered from, then that Python is ready), side by side.
        setStatus(notice ? "warning" : "ready", notice ? [notice, readyText].join(" ") : readyText);
        registerServiceWorker();
      }
      computeAhead();
    } else if (message.type === "lab-refusal" && message.ahead) {
      busy = false; // a state computed ahead that Python refused: nothing to show or say
      if (queued) request();
      computeAhead();
    } else if (message.type === "lab-refusal") {
      busy = false;
      fail(message.text, message.detail);
      if (queued) request(); // the state the user moved to since may well be fine
    } else if (message.type === "boot-failure") {
      busy = false;
      fail(message.text || TEXTS.worker_stopped, message.detail); // no text: its script did not run (boot.js)
    }
  }

  function fail(text, detail) {
    console.error("raglab:", detail || text);
    setStatus("error", text);
    if (root.dataset.pending === "true") root.dataset.pending = "stale";
  }

  function setStatus(kind, text, fraction) {
    statusBox.dataset.status = kind;
    statusText.textContent = text;
    statusProgress.hidden = kind !== "loading";
    if (typeof fraction === "number") statusProgress.value = fraction;
  }

  // --- writing the view ----------------------------------------------------------------------

  // Writes only what changed: an unchanged node costs the browser no style or layout work.
  // A node holding one text node keeps it, with new data: replacing it (textContent =) would take
  // the old text out of the layout tree and put a new one in, for every changed value.
  function setText(node, text) {
    const only = node.firstChild;
    if (only && only.nodeType === Node.TEXT_NODE && only === node.lastChild) {
      if (only.data !== text) only.data = text;
    } else if (node.textContent !== text) {
      node.textContent = text;
    }
  }

  function setAttr(node, name, value) {
    if (node.getAttribute(name) !== value) node.setAttribute(name, value);
  }

  function setData(node, key, value) {
    if (node.dataset[key] !== value) node.dataset[key] = value;
  }

  // The total input shows the total in use (DESIGN §4.1): the judged count while it follows the
  // threshold, or the user's value raised to it. A raise belongs to the view, not to the user: `raw`
  // and the URL keep the user's total, which comes back once the threshold allows it. Left alone
  // while the user has typed since, or is typing in it (an emptied field is not refilled under them).
  // A total that follows an invalid threshold has no value: the field is then empty.
  function showTotal(total, viewState) {
    if (raw.total !== viewState.total || document.activeElement === controls.total) return;
    if (total.value === null && total.set) return; // the user's own invalid total, left as typed
    const value = total.value === null ? "" : String(total.value);
    if (controls.total.value !== value) controls.total.value = value;
  }

  // The nodes of each name, looked up once: a view writes some thirty of them on every change.
  const nodeCache = new Map();
  function nodes(selector) {
    if (!nodeCache.has(selector)) nodeCache.set(selector, Array.from(document.querySelectorAll(selector)));
    return nodeCache.get(selector);
  }

  // The evidence's place on the strip: its range and words are Python's; while it follows the first
  // border (not set by the URL or the user) its value is Python's too.
  function adoptPosition(position) {
    const input = controls.posicion;
    input.disabled = position.value === null;
    setAttr(input, "max", String(position.max));
    setAttr(input, "aria-valuetext", position.valuetext);
    if (position.value !== null && raw.posicion === undefined && input.value !== String(position.value)) {
      input.value = String(position.value);
    }
  }

  function applyView(view) {
    for (const [name, control] of Object.entries(view.controls)) {
      const error = control.error || "";
      for (const box of nodes(`[data-error-for="${name}"]`)) setText(box, error);
      const input = controls[name];
      if (!input) continue;
      if (error) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
      echo(name, control);
    }
    adoptPosition(view.controls.posicion);
    for (const [name, output] of Object.entries(view.outputs)) {
      for (const node of nodes(`[data-output="${name}"]`)) {
        setText(node, output.text);
        if (node.hasAttribute("data-value")) setData(node, "value", output.raw);
      }
      for (const note of nodes(`[data-note-for="${name}"]`)) setText(note, output.note || "");
    }
    applyRanking(view.ranking);
    view.unretrieved.forEach((row, i) => setData(unretrieved[i], "relevant", String(row.relevant)));
    applyBreakdown(view.breakdown);
    applyConventions(view.conventions);
    applyWindows(view.chunk_windows);
    scheduleAnnouncement(view.announcements);
  }

  // Copies a view row's fields into a node: data-* attributes by name, and [data-field] cells' text.
  const rowCells = new Map(); // each row's [data-field] cells, looked up once
  function writeRow(node, row, dataKeys) {
    for (const [key, field] of dataKeys) setData(node, key, String(row[field]));
    if (!rowCells.has(node)) rowCells.set(node, Array.from(node.querySelectorAll("[data-field]"), (cell) => [cell, cell.dataset.field]));
    for (const [cell, field] of rowCells.get(node)) setText(cell, String(row[field]));
  }

  const BREAKDOWN_DATA = [["doc", "doc"], ["grade", "grade_token"], ["gain", "gain"], ["discount", "discount"],
    ["contribution", "contribution"], ["inK", "in_k"], ["first", "first"]];
  function applyBreakdown(viewRows) {
    viewRows.forEach((row, i) => writeRow(breakdownRows[i], row, BREAKDOWN_DATA));
  }

  // The view's rows, in its order; a row it leaves out goes back aside.
  function applyConventions(viewRows) {
    viewRows.forEach((row, i) => {
      const node = conventionRows.get(row.name);
      writeRow(node, row, [["value", "raw"]]);
      if (conventionsBody.children[i] !== node) conventionsBody.insertBefore(node, conventionsBody.children[i] || null);
    });
    while (conventionsBody.children.length > viewRows.length) conventionsBody.lastElementChild.remove();
  }

  // The strip's geometry comes from raglab_core.lab.strip (sizes included): this only moves rectangles.
  const evidenceMark = strip && strip.querySelector("[data-evidence]");
  // The slider laid over the strip begins and ends where Python says, so its thumb sits on the span.
  // No evidence, no inset: lab.css's fallback (none).
  const setInset = (inset) =>
    inset ? controls.posicion.style.setProperty("--inset", inset) : controls.posicion.style.removeProperty("--inset");
  setInset(controls.posicion.dataset.inset);
  function applyWindows(w) {
    if (!strip) return;
    const g = w.geometry;
    setData(strip, "windows", w.windows === null ? "" : String(w.windows));
    setData(strip, "whole", String(w.whole));
    setAttr(strip, "viewBox", `0 0 ${g.width} ${w.height || g.top}`); // an SVG attribute set, even unchanged, relays it out
    for (const node of nodes("[data-windows-text]")) setText(node, w.text);
    for (const node of nodes("[data-windows-scale]")) setText(node, w.scale);
    for (const node of nodes("[data-windows-legend]")) setText(node, w.doc_legend);
    const e = w.evidence;
    setInset(e && e.inset);
    setData(evidenceMark, "start", e ? String(e.start) : "");
    setData(evidenceMark, "end", e ? String(e.end) : "");
    for (const [name, value] of [["x", e ? e.x : 0], ["width", e ? e.width : 0], ["height", w.height || g.top]]) {
      setAttr(evidenceMark, name, String(value));
    }
    const mark = strip.querySelector("[data-stride-mark]");
    const [x1, x2] = w.stride_mark || [0, 0];
    setAttr(mark, "x1", String(x1));
    setAttr(mark, "x2", String(x2));
    let drawn = strip.querySelectorAll("[data-window]");
    const same = drawn.length === w.shown.length &&
      w.shown.every((win, j) => drawn[j].dataset.start === String(win.start) && drawn[j].dataset.end === String(win.end) &&
        drawn[j].getAttribute("width") === String(win.width));
    if (!same) {
      for (const node of drawn) node.remove();
      for (const win of w.shown) {
        const rect = document.createElementNS(SVG, "rect");
        rect.setAttribute("data-window", "");
        rect.dataset.start = String(win.start);
        rect.dataset.end = String(win.end);
        rect.dataset.clipped = String(win.clipped);
        for (const [name, value] of [["x", win.x], ["y", win.y], ["width", win.width], ["height", g.row_height]]) {
          rect.setAttribute(name, value);
        }
        strip.insertBefore(rect, evidenceMark); // the evidence stays drawn on top
      }
      drawn = strip.querySelectorAll("[data-window]");
    }
    w.shown.forEach((win, j) => {
      setData(drawn[j], "holds", String(win.holds));
      setData(drawn[j], "touches", String(win.touches));
    });
  }

  const RANKING_DATA = [["grade", "grade_token"], ["inK", "in_k"], ["reranked", "reranked"], ["relevant", "relevant"],
    ["cutK", "cut_k"], ["cutRerank", "cut_rerank"], ["cut", "cut_label"]];
  function applyRanking(viewRows) {
    for (const row of viewRows) {
      const item = rows[row.id];
      writeRow(item, row, RANKING_DATA);
      const select = gradeSelects[row.id];
      if (select.value !== row.grade_token) select.value = row.grade_token;
    }
    const order = viewRows.map((row) => row.id);
    const shown = Array.from(ranking.children, (item) => item.dataset.doc);
    if (order.join() !== shown.join()) {
      const focused = document.activeElement;
      for (const id of order) ranking.appendChild(rows[id]);
      if (focused instanceof HTMLElement && document.activeElement !== focused) focused.focus();
    }
  }

  // Polite, debounced: a drag across a slider yields one announcement, of the panel that changed.
  // The first view (Python ready) only sets the baseline: it matches what the page already shows.
  function scheduleAnnouncement(announcements) {
    if (lastAnnounced === null) {
      lastAnnounced = { ...announcements };
      return;
    }
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => {
      const changedPanels = Object.keys(announcements).filter((key) => announcements[key] !== lastAnnounced[key]);
      // An action's message («restablecidos») stays first: the values it brought follow it.
      const said = [actionSaid, ...changedPanels.map((key) => announcements[key])].filter(Boolean);
      if (changedPanels.length) liveRegion.textContent = said.join(" ");
      actionSaid = "";
      lastAnnounced = { ...announcements };
    }, ANNOUNCE_DELAY_MS);
  }

  // --- wiring --------------------------------------------------------------------------------

  for (const name of NAMES) {
    controls[name].addEventListener("input", () => {
      raw[name] = controls[name].value;
      echo(name);
      changed(name);
    });
  }
  // A slider that holds no value of the state (data-unheld, at its minimum) takes the value it shows
  // when the user works it: Home, or ← at the minimum, or a press on the minimum's end, changes nothing
  // the browser reports as input, yet the user has chosen that value.
  const SLIDER_KEYS = new Set(["Home", "End", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "PageUp", "PageDown"]);
  for (const name of NAMES) {
    const slider = sliderOf[name];
    if (!slider || FOLLOWING.includes(name)) continue;
    const adopt = () => {
      if (!slider.hasAttribute("data-unheld")) return;
      controls[name].value = slider.value;
      raw[name] = slider.value;
      echo(name);
      changed(name);
    };
    slider.addEventListener("keyup", (event) => { if (SLIDER_KEYS.has(event.key)) adopt(); });
    slider.addEventListener("pointerup", adopt);
  }
  // An emptied total follows the threshold again (Python reads "" so): once the user leaves the field,
  // the state drops it, and the field shows the count in use.
  controls.total.addEventListener("change", () => {
    if (raw.total === undefined || raw.total.trim() !== "") return;
    delete raw.total;
    changed("total");
  });
  for (const companion of document.querySelectorAll("[data-companion-for]")) {
    companion.addEventListener("input", () => {
      const name = companion.dataset.companionFor;
      controls[name].value = companion.value;
      raw[name] = companion.value;
      echo(name);
      changed(name);
    });
  }
  // ↑ and ↓ in a number field step it as a number input would: by 1, or with Shift or PageUp/PageDown by its
  // slider's own step (fitStep keeps it in data-step; 10 without a slider), between the control's bounds (raglab_core.lab.form, data-min/data-max).
  // Text that is not a whole number is left alone: the field's error says what is wrong with it.
  const STEP_KEYS = { ArrowUp: [1, false], ArrowDown: [-1, false], PageUp: [1, true], PageDown: [-1, true] };
  for (const name of NAMES) {
    const field = controls[name];
    if (field.type !== "text" || field.dataset.min === undefined) continue;
    const companion = document.querySelector(`[data-companion-for="${name}"]`);
    field.addEventListener("keydown", (event) => {
      const [sign, page] = STEP_KEYS[event.key] || [0, false];
      if (!sign || !/^\d+$/.test(field.value.trim())) return;
      event.preventDefault();
      const by = event.shiftKey || page ? (companion ? Number(companion.dataset.step || companion.step) : 10) : 1;
      const value = Number(field.value.trim());
      const [low, high] = [Number(field.dataset.min), Number(field.dataset.max)];
      const next = Math.max(Math.min(low, value), Math.min(Math.max(high, value), value + sign * by));
      if (next === value) return;
      field.value = String(next);
      field.dispatchEvent(new Event("input", { bubbles: true }));
    });
  }
  for (const doc of documents) {
    gradeSelects[doc.id].addEventListener("change", () => {
      raw.grades = gradesOfSelects();
      changed("grades");
    });
  }

  // «Restablecer» and «Copiar enlace» (DESIGN §4.3).
  const actionStatus = document.querySelector("[data-action-status]");
  function say(text) {
    actionSaid = text;
    liveRegion.textContent = text;
    actionStatus.textContent = text;
  }

  // Every control back to the scenario's defaults, grades included; the URL without a query. Before
  // Python is ready the page still shows the build's render, which is the view of exactly this state.
  function reset() {
    for (const name of Object.keys(raw)) delete raw[name];
    Object.assign(raw, defaults);
    for (const name of FOLLOWING) delete raw[name]; // the total follows the threshold again, the evidence the border
    edited.splice(0);
    for (const name of NAMES) {
      controls[name].value = defaults[name];
      echo(name);
    }
    for (const doc of documents) gradeSelects[doc.id].value = defaultGrade(doc);
    changes += 1;
    aheadLeft = AHEAD;
    request();
    writeUrl();
    markBusy();
    say(TEXTS.reset);
  }

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(location.href);
      say(TEXTS.copied);
    } catch (error) {
      say(TEXTS.not_copied); // no clipboard here (plain HTTP from another machine), or permission refused
    }
  }

  document.querySelector('[data-action="reset"]').addEventListener("click", reset);
  document.querySelector('[data-action="copy-link"]').addEventListener("click", copyLink);

  // Definitions open next to their «?», never over the value they define (the browser's default is
  // the middle of the viewport): just under the button, or under the card's value when the button
  // has one beside it, or above them when the viewport has no room below. Under the whole card or
  // control, a definition opened up to 250 px from its «?» (issue 49). Kept there while the page scrolls.
  const POPOVER_GAP = 6;
  function place(popover, button) {
    const own = button.getBoundingClientRect();
    const value = button.closest(".output, .breakdown-totals > div")?.querySelector(".value");
    const shown = value ? value.getBoundingClientRect() : own;
    const around = { top: Math.min(own.top, shown.top), bottom: Math.max(own.bottom, shown.bottom) };
    // Measured at the viewport's left edge: where it was, near the right one, it wrapped narrow and tall.
    Object.assign(popover.style, { top: "0px", left: "0px" });
    const box = popover.getBoundingClientRect();
    const above = around.top - POPOVER_GAP - box.height;
    const below = around.bottom + POPOVER_GAP;
    const top = below + box.height <= innerHeight || above < 0 ? below : above;
    const left = Math.max(POPOVER_GAP, Math.min(own.right - box.width, innerWidth - box.width - POPOVER_GAP));
    popover.style.top = `${Math.round(top)}px`;
    popover.style.left = `${Math.round(left)}px`;
  }
  let openDefinition = null;
  for (const button of document.querySelectorAll("button[popovertarget]")) {
    const popover = document.getElementById(button.getAttribute("popovertarget"));
    if (!popover) continue;
    // Hidden until placed: "toggle" comes a task after the popover is shown, and its size is known.
    popover.addEventListener("beforetoggle", (event) => {
      if (event.newState === "open") popover.style.visibility = "hidden";
    });
    popover.addEventListener("toggle", (event) => {
      if (event.newState === "open") {
        openDefinition = [popover, button];
        place(popover, button);
        popover.style.visibility = "";
      } else if (openDefinition && openDefinition[0] === popover) {
        openDefinition = null;
      }
    });
  }
  const replace = () => openDefinition && place(...openDefinition);
  addEventListener("scroll", replace, { passive: true });
  addEventListener("resize", replace, { passive: true });

  // Offline after one visit: registered once Python is ready, so it never competes with the boot.
  let serviceWorkerRegistered = false;
  function registerServiceWorker() {
    if (serviceWorkerRegistered || !config.serviceWorker || !("serviceWorker" in navigator)) return;
    serviceWorkerRegistered = true;
    navigator.serviceWorker.register("sw.js").catch((error) => console.warn("raglab: service worker", error));
  }

  // The worker is started by boot.js, after the first frame: take it over, now or once it starts.
  function attachWorker() {
    const boot = window.raglabBoot;
    if (!boot) {
      fail(TEXTS.no_boot);
    } else if (boot.problem === "file") {
      setStatus("error", TEXTS.from_file);
    } else if (boot.problem === "unsupported") {
      fail(TEXTS.unsupported);
    } else if (boot.problem) {
      fail(TEXTS.no_worker, boot.problem);
    } else if (!boot.worker && !boot.deferred) {
      setStatus("loading", loadingText(TEXTS.loading)); // starting after the first frame (boot.js)
      boot.onStart(attachWorker);
    } else if (!boot.worker) {
      // Data saver (boot.js): Python comes with the first use of a control, and says so at once.
      setStatus("static", config.dataSaverText); // raglab_core.words, with the runtime's size
      const lab = document.getElementById("laboratorio");
      const begin = () => {
        for (const type of ["focusin", "pointerdown", "input"]) lab.removeEventListener(type, begin, true);
        boot.begin();
        attachWorker();
      };
      for (const type of ["focusin", "pointerdown", "input"]) lab.addEventListener(type, begin, true);
    } else {
      worker = boot.worker;
      setStatus("loading", loadingText(TEXTS.loading));
      boot.take(onMessage);
    }
  }

  readUrl();
  readEarlyMoves();
  writeUrl();
  markBusy();
  if (window.raglabBoot && window.raglabBoot.views) window.raglabBoot.views.then(useTable);
  // boot.js is inline in <head> and this file deferred: boot.js has run (or failed: then no raglabBoot).
  attachWorker();
})();
