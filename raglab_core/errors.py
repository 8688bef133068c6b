"""The one exception the core raises for bad input."""


class LabError(ValueError):
    """Invalid input to the lab, with the input's name and a Spanish message.

    ``field`` is the name of the offending input (a form-control name such as
    ``"solape"``, or an argument name such as ``"k"``), or ``None`` when the
    problem is not tied to one input. ``str(error)`` is the message, written in
    Spanish for the page, stating the requirement that was not met.

    >>> error = LabError("Debe ser menor que el tamaño del chunk.", field="solape")
    >>> error.field, str(error)
    ('solape', 'Debe ser menor que el tamaño del chunk.')
    """

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field
        self.message = message
