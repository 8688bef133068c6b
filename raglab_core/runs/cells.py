"""A number as the «Tus datos» panel's tables carry it: raw (for sorting and tests) and in Spanish.

>>> cell(0.5), cell(-0.25, signed=True), cell(None)
({'raw': 0.5, 'text': '0,500'}, {'raw': -0.25, 'text': '−0,250'}, {'raw': None, 'text': '—'})
>>> interval([0.033, 0.175])
'[+0,033; +0,175]'
"""

from ..formatting import DASH, decimal


def cell(value, signed: bool = False) -> dict:
    """``{"raw": value, "text": …}``: three decimals, with its sign when ``signed`` (``±`` for 0); ``—`` for ``None``."""
    if value is None:
        return {"raw": None, "text": DASH}
    text = decimal(value)
    if signed:
        text = ("+" if value > 0 else "−" if value < 0 else "±") + decimal(abs(value))
    return {"raw": value, "text": text}


def interval(ci95) -> str:
    """``[lo, hi]`` in Spanish: ``'[+0,033; +0,175]'`` (a semicolon, as the decimal comma asks)."""
    low, high = (cell(end, signed=True)["text"] for end in ci95)
    return f"[{low}; {high}]"
