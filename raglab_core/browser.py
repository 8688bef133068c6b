"""The bridge the page's Web Worker calls under Pyodide: JSON text in, JSON text out.

Every call the worker makes into raglab_core goes through here: :func:`compute_json` for the lab,
and one :class:`StreamBridge` per panel that streams the reader's files (:class:`EvaluationBridge`
for «Tus datos», :class:`CorpusBridge` for «Tu corpus»). Keeping it in the core means the
build-time memory snapshot (``snapshot.mjs``, after :func:`warm_up`) captures exactly what the
page runs. The worker's own Python is a few lines of set-up, not of the lab: on a boot without
the snapshot, ``INSTALL_WHEEL`` in ``worker.js`` checks the core's wheel (SHA-256) and unpacks it
into site-packages, as :func:`add_on_first_use` does for «Tu corpus» after a snapshot boot.
"""

import json
import traceback

from .errors import LabError
from .lab import compute
from .runs.decoding import HEAD, first_bad_byte, suspect
from .text_reader import FileFormatError
from .warm_up_inputs import DOWNLOADS, EVALUATIONS, FUSED, LAB_STATES, UNREADABLE
from .words import INTERNAL_EVALUATION_FAILURE, INTERNAL_FAILURE, INVALID_STATE


def _internal(text: str) -> str:
    """An error of the page itself (a bug), not of its input: said as one, with the traceback for the console."""
    return json.dumps({"ok": False, "internal": True, "message": text, "text": text, "detail": traceback.format_exc()})


def _failure(error, slot=None) -> str:
    """Input refused, as JSON: the Spanish message, and a bad file's problems as a list; ``slot``: the
    file being read (``"qrels"``, ``"A"``, ``"B"``), so that the page ties the message to its input."""
    answer = {"ok": False, "field": getattr(error, "field", None), "message": str(error)}
    if slot:
        answer["slot"] = slot
    if isinstance(error, FileFormatError):  # one problem: said in the message; more: a header and a list
        several = len(error.problems) + error.more > 1
        answer["message"] = error.header("es") if several else answer["message"]
        answer["problems"] = error.listed("es") if several else []
    return json.dumps(answer)


def _invalid_state(error) -> str:
    """The lab's state refused: :func:`_failure`'s answer, and the sentence the lab shows (``text``)."""
    return json.dumps({**json.loads(_failure(error)), "text": INVALID_STATE.format(message=str(error))})


REFUSED = (LabError, json.JSONDecodeError)
"""What counts as bad input: anything else a call raises is the page's own failure."""


def _attempt(work, refused=_failure, expected=REFUSED, internal=INTERNAL_FAILURE):
    """``(work(), None)``, or ``(None, failure)`` when it raises: the ``expected`` errors (bad input) answered by
    ``refused(error)``, any other exception (a bug) by :func:`_internal` with the sentence ``internal``. No
    Python exception crosses into JavaScript."""
    try:
        return work(), None
    except expected as error:
        return None, refused(error)
    except Exception:  # noqa: BLE001 (a bug: reported as one, never as invalid input)
        return None, _internal(internal)


def _answer(work, **failures) -> str:
    """The worker's answer to one call, as JSON text: ``{"ok": true, …work()}``, or the failure
    (:func:`_attempt`'s, with its keyword arguments)."""
    answer, failure = _attempt(lambda: json.dumps({"ok": True, **work()}, allow_nan=False), **failures)
    return failure or answer


def compute_json(state_json: str) -> str:
    """``compute`` for the worker: ``{"ok": true, "view": …}`` or ``{"ok": false, "field", "message", "text"}``.

    Only invalid input is refused as such (a :class:`LabError`, or text that is not JSON): ``text`` is the
    sentence the page shows. Any other exception is the page's own failure, answered with
    ``"internal": true``, the sentence that says so and the traceback (``detail``) for the console.

    >>> answer = json.loads(compute_json('{"scenario": null}'))
    >>> answer["ok"], answer["text"].startswith("Estado no válido: ")
    (False, True)
    """
    return _answer(lambda: {"view": compute(json.loads(state_json))}, refused=_invalid_state)


# The modules only the command line runs, left out of the page's snapshot (and argparse with them:
# tests/core/test_layout.py checks that no other module imports them).
COMMAND_LINE_ONLY = frozenset({
    "raglab_core.__main__", "raglab_core.command_line", "raglab_core.runs.eval_command",
    "raglab_core.runs.fuse_command", "raglab_core.corpus.chunks_command", "raglab_core.judges.agree_command",
    "raglab_core.judges.pool_command",
})


