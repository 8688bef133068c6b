"""The arithmetic behind the lab's numbers, laid out for the page (DESIGN §4.2).

Two pictures, both plain data computed from the same values as the cards:

* :func:`breakdown` — one row per displayed ranking position with its gain
  ``2**g - 1``, discount ``log2(i + 1)`` and contribution ``gain / discount``
  (Järvelin & Kekäläinen 2002; Burges et al. 2005), the running DCG, and the
  ideal order of *all* judged grades that gives IDCG@k (DESIGN §4.1). Every
  one of these numbers comes from :mod:`raglab_core.metrics`' kernel
  (:func:`~raglab_core.metrics.gains`, :func:`~raglab_core.metrics.discounts`,
  :func:`~raglab_core.metrics.dcg`), the one the cards and the evaluator use.
* :func:`chunk_windows` — one document cut into windows of ``chunk`` tokens
  every ``stride = chunk - overlap`` tokens, the last clipped at the end, as
  :func:`raglab_core.chunking.footprint` counts them, with the geometry of an
  SVG strip that draws the first :data:`MAX_WINDOWS` of them.
"""

from . import chunking, evidence, metrics
from .controls import UNJUDGED_LABEL, grade_token
from .formatting import DASH, decimal, integer

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


def breakdown(ranked, judged, k, threshold, ids) -> dict:
    """Per-rank gain, discount and contribution of ``ranked`` (displayed order), and IDCG@k over ``judged``.

    ``k`` or ``threshold`` may be ``None`` (an invalid control): rows then say
    nothing about the cut or relevance, and the totals are ``None``.
    ``first_relevant`` is the rank that sets MRR@k (``None`` if none within k).

    >>> b = breakdown([3, 0, 2], judged=[3, 0, 2, 3], k=2, threshold=2, ids=["a", "b", "c"])
    >>> [(row["rank"], row["gain"], row["contribution"]) for row in b["rows"]]
    [(1, 7, 7.0), (2, 0, 0.0), (3, 3, 1.5)]
    >>> b["dcg"], b["ideal"], b["idcg"] == 7 + 7 / metrics.discounts(2)[1], b["first_relevant"]
    (7.0, [3, 3], True, 1)
    """
    gains, discounts = metrics.gains(ranked), metrics.discounts(len(ranked))
    rows = []
    for rank, (doc_id, grade) in enumerate(zip(ids, ranked), start=1):
        gain, discount = gains[rank - 1], discounts[rank - 1]
        rows.append(
            {
                "rank": rank,
                "doc": doc_id,
                "grade": grade,
                "grade_token": grade_token(grade),
                "grade_text": UNJUDGED_LABEL if grade is None else str(grade),
                "gain": gain,
                "discount": discount,
                "contribution": gain / discount,
                "in_k": k is not None and rank <= k,
                "relevant": threshold is not None and grade is not None and grade >= threshold,
                "running": metrics.dcg(ranked[:rank]),
            }
        )
    first = None if k is None or threshold is None else metrics.first_relevant_rank(ranked, k, threshold)
    ideal = sorted(judged, reverse=True)[:k] if k is not None else []
    return {
        "rows": rows,
        "dcg": metrics.dcg(ranked[:k]) if k is not None else None,
        "ideal": ideal,
        "idcg": metrics.dcg(ideal) if k is not None else None,
        "first_relevant": first,
    }


def breakdown_texts(row: dict, first_relevant, threshold) -> dict:
    """The Spanish cells of a breakdown row: relevance, MRR mark, gain, discount, contribution, running DCG.

    >>> row = {"rank": 2, "relevant": True, "gain": 7, "discount": 1.5849625007211562,
    ...        "contribution": 7 / 1.5849625007211562, "running": 11.4}
    >>> breakdown_texts({**row, "grade": 3}, first_relevant=2, threshold=2)
    {'relevant_text': 'sí', 'mrr_text': '● 1/2', 'gain_text': '7', 'discount_text': '1,585', 'contribution_text': '4,417', 'running_text': '11,400'}
    >>> breakdown_texts({**row, "grade": None, "relevant": False}, None, 2)["gain_text"]
    '—'
    """
    return {
        "relevant_text": ("sí" if row["relevant"] else "no") if threshold is not None else "—",
        "mrr_text": f"● 1/{row['rank']}" if row["rank"] == first_relevant else "",
        "gain_text": DASH if row["grade"] is None else integer(row["gain"]),  # unjudged: not relevant, gains 0
        "discount_text": decimal(row["discount"]),
        "contribution_text": decimal(row["contribution"]),
        "running_text": decimal(row["running"]),
    }


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
