"""A warning on the data, the one kind every domain gives: its code, its raw parameters, and its words.

A :class:`Notice` is a stable snake_case ``code`` (a key of :data:`raglab_core.warning_messages.WARNINGS`, or
one of its variants) and the raw ``params`` its message is worded from. Warnings about a run or a
configuration carry it as their first parameter, ``run`` (``None``: about the qrels or the corpus). It is the
same object wherever it is made: the runs' sanity warnings (:mod:`raglab_core.runs.sanity`), the chunking
sweep's (:mod:`raglab_core.corpus.sanity`), the agreement's (:mod:`raglab_core.judges.agreement`) and the
pool's (:mod:`raglab_core.judges.pooling`).

:meth:`Notice.render` words it in English (the command line) or Spanish (the page), each number as that
language writes it (:func:`worded`); :meth:`Notice.as_json` is what ``eval --json``, ``chunks --json`` and
``agree --json`` print (``{"code", "message" (English), …params}``, DESIGN §4.6, §4.9, §4.12), and
:func:`from_json` takes one back, so that a panel words a report's warnings in Spanish.

>>> notice = Notice("base_rate_high", {"side": "judge", "rate": 1.0, "limit": 0.9})
>>> notice.render("en")[:60]
'At grade >= 1, the judge calls 100.0 % of the pairs relevant'
>>> notice.render("es")[:60].replace("\\xa0", " ")
'Con el umbral en el grado 1, el juez considera relevante el '
>>> from_json(notice.as_json()) == notice
True
"""

from typing import NamedTuple

from .errors import message
from .formatting import decimal, integer, percent, spanish_list
from .warning_messages import LOW_JUDGED

EXAMPLES = 5
"""Query ids (or document ids) a warning gives as examples."""
RAW = ("count", "line")
"""Integers a message takes as they are: ``count`` (:func:`raglab_core.errors.message` writes it and chooses the
singular or the plural by it) and a line number (``line 12345``, never grouped)."""


def examples(ids, count, language):
    """The first :data:`EXAMPLES` of ``ids`` (of ``count`` in all), ``…`` when there are more: ``q1, q2`` in
    English, ``«q1», «q2»`` in Spanish.

    >>> examples(["q1", "q2", "q3", "q4", "q5", "q6"], 6, "en"), examples(["q1"], 1, "es")
    ('q1, q2, q3, q4, q5, …', '«q1»')
    """
    shown = [qid if language == "en" else f"«{qid}»" for qid in ids[:EXAMPLES]]
    return ", ".join(shown) + (", …" if count > len(shown) else "")


def _english_list(items):
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def worded(key: str, value, language: str):
    """One parameter as ``language`` writes it in a warning, by its name and type: ``side`` as the side's name;
    ``rate`` and ``fraction`` as a percentage with one decimal, ``limit`` with none; ``measures`` as a list;
    other floats with three decimals; other integers grouped as numbers are (but :data:`RAW`'s); text as it is.

    >>> worded("rate", 0.0512, "en"), worded("limit", 0.1, "es").replace("\\xa0", " "), worded("total", 12345, "en")
    ('5.1 %', '10 %', '12345')
    >>> worded("total", 12345, "es").replace("\\xa0", " "), worded("line", 12345, "es"), worded("mean", 0.25, "es")
    ('12 345', 12345, '0,250')
    >>> worded("side", "judge", "es"), worded("measures", ["P@10", "R@100"], "en")
    ('el juez', 'P@10 and R@100')
    """
    english = language == "en"
    if key == "side":
        return message(f"side_{value}", language)
    if key == "measures":
        return (_english_list if english else spanish_list)(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or key in RAW:
        return value
    if key in ("rate", "fraction", "limit"):
        places = 0 if key == "limit" else 1
        return f"{100 * value:.{places}f} %" if english else percent(value, places)
    if isinstance(value, float):
        return f"{value:.3f}" if english else decimal(value)
    return str(value) if english else integer(value)


def _shown_params(code: str, params: dict, language: str) -> dict:
    """The parameters renamed and written for the message: those a variant needs that the JSON does not carry."""
    params = dict(params)
    params.pop("complete", None)
    if code == "run_low_judged":  # Judged@10's limit, a number, not a share
        params["limit"] = f"{LOW_JUDGED}" if language == "en" else decimal(LOW_JUDGED, 1)
    if "examples" in params:
        params["examples"] = examples(params["examples"], params["count"], language)
    if "example" in params:  # the run's id, its query, and the qrels' id
        params["qid"], params["docid"], params["judged"] = params.pop("example")
    for key in ("deepest", "queries"):  # a run's largest depth; the queries a run shares with the qrels
        if key in params:
            params["count"] = params.pop(key)
    return {key: worded(key, value, language) for key, value in params.items()}


class Notice(NamedTuple):
    """One warning: its ``code`` and the raw ``params`` its message is worded from (``run`` first, for a warning
    about a run or a configuration)."""

    code: str
    params: dict

    @property
    def template(self) -> str:
        """The key of :data:`raglab_core.messages.MESSAGES` it is worded from: its code, or the variant its
        parameters call for (``…_all``, ``…_complete``, ``…_uniform``, ``pairs_one_side_intersect``, …).

        >>> Notice("run_shallow", {"run": "r", "typical": 20, "deepest": 20, "measures": ["R@100"]}).template
        'run_shallow_uniform'
        """
        code, params = self.code, self.params
        if code == "run_scores_tied" and params["count"] == params["total"]:  # "in every one of its …"
            return code + "_all"
        if code == "run_shallow" and params["deepest"] == params["typical"]:  # every query as deep
            return code + "_uniform"
        if params.get("complete"):  # queries missing from a run, scored 0
            return code + "_complete"
        if code == "pairs_one_side":
            return f"{code}_{params['missing']}"
        return code

    def render(self, language: str = "es") -> str:
        """The warning in ``"en"`` or ``"es"``: its :attr:`template`, filled with the parameters as the language
        writes them (:func:`worded`)."""
        return message(self.template, language, **_shown_params(self.code, self.params, language))

    def as_json(self) -> dict:
        """``{"code", "message" (English), …params}``, as the command line's JSON gives its warnings."""
        return {"code": self.code, "message": self.render("en"), **self.params}


def from_json(warning: dict) -> Notice:
    """The :class:`Notice` back from one of a JSON report's ``warnings`` (to word it in Spanish on the page).

    >>> notice = Notice("run_low_judged", {"run": "r.txt", "value": 0.25})
    >>> from_json(notice.as_json()) == notice, notice.render("es")[:38]
    (True, '«r.txt»: su Judged@10 medio es 0,250, ')
    """
    return Notice(warning["code"], {key: value for key, value in warning.items() if key not in ("code", "message")})
