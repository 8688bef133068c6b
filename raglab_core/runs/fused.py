"""The fused run of the «Tus datos» panel: its settings as the page gives them, its name, the run itself.

The page fuses runs it has already read (ranx's methods and normalisations,
:mod:`raglab_core.runs.fusion`, as ``python -m raglab_core fuse`` does). The
evaluation reads every run as a stream and keeps no run whole, so the worker
hands the chosen runs' text again when the fused run's turn comes
(:class:`FusedRun` reads each one whole, as the ``fuse`` command does), the
runs are fused, and the fused run is evaluated as one more run from its TREC
text: the text «Descargar el run fusionado» saves, with the ``fuse`` command's
depth and tag, so that ``eval`` on the downloaded file prints the same numbers.

Weights are typed by the user, never tuned on the qrels being evaluated:
weights chosen to score well on these queries would flatter the fused run.

>>> settings = fusion_settings({"runs": [0, 1], "method": "rrf", "norm": "min-max", "k": ""}, 2)
>>> settings.name, settings.tag, settings.params
('RRF(a, b)', 'rrf-min-max', {'k': 60})
>>> fused = FusedRun(settings, ["A", "B"])
>>> [fused.next(), fused.feed("q1 Q0 x 1 2.0 t\\nq1 Q0 y 2 1.0 t\\n"), fused.end(), fused.next()]
['A', None, None, 'B']
>>> fused.feed('{"q1": {"y": 5.0}}'), fused.end(), fused.next()
(None, None, None)
>>> print(fused.text(), end="")
q1 Q0 y 1 0.03252247488101534 rrf-min-max
q1 Q0 x 2 0.01639344262295082 rrf-min-max
"""

import math
import re
from typing import NamedTuple

from ..errors import LabError
from ..formatting import spanish_list
from .fusion import DEFAULT_DEPTH, DEFAULT_NORM, METHODS, MIN_RUNS, NORMS, RRF_K, check_settings, fuse, trec_lines
from .trec import RunReader

LETTERS = "abcdefghijkl"
"""The runs' letters in the page, as ranx's tables letter them (run A is «a»)."""

METHOD_LABELS = {
    "rrf": ("RRF", "RRF (rango recíproco)"),
    "sum": ("CombSUM", "CombSUM (suma)"),
    "mnz": ("CombMNZ", "CombMNZ (suma × runs que lo traen)"),
    "max": ("CombMAX", "CombMAX (máximo)"),
    "wsum": ("WSUM", "WSUM (suma con tus pesos)"),
}
"""Each method of :data:`~raglab_core.runs.fusion.METHODS`: its short name (the fused run's) and its label."""

NORM_LABELS = {
    "min-max": "min-max (de 0 a 1)",
    "max": "max (s / máx)",
    "sum": "sum (suman 1)",
    "zmuv": "zmuv (media 0, varianza 1)",
    "rank": "rank (por puesto)",
    "borda": "borda (puntos de Borda)",
    "none": "ninguna",
}
"""Each normalisation of :data:`~raglab_core.runs.fusion.NORMS`, labelled (ranx's name first)."""

TEXT_LINES = 20_000
"""Lines of the fused run handed to the evaluation at a time (it is never held as one text)."""


class FusionSettings(NamedTuple):
    """A fusion the page asked for: the fused runs' positions (``sources``), ranx's ``method``, ``norm``
    and ``params``, the run's ``name`` in the page and the ``tag`` of its TREC lines (the ``fuse``
    command's default, ``METHOD-NORM``)."""

    sources: tuple
    method: str
    norm: str
    params: dict
    name: str
    tag: str


def page_options() -> dict:
    """The page's fusion controls: methods and normalisations (value, label), the defaults and RRF's k."""
    return {
        "methods": [[method, METHOD_LABELS[method][1]] for method in METHODS],
        "norms": [[norm, NORM_LABELS[norm]] for norm in NORMS],
        "default_method": "rrf",
        "default_norm": DEFAULT_NORM,
        "rrf_k": RRF_K,
    }


