"""Tests of raglab_core.corpus: reading a corpus, chunks, BM25, evidence measures, the sweep and «Tu corpus»."""
