/* worker.js — runs raglab_core under Pyodide, off the main thread.
 *
 * In:  {type: "init", pyodide: <base URL>, wheel: {url, sha256}}
 *      {type: "compute", state}
 * Out: {type: "progress", text, fraction} while loading, then {type: "ready"};
 *      {type: "view", view} for each compute; {type: "error", text, detail} when something fails.
 * Every number comes from raglab_core.compute; this file only loads Python and passes JSON through.
 */

const PYTHON_ENTRY = `
import hashlib, io, json, zipfile

def _install(wheel, expected_sha256):
    data = bytes(wheel.to_py())
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_sha256:
        raise ValueError(f"wheel SHA-256 {actual} != expected {expected_sha256}")
    import importlib, site
    zipfile.ZipFile(io.BytesIO(data)).extractall(site.getsitepackages()[0])
    importlib.invalidate_caches()

def _compute(text):
    import raglab_core
    try:
        view = raglab_core.compute(json.loads(text))
    except raglab_core.LabError as error:
        return json.dumps({"ok": False, "field": error.field, "message": str(error)})
    return json.dumps({"ok": True, "view": view}, allow_nan=False)
`;

let computeInPython = null;
let booting = null;

const WHAT_TO_DO =
  " Ves los valores calculados al publicar la página. Recarga la página; si el problema sigue, avisa a quien publica el sitio.";

/** A boot failure with the sentence the page shows; the cause goes to the console. */
class BootFailure extends Error {
  constructor(text, cause) {
    super(text, { cause });
  }
}

function post(type, fields = {}) {
  self.postMessage({ type, ...fields });
}

async function step(text, fraction, failure, work) {
  post("progress", { text, fraction });
  try {
    return await work();
  } catch (error) {
    throw error instanceof BootFailure ? error : new BootFailure(failure + WHAT_TO_DO, error);
  }
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Pyodide 314 catches a failed WebAssembly instantiation, logs "wasm instantiation failed!" and
 * never settles loadPyodide() (getInstantiateWasmFunc in pyodide.mjs). Watch instantiation here so
 * that a missing or corrupt pyodide.asm.wasm fails the boot instead of hanging it forever.
 */
function wasmFailure() {
  let reject;
  const failed = new Promise((_, rejectWith) => (reject = rejectWith));
  for (const name of ["instantiate", "instantiateStreaming"]) {
    const original = WebAssembly[name].bind(WebAssembly);
    WebAssembly[name] = (...args) =>
      original(...args).catch((error) => {
        reject(error);
        throw error;
      });
  }
  return failed;
}

async function boot({ pyodide: base, wheel }) {
  const py = await step(
    "Descargando e iniciando Python (WebAssembly)…",
    0.1,
    "No se pudo descargar o iniciar Python (Pyodide) en tu navegador.",
    async () => {
      const failed = wasmFailure();
      const { loadPyodide } = await import(`${base}pyodide.mjs`);
      return Promise.race([loadPyodide({ indexURL: base, packages: [] }), failed]);
    }
  );
  const bytes = await step("Descargando el núcleo de cálculo…", 0.8, "No se pudo descargar el núcleo de cálculo.", () =>
    fetchBytes(wheel.url)
  );
  await step(
    "Comprobando e instalando el núcleo de cálculo…",
    0.9,
    "El núcleo de cálculo descargado no coincide con el publicado (falla su SHA-256), así que no se usa.",
    () => {
      py.runPython(PYTHON_ENTRY);
      py.globals.get("_install")(bytes, wheel.sha256);
    }
  );
  computeInPython = py.globals.get("_compute");
  computeInPython('{"warm": true}'); // imports raglab_core now rather than on the first slider move
}

self.addEventListener("message", async (event) => {
  const message = event.data;
  if (message.type === "init") {
    booting = boot(message).then(
      () => post("ready"),
      (error) => {
        const cause = error.cause || error;
        post("error", {
          text: error instanceof BootFailure ? error.message : "No se pudo preparar Python." + WHAT_TO_DO,
          detail: String(cause && cause.stack ? cause.stack : cause),
        });
      }
    );
  } else if (message.type === "compute") {
    await booting;
    if (!computeInPython) return; // the boot failed and said so
    try {
      const result = JSON.parse(computeInPython(JSON.stringify(message.state)));
      if (result.ok) post("view", { view: result.view });
      else post("error", { text: `Estado no válido: ${result.message}`, detail: result.field });
    } catch (error) {
      post("error", {
        text: "Falló el cálculo de este estado: los valores mostrados son los últimos correctos. Recarga la página.",
        detail: String(error && error.stack ? error.stack : error),
      });
    }
  }
});
