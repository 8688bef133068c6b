"""The inverse of raglab_site.snapshot.zero_pages_left_out, as worker.js rebuilds the snapshot (not a test
module): the tests check that leaving the zero pages out loses nothing."""


def pages_put_back(packed: bytes, layout: dict, size: int) -> bytes:
    """The whole snapshot (``size`` bytes) from ``zero_pages_left_out``'s output, as worker.js
    rebuilds it: the head, then each run of pages at its place, zeros elsewhere."""
    out = bytearray(size)
    head, page = layout["head"], layout["page"]
    out[:head] = packed[:head]
    at = head
    for first, count in layout["runs"]:
        start = head + first * page
        length = min(count * page, size - start)
        out[start:start + length] = packed[at:at + length]
        at += length
    if at != len(packed):
        raise ValueError(f"{len(packed) - at} bytes beyond the layout")
    return bytes(out)
