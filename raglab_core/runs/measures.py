"""The measures «Tus datos» and ``eval`` compute: one registry, and their names in ir_measures' notation.

As in ir_measures [2]_, what a measure *is* is kept apart from how a run is
evaluated: each family is declared once, with :func:`register`, by

* its name, the aliases ir_measures also accepts, the parameters it takes
  (``rel``: the minimum relevant grade; ``dcg``: nDCG's gain) and whether it
  needs a cut-off;
* its fast function: :mod:`raglab_core.metrics`' unchecked function that holds
  its formula, whose docstring gives the formula and its source;
* whether it is undefined for a query with no relevant judgment (the sanity
  warning ``queries_without_relevant`` reads this, :mod:`raglab_core.runs.sanity`);
* its text in the supported-measures help (:data:`SUPPORTED`).

The parser (:func:`parse_measure`), the evaluator
(:class:`raglab_core.runs.evaluation.RunEvaluator`, through
:meth:`Measure.value`), the sanity warnings and the help all read
:data:`FAMILIES`. Adding a measure means adding one :func:`register` call.

References
----------
.. [1] NIST, *trec_eval*, https://github.com/usnistgov/trec_eval
.. [2] S. MacAvaney, C. Macdonald and I. Ounis, "Streamlining Evaluation with
   ir-measures", ECIR 2022 (notation, and the ``Judged`` measure).
.. [3] N. Thakur et al., "BEIR: A Heterogeneous Benchmark for Zero-shot
   Evaluation of Information Retrieval Models", NeurIPS 2021 (``R_cap``).
"""

import re
from collections.abc import Callable
from typing import NamedTuple

from .. import metrics
from ..errors import LabError
from ..metrics import (
    average_precision,
    judged_share,
    ndcg,
    precision,
    recall,
    recall_cap,
    reciprocal_rank,
    relevant,
    success,
)


class Family(NamedTuple):
    """One measure family as the registry declares it.

    ``score(grades, k, rel, dcg, judgments)`` is its fast function (see :meth:`Measure.value` for the
    arguments); ``undefined_without_relevant``: its value is ``None`` for a query with no judged
    document at grade ``rel`` or more; ``supported``: how the supported-measures help lists it.
    """

    name: str
    params: tuple
    cutoff_required: bool
    aliases: tuple
    score: Callable
    undefined_without_relevant: bool
    supported: str


FAMILIES: dict = {}
"""The registry: family name -> :class:`Family`, in the order the help lists them."""


def register(name, *, params, cutoff_required, aliases, score, undefined_without_relevant, supported) -> Family:
    """Declare a measure family (once): what :func:`parse_measure`, the evaluator, the sanity warnings and the
    help know of it."""
    if name in FAMILIES:
        raise ValueError(f"measure family {name!r} is registered twice")
    family = Family(name=name, params=tuple(params), cutoff_required=cutoff_required, aliases=tuple(aliases),
                    score=score, undefined_without_relevant=undefined_without_relevant, supported=supported)
    FAMILIES[name] = family
    return family


register("P", params=("rel",), cutoff_required=True, aliases=("Precision",),
         score=lambda grades, k, rel, dcg, judgments: precision(grades, k, rel),
         undefined_without_relevant=False, supported="P@k, P(rel=r)@k")
register("R", params=("rel",), cutoff_required=True, aliases=("Recall",),
         score=lambda grades, k, rel, dcg, judgments: recall(grades, k, rel, relevant(judgments, rel)),
         undefined_without_relevant=True, supported="R@k")
register("RR", params=("rel",), cutoff_required=False, aliases=("MRR",),
         score=lambda grades, k, rel, dcg, judgments: reciprocal_rank(grades, k, rel),
         undefined_without_relevant=False, supported="RR, RR@k")
register("AP", params=("rel",), cutoff_required=False, aliases=("MAP",),
         score=lambda grades, k, rel, dcg, judgments: average_precision(grades, k, rel, relevant(judgments, rel)),
         undefined_without_relevant=True, supported="AP, AP@k")