def fusion_settings(request, count: int) -> FusionSettings:
    """The page's fusion request read and checked: ``{"runs": [positions], "method", "norm", "k": text,
    "weights": text}``, over ``count`` runs read from files. ``k`` and the weights are what the user typed:
    k a whole number ≥ 0 (empty: 60, as ``fuse --rrf-k``); one weight per fused run, separated by spaces
    or semicolons (a decimal comma or point), or by commas as ``fuse --weights 0.3,0.7`` takes them.
    Bad settings raise ``LabError`` naming the control (``fuse-runs``, ``fuse-method``, ``fuse-norm``,
    ``fuse-k``, ``fuse-weights``).

    >>> fusion_settings({"runs": [0, 2], "method": "wsum", "norm": "zmuv", "weights": "0,3; 0,7"}, 3).name
    'WSUM(0,3·a + 0,7·c; zmuv)'
    >>> fusion_settings({"runs": [0, 1], "method": "sum", "norm": "none"}, 2)[1:]
    ('sum', 'none', {}, 'CombSUM(a, b; sin normalizar)', 'sum-none')
    >>> fusion_settings({"runs": [1], "method": "rrf", "norm": "max"}, 2)
    Traceback (most recent call last):
      ...
    raglab_core.errors.LabError: Elige al menos dos runs para fusionarlos.
    """
    if not isinstance(request, dict):
        raise LabError.page("La petición de fusión debe ser un objeto JSON.", field="fuse-runs")
    positions = request.get("runs")
    if not isinstance(positions, list) or not all(isinstance(p, int) and not isinstance(p, bool) for p in positions):
        raise LabError.page("Elige al menos dos runs para fusionarlos.", field="fuse-runs")
    sources = tuple(sorted(set(positions)))
    if len(sources) < MIN_RUNS:
        raise LabError.page("Elige al menos dos runs para fusionarlos.", field="fuse-runs")
    if sources[0] < 0 or sources[-1] >= count:
        raise LabError.page("Solo se fusionan runs elegidos arriba.", field="fuse-runs")
    method, norm = request.get("method"), request.get("norm") or DEFAULT_NORM
    params = {}
    if method == "rrf":
        params = {"k": _rrf_k(request.get("k"))}
    elif method == "wsum":
        params = {"weights": _weights(request.get("weights"), len(sources))}
    try:
        check_settings(len(sources), method, norm, params)
    except LabError as error:
        raise LabError(error.code, f"fuse-{error.field}" if error.field in ("method", "norm") else "fuse-runs",
                       **error.params) from None
    return FusionSettings(sources=sources, method=method, norm=norm, params=params,
                          name=fused_name(method, norm, sources, params), tag=f"{method}-{norm}")


def _rrf_k(text):
    if text is None or (isinstance(text, str) and not text.strip()):
        return RRF_K
    typed = str(text).strip()
    if typed.isascii() and typed.isdigit():
        return int(typed)
    raise LabError.page(f"La k de RRF debe ser un número entero mayor o igual que 0; se ha escrito «{typed}».",
                        field="fuse-k")


def _weights(text, count: int) -> list:
    """One finite number per fused run: ``"0,3 0,7"``, ``"0.3; 0.7"`` or ``"0.3,0.7"``.

    >>> _weights("0,3 0,7", 2), _weights("0.3;0.7", 2), _weights("0.3,0.7", 2), _weights("1,2", 2)
    ([0.3, 0.7], [0.3, 0.7], [0.3, 0.7], [1.0, 2.0])
    """
    typed = text.strip() if isinstance(text, str) else ""
    if not typed:
        raise LabError.page(f"WSUM necesita tus pesos: escribe {count} números, uno por run fusionado.",
                            field="fuse-weights")
    if ";" in typed or any(character.isspace() for character in typed):
        parts = [part.replace(",", ".") for part in typed.replace(";", " ").split()]
    else:
        parts = typed.split(",")
    weights = []
    for part in parts:
        try:
            weight = float(part) if part.strip().isascii() else math.nan
        except ValueError:
            weight = math.nan
        if not math.isfinite(weight) or "_" in part:
            raise LabError.page(f"Cada peso debe ser un número finito; «{part.strip()}» no lo es.", field="fuse-weights")
        weights.append(weight)
    if len(weights) != count:
        raise LabError.page(
            f"WSUM necesita un peso por run fusionado: se fusionan {count} runs y se han escrito "
            f"{len(weights)} {'peso' if len(weights) == 1 else 'pesos'}.",
            field="fuse-weights",
        )
    return weights


def fused_name(method: str, norm: str, sources, params) -> str:
    """The fused run's name: what it is, in the runs' letters.

    >>> fused_name("rrf", "min-max", (0, 1), {"k": 60}), fused_name("rrf", "rank", (0, 3), {"k": 10})
    ('RRF(a, b)', 'RRF(a, d; k=10)')
    >>> fused_name("mnz", "min-max", (0, 1, 2), {}), fused_name("wsum", "none", (1, 2), {"weights": [1.0, 2.5]})
    ('CombMNZ(a, b, c; min-max)', 'WSUM(1·b + 2,5·c; sin normalizar)')
    """
    letters = [LETTERS[index] for index in sources]
    short = METHOD_LABELS[method][0]
    if method == "rrf":  # ranks only: no normalisation changes them
        k = params.get("k", RRF_K)
        return f"{short}({', '.join(letters)}{'' if k == RRF_K else f'; k={k}'})"
    how = "sin normalizar" if norm == "none" else norm
    if method == "wsum":
        terms = " + ".join(f"{_weight(weight)}·{letter}" for weight, letter in zip(params["weights"], letters))
        return f"{short}({terms}; {how})"
    return f"{short}({', '.join(letters)}; {how})"


