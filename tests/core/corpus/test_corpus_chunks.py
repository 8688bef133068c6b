"""Tokens and chunks, exact: the fast tokenizer is re.finditer's, windows are DESIGN §4.9's, and the
footprint counted on a corpus equals chunking.footprint's closed form when the documents have one length."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from raglab_core import chunking
from raglab_core.corpus import tokens as tokens_module
from raglab_core.corpus.chunks import chunk_table, windows
from raglab_core.corpus.documents import Document
from raglab_core.corpus.evaluate import evaluate_config, prepare
from raglab_core.corpus.tokens import tokenize, tokenize_corpus, tokenize_text

# Word and non-word characters that lower() or \w treat specially: final sigma, dotted I, ß, combining marks,
# digits of other scripts, emoji (two UTF-16 units), underscores.
ALPHABET = "aZé_9 .,;\n\tΣσςİıßẞ\u0301١😀-'’ΑΣ"


@settings(max_examples=300)
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_the_fast_tokenizer_is_re_finditer_lower_cased(text):
    vocabulary = {}
    terms, starts, ends = tokenize_text(text, vocabulary)
    names = {number: word for word, number in vocabulary.items()}
    expected = [(m.group().lower(), m.start(), m.end()) for m in re.finditer(r"\w+", text)]
    assert [(names[t], s, e) for t, s, e in zip(terms, starts, ends)] == expected == tokenize(text)


def test_a_token_is_lower_cased_alone_so_a_final_sigma_depends_on_the_token_only():
    assert tokenize("ΟΔΟΣ'Α") == [("οδος", 0, 4), ("α", 5, 6)]  # "ΟΔΟΣ'Α".lower() would give "οδοσ'α"


@given(st.integers(0, 300), st.integers(1, 60), st.data())
def test_windows_follow_the_definition(tokens, chunk, data):
    overlap = data.draw(st.integers(0, chunk - 1))
    expected, j = [], 0
    while tokens:
        start = j * (chunk - overlap)
        expected.append((start, min(start + chunk, tokens)))
        if start + chunk >= tokens:
            break
        j += 1
    assert windows(tokens, chunk, overlap) == expected


@settings(max_examples=150)
@given(st.integers(0, 6), st.integers(0, 120), st.integers(1, 50), st.data())
def test_the_footprint_of_a_uniform_corpus_equals_the_closed_form(documents, length, chunk, data):
    overlap = data.draw(st.integers(0, chunk - 1))
    corpus = tokenize_corpus({f"d{i}": " ".join(["w"] * length) for i in range(documents)})
    counted = chunk_table(corpus, chunk, overlap).footprint()
    closed = chunking.footprint(documents, length, chunk, overlap)
    assert (counted.chunks, counted.indexed_tokens, counted.duplicated_tokens) == (
        closed.chunks, closed.indexed_tokens, closed.duplicated_tokens)


@settings(max_examples=100)
@given(st.lists(st.integers(0, 80), max_size=8), st.integers(1, 30), st.data())
def test_the_footprint_of_any_corpus_sums_its_documents(lengths, chunk, data):
    overlap = data.draw(st.integers(0, chunk - 1))
    corpus = tokenize_corpus({f"d{i}": "x " * n for i, n in enumerate(lengths)})
    counted = chunk_table(corpus, chunk, overlap).footprint()
    per_document = [chunking.footprint(1, n, chunk, overlap) for n in lengths]
    assert counted.chunks == sum(f.chunks for f in per_document)
    assert counted.indexed_tokens == sum(f.indexed_tokens for f in per_document)
    assert counted.duplicated_tokens == counted.indexed_tokens - sum(lengths)


def test_chunks_are_named_by_document_and_window_and_run_from_token_to_token():
    body = "  Uno, dos; TRES cuatro.  "
    corpus = tokenize_corpus({"a/x.md": body, "vacío": "¡¿!", "b": "cinco"})
    table = chunk_table(corpus, 3, 1)
    assert table.chunk_ids == ["a/x.md#0", "a/x.md#1", "b#0"] and table.name == "3:1"
    assert [body[slice(*table.characters(i))] for i in range(2)] == ["Uno, dos; TRES", "TRES cuatro"]


def test_a_title_is_chunked_before_the_text_and_spans_move_past_it():
    documents = {"d": Document("d", "alfa beta gamma", "Título largo")}
    prepared = prepare(documents, {"q": "gamma"}, [])
    table = chunk_table(prepared.corpus, 2, 0)
    body = documents["d"].body
    assert body == "Título largo\n\nalfa beta gamma"
    assert [body[slice(*table.characters(i))] for i in range(3)] == ["Título largo", "alfa beta", "gamma"]
    from raglab_core.corpus.spans import Span

    prepared = prepare(documents, {"q": "gamma"}, [Span("q", "d", 10, 15)])
    assert prepared.evidence == {"q": [("d", 24, 29)]} and body[24:29] == "gamma"
    assert evaluate_config(prepared, 2, 0, cuts=[1]).per_query["q"]["EvidenceRecall@1"] == 1.0


def test_the_corpus_is_tokenized_once_for_every_configuration(monkeypatch):
    calls = []
    original = tokens_module.tokenize_text
    monkeypatch.setattr(tokens_module, "tokenize_text", lambda *a: calls.append(1) or original(*a))
    prepared = prepare({"a": Document("a", "uno dos"), "b": Document("b", "tres")}, {"q": "uno"})
    assert len(calls) == 2
    for chunk, overlap in ((1, 0), (2, 1), (8, 0)):
        evaluate_config(prepared, chunk, overlap)
    assert len(calls) == 2
