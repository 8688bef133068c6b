/* data-worker.js — the «Tus datos» part of the worker, which worker-router.js imports on the first
 * evaluation only (the lab's worker never does: its start does not parse this).
 *
 * Each file streams from disk into Python (raglab_core.browser.EvaluationBridge; the reading is
 * worker-kit.js's, passed in), which says which file to read (a run again, when its queries are not
 * grouped), evaluates a run query by query as it arrives, reports progress in words, and builds the
 * panel; nothing leaves the browser. This file only passes text and answers through. Messages: see
 * worker-router.js ("data-evaluate" in, "data-result" out, and the questions about a finished evaluation).
 */

/**
 * The last finished evaluation: its id, its per-query rows ([{raw, text}, …] each) and its bridge
 * (raglab_core.browser.EvaluationBridge), which answers the query detail and the downloads.
 */
let held = { id: null, rows: [], bridge: null };

/** The first `limit` rows in the order of `column` (undefined values, null, always last). */
function sortedRows(column, ascending, limit) {
  const sorted = held.rows.slice().sort((a, b) => {
    const x = a[column].raw;
    const y = b[column].raw;
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    const order = x < y ? -1 : x > y ? 1 : 0;
    return ascending ? order : -order;
  });
  return sorted.slice(0, limit);
}

/**
 * Answer a "data-" message (worker-router.js's `answer(message, tools)`): "data-evaluate" starts an evaluation;
 * a question about a finished one ("data-sort", "data-open", "data-compare", "data-export") is answered only
 * about the one this worker holds; otherwise rows are null and the rest unanswered (the page asked about an
 * evaluation another worker held).
 */
export function answer(message, { post, kit, python, slots }) {
  if (message.type === "data-evaluate") return evaluate(python.EvaluationBridge, message, post, kit, slots);
  const { id } = message;
  const mine = id === held.id;
  if (message.type === "data-sort") {
    const rows = mine ? sortedRows(message.column, message.ascending, message.limit) : null;
    post("data-rows", { id, request: message.request, rows });
  } else if (!mine) {
    return;
  } else if (message.type === "data-open") {
    post("data-detail", { id, ...JSON.parse(held.bridge.detail(String(message.qid))) });
  } else if (message.type === "data-compare") {
    post("data-comparison", { id, ...JSON.parse(held.bridge.pair(message.baseline, message.candidate)) });
  } else if (message.type === "data-export") {
    post("data-file", { id, ...kit.fileFields(JSON.parse(held.bridge.download(message.kind))) });
  }
}

/**
 * Evaluate the "data-evaluate" message's `request` ({qrels, runs, measures, ties, complete, fusion, judge,
 * judgeForRuns, judgeSample}; files as {name, file | text}) with `EvaluationBridge` (raglab_core.browser.EvaluationBridge); `post(type,
 * fields)` sends the messages, `kit` is worker-kit.js, `slots` the runs' slots (raglab_core.runs.inputs.SLOTS).
 * With `fusion`, Python asks for the runs it fuses
 * once more when the fused run's turn comes (they are read again from their File objects, whole: the
 * evaluation keeps no run), fuses them, and evaluates the fused run as one more.
 */
async function evaluate(EvaluationBridge, { id, request }, post, kit, slots) {
  if (held.bridge) held.bridge.destroy();
  held = { id: null, rows: [], bridge: null };
  const items = { qrels: request.qrels, judge: request.judge };
  request.runs.forEach((run, index) => (items[slots[index]] = run));
  const files = [request.qrels, ...request.runs];
  const bridge = EvaluationBridge(
    JSON.stringify({
      measures: request.measures,
      ties: request.ties,
      complete: request.complete === true,
      qrels: request.qrels.name,
      runs: request.runs.map((run) => run.name),
      sizes: files.map(kit.sizeOf),
      files: files.map((item) => Boolean(item.file)),
      fusion: request.fusion || null,
      // with the judge's qrels: raglab_core.judges.agreement_session.AgreementSession, the judges' code added on first use
      ...(request.judge
        ? { judge: request.judge.name, judge_for_runs: request.judgeForRuns === true, judge_sample: request.judgeSample === true }
        : {}),
    }),
    (fraction, text) => post("data-progress", { id, fraction, text })
  );
  let kept = false;
  try {
    await kit.readAll(bridge, items);
    const result = JSON.parse(bridge.finish());
    if (result.ok) {
      // Thousands of rows would block the page's thread as they arrive: they stay here (sortedRows).
      held = { id, rows: result.panel.rows, bridge };
      kept = true;
      result.panel.row_count = held.rows.length;
      delete result.panel.rows;
    }
    post("data-result", { id, ...result });
  } finally {
    if (!kept) bridge.destroy();
  }
}