def _weight(value: float) -> str:
    """A weight as typed, with a decimal comma: ``1.0 -> '1'``, ``0.25 -> '0,25'``."""
    text = repr(value)
    return (text[:-2] if text.endswith(".0") else text).replace(".", ",")


def file_name(name: str) -> str:
    """The name «Descargar el run fusionado» saves the fused run ``name`` under: lower case, ASCII letters, digits
    and points (a decimal comma written as a point), every other run of characters one hyphen, and ``.txt``.

    >>> file_name("RRF(a, b)"), file_name("WSUM(0,3·a + 0,7·c; zmuv)"), file_name("CombMNZ(a, b, l; min-max)")
    ('rrf-a-b.txt', 'wsum-0.3-a-0.7-c-zmuv.txt', 'combmnz-a-b-l-min-max.txt')
    """
    return "-".join(re.findall(r"[a-z0-9.]+", re.sub(r"(?<=\d),(?=\d)", ".", name.lower()))) + ".txt"


def fused_description(settings: FusionSettings, names) -> str:
    """One sentence on what the fused run is, naming the fused runs (``names``: every run's name, in order).

    >>> fused_description(fusion_settings({"runs": [0, 1], "method": "rrf", "norm": "min-max"}, 2), ["x.txt", "y.txt"])
    '«RRF(a, b)» fusiona «x.txt» (a) y «y.txt» (b) con RRF (k = 60), sin mirar los qrels.'
    """
    runs = spanish_list([f"«{names[index]}» ({LETTERS[index]})" for index in settings.sources])
    if settings.method == "rrf":
        how = f"RRF (k = {settings.params['k']})"
    elif settings.method == "wsum":
        how = f"WSUM con los pesos que escribiste ({spanish_list([_weight(w) for w in settings.params['weights']])})"
    else:
        how = METHOD_LABELS[settings.method][0]
    if settings.method != "rrf":
        how += " sin normalizar" if settings.norm == "none" else f" tras normalizar con {settings.norm}"
    return f"«{settings.name}» fusiona {runs} con {how}, sin mirar los qrels."


class FusedRun:
    """The fused run, built when the evaluation reaches it: the chosen runs read again, whole, and fused.

    ``slots``: every run's slot (``"A"``, ``"B"``, …). :meth:`next` names the run to read again (``None``
    once all are read); :meth:`feed` takes its text, :meth:`end` ends it (a bad file raises its
    :class:`~raglab_core.runs.trec.TrecFormatError`). Then :attr:`fused` is the run, :meth:`chunks` its
    TREC text a piece at a time, :meth:`text` all of it.
    """

    def __init__(self, settings: FusionSettings, slots, names=None):
        self.settings = settings
        self.slots = [slots[index] for index in settings.sources]
        self.names = [names[index] if names else slots[index] for index in settings.sources]
        self.runs = []
        self.reader = None
        self.fused = None

    @property
    def reading(self) -> bool:
        """Whether some chosen run is still to be read (or being read)."""
        return self.fused is None

    def next(self) -> str | None:
        """The slot of the run to read again from its start, or ``None`` (then the runs are fused)."""
        if self.fused is not None:
            return None
        if len(self.runs) == len(self.slots):
            self.fused = fuse(self.runs, self.settings.method, self.settings.norm, self.settings.params)
            self.runs = []  # the fused run is all that is kept
            return None
        if self.reader is None:
            self.reader = RunReader(self.names[len(self.runs)])  # held whole, any line order
        return self.slots[len(self.runs)]

    def feed(self, text: str) -> None:
        self.reader.feed(text)

    def end(self) -> None:
        self.runs.append(self.reader.close())
        self.reader = None

    def chunks(self):
        """The fused run as TREC text, :data:`TEXT_LINES` lines at a time (``fuse``'s depth and tag)."""
        lines = []
        for line in trec_lines(self.fused, self.settings.tag, DEFAULT_DEPTH):
            lines.append(line)
            if len(lines) == TEXT_LINES:
                yield "".join(lines)
                lines = []
        if lines:
            yield "".join(lines)

    def text(self) -> str:
        """The fused run as ``python -m raglab_core fuse … --method M --norm N`` prints it."""
        return "".join(self.chunks())