# «Tu corpus»'s Python and the judges' («¿Te fías de tus juicios?») are not in the page's snapshot: the
# worker adds them from the core's wheel on the first measurement, the first evaluation with a judge's
# qrels, or the judging page's first message (add_on_first_use). The standard library modules they need must be in the snapshot, which
# restores with no standard library archive (tests/core/test_layout.py checks this list against what
# running each once imports, and add_on_first_use's own).
ON_FIRST_USE = ("raglab_core.corpus", "raglab_core.judges")
ON_FIRST_USE_NEEDS = ("array", "csv", "datetime", "encodings.utf_32_le", "gc", "hashlib", "heapq", "io", "site",
                      "unicodedata", "zipfile")


def add_on_first_use(wheel, expected_sha256: str, site_packages: str | None = None) -> int:
    """Unpack ON_FIRST_USE's packages' files from the core's wheel (bytes, or a Pyodide buffer) into
    site-packages after checking its SHA-256; return how many files. Its directory finders are
    dropped so that the import system lists site-packages afresh (importlib.invalidate_caches()
    would import importlib.metadata, which the snapshot does not hold)."""
    import hashlib
    import io
    import site
    import sys
    import zipfile

    data = bytes(wheel.to_py()) if hasattr(wheel, "to_py") else bytes(wheel)
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_sha256:
        raise ValueError(f"wheel SHA-256 {actual} != expected {expected_sha256}")
    prefixes = tuple(package.replace(".", "/") + "/" for package in ON_FIRST_USE)
    archive = zipfile.ZipFile(io.BytesIO(data))
    members = [name for name in archive.namelist() if name.startswith(prefixes)]
    archive.extractall(site_packages or site.getsitepackages()[0], members)
    sys.path_importer_cache.clear()
    return len(members)


def warm_up() -> int:
    """Import everything the page may run and exercise it once; return ``len(sys.modules)``.

    Called before a memory snapshot is taken: the snapshot-booted page gets no
    standard library archive, so every module it will ever need must already be
    imported (and so live in the snapshot's heap) at that point.

    >>> warm_up() > 0
    True
    """
    import importlib
    import pkgutil
    import sys

    import raglab_core

    # Every module, subpackages' too (not pkgutil.walk_packages: it imports each package it walks).
    packages = [raglab_core]
    while packages:
        package = packages.pop()
        for module in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            if module.name in COMMAND_LINE_ONLY or module.name in ON_FIRST_USE:
                continue
            imported = importlib.import_module(module.name)
            if module.ispkg:
                packages.append(imported)
    for name in ON_FIRST_USE_NEEDS:
        importlib.import_module(name)
    for state in LAB_STATES:
        json.loads(compute_json(json.dumps(state)))
    compute_json("not json")

    def silent(fraction, text):
        return None

    for request, texts in EVALUATIONS:
        _streamed(EvaluationBridge(json.dumps(request), silent), texts).finish()
    bridge = EvaluationBridge(json.dumps(UNREADABLE))
    bridge.next(), bridge.unreadable("not UTF-8"), bridge.finish()
    request, texts = FUSED
    bridge = _streamed(EvaluationBridge(json.dumps(request), silent), texts)
    bridge.finish(), bridge.pair(2, 0), bridge.pair(1, 1), bridge.detail("q1")
    for kind in DOWNLOADS:
        bridge.download(kind)
    return len(sys.modules)


def _streamed(bridge, texts: dict):
    """``bridge`` (a :class:`StreamBridge`) fed each file it asks for, whole, from ``texts`` (by slot)."""
    while slot := bridge.next():
        bridge.feed(texts[slot], len(texts[slot])), bridge.end()
    return bridge


