"""A number as the «Tus datos» panel's tables carry it: raw (for sorting and tests) and in Spanish.

>>> cell(0.5), cell(-0.25, signed=True), cell(None)
({'raw': 0.5, 'text': '0,500'}, {'raw': -0.25, 'text': '−0,250'}, {'raw': None, 'text': '—'})
>>> interval([0.033, 0.175]), interval([0.0, 0.0]), interval([-0.0004, 0.0126])
('[+0,033; +0,175]', '[0,000; 0,000]', '[0,000; +0,013]')
"""

from ..formatting import DASH, decimal


def cell(value, signed: bool = False) -> dict:
    """``{"raw": value, "text": …}``: three decimals, with its sign when ``signed``; ``—`` for ``None``.

    Whatever rounds to zero is written ``0,000``, signed or not: never ``±0,000``, ``+0,000`` or ``−0,000``.

    >>> [cell(value, signed=True)["text"] for value in (0.0, -0.0, 0.0004, -0.0004, 0.0005, -0.0126)]
    ['0,000', '0,000', '0,000', '0,000', '+0,001', '−0,013']
    """
    if value is None:
        return {"raw": None, "text": DASH}
    text = decimal(abs(value) if signed else value)
    if signed and text.strip("0,"):
        text = ("+" if value > 0 else "−") + text
    return {"raw": value, "text": text}


def interval(ci95) -> str:
    """``[lo, hi]`` in Spanish: ``'[+0,033; +0,175]'`` (a semicolon, as the decimal comma asks)."""
    low, high = (cell(end, signed=True)["text"] for end in ci95)
    return f"[{low}; {high}]"
