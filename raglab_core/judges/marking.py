"""The query's words marked in the document the judging page shows (DESIGN §4.13): whole words, ignoring case and
accents, the function words left out.

A word is a match of :data:`raglab_core.corpus.tokens.TOKEN` (``\\w+``), as the corpus is cut into words; two words
are the same when their :func:`fold` is (accents and other combining marks dropped, case folded: Unicode's NFD
and ``str.casefold``).

>>> segments("¿Qué es RAG? Un fragmento.", query_words("qué es rag"))
[{'text': '¿Qué es ', 'mark': False}, {'text': 'RAG', 'mark': True}, {'text': '? Un fragmento.', 'mark': False}]
"""

import unicodedata

from ..corpus.tokens import TOKEN


def fold(word: str) -> str:
    """A word as marks compare it: without accents or other combining marks, case-folded.

    >>> fold("Qué"), fold("ÁRBOL"), fold("Straße"), fold("niño") == fold("nino")
    ('que', 'arbol', 'strasse', True)
    """
    if word.isascii():  # the usual case; ASCII's casefold is lower
        return word.lower()
    decomposed = unicodedata.normalize("NFD", word)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()


FUNCTION_WORDS = frozenset("""
a al and are as at be but by de del did do does el en es for from has have how in is it la las lo los
of on or para pero por que se su sus that the their this to una uno unos unas was were what when where
which who why will with y o u con como cual cuales cuando donde quien quienes sin sobre entre hay ser esta
este esto estos estas fue son
""".split())
"""English and Spanish function words (articles, prepositions, conjunctions, question words, forms of «be»/«ser»),
folded: a query's word among them marks nothing, since «and» or «de» would light up every line of a text."""


def query_words(query: str) -> set:
    """The folded words (:data:`~raglab_core.corpus.tokens.TOKEN`) of ``query`` that say what it is about: not a
    lone letter (the «s» of «Biden's»), which would mark every such letter of the text, nor a
    :data:`FUNCTION_WORDS` word; a lone digit stays.

    >>> sorted(query_words("What did Biden's plan say about 5 G and the border?"))
    ['5', 'about', 'biden', 'border', 'plan', 'say']
    """
    return {folded for word in TOKEN.findall(query)
            if (len(word) > 1 or word.isdigit()) and (folded := fold(word)) not in FUNCTION_WORDS}


def segments(text: str, marked: set) -> list:
    """``text`` cut into ``{"text", "mark"}`` segments, a whole word (``\\w+``) whose :func:`fold` is in ``marked``
    marked; the segments' texts join back into ``text``, unchanged.

    >>> segments("la RAG, la rag", {"rag"})
    [{'text': 'la ', 'mark': False}, {'text': 'RAG', 'mark': True}, {'text': ', la ', 'mark': False}, {'text': 'rag', 'mark': True}]
    """
    found, start = [], 0
    folded = {}  # a text's words repeat: each is folded once
    for match in TOKEN.finditer(text):
        word = match.group()
        hit = folded.get(word)
        if hit is None:
            hit = folded[word] = fold(word) in marked
        if hit:
            if match.start() > start:
                found.append({"text": text[start:match.start()], "mark": False})
            found.append({"text": word, "mark": True})
            start = match.end()
    if start < len(text) or not found:
        found.append({"text": text[start:], "mark": False})
    return found


__all__ = ["fold", "FUNCTION_WORDS", "query_words", "segments"]
