/* juzgar.js — the judging page (dist/juzgar/, DESIGN §4.13): pool, judge by keyboard, lose nothing, export.
 *
 * Python (raglab_core, under Pyodide in the lab's worker.js, whose judging part is judge-worker.js) makes the
 * job from the chosen files, words every pair's view, the progress and the downloads. This file moves state:
 * it keeps every grade in IndexedDB, each in its own transaction that ends before the next pair shows, tells
 * the other tabs (BroadcastChannel) and merges theirs by time (the newer grade wins, never the older), and
 * writes the views out as text nodes only: a document's text never becomes markup.
 */
(() => {
  "use strict";

  const config = JSON.parse(document.getElementById("juzgar-config").textContent);
  const W = config.words; // raglab_core.judges.page_texts.page_words
  const $ = (selector) => document.querySelector(selector);
  const absolute = (url) => new URL(url, document.baseURI).href;
  const LETTERS = "abcdefghijkl";

  const ui = {
    status: $("[data-judge-status]"),
    bar: $("[data-judge-progress-bar]"),
    cancel: $('[data-action="cancel"]'),
    storage: $("[data-storage-warning]"),
    jobsEmpty: $("[data-jobs-empty]"),
    jobsList: $("[data-jobs-list]"),
    error: $("[data-judge-error-text]"),
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

  // --- the worker -------------------------------------------------------------------------------

  let worker = null;
  let requestCount = 0;
  const waiting = new Map(); // request id -> {resolve, onProgress}
  let ready = null; // settles when Python is ready (true) or failed (false)
  let loaded = null; // the job id the worker's desk holds

  /** Start a worker; `quiet`: one started again after «Cancelar», whose loading the status does not tell. */
  function spawn(quiet = false) {
    worker = new Worker(absolute(config.worker), { type: "module" });
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
    worker.postMessage({
      type: "boot-start",
      pyodide: absolute(config.pyodide),
      runtime: absolute(config.runtime),
      wasm: { ...config.wasm, url: absolute(config.wasm.url) },
      decoder: { module: absolute(config.decoder.module), wasm: absolute(config.decoder.wasm) },
      wheel: { url: absolute(config.wheel.url), sha256: config.wheel.sha256 },
      snapshot: config.snapshot && { ...config.snapshot, url: absolute(config.snapshot.url) },
      lock: config.lock,
      kit: absolute(config.workerKit),
      panels: Object.fromEntries(Object.entries(config.panelWorkers).map(([name, url]) => [name, absolute(url)])),
      texts: config.workerTexts,
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

  function showStatus(text, fraction) {
    ui.status.textContent = text;
    ui.bar.hidden = fraction === undefined;
    if (fraction !== undefined) ui.bar.value = fraction;
  }

  // --- storage (IndexedDB) ----------------------------------------------------------------------

  // Stores: jobs {id, job, created}; texts {id, texts}; state {id, position, spent}; grades {job, key, grade, at}.
  let db = null;

  function storageFailed(text) {
    db = null;
    ui.storage.textContent = text;
    ui.storage.hidden = false;
  }

  function openStorage() {
    return new Promise((resolve) => {
      let request;
      try {
        request = indexedDB.open("raglab-juzgar", 1);
      } catch (error) {
        console.warn("raglab: IndexedDB unavailable", error);
        return resolve(null);
      }
      request.onupgradeneeded = () => {
        const base = request.result;
        base.createObjectStore("jobs", { keyPath: "id" });
        base.createObjectStore("texts", { keyPath: "id" });
        base.createObjectStore("state", { keyPath: "id" });
        base.createObjectStore("grades", { keyPath: ["job", "key"] }).createIndex("job", "job");
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => {
        console.warn("raglab: IndexedDB refused", request.error);
        resolve(null);
      };
      request.onblocked = () => resolve(null);
    });
  }

  /** Run `work(transaction)` on `stores`; resolves with its result once the transaction has committed. */
  function transact(stores, mode, work) {
    return new Promise((resolve, reject) => {
      const transaction = db.transaction(stores, mode, { durability: "strict" });
      const result = work(transaction);
      transaction.oncomplete = () => resolve(result);
      transaction.onerror = transaction.onabort = () => reject(transaction.error);
    });
  }

  const requestValue = (request) =>
    new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });

  async function stored(store, key) {
    return transact([store], "readonly", (transaction) => requestValue(transaction.objectStore(store).get(key))).then((value) => value);
  }

  async function storedGrades(jobId) {
    const rows = await transact(["grades"], "readonly", (transaction) =>
      requestValue(transaction.objectStore("grades").index("job").getAll(jobId))
    );
    const grades = {};
    for (const row of rows) grades[row.key] = { grade: row.grade, at: row.at };
    return grades;
  }

  async function allJobs() {
    if (!db) return [];
    return transact(["jobs"], "readonly", (transaction) => requestValue(transaction.objectStore("jobs").getAll())).then((value) => value);
  }

  function writeFailed(error) {
    console.warn("raglab: a grade could not be stored", error);
    storageFailed(error && error.name === "QuotaExceededError" ? W.storage_full : W.storage_failed);
  }

  // --- the job being judged -----------------------------------------------------------------------

  let current = null; // {id, job, texts, grades: {key: {grade, at}}, position, spent, since, history: []}
  let view = null; // Python's view of the pair on screen
  let queue = Promise.resolve(); // every action, in order: a key pressed twice is two actions, never mixed
  const channel = "BroadcastChannel" in window ? new BroadcastChannel("raglab-juzgar") : null;

  const pairKey = (index) => current.job.pairs[index].join("\t");
  /** The grades Python reads: an undone grade (null) is no grade. */
  const live = () => Object.fromEntries(Object.entries(current.grades).filter(([, entry]) => entry.grade !== null));
  const spentNow = () => current.spent + (performance.now() - current.since);

  /** Keep `entry` for `key` unless the one held is newer (the later time wins; a tie keeps the held one). */
  function merge(key, entry) {
    const held = current.grades[key];
    if (held && held.at >= entry.at) return false;
    current.grades[key] = entry;
    return true;
  }

  /** Store a grade (or its undoing, grade null) and the position, in one transaction, before anything else. */
  async function saveGrade(key, grade, position) {
    const entry = { grade, at: Math.max(Date.now(), (current.grades[key] ? current.grades[key].at : 0) + 1) };
    merge(key, entry);
    current.position = position;
    if (db) {
      const id = current.id;
      const spent = spentNow();
      try {
        await transact(["grades", "state"], "readwrite", (transaction) => {
          const grades = transaction.objectStore("grades");
          requestValue(grades.get([id, key])).then((old) => {
            if (!old || old.at < entry.at) grades.put({ job: id, key, ...entry });
          });
          transaction.objectStore("state").put({ id, position, spent });
        });
      } catch (error) {
        writeFailed(error);
      }
    }
    if (channel) channel.postMessage({ job: current.id, key, ...entry });
  }

  async function savePosition() {
    if (!db || !current) return;
    const { id, position } = current;
    try {
      await transact(["state"], "readwrite", (transaction) => transaction.objectStore("state").put({ id, position, spent: spentNow() }));
    } catch (error) {
      writeFailed(error);
    }
  }

  if (channel) {
    channel.addEventListener("message", (event) => {
      const { job, key, grade, at } = event.data || {};
      if (!current || job !== current.id) return;
      if (merge(key, { grade, at })) {
        queue = queue.then(() => show(current.position, W.other_tab));
      }
    });
  }

  async function load(id) {
    const [record, texts, state, grades] = await Promise.all([stored("jobs", id), stored("texts", id), stored("state", id), storedGrades(id)]);
    return open(record.job, texts.texts, grades, state ? state.position : 0, state ? state.spent : 0, record.notes || []);
  }

  async function open(job, texts, grades, position, spent, notes) {
    current = { id: job.id, job, texts, grades, position, spent, since: performance.now(), history: [] };
    const answer = await ask("judge-load", { job, texts });
    loaded = answer.job;
    ui.notes.textContent = notes.join(" ");
    ui.compare.hidden = !(job.inputs && (job.inputs.judge || job.inputs["judge-qrels"]));
    setJudging(true);
    await show(Math.min(position, job.pairs.length - 1));
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
    if (loaded !== current.id) {
      const answer = await ask("judge-load", { job: current.job, texts: current.texts });
      loaded = answer.job;
    }
    const answer = await ask("judge-view", { job: current.id, index, grades: current.grades });
    if (!answer.ok) {
      ui.error.textContent = answer.message;
      return;
    }
    view = answer.view;
    current.position = index;
    render(view);
    if (said) ui.announce.textContent = said.replace("{progress}", view.progress.text);
  }

  function segments(parent, list) {
    parent.replaceChildren();
    for (const segment of list) {
      if (segment.mark) {
        const mark = document.createElement("mark");
        mark.textContent = segment.text;
        parent.append(mark);
      } else parent.append(document.createTextNode(segment.text));
    }
  }

  function render(pair) {
    ui.judging.dataset.query = pair.query.id;
    ui.judging.dataset.doc = pair.doc.id;
    ui.judging.dataset.index = String(pair.index);
    ui.progress.dataset.done = String(pair.progress.done);
    ui.progress.dataset.total = String(pair.progress.total);
    ui.progress.textContent = `${pair.progress.text} · ${pair.progress.time}`;
    ui.qid.textContent = pair.query.id;
    ui.query.textContent = pair.query.text;
    ui.docid.textContent = pair.doc.id;
    segments(ui.title, pair.doc.title);
    ui.title.hidden = !pair.doc.title.length;
    segments(ui.text, pair.doc.text);
    ui.cut.textContent = pair.notes.join(" ");
    // The highest grade first, so that on a phone the two rows read 3 2 / 1 0.
    const scale = pair.scale.slice().reverse();
    ui.grades.replaceChildren(
      ...scale.map((level) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "judge-grade";
        button.dataset.grade = String(level.grade);
        button.setAttribute("aria-keyshortcuts", level.key);
        button.setAttribute("aria-pressed", String(pair.grade === level.grade));
        const name = document.createElement("strong");
        name.textContent = `${level.grade} · ${level.label}`;
        const definition = document.createElement("span");
        definition.textContent = level.definition;
        button.append(name, definition);
        return button;
      })
    );
    const chosen = pair.scale.find((level) => level.grade === pair.grade);
    ui.current.textContent = chosen ? `${chosen.grade} · ${chosen.label}` : "";
  }

  /** Grade the pair on screen `grade`, store it, then show the next pair. */
  async function grade(value) {
    if (!current || !view) return;
    const scale = view.scale || [];
    const level = scale.find((item) => item.grade === value);
    if (!level) return;
    const index = current.position;
    const key = pairKey(index);
    current.history.push({ key, index, previous: current.grades[key] ? { ...current.grades[key] } : null });
    const next = Math.min(index + 1, current.job.pairs.length - 1);
    await saveGrade(key, value, next);
    await show(next, W.saved.replace("{grade}", `${level.grade} · ${level.label}`));
  }

  async function undo() {
    if (!current || !current.history.length) return;
    const { key, index, previous } = current.history.pop();
    await saveGrade(key, previous ? previous.grade : null, index);
    await show(index, W.undone);
  }

  async function move(step) {
    if (!current) return;
    const index = Math.max(0, Math.min(current.job.pairs.length - 1, current.position + step));
    if (index === current.position) return;
    current.position = index;
    await savePosition();
    await show(index);
  }

  const act = (work) => (queue = queue.then(work).catch((error) => console.error("raglab:", error)));

  document.addEventListener("keydown", (event) => {
    if (!current || ui.judging.hidden || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (/^[0-3]$/.test(event.key)) {
      event.preventDefault();
      act(() => grade(Number(event.key)));
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
    if (button) act(() => grade(Number(button.dataset.grade)));
  });
  $('[data-action="next"]').addEventListener("click", () => act(() => move(1)));
  $('[data-action="previous"]').addEventListener("click", () => act(() => move(-1)));
  $('[data-action="undo"]').addEventListener("click", () => act(undo));
  ui.keysButton.addEventListener("click", toggleKeys);
  $('[data-action="close-job"]').addEventListener("click", () =>
    act(async () => {
      await savePosition();
      current = null;
      setJudging(false);
      await listJobs();
    })
  );

  // --- out: downloads and the lab ---------------------------------------------------------------

  async function exported(kind) {
    const answer = await ask("judge-export", { job: current.id, kind, grades: current.grades });
    if (!answer.ok) {
      ui.error.textContent = answer.message;
      return null;
    }
    return answer;
  }

  function save(file) {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(file.blob);
    link.download = file.name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  }

  for (const kind of ["qrels", "json"]) {
    $(`[data-action="export-${kind}"]`).addEventListener("click", () =>
      act(async () => {
        const file = await exported(kind);
        if (file) save(file);
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

  async function listJobs() {
    const records = await allJobs();
    const items = await Promise.all(records.map(async (record) => ({ record, grades: await storedGrades(record.id) })));
    const answer = items.length
      ? await ask("judge-summarize", {
          jobs: items.map(({ record, grades }) => ({
            job: record.job,
            grades: Object.fromEntries(Object.entries(grades).filter(([, entry]) => entry.grade !== null)),
          })),
        })
      : { summaries: [] };
    ui.jobsEmpty.hidden = items.length > 0;
    ui.jobsList.replaceChildren(
      ...items.map(({ record }, index) => {
        const summary = (answer.summaries[index] || {}).summary || {};
        const row = document.createElement("li");
        row.className = "judge-job";
        row.dataset.job = record.id;
        const text = document.createElement("p");
        const names = Object.values(summary.inputs || {}).map((input) => input.name);
        text.textContent = [names.join(", "), summary.text, summary.time].filter(Boolean).join(" · ");
        const resume = document.createElement("button");
        resume.type = "button";
        resume.dataset.action = "resume-judging";
        resume.textContent = W.resume;
        resume.addEventListener("click", () => act(() => load(record.id)));
        const remove = document.createElement("button");
        remove.type = "button";
        remove.dataset.action = "delete-job";
        remove.textContent = W.delete;
        remove.addEventListener("click", () => act(() => deleteJob(record.id)));
        row.append(text, resume, remove);
        return row;
      })
    );
    return items.map(({ record, grades }, index) => ({ record, grades, summary: (answer.summaries[index] || {}).summary || {} }));
  }

  async function deleteJob(id) {
    if (!window.confirm(W.delete_confirm)) return;
    await transact(["jobs", "texts", "state", "grades"], "readwrite", (transaction) => {
      for (const store of ["jobs", "texts", "state"]) transaction.objectStore(store).delete(id);
      transaction.objectStore("grades").delete(IDBKeyRange.bound([id, ""], [id, "\uffff"]));
    });
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
    const runs = [];
    for (const letter of LETTERS) {
      const run = one(`run-${letter}`);
      if (run) runs.push(run);
    }
    return {
      runs, pool: one("pool"), job: one("job"), qrels: one("qrels"), judge: one("judge-qrels"),
      queries: one("queries"), corpus: chosenFiles("corpus"),
      depth: setting("depth").value, sample: setting("sample").value, seed: setting("seed").value, scale: setting("scale").value,
    };
  }

  async function make(request) {
    ui.error.textContent = "";
    ui.cancel.hidden = false;
    lastRequest = request;
    const answer = await ask("judge-make", { request }, (message) => showStatus(message.text, message.fraction));
    ui.cancel.hidden = true;
    showStatus(answer.cancelled ? W.cancelled : W.ready);
    if (answer.cancelled) return;
    if (!answer.ok) {
      ui.error.textContent = answer.message + (answer.problems && answer.problems.length ? ` ${answer.problems.join(" ")}` : "");
      ui.errorBox.focus();
      return;
    }
    const { job, grades, texts, notes } = answer.panel;
    if (db) {
      try {
        await transact(["jobs", "texts", "state", "grades"], "readwrite", (transaction) => {
          transaction.objectStore("jobs").put({ id: job.id, job, notes, created: Date.now() });
          transaction.objectStore("texts").put({ id: job.id, texts });
          transaction.objectStore("state").put({ id: job.id, position: 0, spent: 0 });
          for (const [key, entry] of Object.entries(grades || {})) transaction.objectStore("grades").put({ job: job.id, key, ...entry });
        });
      } catch (error) {
        writeFailed(error);
      }
    }
    if (request.job) ui.announce.textContent = W.imported;
    await open(job, texts, { ...(grades || {}) }, firstUnjudged(job, grades || {}), 0, notes || []);
  }

  const firstUnjudged = (job, grades) => {
    const index = job.pairs.findIndex((pair) => !(grades[pair.join("\t")] && grades[pair.join("\t")].grade !== null));
    return index < 0 ? 0 : index;
  };

  $('[data-action="start-judging"]').addEventListener("click", () => act(() => make(newRequest())));

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
    spawn(true);
    showStatus(W.cancelled);
  });

  // --- start --------------------------------------------------------------------------------------

  async function start() {
    showStatus(W.loading);
    spawn();
    db = await openStorage();
    if (!db) storageFailed(W.storage_failed);
    if (!(await ready)) return;
    const jobs = await listJobs();
    const open = jobs.filter(({ record, grades }) =>
      record.job.pairs.some((pair) => !(grades[pair.join("\t")] && grades[pair.join("\t")].grade !== null))
    );
    if (open.length === 1) await load(open[0].record.id);
  }

  window.addEventListener("pagehide", () => {
    if (current) savePosition();
  });
  act(start);
})();
