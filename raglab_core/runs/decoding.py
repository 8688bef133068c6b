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

Before any of those, a file that is not text at all (a PNG, a PDF, a ZIP, an
ELF binary…, known by its first bytes, or NUL bytes near its start that are
not UTF-16's) is said to be no text file, naming what it looks like
(:func:`binary_kind`), without advice to convert it. Gzipped text is read as it
is, decompressed by both edges (:func:`read_text_chunks`, the page's
``DecompressionStream``): a gzip head that reaches the diagnosis is a file that
could not be decompressed.

>>> print(undecodable("run.txt", "run", b"\\xff\\xfeq\\x00", 0).render("en"))
run.txt: not UTF-8 text: it looks like UTF-16 (it starts with a UTF-16 byte order mark; Windows PowerShell 5 writes UTF-16 with > and Out-File). The first byte that is not UTF-8 is at offset 0. Save it as UTF-8: in PowerShell, Get-Content run.txt | Set-Content -Encoding utf8 run-utf8.txt; in an editor, "Save as" with the UTF-8 encoding.
>>> print(undecodable("q.png", "qrels", b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00", 0).render("en"))
q.png is not a text file: it looks like a PNG image. raglab reads UTF-8 text, plain or gzipped.
>>> print(undecodable("q.txt", "qrels", b"q1 0 d\\xe9 1", 6))
No se pudo leer «q.txt»: no es texto UTF-8; parece Windows-1252 (Latin-1): el byte 0xE9, en la posición 6 (contando desde 0), es «é» en Windows-1252. Guárdalo como UTF-8: iconv -f WINDOWS-1252 -t UTF-8 q.txt > q-utf8.txt, o en un editor, «Guardar como» con la codificación UTF-8.
"""

import codecs
import os

from ..errors import LabError

HEAD = 4096
"""Bytes of a file's start that the diagnosis looks at (byte order mark, NUL bytes)."""


def format_name(name: str) -> str:
    """The name whose extension says a file's format: ``name`` without a trailing ``.gz`` (whether a file is
    gzipped is known by its first bytes, :data:`GZIP`; what it holds, by the extension before).

    >>> format_name("questions_df.csv.GZ"), format_name("run.txt")
    ('questions_df.csv', 'run.txt')
    """
    return name[:-3] if name.lower().endswith(".gz") else name


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


GZIP = b"\x1f\x8b"
"""The first bytes of a gzip file: both edges decompress such a file before decoding it."""

# (first bytes, what the file looks like in English and in Spanish); every one holds a byte that no text
# starts with, or is a format's unmistakable signature.
_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image", "un PNG (una imagen)"),
    (b"\xff\xd8\xff", "a JPEG image", "un JPEG (una imagen)"),
    (b"GIF87a", "a GIF image", "un GIF (una imagen)"),
    (b"GIF89a", "a GIF image", "un GIF (una imagen)"),
    (b"%PDF-", "a PDF document", "un PDF"),
    (b"PK\x03\x04", "a ZIP archive (as are .xlsx and .docx files)", "un ZIP (como los .xlsx y los .docx)"),
    (b"PK\x05\x06", "an empty ZIP archive", "un ZIP vacío"),
    (GZIP, "a gzip file that could not be decompressed (damaged, truncated, or compressed twice)",
     "un gzip que no se pudo descomprimir (dañado, incompleto o comprimido dos veces)"),
    (b"BZh", "a bzip2 file (decompress it first, or recompress it with gzip)",
     "un bzip2 (descomprímelo antes, o comprímelo con gzip)"),
    (b"\xfd7zXZ\x00", "an xz file (decompress it first, or recompress it with gzip)",
     "un xz (descomprímelo antes, o comprímelo con gzip)"),
    (b"\x28\xb5\x2f\xfd", "a zstd file (decompress it first, or recompress it with gzip)",
     "un zstd (descomprímelo antes, o comprímelo con gzip)"),
    (b"7z\xbc\xaf\x27\x1c", "a 7z archive", "un 7z"),
    (b"\x7fELF", "an ELF executable", "un ejecutable ELF"),
    (b"MZ", "a Windows executable", "un ejecutable de Windows"),
    (b"SQLite format 3\x00", "an SQLite database", "una base de datos SQLite"),
)
_NUL = ("a binary file (it holds NUL bytes near its start)", "un fichero binario (tiene bytes nulos, 0x00, al principio)")


def _nul_parities(head: bytes) -> tuple[int, int]:
    return head[0::2].count(0), head[1::2].count(0)


def looks_utf16(head: bytes) -> bool:
    """A UTF-16 byte order mark, or NUL bytes in at least a quarter of the first bytes, nearly all at even or
    nearly all at odd offsets (UTF-16 text without one; a binary file's NUL bytes fall at both).

    >>> looks_utf16(b"\\xff\\xfeq"), looks_utf16("q1 0 d 1".encode("utf-16-le")), looks_utf16(b"q1 0 d 1")
    (True, True, False)
    >>> looks_utf16(b"\\x7fELF\\x02\\x01\\x01\\x00" + bytes(8) + b"\\x03\\x00>\\x00\\x01\\x00\\x00\\x00")
    False
    """
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return True
    even, odd = _nul_parities(head)
    return len(head) >= 4 and (even + odd) * 4 >= len(head) and min(even, odd) * 10 <= max(even, odd)


def binary_kind(head: bytes) -> tuple[str, str] | None:
    """What a file whose first bytes are ``head`` looks like, in English and in Spanish, when it is no text
    file: a known format's first bytes, or NUL bytes that UTF-16 text would not have; else ``None``.

    >>> binary_kind(b"\\x89PNG\\r\\n\\x1a\\n")[1], binary_kind(b"PK\\x03\\x04\\x14")[1], binary_kind(b"q1\\x00 0 d 1")[1]
    ('un PNG (una imagen)', 'un ZIP (como los .xlsx y los .docx)', 'un fichero binario (tiene bytes nulos, 0x00, al principio)')
    >>> binary_kind(b"q1 0 d 1"), binary_kind("q1 0 d 1".encode("utf-16")), binary_kind(b"MZ 0 d 1")
    (None, None, None)
    """
    head = bytes(head[:HEAD])
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return None
    for magic, english, spanish in _MAGIC:
        if head.startswith(magic) and (magic != b"MZ" or 0 in head):  # "MZ" may start a line of text
            return english, spanish
    if 0 in head and not looks_utf16(head):
        return _NUL
    return None


def suspect(head: bytes) -> bool:
    """Whether a file whose first bytes are ``head`` must be diagnosed even if it decodes as UTF-8: it is no
    text file (:func:`binary_kind`), or UTF-16 text without a byte order mark (ASCII in UTF-16 is UTF-8 with
    NUL bytes)."""
    return binary_kind(head) is not None or 0 in head[:HEAD]


def undecodable(name: str, field: str, head: bytes, offset: int, byte: int | None = None) -> LabError:
    """The error for a file that is not UTF-8: ``head`` its first bytes, ``offset`` that of its first bad byte.

    ``byte`` is the bad byte's value; by default it is read from ``head``
    when the offset falls in it.
    """
    head = bytes(head[:HEAD])
    if byte is None and 0 <= offset < len(head):
        byte = head[offset]
    params = {"name": name, "offset": offset, "utf8_name": _utf8_name(name)}
    kind = binary_kind(head)
    if kind is not None:
        return LabError("not_a_text_file", field=field, name=name, kind_en=kind[0], kind_es=kind[1])
    if looks_utf16(head):
        bom = head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
        return LabError("not_utf8_utf16" if bom else "not_utf8_utf16_nul", field=field, **params)
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

    A file that starts with gzip's bytes ``1f 8b`` (whatever its name) is
    decompressed as it is read (:mod:`gzip`, streaming). On bytes that are not
    UTF-8 it raises :class:`NotUTF8`, with the offset of the first bad byte in
    the (decompressed) text; on a file that is no text (:func:`suspect`), the
    same with offset 0; on a gzip file that cannot be decompressed, the same
    with the compressed file's first bytes as its head.
    """
    import gzip  # the command line's only: the page's Python never loads it
    import zlib

    with open(path, "rb") as raw:
        if raw.read(2) != GZIP:
            raw.seek(0)
            yield from _decoded(raw, size)
            return
        raw.seek(0)
        compressed_head = raw.read(HEAD)
        raw.seek(0)
        try:
            with gzip.GzipFile(fileobj=raw, mode="rb") as stream:
                yield from _decoded(stream, size)
        except (OSError, EOFError, zlib.error):  # gzip.BadGzipFile is an OSError
            raise NotUTF8(compressed_head, 0, None) from None


def _decoded(stream, size: int):
    """:func:`read_text_chunks` over an open binary ``stream``."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    head, offset, first = b"", 0, True
    while True:
        data = stream.read(size)
        if first and suspect(data[:HEAD]):
            raise NotUTF8(data[:HEAD], 0, data[0])
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
