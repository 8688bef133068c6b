"""Spanish number formatting for the page.

Follows the Real Academia Española's *Ortografía* (2010), §4.2.4: decimal
comma; digits grouped in threes with a (non-breaking) space, and only from
five digits on (``1328`` but ``13 280``); a space between a number and ``%``.
"""

NBSP = "\u00a0"
DASH = "—"  # shown where a value is undefined, next to the reason


def integer(n: int) -> str:
    """Format an integer.

    >>> integer(1328), integer(13280000).replace(NBSP, " "), integer(-12345).replace(NBSP, " ")
    ('1328', '13 280 000', '-12 345')
    """
    digits = str(abs(n))
    if len(digits) > 4:
        digits = f"{int(digits):,}".replace(",", NBSP)
    return f"-{digits}" if n < 0 else digits


def decimal(x: float, places: int = 3) -> str:
    """Format a float with a decimal comma and fixed ``places``.

    >>> decimal(0.6), decimal(2 / 3, 2), decimal(12345.5, 1).replace(NBSP, " ")
    ('0,600', '0,67', '12 345,5')
    """
    text = f"{x:.{places}f}"
    # The usual case, positive with at most four whole digits (no groups): compute() calls this ~70 times.
    if text[0] != "-" and len(text) - (places + 1 if places else 0) <= 4:
        return text.replace(".", ",")
    whole, _, fraction = f"{abs(x):.{places}f}".partition(".")
    sign = "-" if x < 0 and (whole + fraction).strip("0") else ""
    text = sign + integer(int(whole))
    return f"{text},{fraction}" if places else text


def span(low: float, high: float, places: int = 3) -> str:
    """An interval's two ends joined by an en dash, each with ``places`` decimals.

    An interval is never written with fewer decimals than the mean it goes with (issue 49: «0,007» over
    «0,01–0,01» excludes its own mean): pass the mean's ``places``, three as :func:`decimal`'s default.

    >>> span(0.0052, 0.0098), span(0.25, 0.5, 4), span(-0.0001, 0.0)
    ('0,005–0,010', '0,2500–0,5000', '0,000–0,000')
    """
    return f"{decimal(low, places)}–{decimal(high, places)}"


def percent(ratio: float, places: int = 1) -> str:
    """Format a ratio as a percentage: ``0.1067 -> '10,7 %'`` (non-breaking space).

    >>> percent(0.10666).replace(NBSP, " "), percent(0).replace(NBSP, " ")
    ('10,7 %', '0,0 %')
    """
    return f"{decimal(ratio * 100, places)}{NBSP}%"


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` and the noun that agrees with it: ``count(1, "token") -> '1 token'``.

    ``plural`` defaults to ``singular + "s"``, which covers the page's nouns
    (token, chunk, documento, puesto, relevante); pass it for the others.

    >>> count(1, "token"), count(448, "token"), count(2, "documento juzgado", "documentos juzgados")
    ('1 token', '448 tokens', '2 documentos juzgados')
    >>> count(0, "chunk")
    '0 chunks'
    """
    noun = singular if n == 1 else (plural or singular + "s")
    return f"{integer(n)} {noun}"


def spanish_list(items) -> str:
    """Join with commas and a final «y»: ``['a', 'b', 'c'] -> 'a, b y c'``.

    >>> spanish_list(["k"]), spanish_list(["P@10", "R@10", "nDCG@10"])
    ('k', 'P@10, R@10 y nDCG@10')
    """
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " y " + items[-1]
