"""Every sentence the judging page (``dist/juzgar/``) says that is not about one pair: its status lines,
its refusals, and the texts its script shows (:func:`page_words`, put in the page at build time).

The sentences about a pair (the grades' definitions, the progress) are :mod:`raglab_core.judges.words`'.
"""

from ..formatting import integer
from ..words import megabytes

NUMBER_SETTING = "{label} debe ser un número entero de {low} a {high}: «{value}» no lo es."
NEED_PAIRS = ("Faltan los pares que juzgar: elige uno o más runs, un fichero de pool, los qrels de un modelo "
              "o un trabajo exportado (JSON).")
NEED_QUERIES = "Faltan las consultas: elige un queries.jsonl o un TSV id<TAB>texto."
NEED_CORPUS = "Falta el corpus: elige un corpus.jsonl o ficheros .txt/.md."
TOO_BIG = "Este fichero ocupa {size} MB, más de lo que esta página lee ({limit} MB)."
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
