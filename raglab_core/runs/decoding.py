"""Why a file is not UTF-8 text, and how to save it as UTF-8: the same diagnosis for the command line and the page.

The readers take text; the edges decode the bytes (the command line with
Python's incremental decoder, the page with the browser's ``TextDecoder``).
When that fails, :func:`undecodable` looks at the file's first bytes and at
the first byte that is not UTF-8 and says which encoding the file probably
has, with the byte's offset (from 0) and how to convert the file:

* **UTF-16** (a byte order mark ``FF FE`` or ``FE FF`` at the start, or NUL
  bytes every other byte): what Windows PowerShell 5 writes with ``>`` and
  ``Out-File``;
* **Windows-1252** (a byte from ``0x80`` that Windows-1252 reads as a letter or
  sign): what older Windows editors and Excel's «CSV» write;
* otherwise, not UTF-8, with the byte.

>>> print(undecodable("run.txt", "run", b"\\xff\\xfeq\\x00", 0).render("en"))
run.txt: not UTF-8 text: it looks like UTF-16 (it starts with a UTF-16 byte order mark; Windows PowerShell 5 writes UTF-16 with > and Out-File). The first byte that is not UTF-8 is at offset 0. Save it as UTF-8: in PowerShell, Get-Content run.txt | Set-Content -Encoding utf8 run-utf8.txt; in an editor, "Save as" with the UTF-8 encoding.
>>> print(undecodable("q.txt", "qrels", b"q1 0 d\\xe9 1", 6))
No se pudo leer «q.txt»: no es texto UTF-8; parece Windows-1252 (Latin-1): el byte 0xE9, en la posición 6 (contando desde 0), es «é» en Windows-1252. Guárdalo como UTF-8: iconv -f WINDOWS-1252 -t UTF-8 q.txt > q-utf8.txt, o en un editor, «Guardar como» con la codificación UTF-8.
"""

import codecs
import os

from ..errors import LabError

HEAD = 4096
"""Bytes of a file's start that the diagnosis looks at (byte order mark, NUL bytes)."""


def _utf8_name(name: str) -> str:
    base, extension = os.path.splitext(os.path.basename(name))
    return f"{base}-utf8{extension or '.txt'}"


# Windows-1252's 0x80-0x9F (its bytes from 0xA0 are Latin-1's, code points of the same value); spelled out
# rather than asked of the "cp1252" codec, which the page's Python (a memory snapshot) does not hold.
_WINDOWS_1252 = "€\x00‚ƒ„…†‡ˆ‰Š‹Œ\x00Ž\x00\x00‘’“”•–—˜™š›œ\x00žŸ"


def windows_1252(byte: int) -> str | None:
    """The character Windows-1252 gives ``byte`` (>= 0x80), ``None`` for its five unassigned bytes.

    >>> windows_1252(0xE9), windows_1252(0x80), windows_1252(0x81)
    ('é', '€', None)
    >>> all(windows_1252(b) == bytes([b]).decode("cp1252") for b in range(0x80, 0x100) if windows_1252(b))
    True
    """
    char = _WINDOWS_1252[byte - 0x80] if byte < 0xA0 else chr(byte)
    return None if char == "\x00" else char


def looks_utf16(head: bytes) -> bool:
    """A UTF-16 byte order mark, or NUL bytes in at least a quarter of the first bytes (UTF-16 text without one).

    >>> looks_utf16(b"\\xff\\xfeq"), looks_utf16("q1 0 d 1".encode("utf-16-le")), looks_utf16(b"q1 0 d 1")
    (True, True, False)
    """
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return True
    return len(head) >= 4 and head.count(0) * 4 >= len(head)


def undecodable(name: str, field: str, head: bytes, offset: int, byte: int | None = None) -> LabError:
    """The error for a file that is not UTF-8: ``head`` its first bytes, ``offset`` that of its first bad byte.

    ``byte`` is the bad byte's value; by default it is read from ``head``
    when the offset falls in it.
    """
    head = bytes(head[:HEAD])
    if byte is None and 0 <= offset < len(head):
        byte = head[offset]
    params = {"name": name, "offset": offset, "utf8_name": _utf8_name(name)}
    if looks_utf16(head):
        return LabError("not_utf8_utf16", field=field, **params)
    if byte is not None and byte >= 0x80:
        char = windows_1252(byte)
        if char is not None:
            return LabError("not_utf8_cp1252", field=field, byte=f"0x{byte:02X}", char=char, **params)
    return LabError("not_utf8_byte", field=field, byte="?" if byte is None else f"0x{byte:02X}", **params)


def first_bad_byte(data: bytes, skip: int = 0) -> tuple[int, int] | None:
    """``(offset, byte)`` of the first byte of ``data`` that is not UTF-8, or ``None``.

    The first ``skip`` bytes may end a character begun before ``data`` (they
    were the end of the previous chunk): decoding starts at the first of them
    that can start a character.

    >>> first_bad_byte("añ".encode() + b"\\xe9x"), first_bad_byte(b"\\xb1x\\xff", skip=1), first_bad_byte(b"ok")
    ((3, 233), (2, 255), None)
    """
    start = 0
    while start < min(skip, len(data)) and 0x80 <= data[start] < 0xC0:  # continuation bytes
        start += 1
    try:
        data[start:].decode("utf-8")
    except UnicodeDecodeError as error:
        return start + error.start, data[start + error.start]
    return None


class NotUTF8(ValueError):
    """Bytes that are not UTF-8 met while reading a file: its ``head`` (first bytes), the first bad byte's
    ``offset`` in the file and its value ``byte``; :func:`undecodable` words it."""

    def __init__(self, head: bytes, offset: int, byte: int | None):
        super().__init__(f"not UTF-8 at byte offset {offset}")
        self.head, self.offset, self.byte = head, offset, byte


def read_text_chunks(path: str, size: int = 1 << 20):
    """The UTF-8 text of the file at ``path``, about ``size`` bytes at a time, a leading byte order mark dropped.

    On bytes that are not UTF-8 it raises :class:`NotUTF8`, with the offset
    of the first bad byte in the file.
    """
    decoder = codecs.getincrementaldecoder("utf-8")()
    with open(path, "rb") as stream:
        head, offset, first = b"", 0, True
        while True:
            data = stream.read(size)
            pending = len(decoder.getstate()[0])  # bytes of a character the previous chunk began
            try:
                text = decoder.decode(data, final=not data)
            except UnicodeDecodeError as error:  # error.object: those pending bytes, then data
                head = head or data[:HEAD]
                raise NotUTF8(head, offset - pending + error.start, error.object[error.start]) from None
            if first:
                head, first = data[:HEAD], False
                if text.startswith("\ufeff"):
                    text = text[1:]
            if text:
                yield text
            if not data:
                return
            offset += len(data)
