/* worker.js — runs raglab_core under Pyodide, off the main thread (a module worker): its boot.
 *
 * Fast path: restore a memory snapshot made at build time (snapshot.mjs), in which raglab_core is
 * already imported. Fallback: the plain boot (runtime + standard library + the core's wheel). Both
 * take the runtime's wasm from its brotli copy, decoded here, and check the SHA-256 the build
 * recorded before using what they downloaded, in any context (plain HTTP included). This file only
 * loads Python; every other message goes to worker-router.js (imported at "boot-start", while Python
 * loads), which hands it to the lab's part or to a panel's, each with the same `answer(message, tools)`.
 * The messages, in and out, are documented there, all in one place.
 */

let TEXTS = {}; // raglab_core.words.worker_texts, from "boot-start": this file words nothing itself

// Installs the wheel in the plain boot, after checking its SHA-256 (in Python: hashlib works in
// any context, while crypto.subtle needs a secure one).
const INSTALL_WHEEL = `
def _install(wheel, expected_sha256):
    import hashlib, importlib, io, site, zipfile
    data = bytes(wheel.to_py())
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_sha256:
        raise ValueError(f"wheel SHA-256 {actual} != expected {expected_sha256}")
    zipfile.ZipFile(io.BytesIO(data)).extractall(site.getsitepackages()[0])
    importlib.invalidate_caches()
_install
`;

let afterReady = null; // work that waits until the page is ready (keeping the snapshot)
let booting = null;
// Boot milestones (absolute ms since the epoch), sent with "ready" for bench/page.py.
const milestones = { workerStart: performance.timeOrigin };
const milestone = (name) => (milestones[name] = performance.timeOrigin + performance.now());

/** A boot failure with the sentence the page shows; the cause goes to the console. */
class BootFailure extends Error {
  constructor(text, cause) {
    super(text, { cause });
  }
}

class IntegrityError extends Error {}

function post(type, fields = {}) {
  self.postMessage({ type, ...fields });
}

/** Says `text` (a TEXTS name) while `work` runs; if it fails, the boot fails with the text named `failure`. */
async function step(text, fraction, failure, work) {
  post("boot-progress", { text: TEXTS[text], fraction });
  try {
    return await work();
  } catch (error) {
    throw error instanceof BootFailure ? error : new BootFailure(TEXTS[failure], error);
  }
}

async function fetchOk(url, options) {
  const response = await fetch(url, options);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response;
}

// For Pyodide's next instantiation (set by bootFromSnapshot): `taken()` is called when it starts,
// and `run(instance)` after it, before any of the instance's code runs; the instance is handed to
// Pyodide when the promise `run` returns settles.
let onPyodideInstance = null;

/**
 * Pyodide 314 catches a failed WebAssembly instantiation, logs "wasm instantiation failed!" and
 * never settles loadPyodide() (getInstantiateWasmFunc in Pyodide's runtime module). Watch
 * instantiation here so that a missing or corrupt pyodide.asm.wasm fails the boot instead of
 * hanging it forever. Only Pyodide's module counts (Emscripten's imports have "env"), not the
 * brotli decoder's ("wbg").
 */
function watchWasmInstantiation() {
  let reject;
  const failed = new Promise((_, rejectWith) => (reject = rejectWith));
  failed.catch(() => {}); // observed through Promise.race below
  for (const name of ["instantiate", "instantiateStreaming"]) {
    const original = WebAssembly[name].bind(WebAssembly);
    WebAssembly[name] = (source, imports, ...rest) => {
      const pyodide = Boolean(imports && imports.env);
      if (pyodide) milestone("wasmRequested"); // Pyodide's JS is set up; the wasm compiles from here
      let made = original(source, imports, ...rest).catch((error) => {
        if (pyodide) reject(error);
        throw error;
      });
      const hook = pyodide ? onPyodideInstance : null;
      if (hook) {
        onPyodideInstance = null;
        hook.taken();
        // instantiate(Module) gives an Instance; instantiate(bytes) and the streaming form, {instance, module}.
        made = made.then(async (result) => (await hook.run(result.instance || result), result));
      }
      return made;
    };
  }
  return failed;
}

/**
 * Undo the build's XOR (raglab_site/wasm.py): the first `length` bytes of the snapshot's memory
 * image were stored XORed with the memory the wasm starts with, which `memory` still is.
 */
