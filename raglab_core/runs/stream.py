"""What every panel's session shares with the page's worker: its files named one at a time and streamed in.

A panel of the page (``Tus datos``: :class:`raglab_core.runs.session.EvaluationSession`; ``Tu corpus``:
:class:`raglab_core.corpus.session.CorpusSession`; the panels to come) reads the reader's files in the
worker, where nothing leaves the browser and a file is read a chunk at a time. Its session is a
:class:`StreamSession`, and speaks one protocol:

- :meth:`~StreamSession.next` names the file to read now, from its start (its *slot*), or ``None`` once
  every file is read; :attr:`~StreamSession.slot` is the file being read;
- :meth:`~StreamSession.feed` takes that file's text a chunk at a time (``True``: stop reading it), and
  :meth:`~StreamSession.end` ends it;
- :meth:`~StreamSession.unreadable` and :meth:`~StreamSession.undecodable` say that the file could not
  be read as UTF-8 text (each raises the ``LabError`` that says so);
- ``progress(fraction, text)`` hears how far the session is, in the page's words
  (:mod:`raglab_core.words`);
- :meth:`~StreamSession.check_sizes` refuses, before anything is read, an input bigger than a browser
  tab takes, with the command line that measures it instead.

:class:`raglab_core.browser.StreamBridge` hands any session to the worker (JSON in and out, no
exception crossing into JavaScript); :func:`raglab_core.runs.inputs.read_all` drives one over whole texts.

>>> class Echo(StreamSession):
...     def __init__(self):
...         super().__init__()
...         self.order, self.position, self.read = ["a.txt", "b.txt"], -1, []
...     def next(self):
...         self.position += 1
...         return self.slot
...     def feed(self, text, done=None):
...         self.read.append(text)
...         return False
...     def end(self):
...         pass
>>> from raglab_core.runs.inputs import read_all
>>> read_all(Echo(), lambda slot: [slot.upper()]).read
['A.TXT', 'B.TXT']
"""

from ..errors import LabError
from ..formatting import NBSP
from ..words import megabytes
from .decoding import undecodable


def silent(fraction: float, text: str) -> None:
    """The progress of a session nobody listens to."""


class StreamSession:
    """The protocol of every panel's session (see the module): subclasses define :meth:`next`, :meth:`feed`
    and :meth:`end`, and keep their files' slots in ``order`` and the one being read at ``position`` (or
    override :attr:`slot`).

    ``progress(fraction, text)``, when given, hears how far the session is; :attr:`heard` says whether
    anyone listens (so that a session need not word what nobody reads).
    """

    order: list = []
    position = -1

    def __init__(self, progress=None):
        self.heard = progress is not None
        self.progress = progress or silent

    @property
    def slot(self) -> str | None:
        """The file being read, or ``None``."""
        return self.order[self.position] if 0 <= self.position < len(self.order) else None

    def next(self) -> str | None:  # pragma: no cover - each session has its own
        """The slot of the file to read now, from its start, or ``None`` once every file is read."""
        raise NotImplementedError

    def feed(self, text: str, done: int | None = None) -> bool:  # pragma: no cover - each session has its own
        """The next chunk of the file's text, ``done`` bytes (or characters) of it read so far; ``True``: stop
        reading this file (call :meth:`end`, then :meth:`next`)."""
        raise NotImplementedError

    def end(self) -> None:  # pragma: no cover - each session has its own
        """End the file being read."""
        raise NotImplementedError

    def blamed(self, slot: str | None) -> str | None:
        """What the page ties a failure while file ``slot`` was read to (``None``: no file): the slot itself,
        unless several files fill one input."""
        return slot

    def field(self, slot: str | None = None) -> str:
        """The input file ``slot`` (default: the one being read) belongs to, as errors name it."""
        return slot or self.slot or ""

    def name(self, slot: str | None = None) -> str:
        """The name of file ``slot`` (default: the one being read), as errors name it."""
        return slot or self.slot or ""

    def unreadable(self, reason: str) -> None:
        """The file being read could not be read as text (``reason``: the reader's)."""
        raise LabError("not_utf8", field=self.field(), name=self.name(), reason=reason)

    def undecodable(self, head: bytes, offset: int, byte: int | None = None) -> None:
        """The file being read is not UTF-8 at byte ``offset``: what it looks like, where, and how to save it as
        UTF-8 (:func:`raglab_core.runs.decoding.undecodable`)."""
        raise undecodable(self.name(), self.field(), head, offset, byte)

    def check_sizes(self, sizes, limits: dict, subjects: dict, command: str | None) -> None:
        """Refuse an input bigger than the page takes, before anything is read: ``sizes`` ``{input: bytes (a list
        for an input of several files)}``, ``limits`` ``{input: most bytes}``, ``subjects`` ``{input: (its name
        as a sentence's subject, the verb agreeing with it)}``; ``command``: the command line that measures it
        (``None`` when no command does what the page does: the sentence says only what the page reads).

        >>> try:
        ...     StreamSession().check_sizes({"run": 9_000_000}, {"run": 8_000_000}, {"run": ("Tu run", "ocupa")}, "x")
        ... except LabError as error:
        ...     print(error.field, str(error).replace(NBSP, " "))
        run Tu run ocupa 9,0 MB, más de lo que esta página mide en el navegador (8,0 MB). Mídelo en la línea de órdenes, que da las mismas cifras: x
        """
        if not isinstance(sizes, dict):
            return
        for slot, limit in limits.items():
            size = sizes.get(slot)
            total = sum(size) if isinstance(size, list) else size if isinstance(size, int) else 0
            if total > limit:
                subject, verb = subjects[slot]
                if command is None:
                    raise LabError.page(f"{subject} {verb} {megabytes(total)}{NBSP}MB, más de lo que esta página lee "
                                        f"en el navegador ({megabytes(limit)}{NBSP}MB).", field=slot)
                raise LabError.page(
                    f"{subject} {verb} {megabytes(total)}{NBSP}MB, más de lo que esta página mide "
                    f"en el navegador ({megabytes(limit)}{NBSP}MB). Mídelo en la línea de órdenes, que da las mismas "
                    f"cifras: {command}", field=slot)
