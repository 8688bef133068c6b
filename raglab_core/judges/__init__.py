"""Judgments compared: how far a judge's qrels (a model's, say) agree with a reference's (people's), label by label
and system by system (DESIGN §4.12).

* :mod:`~raglab_core.judges.labels`: the pairs compared and every label measure (confusion matrix, exact, Cohen's
  κ, weighted κ, Krippendorff's α, binary tables with PABAK and Gwet's AC1, bias, κ's bootstrap interval);
* :mod:`~raglab_core.judges.systems`: the runs' order under either qrels (Kendall's τ-b, τ_AP, Spearman's ρ) and
  the pairs of runs that flip;
* :mod:`~raglab_core.judges.agreement`: the report both edges give (``agree --json``), with its warnings;
* :mod:`~raglab_core.judges.agree_command`: the ``agree`` command;
* :mod:`~raglab_core.judges.agreement_session` and :mod:`~raglab_core.judges.panel`: «¿Te fías de tus juicios?»
  in «Tus datos» (the page's session, which reads a judge's qrels beside the reference's, and its view).

It imports the kernel and :mod:`raglab_core.runs` (its readers, evaluation, comparison and statistics), never
:mod:`raglab_core.lab`.

>>> from raglab_core.judges import labels
>>> labels.kappa(labels.confusion([0, 1, 1, 0], [0, 1, 0, 0], 1, 1))
0.5
"""
