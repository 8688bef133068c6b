"""The base of every reader of a file's text, and the format error it raises: a file read as it arrives.

A :class:`TextReader` takes a file's text in chunks, as the browser reads it or the command line feeds it, cuts
it into numbered lines (a line may straddle two chunks) and collects the file's :class:`Problems`: the first
:data:`MAX_REPORTED` in full, each a :class:`Problem` tied to its line, then only a count. Nothing partial is
returned: the reader raises one :class:`FileFormatError` (a :class:`~raglab_core.errors.LabError`) listing them,
worded in English (the command line) or Spanish (the page) from :data:`raglab_core.messages.MESSAGES`. The
readers of qrels and runs (:mod:`raglab_core.runs.trec`, whose :class:`~raglab_core.runs.trec.TrecFormatError`
is one), of the corpus's files (:mod:`raglab_core.corpus.lines`) and of the judges' pool file are ones.

>>> class Widths(TextReader):
...     field = "corpus"
...     def lines(self, lines):
...         for text in lines:
...             self.number += 1
...             if not text.isdigit():
...                 self.problems.add(self.number, "relevance", value=text)
>>> reader = Widths("w.txt")
>>> reader.feed("1\\n2"); reader.feed("x\\n3"); reader.end_text()
>>> reader.problems.raise_if_any()
Traceback (most recent call last):
raglab_core.text_reader.FileFormatError: «w.txt», línea 2: la relevancia «2x» no es un número entero en cifras ASCII
"""

from typing import NamedTuple

from .errors import LabError, message

MAX_REPORTED = 10
"""Problems listed one by one in a :class:`FileFormatError`; further ones are only counted."""


class Problem(NamedTuple):
    """One problem in a file: its 1-based ``line`` (``None`` when not tied to a line),
    its ``kind`` (a key such as ``"relevance"``) and the ``details`` filling its message.

    >>> Problem(4, "score", {"value": "x"}).render("en")
    "line 4: score 'x' is not a number in ASCII digits"
    """

    line: int | None
    kind: str
    details: dict

    def render(self, language: str = "es") -> str:
        """The problem in ``language`` (``"en"`` or ``"es"``), prefixed by its line."""
        details = dict(self.details)
        if "what" in details:
            details["what"] = message(f"files_{details['what']}", language)
        if "where" in details:  # a structural location, itself translated
            where = details["where"]
            details["where"] = message("top_level", language) if where is None else message("query", language, qid=where)
        text = message(self.kind, language, **details)
        return text if self.line is None else message("at_line", language, line=self.line, text=text)


class FileFormatError(LabError):
    """A file that cannot be read, with every problem found (up to a limit): the error of every
    :class:`TextReader` (:class:`raglab_core.runs.trec.TrecFormatError` for qrels and runs).

    Attributes: ``name`` (the file's name as given), ``field`` (the input that is wrong: ``"qrels"``,
    ``"run"``, ``"corpus"``, ``"pool"``, …), ``problems`` (the first
    :data:`MAX_REPORTED` :class:`Problem` s, in file order) and ``more`` (how
    many further problems were found but not listed). Messages are produced
    from these data in either language: :meth:`render` (``"en"`` or
    ``"es"``), :meth:`english`; ``str(error)`` is Spanish, like every
    :class:`~raglab_core.errors.LabError`.

    >>> error = FileFormatError("pool.tsv", "pool", [Problem(3, "pool_columns", {"found": 1})])
    >>> print(error.english())
    pool.tsv, line 3: expected 2 columns separated by one tab (query_id<TAB>doc_id), found 1
    """

    def __init__(self, name: str, field: str, problems, more: int = 0):
        self.name = name
        self.problems = list(problems)
        self.more = more
        super().__init__("file_format", field=field)

    def render(self, language: str = "es") -> str:
        """The whole report in ``language``: one line for one problem, else a list."""
        if len(self.problems) == 1 and not self.more:
            problem = self.problems[0]
            text = problem._replace(line=None).render(language)
            if problem.line is None:
                return message("file_problem", language, name=self.name, text=text)
            return message("file_line_problem", language, name=self.name, line=problem.line, text=text)
        return "\n".join([self.header(language), *(f"  {line}" for line in self.listed(language))])

    def header(self, language: str = "es") -> str:
        """The first line of a report of several problems: the file and how many problems it has.

        >>> FileFormatError("run.txt", "run", [Problem(1, "empty_run", {})] * 3).header("es")
        '«run.txt» tiene 3 problemas:'
        """
        return message("problems", language, name=self.name, count=len(self.problems) + self.more)

    def listed(self, language: str = "es") -> list[str]:
        """Each listed problem, then how many more were found (when some were not listed)."""
        lines = [problem.render(language) for problem in self.problems]
        if self.more:
            lines.append(message("more_problems", language, count=self.more))
        return lines

    def english(self) -> str:
        """The report in English (for the command line)."""
        return self.render("en")


class Problems:
    """Collects a file's problems: the first :data:`MAX_REPORTED` in full, then only a count; raised as one
    ``error`` (a :class:`FileFormatError` class).

    >>> problems = Problems("q.txt", "qrels")
    >>> for line in range(1, 14):
    ...     problems.add(line, "relevance", value="x")
    >>> len(problems.listed), problems.more
    (10, 3)
    """

    def __init__(self, name, field, error=FileFormatError):
        self.name, self.field, self.error = name, field, error
        self.listed, self.more = [], 0

    def add(self, line, kind, **details):
        if len(self.listed) < MAX_REPORTED:
            self.listed.append(Problem(line, kind, details))
        else:
            self.more += 1

    def fail(self, line, kind, **details):
        """Raise at once for a problem that makes reading on pointless."""
        raise self.error(self.name, self.field, [Problem(line, kind, details)])

    def raise_if_any(self):
        if self.listed:
            raise self.error(self.name, self.field, self.listed, self.more)


class TextReader:
    """The base of every reader of a file's text (qrels and runs in :mod:`raglab_core.runs.trec`,
    the corpus's files in :mod:`raglab_core.corpus.lines`, the pool file in :mod:`raglab_core.judges`): the text fed in chunks as it arrives, cut into lines (a line may
    straddle two chunks), and the file's :class:`Problems`.

    ``name`` names the file in messages; ``field`` (a class attribute) is the input the page and the
    command line blame, ``error`` (another) the :class:`FileFormatError` its problems raise. Subclasses read
    the complete lines in :meth:`lines` and end the text with :meth:`end_text` before they close.
    """

    field = ""
    error = FileFormatError

    def __init__(self, name: str):
        self.name = name
        self.problems = Problems(name, self.field, self.error)
        self.number = 0  # lines read so far
        self.carry = ""  # the unfinished last line of the text fed so far

    def feed(self, text: str) -> None:
        """Read a chunk of text; a line may continue in the next chunk."""
        lines = (self.carry + text).split("\n")
        self.carry = lines.pop()
        self.lines(lines)

    def lines(self, lines) -> None:  # pragma: no cover - each reader has its own
        """Read the next complete lines (an iterable of ``str``, without their ``\\n``)."""
        raise NotImplementedError

    def end_text(self) -> None:
        """The text has ended: its last line, when it had no ``\\n``, is read."""
        if self.carry:
            carry, self.carry = self.carry, ""
            self.lines([carry])
