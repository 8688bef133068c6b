"""Tests of raglab_core.runs: TREC files, the evaluator, comparison, fusion, overlap, the CLI and «Tus datos»."""
