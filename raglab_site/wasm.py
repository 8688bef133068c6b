"""What a WebAssembly module writes into its memory when it is instantiated: its active data segments.

The Pyodide snapshot is a copy of the whole linear memory, and its first few megabytes are mostly the
static data that ``pyodide.asm.wasm`` itself carries (its data section) and writes into a fresh memory
on instantiation. The build stores that part of the snapshot as an XOR against this image, so those
bytes become zeros and cost almost nothing compressed; the worker XORs them back against the memory
the browser has just filled from the same wasm, before Pyodide runs any code in it.

Binary format: WebAssembly Core Specification 2.0, §5.5 (modules): sections are ``id:byte
size:u32 contents``; the data section has id 11 and holds a vector of segments, each ``0:u32
e:expr bytes`` (active, memory 0), ``1:u32 bytes`` (passive: written only by ``memory.init``) or
``2:u32 x:memidx e:expr bytes`` (active, memory x). https://webassembly.github.io/spec/core/binary/modules.html
"""

from __future__ import annotations

MAGIC = b"\x00asm\x01\x00\x00\x00"
DATA_SECTION = 11
I32_CONST, END = 0x41, 0x0B


class WasmFormatError(ValueError):
    """The bytes are not a module this reader understands."""


def _leb128(data: bytes, at: int, signed: bool = False) -> tuple[int, int]:
    """A LEB128 integer at ``at`` (unsigned, or two's-complement ``signed``), and the offset after it.

    >>> _leb128(bytes([0x80, 0x08]), 0), _leb128(bytes([0x7F]), 0), _leb128(bytes([0x7F]), 0, signed=True)
    ((1024, 2), (127, 1), (-1, 1))
    """
    value = shift = 0
    while True:
        if at >= len(data):
            raise WasmFormatError("truncated LEB128 integer")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            if signed and byte & 0x40:
                value -= 1 << shift
            return value, at


def data_segments(module: bytes) -> list[tuple[int, bytes]]:
    """The active data segments of memory 0 as ``(address, bytes)``, in the module's order.

    Only constant offsets (``i32.const n``) are read; a module whose segments are placed by a global
    (a relocatable side module) raises WasmFormatError, as do passive segments into memory other than 0.
    """
    if not module.startswith(MAGIC):
        raise WasmFormatError("not a WebAssembly 1.0 binary module")
    at = len(MAGIC)
    segments: list[tuple[int, bytes]] = []
    while at < len(module):
        section = module[at]
        size, at = _leb128(module, at + 1)
        end = at + size
        if section == DATA_SECTION:
            count, cursor = _leb128(module, at)
            for _ in range(count):
                kind, cursor = _leb128(module, cursor)
                if kind == 1:  # passive: no address until memory.init
                    length, cursor = _leb128(module, cursor)
                    cursor += length
                    continue
                memory = 0
                if kind == 2:
                    memory, cursor = _leb128(module, cursor)
                elif kind != 0:
                    raise WasmFormatError(f"unknown data segment kind {kind}")
                if module[cursor] != I32_CONST:
                    raise WasmFormatError("a data segment's offset is not a constant")
                address, cursor = _leb128(module, cursor + 1, signed=True)
                if module[cursor] != END:
                    raise WasmFormatError("a data segment's offset is not a single i32.const")
                length, cursor = _leb128(module, cursor + 1)
                if memory != 0:
                    raise WasmFormatError(f"a data segment writes into memory {memory}")
                segments.append((address & 0xFFFFFFFF, module[cursor:cursor + length]))
                cursor += length
            if cursor != end:
                raise WasmFormatError("the data section's size does not match its segments")
        at = end
    return segments


def initial_memory(module: bytes) -> bytes:
    """Memory 0 right after instantiation, up to the end of the last segment (zeros elsewhere).

    Later segments overwrite earlier ones where they overlap, as instantiation applies them in order.

    >>> module = MAGIC + bytes([11, 9, 1, 0, I32_CONST, 2, END, 3]) + b"abc"
    >>> initial_memory(module)
    b'\\x00\\x00abc'
    """
    segments = data_segments(module)
    image = bytearray(max((address + len(data) for address, data in segments), default=0))
    for address, data in segments:
        image[address:address + len(data)] = data
    return bytes(image)


def xor(data: bytes, key: bytes) -> bytes:
    """``data`` with its first ``len(key)`` bytes XORed with ``key`` (the rest unchanged).

    >>> xor(b"abcd", b"ab")
    b'\\x00\\x00cd'
    """
    if len(key) > len(data):
        raise ValueError(f"a key of {len(key)} bytes for {len(data)} bytes of data")
    head = int.from_bytes(data[:len(key)], "little") ^ int.from_bytes(key, "little")
    return head.to_bytes(len(key), "little") + data[len(key):]
