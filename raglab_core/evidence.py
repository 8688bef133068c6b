"""Whether a piece of evidence survives the cut: a span of L tokens against the chunking windows, exactly.

One document of ``N`` tokens is cut as :func:`raglab_core.chunking.footprint`
cuts it: ``m`` windows of ``C`` tokens every stride ``s = C - O`` tokens, window
``j`` covering ``[j·s, min(j·s + C, N))``, the last one clipped at the end. Every
window but the last is whole (``j·s + C < N``) and the last one reaches ``N``.

The evidence is a span of ``L`` consecutive tokens ``[p, p + L)``; its start
``p`` is uniform over the ``N - L + 1`` possible positions. A window *holds* the
span when the span lies whole inside it, and *touches* it when they share at
least one token. This module counts, over all positions, exactly and in O(1)
whatever ``N`` is (integers and :class:`fractions.Fraction`, no loop over tokens
or windows):

* ``containment``: the fraction of positions whose span some window holds;
* ``windows_holding``: the mean number of windows holding the span;
* ``windows_touching``: the mean number of windows touching it (how many top-k
  slots one piece of evidence can fill, if every window touching it is retrieved);

and :func:`min_overlap_whole`, the smallest overlap with containment 1.

This is the geometry of the cut, not relevance: whether a retriever finds the
window that holds the evidence is measured only by running it on real qrels.
"""

from dataclasses import dataclass
from fractions import Fraction

from . import chunking
from .checks import whole_number
from .errors import LabError


@dataclass(frozen=True)
class Evidence:
    """Evidence of ``length`` tokens over every start position of one document.

    ``positions``: ``N - L + 1``; ``whole``: positions whose span some window
    holds; ``holding`` and ``touching``: the sums, over positions, of the
    windows holding and touching the span. The means are these sums divided by
    ``positions``, as exact fractions.
    """

    positions: int
    whole: int
    holding: int
    touching: int

    @property
    def containment(self) -> Fraction:
        return Fraction(self.whole, self.positions)

    @property
    def windows_holding(self) -> Fraction:
        return Fraction(self.holding, self.positions)

    @property
    def windows_touching(self) -> Fraction:
        return Fraction(self.touching, self.positions)


