"""One chunking configuration measured end to end, and any chunks with their run measured alike.

:func:`prepare` does what every configuration shares, once: it tokenizes the
corpus (:func:`~raglab_core.corpus.tokens.tokenize_corpus`), groups the
tokens' positions by term (:class:`~raglab_core.corpus.bm25.Positions`),
turns each query into term numbers, and moves each span into its document's
body (shifted past the title). :func:`evaluate_config` then, for one
configuration ``C:O``:

1. cuts the windows (:func:`~raglab_core.corpus.chunks.chunk_table`) and counts
   the footprint;
2. retrieves each query's top ``depth`` chunks with BM25
   (:class:`~raglab_core.corpus.bm25.Bm25`): the **chunk run**;
3. takes each document's best chunk in that run (MaxP [1]_): the **document
   run** (so it ranks the documents of the chunk run: with ``depth = 100``,
   100 chunks give up to 100 documents);
4. measures both (:func:`evaluate_runs`).

:func:`evaluate_runs` is the part any chunks and run share (``--chunks F --run
F``): per query, the evidence measures at each cut
(:func:`~raglab_core.corpus.measures.query_measures`, for queries with at least
one span) and, given qrels, any ``eval`` measure of the document run through
:class:`~raglab_core.runs.evaluation.RunEvaluator` (every query of the run is
evaluated, one that retrieves nothing as an empty ranking, so it scores 0).
Means: evidence measures over the queries with spans, document measures over
the queries in both the run and the qrels.

>>> from raglab_core.corpus.documents import Document
>>> from raglab_core.corpus.spans import Span
>>> documents = {"a": Document("a", "el gato duerme en la alfombra roja"), "b": Document("b", "un perro ladra")}
>>> prepared = prepare(documents, {"q1": "gato alfombra"}, [Span("q1", "a", 3, 7), Span("q1", "a", 21, 29)])
>>> result = evaluate_config(prepared, 4, 0, cuts=[1, 2], qrels={"q1": {"a": 1}}, measures="P@1")
>>> result.footprint
Footprint(chunks=3, indexed_tokens=10, duplicated_tokens=0)
>>> result.chunk_run   # idf ln(1 + 2.5/1.5); a#1 has 3 tokens of a mean 10/3: K = 0.9 · (0.6 + 0.4 · 0.9) = 0.864
{'q1': {'a#1': 0.5261959511865485, 'a#0': 0.4973779173487456}}
>>> result.document_run, result.per_query["q1"]["Ceiling"], result.per_query["q1"]["EvidenceRecall@2"]
({'q1': {'a': 0.5261959511865485}}, 1.0, 1.0)
>>> result.mean["P@1"], result.mean["CharPrecision@1"]   # a#1 is "la alfombra roja": 8 of its 16 characters
(1.0, 0.5)

References
----------
.. [1] Z. Dai and J. Callan, "Deeper Text Understanding for IR with Contextual Neural Language
   Modeling", SIGIR 2019 (MaxP: a document scores as its best passage).
"""

import gc
import math
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass, field
from operator import itemgetter

from ..runs.evaluation import RunEvaluator, trec_order
from ..runs.measures import DEFAULT_MEASURES, parse_measures
from ..errors import LabError
from .bm25 import B, DEPTH, K1, Bm25, Positions
from .chunks import Footprint, chunk_table
from .measures import ChunkSpans, measure_names, query_measures
from .spans import spans_by_query
from .tokens import query_terms, tokenize_corpus

CUTS = (1, 3, 5, 10)
"""The cuts ``k`` of the evidence measures by default (``--at 1,3,5,10``)."""


@dataclass
class Prepared:
    """What every configuration shares: ``documents`` (``{id: Document}``), ``corpus``
    (:class:`~raglab_core.corpus.tokens.CorpusTokens`), ``positions``, ``queries`` (``{qid: text}``),
    ``terms`` (``{qid: term numbers}``), ``evidence`` (``{qid: [(doc, start, end), ...]}`` in body
    characters) and ``outside`` (``{doc_id: spans}``: the spans left out because their document is not in
    the corpus, by document, in the order first named)."""

    documents: dict
    corpus: object
    positions: Positions
    queries: dict
    terms: dict
    evidence: dict
    outside: dict = field(default_factory=dict)

    def summary(self) -> dict:
        """``{"documents", "tokens", "queries", "spans"}``, as the JSON report's ``"corpus"`` object."""
        return {"documents": len(self.documents), "tokens": self.corpus.tokens, "queries": len(self.queries),
                "spans": sum(map(len, self.evidence.values()))}


