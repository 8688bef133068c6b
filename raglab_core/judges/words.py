"""The judging page's words, in Spanish: the grade scales with their definitions, the progress sentences, the notes
on a document shown in part, and the errors of a job file that cannot be continued.

The graded scale is TREC Deep Learning's (N. Craswell et al., "Overview of the TREC 2019 Deep Learning Track",
2020, §3: *perfectly relevant*, *highly relevant*, *related*, *irrelevant*), its definitions put into Spanish; the
binary one keeps relevant and not relevant.

>>> [label for _, label, _ in SCALES[4]]
['Irrelevante', 'Relacionado', 'Muy relevante', 'Perfectamente relevante']
>>> progress_text(12, 40, 3, 10, 2, 4)
'12 de 40 juzgados · consulta 3 de 10: 2 de 4'
>>> time_text(59), time_text(150), time_text(3720)
('menos de 1 min', '2 min', '1 h 2 min')
"""

from ..formatting import integer

SCALES = {
    4: (
        (0, "Irrelevante", "El texto no tiene nada que ver con la consulta."),
        (1, "Relacionado", "El texto trata del tema de la consulta, pero no la responde."),
        (2, "Muy relevante", "El texto responde a la consulta, aunque la respuesta puede ser poco clara o quedar "
            "escondida entre información ajena."),
        (3, "Perfectamente relevante", "El texto se dedica a la consulta y contiene la respuesta exacta."),
    ),
    2: (
        (0, "No relevante", "El texto no responde a la consulta, ni siquiera en parte."),
        (1, "Relevante", "El texto responde a la consulta, del todo o en parte."),
    ),
}
"""Each scale's grades, lowest first: ``(grade, label, definition)``; the key is the number of grades."""


def progress_text(done: int, total: int, query: int, queries: int, query_done: int, query_total: int) -> str:
    """«12 de 40 juzgados · consulta 3 de 10: 2 de 4»: the pairs graded of the job's, then the query's place and
    its pairs graded."""
    return (f"{integer(done)} de {integer(total)} juzgados · consulta {integer(query)} de {integer(queries)}: "
            f"{integer(query_done)} de {integer(query_total)}")


def job_progress_text(done: int, total: int) -> str:
    """«12 de 40 juzgados», or «Terminado: 40 de 40 juzgados».

    >>> job_progress_text(40, 40)
    'Terminado: 40 de 40 juzgados'
    """
    text = f"{integer(done)} de {integer(total)} juzgados"
    return f"Terminado: {text}" if done == total else text


def time_text(seconds: float) -> str:
    """The time spent judging, in whole minutes: «menos de 1 min», «12 min», «1 h 5 min»."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return "menos de 1 min"
    hours, minutes = divmod(minutes, 60)
    return f"{integer(hours)} h {minutes} min" if hours else f"{minutes} min"


def shortened_note(shown: int, total: int) -> str:
    """The note under a document shown in part.

    >>> shortened_note(50000, 1048576).replace("\\xa0", " ")
    'Se muestran los primeros 50 000 caracteres de 1 048 576. El documento entero sigue en el corpus, y es el que juzgas.'
    """
    return (f"Se muestran los primeros {integer(shown)} caracteres de {integer(total)}. El documento entero sigue "
            "en el corpus, y es el que juzgas.")


def display_line(*parts: str) -> str:
    """One line of the judging page made of ``parts`` (the empty ones left out), joined by « · » as the progress
    sentences are: the progress and its time, a grade and its label, a job's files, progress and time.

    >>> display_line("3", "Perfectamente relevante"), display_line("runs.txt", "", "2 min")
    ('3 · Perfectamente relevante', 'runs.txt · 2 min')
    """
    return " · ".join(part for part in parts if part)


MISSING_QUERY = "Esta consulta no está en el fichero de consultas: juzga el documento por su identificador o sáltalo."
MISSING_DOCUMENT = "Este documento no está en el corpus: no hay texto que mostrar."

# the errors of a job's JSON (import_json): each names the field
NOT_JSON = "El fichero no es JSON válido (línea {line}, columna {column})."
NOT_A_JOB = "El fichero no es un trabajo de juicios de raglab: le falta «format»: «raglab-judging»."
WRONG_VERSION = "La versión {found} del formato no se puede leer aquí; esta página lee la versión {version}."
BAD_FIELD = "El campo «{field}» {requirement}."
REQUIREMENTS = {
    "object": "debe ser un objeto JSON",
    "text": "debe ser un texto no vacío",
    "count": "debe ser un entero mayor o igual que 1, o null",
    "integer": "debe ser un número entero",
    "scale": "debe ser 4 (grados 0 a 3) o 2 (grados 0 y 1)",
    "pairs": "debe ser una lista no vacía de pares [consulta, documento], cada identificador un texto sin espacios",
    "repeated": "repite el par {pair}",
    "grade_key": "nombra el par {pair}, que no está en «pairs»",
    "grade": "debe ser un grado de la escala (0 a {top}) o null",
    "at": "debe ser un instante en milisegundos desde 1970 (un entero mayor o igual que 0)",
}