class StreamBridge:
    """A panel's session (a :class:`raglab_core.runs.stream.StreamSession`) for the worker, which streams files
    into it: the one bridge every panel's is.

    The worker only asks and passes text: ``while (slot = bridge.next())``, it streams that file into
    :meth:`feed` (until it answers ``true``) and calls :meth:`end` (or :meth:`unreadable`,
    :meth:`undecodable`); then :meth:`finish` answers JSON text, ``{"ok": true, "panel": …}`` or
    :func:`_failure`'s ``{"ok": false, "message", "problems"?, "field", "slot"?}``. No Python exception
    crosses into JavaScript: after a failure, every call answers ``None`` (``true`` for :meth:`feed`: stop)
    and :meth:`finish` the failure. ``progress(fraction, text)`` hears how far the session is, in Spanish.
    A panel's bridge names its session (:meth:`open_session`) and adds what the panel asks once it is finished.
    """

    def __init__(self, request_json: str, progress=None):
        self.session, self.failure = _attempt(lambda: self.open_session(json.loads(request_json), progress),
                                              internal=INTERNAL_EVALUATION_FAILURE)

    def open_session(self, request, progress):  # pragma: no cover - each panel's bridge has its own
        """The panel's session for ``request`` (the JSON the worker sent, read)."""
        raise NotImplementedError

    def _call(self, work, otherwise=None):
        """``work()``'s answer, or ``otherwise`` once the session has failed (the failure kept, tied to the file
        being read)."""
        if self.failure:
            return otherwise
        slot = self.session.slot
        answer, self.failure = _attempt(work, lambda error: _failure(error, self.session.blamed(slot)),
                                        expected=LabError, internal=INTERNAL_EVALUATION_FAILURE)
        return otherwise if self.failure else answer

    fresh = False
    """Whether the next :meth:`feed` starts a file: its first text is looked at for a file that is no text."""

    def next(self) -> str | None:
        """The file to read now, from its start (its slot); ``None`` when done or failed."""
        self.fresh = True
        return self._call(lambda: self.session.next())

    def feed(self, text: str, done=None) -> bool:
        """The next chunk of text, ``done`` bytes of the file read so far; ``True``: stop reading this file.

        A file's first text that decoded as UTF-8 but is no text file (NUL bytes, an ELF binary's start:
        :func:`raglab_core.runs.decoding.suspect`) fails as :meth:`undecodable` would, as on the command line.
        """

        def fed():
            if self.fresh:
                self.fresh = False
                head = text[:HEAD].encode("utf-8", "surrogatepass")[:HEAD]
                if suspect(head):
                    self.session.undecodable(head, 0, head[0])
                    return True
            return self.session.feed(text, done)

        return self._call(fed, otherwise=True)

    def end(self) -> None:
        """End the file being read."""
        self._call(lambda: self.session.end())

    def unreadable(self, detail: str) -> None:
        """The file being read could not be read as UTF-8 text (``detail``: the browser's reason)."""
        self._call(lambda: self.session.unreadable(detail))

    def undecodable(self, details_json: str) -> None:
        """The file being read is not UTF-8: the failure says what it looks like, where, and how to save it
        as UTF-8 (:mod:`raglab_core.runs.decoding`). ``details_json``: ``{"head": [bytes], "data": [bytes], "base",
        "skip"}``: the file's first bytes, and the bytes from file offset ``base`` in which the browser's
        decoder failed (their first ``skip`` may end a character begun before)."""

        def failed():
            details = json.loads(details_json)
            data = bytes(details["data"])
            found = first_bad_byte(data, details.get("skip", 0))
            offset, byte = (details["base"] + found[0], found[1]) if found else (details["base"] + len(data), None)
            self.session.undecodable(bytes(details["head"]), offset, byte)

        self._call(failed)

    def finish(self) -> str:
        """The panel: ``{"ok": true, "panel": …}`` or the failure."""
        answer = self._call(lambda: json.dumps({"ok": True, "panel": self.session.finish()}, allow_nan=False))
        return answer or self.failure


class EvaluationBridge(StreamBridge):
    """:class:`raglab_core.runs.session.EvaluationSession` for the worker: the files are ``"qrels"``, ``"A"``,
    ``"B"``, …; once finished, a pair (:meth:`pair`), a query (:meth:`detail`) and the downloads (:meth:`download`).

    >>> session = EvaluationBridge('{"measures": "nDCG@10 XYZ", "runs": ["a"]}')
    >>> session.next() is None, json.loads(session.finish())["message"][:25]
    (True, 'Medida no admitida: «XYZ»')
    """

    def open_session(self, request, progress):
        if isinstance(request, dict) and request.get("judge") is not None:  # «¿Te fías de tus juicios?»
            from .judges.agreement_session import AgreementSession

            return AgreementSession(request, progress)
        from .runs.session import EvaluationSession

        return EvaluationSession(request, progress)

    def pair(self, baseline: int, candidate: int) -> str:
        """Once finished (three runs or more): two runs compared in detail, ``{"ok": true, "comparison": …}``
        (:func:`raglab_core.runs.panel.pair_view`), or ``{"ok": false, "message"}`` for a pair that is not one.
        A refused pair does not end the session."""
        return _answer(lambda: {"comparison": self.session.pair(baseline, candidate)},
                       internal=INTERNAL_EVALUATION_FAILURE)

    def detail(self, qid: str) -> str:
        """Once finished: query ``qid``'s first documents in each run, ``{"ok": true, "detail": …}``."""
        return self._call(lambda: json.dumps({"ok": True, "detail": self.session.query_detail(str(qid))}))

    def download(self, kind: str) -> str:
        """Once finished: ``{"ok": true, "name", "type", "text"}``, a download of the session
        (:meth:`raglab_core.runs.session.EvaluationSession.download`; with a judge's qrels, the agreement too,
        :meth:`raglab_core.judges.agreement_session.AgreementSession.download`)."""
        return self._call(lambda: json.dumps({"ok": True, **self.session.download(kind)}))


