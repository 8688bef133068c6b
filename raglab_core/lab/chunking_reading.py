"""The chunking panel's Spanish sentences: its reading, the evidence's sentences, the strip in words.

What it holds:

- :func:`chunking_reading`, what the chunking footprint costs, never what it
  is worth, and whether evidence of the chosen length survives the cut
  (:func:`evidence_sentences`);
- the chunk-window strip in words (:func:`windows_text`, :func:`strip_scale`,
  :func:`evidence_span_text`, :func:`evidence_valuetext`), for screen readers
  and for anyone who prefers reading.

Every number a reading quotes is an output's text or is computed here from the
same values; tests/core/lab/test_lab.py and tests/core/lab/test_evidence_view.py check them
against the outputs.
"""

from ..formatting import NBSP, count, decimal, integer, percent
from .controls import CHUNKING_INPUTS, EVIDENCE_INPUTS, invalid_labels

def no_windows(values) -> str | None:
    """Why the chunk-window strip is empty, or None when its controls are valid."""
    bad = invalid_labels(("tokens_doc", "chunk", "solape"), values)
    return f"Sin ventanas hasta que corrijas {bad}." if bad else None


def chunking_reading(values, outputs, fp, ev=None) -> str:
    """What the chunking footprint costs, and whether evidence of the chosen length survives the cut.

    ``ev`` is the lab's evidence summary (:func:`raglab_core.lab.compute`), or
    None while one of its controls is invalid. Cost and geometry, never
    relevance: the reading ends by saying so.
    """
    bad = invalid_labels(CHUNKING_INPUTS, values)
    if bad:
        return f"Sin lectura de chunking hasta que corrijas {bad}."
    docs, tokens, chunk, overlap = (values[name] for name in CHUNKING_INPUTS)
    caveat = (
        " Esta huella mide coste (almacenamiento y candidatos redundantes) y la geometría del corte, no calidad "
        "ni relevancia: si el retriever encuentra el chunk que contiene la evidencia, y si un tamaño u otro "
        "recupera mejor, solo lo dice una evaluación con qrels reales."
    )
    if docs == 0 or tokens == 0:
        return "El corpus está vacío: no hay nada que indexar ni duplicar."
    evidence = evidence_sentences(values, outputs, ev)
    if tokens <= chunk:
        return (
            f"Cada documento ({count(tokens, 'token')}) cabe en un solo chunk de {count(chunk, 'token')}: "
            f"el índice guarda {count(fp.chunks, 'chunk')} y el solape no duplica nada."
            + evidence + caveat
        )
    text = (
        f"Cada documento de {integer(tokens)} tokens se parte en {count(fp.per_document, 'chunk')} "
        f"con un stride de {count(fp.stride, 'token')}."
    )
    if overlap == 0:
        return (
            text
            + f" Sin solape no hay copias: el índice guarda los {integer(fp.corpus_tokens)} tokens del corpus."
            + evidence + caveat
        )
    copies = "es una copia creada" if fp.duplicated_tokens == 1 else "son copias creadas"
    warning = ""
    if fp.duplication > 1:  # the index holds the corpus more than twice over: copies are the most of it
        warning = (
            f" Aviso: un solape de {integer(overlap)} en chunks de {integer(chunk)} deja un stride de "
            f"{count(fp.stride, 'token')}: la mayor parte de lo que guarda el índice son copias."
        )
    return (
        text
        + f" El índice guarda {outputs['indexed_tokens']['text']} tokens para un corpus de "
        f"{integer(fp.corpus_tokens)}: {integer(fp.duplicated_tokens)} "
        f"(el {outputs['duplication']['text']} del corpus, no del índice) {copies} por el solape, "
        f"así que el corpus se indexa {times_indexed(fp)} veces."
        + warning + evidence + caveat
    )


def times_indexed(fp) -> str:
    """How many times the index holds the corpus: indexed tokens / corpus tokens, two decimals.

    >>> from raglab_core import chunking
    >>> times_indexed(chunking.footprint(10_000, 1200, 512, 64))
    '1,11'
    """
    return decimal(fp.indexed_tokens / fp.corpus_tokens, 2)


def duplicated_caption(fp) -> str:
    """The duplication card's caption: the copies, their base (the corpus, not the index) and the times indexed.

    >>> from raglab_core import chunking
    >>> duplicated_caption(chunking.footprint(10, 1200, 512, 64)).replace(NBSP, " ")
    '1280 tokens duplicados, sobre un corpus de 12 000: se indexa 1,11 veces'
    """
    copies = count(fp.duplicated_tokens, "token duplicado", "tokens duplicados")
    if not fp.corpus_tokens:
        return copies
    if not fp.duplicated_tokens:
        return f"{copies}: el corpus se indexa una sola vez"
    return f"{copies}, sobre un corpus de {integer(fp.corpus_tokens)}: se indexa {times_indexed(fp)} veces"


# --- evidence against the cut (DESIGN §4.5) ------------------------------------------------


