"""A reading as the «Tus datos» and «Tu corpus» panels show it: the verdict first, then the caveats.

Every reading of those panels is a :func:`reading`: an optional ``warning`` (the data carry warnings: it stays
above the verdict, as the warnings list stays above the results), ONE ``verdict`` sentence that says what the
numbers license (in bold), a few compact ``lines`` (grouped: a line never lists every run or configuration),
then, inside a closed «Cómo leer esto» disclosure, the ``details`` (a list, one line per configuration or
measure) and the ``caveats`` (paragraphs). What shows before the disclosure stays under
:data:`VISIBLE_WORDS` words whatever the number of runs or configurations.

panel-kit.js's ``reading`` builds its DOM from these parts (the core tests count the visible words on the same HTML,
written by ``tests/support/readings.py``; a browser test counts them on the page).
"""

HOW_TO_READ = "Cómo leer esto"
"""The disclosure's summary."""
VISIBLE_WORDS = 80
"""The most words a reading shows before its disclosure is opened: lines beyond it move into the disclosure."""
MORE = f"El resto, en «{HOW_TO_READ}»."
"""The last visible line when some lines moved into the disclosure."""


def reading(verdict: str, lines=(), details=(), caveats=(), warning: str = "") -> dict:
    """A reading: its parts, and ``text``, all of them in order (what a screen reader reaches once the disclosure
    is open, and what the tests search).

    >>> r = reading("Nada se distingue.", ["P@1: empate."], caveats=["No demuestra que sean iguales."])
    >>> r["text"]
    'Nada se distingue. P@1: empate. No demuestra que sean iguales.'

    Lines that would take the visible part past :data:`VISIBLE_WORDS` words move into the disclosure:

    >>> r = reading("Veredicto.", [f"Línea {i} de diez palabras en total, dicho sea de paso." for i in range(9)])
    >>> len(r["lines"]), r["lines"][-1], r["details"][0]
    (7, 'El resto, en «Cómo leer esto».', 'Línea 6 de diez palabras en total, dicho sea de paso.')
    """
    lines, details, caveats = ([part for part in parts if part] for parts in (lines, details, caveats))
    moved = []
    while lines and _words(warning, verdict, *lines, MORE if moved else "", HOW_TO_READ) > VISIBLE_WORDS:
        moved.insert(0, lines.pop())  # the last lines wait behind the disclosure, in their order
    if moved:
        lines.append(MORE)
        details = moved + details
    return {
        "warning": warning,
        "verdict": verdict,
        "lines": lines,
        "details": details,
        "caveats": caveats,
        "summary": HOW_TO_READ,
        "text": " ".join(part for part in (warning, verdict, *lines, *details, *caveats) if part),
    }


def _words(*texts) -> int:
    return sum(len(text.split()) for text in texts)
