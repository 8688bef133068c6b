// Make the Pyodide memory snapshot the page boots from (called by build.py; Node >= 20).
//
//   node snapshot.mjs PYODIDE_DIR WHEEL OUT       (OUT: the snapshot, gzipped)
//
// Boots Pyodide in Node, installs the raglab_core wheel with unpackArchive (loadPackage before a
// snapshot fails: "Unexpected hiwire entry", pyodide #5195/#6418), imports and exercises the core
// (raglab_core.browser.warm_up), and writes makeMemorySnapshot() to OUT. The snapshot is private,
// build-specific Pyodide API: it only restores with the exact same Pyodide build, so build.py pins
// the version and caches snapshots by the hashes of Pyodide's files, this script and the wheel.
import nodeCrypto from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheelPath, outPath] = process.argv.slice(2);
if (!outPath) {
  console.error("usage: node snapshot.mjs PYODIDE_DIR WHEEL OUT");
  process.exit(2);
}
// Python seeds its `random` module and libc its arc4random from the OS's entropy while booting.
// Every visitor restores this one snapshot, so they share that state whatever its source; feeding
// it a fixed stream instead makes the snapshot (and dist/) reproducible, byte for byte.
let state = 0x9e3779b9;
nodeCrypto.randomFillSync = (view) => {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < bytes.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return view;
};
globalThis.crypto.getRandomValues = (view) => nodeCrypto.randomFillSync(view);

// File times (the unpacked wheel's, the import system's directory caches) and clocks read while
// booting end up in the heap too: give them a fixed epoch (SOURCE_DATE_EPOCH, as for the wheel).
const epochMs = Number(process.env.SOURCE_DATE_EPOCH || 315532800) * 1000;
Date.now = () => epochMs;
let ticks = 0;
performance.now = () => ++ticks; // a monotonic clock that advances by call, not by wall time
Math.random = () => {
  const word = new Uint32Array(1);
  nodeCrypto.randomFillSync(word);
  return word[0] / 2 ** 32;
};

const indexURL = path.resolve(pyodideDir) + path.sep;
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
const lock = JSON.parse(readFileSync(path.join(indexURL, "pyodide-lock.json"), "utf8"));

const pyodide = await loadPyodide({
  indexURL,
  lockFileContents: { info: lock.info, packages: {} }, // the page loads no package from the lock
  packages: [],
  env: {
    PYTHONHASHSEED: "0", // a reproducible heap, so a rebuild gives the same snapshot
    // Pyodide compiles its standard library from source (python_stdlib.zip holds .py files) while
    // booting, so the snapshot's heap is mostly code objects: compile them as `python -OO -X
    // no_debug_ranges` does, without docstrings and asserts (which raglab_core never relies on)
    // and without column positions (tracebacks keep their line numbers). Measured, brotli q9:
    // 2.88 MB as before, 2.63 with -OO, 2.66 without the column tables, 2.41 with both.
    PYTHONOPTIMIZE: "2",
    PYTHONNODEBUGRANGES: "1",
  },
  _makeSnapshot: true,
});
const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
pyodide.unpackArchive(new Uint8Array(readFileSync(wheelPath)), "wheel", { extractDir: sitePackages });
// With a frozen clock the import system cannot see site-packages change: drop its directory
// finders so that new ones list it afresh. (importlib.invalidate_caches() would also do, but it
// imports importlib.metadata and email, which the page never uses, into the snapshot.)
const modules = pyodide.runPython(
  "import sys; sys.path_importer_cache.clear(); import raglab_core.browser; raglab_core.browser.warm_up()"
);
// What the page never uses again goes before the heap is saved: the standard library archive's
// directory (the page restores with an empty archive), source lines, the type cache, garbage.
pyodide.runPython(
  "import gc, linecache, sys, zipimport\n" +
    "zipimport._zip_directory_cache.clear(); linecache.clearcache(); sys._clear_type_cache(); gc.collect()"
);
zeroFreeMemory(pyodide._module);
zeroDeadStack(pyodide._module);
const snapshot = pyodide.makeMemorySnapshot();
// Gzip keeps the build cache small; raglab_site/snapshot.py recompresses it with brotli for the page.
// Node's gzip
// header carries no time, so the bytes are reproducible.
writeFileSync(outPath, gzipSync(snapshot, { level: 9 }));
console.log(JSON.stringify({ bytes: snapshot.length, modules }));

/**
 * Zero the allocator's free memory below the heap's current end. Booting leaves freed blocks full
 * of what they last held (compressed standard-library data, mostly: nearly incompressible), and a
 * snapshot saves them too. Taking every free block with calloc (which zeroes it) and giving it back
 * makes them runs of zeros: the gzipped snapshot shrank from 6.45 to 5.37 MB when this was
 * measured. Blocks that would reach past the heap's end are returned at once, so the heap does not
 * grow. Uses Emscripten's exported malloc API (_calloc, _free, _sbrk), private to Pyodide's build.
 */
function zeroFreeMemory(module) {
  const end = module._sbrk(0);
  const taken = [];
  for (let size = 1 << 18; size >= 64; size >>= 1) {
    for (;;) {
      const pointer = module._calloc(1, size);
      if (!pointer) break;
      if (pointer + size > end) {
        module._free(pointer);
        break;
      }
      taken.push(pointer);
    }
  }
  for (const pointer of taken) module._free(pointer);
}

/**
 * Zero the C stack below its current top: nothing runs in wasm while the snapshot is taken, so all
 * of it is dead, but it still holds what the boot's deepest calls left there (21 KB of non-zero
 * bytes in 10 MB when measured: 14 KB less brotli). The stack grows down from its base to its end.
 */
function zeroDeadStack(module) {
  module.HEAPU8.fill(0, module._emscripten_stack_get_end(), module._emscripten_stack_get_current());
}

