"""The snapshot's XOR against the wasm's initial memory (raglab_site/wasm.py), checked against V8.

The worker undoes the XOR against the memory the browser fills when it instantiates
pyodide.asm.wasm. Here Node (V8) instantiates the same wasm, with every import stubbed and no code
run, and the memory it holds must be exactly the image the build computed from the data section.
"""

import gzip
import json
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from raglab_site import runtime, wasm
from raglab_site import snapshot as snapshots
from tests.support.snapshot_pages import pages_put_back

# Instantiate pyodide.asm.wasm with inert imports and print the hex SHA-256 and length of its memory
# up to `length` bytes, and whether the rest of the memory is zero.
INSTANTIATE = r"""
const fs = require("fs"), crypto = require("crypto");
const [path, length] = [process.argv[1], Number(process.argv[2])];
const module = new WebAssembly.Module(fs.readFileSync(path));
const imports = {};
for (const { module: from, name, kind } of WebAssembly.Module.imports(module)) {
  imports[from] ??= {};
  if (kind === "function") imports[from][name] = () => { throw new Error("no code may run"); };
  else if (kind === "global") imports[from][name] = new WebAssembly.Global({ value: "i32", mutable: true }, 0);
  else throw new Error(`unexpected import kind ${kind}`);
}
const memory = new WebAssembly.Instance(module, imports).exports.memory;
const bytes = new Uint8Array(memory.buffer);
console.log(JSON.stringify({
  sha256: crypto.createHash("sha256").update(bytes.subarray(0, length)).digest("hex"),
  restIsZero: bytes.subarray(length).every((b) => b === 0),
}));
"""


def test_initial_memory_is_what_v8_writes_on_instantiation(tmp_path):
    module = runtime.read_pyodide()[1]["pyodide.asm.wasm"]
    image = wasm.initial_memory(module)
    assert 3_000_000 < len(image) < 5_000_000  # Pyodide 314's static data: about 3.8 MB
    path = tmp_path / "pyodide.asm.wasm"
    path.write_bytes(module)
    shown = subprocess.run(["node", "-e", INSTANTIATE, str(path), str(len(image))],
                           capture_output=True, text=True, check=True)
    import hashlib

    assert json.loads(shown.stdout) == {"sha256": hashlib.sha256(image).hexdigest(), "restIsZero": True}


def test_the_snapshot_delta_is_its_own_inverse_and_keeps_the_header():
    module = runtime.read_pyodide()[1]["pyodide.asm.wasm"]
    base = wasm.initial_memory(module)
    snapshot = gzip.decompress(snapshots.make_snapshot(runtime.build_wheel()[1]))  # cached by `make`
    delta = snapshots.snapshot_delta(snapshot, base)
    offset = int.from_bytes(snapshot[4:8], "little")
    assert delta[:offset] == snapshot[:offset] and len(delta) == len(snapshot)
    assert snapshots.snapshot_delta(delta, base) == snapshot
    # Most of the static data is unchanged once Python has started: it becomes zeros.
    region = delta[offset:offset + len(base)]
    assert region.count(0) > 0.95 * len(base)


def test_the_pages_of_zeros_left_out_are_put_back_and_are_most_of_the_heap():
    module = runtime.read_pyodide()[1]["pyodide.asm.wasm"]
    snapshot = gzip.decompress(snapshots.make_snapshot(runtime.build_wheel()[1]))  # cached by `make`
    delta = snapshots.snapshot_delta(snapshot, wasm.initial_memory(module))
    packed, layout = snapshots.zero_pages_left_out(delta)
    assert pages_put_back(packed, layout, len(delta)) == delta
    head = int.from_bytes(snapshot[4:8], "little")
    assert layout["head"] == head and layout["page"] == 65536 and packed[:head] == delta[:head]
    kept = sum(count for _, count in layout["runs"])
    assert len(packed) == head + kept * 65536
    assert kept < 0.5 * (len(delta) - head) / 65536  # measured: 179 of 480 pages


@given(st.binary(min_size=16, max_size=64), st.lists(st.sampled_from([b"", b"\0", b"x", b"\0\0y"]), max_size=12))
def test_zero_pages_left_out_and_put_back_are_inverses(head, pieces):
    page = snapshots.PAGE
    head = head[:4] + len(head).to_bytes(4, "little") + head[8:]  # bytes 4–8: where the image starts
    # An image of whole pages (zeros, or holding a piece), and maybe a last partial one.
    image = b"".join((piece * (page // max(len(piece), 1)) if piece else bytes(page))[:page].ljust(page, b"\0")
                     for piece in pieces) + (b"z" * (len(pieces) % 3))
    snapshot = head + image
    packed, layout = snapshots.zero_pages_left_out(snapshot)
    assert pages_put_back(packed, layout, len(snapshot)) == snapshot
    assert all(count > 0 for _, count in layout["runs"])
    assert all(a + n < b for (a, n), (b, _) in zip(layout["runs"], layout["runs"][1:]))  # runs are maximal


@given(st.lists(st.tuples(st.integers(0, 300), st.binary(max_size=40)), max_size=6))
def test_initial_memory_applies_segments_in_order(segments):
    body = bytearray()
    for address, data in segments:
        body += bytes([0, wasm.I32_CONST]) + _sleb(address) + bytes([wasm.END]) + _uleb(len(data)) + data
    section = _uleb(len(segments)) + body
    module = wasm.MAGIC + bytes([wasm.DATA_SECTION]) + _uleb(len(section)) + section
    expected = bytearray(max((a + len(d) for a, d in segments), default=0))
    for address, data in segments:
        expected[address:address + len(data)] = data
    assert wasm.initial_memory(bytes(module)) == bytes(expected)


def test_a_segment_placed_by_a_global_is_refused():
    section = bytes([1, 0, 0x23, 0, wasm.END, 1]) + b"x"  # global.get 0
    module = wasm.MAGIC + bytes([wasm.DATA_SECTION, len(section)]) + section
    with pytest.raises(wasm.WasmFormatError, match="not a constant"):
        wasm.initial_memory(module)


def _uleb(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _sleb(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        done = (value == 0 and not byte & 0x40) or (value == -1 and byte & 0x40)
        out.append(byte | (0 if done else 0x80))
        if done:
            return bytes(out)