def _sum_min(count: int, step: int, first: int, cap: int) -> int:
    """``Σ_{j=0}^{count-1} min(cap, first + j·step)`` for ``step >= 1``, in O(1)."""
    if count <= 0:
        return 0
    below = 0 if cap < first else min(count, (cap - first) // step + 1)  # terms not above the cap
    return step * below * (below - 1) // 2 + first * below + (count - below) * cap


def _sum_positive(count: int, step: int, first: int) -> int:
    """``Σ_{j=0}^{count-1} max(0, first + j·step)`` for ``step >= 1``, in O(1)."""
    whole = step * count * (count - 1) // 2 + first * count
    return whole - _sum_min(count, step, first, 0)


def _arguments(tokens, chunk, overlap, length):
    tokens = whole_number(tokens, "tokens", 0)
    length = whole_number(length, "length", 1)
    step = chunking.stride(chunk, overlap)
    return tokens, step, length


def evidence(tokens: int, chunk: int, overlap: int, length: int) -> Evidence | None:
    """Evidence of ``length`` tokens in a document of ``tokens`` tokens; ``None`` when ``length > tokens``.

    With ``a = C - L + 1`` (the starts a whole window can hold) and ``m`` windows:

    * holding: each whole window holds ``a`` positions (0 when ``L > C``), the
      last one ``N - L - (m-1)·s + 1`` (0 if negative);
    * whole: the union of those intervals, ``[j·s, j·s + C - L]`` and
      ``[(m-1)·s, N - L]``: ``a`` for the first, ``min(a, s)`` new ones for
      each next whole window, and what the last one adds past the one before;
    * touching: window ``j`` touches the starts
      ``max(0, j·s - L + 1) … min(N - L, j·s + C - 1)`` (the last window's
      clipped end changes nothing, because ``(m-1)·s + C - 1 >= N - L``),
      summed over ``j`` as two clipped arithmetic series.

    >>> e = evidence(1200, 512, 64, 100)  # windows [0,512) [448,960) [896,1200): 413 + 413 + 205 starts held
    >>> e.positions, e.whole, e.containment
    (1101, 1031, Fraction(1031, 1101))
    >>> evidence(1200, 512, 64, 1201) is None
    True
    """
    n, s, length = _arguments(tokens, chunk, overlap, length)
    if length > n:
        return None
    positions = n - length + 1
    windows = chunking.chunks_per_document(n, chunk, s)
    last = (windows - 1) * s  # start of the last window
    a = chunk - length + 1
    held_by_last = max(0, n - length - last + 1)
    holding = (windows - 1) * max(0, a) + held_by_last
    if a <= 0:
        whole = 0
    elif windows == 1:
        whole = positions
    else:
        before_last = (windows - 2) * s + a - 1  # the last start the whole windows hold
        whole = a + (windows - 2) * min(a, s) + max(0, n - length - max(last - 1, before_last))
    touching = (
        _sum_min(windows, s, chunk - 1, n - length) - _sum_positive(windows, s, 1 - length) + windows
    )
    return Evidence(positions=positions, whole=whole, holding=holding, touching=touching)


def min_overlap_whole(tokens: int, chunk: int, length: int) -> int | None:
    """The smallest overlap at which evidence of ``length`` tokens is always held whole; ``None`` if none is.

    ``L - 1`` when the document needs more than one window (``N > C``) and
    ``L <= C``: then the stride ``C - L + 1`` equals the starts a window holds,
    and the held intervals abut; with any smaller overlap the start
    ``C - L + 1`` is held by no window. ``0`` when one window covers the
    document. ``None`` when ``L > C`` (no window is long enough) or ``L > N``
    (no position at all).

    >>> min_overlap_whole(1200, 512, 100), min_overlap_whole(300, 512, 100), min_overlap_whole(1200, 512, 600)
    (99, 0, None)
    """
    n = whole_number(tokens, "tokens", 0)
    chunk = whole_number(chunk, "chunk_size", 1)
    length = whole_number(length, "length", 1)
    if length > n or length > chunk:
        return None
    return 0 if n <= chunk else length - 1


def span_windows(tokens: int, chunk: int, overlap: int, start: int, length: int) -> tuple[range, range]:
    """The windows (indices) that hold ``[start, start + length)`` whole, and those that touch it.

    Both are contiguous ranges, found in O(1): window ``j`` holds the span when
    ``j·s <= p`` and its end reaches ``p + L`` (the last window always does),
    and touches it when ``j·s < p + L`` and its end passes ``p``.
    ``LabError`` unless ``0 <= start <= tokens - length``.

    >>> span_windows(1200, 512, 64, start=430, length=100)   # across the first border: cut
    (range(0, 0), range(0, 2))
    >>> span_windows(1200, 512, 64, start=450, length=100)
    (range(1, 2), range(0, 2))
    """
    n, s, length = _arguments(tokens, chunk, overlap, length)
    start = whole_number(start, "start", 0)
    if start + length > n:
        raise LabError.page(f"La evidencia debe caber en el documento: empieza como mucho en el token {n - length}.",
                            field="posicion")
    windows = chunking.chunks_per_document(n, chunk, s)
    p = start
    # Holding: j ≤ p // s, and a whole window's end j·s + C ≥ p + L (ceiling), or j is the last window.
    first = max(0, -(-(p + length - chunk) // s))
    latest = min(p // s, windows - 1)
    if latest == windows - 1:
        first = min(first, windows - 1)
    holding = range(first, latest + 1) if first <= latest else range(0, 0)
    # Touching: j·s ≤ p + L - 1, and j·s + C > p (always true of the last window, which ends at N > p).
    touch_first = min(max(0, (p - chunk) // s + 1), windows - 1)
    touch_last = min((p + length - 1) // s, windows - 1)
    return holding, range(touch_first, touch_last + 1)


def default_position(tokens: int, chunk: int, overlap: int, length: int) -> int:
    """Where the span starts by default: centred on the first border (the first overlap), the instructive case.

    The first two windows share ``[s, C)``; the span is centred there, so with
    an overlap shorter than the evidence it is cut (neither window holds it),
    and with a longer one both hold it. One window only: the span starts at 0.
    Clamped to ``[0, N - L]`` (0 when ``L > N``).

    >>> default_position(1200, 512, 64, 100), default_position(1200, 512, 0, 100), default_position(300, 512, 0, 100)
    (430, 462, 0)
    """
    n, s, length = _arguments(tokens, chunk, overlap, length)
    if length > n or chunking.chunks_per_document(n, chunk, s) < 2:
        return 0
    return max(0, min(n - length, (s + chunk - length) // 2))
