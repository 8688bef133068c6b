/* data-worker.js — the «Tus datos» part of the worker, which worker.js imports on the first
 * evaluation only (the lab's worker never does: its start does not parse this).
 *
 * Each file streams from disk into Python (raglab_core.browser.EvaluationBridge), which says which
 * file to read (a run again, when its queries are not grouped), evaluates a run query by query as
 * it arrives, reports progress in words, and builds the panel; nothing leaves the browser. This
 * file only reads files and passes text and answers through. Messages: see worker.js.
 */

const TEXT_PER_CALL = 1 << 20; // characters handed to Python at a time (about 28,000 run lines)

/**
 * Read `item` ({name, file} or {name, text}) as a stream, never whole: `onText(text, bytesSoFar)` gets
 * about TEXT_PER_CALL characters at a time, decoded as UTF-8 (a leading BOM dropped; a byte sequence
 * that is not UTF-8 throws), and stops the reading by returning true.
 */
async function streamText(item, onText) {
  if (!item.file) {
    for (let start = 0; start < item.text.length; start += TEXT_PER_CALL) {
      const end = Math.min(start + TEXT_PER_CALL, item.text.length);
      if (onText(item.text.slice(start, end), end)) return;
    }
    return;
  }
  const reader = item.file.stream().getReader();
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let pending = [];
  let length = 0;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
    if (!done) bytes += value.length;
    if (text) {
      pending.push(text);
      length += text.length;
    }
    if (length >= TEXT_PER_CALL || (done && length)) {
      const stop = onText(pending.join(""), bytes);
      pending = [];
      length = 0;
      if (stop) {
        await reader.cancel();
        return;
      }
    }
    if (done) return;
  }
}

/** The last evaluation's per-query rows ([{raw, text}, …] each), and the evaluation they belong to. */
let held = { evaluation: null, rows: [] };

/**
 * The first `limit` rows of evaluation `evaluation` in the order of `column` (undefined values, null,
 * always last); null when this worker does not hold that evaluation's rows.
 */
export function sortedRows({ evaluation, column, ascending, limit }) {
  if (evaluation !== held.evaluation) return null;
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
 * Evaluate `request` ({evaluation, qrels, runs, measures, ties}; files as {name, file | text}) with
 * `evaluateJson` (raglab_core.browser.evaluate_json); `post(type, fields)` sends the messages.
 */
export async function evaluate(evaluateJson, request, post) {
  const { evaluation } = request;
  const items = { qrels: request.qrels, A: request.runs[0], B: request.runs[1] };
  const files = [request.qrels, ...request.runs];
  const bridge = evaluateJson.streaming( // raglab_core.browser.EvaluationBridge
    JSON.stringify({
      measures: request.measures,
      ties: request.ties,
      qrels: request.qrels.name,
      runs: request.runs.map((run) => run.name),
      sizes: files.map((item) => (item.file ? item.file.size : item.text.length)),
      files: files.map((item) => Boolean(item.file)),
    }),
    (fraction, text) => post("eval-progress", { evaluation, fraction, text })
  );
  try {
    for (let slot; (slot = bridge.next()); ) {
      try {
        await streamText(items[slot], (text, done) => bridge.feed(text, done));
      } catch (error) {
        console.warn("raglab: could not read", items[slot].name, error);
        bridge.unreadable(String(error));
        continue;
      }
      bridge.end();
    }
    const result = JSON.parse(bridge.finish());
    if (result.ok) {
      // Thousands of rows would block the page's thread as they arrive: they stay here (sortedRows).
      held = { evaluation, rows: result.panel.rows };
      result.panel.row_count = held.rows.length;
      delete result.panel.rows;
    }
    post("evaluated", { evaluation, ...result });
  } finally {
    bridge.destroy();
  }
}
