"""Judgments compared and made: how far a judge's qrels (a model's, say) agree with a reference's (people's), label
by label and system by system (DESIGN §4.12), and which pairs to judge and how the judging page judges them (§4.13).

* :mod:`~raglab_core.judges.labels`: the pairs compared and every label measure (confusion matrix, exact, Cohen's
  κ, weighted κ, Krippendorff's α, binary tables with PABAK and Gwet's AC1, bias, κ's bootstrap interval);
* :mod:`~raglab_core.judges.systems`: the runs' order under either qrels (Kendall's τ-b, τ_AP, Spearman's ρ) and
  the pairs of runs that flip;
* :mod:`~raglab_core.judges.agreement`: the report both edges give (``agree --json``), with its warnings;
* :mod:`~raglab_core.judges.agree_command`: the ``agree`` command;
* :mod:`~raglab_core.judges.agreement_session` and :mod:`~raglab_core.judges.panel`: «¿Te fías de tus juicios?»
  in «Tus datos» (the page's session, which reads a judge's qrels beside the reference's, and its view);
* :mod:`~raglab_core.judges.pooling`: which pairs to judge (depth-k pools, seeded and stratified samples,
  DESIGN §4.13), and :mod:`~raglab_core.judges.pool_command`, the ``pool`` command;
* the judging page's Python: :mod:`~raglab_core.judges.job` (a job in judging order, and its file read back),
  :mod:`~raglab_core.judges.grades` (the grades, two tabs' merged), :mod:`~raglab_core.judges.marking` (the
  query's words marked), :mod:`~raglab_core.judges.progress` (how far a job is, the time spent, where to resume),
  :mod:`~raglab_core.judges.pair_view` (what the page shows of a pair), :mod:`~raglab_core.judges.exports` (qrels,
  the job's file, the list of jobs) and :mod:`~raglab_core.judges.session` (the files read into a job), in the words
  of :mod:`~raglab_core.judges.words` and :mod:`~raglab_core.judges.page_texts`.

It imports the kernel, :mod:`raglab_core.runs` (its readers, evaluation, comparison and statistics) and
:mod:`raglab_core.corpus` (its tokens, and its readers of queries and documents), never :mod:`raglab_core.lab`
(tests/core/test_layout.py). The page adds both ``corpus`` and ``judges`` to the worker on first use
(:data:`raglab_core.browser.ON_FIRST_USE`).

>>> from raglab_core.judges import labels
>>> labels.kappa(labels.confusion([0, 1, 1, 0], [0, 1, 0, 0], 1, 1))
0.5
"""
