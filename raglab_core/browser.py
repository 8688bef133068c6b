"""The bridge the page's Web Worker calls under Pyodide: JSON text in, JSON text out.

Keeping it here, in the core, means the worker holds no Python of its own and the
build-time memory snapshot (``snapshot.mjs``) captures exactly what the page runs.
"""

import json

from .errors import LabError
from .lab import compute


def compute_json(state_json: str) -> str:
    """``compute`` for the worker: ``{"ok": true, "view": …}`` or ``{"ok": false, "field", "message"}``.

    >>> json.loads(compute_json('{"scenario": null}'))["ok"]
    False
    """
    try:
        view = compute(json.loads(state_json))
    except (LabError, ValueError) as error:  # json.JSONDecodeError is a ValueError
        return json.dumps({"ok": False, "field": getattr(error, "field", None), "message": str(error)})
    return json.dumps({"ok": True, "view": view}, allow_nan=False)


def warm_up() -> int:
    """Import everything the page may run and exercise it once; return ``len(sys.modules)``.

    Called before a memory snapshot is taken: the snapshot-booted page gets no
    standard library archive, so every module it will ever need must already be
    imported (and so live in the snapshot's heap) at that point.

    >>> warm_up() > 0
    True
    """
    import importlib
    import pkgutil
    import sys

    import raglab_core

    for module in pkgutil.iter_modules(raglab_core.__path__):
        if module.name != "__main__":
            importlib.import_module(f"raglab_core.{module.name}")
    documents = [
        {"id": f"d{i}", "title": f"Documento {i}", "grade": i % 4, "first_stage_score": 1 - i / 10,
         "reranker_score": (i * 7 % 10) / 10}
        for i in range(10)
    ]
    scenario = {
        "query": "calentamiento",
        "grade_labels": ["0", "1", "2", "3"],
        "documents": documents,
        "defaults": {"k": 5, "umbral": 2, "rerank": 4, "total": 6, "docs": 100, "tokens_doc": 900,
                     "chunk": 256, "solape": 32},
    }
    for state in (
        {"scenario": scenario},
        {"scenario": scenario, "k": "x", "umbral": "1,5", "rerank": "1e3", "total": "", "docs": "-1",
         "tokens_doc": "٣", "chunk": "0x10", "solape": "999999", "grades": "9,a"},
        {"scenario": scenario, "grades": [0] * 10, "total": 0},
        {"scenario": None},
    ):
        json.loads(compute_json(json.dumps(state)))
    compute_json("not json")
    sample = {"qrels": {"name": "q", "text": "q1 0 a 2\nq1 0 b 1\nq2 0 c 1"},
              "runs": [{"name": "a", "text": "q1 Q0 a 1 0.9 x\nq2 Q0 c 1 0.2 x"},
                       {"name": "b", "text": '{"q1": {"b": 0.5, "a": 0.1}, "q2": {"d": 1}}'}],
              "k": 5, "umbral": 1}
    json.loads(evaluate_json(json.dumps(sample), progress=lambda fraction, text: None))
    evaluate_json(json.dumps({**sample, "qrels": {"name": "q", "text": "q1 Q0 a 1 0.5 x"}}))
    return len(sys.modules)


def evaluate_json(request_json: str, progress=None) -> str:
    """The «Tus datos» panel for the worker: ``{"ok": true, "panel": …}`` or ``{"ok": false, …}``.

    ``request_json``: ``{"qrels": {"name", "text"}, "runs": [{"name", "text"}, …], "k", "umbral"}``;
    ``progress(fraction, text)`` is called while reading long files.

    >>> json.loads(evaluate_json('{"qrels": {"name": "q", "text": ""}, "runs": [], "k": 5, "umbral": 1}'))["ok"]
    False
    """
    from .data_panel import evaluate_files

    try:
        request = json.loads(request_json)
        if not isinstance(request, dict):
            raise LabError.page("La petición debe ser un objeto JSON.")
        panel = evaluate_files(request.get("qrels"), request.get("runs"), request.get("k"), request.get("umbral"), progress)
    except (LabError, ValueError) as error:
        return json.dumps({"ok": False, "field": getattr(error, "field", None), "message": str(error)})
    return json.dumps({"ok": True, "panel": panel}, allow_nan=False)
