"""The one exception the core raises for bad input, and how a message of the catalogue is put into words.

The core raises a :class:`LabError` with a *code* and its *parameters*, never
a sentence: the edges put it into words, the page in Spanish (``str(error)``,
``error.render("es")``) and the command line in English
(``error.render("en")``). This follows :class:`raglab_core.text_reader.Problem`,
whose ``render(language)`` does the same for file problems from the same catalogue
(:data:`raglab_core.messages.MESSAGES`, the only one: every bilingual message of the core is there).
"""

from .formatting import integer
from .messages import LANGUAGES, MESSAGES


def message(code: str, language: str = "es", **params) -> str:
    """The message ``code`` of :data:`MESSAGES` in ``language`` (``"en"`` or ``"es"``), filled from ``params``.

    A ``count`` parameter is written as the language writes numbers (in
    Spanish, grouped from five digits on), and chooses between a singular
    and a plural template when the message has both.

    >>> message("more_problems", "es", count=1), message("more_problems", "es", count=12345)
    ('… y 1 problema más.', '… y 12\xa0345 problemas más.')
    >>> message("more_problems", "en", count=12345)
    '… and 12345 more'
    """
    templates = MESSAGES[code]
    if isinstance(templates[0], tuple):  # (singular, plural)
        templates = templates[params.get("count") != 1]
    if "count" in params and language == "es":
        params = {**params, "count": integer(params["count"])}
    return templates[LANGUAGES.index(language)].format(**params)


class LabError(ValueError):
    """Invalid input, with the input's name, a message code and the message's parameters.

    ``field`` is the name of the offending input (a form-control name such as
    ``"solape"``, or an argument name such as ``"k"``), or ``None`` when the
    problem is not tied to one input. ``code`` names the message (a key of
    :data:`MESSAGES`) and ``params`` fill it. :meth:`render` words it in
    ``"en"`` or ``"es"``; ``str(error)`` is the Spanish, as the page shows it,
    stating the requirement that was not met.

    >>> error = LabError("overlap_not_below_chunk", field="solape")
    >>> error.field, str(error), error.render("en")
    ('solape', 'Debe ser menor que el tamaño del chunk.', 'Must be less than the chunk size.')
    >>> LabError("below_minimum", field="k", name="k", minimum=1).render("en")
    'k must be an integer greater than or equal to 1.'
    """

    def __init__(self, code: str, field: str | None = None, **params):
        self.code = code
        self.field = field
        self.params = params
        super().__init__(self.render("es"))

    @classmethod
    def page(cls, text: str, field: str | None = None) -> "LabError":
        """An error about the page's own inputs, whose message ``text`` is written in Spanish only.

        >>> str(LabError.page("Elige uno o dos runs.", field="run"))
        'Elige uno o dos runs.'
        """
        return cls("page", field, text=text)

    @property
    def message(self) -> str:
        """The Spanish message (``str(error)``)."""
        return str(self)

    def render(self, language: str = "es") -> str:
        """The message in ``language``: ``"en"`` or ``"es"``."""
        return message(self.code, language, **self.params)
