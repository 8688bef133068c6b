"""raglab_core: the exact, dependency-free core of the Laboratorio de recuperación RAG.

Every number and sentence the page shows comes from this package: the lab's from
:func:`compute`, the panels' from their domains, run at build time (CPython), in the
browser (Pyodide, in a Web Worker) and in tests.

The package is a kernel, domains over it, and edges (DESIGN §2; tests/core/test_layout.py
enforces which may import which):

- the kernel, here: :mod:`.metrics`, :mod:`.chunking`, :mod:`.evidence`, :mod:`.errors`,
  :mod:`.messages`, :mod:`.formatting`, :mod:`.checks` and :mod:`.words`, which every domain uses; it imports
  no domain;
- the domains: :mod:`.lab`, the teaching page's view (:func:`compute`); :mod:`.runs`, your own
  qrels and runs («Tus datos», ``eval`` and ``fuse``); :mod:`.corpus`, your own corpus chunked
  and measured («Tu corpus» and ``chunks``), the one domain that imports another (:mod:`.runs`).
  :mod:`.lab` and :mod:`.runs` import only the kernel, and no domain imports :mod:`.lab`;
- the edges, which may import every domain and which no domain imports: this module (the
  package's face), the command line (:mod:`.__main__`, with :mod:`.command_line`, what its
  commands share) and the Pyodide bridge (:mod:`.browser`).

>>> from raglab_core import metrics, chunking, compute, LabError
>>> metrics.precision_at_k([2, 0, 1], k=2, threshold=1)
0.5
"""

from . import chunking, evidence, metrics
from .errors import LabError
from .lab import compute

__all__ = ["LabError", "chunking", "compute", "evidence", "metrics"]
__version__ = "0.1.0"
