"""Chunking measured on your own corpus: documents, queries and evidence, tokens, chunks, BM25 and evidence measures.

Each module holds one concept, as pure functions over plain data (DESIGN §4.9):

* :mod:`~raglab_core.corpus.lines`: reading a file's text as it arrives, line by line, with problems by line;
* :mod:`~raglab_core.corpus.documents`: the corpus (BEIR ``corpus.jsonl``, or a folder of ``.txt``/``.md`` files);
* :mod:`~raglab_core.corpus.queries`: the queries (BEIR ``queries.jsonl``, or TSV ``id<TAB>text``);
* :mod:`~raglab_core.corpus.spans`: span-level evidence (JSONL, character offsets);
* :mod:`~raglab_core.corpus.chroma`: Chroma's ``questions_df.csv`` (queries and their spans);
* :mod:`~raglab_core.corpus.files`: the command line's side: a path's text, a folder's files;
* :mod:`~raglab_core.corpus.tokens`: tokens (``\\w+``, lower-cased, with their characters), once per corpus;
* :mod:`~raglab_core.corpus.chunks`: the windows of one configuration, and their exact footprint;
* :mod:`~raglab_core.corpus.bm25`: BM25 (Lucene's variant) over the chunks, and the runs;
* :mod:`~raglab_core.corpus.measures`: the evidence measures (ceiling, EvidenceRecall, Chroma's character measures);
* :mod:`~raglab_core.corpus.exchange`: chunks as JSONL (export, and your own chunker's back);
* :mod:`~raglab_core.corpus.evaluate`: one configuration, measured end to end;
* :mod:`~raglab_core.corpus.sweep`: several configurations, each compared with a baseline (the JSON report);
* :mod:`~raglab_core.corpus.sanity`: the warnings on a sweep, said before any conclusion;
* :mod:`~raglab_core.corpus.chunks_command`: the ``chunks`` command;
* the «Tu corpus» panel: its session (:mod:`~raglab_core.corpus.session`: the files read in the worker,
  measured and compared) and its view (:mod:`~raglab_core.corpus.panel`: the table, the plot, the readings).

It imports the kernel and :mod:`raglab_core.runs` (its readers, its evaluator and statistics, the
panels' session base), never :mod:`raglab_core.lab`.

>>> from raglab_core.corpus import tokens
>>> tokens.tokenize("Hola, RAG.")
[('hola', 0, 4), ('rag', 6, 9)]
"""