def share(fraction) -> str:
    """A fraction of positions as a percentage that never rounds to 0 % or 100 % unless it is exactly that.

    >>> from fractions import Fraction
    >>> [share(x).replace(NBSP, " ") for x in (Fraction(1031, 1101), Fraction(1), Fraction(0), Fraction(9999, 10000))]
    ['93,6 %', '100 %', '0 %', 'más del 99,9 %']
    >>> share(Fraction(1, 10**6)).replace(NBSP, " ")
    'menos del 0,1 %'
    """
    if fraction == 1:
        return f"100{NBSP}%"
    if fraction == 0:
        return f"0{NBSP}%"
    text = percent(float(fraction))
    if text == percent(1.0):
        return f"más del 99,9{NBSP}%"
    if text == percent(0.0):
        return f"menos del 0,1{NBSP}%"
    return text


def longer_than_document(length: int, tokens: int) -> str:
    """Why the evidence outputs are undefined when the evidence is longer than the document."""
    return (
        f"Una evidencia de {count(length, 'token')} no cabe en un documento de {count(tokens, 'token')}: "
        "no hay ninguna posición donde medirla."
    )


def longer_than_chunk(length: int, chunk: int) -> str:
    """Why no overlap keeps evidence longer than the chunk whole."""
    return (
        f"Ningún solape basta: la evidencia ({count(length, 'token')}) es más larga que el chunk "
        f"({count(chunk, 'token')})."
    )


def _at_positions(text: str) -> str:
    """«en el 93,6 % de las posiciones», «en más del 99,9 % de las posiciones»."""
    return f"en {text if text.startswith(('más', 'menos')) else 'el ' + text} de las posiciones"


def evidence_sentences(values, outputs, ev) -> str:
    """The reading's sentences on the evidence (each starting with a space), or "" with nothing to add.

    Says in what share of the positions evidence of ``evidencia`` tokens lies
    whole in at least one chunk, the smallest overlap that would always keep
    it whole and what the index would then hold, and how many chunks touch it
    (the top-k slots one piece of evidence can fill).
    """
    if values["evidencia"] is None:
        return f" Sin lectura de la evidencia hasta que corrijas {invalid_labels(('evidencia',), values)}."
    if ev is None:
        return ""
    tokens, chunk, overlap, length = (values[name] for name in EVIDENCE_INPUTS)
    if length > tokens:
        return " " + longer_than_document(length, tokens)
    touching = outputs["windows_touching"]
    if ev["touching"] == 1:
        touch = " Cada posición de la evidencia la toca un solo chunk: ocupa un solo puesto del top-k."
    else:
        touch = (
            f" De media la tocan {touching['text']} chunks: si se recuperan todos los que la tocan, una sola "
            "evidencia ocupa otros tantos puestos del top-k."
        )
    evidence = f"una evidencia de {count(length, 'token')}"
    if tokens <= chunk:
        return f" Por eso {evidence} queda siempre entera, sin necesidad de solape." + touch
    if length > chunk:
        return (
            f" {evidence[0].upper()}{evidence[1:]} no cabe entera en ningún chunk de {count(chunk, 'token')}, "
            f"con ningún solape: queda siempre partida. Para que quepa hace falta un chunk de al menos "
            f"{count(length, 'token')}." + touch
        )
    head = f" Con chunks de {integer(chunk)} y solape {integer(overlap)}, {evidence}"
    minimum = ev["min_overlap"]
    cost = f"el índice pasaría de {outputs['indexed_tokens']['text']} a {outputs['indexed_tokens_whole']['text']} tokens"
    if ev["containment"] == 1:
        if overlap == minimum:
            tail = f" Un solape de {integer(minimum)} es justo el mínimo para eso."
        else:
            tail = f" Bastaría un solape de {integer(minimum)}: {cost}."
        return head + " queda siempre entera en al menos un chunk." + tail + touch
    return (
        head + f" queda entera en al menos un chunk {_at_positions(outputs['containment']['text'])}. "
        f"Con un solape de {integer(minimum)} o más quedaría siempre entera, y {cost}." + touch
    )


# --- the chunk-window strip in words --------------------------------------------------------


def strip_scale(w: dict) -> str:
    """Which tokens the strip draws, said visibly: the zoom is never silent.

    >>> from raglab_core.lab.strip import chunk_windows
    >>> strip_scale(chunk_windows(10_000_000, 1, 0)).replace(NBSP, " ")
    'Se dibujan los tokens 0–12 de 10 000 000: las 12 primeras ventanas.'
    >>> strip_scale(chunk_windows(1200, 512, 64))
    'Se dibujan los 1200 tokens del documento.'
    """
    if not w["windows"]:
        return ""
    if w["whole"]:
        return f"Se dibujan los {count(w['tokens'], 'token')} del documento." if w["tokens"] > 1 else \
            "Se dibuja el único token del documento."
    drawn = f"Se dibujan los tokens 0–{integer(w['span'])} de {integer(w['tokens'])}"
    shown = len(w["shown"])
    if w["more"]:
        return drawn + f": {'la primera ventana' if shown == 1 else f'las {shown} primeras ventanas'}."
    return drawn + "."