function undoXor(snapshot, memory, length) {
  const offset = new DataView(snapshot.buffer, snapshot.byteOffset, 16).getUint32(4, true);
  if (memory.buffer.byteLength < length || snapshot.length < offset + length) {
    throw new Error(`snapshot: cannot undo the XOR of ${length} bytes`);
  }
  const start = snapshot.byteOffset + offset;
  const words = start % 4 === 0 ? length >>> 2 : 0;
  const image = new Uint32Array(snapshot.buffer, start, words);
  const initial = new Uint32Array(memory.buffer, 0, words);
  for (let i = 0; i < words; i++) image[i] ^= initial[i];
  const imageBytes = new Uint8Array(snapshot.buffer, start, length);
  const initialBytes = new Uint8Array(memory.buffer, 0, length);
  for (let i = words * 4; i < length; i++) imageBytes[i] ^= initialBytes[i];
}

/** Does `bytes` have the digest that the build recorded as `integrity` ("sha256-<base64>")? */
async function hasIntegrity(bytes, integrity) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `sha256-${btoa(String.fromCharCode(...digest))}` === integrity;
}

let decoderLoaded = null;

/**
 * The brotli decoder (a wasm module from npm), loaded once, at the boot's start: the runtime's
 * wasm and the snapshot both arrive brotli-compressed, and browsers' DecompressionStream has none.
 * Its own wasm comes as a gzip copy, which DecompressionStream inflates as it arrives (still
 * compiled streaming: the Response says application/wasm).
 */
function brotliDecoder({ module, wasm }) {
  decoderLoaded ??= Promise.all([import(module), fetchOk(wasm)]).then(async ([decoder, gzipped]) => {
    const inflated = gzipped.body.pipeThrough(new DecompressionStream("gzip"));
    await decoder.default({ module_or_path: new Response(inflated, { headers: { "Content-Type": "application/wasm" } }) });
    return decoder;
  });
  return decoderLoaded;
}

/**
 * Where the snapshot's decoded bytes go in `out` (zeroed, of the whole snapshot's length): the
 * build left out the memory image's pages of zeros (raglab_site/snapshot.py, zero_pages_left_out),
 * so the head comes first, then each run of pages kept, at its place. Returns `place(chunk)`,
 * which writes the next decoded bytes, and `expected`, how many there are in all.
 */
function placement({ head, page, runs }, out) {
  const segments = [[0, head]]; // [where in out, how many bytes]
  for (const [first, count] of runs) {
    const start = head + first * page;
    segments.push([start, Math.max(0, Math.min(count * page, out.length - start))]);
  }
  const expected = segments.reduce((sum, [, length]) => sum + length, 0);
  let segment = 0;
  let within = 0;
  function place(chunk) {
    for (let from = 0; from < chunk.length; ) {
      if (segment === segments.length) throw new Error("snapshot: more bytes than its layout holds");
      const [start, length] = segments[segment];
      const n = Math.min(length - within, chunk.length - from);
      out.set(chunk.subarray(from, from + n), start + within);
      from += n;
      within += n;
      if (within === length) {
        segment += 1;
        within = 0;
      }
    }
  }
  return { place, expected };
}

const DECODE_SLICE_MS = 8;

/** Resolves in a new task, after whatever the thread has queued (a MessageChannel: no clamping). */
function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * Decode a brotli stream chunk by chunk, as it arrives, handing each decoded chunk to `write`;
 * resolves to the number of bytes decoded once the stream has ended where brotli's data ends (a
 * truncated or damaged stream rejects). Decoding starts once `start` settles (until then the
 * worker's thread is left to the runtime), and pauses every DECODE_SLICE_MS.
 */
async function decodeBrotli(stream, write, decoderReady, start, what) {
  const brotli = await decoderReady;
  await start;
  const { NeedsMoreOutput, ResultSuccess } = brotli.BrotliStreamResultCode;
  const state = new brotli.BrotliDecStream();
  const reader = stream.getReader();
  let decoded = 0;
  let finished = false;
  let ranSince = performance.now();
  try {
    for (;;) {
      // A chunk already received is read in a microtask: without a pause, decoding would hold the
      // thread until the download is all decoded, and Pyodide's own start would wait for it.
      if (performance.now() - ranSince > DECODE_SLICE_MS) {
        await nextTask();
        ranSince = performance.now();
      }
      const { done, value } = await reader.read();
      if (done) break;
      let input = value;
      for (;;) {
        const result = state.dec(input, 1 << 22);
        const code = result.code;
        const chunk = result.buf; // a copy, out of the decoder's memory
        input = input.subarray(result.input_offset);
        result.free();
        write(chunk);
        decoded += chunk.length;
        if (code === ResultSuccess) finished = true;
        if (code !== NeedsMoreOutput) break;
      }
    }
  } finally {
    state.free();
  }
  if (!finished) throw new Error(`${what}: the brotli stream ends early (${decoded} bytes decoded)`);
  return decoded;
}

/**
 * Read `stream` to its end and say whether its bytes have the digest `integrity` ("sha256-<base64>");
 * `received(bytes)` is told the count so far after each chunk, `ended()` when the last has come.
 */
async function matchesIntegrity(stream, integrity, received = () => {}, ended = () => {}) {
  const chunks = [];
  let bytes = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.length;
    received(bytes);
  }
  ended();
  return hasIntegrity(await new Blob(chunks).arrayBuffer(), integrity);
}