def body_spans(spans, documents) -> dict:
    """``{qid: [(doc, start, end), ...]}``: each :class:`~raglab_core.corpus.spans.Span` shifted into its
    document's body (past ``title + "\\n\\n"``); a span whose document is not in ``documents`` is left out.

    >>> from raglab_core.corpus.documents import Document
    >>> from raglab_core.corpus.spans import Span
    >>> body_spans([Span("q", "d", 0, 3)], {"d": Document("d", "abc", "T")})
    {'q': [('d', 3, 6)]}
    """
    return {
        qid: [(span.doc_id, span.start + documents[span.doc_id].shift, span.end + documents[span.doc_id].shift)
              for span in group]
        for qid, group in spans_by_query([span for span in spans if span.doc_id in documents]).items()
    }


def outside_spans(spans, documents) -> dict:
    """``{doc_id: count}``: the spans naming a document not in ``documents``, by document, in the order first named.

    >>> from raglab_core.corpus.documents import Document
    >>> from raglab_core.corpus.spans import Span
    >>> outside_spans([Span("q", "x", 0, 1), Span("q", "d", 0, 1), Span("r", "x", 2, 3)], {"d": Document("d", "abc")})
    {'x': 2}
    """
    counts = {}
    for span in spans:
        if span.doc_id not in documents:
            counts[span.doc_id] = counts.get(span.doc_id, 0) + 1
    return counts


def prepare(documents: dict, queries: dict, spans=()) -> Prepared:
    """Tokenize and index the corpus once, and read the queries and spans, for every configuration (spans naming a
    document not in the corpus are left out, and counted in ``outside``)."""
    corpus = tokenize_corpus((doc_id, document.body) for doc_id, document in documents.items())
    terms = {qid: query_terms(text, corpus.vocabulary) for qid, text in queries.items()}
    return Prepared(documents=documents, corpus=corpus, positions=Positions(corpus), queries=queries, terms=terms,
                    evidence=body_spans(spans, documents), outside=outside_spans(spans, documents))


@dataclass
class Evaluation:
    """One configuration (or one chunks file and run) measured.

    ``per_query``: ``{qid: {measure: value}}`` (evidence measures for queries with spans, document
    measures for queries in the qrels; ``None`` where undefined, as in ``eval``); ``mean``:
    ``{measure: mean}``; ``names``: the measures in report order; ``chunk_run`` and ``document_run``:
    ``{qid: {id: score}}`` in trec_eval's order; ``footprint``; ``chunk``, ``overlap`` (``None`` for
    chunks given as a file); ``documents``: the :class:`~raglab_core.runs.evaluation.RunEvaluation` of
    the document run (``None`` without qrels).
    """

    name: str
    chunk: int | None
    overlap: int | None
    footprint: Footprint
    names: list
    per_query: dict
    mean: dict
    chunk_run: dict
    document_run: dict
    documents: object = None
    warnings: list = field(default_factory=list)


def max_passage(chunk_run: dict, document_of, ordered=None) -> dict:
    """The document run of a chunk run: each document scores as its best chunk (MaxP), in trec_eval's order.
    ``ordered`` (``{qid: chunk ids in trec_eval's order}``), when given, saves sorting the chunks again.

    >>> max_passage({"q": {"a#0": 1.0, "b#0": 3.0, "a#1": 2.0}}, lambda chunk: chunk.split("#")[0])
    {'q': {'b': 3.0, 'a': 2.0}}
    """
    run = {}
    for qid, scores in chunk_run.items():
        best = {}
        for chunk_id in trec_order(scores) if ordered is None else ordered[qid]:
            best.setdefault(document_of(chunk_id), scores[chunk_id])
        run[qid] = {doc_id: best[doc_id] for doc_id in trec_order(best)}
    return run


