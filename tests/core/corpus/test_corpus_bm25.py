"""BM25 over the chunks: bm25s 0.3.16 (method="lucene") is the judge, on the same tokens.

bm25s scores in single precision, so scores must agree within 1e-5 (relative), and the ranking
wherever two scores differ by more than that. Our own max-score search must return exactly the top
of the full sum (:meth:`Bm25.scores`), which the comparison with bm25s judges.
"""

import bm25s
import numpy as np
import pytest

from raglab_core.corpus.bm25 import Bm25, Positions
from raglab_core.corpus.chunks import chunk_table
from raglab_core.corpus.documents import Document
from raglab_core.corpus.evaluate import prepare
from raglab_core.corpus.tokens import words

from tests.support.corpus_data import zipf_corpus

TOLERANCE = 1e-5
CONFIGS = [(16, 0), (24, 6), (10, 7), (40, 10), (1000, 0)]  # (10, 7): a token can be in 4 windows


@pytest.fixture(scope="module")
def prepared():
    corpus, queries = zipf_corpus()
    documents = {doc_id: Document(doc_id, text, title) for doc_id, (title, text) in corpus.items()}
    return prepare(documents, queries)


def judge(prepared, table, k1, b):
    """bm25s indexed on the chunks' own token strings (title included, lower-cased)."""
    inverse = {number: word for word, number in prepared.corpus.vocabulary.items()}
    chunks = [[inverse[t] for t in prepared.corpus.terms[d][first:last]]
              for d, first, last in zip(table.documents, table.firsts, table.lasts)]
    retriever = bm25s.BM25(k1=k1, b=b, method="lucene")
    retriever.index(chunks, show_progress=False)
    return retriever, chunks


def assert_close(ours: dict, theirs):
    chunks = np.fromiter(ours, dtype=np.int64, count=len(ours))
    scores = np.fromiter(ours.values(), dtype=np.float64, count=len(ours))
    worst = np.max(np.abs(scores - theirs[chunks]) / scores)
    assert worst <= TOLERANCE, worst


@pytest.mark.parametrize("chunk, overlap", CONFIGS)
def test_scores_and_ranking_agree_with_bm25s(prepared, chunk, overlap):
    table = chunk_table(prepared.corpus, chunk, overlap)
    index = Bm25(table, prepared.positions)
    retriever, chunks = judge(prepared, table, 0.9, 0.4)
    vocabularies = [set(tokens) for tokens in chunks]
    compared = 0
    for qid, text in prepared.queries.items():
        terms = prepared.terms[qid]
        query = words(text)
        ours = index.scores(terms)
        if not terms:
            assert ours == {} and index.search(terms) == []
            continue
        theirs = retriever.get_scores(query)
        # The same chunks score, and each score agrees.
        assert set(ours) == {c for c, score in enumerate(theirs) if score > 0}
        assert set(ours) == {c for c, tokens in enumerate(vocabularies) if not tokens.isdisjoint(query)}
        assert_close(ours, theirs)
        compared += len(ours)
        # The run: exactly the top of the full sum, in trec_eval's order; where bm25s's scores differ by more
        # than its precision, it orders them the same way.
        run = index.search(terms, depth=20)
        assert run == index.ranked(ours, 20)
        for (a, score_a), (b, score_b) in zip(run, run[1:]):
            if score_a > score_b * (1 + TOLERANCE):
                assert theirs[a] > theirs[b]
        if len(ours) > 20:
            cut = sorted(theirs, reverse=True)[19]
            assert all(theirs[c] >= cut * (1 - TOLERANCE) for c, _ in run)
            assert all(c in dict(run) for c, score in enumerate(theirs) if score > cut * (1 + TOLERANCE))
    assert compared > 500


def test_other_parameters_agree_with_bm25s_too(prepared):
    table = chunk_table(prepared.corpus, 24, 6)
    for k1, b in ((1.2, 0.75), (0.5, 0.0), (2.0, 1.0)):
        index = Bm25(table, prepared.positions, k1, b)
        retriever, _ = judge(prepared, table, k1, b)
        for qid in list(prepared.queries)[:10]:
            assert_close(index.scores(prepared.terms[qid]), retriever.get_scores(words(prepared.queries[qid])))


def test_a_repeated_query_token_counts_twice_as_in_bm25s(prepared):
    table = chunk_table(prepared.corpus, 24, 6)
    index = Bm25(table, prepared.positions)
    term = prepared.corpus.vocabulary["bm25"]
    once, twice = index.scores([term]), index.scores([term, term])
    assert twice == {c: 2 * score for c, score in once.items()}
    assert index.search([term, term], 5) == index.ranked(twice, 5)


def test_the_search_is_exact_where_max_score_prunes(prepared):
    """Deep and shallow runs of every query: the pruned search equals the top of the full sum."""
    table = chunk_table(prepared.corpus, 16, 4)
    index = Bm25(table, prepared.positions)
    for terms in prepared.terms.values():
        full = index.scores(terms)
        for depth in (1, 3, 10, 1000):
            assert index.search(terms, depth) == index.ranked(full, depth)


def test_ties_are_broken_by_chunk_id_descending_as_trec_eval_does():
    corpus = {"a": Document("a", "uno dos"), "b": Document("b", "uno dos"), "c": Document("c", "tres")}
    prepared = prepare(corpus, {"q": "uno"})
    index = Bm25(chunk_table(prepared.corpus, 5, 0), Positions(prepared.corpus))
    run = index.search(prepared.terms["q"], 10)
    assert [index.table.chunk_ids[c] for c, _ in run] == ["b#0", "a#0"] and run[0][1] == run[1][1]


@pytest.mark.parametrize("chunk, overlap", [(16, 0), (24, 6), (10, 7)])
def test_every_way_of_counting_a_term_gives_the_same_weights(prepared, chunk, overlap, monkeypatch):
    """A term counted in every chunk at once (str.count), or position by position, weighted from the table of
    tf / (tf + norm) or by the formula, its weights kept in an array over every chunk or not: the same postings
    to the last bit, so the same runs."""
    import raglab_core.corpus.bm25 as bm25

    table = chunk_table(prepared.corpus, chunk, overlap)
    queries = [terms for terms in prepared.terms.values() if terms]
    terms = sorted({term for query in queries for term in query})
    found = []
    never = float("inf")
    for counted, dense, fractions in ((never, never, 16), (0.0, never, 16), (never, 0.0, 16), (never, never, 0)):
        monkeypatch.setattr(bm25, "COUNTED", counted)
        monkeypatch.setattr(bm25, "DENSE", dense)
        monkeypatch.setattr(bm25, "FRACTIONS", fractions)
        index = Bm25(table, prepared.positions)
        postings = [index.postings(term) for term in terms]
        assert all((p.dense is not None) == (0.0 in (counted, dense)) for p in postings)
        found.append(([p.weights for p in postings], [p.highest for p in postings],
                      [p.added([0.0] * index.count, range(index.count)) for p in postings],
                      [index.search(query, 10) for query in queries]))
    assert found[0] == found[1] == found[2] == found[3]
    assert sum(map(len, found[0][0])) > 1000