register("Success", params=("rel",), cutoff_required=True, aliases=(),
         score=lambda grades, k, rel, dcg, judgments: success(grades, k, rel),
         undefined_without_relevant=False, supported="Success@k")
register("Judged", params=(), cutoff_required=False, aliases=(),
         score=lambda grades, k, rel, dcg, judgments: judged_share(grades[:k]),
         undefined_without_relevant=False, supported="Judged@k")
# nDCG takes no rel: it is undefined when no judgment has a positive grade, which is rel = 1.
register("nDCG", params=("dcg",), cutoff_required=False, aliases=("NDCG",),
         score=lambda grades, k, rel, dcg, judgments: ndcg(grades, k, judgments, dcg),
         undefined_without_relevant=True, supported="nDCG, nDCG@k, nDCG(dcg='exp-log2')@k")
register("R_cap", params=("rel",), cutoff_required=True, aliases=(),  # BEIR's; not in ir_measures
         score=lambda grades, k, rel, dcg, judgments: recall_cap(grades, k, rel, relevant(judgments, rel)),
         undefined_without_relevant=True, supported="R_cap@k")

SUPPORTED = ", ".join(family.supported for family in FAMILIES.values())
"""What :func:`parse_measure` accepts, as errors list it (``rel=`` also for R, RR, AP and Success)."""
DEFAULT_MEASURES = "nDCG@10 R@100 RR@10 Success@10 AP@100 Judged@10"
"""The measures reported when none are asked for (the CLI and the «Tus datos» panel)."""
MAX_CUTOFF = 1_000_000
_NAME = re.compile(r"([A-Za-z]+(?:_cap)?)(?:\((.*)\))?(?:@([0-9]+))?")
_ALIASES = {alias: family.name for family in FAMILIES.values() for alias in (family.name, *family.aliases)}


class Measure(NamedTuple):
    """One measure: ``family`` (a key of :data:`FAMILIES`), ``cutoff`` (``None``: the whole ranking),
    ``rel`` (minimum relevant grade) and ``dcg`` (nDCG's gain). ``str()`` is ir_measures' name.

    >>> str(Measure("P", 5, rel=2)), str(Measure("nDCG", 10, dcg="exp-log2")), str(Measure("RR", None))
    ('P(rel=2)@5', "nDCG(dcg='exp-log2')@10", 'RR')
    """

    family: str
    cutoff: int | None
    rel: int = 1
    dcg: str = "log2"

    def __str__(self):
        param = ""
        if self.rel != 1:
            param = f"(rel={self.rel})"
        elif self.dcg != "log2":
            param = f"(dcg='{self.dcg}')"
        return self.family + param + ("" if self.cutoff is None else f"@{self.cutoff}")

    @property
    def undefined_without_relevant(self) -> bool:
        """Whether this measure is ``None`` for a query with no judged document at grade ``rel`` or more.

        >>> [Measure(f, 10).undefined_without_relevant for f in ("P", "R", "R_cap", "nDCG")]
        [False, True, True, True]
        """
        return FAMILIES[self.family].undefined_without_relevant

    def value(self, grades, judgments):
        """This measure of one query: ``grades`` the judged grade of each ranked document, rank 1 first,
        ``None`` when unjudged (at least the first ``cutoff``; all of them when ``cutoff`` is None),
        ``judgments`` every grade the qrels hold for the query (for the number of relevant documents
        and the ideal DCG). Each formula is :mod:`raglab_core.metrics`' unchecked fast path.

        >>> [Measure(f, 2).value([2, None, 1], [2, 1, 1, 0]) for f in ("P", "R", "R_cap", "RR", "AP", "Success", "Judged")]
        [0.5, 0.3333333333333333, 0.5, 1.0, 0.3333333333333333, 1.0, 0.5]
        """
        return FAMILIES[self.family].score(grades, self.cutoff, self.rel, self.dcg, judgments)


