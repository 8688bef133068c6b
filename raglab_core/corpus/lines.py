"""A file's text read line by line as it arrives, in chunks, with each problem tied to its line.

The readers of :mod:`raglab_core.corpus` take text, never paths: the command
line feeds a file's chunks (:func:`raglab_core.runs.decoding.read_text_chunks`),
the page feeds the text the browser read. :class:`LineReader`, a
:class:`raglab_core.text_reader.TextReader` as the qrels and run readers are,
splits the chunks into numbered lines (a line may straddle two chunks), skips
blank lines, and collects problems as those readers do: the first
:data:`~raglab_core.text_reader.MAX_REPORTED` with their line numbers, then a count.
:meth:`LineReader.close` returns the plain data read, or raises one
:class:`~raglab_core.text_reader.FileFormatError` (a :class:`~raglab_core.errors.LabError`)
listing them, in English (``render("en")``) or Spanish (``str``).

>>> class Lengths(LineReader):
...     field = "corpus"
...     def line(self, number, text):
...         self.result.append(len(text))
>>> reader = Lengths("x.txt")
>>> reader.result = []
>>> reader.feed("ab\\nc"); reader.feed("de\\n\\nf")
>>> reader.close()
[2, 3, 1]
"""

import json

from ..text_reader import FileFormatError, Problem, TextReader


def excerpt(value, limit: int = 60) -> str:
    """``value`` in JSON notation (the same in English and Spanish), cut to ``limit`` characters.

    >>> excerpt("12"), excerpt(1.5), excerpt(None), excerpt("x" * 100)[-3:]
    ('"12"', '1.5', 'null', 'xx…')
    """
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class LineReader(TextReader):
    """Numbered, non-blank lines from text fed in chunks; subclasses read each in :meth:`line`.

    ``name`` names the file in messages; ``field`` (a class attribute) is
    the input the page and the command line blame: ``"corpus"``,
    ``"queries"``, ``"evidence"`` or ``"chunks"``. A trailing ``\\r`` (Windows
    line ends) is dropped from every line.
    """

    def __init__(self, name: str):
        super().__init__(name)
        self.result = None

    def lines(self, lines) -> None:
        for text in lines:
            self.number += 1
            if text.endswith("\r"):
                text = text[:-1]
            if text.strip():
                self.line(self.number, text)

    def line(self, number: int, text: str) -> None:  # pragma: no cover - each reader has its own
        raise NotImplementedError

    def problem(self, number, kind: str, **details) -> None:
        """Note a problem of line ``number`` (``None``: of the whole file): ``kind`` is its message code."""
        self.problems.add(number, kind, **details)

    def finish(self):
        """What the reader read (called by :meth:`close` once every line is read and no problem was found)."""
        return self.result

    def close(self):
        """End the text: the data read, or :class:`~raglab_core.text_reader.FileFormatError` with every problem."""
        self.end_text()
        self.problems.raise_if_any()
        result = self.finish()
        self.problems.raise_if_any()
        return result

    def read(self, text: str):
        """Read a whole text at once: :meth:`feed` then :meth:`close`."""
        self.feed(text)
        return self.close()


def json_object(reader: LineReader, number: int, text: str, layout: str):
    """Line ``number`` read as a JSON object, or ``None`` after noting why it is not one."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        reader.problem(number, "json_syntax", column=error.colno)
        return None
    if not isinstance(value, dict):
        reader.problem(number, "line_not_object", layout=layout, found=excerpt(value))
        return None
    return value


def identifier(reader: LineReader, number: int, record: dict, key: str, layout: str):
    """``record[key]`` as an id: a non-empty string without whitespace (a whole number is written in decimal),
    or ``None`` after noting the problem.

    >>> reader = LineReader("c.jsonl")
    >>> identifier(reader, 1, {"_id": 7}, "_id", ""), identifier(reader, 2, {"_id": "a b"}, "_id", "")
    ('7', None)
    >>> reader.problems.listed[0].render("en")
    "line 2: the id 'a b' contains whitespace, which a TREC run cannot hold (its columns are separated by whitespace); replace it, e.g. with _"
    """
    if key not in record:
        reader.problem(number, "key_missing", key=key, layout=layout)
        return None
    value = record[key]
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        reader.problem(number, "not_id", key=key, value=excerpt(value))
        return None
    if not value:
        reader.problem(number, "id_blank", key=key)
        return None
    if len(value.split()) != 1 or value.split()[0] != value:
        reader.problem(number, "id_space", value=value)
        return None
    return value


def text_field(reader: LineReader, number: int, record: dict, key: str, layout: str, required: bool = True):
    """``record[key]`` as text (``""`` when it is optional and missing or null), or ``None`` after noting the problem."""
    if key not in record or (record[key] is None and not required):
        if required:
            reader.problem(number, "key_missing", key=key, layout=layout)
            return None
        return ""
    value = record[key]
    if not isinstance(value, str):
        reader.problem(number, "not_text", key=key, value=excerpt(value))
        return None
    return value


def offset(reader: LineReader, number: int, record: dict, key: str, layout: str):
    """``record[key]`` as a character offset (an integer >= 0), or ``None`` after noting the problem."""
    if key not in record:
        reader.problem(number, "key_missing", key=key, layout=layout)
        return None
    value = record[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        reader.problem(number, "not_offset", key=key, value=excerpt(value))
        return None
    return value


class FirstLines(dict):
    """The line on which each id was first given, noting a repeated id as a problem naming both lines."""

    def seen(self, reader: LineReader, number: int, key) -> bool:
        """``True`` (and a problem noted) when ``key`` was already given on an earlier line."""
        first = self.get(key)
        if first is not None:
            reader.problem(number, "span_repeated" if isinstance(key, tuple) else "id_repeated",
                           value=key, first=first)
            return True
        self[key] = number
        return False


__all__ = ["LineReader", "Problem", "FileFormatError", "excerpt", "json_object", "identifier", "text_field",
           "offset", "FirstLines"]


class WholeText:
    """A file read whole, as a folder's document or a file parsed at its end is: its chunks, joined when it ends
    (the readers' ``feed``/``close``, for a session that reads every file through a reader).

    >>> text = WholeText("a.txt")
    >>> text.feed("Hola, "); text.feed("mundo.")
    >>> text.close()
    'Hola, mundo.'
    """

    def __init__(self, name: str):
        self.name = name
        self.parts = []

    def feed(self, text: str) -> None:
        """The next chunk of the file's text."""
        self.parts.append(text)

    def close(self) -> str:
        """The whole text."""
        return "".join(self.parts)
