/* worker-router.js — where each message to the worker goes (worker.js imports it at "boot-start", while
 * Python loads): the lab's states to raglab_core.browser.compute_json, a panel's messages to its part of the
 * worker (data-worker.js, corpus-worker.js, judge-worker.js, with worker-kit.js), imported on its first job.
 * Every part answers with one signature, `answer(message, tools)`; `tools` is {post, kit, python, texts, slots}:
 * `post(type, fields)` sends a message, `kit` is worker-kit.js (null for the lab, whose start never parses it),
 * `python` is raglab_core.browser, `texts` every sentence the worker says (raglab_core.words.worker_texts),
 * `slots` the runs' slots as Python names them (raglab_core.runs.inputs.SLOTS, through the page's configuration).
 * This file only routes; Python computes and words everything.
 *
 * Its messages, in and out, all here: one scheme, "<part>-<verb>" in (page → worker) and "<part>-<noun>"
 * out (worker → page), where the part is the boot, the lab or a panel. A message about one job of a panel
 * carries the job's `id` (the page's count of its jobs); the page ignores answers about a job it has
 * since replaced, and a worker answers only about the job it holds. Failures come in two kinds, never
 * mixed: "boot-failure", the worker cannot serve (Python did not load, or its script did not run), and
 * a refusal of one input ("lab-refusal"; a panel's "-result" with `ok: false`), after which the worker
 * serves on.
 *
 * The boot (every worker, the lab's, each panel's and the judging page's: spawn.js starts them):
 * @typedef {{type: "boot-start", pyodide: string, runtime: string, wasm: {url: string, integrity: string},
 *   decoder: {module: string, wasm: string}, wheel: {url: string, sha256: string},
 *   snapshot: ({url: string, integrity: string, size: number, xorBytes: number,
 *   layout: {head: number, page: number, runs: number[][]},
 *   progress: Array<[number, number, string]>, keptCache: string} | null),
 *   lock: object, router: string, slots: string[], kit: string, panels: Object<string, string>,
 *   texts: Object<string, string>}} BootStartMessage
 *   Where Python is (spawn.js; `wasm`, the runtime's wasm as its brotli copy, and `decoder`:
 *   raglab_site/runtime.py; the snapshot's entry: raglab_site/snapshot.py); `router`: this file's URL; `slots`: the runs' slots;
 *   `kit`: worker-kit.js's URL;
 *   `panels`: each panel's part of the worker by panel name ({data: data-worker.js's URL, corpus:
 *   corpus-worker.js's; on the judging page, judge: judge-worker.js's}); `texts`: every sentence this worker says, by name (raglab_core.words.worker_texts,
 *   put in the page at build time).
 * @typedef {{type: "boot-progress", text: string, fraction: number}} BootProgressMessage  While Python loads.
 * @typedef {{type: "boot-notice", text: string}} BootNoticeMessage  A problem the boot recovered from.
 * @typedef {{type: "boot-ready", boot: ("snapshot" | "plain"), milestones: object}} BootReadyMessage
 * @typedef {{type: "boot-failure", text: ?string, detail: string}} BootFailureMessage  The worker cannot
 *   serve: `text` says why (null when its script itself failed, sent by boot.js: the page words it),
 *   `detail` is the cause, for the console.
 *
 * The lab (lab.js):
 * @typedef {{type: "lab-compute", state: object, ahead?: boolean}} LabComputeMessage  A lab state;
 *   `ahead`: one lab.js asks for before the user does.
 * @typedef {{type: "lab-view", view: object, ms: number, ahead: boolean}} LabViewMessage  compute's view.
 * @typedef {{type: "lab-refusal", ahead: boolean, text?: string, detail?: ?string}} LabRefusalMessage
 *   Python refused (or failed on) a state: for an `ahead` one, nothing more (said if and when the user
 *   asks for it); otherwise `text` says why and `detail` is the refused field, or the trace when
 *   Python itself failed.
 *
 * «Tus datos» (data.js, data-worker.js), `id` its evaluation:
 * @typedef {{name: string, file?: File, text?: string}} DataFile  A chosen file or pasted text.
 * @typedef {{type: "data-evaluate", id: number, request: {qrels: DataFile, runs: DataFile[],
 *   measures: string, ties: string, complete: boolean, fusion: (object | null), judge: (DataFile | null),
 *   judgeForRuns: boolean, judgeSample: boolean}}} DataEvaluateMessage
 *   1 to 12 runs (0 with `judge`); `fusion`: raglab_core.runs.fused.fusion_settings; `judge`: a judge's
 *   qrels, compared with `qrels` (raglab_core.judges.agreement_session; `judgeForRuns`: the runs evaluated with it;
 *   `judgeSample`: it is the page's synthetic sample).
 *   Answered by "data-progress" ({fraction, text}), then "data-result".
 * @typedef {{type: "data-sort", id: number, request: number, column: number, ascending: boolean,
 *   limit: number}} DataSortMessage  The first `limit` per-query rows of that evaluation, sorted by
 *   `column`; `request` numbers the asks of one table. Answered by "data-rows".
 * @typedef {{type: "data-open", id: number, qid: string}} DataOpenMessage  A query's first documents in
 *   each run (raglab_core.runs.panel.query_detail). Answered by "data-detail".
 * @typedef {{type: "data-compare", id: number, baseline: number, candidate: number}} DataCompareMessage
 *   Two of three runs or more compared in detail (raglab_core.runs.panel.pair_view). Answered by
 *   "data-comparison".
 * @typedef {{type: "data-export", id: number, kind: ("json" | "csv" | "fused" | "agreement")}} DataExportMessage
 *   What `eval --json` prints, the per-query table, the fused run as `fuse` prints it, or what `agree
 *   --json` prints. Answered by
 *   "data-file".
 * @typedef {{type: "data-progress", id: number, fraction: number, text: string}} DataProgressMessage
 * @typedef {{type: "data-result", id: number, ok: boolean, panel?: object, message?: string,
 *   problems?: string[], field?: string, slot?: string, internal?: boolean, detail?: string}} DataResultMessage
 *   The panel (raglab_core.runs.panel.panel_view, without its rows but with `row_count`; with a judge,
 *   `agreement`, raglab_core.judges.panel.agreement_view, and no means without runs), or why the input
 *   was refused (`internal`: Python failed; `detail` its trace; `slot` "judge": the judge's qrels).
 * @typedef {{type: "data-rows", id: number, request: number, rows: (object[][] | null)}} DataRowsMessage
 *   `rows` null: this worker does not hold that evaluation's rows.
 * @typedef {{type: "data-detail", id: number, ok: boolean, detail?: object}} DataDetailMessage
 * @typedef {{type: "data-comparison", id: number, ok: boolean, comparison?: object, message?: string}} DataComparisonMessage
 * @typedef {{type: "data-file", id: number, ok: boolean, name?: string, blob?: Blob,
 *   message?: string}} DataFileMessage  A file to save.
 * (Questions about an evaluation this worker does not hold: rows null, detail, comparison and file unanswered.)
 *
 * «Tu corpus» (corpus.js, corpus-worker.js), `id` its measurement:
 * @typedef {{type: "corpus-measure", id: number, request: {corpus: DataFile[], queries: ?DataFile,
 *   evidence: ?DataFile, qrels: ?DataFile (one at least), chunks: ?DataFile, run: ?DataFile, sweep: string,
 *   baseline: string, k1: string, b: string, at: string}}} CorpusMeasureMessage  Answered by
 *   "corpus-progress", one "corpus-row" per configuration, then "corpus-result".
 * @typedef {{type: "corpus-open", id: number, qid: string, first: number, second: number}} CorpusOpenMessage
 *   A query's chunks in two configurations. Answered by "corpus-detail".
 * @typedef {{type: "corpus-export", id: number, kind: ("json" | "chunks" | "chunk-run" | "document-run"),
 *   index: number}} CorpusExportMessage  Answered by "corpus-file".
 * @typedef {{type: "corpus-progress", id: number, fraction: number, text: string}} CorpusProgressMessage
 * @typedef {{type: "corpus-row", id: number, row: object}} CorpusRowMessage  raglab_core.corpus.panel.config_row.
 * @typedef {{type: "corpus-result", id: number, ok: boolean, panel?: object, message?: string,
 *   problems?: string[], field?: string, slot?: string, internal?: boolean, detail?: string}} CorpusResultMessage
 * @typedef {{type: "corpus-detail", id: number, ok: boolean, detail?: object}} CorpusDetailMessage
 *   raglab_core.corpus.panel.query_detail.
 * @typedef {{type: "corpus-file", id: number, ok: boolean, name?: string, blob?: Blob, message?: string}} CorpusFileMessage
 * (Questions about a measurement this worker does not hold: unanswered.)
 *
 * The judging page (juzgar.js, judge-worker.js), `id` its request:
 * @typedef {{type: "judge-make", id: number, request: {runs: DataFile[], pool: ?DataFile, job: ?DataFile,
 *   qrels: ?DataFile, judge: ?DataFile, queries: ?DataFile, corpus: DataFile[], depth: string, sample: string,
 *   seed: string, scale: string}}} JudgeMakeMessage  Answered by "judge-progress", then "judge-result"
 *   ({ok, panel: {job, grades, texts, notes}} or the refusal, as a panel's).
 * @typedef {{type: "judge-load", id: number, job: object, texts: object, grades: object}} JudgeLoadMessage  The
 *   job to judge (raglab_core.browser.JudgeDesk); answered by "judge-loaded" ({job: its id, summary:
 *   raglab_core.judges.exports.job_summary, whose `resume` says where to resume it}).
 * @typedef {{type: "judge-view", id: number, index: number, grades: object}} JudgeViewMessage
 *   Answered by "judge-pair" ({ok, view}: raglab_core.judges.pair_view.pair_view: the pair's `key`, its
 *   `previous` and `next`, each grade's `key` and `line`, the progress's `line`).
 * @typedef {{type: "judge-export", id: number, kind: ("qrels" | "json"), grades: object}} JudgeExportMessage
 *   Answered by "judge-file".
 * @typedef {{type: "judge-summarize", id: number, jobs: Array<{job: object, grades: object}>}} JudgeSummarizeMessage
 *   Answered by "judge-summaries" (the list of stored jobs, worded: each job_summary's `line` and `finished`).
 */

