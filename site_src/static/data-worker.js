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
const HEAD_BYTES = 4096; // raglab_core.runs.decoding.HEAD

/** Bytes that are not UTF-8: `data` (from file offset `base`; its first `skip` bytes may end a character). */
export class NotUTF8 extends Error {
  constructor(head, data, base, skip) {
    super("not UTF-8");
    Object.assign(this, { head, data, base, skip });
  }
}

export async function streamText(item, onText) {
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
  let head = null; // the file's first bytes, and the last ones of the chunk before: what Python's diagnosis reads
  let tail = new Uint8Array(0);
  for (;;) {
    const { done, value } = await reader.read();
    let text;
    try {
      text = done ? decoder.decode() : decoder.decode(value, { stream: true });
    } catch (error) {
      await reader.cancel();
      const chunk = done ? new Uint8Array(0) : value;
      const data = new Uint8Array(tail.length + chunk.length);
      data.set(tail);
      data.set(chunk, tail.length);
      throw new NotUTF8(head || chunk.slice(0, HEAD_BYTES), data, bytes - tail.length, tail.length);
    }
    if (!done) {
      if (!head) head = value.slice(0, HEAD_BYTES);
      tail = value.slice(-3);
      bytes += value.length;
    }
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

/**
 * The last finished evaluation: its id, its per-query rows ([{raw, text}, …] each) and its bridge
 * (raglab_core.browser.EvaluationBridge), which answers the query detail and the downloads.
 */
let held = { evaluation: null, rows: [], bridge: null };

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
 * Answer a question about a finished evaluation ("evaluate-rows", "evaluate-detail", "evaluate-pair",
 * "evaluate-download"): only about the one this worker holds; otherwise rows are null and the rest
 * unanswered (the page asked about an evaluation another worker held).
 */
export function answer(message, post) {
  const { evaluation } = message;
  const mine = evaluation === held.evaluation;
  if (message.type === "evaluate-rows") {
    const rows = mine ? sortedRows(message.column, message.ascending, message.limit) : null;
    post("rows", { evaluation, request: message.request, rows });
  } else if (!mine) {
    return;
  } else if (message.type === "evaluate-detail") {
    post("detail", { evaluation, ...JSON.parse(held.bridge.detail(String(message.qid))) });
  } else if (message.type === "evaluate-pair") {
    post("pair", { evaluation, ...JSON.parse(held.bridge.pair(message.baseline, message.candidate)) });
  } else if (message.type === "evaluate-download") {
    const saved = JSON.parse(held.bridge.download(message.kind));
    if (saved.ok) post("download", { evaluation, ok: true, name: saved.name, blob: new Blob([saved.text], { type: saved.type }) });
    else post("download", { evaluation, ...saved });
  }
}

const SLOTS = "ABCDEFGHIJKL"; // raglab_core.runs.inputs.SLOTS: run A, B, … as Python names them

/**
 * Evaluate `request` ({evaluation, qrels, runs, measures, ties, complete, fusion}; files as {name, file |
 * text}) with `EvaluationBridge` (raglab_core.browser.EvaluationBridge); `post(type, fields)` sends the
 * messages. With `fusion`, Python asks for the runs it fuses once more when the fused run's turn comes
 * (they are read again from their File objects, whole: the evaluation keeps no run), fuses them, and
 * evaluates the fused run as one more.
 */
export async function evaluate(EvaluationBridge, request, post) {
  const { evaluation } = request;
  if (held.bridge) held.bridge.destroy();
  held = { evaluation: null, rows: [], bridge: null };
  const items = { qrels: request.qrels };
  request.runs.forEach((run, index) => (items[SLOTS[index]] = run));
  const files = [request.qrels, ...request.runs];
  const bridge = EvaluationBridge(
    JSON.stringify({
      measures: request.measures,
      ties: request.ties,
      complete: request.complete === true,
      qrels: request.qrels.name,
      runs: request.runs.map((run) => run.name),
      sizes: files.map((item) => (item.file ? item.file.size : item.text.length)),
      files: files.map((item) => Boolean(item.file)),
      fusion: request.fusion || null,
    }),
    (fraction, text) => post("eval-progress", { evaluation, fraction, text })
  );
  let kept = false;
  try {
    for (let slot; (slot = bridge.next()); ) {
      try {
        await streamText(items[slot], (text, done) => bridge.feed(text, done));
      } catch (error) {
        if (error instanceof NotUTF8) {
          // raglab_core.runs.decoding says which encoding it looks like, where, and how to save it as UTF-8.
          const { head, data, base, skip } = error;
          bridge.undecodable(JSON.stringify({ head: Array.from(head), data: Array.from(data), base, skip }));
          continue;
        }
        console.warn("raglab: could not read", items[slot].name, error);
        bridge.unreadable(String(error));
        continue;
      }
      bridge.end();
    }
    const result = JSON.parse(bridge.finish());
    if (result.ok) {
      // Thousands of rows would block the page's thread as they arrive: they stay here (sortedRows).
      held = { evaluation, rows: result.panel.rows, bridge };
      kept = true;
      result.panel.row_count = held.rows.length;
      delete result.panel.rows;
    }
    post("evaluated", { evaluation, ...result });
  } finally {
    if (!kept) bridge.destroy();
  }
}
