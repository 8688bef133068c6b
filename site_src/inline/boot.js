/* boot.js — starts the Python worker after the first frame, and the downloads of the view table
 * and of the runtime's big files at once; loads each panel's scripts on the panel's first use.
 *
 * Inline in <head> (the build puts its hash in the CSP), it runs as soon as the parser reaches it,
 * before any request. It fetches the view table at once, and starts the worker in the task after
 * the first frame once the HTML is parsed (or START_WAIT_MS after it ran, if no frame comes): the
 * runtime then downloads and restores while the reader looks at the page. lab.js, which needs the
 * whole DOM, is deferred: it takes the worker over from window.raglabBoot (boot.onStart when it
 * has not started yet); messages that arrive before that are kept for it.
 *
 * The panels below the lab («Tu corpus», «Tus datos») bring their scripts (panel-kit.js, then the
 * panel's own) only when the panel nears the viewport or the reader touches it: a pointer or the focus
 * in it, a file dragged over it, a link or the URL's hash into it. The first paint carries only the
 * lab. What the reader does in a panel before its scripts have run (a click, a chosen file, typed text,
 * a drop) is held and done again, in order, once they have: nothing is lost.
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

  /** A new worker, already told where Python is (spawn.js, inline before this file): the lab's, and one for
   * each panel. */
  const spawn = () => window.raglabSpawn(config);
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
        if (event.data && event.data.type === "boot-ready") rememberRuntime();
        deliver(event.data);
      });
      boot.worker.addEventListener("error", (event) => {
        event.preventDefault();
        deliver({ type: "boot-failure", text: null, detail: event.message || "worker script failed" });
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
    // while the page lays out: the responses go to the HTTP cache, and the worker's requests for the
    // same URLs, made after the first frame, are answered from there or join the download under way
    // (each file crosses the network once; the browser tests count it). Python is ready sooner
    // where the network bounds it (a phone's); where the files arrive at once (loopback), their
    // bytes may cost the first layout a few frames (performance.md, «The runtime's download at
    // once»). Low priority: the view table's request, made above, comes first. A fetch whose body
    // is drained into a blob nobody keeps, not a <link rel=preload>: a preload is the document's,
    // and a worker's request never uses it, so Chromium warned on the console that both were unused.
    // A failure says nothing here: the worker's own request reports it.
    // Nothing is preloaded where this build's runtime has been ready before (RUNTIME_SEEN, written
    // when the worker says "boot-ready"): the browser has the files, or the decoded snapshot, already,
    // so a preload would only cost the page their bytes (0.1–0.2 s of CPU per load in the tests'
    // browser). The check is synchronous: an asynchronous one (caches.has) answered only once the
    // parser let it, up to a second late on the phone profile, which undid the preloads' use.
    if (!runtimeSeen()) {
      for (const url of Object.values(config.preload).filter(Boolean)) {
        fetch(absolute(url), { priority: "low" }).then((response) => response.blob()).catch(() => {});
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

  // --- the panels' scripts, on first use ---------------------------------------------------------
  // config.panelScripts: for each panel (its data-panel name), its scripts in order, with their
  // integrity (the build's SRI digests): injected as <script src integrity>, in order (async false).
  const PANEL_SCRIPTS = config.panelScripts || {};
  const NEAR = "1200px 0px"; // a panel's scripts load when it comes within 1,200 px of being seen
  const scripts = {}; // url -> Promise: each script once, whichever panel asks first
  const panels = {}; // name -> "loading" | "ready"
  const held = []; // {name, replay}: what the reader did in a panel whose scripts have not run yet

  function script({ url, integrity }) {
    scripts[url] ??= new Promise((resolve, reject) => {
      const node = document.createElement("script");
      Object.assign(node, { src: absolute(url), integrity, async: false });
      node.addEventListener("load", resolve);
      node.addEventListener("error", () => {
        delete scripts[url]; // the next touch tries again
        node.remove();
        reject(new Error(`${url} did not load`));
      });
      document.head.append(node);
    });
    return scripts[url];
  }

  /** Load panel `name`'s scripts (once); then do again what was held for it. */
  function loadPanel(name) {
    if (!PANEL_SCRIPTS[name] || panels[name]) return;
    panels[name] = "loading";
    Promise.all(PANEL_SCRIPTS[name].map(script)).then(
      () => {
        panels[name] = "ready";
        const mine = held.filter((entry) => entry.name === name);
        held.splice(0, held.length, ...held.filter((entry) => entry.name !== name));
        for (const entry of mine) entry.replay();
      },
      (error) => {
        delete panels[name];
        held.splice(0, held.length, ...held.filter((entry) => entry.name !== name));
        console.error("raglab: panel", name, error);
      }
    );
  }

  /** The panel (its name) that `node` lies in, or that a same-page link `node` lies in points into. */
  function panelOf(node) {
    if (!(node instanceof Element)) return null;
    const inside = node.closest("[data-panel]");
    if (inside) return inside.dataset.panel in PANEL_SCRIPTS ? inside.dataset.panel : null;
    const link = node.closest('a[href^="#"]');
    return link ? panelOf(targetOf(link.hash)) : null;
  }

  function targetOf(hash) {
    try {
      return hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    } catch {
      return null; // a malformed escape
    }
  }

  /** A touch: the panel's scripts start loading. */
  const touched = (event) => {
    const name = panelOf(event.target);
    if (name) loadPanel(name);
  };
  for (const type of ["pointerdown", "focusin", "dragenter"]) window.addEventListener(type, touched, true);

  /** What the reader did before the panel's scripts ran: held, loading them, and done again once they have. */
  function hold(name, replay) {
    held.push({ name, replay });
    loadPanel(name);
  }
  window.addEventListener("click", (event) => {
    const name = panelOf(event.target);
    const control = name && panels[name] !== "ready" && event.target.closest("button, [data-action]");
    if (!control) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    hold(name, () => control.click());
  }, true);
  for (const type of ["input", "change"]) {
    window.addEventListener(type, (event) => {
      const name = panelOf(event.target);
      if (name && panels[name] !== "ready") hold(name, () => event.target.dispatchEvent(new Event(type, { bubbles: true })));
    }, true);
  }
  window.addEventListener("dragover", (event) => {
    const name = panelOf(event.target);
    if (name && panels[name] !== "ready") event.preventDefault(); // so that a drop comes to the page, not the browser
  }, true);
  window.addEventListener("drop", (event) => {
    const name = panelOf(event.target);
    if (!name || panels[name] === "ready") return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const files = Array.from((event.dataTransfer && event.dataTransfer.files) || []);
    const target = event.target;
    hold(name, () => {
      const transfer = new DataTransfer();
      for (const file of files) transfer.items.add(file);
      target.dispatchEvent(new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: transfer }));
    });
  }, true);

  // A URL whose hash points into a panel, now or later; and each panel as it nears the viewport.
  const fromHash = () => {
    const name = panelOf(targetOf(location.hash));
    if (name) loadPanel(name);
  };
  window.addEventListener("hashchange", fromHash);
  const watch = () => {
    fromHash();
    const near = "IntersectionObserver" in window
      ? new IntersectionObserver((entries) => {
          for (const entry of entries) {
            if (!entry.isIntersecting) continue;
            near.unobserve(entry.target);
            loadPanel(entry.target.dataset.panel);
          }
        }, { rootMargin: NEAR })
      : null;
    for (const name of Object.keys(PANEL_SCRIPTS)) {
      const element = document.querySelector(`[data-panel="${name}"]`);
      if (element && near) near.observe(element);
      else if (element) loadPanel(name); // no observer: load at once, as before
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch, { once: true });
  else watch();
})();
