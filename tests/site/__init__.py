"""Tests of the generator: build.py and raglab_site (the build, its cache, export, snapshot, views, shipped scripts)."""
