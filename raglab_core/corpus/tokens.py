"""Tokens: the matches of ``\\w+`` (Python ``re``, Unicode), lower-cased, each with its characters.

A token is a maximal run of word characters (letters, digits, ``_``, in any
script), lower-cased with ``str.lower``; it keeps the character span
``start:end`` where it was found (in the document's
:attr:`~raglab_core.corpus.documents.Document.body`). :func:`tokenize` is the
definition; :func:`tokenize_corpus` computes the same thing for a whole corpus,
once, however many configurations are then chunked and indexed: each term is
replaced by a number (:attr:`CorpusTokens.vocabulary`), so that a corpus of
1.5 M tokens is held in about 18 MB of arrays.

>>> tokenize("Café: RAG_2 und Ölpreis")
[('café', 0, 4), ('rag_2', 6, 11), ('und', 12, 15), ('ölpreis', 16, 23)]
>>> corpus = tokenize_corpus({"d": "Hola hola."})
>>> corpus.vocabulary, list(corpus.terms[0]), list(corpus.starts[0]), list(corpus.ends[0])
({'hola': 0}, [0, 0], [0, 5], [4, 9])
"""

import re
from array import array
from dataclasses import dataclass
from itertools import accumulate

TOKEN = re.compile(r"\w+")
_SPLIT = re.compile(r"(\w+)")  # separators and tokens, alternating: the tokens' offsets are running lengths


def tokenize(text: str) -> list:
    """``[(token, start, end), ...]``: each ``\\w+`` match of ``text``, lower-cased, with its character span."""
    return [(match.group().lower(), match.start(), match.end()) for match in TOKEN.finditer(text)]


def words(text: str) -> list:
    """The tokens of ``text`` without their spans (a query's terms).

    >>> words("¿Qué es BM25?")
    ['qué', 'es', 'bm25']
    """
    return [word.lower() for word in TOKEN.findall(text)]


@dataclass
class CorpusTokens:
    """A corpus tokenized once: ``ids`` (document ids, in order), ``vocabulary`` (term -> number, in order of
    first occurrence) and, per document, ``terms`` (each token's term number), ``starts`` and ``ends``
    (each token's characters in the document's body), as arrays."""

    ids: list
    vocabulary: dict
    terms: list
    starts: list
    ends: list

    @property
    def lengths(self) -> list:
        """Tokens per document."""
        return [len(terms) for terms in self.terms]

    @property
    def tokens(self) -> int:
        """Tokens in the corpus."""
        return sum(map(len, self.terms))


def tokenize_text(text: str, vocabulary: dict):
    """``(terms, starts, ends)`` of one text: arrays, new terms added to ``vocabulary``.

    The same as :func:`tokenize`, faster: one ``re.split`` whose running
    lengths are the offsets (separators and tokens alternate), and terms
    numbered in C loops (``map``) rather than one Python step per token.
    """
    parts = _SPLIT.split(text)
    lowered = list(map(str.lower, parts[1::2]))
    new = [word for word in dict.fromkeys(lowered) if word not in vocabulary]
    if new:
        vocabulary.update(zip(new, range(len(vocabulary), len(vocabulary) + len(new))))
    code = "i" if len(text) < 2**31 else "q"
    running = array(code, accumulate(map(len, parts)))
    return array("i", map(vocabulary.__getitem__, lowered)), running[0:-1:2], running[1::2]


def tokenize_corpus(bodies) -> CorpusTokens:
    """Tokenize ``bodies`` (``{document id: text}``, or ``(id, text)`` pairs) once, for every configuration."""
    items = bodies.items() if isinstance(bodies, dict) else bodies
    vocabulary, ids, terms, starts, ends = {}, [], [], [], []
    for doc_id, text in items:
        doc_terms, doc_starts, doc_ends = tokenize_text(text, vocabulary)
        ids.append(doc_id)
        terms.append(doc_terms)
        starts.append(doc_starts)
        ends.append(doc_ends)
    return CorpusTokens(ids, vocabulary, terms, starts, ends)


def query_terms(text: str, vocabulary: dict) -> list:
    """The term numbers of a query's tokens, repeats kept, in order; a token the corpus lacks matches no
    chunk and is dropped.

    >>> query_terms("hola HOLA adiós", {"hola": 0})
    [0, 0]
    """
    get = vocabulary.get
    return [number for number in map(get, words(text)) if number is not None]