/**
 * Pyodide's wasm, whatever the host sends. Pyodide fetches `pyodide.asm.wasm` itself and compiles
 * it as it streams in (WebAssembly.instantiateStreaming); that one request is answered here, from
 * the wasm's brotli copy (the configuration's `wasm`: 2.7 MB where the plain file is 9.6 MB, which
 * a host that does not compress sends as it is), decoded as it arrives, so the wasm still compiles
 * while it downloads. The copy is checked against the SHA-256 the build recorded, and the decoded
 * stream ends only once it matches: a wasm that fails never instantiates (the boot then fails as
 * with any broken runtime file).
 */
function answerTheWasmRequest(config, decoderReady) {
  const plain = new URL("pyodide.asm.wasm", config.pyodide).href;
  const network = self.fetch.bind(self);
  self.fetch = (resource, options) =>
    (resource instanceof Request ? resource.url : String(resource)) === plain
      ? decodedWasm(config.wasm, decoderReady, network)
      : network(resource, options);
}

async function decodedWasm({ url, integrity }, decoderReady, network) {
  // Without crypto.subtle (not a secure context), fetch() checks the digest itself (SRI) and hands
  // the body over only once all of it has arrived.
  const secure = Boolean(self.crypto && crypto.subtle);
  const response = await network(url, secure ? {} : { integrity });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const [forHash, forDecoder] = secure ? response.body.tee() : [null, response.body];
  const matches = forHash && matchesIntegrity(forHash, integrity);
  if (matches) matches.catch(() => {}); // awaited below, unless the decoding fails first
  const body = new ReadableStream({
    start(controller) {
      decodeBrotli(forDecoder, (chunk) => controller.enqueue(chunk), decoderReady, null, "wasm")
        .then(async () => {
          if (matches && !(await matches)) throw new Error(`wasm: ${url} does not match ${integrity}`);
          milestone("wasmDecoded");
          controller.close();
        })
        .catch((error) => controller.error(error));
    },
  });
  return new Response(body, { headers: { "Content-Type": "application/wasm" } });
}

/**
 * Without crypto.subtle (plain HTTP from a LAN address is not a secure context), fetch() checks
 * the digest itself: Subresource Integrity works in any context. It hands over the body only
 * once all of it has arrived and matched, so there is no byte progress on this path.
 */
async function integrityCheckedBody({ url, integrity }, signal) {
  post("boot-progress", { text: TEXTS.snapshot_checked, fraction: 0.15 });
  try {
    const response = await fetch(url, { integrity, signal });
    milestone("snapshotFetched");
    return response.body;
  } catch (error) {
    // A failed download and a failed check look alike here: a file that is there failed the check.
    if (signal.aborted) throw error;
    const there = await fetch(url, { method: "HEAD", signal }).then((response) => response.ok, () => false);
    throw there ? new IntegrityError(`snapshot does not match ${integrity}`) : error;
  }
}

/**
 * Decode the snapshot into `out`, settling once its compressed bytes match the digest recorded at
 * build time. In a secure context the download is hashed and decoded at the same time (tee), with
 * progress. The download starts at once; decoding, once `start` settles.
 */
async function verifiedSnapshot(snapshot, out, signal, start, decoderReady) {
  const { place, expected } = placement(snapshot.layout, out);
  const decode = async (stream) => {
    const decoded = await decodeBrotli(stream, place, decoderReady, start, "snapshot");
    if (decoded !== expected) throw new Error(`snapshot: ${decoded} of ${expected} bytes decoded`);
    milestone("snapshotDecoded");
    return out;
  };
  if (!(self.crypto && crypto.subtle)) return decode(await integrityCheckedBody(snapshot, signal));
  const response = await fetchOk(snapshot.url, { signal });
  const [forHash, forDecoder] = response.body.tee();
  let reached = 0; // snapshot.progress: [bytes, fraction, text] steps, worded by the build
  const hashed = matchesIntegrity(forHash, snapshot.integrity, (received) => {
    let step = null;
    while (reached < snapshot.progress.length && received >= snapshot.progress[reached][0]) {
      step = snapshot.progress[reached++];
    }
    if (step) post("boot-progress", { text: step[2], fraction: step[1] });
  }, () => milestone("snapshotFetched")).then((matches) => {
    milestone("snapshotHashed");
    if (!matches) throw new IntegrityError(`snapshot does not match ${snapshot.integrity}`);
  });
  // Judge integrity first: a tampered file usually also fails to decode, and must say so.
  const [hash, decoded] = await Promise.allSettled([hashed, decode(forDecoder)]);
  if (hash.status === "rejected") throw hash.reason;
  if (decoded.status === "rejected") throw decoded.reason;
  return decoded.value;
}

