/* worker-kit.js — what every panel's part of the worker shares (data-worker.js, corpus-worker.js, and the
 * panels after them): reading a chosen file as a stream of text, feeding every file Python asks for into
 * its bridge, and a download as a message. worker.js imports it with the first panel module and hands it
 * over. It reads and passes on; Python (raglab_core.browser) parses, decides and words everything.
 */

const TEXT_PER_CALL = 1 << 20; // characters handed to Python at a time (about 28,000 run lines)

const HEAD_BYTES = 4096; // raglab_core.runs.decoding.HEAD

/** Bytes that are not UTF-8: `data` (from file offset `base`; its first `skip` bytes may end a character). */
export class NotUTF8 extends Error {
  constructor(head, data, base, skip) {
    super("not UTF-8");
    Object.assign(this, { head, data, base, skip });
  }
}

/**
 * Read `item` ({name, file} or {name, text}) as a stream, never whole: `onText(text, bytesSoFar)` gets
 * about TEXT_PER_CALL characters at a time, decoded as UTF-8 (a leading BOM dropped; a byte sequence
 * that is not UTF-8 throws), and stops the reading by returning true. A file that starts with gzip's
 * bytes 1f 8b (whatever its name) goes through `DecompressionStream("gzip")` first; `bytesSoFar` then
 * counts the compressed bytes read, and a gzip that cannot be decompressed throws NotUTF8 with the
 * compressed file's first bytes (Python says what that means).
 */
export async function streamText(item, onText) {
  if (!item.file) {
    for (let start = 0; start < item.text.length; start += TEXT_PER_CALL) {
      const end = Math.min(start + TEXT_PER_CALL, item.text.length);
      if (onText(item.text.slice(start, end), end)) return;
    }
    return;
  }
  const magic = new Uint8Array(await item.file.slice(0, 2).arrayBuffer());
  const gzipped =
    magic.length === 2 && magic[0] === 0x1f && magic[1] === 0x8b && typeof DecompressionStream === "function";
  let read = 0; // bytes of the file itself read so far (compressed ones when gzipped)
  let compressedHead = null;
  let source = item.file.stream();
  if (gzipped) {
    compressedHead = new Uint8Array(await item.file.slice(0, HEAD_BYTES).arrayBuffer());
    const counted = new TransformStream({
      transform(chunk, controller) {
        read += chunk.length;
        controller.enqueue(chunk);
      },
    });
    source = source.pipeThrough(counted).pipeThrough(new DecompressionStream("gzip"));
  }
  const reader = source.getReader();
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let pending = [];
  let length = 0;
  let bytes = 0; // bytes decoded so far (decompressed ones when gzipped)
  let head = null; // the file's first bytes, and the last ones of the chunk before: what Python's diagnosis reads
  let tail = new Uint8Array(0);
  for (;;) {
    let done, value;
    try {
      ({ done, value } = await reader.read());
    } catch (error) {
      if (!gzipped) throw error;
      throw new NotUTF8(compressedHead, new Uint8Array(0), bytes, 0); // a damaged or truncated gzip
    }
    let text;
    try {
      text = done ? decoder.decode() : decoder.decode(value, { stream: true });
    } catch (error) {
      await reader.cancel();
      const chunk = done ? new Uint8Array(0) : value;
      const data = new Uint8Array(tail.length + chunk.length);
      data.set(tail);
      data.set(chunk, tail.length);
      throw new NotUTF8(head || chunk.slice(0, HEAD_BYTES), data, bytes - tail.length, tail.length);
    }
    if (!done) {
      if (!head) head = value.slice(0, HEAD_BYTES);
      tail = value.slice(-3);
      bytes += value.length;
    }
    if (text) {
      pending.push(text);
      length += text.length;
    }
    if (length >= TEXT_PER_CALL || (done && length)) {
      const stop = onText(pending.join(""), gzipped ? read : bytes);
      pending = [];
      length = 0;
      if (stop) {
        await reader.cancel();
        return;
      }
    }
    if (done) return;
  }
}

/** A chosen file's size: its bytes, or a pasted text's characters (0 for none). */
export const sizeOf = (item) => (item ? (item.file ? item.file.size : item.text.length) : 0);

/**
 * Stream each file the bridge asks for (`bridge.next()` names its slot in `items`) into it: `feed` as the
 * text arrives, then `end`; bytes that are not UTF-8 go to `undecodable` (raglab_core.runs.decoding says
 * which encoding they look like, where, and how to save the file as UTF-8), a file the browser cannot read
 * to `unreadable`. Python asks for a file again when it must read it twice.
 */
export async function readAll(bridge, items) {
  for (let slot; (slot = bridge.next()); ) {
    try {
      await streamText(items[slot], (text, done) => bridge.feed(text, done));
    } catch (error) {
      if (error instanceof NotUTF8) {
        const { head, data, base, skip } = error;
        bridge.undecodable(JSON.stringify({ head: Array.from(head), data: Array.from(data), base, skip }));
        continue;
      }
      console.warn("raglab: could not read", items[slot].name, error);
      bridge.unreadable(String(error));
      continue;
    }
    bridge.end();
  }
}

/** A download the bridge built (`saved`: its JSON, {ok, name, text, type} or {ok: false, message}) as the fields of a "-file" message. */
export function fileFields(saved) {
  return saved.ok ? { ok: true, name: saved.name, blob: new Blob([saved.text], { type: saved.type }) } : saved;
}
