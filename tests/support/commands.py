"""The command line as a reader runs it, in a subprocess (not a test module)."""

import subprocess
import sys

from tests.conftest import ROOT


def cli(*args):
    return subprocess.run([sys.executable, "-m", "raglab_core", *map(str, args)],
                          capture_output=True, text=True, check=True, cwd=ROOT).stdout