def parse_measure(text: str) -> Measure:
    """A measure from its ir_measures name; ``LabError("measure_unknown")`` listing :data:`SUPPORTED` otherwise.

    >>> parse_measure("P(rel=2)@5"), str(parse_measure("MRR@10"))
    (Measure(family='P', cutoff=5, rel=2, dcg='log2'), 'RR@10')
    >>> parse_measure("ERR@10")
    Traceback (most recent call last):
      ...
    raglab_core.errors.LabError: Medida no admitida: «ERR@10». Se admiten: P@k, P(rel=r)@k, R@k, RR, RR@k, AP, AP@k, Success@k, Judged@k, nDCG, nDCG@k, nDCG(dcg='exp-log2')@k, R_cap@k.
    """
    match = _NAME.fullmatch(text.strip())
    family = _ALIASES.get(match.group(1)) if match else None
    if family is None:
        raise LabError("measure_unknown", field="measures", name=text, supported=SUPPORTED)
    params, cutoff_required = FAMILIES[family].params, FAMILIES[family].cutoff_required
    values = {}
    for item in [] if match.group(2) is None else match.group(2).split(","):
        key, equals, raw = (part.strip() for part in item.partition("="))
        if not equals or key not in params or key in values:
            raise LabError("measure_unknown", field="measures", name=text, supported=SUPPORTED)
        values[key] = raw
    rel, dcg = 1, "log2"
    if "rel" in values:
        if not (values["rel"].isascii() and values["rel"].isdigit() and 1 <= int(values["rel"]) <= 1000):
            raise LabError("measure_param", field="measures", name=text, param="rel", allowed="1, 2, 3, …")
        rel = int(values["rel"])
    if "dcg" in values:
        dcg = values["dcg"].strip("'\"")
        if dcg not in metrics.GAINS or values["dcg"][:1] != values["dcg"][-1:] or values["dcg"][:1] not in "'\"":
            raise LabError("measure_param", field="measures", name=text, param="dcg", allowed="'log2', 'exp-log2'")
    cutoff = None if match.group(3) is None else int(match.group(3))
    if cutoff is not None and not 1 <= cutoff <= MAX_CUTOFF:
        raise LabError("measure_cutoff", field="measures", name=text, maximum=MAX_CUTOFF)
    if cutoff is None and cutoff_required:
        raise LabError("measure_needs_cutoff", field="measures", name=text, family=family)
    return Measure(family, cutoff, rel, dcg)


def parse_measures(text) -> list:
    """Measures from names separated by spaces or commas (outside parentheses), repeats dropped.

    ``text`` may also be a list of names. ``LabError("no_measures")`` when empty.

    >>> [str(m) for m in parse_measures("nDCG@10, P(rel=2)@5 nDCG@10 nDCG(dcg='exp-log2')@10")]
    ['nDCG@10', 'P(rel=2)@5', "nDCG(dcg='exp-log2')@10"]
    """
    names = text if isinstance(text, (list, tuple)) else re.findall(r"(?:\([^)]*\)|[^\s,(])+", str(text))
    measures, seen = [], set()
    for name in names:
        measure = name if isinstance(name, Measure) else parse_measure(name)
        if str(measure) not in seen:
            seen.add(str(measure))
            measures.append(measure)
    if not measures:
        raise LabError("no_measures", field="measures", supported=SUPPORTED)
    return measures


def lab_measures(k: int, umbral: int = 1, gain: str = "exp-log2") -> list:
    """The lab's four metrics in ir_measures' names: P, R, RR at ``rel=umbral`` and nDCG, all at ``k``.

    ``gain`` is a key of :data:`raglab_core.metrics.GAINS` or one of its aliases.

    >>> [str(m) for m in lab_measures(5, 2)], str(lab_measures(5, gain="linear")[3])
    (['P(rel=2)@5', 'R(rel=2)@5', 'RR(rel=2)@5', "nDCG(dcg='exp-log2')@5"], 'nDCG@5')
    """
    dcg = metrics.gain_name(gain)
    return [Measure("P", k, umbral), Measure("R", k, umbral), Measure("RR", k, umbral), Measure("nDCG", k, dcg=dcg)]
