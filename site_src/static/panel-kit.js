/* panel-kit.js — what every panel's script shares («Tus datos», «Tu corpus», and the panels after them).
 *
 * A panel hands files to a worker of its own, shows its progress, and writes what Python answers.
 * This file holds that machinery once: building nodes, saving a file, a status line with its progress,
 * a refusal with its problems, drop zones, the sample's download, and `panel(spec)`, a panel's worker,
 * busy state, errors and messages, parameterised by the panel's elements and callbacks. Loaded before
 * the panel's own script (boot.js loads both on the panel's first use; the judging page links it before
 * juzgar.js, which uses its pieces); it words and computes nothing: every sentence comes in `spec.words`
 * (raglab_core.words), every number from the worker. Messages: the protocol at the top of worker-router.js.
 */
(() => {
  "use strict";

  const NS = "http://www.w3.org/2000/svg";

  /** An HTML element with `attributes` and, if given, `text` (a text node: never markup). */
  function el(tag, attributes = {}, text) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** The same for an SVG element. */
  function svg(tag, attributes = {}, text) {
    const node = document.createElementNS(NS, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** A table's head row: one <th scope="col"> per label. */
  function headRow(labels) {
    const row = el("tr");
    for (const label of labels) row.append(el("th", { scope: "col" }, label));
    return row;
  }

  /** Write a reading (raglab_core.readings): the warning, the verdict in bold, its lines, then the details and
   * caveats inside a closed «Cómo leer esto» disclosure — the DOM that tests/support/readings.py's reading_html writes from the same parts, the tests' model of it. */
  function reading(target, parts) {
    const nodes = [];
    if (parts.warning) nodes.push(el("p", { class: "reading-warning" }, parts.warning));
    const verdict = el("p", { class: "reading-verdict" });
    verdict.append(el("strong", {}, parts.verdict));
    nodes.push(verdict);
    const list = (lines, name) => {
      const ul = el("ul", { class: name });
      ul.append(...lines.map((line) => el("li", {}, line)));
      return ul;
    };
    if (parts.lines.length) nodes.push(list(parts.lines, "reading-lines"));
    if (parts.details.length || parts.caveats.length) {
      const more = el("details", { class: "reading-more" });
      more.append(el("summary", {}, parts.summary));
      if (parts.details.length) more.append(list(parts.details, "reading-details"));
      more.append(...parts.caveats.map((caveat) => el("p", {}, caveat)));
      nodes.push(more);
    }
    target.replaceChildren(...nodes);
  }

  /** Fill `select` with `items` ([value, label] pairs) and choose `chosen` (if given). */
  function options(select, items, chosen) {
    select.replaceChildren(...items.map(([value, label]) => el("option", { value }, label)));
    if (chosen !== undefined) select.value = chosen;
  }

  /** Save `blob` as a file named `name` (the worker built it; here it is only handed to the browser). */
  function save(blob, name) {
    const url = URL.createObjectURL(blob);
    const anchor = el("a", { href: url, download: name });
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  /** Say `text` in the status line `line` (a live region); `fraction` (0 to 1) on the progress `bar` too, which
   * `fraction` undefined hides. */
  function status(line, bar, text, fraction) {
    line.textContent = text;
    bar.hidden = fraction === undefined;
    if (fraction !== undefined) bar.value = fraction;
  }

  /** Write `message` into `line` and a bad file's `problems` (Python's lines: at most ten, then how many more) as
   * the items of `list`, hidden when there are none. */
  function problems(line, list, message, found = []) {
    line.textContent = message;
    list.replaceChildren(...found.map((text) => el("li", {}, text)));
    list.hidden = found.length === 0;
  }

  /** Make `zone` take dropped files: `take(dataTransfer)` gets them (it may be async). */
  function dropZone(zone, take) {
    zone.addEventListener("dragover", (event) => {
      event.preventDefault();
      zone.dataset.dragging = "true";
    });
    zone.addEventListener("dragleave", () => delete zone.dataset.dragging);
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      delete zone.dataset.dragging;
      if (event.dataTransfer) take(event.dataTransfer);
    });
  }

  /**
   * One panel's machinery. `spec`:
   * - `name`: the panel's name, its messages' prefix ("data": "data-evaluate" in, "data-result" out);
   *   `label`: what the console calls its worker's job ("evaluation": "raglab: evaluation worker …");
   * - `root`: its element; `words`: its sentences (raglab_core.words), at least `preparing`, `failed`,
   *   `stopped`, `no_python`, `stale`, `cancelled`, `loading_sample`, `sample_failed`;
   * - `actions`: the data-action names of the buttons that `start` a job, `cancel` it and load the
   *   `sample` (the first and the last are aria-disabled while busy);
   * The rest of the panel is found in `root` by its name (NAME): the status line, a live region
   * ([data-NAME-status]), the error box, focusable and with an id ([data-NAME-error]), its text
   * ([data-NAME-error-text]) and problem list ([data-NAME-problems]), the <progress> at or in
   * [data-NAME-progress] (shown with [data-NAME-progress-box] if there is one, else with itself), and the
   * result's box, hidden until a result is shown ([data-NAME-result]).
   * - `fieldLines`: {field: element} for the fields whose error is written under the field itself
   *   (their controls take the focus and are not described by `errorBox`);
   * - `fieldControls(field, slot)`: the controls an error is about; `requestKey()`: what a job was asked
   *   with (a change makes the shown result stale); `clearResult()`; `onFail(field)` (optional);
   * - `keepPrevious()` (optional): on «Cancelar», put back the results shown before the cancelled job and
   *   say whether there were any; they stay, marked as previous (`words.previous`, `words.cancelled_kept`),
   *   instead of being cleared. Their worker is gone: what needs it says so (`unavailable()`).
   * - `on`: {noun: handler(message)} for the worker's "<name>-<noun>" messages (progress is handled here).
   */
  function panel(spec) {
    const { root, words } = spec;
    const part = (what) => root.querySelector(`[data-${spec.name}-${what}]`);
    const button = (role) => root.querySelector(`[data-action="${spec.actions[role]}"]`);
    const progress = part("progress");
    const bar = progress.matches("progress") ? progress : progress.querySelector("progress");
    const ui = {
      status: part("status"),
      errorBox: part("error"),
      errorLine: part("error-text"),
      problemList: part("problems"),
      progressBox: part("progress-box") || progress,
      result: part("result"),
      start: button("start"),
      cancel: button("cancel"),
    };
    const { status } = ui;
    const busyButtons = [ui.start, button("sample")];
    const fieldLines = spec.fieldLines || {};
    let worker = null;
    let busy = false; // a job runs, or the sample loads: no second one starts
    let id = 0; // the latest job's id: every message about one carries it
    let lastKey = "";
    let shownKey = ""; // what the results on screen were asked with, while a later job runs
    // The results are the previous ones: a visible note at their top, which also describes them.
    const previousNote = el("p", { class: "previous-note", id: `${spec.name}-previous-note`, role: "note", hidden: "" });
    ui.result.prepend(previousNote);

    function markPrevious(on) {
      previousNote.hidden = !on;
      previousNote.textContent = on ? words.previous : "";
      if (on) {
        ui.result.dataset.previous = "true";
        ui.result.setAttribute("aria-describedby", previousNote.id);
      } else {
        delete ui.result.dataset.previous;
        ui.result.removeAttribute("aria-describedby");
      }
    }

    /** A request the previous results cannot answer (their worker is gone): say why in the status line. */
    function unavailable() {
      if (ui.result.dataset.previous) status.textContent = words.previous;
    }

    function setBusy(on) {
      busy = on;
      // aria-disabled, not disabled: a disabled button would drop the keyboard focus to <body>.
      for (const control of busyButtons) control.setAttribute("aria-disabled", String(on));
    }

    function setRunning(on) {
      setBusy(on);
      ui.cancel.hidden = !on;
      ui.progressBox.hidden = !on;
      root.setAttribute("aria-busy", String(on));
    }

    function markStale() {
      if (!ui.result.hidden && !busy && spec.requestKey() !== lastKey) {
        status.textContent = words.stale;
        ui.result.dataset.stale = "true";
      }
    }

    /** Mark `controls` invalid, described by the error box (none: clear every mark). */
    function markInvalid(controls, field) {
      const errorId = ui.errorBox.id;
      for (const control of root.querySelectorAll("[data-invalid-by-panel]")) {
        control.removeAttribute("aria-invalid");
        control.removeAttribute("data-invalid-by-panel");
        const rest = (control.getAttribute("aria-describedby") || "").split(" ").filter((name) => name && name !== errorId);
        if (rest.length) control.setAttribute("aria-describedby", rest.join(" "));
        else control.removeAttribute("aria-describedby");
      }
      for (const control of controls) {
        control.setAttribute("aria-invalid", "true");
        control.dataset.invalidByPanel = "";
        if (field in fieldLines) continue; // its own line, which the control already names
        const described = (control.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
        control.setAttribute("aria-describedby", [...described, errorId].join(" "));
      }
    }

    /**
     * A message, and a bad file's problems as a list (Python's lines: at most ten, then how many more),
     * tied to the field it is about (written under that field when it has a line of its own).
     */
    function showError(message, found = [], field = null, slot = null) {
      const own = field in fieldLines ? fieldLines[field] : null;
      for (const line of Object.values(fieldLines)) line.textContent = line === own ? message : "";
      problems(ui.errorLine, ui.problemList, own ? "" : message, found);
      markInvalid(message ? spec.fieldControls(field, slot) : [], field);
    }

    /** The job failed: say so in the status line (a live region), show why, and move the focus to the reason. */
    function fail(message, found = [], field = null, slot = null) {
      setRunning(false);
      status.textContent = words.failed;
      showError(message, found, field, slot);
      if (spec.onFail) spec.onFail(field);
      const control = field in fieldLines ? spec.fieldControls(field, slot)[0] : null;
      (control || ui.errorBox).focus();
    }

    function dropWorker() {
      if (worker) worker.terminate();
      worker = null;
    }

    function dispatch(message) {
      // About a job since replaced (the boot's messages carry no id)
      if ("id" in message && message.id !== id) return;
      if (message.type === "boot-failure") {
        console.error(`raglab: ${spec.label} worker`, message.detail);
        dropWorker(); // a worker that failed to boot
        spec.clearResult();
        fail(message.text || words.stopped);
        return;
      }
      const prefix = `${spec.name}-`;
      if (!message.type.startsWith(prefix)) return; // the boot's progress: the lab's status line says it
      const noun = message.type.slice(prefix.length);
      if (noun === "progress") {
        kit.status(status, bar, message.text, message.fraction);
      } else if (spec.on[noun]) {
        spec.on[noun](message);
      }
    }

    /** Start a job: "<name>-<verb>" with `fields`, in a worker started now if there is none. */
    function begin(verb, fields) {
      if (!window.raglabBoot || !window.raglabBoot.spawn) return fail(words.no_python);
      if (!worker) {
        worker = window.raglabBoot.spawn();
        worker.addEventListener("message", (event) => dispatch(event.data));
        worker.addEventListener("error", (event) => {
          event.preventDefault();
          console.error(`raglab: ${spec.label} worker`, event.message);
          dropWorker();
          spec.clearResult();
          if (busy) fail(words.stopped);
        });
      }
      shownKey = lastKey;
      markPrevious(false);
      lastKey = spec.requestKey();
      id += 1;
      setRunning(true);
      bar.removeAttribute("value");
      status.textContent = words.preparing;
      ask(verb, fields);
    }

    /** Ask the worker "<name>-<verb>" about job `about` (by default the latest); false when there is no worker. */
    function ask(verb, fields = {}, about = id) {
      if (!worker) {
        unavailable();
        return false;
      }
      worker.postMessage({ type: `${spec.name}-${verb}`, id: about, ...fields });
      return true;
    }

    ui.cancel.addEventListener("click", () => {
      if (!busy) return;
      dropWorker(); // the only way to stop Python mid-run; the next job starts a new worker
      const kept = Boolean(spec.keepPrevious && spec.keepPrevious());
      if (!kept) spec.clearResult(); // nothing shown before: the cancelled job's partial results go
      setRunning(false);
      ui.start.focus(); // Cancel hides itself: the focus must not drop to <body>
      status.textContent = kept ? words.cancelled_kept : words.cancelled;
      if (!kept) return;
      markPrevious(true);
      lastKey = shownKey;
      if (spec.requestKey() !== lastKey) ui.result.dataset.stale = "true";
    });

    /**
     * Load the sample (`items`: [{url, name}]) as chosen texts, then `use(texts)`; said in the status line,
     * and said as failed (the cause on the console) when a file does not come.
     */
    async function sample(items, use) {
      if (busy) return;
      setBusy(true);
      status.textContent = words.loading_sample;
      let texts;
      try {
        texts = await Promise.all(
          items.map(async ({ url, name }) => {
            const response = await fetch(url);
            if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
            return { name, text: await response.text(), sample: true };
          })
        );
      } catch (error) {
        console.error(`raglab: ${spec.label} sample`, error);
        fail(words.sample_failed);
        return;
      }
      setBusy(false);
      use(texts);
    }

    return {
      ...ui,
      get busy() {
        return busy;
      },
      get id() {
        return id;
      },
      get worker() {
        return worker;
      },
      setBusy,
      setRunning,
      markStale,
      unavailable,
      showError,
      fail,
      begin,
      ask,
      sample,
    };
  }

  const kit = { el, svg, headRow, reading, options, save, status, problems, dropZone, panel };
  window.raglabPanelKit = kit;
})();