/**
 * Restore Python from the snapshot being decoded into `buffer` (`filled` settles when it is whole
 * and verified). Pyodide needs only the snapshot's length to start, and its bytes only after it has
 * instantiated the wasm: so the wasm downloads and compiles while the snapshot downloads and
 * decodes. Between the two, the bytes are verified and their XOR undone (onPyodideInstance);
 * a snapshot that fails never reaches Pyodide, whose attempt is then left waiting forever.
 */
async function bootFromSnapshot(loadPyodide, config, wasmFailed, buffer, filled, xorBytes) {
  let taken;
  const hookTaken = new Promise((resolve) => (taken = resolve));
  onPyodideInstance = {
    taken,
    async run(instance) {
      milestone("wasmInstantiated");
      try {
        await filled;
      } catch {
        return new Promise(() => {}); // the failure is reported through `filled` below
      }
      post("boot-progress", { text: TEXTS.restoring, fraction: 0.85 });
      if (xorBytes) undoXor(buffer, instance.exports.memory, xorBytes);
    },
  };
  const restored = loadPyodide({
    indexURL: config.pyodide,
    lockFileContents: config.lock,
    packages: [],
    stdLibURL: `${config.pyodide}empty.zip`, // every module the page uses is in the snapshot
    _loadSnapshot: buffer,
  });
  restored.catch(() => {}); // observed through the race below
  try {
    const py = await Promise.race([restored, wasmFailed, filled.then(() => restored)]);
    milestone("pyodideRestored");
    return py.pyimport("raglab_core.browser");
  } catch (error) {
    // The plain boot instantiates Pyodide too: first this attempt must have taken its hook (its
    // instance then waits forever) or have ended, so that the hook cannot stop the plain boot's.
    await Promise.race([hookTaken, restored.catch(() => {})]);
    onPyodideInstance = null;
    throw error;
  }
}

async function bootPlain(loadPyodide, config, wasmFailed) {
  // Both downloads at once, and the first failure ends the boot (no waiting for the other).
  const [py, bytes] = await Promise.all([
    step("plain_runtime", 0.2, "runtime_failed", () =>
      Promise.race([loadPyodide({ indexURL: config.pyodide, lockFileContents: config.lock, packages: [] }), wasmFailed])
    ),
    step("wheel", 0.2, "wheel_failed", () => fetchOk(config.wheel.url).then((response) => response.arrayBuffer())),
  ]);
  await step("installing", 0.9, "wheel_mismatch", () =>
    py.runPython(INSTALL_WHEEL)(new Uint8Array(bytes), config.wheel.sha256)
  );
  return py.pyimport("raglab_core.browser");
}

function snapshotUsable(config) {
  return Boolean(config.snapshot);
}

/**
 * Repeat visits skip the snapshot's download, check and decoding: after a boot, the snapshot as
 * Pyodide restores it (decoded, XOR undone) is kept in Cache Storage, under its digest, in the
 * cache `snapshot.keptCache` (which sw.js spares). Only in a secure context (Cache Storage needs
 * one). One build's at a time: keeping a new one deletes the old.
 */
const decodedKey = (snapshot) => new URL(`?${encodeURIComponent(snapshot.integrity)}`, snapshot.url).href;

async function decodedFromCache(snapshot) {
  if (!self.caches) return null;
  try {
    const response = await (await caches.open(snapshot.keptCache)).match(decodedKey(snapshot));
    if (!response) return null;
    const bytes = new Uint8Array(await response.arrayBuffer());
    return bytes.length === snapshot.size ? bytes : null;
  } catch (error) {
    console.warn("raglab: could not read the kept snapshot:", error);
    return null;
  }
}

async function keepDecoded(snapshot, bytes) {
  if (!self.caches) return;
  try {
    await caches.delete(snapshot.keptCache); // one build's snapshot at a time
    await (await caches.open(snapshot.keptCache)).put(decodedKey(snapshot), new Response(bytes));
  } catch (error) {
    console.warn("raglab: could not keep the snapshot for the next visit:", error); // quota, private mode
  }
}

