"""The command line as a reader calls it, run in the test's own process (not a test module): its ``main``, with
what it prints on stdout captured. A subprocess would cost a Python start and raglab_core's import at every call
(about 0.3–0.5 s on the test machine); tests/core/runs/test_cli.py runs ``python -m raglab_core`` itself."""

import contextlib
import io

from raglab_core.__main__ import main


def cli(*args) -> str:
    """What ``python -m raglab_core ARGS`` prints on stdout; it must succeed (exit status 0)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main([str(arg) for arg in args])
    assert status == 0, (args, status)
    return out.getvalue()
