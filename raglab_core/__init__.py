"""raglab_core: the exact, dependency-free core of the Laboratorio de recuperación RAG.

Every number and sentence the page shows comes from :func:`compute`, run at
build time (CPython), in the browser (Pyodide, in a Web Worker) and in tests.

The package has three layers (DESIGN §2):

- the kernel, here: :mod:`.metrics`, :mod:`.chunking`, :mod:`.evidence`, :mod:`.errors`,
  :mod:`.formatting`, :mod:`.checks` and :mod:`.words`, which both domains use, and the edges:
  the command line (:mod:`.__main__`, with :mod:`.command_line`) and the Pyodide bridge (:mod:`.browser`);
- :mod:`.lab`, the teaching page's view (:func:`compute`);
- :mod:`.runs`, your own qrels and runs («Tus datos» and ``eval``).

>>> from raglab_core import metrics, chunking, compute, LabError
>>> metrics.precision_at_k([2, 0, 1], k=2, threshold=1)
0.5
"""

from . import chunking, evidence, metrics
from .errors import LabError
from .lab import compute

__all__ = ["LabError", "chunking", "compute", "evidence", "metrics"]
__version__ = "0.1.0"
