"""Whole texts through the page's worker bridge (raglab_core.browser), as the worker streams files into it."""

import json

from raglab_core.browser import EvaluationBridge
from raglab_core.runs.inputs import SLOTS


def evaluate_texts(qrels: dict, runs: list, **settings) -> dict:
    """The «Tus datos» panel's answer (``{"ok": true, "panel"}`` or the failure), read: ``qrels`` and each of
    ``runs`` a ``{"name", "text"}``, streamed whole into an :class:`EvaluationBridge` with ``settings``
    (``measures``, ``ties``, …) as the page's request."""
    request = {**settings, "qrels": qrels["name"], "runs": [run["name"] for run in runs]}
    texts = {"qrels": qrels["text"], **{slot: run["text"] for slot, run in zip(SLOTS, runs)}}
    bridge = EvaluationBridge(json.dumps(request))
    while slot := bridge.next():
        bridge.feed(texts[slot], len(texts[slot]))
        bridge.end()
    return json.loads(bridge.finish())