def evaluate_runs(name, chunk_spans: dict, chunk_run: dict, evidence: dict, *, cuts=CUTS, qrels=None,
                  measures=None, footprint=None, chunk=None, overlap=None, ceiling_index=None,
                  document_of=None, ordered=None) -> Evaluation:
    """Measure a chunk run over chunks ``chunk_spans`` (``{chunk_id: (doc, start, end)}``, body characters).

    ``evidence``: ``{qid: [(doc, start, end), ...]}``; ``qrels`` (document level) and ``measures``
    (``eval`` names) add the document measures of the MaxP document run. ``ceiling_index`` (a
    :class:`~raglab_core.corpus.measures.ChunkSpans` of every chunk) is built from ``chunk_spans``
    when not given. Every query of ``chunk_run`` is measured; a query with spans that the run lacks
    retrieved nothing. ``document_of`` (a chunk id's document) and ``ordered`` (``{qid: chunk ids}``,
    when ``chunk_run`` is already in trec_eval's order) spare :func:`evaluate_config` listing the
    characters of chunks no measure reads, and sorting the runs again; ``chunk_spans`` then need only
    the chunks retrieved for queries with evidence.
    """
    cuts = sorted(set(cuts))
    if ceiling_index is None:
        ceiling_index = ChunkSpans(chunk_spans.values())
    if footprint is None:
        footprint = Footprint(len(chunk_spans), None, None)
    if ordered is None:
        ordered = {qid: trec_order(scores) for qid, scores in chunk_run.items()}
    if document_of is None:
        document_of = lambda chunk_id: chunk_spans[chunk_id][0]  # noqa: E731
    per_query = {}
    names = measure_names(cuts) if evidence else []
    for qid, spans in evidence.items():
        ranked = [chunk_spans[chunk_id] for chunk_id in ordered.get(qid, ())]
        per_query[qid] = query_measures(spans, ranked, cuts, ceiling_index)
    mean = {measure: math.fsum(values[measure] for values in per_query.values()) / len(per_query)
            for measure in names} if per_query else {}
    document_run = max_passage(chunk_run, document_of, ordered)
    documents = None
    if qrels is not None:
        parsed = parse_measures(DEFAULT_MEASURES if measures is None else measures)
        evaluator = RunEvaluator(qrels, parsed)
        for qid, scores in document_run.items():
            evaluator.add(qid, scores)
        documents = evaluator.result()
        for qid, values in documents.per_query.items():
            per_query.setdefault(qid, {}).update(zip(documents.names, values))
        mean.update(zip(documents.names, documents.mean))
        names = names + list(documents.names)
    return Evaluation(name=name, chunk=chunk, overlap=overlap, footprint=footprint, names=names,
                      per_query=dict(sorted(per_query.items())), mean=mean, chunk_run=chunk_run,
                      document_run=document_run, documents=documents)


def evaluate_config(prepared: Prepared, chunk: int, overlap: int, *, k1: float = K1, b: float = B,
                    depth: int = DEPTH, cuts=CUTS, qrels=None, measures=None, progress=None) -> Evaluation:
    """Chunk, index, retrieve and measure one configuration ``chunk:overlap`` (see the module's docstring).

    ``progress(done, total)``, when given, is called after each query. The garbage collector is paused
    meanwhile: this work makes no reference cycles, and a collection would only walk the index's tuples
    of a position each (about 4 % of the time at SciFact's size).
    """
    if depth < 1:
        raise LabError("below_minimum", field="depth", name="depth", minimum=1)
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _evaluate_config(prepared, chunk, overlap, k1=k1, b=b, depth=depth, cuts=cuts, qrels=qrels,
                                measures=measures, progress=progress)
    finally:
        if enabled:
            gc.enable()


