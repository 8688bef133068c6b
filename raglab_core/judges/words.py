"""The judges' words, in Spanish: everything the judging page (``dist/juzgar/``) and «¿Te fías de tus juicios?»'s
session say that is not a warning (those are :mod:`raglab_core.warning_messages`'), in one home.

- the grade scales with their definitions (:data:`SCALES`), the progress sentences (:func:`progress_text`,
  :func:`job_progress_text`, :func:`time_text`) and the notes on a pair (:func:`shortened_note`,
  :data:`MISSING_QUERY`, :data:`MISSING_DOCUMENT`, :data:`NO_SUCH_PAIR`);
- the errors of a job file that cannot be continued (:data:`BAD_FIELD`, :data:`REQUIREMENTS`, …);
- the judging session's settings and refusals (:data:`SETTING_LABELS`, :data:`NEED_PAIRS`, …), its status lines
  (:func:`reading`, :func:`missing_texts`) and the texts its script shows (:func:`page_words`, put in the page at
  build time);
- the agreement session's (:data:`JUDGE_NAME`, :data:`QRELS_FIRST`).

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
from ..runs.inputs import SLOTS
from ..words import megabytes

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
NO_SUCH_PAIR = "No hay ningún par {index} en este trabajo."

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


# --- the judging session: its settings, its refusals, its status lines ---------------------------------

NOT_A_REQUEST = "La petición debe ser un objeto JSON."
SETTING_LABELS = {"depth": "La profundidad", "sample": "La muestra", "seed": "La semilla"}
"""Each number setting of a judging job as the sentence that refuses it names it."""


def input_subjects() -> dict:
    """Each input of a judging job as the sentence that refuses it, too big, names it: ``{input: (subject, verb)}``
    (:meth:`raglab_core.runs.stream.StreamSession.check_sizes`).

    >>> input_subjects()["B"], input_subjects()["qrels"]
    (('El run B', 'ocupa'), ('Los qrels', 'ocupan'))
    """
    return {**{slot: (f"El run {slot}", "ocupa") for slot in SLOTS}, "pool": ("El fichero de pool", "ocupa"),
            "job": ("El trabajo exportado", "ocupa"), "qrels": ("Los qrels", "ocupan"),
            "judge": ("Los qrels del modelo", "ocupan"), "queries": ("Las consultas", "ocupan"),
            "corpus": ("El corpus", "ocupa")}
NEED_PAIRS = ("Faltan los pares que juzgar: elige uno o más runs, un fichero de pool, los qrels de un modelo "
              "o un trabajo exportado (JSON).")
NEED_QUERIES = "Faltan las consultas: elige un queries.jsonl o un TSV id<TAB>texto."
NEED_CORPUS = "Falta el corpus: elige un corpus.jsonl o ficheros .txt/.md."
NO_PAIRS = "No queda ningún par que juzgar: todos los pares del pool ya tienen juicio en los qrels que elegiste."


def reading(name: str, done: int | None = None, size: int | None = None) -> str:
    """The status line while file ``name`` is read.

    >>> reading("corpus.jsonl", 1_500_000, 50_000_000).replace("\\u00a0", " ")
    'Leyendo «corpus.jsonl» (1,5 de 50,0 MB)…'
    """
    if done is None or not size:
        return f"Leyendo «{name}»…"
    return f"Leyendo «{name}» ({megabytes(done)} de {megabytes(size)}\u00a0MB)…"


def missing_texts(missing: int, total: int) -> str:
    """The note when the queries or the corpus lack the texts of some pairs.

    >>> missing_texts(1, 20)
    'A 1 de los 20 pares le falta el texto de la consulta o del documento: se muestran vacíos.'
    """
    verb = "le falta" if missing == 1 else "les falta"
    return f"A {integer(missing)} de los {integer(total)} pares {verb} el texto de la consulta o del documento: se muestran vacíos."


def page_words() -> dict:
    """The sentences juzgar.js shows, by name (the build puts them in the page's configuration)."""
    return {
        "loading": "Cargando Python en tu navegador…",
        "ready": "Listo: elige tus ficheros o prueba el trabajo de ejemplo.",
        "boot_failed": "No se pudo cargar Python en este navegador; los juicios guardados siguen aquí y puedes exportarlos.",
        "storage_failed": ("Este navegador no deja guardar datos (modo privado o sin espacio): tus juicios se guardan "
                           "solo en la memoria de esta pestaña y se pierden al cerrarla. Exporta los qrels o el JSON "
                           "antes de salir."),
        "storage_full": ("No queda espacio para guardar más juicios en este navegador: los nuevos se guardan solo en "
                         "memoria. Exporta los qrels o el JSON antes de salir."),
        "saved": "Guardado: {grade}. {progress}",
        "undone": "Deshecho el juicio de este par. {progress}",
        "other_tab": "Otra pestaña guardó un juicio de este trabajo.",
        "delete_confirm": "¿Borrar este trabajo y todos sus juicios? No se puede deshacer.",
        "deleted": "Trabajo borrado.",
        "cancelled": "Lectura cancelada.",
        "imported": "Trabajo importado: sigue donde lo dejaste.",
        "finished": "Has juzgado todos los pares. Exporta los qrels o evalúa tus runs con ellos.",
        "no_jobs": "Aún no hay trabajos guardados en este navegador.",
        "resume": "Seguir",
        "delete": "Borrar",
        "sample_loading": "Preparando el trabajo de ejemplo…",
    }


# --- «¿Te fías de tus juicios?»'s session ----------------------------------------------------------------

JUDGE_NAME = "juicios"
"""The judge's qrels' name when the page gives none."""
QRELS_FIRST = "Lee primero los qrels y después los runs, en orden."
