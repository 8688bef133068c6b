"""The chunk strip (DESIGN §4.2, §4.5): one document cut into windows, drawn.

:func:`chunk_windows` cuts a document into windows of ``chunk`` tokens every
``stride = chunk - overlap`` tokens, the last clipped at the end, as
:func:`raglab_core.chunking.footprint` counts them, with the geometry of an
SVG strip that draws the first :data:`MAX_WINDOWS` of them and, optionally,
an evidence span on it (:mod:`raglab_core.evidence`).
"""

from .. import chunking, evidence

MAX_WINDOWS = 12
"""The strip draws at most this many windows; the rest are counted in words."""
STRIP_WIDTH = 600
"""Width of the strip's SVG ``viewBox``, in its own units."""
BAR_HEIGHT, ROW, ROW_GAP, TOP = 10, 9, 3, 24
"""The strip's geometry: the document bar, then one row per window below the stride mark."""
STRIDE_Y = 17
"""Height of the stride mark, between the bar and the first row."""
GEOMETRY = {"width": STRIP_WIDTH, "bar_height": BAR_HEIGHT, "row_height": ROW, "stride_y": STRIDE_Y, "top": TOP}
"""The drawing's constants as the view gives them: the template and lab.js hold no copy."""


def _coordinate(value: float) -> int | float:
    """A drawing coordinate to 2 decimals, an ``int`` when whole: its text is then the same in the
    server's render (Python's ``str``) and in ``lab.js`` (JavaScript's ``String``), "256" in both,
    so the page's first view does not rewrite attributes that hold it already.

    >>> _coordinate(256.0), _coordinate(223.4149), _coordinate(0.0)
    (256, 223.41, 0)
    """
    rounded = round(float(value), 2)
    return int(rounded) if rounded.is_integer() else rounded


def chunk_windows(tokens: int, chunk: int, overlap: int, length: int | None = None, position: int | None = None) -> dict:
    """One document of ``tokens`` tokens as windows, and the strip that draws the first of them.

    ``windows`` is the document's number of windows (as :func:`chunking.footprint`
    counts them); ``shown`` holds the first ``min(windows, MAX_WINDOWS)``, each
    with ``start`` and ``end`` (token offsets, end exclusive: ``start = j·stride``,
    ``end = min(start + chunk, tokens)``) and ``x``/``width`` on a
    :data:`STRIP_WIDTH`-wide axis spanning ``span`` tokens: the whole document,
    or up to the last window drawn when more follow (``whole`` says which),
    stretched to twice the evidence's length (within the document) when that is
    longer, so that the span has room to move.

    With an evidence ``length`` (``1 <= length <= tokens``), ``evidence`` is
    the span drawn on the strip: it starts at ``position`` clamped to the
    strip (``0 … span - length``), or, when ``position`` is ``None``, across
    the first border (:func:`raglab_core.evidence.default_position`). Each
    drawn window then carries ``holds`` (it holds the span whole) and
    ``touches`` (it shares a token with it without holding it), and the
    evidence's ``inset`` (a CSS percentage: where the position slider laid over
    the strip begins and ends, so that its thumb sits on the span) and
    ``holding`` and ``touching``: all the document's windows that
    hold or touch it, as ``{"first": index, "count": n}``. ``geometry``
    holds the drawing's constants, for the template and ``lab.js``.

    >>> w = chunk_windows(1200, 512, 64, length=100)
    >>> w["windows"], [(s["start"], s["end"]) for s in w["shown"]], w["more"]
    (3, [(0, 512), (448, 960), (896, 1200)], 0)
    >>> w["evidence"]["start"], w["evidence"]["end"], [(s["holds"], s["touches"]) for s in w["shown"]]
    (430, 530, [(False, True), (False, True), (False, False)])
    >>> chunk_windows(0, 512, 64)["shown"]
    []
    """
    stride = chunking.stride(chunk, overlap)
    windows = chunking.footprint(1, tokens, chunk, overlap).per_document
    shown = []
    for j in range(min(windows, MAX_WINDOWS)):
        start = j * stride
        shown.append({"start": start, "end": min(start + chunk, tokens)})
    span = shown[-1]["end"] if shown else 0
    marks = None
    if length is not None and 1 <= length <= tokens:
        # Room to move the span: the axis holds at least twice its length (within the document), or a
        # span as long as the drawn windows would fill the strip and its slider could not move.
        span = max(span, min(tokens, 2 * length))
        last_start = span - length
        default = evidence.default_position(tokens, chunk, overlap, length)
        start = min(default if position is None else position, last_start)
        holding, touching = evidence.span_windows(tokens, chunk, overlap, start, length)
        marks = {"start": start, "end": start + length, "length": length, "min": 0, "max": last_start,
                 "holding": holding, "touching": touching}
    scale = STRIP_WIDTH / span if span else 0
    height = TOP + len(shown) * (ROW + ROW_GAP) + 2
    for j, window in enumerate(shown):
        window["x"] = _coordinate(window["start"] * scale)
        window["width"] = _coordinate(max((window["end"] - window["start"]) * scale, 1))
        window["y"] = TOP + j * (ROW + ROW_GAP)
        window["clipped"] = window["end"] - window["start"] < chunk
        window["holds"] = marks is not None and j in marks["holding"]
        window["touches"] = marks is not None and j in marks["touching"] and not window["holds"]
    if marks:
        marks["x"] = _coordinate(marks["start"] * scale)
        marks["width"] = _coordinate(max(length * scale, 1))
        # The position slider lies over the strip, inset by half the span on each side: its thumb's centre,
        # start / (span - length) of the way along, is then the drawn span's centre (a CSS length).
        marks["inset"] = f"{100 * length / (2 * span):.4f}%"
        # Plain JSON: the windows (0-based) as first index and count.
        for name in ("holding", "touching"):
            found = marks[name]
            marks[name] = {"first": found.start, "count": len(found)}
    # The stride: from the first window's start to the second's, drawn between the bar and the rows.
    stride_mark = [shown[0]["x"], shown[1]["x"]] if len(shown) > 1 else [0, 0]
    return {"tokens": tokens, "chunk": chunk, "stride": stride, "windows": windows, "shown": shown,
            "more": windows - len(shown), "span": span, "whole": span == tokens, "stride_mark": stride_mark,
            "height": height, "evidence": marks, "geometry": GEOMETRY}