def _evaluate_config(prepared, chunk, overlap, *, k1, b, depth, cuts, qrels, measures, progress) -> Evaluation:
    table = chunk_table(prepared.corpus, chunk, overlap)
    index = Bm25(table, prepared.positions, k1, b)
    ids = table.chunk_ids
    uses = Counter(term for terms in prepared.terms.values() for term in set(terms))
    chunk_run, retrieved, measured = {}, set(), set()
    for done, (qid, terms) in enumerate(prepared.terms.items(), 1):
        ranked = index.search(terms, depth)  # in trec_eval's order
        chunk_run[qid] = {ids[number]: score for number, score in ranked}
        retrieved.update(map(itemgetter(0), ranked))
        if qid in prepared.evidence:
            measured.update(map(itemgetter(0), ranked))
        for term in set(terms):  # a term's postings are kept until the last query that needs them
            uses[term] -= 1
            if not uses[term]:
                index.forget(term)
        if progress is not None:
            progress(done, len(prepared.terms))
    # The characters of the chunks the measures read: those retrieved for a query with evidence, and every
    # chunk of a document holding evidence (for the ceiling).
    doc_ids = prepared.corpus.ids
    numbers = {doc_id: number for number, doc_id in enumerate(doc_ids)}
    evidence_chunks = set()
    for spans in prepared.evidence.values():
        for doc_id, _, _ in spans:
            number = numbers[doc_id]
            evidence_chunks.update(range(table.by_document[number], table.by_document[number + 1]))
    chunk_spans = {ids[number]: (doc_ids[table.documents[number]], *table.characters(number))
                   for number in measured | evidence_chunks}
    ceiling_index = ChunkSpans(chunk_spans[ids[number]] for number in evidence_chunks)
    documents = {ids[number]: doc_ids[table.documents[number]] for number in retrieved}
    return evaluate_runs(table.name, chunk_spans, chunk_run, prepared.evidence, cuts=cuts, qrels=qrels,
                         measures=measures, footprint=table.footprint(), chunk=chunk, overlap=overlap,
                         ceiling_index=ceiling_index, document_of=documents.__getitem__,
                         ordered={qid: list(scores) for qid, scores in chunk_run.items()})


def evaluate_chunks_run(prepared: Prepared, chunk_spans: dict, chunk_run: dict, *, cuts=CUTS, qrels=None,
                        measures=None, chunks_name: str = "chunks", run_name: str = "run") -> Evaluation:
    """Measure your own chunks (``{chunk_id: (doc, start, end)}``, as
    :func:`~raglab_core.corpus.exchange.read_chunks` reads them) and a run over them
    (``{qid: {chunk_id: score}}``); a chunk id the chunks lack is a :class:`LabError`. A query the run
    lacks retrieved nothing (a TREC run has no line for it), as in :func:`evaluate_config`."""
    chunk_run = {**{qid: {} for qid in prepared.queries}, **chunk_run}
    for qid, scores in chunk_run.items():
        for chunk_id in scores:
            if chunk_id not in chunk_spans:
                raise LabError("chunk_unknown", field="run", run=run_name, chunk=chunk_id, qid=qid,
                               chunks=chunks_name)
    return evaluate_runs(run_name, chunk_spans, chunk_run, prepared.evidence, cuts=cuts, qrels=qrels,
                         measures=measures, footprint=chunks_footprint(prepared, chunk_spans))


def chunks_footprint(prepared: Prepared, chunk_spans: dict) -> Footprint:
    """The footprint of any chunks: ``indexed_tokens`` counts, for each chunk, the corpus's tokens its characters
    touch (a token a character-based chunker cuts in two counts in both chunks), and ``duplicated_tokens`` is
    ``indexed_tokens`` minus the corpus's tokens (negative when the chunks leave text out).

    >>> from raglab_core.corpus.documents import Document
    >>> prepared = prepare({"d": Document("d", "uno dos tres")}, {})
    >>> chunks_footprint(prepared, {"a": ("d", 0, 5), "b": ("d", 5, 12)})   # "dos" is in both
    Footprint(chunks=2, indexed_tokens=4, duplicated_tokens=1)
    """
    numbers = {doc_id: number for number, doc_id in enumerate(prepared.corpus.ids)}
    indexed = 0
    for doc_id, start, end in chunk_spans.values():
        number = numbers[doc_id]
        # tokens ending after the chunk starts, minus those starting at or after its end
        indexed += bisect_left(prepared.corpus.starts[number], end) - bisect_right(prepared.corpus.ends[number], start)
    return Footprint(len(chunk_spans), indexed, indexed - prepared.corpus.tokens)