async function boot(config) {
  milestone("init");
  const wasmFailed = watchWasmInstantiation();
  // The runtime module's import starts first; then the snapshot comes from Cache Storage (a repeat
  // visit) or its download starts, while the module is imported, and loadPyodide compiles the wasm
  // while the snapshot arrives. When the snapshot boot fails, its download stops (and with it,
  // progress that would hide what the page says next).
  const downloads = new AbortController();
  const runtime = import(config.runtime);
  runtime.catch(() => {}); // awaited below
  const decoderReady = brotliDecoder(config.decoder);
  decoderReady.catch(() => {}); // awaited where a brotli stream is decoded
  answerTheWasmRequest(config, decoderReady);
  const kept = snapshotUsable(config) ? await decodedFromCache(config.snapshot) : null;
  if (kept) milestone("snapshotFromCache");
  // Decoding the snapshot takes the worker's thread for a while: only once the runtime is imported.
  const buffer = kept || (snapshotUsable(config) ? new Uint8Array(config.snapshot.size) : null);
  const filled = kept
    ? Promise.resolve(kept)
    : buffer && verifiedSnapshot(config.snapshot, buffer, downloads.signal, runtime, decoderReady);
  if (filled) filled.catch(() => {}); // awaited below; not "unhandled" meanwhile
  let loadPyodide;
  try {
    ({ loadPyodide } = await step("runtime", 0.05, "runtime_failed", () => runtime));
  } catch (error) {
    downloads.abort();
    throw error;
  }
  milestone("pyodideImported");
  if (filled) {
    try {
      const xorBytes = kept ? 0 : config.snapshot.xorBytes;
      const bridge = await bootFromSnapshot(loadPyodide, config, wasmFailed, buffer, filled, xorBytes);
      connect(bridge);
      addFirstUseCode = firstUseCodeFromWheel(bridge, config.wheel);
      if (!kept) afterReady = () => keepDecoded(config.snapshot, buffer);
      return "snapshot";
    } catch (error) {
      downloads.abort(); // its progress must not cover what the plain boot says
      console.warn("raglab: snapshot boot failed, falling back to the plain boot:", error);
      if (kept) caches.delete(config.snapshot.keptCache).catch(() => {}); // not again on the next visit
      if (error instanceof IntegrityError) post("boot-notice", { text: TEXTS.snapshot_discarded });
    }
  }
  connect(await bootPlain(loadPyodide, config, wasmFailed));
  return "plain";
}

function connect(bridge) {
  python = bridge;
}

let python = null; // raglab_core.browser, once the boot has connected it

// «Tu corpus»'s Python and the judges' are not in the snapshot (raglab_core.browser.ON_FIRST_USE): after a
// snapshot boot, the first measurement, or the first evaluation with a judge's qrels, adds them from the
// core's wheel. The plain boot installed the whole wheel.
let addFirstUseCode = () => Promise.resolve();

function firstUseCodeFromWheel(bridge, wheel) {
  let added = null;
  return () =>
    (added ??= fetchOk(wheel.url)
      .then((response) => response.arrayBuffer())
      .then((bytes) => void bridge.add_on_first_use(new Uint8Array(bytes), wheel.sha256))
      .catch((error) => {
        added = null; // the next measurement tries again
        throw error;
      }));
}

let router = null; // worker-router.js's route for every other message, imported at "boot-start"

self.addEventListener("message", async (event) => {
  const message = event.data;
  if (message.type === "boot-start") {
    TEXTS = message.texts;
    booting = boot(message).then(
      (how) => {
        post("boot-ready", { boot: how, milestones });
        if (afterReady) setTimeout(afterReady, 1000); // after the first views, off the critical path
        afterReady = null;
      },
      (error) => {
        const cause = error.cause || error;
        post("boot-failure", {
          text: error instanceof BootFailure ? error.message : TEXTS.boot_failed,
          detail: String(cause && cause.stack ? cause.stack : cause),
        });
      }
    );
    const booted = () => booting.then(() => python);
    router = import(message.router).then(
      (module) => module.router({ post, booted, texts: TEXTS, slots: message.slots, kit: message.kit, panels: message.panels,
        firstUse: () => addFirstUseCode() }),
      (error) => {
        post("boot-failure", { text: TEXTS.boot_failed, detail: String(error && error.stack ? error.stack : error) });
        return () => {}; // nothing can be answered
      }
    );
  } else if (router) {
    await (await router)(message);
  }
});
