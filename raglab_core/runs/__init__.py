"""Your own qrels and runs: read them, evaluate them trec_eval-exactly, compare them, warn before concluding.

The command line and the page's «Tus datos» panel share every part:

- formats: :mod:`.trec` (TREC, BEIR TSV and JSON readers), :mod:`.decoding` (bytes to text, and
  what a file that is not UTF-8 looks like), :mod:`.inputs` (the read driver: files in, evaluations out);
- :mod:`.measures` (the one measure registry, ir_measures' names) and :mod:`.evaluation` (trec_eval's
  order, one query at a time);
- :mod:`.statistics` (randomization test, bootstrap, Holm), :mod:`.comparison` (two runs, query by
  query), :mod:`.report` (the JSON both edges print) and :mod:`.sanity` (the warnings said first);
- :mod:`.fusion` (ranx's fusion methods and normalisations) and :mod:`.overlap` (Jaccard@k and RBO
  between two runs, without judgments);
- :mod:`.stream`: what every panel's session shares with the page's worker (files streamed in, one at a
  time, with progress), for «Tus datos», «Tu corpus» and the panels to come.

The commands: :mod:`.eval_command` (``eval``) and :mod:`.fuse_command` (``fuse``). The «Tus datos» panel:
its session, :mod:`.session` (the files read in the worker, evaluated, compared), and its view,
:mod:`.panel`, with :mod:`.lettered` (three runs or more), :mod:`.fused` (its fused run) and
:mod:`.cells` (its numbers, raw and in Spanish).

It imports the kernel (:mod:`raglab_core.metrics`, :mod:`raglab_core.errors`, ...), never another
domain; :mod:`raglab_core.corpus` imports it.

>>> result = evaluate_run({"q1": {"a": 1, "b": 0}}, {"q1": {"a": 0.2, "b": 0.9}}, "P@1 RR")
>>> result.per_query["q1"]
(0.0, 0.5)
"""

from .evaluation import RunEvaluation, RunEvaluator, evaluate_run, trec_order
from .measures import DEFAULT_MEASURES, FAMILIES, Measure, parse_measure, parse_measures

__all__ = [
    "DEFAULT_MEASURES", "FAMILIES", "Measure", "RunEvaluation", "RunEvaluator", "evaluate_run", "parse_measure",
    "parse_measures", "trec_order",
]
