/* boot.js — starts the Python worker after the first frame, and the downloads of the view table
 * and of the runtime's big files at once.
 *
 * Inline in <head> (the build puts its hash in the CSP), it runs as soon as the parser reaches it,
 * before any request. It fetches the view table at once, and starts the worker in the task after
 * the first frame once the HTML is parsed (or START_WAIT_MS after it ran, if no frame comes): the
 * runtime then downloads and restores while the reader looks at the page. lab.js, which needs the
 * whole DOM, is deferred: it takes the worker over from window.raglabBoot (boot.onStart when it
 * has not started yet); messages that arrive before that are kept for it.
 */
(() => {
  "use strict";

  performance.mark("raglab:boot-script");
  const config = JSON.parse(document.getElementById("lab-config").textContent);
  const kept = [];
  let deliver = (message) => kept.push(message);
  const boot = {
    worker: null,
    problem: null, // "file", "unsupported", or the error thrown by new Worker()
    take(onMessage) {
      deliver = onMessage;
      for (const message of kept.splice(0)) onMessage(message);
    },
    /** Calls `callback` once the worker has been started (or could not be): at once if it has. */
    onStart(callback) {
      if (boot.worker || boot.problem) callback();
      else started.push(callback);
    },
  };
  const started = [];

  const absolute = (url) => new URL(url, document.baseURI).href;

  // localStorage's key for "this build's runtime has been ready in this browser": its value is the
  // snapshot's URL (content-hashed, so a new build is not taken for a seen one), or the wasm's.
  const RUNTIME_SEEN = "raglab-runtime-seen";
  const runtimeId = config.preload.snapshot || config.preload.wasm;
  const runtimeSeen = () => {
    try {
      return localStorage.getItem(RUNTIME_SEEN) === runtimeId;
    } catch {
      return false; // storage refused (a sandbox, a privacy setting): preload
    }
  };
  const rememberRuntime = () => {
    try {
      localStorage.setItem(RUNTIME_SEEN, runtimeId);
    } catch {}
  };

  /** A new worker, already told where Python is: the lab's, and one per «Tus datos» evaluation. */
  function spawn() {
    const worker = new Worker(config.worker, { type: "module" });
    worker.postMessage({
      type: "init",
      pyodide: absolute(config.pyodide),
      runtime: absolute(config.runtime),
      wasm: { ...config.wasm, url: absolute(config.wasm.url) },
      decoder: { module: absolute(config.decoder.module), wasm: absolute(config.decoder.wasm) },
      wheel: { url: absolute(config.wheel.url), sha256: config.wheel.sha256 },
      snapshot: config.snapshot && { ...config.snapshot, url: absolute(config.snapshot.url) },
      lock: config.lock,
      data: absolute(config.dataWorker),
      corpus: absolute(config.corpusWorker),
      texts: config.workerTexts, // raglab_core.words.worker_texts: every sentence the worker says
    });
    return worker;
  }
  boot.spawn = spawn;

  // Opened from disk, where browsers refuse the integrity-checked scripts: the page shows the
  // note that says how to serve it (page.html.j2; lab.css hides it everywhere else).
  if (location.protocol === "file:") document.documentElement.setAttribute("data-from-file", "");

  function usable() {
    if (location.protocol === "file:") return "file";
    if (!("Worker" in window) || !("WebAssembly" in window)) return "unsupported";
    return null;
  }

  /** Start the worker (once) and pass its messages on; lab.js calls it when the start was deferred. */
  boot.begin = () => {
    if (boot.worker || boot.problem) return;
    try {
      boot.worker = spawn();
    } catch (error) {
      boot.problem = error;
    }
    if (boot.worker) {
      performance.mark("raglab:worker-created");
      boot.worker.addEventListener("message", (event) => {
        if (event.data && event.data.type === "ready") rememberRuntime();
        deliver(event.data);
      });
      boot.worker.addEventListener("error", (event) => {
        event.preventDefault();
        deliver({ type: "worker-error", detail: event.message || "worker script failed" });
      });
    }
    for (const callback of started.splice(0)) callback();
  };

  // Data saver on, or a 2G connection (Network Information API, Chromium only): Python's runtime
  // (its size is the configuration's runtimeBytes) waits for the reader's first use of a control
  // (lab.js); the page, rendered by the build, reads meanwhile.
  const connection = navigator.connection;
  boot.deferred = Boolean(connection && (connection.saveData || /2g$/.test(connection.effectiveType || "")));

  // The build-time view table (raglab_site/views.py), gzip-compressed whatever the host sends:
  // fetched at once, checked against its digest (SRI works in any context) and decoded here; null
  // when it is missing, altered or unreadable, or where the browser cannot decode gzip: lab.js then
  // waits for Python, as without it.
  boot.views = config.views && "DecompressionStream" in window
    ? fetch(absolute(config.views.url), { integrity: config.views.integrity })
        .then((response) => (response.ok ? response.body : Promise.reject(new Error(`HTTP ${response.status}`))))
        .then((body) => new Response(body.pipeThrough(new DecompressionStream("gzip"))).json())
        .catch((error) => (console.warn("raglab: view table not used:", error), null))
    : Promise.resolve(null);

  // When the worker starts. Started at once, its boot (the runtime's evaluation, the wasm's
  // compilation, the snapshot's decoding) shared the two cores with the page's first layout; started
  // after the first frame, the first slider move is answered sooner (the phone's paint too), for a
  // Python ready a few per cent later (the A/B: docs/performance.md, «When the worker starts»).
  // With the stylesheet inline, a frame can come while the parser is still in <head>: the start
  // waits for the first frame after the parse, the one that lays out the whole page.
  // START_WAIT_MS is for a page whose frames do not come (a hidden tab): then the start waits only
  // for the parse. A timer, it fires only once the main thread is free.
  const START_WAIT_MS = 200;
  boot.problem = usable();
  if (!boot.deferred && !boot.problem) {
    // The runtime's two big files (the wasm and the snapshot, 95 % of its bytes) download from now,
    // while the page lays out: preloads go to the HTTP cache, and the worker's requests for the same
    // URLs, made after the first frame, are answered from there or join the download under way
    // (each file crosses the network once; the browser tests count it). Python is ready sooner
    // where the network bounds it (a phone's); where the files arrive at once (loopback), their
    // bytes may cost the first layout a few frames (performance.md, «The runtime's download at
    // once»). Low priority: the view table's request, made above, comes first. Browsers without
    // preload download the files when the worker asks, as before.
    // Nothing is preloaded where this build's runtime has been ready before (RUNTIME_SEEN, written
    // when the worker says "ready"): the browser has the files, or the decoded snapshot, already,
    // so a preload would only cost the page their bytes (0.1–0.2 s of CPU per load in the tests'
    // browser). The check is synchronous: an asynchronous one (caches.has) answered only once the
    // parser let it, up to a second late on the phone profile, which undid the preloads' use.
    if (!runtimeSeen()) {
      for (const url of Object.values(config.preload).filter(Boolean)) {
        const link = document.createElement("link");
        Object.assign(link, { rel: "preload", as: "fetch", crossOrigin: "anonymous", href: absolute(url) });
        link.setAttribute("fetchpriority", "low");
        document.head.append(link);
      }
    }
    const parsed = () => document.readyState !== "loading";
    const begin = () => {
      clearTimeout(timer);
      boot.begin();
    };
    const timer = setTimeout(() => {
      if (parsed()) begin();
      else document.addEventListener("readystatechange", begin, { once: true });
    }, START_WAIT_MS);
    // The task after the first frame once the HTML is parsed.
    const afterParsedFrame = () => requestAnimationFrame(() => (parsed() ? setTimeout(begin) : afterParsedFrame()));
    afterParsedFrame();
  }
  window.raglabBoot = boot;
})();