def doc_legend(w: dict) -> str:
    """The legend's words for the strip's top bar: the whole document, or only the part drawn."""
    return "el documento" if w["whole"] else f"los tokens 0–{integer(w['span'])} del documento"


def _windows_named(first: int, number: int) -> str:
    """Windows ``first … first + number - 1`` (0-based) named for a reader, 1-based.

    >>> _windows_named(1, 1), _windows_named(0, 2), _windows_named(3, 5)
    ('la ventana 2', 'las ventanas 1 y 2', 'las ventanas 4 a 8')
    """
    if number == 1:
        return f"la ventana {integer(first + 1)}"
    if number == 2:
        return f"las ventanas {integer(first + 1)} y {integer(first + 2)}"
    return f"las ventanas {integer(first + 1)} a {integer(first + number)}"


def evidence_span_text(marks: dict) -> str:
    """Where the drawn evidence lies and which windows hold or touch it (the strip's marks in words).

    >>> from raglab_core.lab.strip import chunk_windows
    >>> evidence_span_text(chunk_windows(1200, 512, 64, 100)["evidence"])
    'La evidencia ocupa los tokens 430–530: ninguna ventana la contiene entera; queda partida entre las ventanas 1 y 2.'
    >>> evidence_span_text(chunk_windows(1200, 100, 0, 250)["evidence"])
    'La evidencia ocupa los tokens 0–250: ninguna ventana la contiene entera; queda repartida en 3 ventanas, de la 1 a la 3.'
    >>> evidence_span_text(chunk_windows(1200, 512, 64, 100, position=470)["evidence"])
    'La evidencia ocupa los tokens 470–570: la contiene entera la ventana 2, y la toca sin contenerla 1 más.'
    """
    where = f"La evidencia ocupa los tokens {integer(marks['start'])}–{integer(marks['end'])}"
    holding, touching = marks["holding"], marks["touching"]
    if not holding["count"]:
        if touching["count"] == 2:
            return f"{where}: ninguna ventana la contiene entera; queda partida entre " \
                f"{_windows_named(touching['first'], 2)}."
        # «entre las ventanas 1 a 100» mixes two prepositions: say how many, then which.
        return f"{where}: ninguna ventana la contiene entera; queda repartida en " \
            f"{integer(touching['count'])} ventanas, de la {integer(touching['first'] + 1)} " \
            f"a la {integer(touching['first'] + touching['count'])}."
    verb = "la contiene entera" if holding["count"] == 1 else "la contienen entera"
    text = f"{where}: {verb} {_windows_named(holding['first'], holding['count'])}"
    others = touching["count"] - holding["count"]
    if others:
        text += f", y la {'toca' if others == 1 else 'tocan'} sin contenerla {integer(others)} más"
    return text + "."


def evidence_valuetext(marks: dict) -> str:
    """The position slider's words for screen readers: the tokens, and whole or cut.

    >>> from raglab_core.lab.strip import chunk_windows
    >>> evidence_valuetext(chunk_windows(1200, 512, 64, 100)["evidence"])
    'tokens 430–530, partida'
    """
    state = "entera en un chunk" if marks["holding"]["count"] else "partida"
    return f"tokens {integer(marks['start'])}–{integer(marks['end'])}, {state}"


def windows_text(w: dict) -> str:
    """The strip in words: its text equivalent for screen readers and for anyone who prefers reading.

    >>> from raglab_core.lab.strip import chunk_windows
    >>> windows_text(chunk_windows(1200, 512, 64))
    'Un documento de 1200 tokens en 3 ventanas de hasta 512 tokens que empiezan cada 448: 0–512, 448–960 y 896–1200 (la última, recortada al final del documento).'
    >>> windows_text(chunk_windows(3, 2, 1))
    'Un documento de 3 tokens en 2 ventanas de hasta 2 tokens que empiezan en cada token: 0–2 y 1–3.'
    """
    if not w["windows"]:
        return "Un documento vacío no tiene ventanas."
    ranges = [f"{integer(s['start'])}–{integer(s['end'])}" for s in w["shown"]]
    evidence = " " + evidence_span_text(w["evidence"]) if w.get("evidence") else ""
    if w["windows"] == 1:
        return f"Un documento de {count(w['tokens'], 'token')} cabe en una sola ventana: {ranges[0]}." + evidence
    listed = ", ".join(ranges[:-1]) + " y " + ranges[-1]
    text = (
        f"Un documento de {count(w['tokens'], 'token')} en {integer(w['windows'])} ventanas de hasta "
        f"{count(w['chunk'], 'token')} que empiezan "
        + (f"cada {integer(w['stride'])}: " if w["stride"] > 1 else "en cada token: ")  # not «cada 1»
    )
    if w["more"]:
        return text + ", ".join(ranges) + f" y {count(w['more'], 'ventana')} más. " + strip_scale(w) + evidence
    clipped = w["shown"][-1]["end"] - w["shown"][-1]["start"] < w["chunk"]
    text += listed + (" (la última, recortada al final del documento)." if clipped else ".")
    return text + ("" if w["whole"] else " " + strip_scale(w)) + evidence
