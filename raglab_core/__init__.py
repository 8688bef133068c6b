"""raglab_core: the exact, dependency-free core of the Laboratorio de recuperación RAG.

Every number and sentence the page shows comes from this package: the lab's from
:func:`compute`, the panels' from their domains, run at build time (CPython), in the
browser (Pyodide, in a Web Worker) and in tests.

The package is a kernel, domains over it, and edges (DESIGN §2; tests/core/test_layout.py
enforces which may import which):

- the kernel, here, which every domain uses and which imports no domain: :mod:`.metrics`, :mod:`.chunking`,
  :mod:`.evidence` (the formulas); :mod:`.checks` (arguments) and :mod:`.settings` (a panel's settings typed as
  text); :mod:`.errors`, :mod:`.messages` and :mod:`.warning_messages` (every code's message, in both languages),
  :mod:`.notices` (the one warning object); :mod:`.text_reader` (the base of every reader of a file's text);
  :mod:`.formatting` (Spanish numbers), :mod:`.words` (the page's own words) and :mod:`.readings` (the form
  of every panel's reading);
- the domains: :mod:`.lab`, the teaching page's view (:func:`compute`); :mod:`.runs`, your own
  qrels and runs («Tus datos», ``eval`` and ``fuse``); :mod:`.corpus`, your own corpus chunked
  and measured («Tu corpus» and ``chunks``), which imports :mod:`.runs`; :mod:`.judges`, judgments compared
  and made (``agree``, ``pool``, «¿Te fías de tus juicios?», the judging page), which imports :mod:`.runs`
  and :mod:`.corpus`. :mod:`.lab` and :mod:`.runs` import only the kernel, and no domain imports :mod:`.lab`;
- the edges, which may import every domain and which no domain imports: this module (the
  package's face), the command line (:mod:`.__main__`, with :mod:`.command_line`, what its
  commands share) and the Pyodide bridge (:mod:`.browser`, with :mod:`.warm_up_inputs`, the inputs its
  ``warm_up`` runs for the memory snapshot).

>>> from raglab_core import metrics, chunking, compute, LabError
>>> metrics.precision_at_k([2, 0, 1], k=2, threshold=1)
0.5
"""

from . import chunking, evidence, metrics
from .errors import LabError
from .lab import compute

__all__ = ["LabError", "chunking", "compute", "evidence", "metrics"]
__version__ = "0.1.0"
