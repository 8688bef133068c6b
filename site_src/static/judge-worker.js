/* judge-worker.js — the judging page's part of the worker (juzgar.js), imported on its first message.
 *
 * "judge-make" streams the chosen files into Python (raglab_core.browser.JudgeBridge, with worker-kit.js's
 * reading, as the lab's panels do): the pairs are pooled and the job made there, and only the texts of the
 * pooled pairs come back. The other messages ask about the job being judged, held here as a
 * raglab_core.browser.JudgeDesk: a pair's view, the downloads, the list of jobs (raglab_core.browser.judge_summary,
 * which also says where to resume a job and whether it is finished). This file only passes text and answers
 * through; every number and sentence is Python's. Messages: see worker-router.js.
 */

let desk = null; // raglab_core.browser.JudgeDesk of the job being judged
let deskJob = null; // its id

const summary = (python, job, grades) => JSON.parse(python.judge_summary(JSON.stringify(job), JSON.stringify(grades)));

/** Answer a "judge-" message (worker-router.js's `answer(message, tools)`). */
export function answer(message, { post, kit, python, slots }) {
  const { id } = message;
  if (message.type === "judge-make") return make(python.JudgeBridge, message, post, kit, slots);
  if (message.type === "judge-load") {
    if (desk) desk.destroy();
    desk = python.JudgeDesk(JSON.stringify(message.job), JSON.stringify(message.texts));
    deskJob = message.job.id;
    post("judge-loaded", { id, job: deskJob, summary: summary(python, message.job, message.grades).summary });
  } else if (message.type === "judge-view") {
    if (!desk || deskJob !== message.job) return;
    const answered = JSON.parse(desk.view(message.index, JSON.stringify(message.grades)));
    post("judge-pair", { id, job: deskJob, index: message.index, ...answered });
  } else if (message.type === "judge-export") {
    if (!desk || deskJob !== message.job) return;
    post("judge-file", { id, ...kit.fileFields(JSON.parse(desk.download(message.kind, JSON.stringify(message.grades)))) });
  } else if (message.type === "judge-summarize") {
    post("judge-summaries", { id, summaries: message.jobs.map((item) => summary(python, item.job, item.grades)) });
  }
}

/** Make a job from the "judge-make" message's files with `JudgeBridge`; `kit` is worker-kit.js, `slots` the runs'. */
async function make(JudgeBridge, { id, request }, post, kit, slots) {
  const items = {};
  request.runs.forEach((run, index) => (items[slots[index]] = run));
  request.corpus.forEach((item, index) => (items[`corpus/${index}`] = item));
  const named = ["pool", "job", "qrels", "judge", "queries"];
  for (const slot of named) if (request[slot]) items[slot] = request[slot];
  const name = (slot) => (request[slot] ? request[slot].name : null);
  const bridge = JudgeBridge(
    JSON.stringify({
      runs: request.runs.map((item) => item.name),
      corpus: request.corpus.map((item) => item.name),
      ...Object.fromEntries(named.map((slot) => [slot, name(slot)])),
      sizes: {
        corpus: request.corpus.map(kit.sizeOf),
        ...Object.fromEntries(named.map((slot) => [slot, kit.sizeOf(request[slot])])),
        ...Object.fromEntries(request.runs.map((item, index) => [slots[index], kit.sizeOf(item)])),
      },
      depth: request.depth,
      sample: request.sample,
      seed: request.seed,
      scale: request.scale,
    }),
    (fraction, text) => post("judge-progress", { id, fraction, text })
  );
  try {
    await kit.readAll(bridge, items);
    post("judge-result", { id, ...JSON.parse(bridge.finish()) });
  } finally {
    bridge.destroy();
  }
}
