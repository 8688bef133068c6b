/* corpus-worker.js — the «Tu corpus» part of the worker, which worker.js imports on the first
 * measurement only (the lab's start does not parse it).
 *
 * Each file streams into Python (raglab_core.browser.CorpusBridge) as «Tus datos» streams its files
 * (data-worker.js's streamText, passed in); Python measures one configuration per step and answers
 * its row, which goes to the page at once; then it compares them and answers the panel. This file
 * only passes text and answers through. Messages: see worker.js.
 */

/** The last finished measurement: its id and its bridge, which answers the query detail and the downloads. */
let held = { measurement: null, bridge: null };

/** Answer "corpus-detail" or "corpus-download" about the measurement this worker holds (others: no answer). */
export function answer(message, post) {
  const { measurement } = message;
  if (measurement !== held.measurement || !held.bridge) return;
  if (message.type === "corpus-detail") {
    post("corpus-detail", { measurement, ...JSON.parse(held.bridge.detail(String(message.qid), message.first, message.second)) });
  } else if (message.type === "corpus-download") {
    const saved = JSON.parse(held.bridge.download(message.kind, message.index));
    if (saved.ok) post("corpus-download", { measurement, ok: true, name: saved.name, blob: new Blob([saved.text], { type: saved.type }) });
    else post("corpus-download", { measurement, ...saved });
  }
}

const size = (item) => (item ? (item.file ? item.file.size : item.text.length) : 0);

/**
 * Measure `request` ({measurement, corpus: [DataFile], queries, evidence, chunks, run: DataFile | null,
 * sweep, baseline, k1, b, at}) with `CorpusBridge`; `data` is data-worker.js (streamText, NotUTF8).
 */
export async function measure(CorpusBridge, request, post, data) {
  const { measurement } = request;
  if (held.bridge) held.bridge.destroy();
  held = { measurement: null, bridge: null };
  const items = {};
  request.corpus.forEach((item, index) => (items[`corpus/${index}`] = item));
  for (const slot of ["queries", "evidence", "chunks", "run"]) if (request[slot]) items[slot] = request[slot];
  const name = (slot) => (request[slot] ? request[slot].name : null);
  const bridge = CorpusBridge(
    JSON.stringify({
      corpus: request.corpus.map((item) => item.name),
      queries: name("queries"),
      evidence: name("evidence"),
      chunks: name("chunks"),
      run: name("run"),
      sizes: {
        corpus: request.corpus.map(size),
        queries: size(request.queries),
        evidence: size(request.evidence),
        chunks: size(request.chunks),
        run: size(request.run),
      },
      sweep: request.sweep,
      baseline: request.baseline,
      k1: request.k1,
      b: request.b,
      at: request.at,
    }),
    (fraction, text) => post("corpus-progress", { measurement, fraction, text })
  );
  let kept = false;
  try {
    for (let slot; (slot = bridge.next()); ) {
      try {
        await data.streamText(items[slot], (text, done) => bridge.feed(text, done));
      } catch (error) {
        if (error instanceof data.NotUTF8) {
          const { head, data: bytes, base, skip } = error;
          bridge.undecodable(JSON.stringify({ head: Array.from(head), data: Array.from(bytes), base, skip }));
          continue;
        }
        console.warn("raglab: could not read", items[slot].name, error);
        bridge.unreadable(String(error));
        continue;
      }
      bridge.end();
    }
    bridge.prepare();
    for (let row; (row = bridge.step()); ) post("corpus-row", { measurement, row: JSON.parse(row) });
    const result = JSON.parse(bridge.finish());
    if (result.ok) {
      held = { measurement, bridge };
      kept = true;
    }
    post("corpus-done", { measurement, ...result });
  } finally {
    if (!kept) bridge.destroy();
  }
}
