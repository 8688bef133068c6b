"""Tests of raglab_core: its kernel (the package's top-level modules), lab/, runs/ and corpus/, one folder each."""
