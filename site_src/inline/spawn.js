/* spawn.js — starts a Python worker (worker.js) and tells it where Python is: the one way every page of the
 * site starts one. Inline in <head> (allowed by its SHA-256 in the CSP) before the script that uses it: the
 * lab's boot.js (the lab's worker, and each panel's), the judging page's juzgar.js.
 *
 * `config` is the page's configuration (the lab's lab_config, or the judging page's, one folder down: the same
 * entries, URLs relative to the page). The "boot-start" message it sends is worker.js's BootStartMessage.
 */
(() => {
  "use strict";

  const absolute = (url) => new URL(url, document.baseURI).href;

  /** A new module worker running `config.worker`, already sent its "boot-start". */
  window.raglabSpawn = (config) => {
    const worker = new Worker(absolute(config.worker), { type: "module" });
    worker.postMessage({
      type: "boot-start",
      pyodide: absolute(config.pyodide),
      runtime: absolute(config.runtime),
      wasm: { ...config.wasm, url: absolute(config.wasm.url) },
      decoder: { module: absolute(config.decoder.module), wasm: absolute(config.decoder.wasm) },
      wheel: { url: absolute(config.wheel.url), sha256: config.wheel.sha256 },
      snapshot: config.snapshot && { ...config.snapshot, url: absolute(config.snapshot.url) },
      lock: config.lock,
      router: absolute(config.workerRouter),
      kit: absolute(config.workerKit),
      panels: Object.fromEntries(Object.entries(config.panelWorkers).map(([name, url]) => [name, absolute(url)])),
      slots: config.runSlots, // raglab_core.runs.inputs.SLOTS: run A, B, … as Python names them
      texts: config.workerTexts, // raglab_core.words.worker_texts: every sentence the worker says
    });
    return worker;
  };
})();
