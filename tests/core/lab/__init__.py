"""Tests of raglab_core.lab: compute(), the lab's view, its readings and conventions."""
