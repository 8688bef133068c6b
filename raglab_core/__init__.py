"""raglab_core: the exact, dependency-free core of the Laboratorio de recuperación RAG.

Every number and sentence the page shows comes from :func:`compute`, run at
build time (CPython), in the browser (Pyodide, in a Web Worker) and in tests.

>>> from raglab_core import metrics, chunking, compute, LabError
>>> metrics.precision_at_k([2, 0, 1], k=2, threshold=1)
0.5
"""

from . import chunking, evidence, metrics
from .errors import LabError
from .lab import compute

__all__ = ["LabError", "chunking", "compute", "evidence", "metrics"]
__version__ = "0.1.0"