/** The lab's part: a state in, its view (or the refusal) out. */
function answerLab(message, { post, python, texts }) {
  if (message.type !== "lab-compute") return;
  const ahead = Boolean(message.ahead);
  try {
    const started = performance.now();
    const result = JSON.parse(python.compute_json(JSON.stringify(message.state)));
    if (result.ok) post("lab-view", { view: result.view, ms: performance.now() - started, ahead });
    else post("lab-refusal", ahead ? { ahead } : { ahead, text: result.text, detail: result.internal ? result.detail : result.field });
  } catch (error) {
    // An `ahead` state's failure is said if and when the user asks for this state.
    post("lab-refusal", ahead ? { ahead } : { ahead, text: texts.compute_failed, detail: String(error && error.stack ? error.stack : error) });
  }
}

/**
 * The route for every message but "boot-start". `booted()` settles with raglab_core.browser (null when the boot
 * failed, which worker.js has said); `kit` and `panels` are the URLs of worker-kit.js and of each panel's part;
 * `firstUse()` adds the code the snapshot leaves out (raglab_core.browser.ON_FIRST_USE) from the core's wheel.
 */
export function router({ post, booted, texts, slots, kit: kitUrl, panels, firstUse }) {
  /**
   * The panels: the verb that starts a job, and what must be in place before its module answers. Every other
   * "<panel>-<verb>" is a question about a finished job, answered only by a module this worker imported
   * (`always`: the judging page's, whose questions are about a stored job, asked at any time).
   */
  const PANELS = {
    data: { start: "evaluate", ready: (message) => (message.request && message.request.judge ? firstUse() : null) },
    corpus: { start: "measure", ready: firstUse },
    judge: { start: "make", ready: firstUse, always: true },
  };
  const code = {}; // each panel's module, imported on its first job
  let kit = null;

  async function answerPanel(name, verb, message) {
    const part = PANELS[name];
    const starts = verb === part.start;
    if (!starts && !part.always && !code[name]) return; // about a job this worker never held
    const python = await booted();
    if (!python) return; // the boot failed and said so
    try {
      kit ??= import(kitUrl);
      code[name] ??= import(panels[name]);
      if (starts || part.always) await part.ready(message);
      await (await code[name]).answer(message, { post, kit: await kit, python, texts, slots });
    } catch (error) {
      if (!starts) throw error;
      post(`${name}-result`, {
        id: message.id,
        ok: false,
        internal: true,
        message: texts.evaluate_failed,
        detail: String(error && error.stack ? error.stack : error),
      });
    }
  }

  return async (message) => {
    const [part, verb] = message.type.split(/-(.*)/s);
    if (part in PANELS) return answerPanel(part, verb, message);
    if (part !== "lab") return;
    const python = await booted();
    if (python) answerLab(message, { post, kit: null, python, texts, slots });
  };
}
