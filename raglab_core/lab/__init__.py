"""The teaching page's view: the lab's controls, numbers, pictures and readings.

:func:`compute` (:mod:`.compute`) turns a state (the scenario and the controls' raw values) into the whole view the
page shows, every number and sentence of it; the modules below are its parts:

- :mod:`.form` (the table of controls and outputs), :mod:`.controls` (reading and settling them),
  :mod:`.scenario` (the judged documents);
- :mod:`.reranking`, :mod:`.breakdown` (the arithmetic under the ranking), :mod:`.strip` (the chunk
  windows drawn), :mod:`.conventions` (other libraries' definitions);
- :mod:`.ranking_reading` and :mod:`.chunking_reading`, the panels' Spanish sentences.

It imports the kernel (:mod:`raglab_core.metrics`, :mod:`raglab_core.chunking`,
:mod:`raglab_core.evidence`, ...), never another domain (:mod:`raglab_core.runs`,
:mod:`raglab_core.corpus`), and no domain imports it.

>>> view = compute(default_state({"query": "q", "grade_labels": ["0", "1", "2", "3"], "documents": [
...     {"id": f"d{i}", "title": f"Doc {i}", "grade": i % 4, "first_stage_score": 10 - i, "reranker_score": i}
...     for i in range(10)], "defaults": {"k": 3, "umbral": 1, "rerank": 0, "docs": 10, "tokens_doc": 100,
...     "chunk": 50, "solape": 0, "evidencia": 10}}))
>>> view["outputs"]["precision"]["text"]
'0,667'
"""

from . import conventions, form
from .compute import check_defaults, compute, default_state

__all__ = ["check_defaults", "compute", "conventions", "default_state", "form"]
