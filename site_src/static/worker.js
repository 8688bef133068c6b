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

function post(type, fields = {}) {
  self.postMessage({ type, ...fields });
}

async function boot({ pyodide: base, wheel }) {
  post("progress", { text: "Descargando el intérprete de Python (WebAssembly)…", fraction: 0.1 });
  const { loadPyodide } = await import(`${base}pyodide.mjs`);
  const py = await loadPyodide({ indexURL: base, packages: [] });
  post("progress", { text: "Instalando el núcleo de cálculo…", fraction: 0.8 });
  const response = await fetch(wheel.url);
  if (!response.ok) throw new Error(`${wheel.url}: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  py.runPython(PYTHON_ENTRY);
  py.globals.get("_install")(bytes, wheel.sha256);
  computeInPython = py.globals.get("_compute");
  computeInPython('{"warm": true}'); // imports raglab_core now rather than on the first slider move
}

self.addEventListener("message", async (event) => {
  const message = event.data;
  if (message.type === "init") {
    booting = boot(message).then(
      () => post("ready"),
      (error) => {
        post("error", {
          text:
            "No se pudo preparar Python en tu navegador: ves los valores calculados al publicar la página. " +
            "Recarga la página; si el problema sigue, prueba otro navegador.",
          detail: String(error && error.stack ? error.stack : error),
        });
      }
    );
  } else if (message.type === "compute") {
    try {
      await booting;
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