class CorpusBridge(StreamBridge):
    """:class:`raglab_core.corpus.session.CorpusSession` for the worker: the files are ``"corpus/0"``, …,
    ``"queries"``, ``"evidence"``, ``"qrels"``, ``"chunks"``, ``"run"`` (a failure names the input, ``"corpus"``
    for each of the corpus's files); after them, :meth:`prepare`, :meth:`step` until it answers ``null`` (each
    answer: one configuration's row, as JSON) and :meth:`finish`; once finished, a query (:meth:`detail`) and the
    downloads (:meth:`download`). After a failure :meth:`prepare` and :meth:`step` answer ``None`` too.

    >>> bridge = CorpusBridge('{"corpus": ["c.jsonl"], "evidence": "s.jsonl", "sweep": "8:9"}')
    >>> bridge.next() is None, json.loads(bridge.finish())["field"]
    (True, 'sweep')
    """

    def open_session(self, request, progress):
        from .corpus.session import CorpusSession

        return CorpusSession(request, progress)

    def prepare(self) -> str | None:
        """Tokenize the corpus: its summary as JSON, or ``None`` after a failure."""
        return self._call(lambda: json.dumps(self.session.prepare()))

    def step(self) -> str | None:
        """The next configuration measured: its row as JSON; ``None`` when all are (or after a failure)."""

        def stepped():
            row = self.session.step()
            return None if row is None else json.dumps(row, allow_nan=False)

        return self._call(stepped)

    def detail(self, qid: str, first: int, second: int) -> str:
        """Once finished: a query in detail, ``{"ok": true, "detail": …}`` or ``{"ok": false, "message"}``."""
        return _answer(lambda: {"detail": self.session.detail(str(qid), int(first), int(second))},
                       expected=(LabError, ValueError), internal=INTERNAL_EVALUATION_FAILURE)

    def download(self, kind: str, index: int = 0) -> str:
        """Once finished: ``{"ok": true, "name", "type", "text"}``
        (:meth:`raglab_core.corpus.session.CorpusSession.download`)."""
        return _answer(lambda: self.session.download(kind, int(index)), expected=(LabError, ValueError),
                       internal=INTERNAL_EVALUATION_FAILURE)


class JudgeBridge(StreamBridge):
    """:class:`raglab_core.judges.session.JudgeSession` for the worker: the files are ``"A"``, ``"B"``, … (runs),
    ``"pool"``, ``"job"``, ``"qrels"``, ``"judge"``, ``"queries"``, ``"corpus/0"``, …; :meth:`finish` answers
    ``{"ok": true, "panel": {"job", "grades", "texts", "notes"}}``, what the page stores to judge.

    >>> bridge = JudgeBridge('{"queries": "q.tsv", "corpus": ["c.jsonl"]}')
    >>> bridge.next() is None, json.loads(bridge.finish())["field"]
    (True, 'run-a')
    """

    def open_session(self, request, progress):
        from .judges.session import JudgeSession

        return JudgeSession(request, progress)


class JudgeDesk:
    """One stored job being judged, held by the worker: ``job_json`` (the job), ``texts_json`` (``{"queries",
    "documents"}``, what the page stored with it). Every answer is JSON text; none raises."""

    def __init__(self, job_json: str, texts_json: str):
        self.job = json.loads(job_json)
        from types import SimpleNamespace

        texts = json.loads(texts_json)
        self.queries = texts.get("queries") or {}
        self.documents = {doc_id: SimpleNamespace(title=document.get("title") or "", text=document.get("text") or "")
                          for doc_id, document in (texts.get("documents") or {}).items()}

    def view(self, index: int, grades_json: str) -> str:
        """Pair ``index``: :func:`raglab_core.judges.pair_view.pair_view`."""
        from .judges.pair_view import pair_view

        return _answer(lambda: {"view": pair_view(self.job, int(index), json.loads(grades_json), self.queries,
                                                  self.documents)}, expected=LabError)

    def download(self, kind: str, grades_json: str) -> str:
        """``{"ok": true, "name", "type", "text"}``: the qrels of what was judged (``kind`` ``"qrels"``) or the job
        as JSON (``"json"``), which :func:`raglab_core.judges.job.import_json` continues
        (:func:`raglab_core.judges.exports.download`)."""
        from .judges.exports import download

        return _answer(lambda: download(self.job, json.loads(grades_json), kind), expected=LabError)


def judge_summary(job_json: str, grades_json: str) -> str:
    """A stored job as the list of jobs shows it (:func:`raglab_core.judges.exports.job_summary`)."""
    from .judges.exports import job_summary

    # a stored job this version cannot read is no input to refuse: said as the page's failure, never raised
    return _answer(lambda: {"summary": job_summary(json.loads(job_json), json.loads(grades_json))}, expected=())
