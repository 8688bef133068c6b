/* corpus-worker.js — the «Tu corpus» part of the worker, which worker-router.js imports on the first
 * measurement only (the lab's start does not parse it).
 *
 * Each file streams into Python (raglab_core.browser.CorpusBridge) as «Tus datos» streams its files
 * (worker-kit.js, passed in); Python measures one configuration per step and answers its row, which
 * goes to the page at once; then it compares them and answers the panel. This file only passes text
 * and answers through. Messages: see worker-router.js ("corpus-measure" in; "corpus-row", "corpus-result" out).
 */

/** The last finished measurement: its id and its bridge, which answers the query detail and the downloads. */
let held = { id: null, bridge: null };

/**
 * Answer a "corpus-" message (worker-router.js's `answer(message, tools)`): "corpus-measure" starts a measurement;
 * "corpus-open" and "corpus-export" are answered about the measurement this worker holds (others: no answer).
 */
export function answer(message, { post, kit, python }) {
  if (message.type === "corpus-measure") return measure(python.CorpusBridge, message, post, kit);
  const { id } = message;
  if (id !== held.id || !held.bridge) return;
  if (message.type === "corpus-open") {
    post("corpus-detail", { id, ...JSON.parse(held.bridge.detail(String(message.qid), message.first, message.second)) });
  } else if (message.type === "corpus-export") {
    post("corpus-file", { id, ...kit.fileFields(JSON.parse(held.bridge.download(message.kind, message.index))) });
  }
}

/**
 * Measure the "corpus-measure" message's `request` ({corpus: [DataFile], queries, evidence, qrels, chunks,
 * run: DataFile | null, sweep, baseline, k1, b, at}) with `CorpusBridge`; `kit` is worker-kit.js.
 */
async function measure(CorpusBridge, { id, request }, post, kit) {
  if (held.bridge) held.bridge.destroy();
  held = { id: null, bridge: null };
  const items = {};
  request.corpus.forEach((item, index) => (items[`corpus/${index}`] = item));
  const slots = ["queries", "evidence", "qrels", "chunks", "run"];
  for (const slot of slots) if (request[slot]) items[slot] = request[slot];
  const name = (slot) => (request[slot] ? request[slot].name : null);
  const bridge = CorpusBridge(
    JSON.stringify({
      corpus: request.corpus.map((item) => item.name),
      ...Object.fromEntries(slots.map((slot) => [slot, name(slot)])),
      sizes: { corpus: request.corpus.map(kit.sizeOf), ...Object.fromEntries(slots.map((slot) => [slot, kit.sizeOf(request[slot])])) },
      sweep: request.sweep,
      baseline: request.baseline,
      k1: request.k1,
      b: request.b,
      at: request.at,
    }),
    (fraction, text) => post("corpus-progress", { id, fraction, text })
  );
  let kept = false;
  try {
    await kit.readAll(bridge, items);
    bridge.prepare();
    for (let row; (row = bridge.step()); ) post("corpus-row", { id, row: JSON.parse(row) });
    const result = JSON.parse(bridge.finish());
    if (result.ok) {
      held = { id, bridge };
      kept = true;
    }
    post("corpus-result", { id, ...result });
  } finally {
    if (!kept) bridge.destroy();
  }
}
