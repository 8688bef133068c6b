"""Tests of raglab_core's kernel: its top-level modules (metrics, chunking, evidence, errors, formatting, words...)."""
