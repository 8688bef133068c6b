/* juzgar.js — the judging page (dist/juzgar/, DESIGN §4.13): pool, judge by keyboard, lose nothing, export.
 *
 * Python (raglab_core, under Pyodide in the site's worker, worker.js, whose judging part is judge-worker.js)
 * makes the job from the chosen files and words every pair's view, the progress, the list of jobs and the
 * downloads; it says where to resume, which jobs are finished, each pair's key and each grade's key. This file
 * moves state: judge-store.js keeps every grade (IndexedDB) before the next pair shows and tells the other tabs,
 * whose grades come back here (the newer grade wins, never the older); the worker is started by spawn.js (inline,
 * as on the lab), and a file is saved, a status said and a refusal listed with panel-kit.js's `save`, `status` and
 * `problems`. The views are written out as text nodes only: a document's text never becomes markup.
 */
(() => {
  "use strict";

  const config = JSON.parse(document.getElementById("juzgar-config").textContent);
  const W = config.words; // raglab_core.judges' page words
  const kit = window.raglabPanelKit;
  const { el } = kit;
  const $ = (selector) => document.querySelector(selector);
  const absolute = (url) => new URL(url, document.baseURI).href;

  const ui = {
    status: $("[data-judge-status]"),
    bar: $("[data-judge-progress-bar]"),
    cancel: $('[data-action="cancel"]'),
    start: $('[data-action="start-judging"]'),
    storage: $("[data-storage-warning]"),
    jobsEmpty: $("[data-jobs-empty]"),
    jobsList: $("[data-jobs-list]"),
    error: $("[data-judge-error-text]"),
    problems: $("[data-judge-problems]"),
    errorBox: $("[data-judge-error]"),
    judging: $("[data-judging]"),
    progress: $("[data-judging-progress]"),
    notes: $("[data-judge-notes]"),
    qid: $("[data-judge-qid]"),
    query: $("[data-judge-query]"),
    docid: $("[data-judge-docid]"),
    title: $("[data-judge-title]"),
    text: $("[data-judge-text]"),
    cut: $("[data-judge-cut]"),
    current: $("[data-judge-current]"),
    grades: $("[data-judge-grades]"),
    keys: $("[data-judge-keys]"),
    keysButton: $('[data-action="keys"]'),
    compare: $('[data-action="compare-judge"]'),
    announce: $("[data-announce]"),
  };
  const setting = (name) => $(`[data-setting="${name}"]`);
  const showStatus = (text, fraction) => kit.status(ui.status, ui.bar, text, fraction);
  const showError = (message, problems = []) => kit.problems(ui.error, ui.problems, message, problems);

  // --- the worker -------------------------------------------------------------------------------

  let worker = null;
  let requestCount = 0;
  const waiting = new Map(); // request id -> {resolve, onProgress}
  let ready = null; // settles when Python is ready (true) or failed (false)
  let loaded = null; // the job id the worker's desk holds

  /** Start a worker (spawn.js); `quiet`: one started again after «Cancelar», whose loading the status does not tell. */
  function spawn(quiet = false) {
    worker = window.raglabSpawn(config);
    let settle;
    ready = new Promise((resolve) => (settle = resolve));
    loaded = null;
    worker.addEventListener("message", (event) => {
      const message = event.data;
      if (message.type === "boot-progress") return quiet || showStatus(message.text, message.fraction);
      if (message.type === "boot-ready") {
        if (!quiet) showStatus(W.ready);
        document.documentElement.dataset.judgeReady = "true";
        return settle(true);
      }
      if (message.type === "boot-failure") {
        console.error("raglab: Python failed to load", message.detail);
        showStatus(message.text || W.boot_failed);
        return settle(false);
      }
      const asked = waiting.get(message.id);
      if (!asked) return;
      if (message.type === "judge-progress") return asked.onProgress && asked.onProgress(message);
      waiting.delete(message.id);
      asked.resolve(message);
    });
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      showStatus(W.boot_failed);
      settle(false);
    });
  }

  /** Ask the worker (`type`, `fields`); resolves with its answer. */
  async function ask(type, fields, onProgress) {
    if (!(await ready)) return { ok: false, message: W.boot_failed };
    const id = ++requestCount;
    return new Promise((resolve) => {
      waiting.set(id, { resolve, onProgress });
      worker.postMessage({ type, id, ...fields });
    });
  }

  // --- the job being judged -----------------------------------------------------------------------

  let store = null; // judge-store.js, opened
  let current = null; // {id, job, texts, notes, grades: {key: {grade, at}}, position, history: []}
  let view = null; // Python's view of the pair on screen
  let queue = Promise.resolve(); // every action, in order: a key pressed twice is two actions, never mixed

  /** Another tab's grade: kept when newer, and the pair on screen shown again. */
  function heard(job, key, entry) {
    if (!current || job !== current.id || !window.raglabJudgeStore.newer(current.grades[key], entry)) return;
    current.grades[key] = entry;
    queue = queue.then(() => show(current.position, W.other_tab));
  }

  function storageFailed(kind) {
    ui.storage.textContent = kind === "full" ? W.storage_full : W.storage_failed;
    ui.storage.hidden = false;
  }

  /** Store a grade (or its undoing, grade null) and the position, before anything else. */
  async function saveGrade(key, grade, position) {
    const held = current.grades[key];
    const entry = { grade, at: Math.max(Date.now(), (held ? held.at : 0) + 1) };
    current.grades[key] = entry;
    current.position = position;
    await store.grade(current.id, key, entry, position);
  }

  const savePosition = () => current && store.position(current.id, current.position);

  /** Load the job in the worker's desk; Python's summary of it says where to resume. */
  async function loadDesk() {
    const answer = await ask("judge-load", { job: current.job, texts: current.texts, grades: current.grades });
    loaded = answer.job;
    return answer.summary;
  }

  /** Open a job to judge it, at `position` or, when none was kept, where Python says to resume. */
  async function open({ job, texts, notes, grades, position }) {
    current = { id: job.id, job, texts, notes, grades, position: 0, history: [] };
    const summary = await loadDesk();
    ui.notes.textContent = notes.join(" ");
    ui.compare.hidden = !(job.inputs && (job.inputs.judge || job.inputs["judge-qrels"]));
    setJudging(true);
    await show(position ?? summary.resume);
    ui.judging.focus();
  }

  /** While a job is judged, it is the page (the list and the new job's inputs come back with «Volver a la lista»). */
  function setJudging(on) {
    ui.judging.hidden = !on;
    $("[data-jobs]").hidden = on;
    $(".judge-inputs").hidden = on;
  }

  /** Show pair `index` (Python's view); `said` is announced with its progress. */
  async function show(index, said) {
    if (!current) return;
    if (loaded !== current.id) await loadDesk();
    const answer = await ask("judge-view", { job: current.id, index, grades: current.grades });
    if (!answer.ok) {
      showError(answer.message);
      return;
    }
    view = answer.view;
    current.position = view.index;
    render(view);
    if (said) ui.announce.textContent = said.replace("{progress}", view.progress.text);
  }

  function segments(parent, list) {
    parent.replaceChildren(...list.map((segment) => (segment.mark ? el("mark", {}, segment.text) : document.createTextNode(segment.text))));
  }

  function render(pair) {
    ui.judging.dataset.query = pair.query.id;
    ui.judging.dataset.doc = pair.doc.id;
    ui.judging.dataset.index = String(pair.index);
    ui.progress.dataset.done = String(pair.progress.done);
    ui.progress.dataset.total = String(pair.progress.total);
    ui.progress.textContent = pair.progress.line;
    ui.qid.textContent = pair.query.id;
    ui.query.textContent = pair.query.text;
    ui.docid.textContent = pair.doc.id;
    segments(ui.title, pair.doc.title);
    ui.title.hidden = !pair.doc.title.length;
    segments(ui.text, pair.doc.text);
    ui.cut.textContent = pair.notes.join(" ");
    // The highest grade first, so that on a phone the two rows read 3 2 / 1 0.
    ui.grades.replaceChildren(
      ...pair.scale.slice().reverse().map((level) => {
        const button = el("button", { type: "button", class: "judge-grade", "data-grade": level.grade,
          "aria-keyshortcuts": level.key, "aria-pressed": String(pair.grade === level.grade) });
        button.append(el("strong", {}, level.line), el("span", {}, level.definition));
        return button;
      })
    );
    const chosen = pair.scale.find((level) => level.grade === pair.grade);
    ui.current.textContent = chosen ? chosen.line : "";
  }

  /** Grade the pair on screen with `level` (one of its view's scale), store it, then show the next pair. */
  async function grade(level) {
    if (!current || !view) return;
    const { index, key } = view;
    const previous = current.grades[key];
    current.history.push({ key, index, previous: previous ? { ...previous } : null });
    await saveGrade(key, level.grade, view.next);
    await show(view.next, W.saved.replace("{grade}", level.line));
  }

  async function undo() {
    if (!current || !current.history.length) return;
    const { key, index, previous } = current.history.pop();
    await saveGrade(key, previous ? previous.grade : null, index);
    await show(index, W.undone);
  }

  /** Move to the pair before (`step` -1) or after (1), as the view names them. */
  async function move(step) {
    if (!current || !view) return;
    const index = step < 0 ? view.previous : view.next;
    if (index === view.index) return;
    current.position = index;
    await savePosition();
    await show(index);
  }

  const act = (work) => (queue = queue.then(work).catch((error) => console.error("raglab:", error)));

  document.addEventListener("keydown", (event) => {
    if (!current || ui.judging.hidden || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    const level = view && view.scale.find((item) => item.key === event.key);
    if (level) {
      event.preventDefault();
      act(() => grade(level));
    } else if (event.key === "ArrowRight") {
      event.preventDefault();
      act(() => move(1));
    } else if (event.key === "ArrowLeft") {
      event.preventDefault();
      act(() => move(-1));
    } else if (event.key === "u" || event.key === "U") {
      event.preventDefault();
      act(undo);
    } else if (event.key === "?") {
      event.preventDefault();
      toggleKeys();
    }
  });

  function toggleKeys() {
    ui.keys.hidden = !ui.keys.hidden;
    ui.keysButton.setAttribute("aria-expanded", String(!ui.keys.hidden));
  }

  ui.grades.addEventListener("click", (event) => {
    const button = event.target.closest("[data-grade]");
    const level = button && view && view.scale.find((item) => String(item.grade) === button.dataset.grade);
    if (level) act(() => grade(level));
  });
  $('[data-action="next"]').addEventListener("click", () => act(() => move(1)));
  $('[data-action="previous"]').addEventListener("click", () => act(() => move(-1)));
  $('[data-action="undo"]').addEventListener("click", () => act(undo));
  ui.keysButton.addEventListener("click", toggleKeys);
  $('[data-action="close-job"]').addEventListener("click", () =>
    act(async () => {
      await savePosition();
      current = null;
      view = null;
      setJudging(false);
      await listJobs();
    })
  );

  // --- out: downloads and the lab ---------------------------------------------------------------

  async function exported(kind) {
    const answer = await ask("judge-export", { job: current.id, kind, grades: current.grades });
    if (!answer.ok) {
      showError(answer.message);
      return null;
    }
    return answer;
  }

  for (const kind of ["qrels", "json"]) {
    $(`[data-action="export-${kind}"]`).addEventListener("click", () =>
      act(async () => {
        const file = await exported(kind);
        if (file) kit.save(file.blob, file.name);
      })
    );
  }

  /** Open «Tus datos» with these qrels (and the job's runs, when the page still has them). */
  async function handOver(withJudge) {
    const file = await exported("qrels");
    if (!file) return;
    const runs = [];
    for (const item of lastRequest ? lastRequest.runs : []) runs.push({ name: item.name, text: item.text ?? (await item.file.text()) });
    const handoff = { qrels: { name: file.name, text: await file.blob.text() }, runs };
    if (withJudge && lastRequest && lastRequest.judge) {
      const judge = lastRequest.judge;
      handoff.judge = { name: judge.name, text: judge.text ?? (await judge.file.text()) };
    }
    try {
      sessionStorage.setItem("raglab-handoff", JSON.stringify(handoff));
    } catch (error) {
      console.warn("raglab: the handoff could not be kept", error);
    }
    location.href = absolute(`${config.lab}${withJudge ? "#te-fias" : "#tus-datos"}`);
  }
  $('[data-action="evaluate-in-lab"]').addEventListener("click", () => act(() => handOver(false)));
  ui.compare.addEventListener("click", () => act(() => handOver(true)));

  // --- the list of jobs -------------------------------------------------------------------------

  /** List the stored jobs as Python words them; resolves with [{record, summary}]. */
  async function listJobs() {
    const items = await store.jobs();
    const answer = items.length
      ? await ask("judge-summarize", { jobs: items.map(({ record, grades }) => ({ job: record.job, grades })) })
      : { summaries: [] };
    const listed = items.map(({ record }, index) => ({ record, summary: (answer.summaries[index] || {}).summary || {} }));
    ui.jobsEmpty.hidden = items.length > 0;
    ui.jobsList.replaceChildren(
      ...listed.map(({ record, summary }) => {
        const row = el("li", { class: "judge-job", "data-job": record.id });
        const resume = el("button", { type: "button", "data-action": "resume-judging" }, W.resume);
        resume.addEventListener("click", () => act(async () => open(await store.job(record.id))));
        const remove = el("button", { type: "button", "data-action": "delete-job" }, W.delete);
        remove.addEventListener("click", () => act(() => deleteJob(record.id)));
        row.append(el("p", {}, summary.line || ""), resume, remove);
        return row;
      })
    );
    return listed;
  }

  async function deleteJob(id) {
    if (!window.confirm(W.delete_confirm)) return;
    await store.remove(id);
    ui.announce.textContent = W.deleted;
    await listJobs();
  }

  // --- a new job --------------------------------------------------------------------------------

  let lastRequest = null; // the files of the job made last (for «Evaluar en Tus datos»)

  function chosenFiles(slot) {
    const input = $(`[data-file-for="${slot}"]`);
    return input ? Array.from(input.files || []).map((file) => ({ name: file.webkitRelativePath || file.name, file })) : [];
  }

  function newRequest() {
    const one = (slot) => chosenFiles(slot)[0] || null;
    return {
      runs: config.runSlots.map((letter) => one(`run-${letter.toLowerCase()}`)).filter(Boolean),
      pool: one("pool"), job: one("job"), qrels: one("qrels"), judge: one("judge-qrels"),
      queries: one("queries"), corpus: chosenFiles("corpus"),
      depth: setting("depth").value, sample: setting("sample").value, seed: setting("seed").value, scale: setting("scale").value,
    };
  }

  async function make(request) {
    showError("");
    ui.cancel.hidden = false;
    lastRequest = request;
    const answer = await ask("judge-make", { request }, (message) => showStatus(message.text, message.fraction));
    ui.cancel.hidden = true;
    showStatus(answer.cancelled ? W.cancelled : W.ready);
    if (answer.cancelled) return;
    if (!answer.ok) {
      showError(answer.message, answer.problems || []);
      ui.errorBox.focus();
      return;
    }
    const { job, grades, texts, notes } = answer.panel;
    await store.add(job, texts, notes || [], grades || {});
    if (request.job) ui.announce.textContent = W.imported;
    await open({ job, texts, notes: notes || [], grades: { ...(grades || {}) } });
  }

  ui.start.addEventListener("click", () => act(() => make(newRequest())));

  $('[data-action="sample-job"]').addEventListener("click", () =>
    act(async () => {
      showStatus(W.sample_loading);
      const fetched = async (url) => ({ name: url.split("/").pop(), text: await (await fetch(absolute(url))).text() });
      const sample = config.sample;
      const [queries, corpus, judge, ...runs] = await Promise.all(
        [sample.queries, sample.corpus, sample.judge, ...sample.runs].map(fetched)
      );
      await make({ runs, pool: null, job: null, qrels: null, judge, queries, corpus: [corpus],
                   depth: sample.depth, sample: "", seed: setting("seed").value, scale: setting("scale").value });
    })
  );

  ui.cancel.addEventListener("click", () => {
    // Stopping the worker stops the reading at once; a new one loads, and the desk is loaded again.
    worker.terminate();
    for (const [id, asked] of waiting) asked.resolve({ id, ok: false, cancelled: true, message: W.cancelled });
    waiting.clear();
    ui.cancel.hidden = true;
    ui.start.focus(); // «Cancelar» hides itself: the focus must not drop to <body>
    spawn(true);
    showStatus(W.cancelled);
  });

  // --- start --------------------------------------------------------------------------------------

  async function start() {
    showStatus(W.loading);
    spawn();
    store = await window.raglabJudgeStore.open({ failed: storageFailed, heard });
    if (!(await ready)) return;
    const unfinished = (await listJobs()).filter(({ summary }) => summary.finished === false);
    if (unfinished.length === 1) await open(await store.job(unfinished[0].record.id));
  }

  window.addEventListener("pagehide", () => savePosition());
  act(start);
})();
