"""The page's own words: what it says about itself rather than about the reader's values, in Spanish.

One home for the sentences the page's scripts show, which must exist before Python runs, so the
build writes them into the page's configuration (``lab_config``, from :func:`page_texts`);
``boot.js``, ``worker.js``, ``lab.js``, ``data.js`` and ``corpus.js`` pick one and show it, and
format nothing themselves:

- :func:`status_texts`, the status line and live region of the lab (``lab_config.texts``);
- :func:`boot_texts` and :func:`worker_texts`, what the worker says while Python loads and when the
  page itself fails (``lab_config.workerTexts``), with the download's sizes (:func:`download_steps`,
  :func:`data_saver_notice`);
- :func:`data_panel_words` and :func:`corpus_panel_words`, the «Tus datos» and «Tu corpus» scripts' status
  sentences;
- the panels' progress sentences, which their sessions (:mod:`raglab_core.runs.session`,
  :mod:`raglab_core.corpus.session`) send with the progress bar's fraction: :func:`reading_progress`,
  :func:`fusion_progress` and the others of «Tus datos», :func:`corpus_reading_progress` and the others of
  «Tu corpus».

The sentences about the reader's values (readings, notes, warnings) live with what they read, in
:mod:`raglab_core.lab`, :mod:`raglab_core.runs` and :mod:`raglab_core.corpus`.
"""

from .formatting import decimal, integer


# --- the page's status line --------------------------------------------------------------


def status_texts() -> dict:
    """The sentences lab.js shows in the page's status line and live region, by name (``lab_config.texts``);
    those about Python's download, with its sizes, are :func:`boot_texts`' and :func:`download_steps`'.

    >>> status_texts()["reset"]
    'Valores del escenario restablecidos.'
    """
    ready = "Python está listo: los valores se recalculan en tu navegador."
    return {
        "loading": "Los valores mostrados se calcularon al publicar la página. Preparando Python en tu navegador…",
        "ready": ready,
        # Service workers need a secure context (HTTPS, or this machine's own address): elsewhere, as on
        # plain HTTP from a LAN address, the page still works but cannot be kept for offline use.
        "ready_without_offline": ready + " Sin HTTPS, esta página no queda guardada para usarla sin conexión.",
        "worker_stopped": "El cálculo en segundo plano se detuvo: ves los últimos valores calculados. Recarga la página.",
        "no_boot": "No se pudo cargar el arranque del cálculo (boot.js): ves el estado inicial. Recarga la página.",
        "from_file": (
            "Abriste el archivo directamente: ves el estado inicial calculado al publicar la página. "
            "Para mover los controles, sírvela desde un servidor web (por ejemplo, «make serve» "
            "o «python3 -m http.server» en la carpeta dist/)."
        ),
        "unsupported": "Este navegador no puede ejecutar Python (faltan Web Workers o WebAssembly): ves el estado inicial.",
        "no_worker": "No se pudo iniciar el cálculo en segundo plano: ves el estado inicial. Recarga la página.",
        "reset": "Valores del escenario restablecidos.",
        "copied": "Enlace copiado: pégalo para compartir este estado del laboratorio.",
        "not_copied": "No se pudo copiar el enlace: cópialo de la barra de direcciones.",
    }


# --- Python's download and boot --------------------------------------------------------------

TABLE_ANSWERS = "Los controles del ranking ya responden; Python termina de cargarse para el resto…"
"""The status line while the build-time view table answers the ranking's sliders and Python loads."""


def megabytes(n: int) -> str:
    """A byte count in megabytes (10⁶ bytes), one decimal: ``3_604_113 -> '3,6'``.

    >>> megabytes(3_604_113), megabytes(0), megabytes(12_345_678_901).replace("\\u00a0", " ")
    ('3,6', '0,0', '12 345,7')
    """
    return decimal(n / 1e6, 1)


def of_size(done: int, size: int) -> str:
    """How much of a ``size``-byte file is done, in megabytes, or in kilobytes (10³ bytes, no decimal)
    for a file under 0,1 MB, which megabytes would show as ``0,0 de 0,0 MB``.

    >>> of_size(1_500_000, 80_000_000), of_size(12_400, 40_100), of_size(0, 0)
    ('1,5 de 80,0 MB', '12 de 40 kB', '0 de 0 kB')
    """
    if size < 100_000:
        return f"{decimal(done / 1e3, 0)} de {decimal(size / 1e3, 0)} kB"
    return f"{megabytes(done)} de {megabytes(size)} MB"


def download_progress(received: int, total: int) -> str:
    """The status line while the snapshot downloads.

    >>> download_progress(1_200_000, 3_604_113)
    'Descargando el entorno de Python (1,2 de 3,6 MB)…'
    """
    return f"Descargando el entorno de Python ({of_size(received, total)})…"


def download_steps(total: int, steps: int = 20, start: float = 0.1, share: float = 0.6) -> list[list]:
    """``[bytes received, progress bar fraction, text]`` at each ``1/steps`` of a ``total``-byte
    download: the worker shows the last step its download has reached. The bar runs from ``start``
    to ``start + share`` over the download.

    >>> download_steps(3_000_000, steps=3)  # doctest: +NORMALIZE_WHITESPACE
    [[1000000, 0.3, 'Descargando el entorno de Python (1,0 de 3,0 MB)…'],
     [2000000, 0.5, 'Descargando el entorno de Python (2,0 de 3,0 MB)…'],
     [3000000, 0.7, 'Descargando el entorno de Python (3,0 de 3,0 MB)…']]
    >>> download_steps(0)
    []
    """
    if total <= 0:
        return []
    return [[total * i // steps, round(start + share * i / steps, 4), download_progress(total * i // steps, total)]
            for i in range(1, steps + 1)]


def data_saver_notice(runtime_bytes: int) -> str:
    """The status line when a data saver defers Python to the reader's first use of a control.

    >>> data_saver_notice(5_987_000)
    'Ahorro de datos activado: ves los valores calculados al publicar la página. Python (unos 6,0 MB) se descargará cuando uses un control.'
    """
    return ("Ahorro de datos activado: ves los valores calculados al publicar la página. "
            f"Python (unos {megabytes(runtime_bytes)} MB) se descargará cuando uses un control.")


WHAT_TO_DO = "Ves los valores calculados al publicar la página. Recarga la página; si el problema sigue, avisa a quien publica el sitio."
"""What a reader can do when Python could not load: said after each boot failure."""


def boot_texts() -> dict:
    """Every sentence the worker says while it loads Python, by name: its progress steps, what it
    recovered from, and each failure with :data:`WHAT_TO_DO`. They must exist before Python runs, so
    the build puts them in ``lab_config.workerTexts`` and ``boot.js`` hands them to the worker in its
    "boot-start" message (with :mod:`raglab_core.browser`'s own).

    >>> boot_texts()["wheel_failed"]
    'No se pudo descargar el núcleo de cálculo. Ves los valores calculados al publicar la página. Recarga la página; si el problema sigue, avisa a quien publica el sitio.'
    """
    failures = {
        "runtime_failed": "No se pudo descargar o iniciar Python (Pyodide) en tu navegador.",
        "wheel_failed": "No se pudo descargar el núcleo de cálculo.",
        "wheel_mismatch": "El núcleo de cálculo descargado no coincide con el publicado (falla su SHA-256), así que no se usa.",
        "boot_failed": "No se pudo preparar Python.",
    }
    return {
        # progress, in the order a boot shows them
        "runtime": "Descargando Python (WebAssembly)…",
        "snapshot_checked": "Descargando el entorno de Python…",  # no byte count where fetch() checks the digest
        "restoring": "Restaurando Python…",
        "plain_runtime": "Descargando e iniciando Python (WebAssembly)…",
        "wheel": "Descargando el núcleo de cálculo…",
        "installing": "Comprobando e instalando el núcleo de cálculo…",
        # recovered from: the slow boot follows
        "snapshot_discarded": (
            "La instantánea de Python descargada no superó la comprobación de integridad (SHA-256) y se "
            "descartó; Python se carga de la forma lenta."
        ),
        **{name: f"{text} {WHAT_TO_DO}" for name, text in failures.items()},
    }


INVALID_STATE = "Estado no válido: {message}"
"""How the page says that a state it was asked to compute is not valid (``{message}``: the reason)."""
INTERNAL_FAILURE = (
    "La página falló al calcular este estado (un error suyo, no de los valores que elegiste): ves los últimos "
    "valores correctos. Recarga la página; si vuelve a pasar, avisa a quien publica el sitio."
)
INTERNAL_EVALUATION_FAILURE = (
    "La página falló al evaluar (un error suyo, no de tus ficheros). Recarga la página; si vuelve a pasar, "
    "avisa a quien publica el sitio."
)


def worker_texts() -> dict:
    """Every sentence worker.js says, by name (the build's ``lab_config.workerTexts``, which reaches the worker
    in its "boot-start" message): the boot's (:func:`boot_texts`), and the page's own failure when Python fails
    without an answer (``compute_failed``, ``evaluate_failed``).

    >>> sorted(worker_texts())[:3]
    ['boot_failed', 'compute_failed', 'evaluate_failed']
    """
    return {**boot_texts(), "compute_failed": INTERNAL_FAILURE, "evaluate_failed": INTERNAL_EVALUATION_FAILURE}


# --- «Tus datos» ------------------------------------------------------------------------------

UNJUDGED_LABEL = "sin juicio"
"""How a document nobody judged is named, in the lab's grade select and in «Tus datos»' query detail."""
COMPLETE_LABEL = "Contar como 0 las consultas que falten"
"""The «Tus datos» checkbox that scores qrels queries missing from a run as 0 (``eval --complete``): its
label in the page, and how the warnings about missing queries name it (:mod:`raglab_core.errors`)."""


def data_panel_words() -> dict:
    """The «Tus datos» script's status sentences, by name (``{name}``: a file's name).

    >>> data_panel_words()["chosen_file"].format(name="run.txt")
    'Elegido: fichero «run.txt».'
    """
    return {
        "no_file": "Sin fichero.",
        "chosen_file": "Elegido: fichero «{name}».",
        "chosen_sample": "Elegido: ejemplo «{name}».",
        "chosen_text": "Elegido: texto pegado.",
        "pasted": {"qrels": "qrels (texto pegado)", "judge-qrels": "juicios a comparar (texto pegado)",
                   **{f"run-{letter}": f"run {letter.upper()} (texto pegado)" for letter in "abcdefghijkl"}},
        "stale": "Cambiaron los datos o las medidas: pulsa «Evaluar» para actualizar los resultados.",
        "missing": "Faltan datos: elige al menos los qrels y el run A.",
        "gap": "Falta el run {name}: elige los runs en orden, sin huecos, para que cada uno conserve su letra.",
        "no_python": "Python no está disponible en esta página (mira el aviso de arriba).",
        "loading_sample": "Cargando los datos de ejemplo…",
        "sample_failed": "No se pudieron cargar los datos de ejemplo. Recarga la página.",
        "preparing": "Preparando Python para evaluar…",
        "done": "Evaluación terminada.",
        "failed": "La evaluación no terminó: el motivo está debajo.",
        "fusion_failed": "La fusión no se hizo (el motivo está debajo); sin ella, «Evaluar» evalúa los runs.",
        "fuse_too_few": "Para fusionar hacen falta al menos dos runs elegidos.",
        "fuse_unchecked": "Marca al menos dos de los runs que se fusionan.",
        "cancelled": "Evaluación cancelada.",
        "cancelled_kept": "Evaluación cancelada: siguen los resultados anteriores.",
        "previous": "Resultados anteriores: la nueva evaluación se canceló. Se ven como estaban; para ordenar la "
                    "tabla, abrir una consulta, comparar otro par o descargar, vuelve a pulsar «Evaluar».",
        "stopped": "El cálculo se detuvo. Vuelve a pulsar «Evaluar».",
    }


def corpus_panel_words() -> dict:
    """The «Tu corpus» script's status sentences, by name (``{name}``: a file's name, ``{count}``: files).

    >>> corpus_panel_words()["chosen_files"].format(count=3)
    'Elegidos: 3 ficheros.'
    """
    return {
        "no_file": "Sin fichero.",
        "chosen_file": "Elegido: fichero «{name}».",
        "chosen_files": "Elegidos: {count} ficheros.",
        "chosen_sample": "Elegido: ejemplo «{name}».",
        "loading_sample": "Cargando los datos de ejemplo…",
        "sample_failed": "No se pudieron cargar los datos de ejemplo. Recarga la página.",
        "preparing": "Preparando Python para medir…",
        "missing": "Faltan datos: elige al menos el corpus y la evidencia (fragmentos o qrels de documentos).",
        "no_python": "Python no está disponible en esta página (mira el aviso de arriba).",
        "measuring": "Midiendo… Las filas aparecen según termina cada configuración.",
        "done": "Medición terminada.",
        "failed": "La medición no terminó: el motivo está debajo.",
        "cancelled": "Medición cancelada.",
        "cancelled_kept": "Medición cancelada: siguen los resultados anteriores.",
        "previous": "Resultados anteriores: la nueva medición se canceló. Se ven como estaban; para abrir una "
                    "consulta o descargar, vuelve a pulsar «Medir».",
        "stopped": "El cálculo se detuvo. Vuelve a pulsar «Medir».",
        "stale": "Cambiaron los datos o los ajustes: pulsa «Medir» para actualizar los resultados.",
        # The chunking panel's link: its configuration joins the sweep as the baseline, and the page says so.
        "carried": "Añadida la configuración {name} del panel de chunking, como línea base: cada configuración se "
                   "compara con ella (cámbiala en «Línea base»).",
    }


# --- the panels' progress ------------------------------------------------------------------
# What a panel's session says while it works, beside the progress bar's fraction (the worker passes it on).


def reading_progress(slot: str, again: bool, done: int | None = None, size: int | None = None) -> str:
    """The «Tus datos» status line while a file is read: ``slot`` is ``"qrels"``, ``"A"`` or ``"B"``;
    ``again`` when a run is read a second time because its queries are not grouped; ``done`` and
    ``size`` (bytes) for a file from disk.

    >>> reading_progress("qrels", False)
    'Leyendo y evaluando los qrels…'
    >>> reading_progress("B", True, 1_500_000, 80_000_000)
    'Leyendo y evaluando el run B de nuevo: sus consultas no están agrupadas (1,5 de 80,0 MB)…'
    """
    what = "los qrels" if slot == "qrels" else f"el run {slot}"
    why = " de nuevo: sus consultas no están agrupadas" if again else ""
    where = f" ({of_size(done, size)})" if done is not None and size is not None else ""
    return f"Leyendo y evaluando {what}{why}{where}…"


def fusion_progress(slot: str, done: int | None = None, size: int | None = None) -> str:
    """The «Tus datos» status line while a run is read again, whole, for the fused run: ``slot`` is the run's
    (``"A"``, ``"B"``, …); ``done`` and ``size`` (bytes) for a file from disk.

    >>> fusion_progress("A"), fusion_progress("C", 2_000_000, 4_000_000)
    ('Leyendo de nuevo el run A para fusionarlo…', 'Leyendo de nuevo el run C para fusionarlo (2,0 de 4,0 MB)…')
    """
    where = f" ({of_size(done, size)})" if done is not None and size is not None else ""
    return f"Leyendo de nuevo el run {slot} para fusionarlo{where}…"


def fused_progress(name: str) -> str:
    """The «Tus datos» status line once the runs read again are fused, while the fused run is evaluated.

    >>> fused_progress("rrf de A y B")
    'Evaluando el run fusionado «rrf de A y B»…'
    """
    return f"Evaluando el run fusionado «{name}»…"


def permutations_text(count: int) -> str:
    """How many permutations the randomization test draws.

    >>> permutations_text(10_000).replace("\u00a0", " ")
    '10 000 permutaciones'
    """
    return f"{integer(count)} permutaciones"


TABLES_PROGRESS = "Preparando las tablas…"
"""The «Tus datos» status line once the comparisons are done (or with one run, none to do)."""


def comparing_progress(runs: int) -> str:
    """The «Tus datos» status line as the comparisons of ``runs`` runs begin.

    >>> comparing_progress(2), comparing_progress(3), comparing_progress(1)
    ('Comparando B con A…', 'Comparando los runs por pares…', 'Preparando las tablas…')
    """
    return "Comparando B con A…" if runs == 2 else "Comparando los runs por pares…" if runs > 2 else TABLES_PROGRESS


def comparison_progress(measure: str, index: int, count: int, permutations: int, *, pair=None, position: int = 0,
                        pairs: int = 1) -> str:
    """The «Tus datos» status line while measure ``index`` (from 0) of ``count`` is tested; with more than one
    pair, ``pair`` is ``(baseline, candidate)`` (letters), pair ``position`` (from 0) of ``pairs``.

    >>> comparison_progress("nDCG@10", 0, 2, 10_000).replace("\u00a0", " ")
    'Comparando B con A: nDCG@10 (1 de 2, 10 000 permutaciones)…'
    >>> comparison_progress("RR", 1, 2, 500, pair=("A", "C"), position=1, pairs=3)
    'Comparando C con A (par 2 de 3): RR (2 de 2, 500 permutaciones)…'
    """
    tested = f"{measure} ({index + 1} de {count}, {permutations_text(permutations)})"
    if pairs == 1:
        return f"Comparando B con A: {tested}…"
    baseline, candidate = pair
    return f"Comparando {candidate} con {baseline} (par {position + 1} de {pairs}): {tested}…"


def intervals_progress(resamples: int) -> str:
    """The «Tus datos» status line while the bootstrap draws the confidence intervals.

    >>> intervals_progress(1_000)
    'Calculando los intervalos de confianza (1000 remuestreos)…'
    """
    return f"Calculando los intervalos de confianza ({integer(resamples)} remuestreos)…"


CORPUS_INPUTS = {"queries": "las consultas", "evidence": "la evidencia", "qrels": "los qrels", "chunks": "tus chunks",
                 "run": "tu run"}
"""«Tu corpus»' inputs as its progress names them (any other: the corpus)."""


def corpus_reading_progress(field: str, name: str) -> str:
    """The «Tu corpus» status line while the file ``name`` of input ``field`` is read.

    >>> corpus_reading_progress("queries", "q.tsv"), corpus_reading_progress("corpus", "a.txt")
    ('Leyendo las consultas («q.tsv»)…', 'Leyendo el corpus («a.txt»)…')
    """
    return f"Leyendo {CORPUS_INPUTS.get(field, 'el corpus')} («{name}»)…"


TOKENIZING_PROGRESS = "Troceando el corpus en tokens…"
"""The «Tu corpus» status line while the corpus is cut into tokens, once."""


def own_run_progress(run: str) -> str:
    """The «Tu corpus» status line while your own chunks are measured with your run (its file's name).

    >>> own_run_progress("bge.txt")
    'Midiendo tus chunks con tu run «bge.txt»…'
    """
    return f"Midiendo tus chunks con tu run «{run}»…"


def indexing_progress(config: str) -> str:
    """The «Tu corpus» status line as configuration ``config`` (``C:O``) is chunked and indexed.

    >>> indexing_progress("256:32")
    'Indexando 256:32…'
    """
    return f"Indexando {config}…"


def queries_progress(done: int, total: int, config: str) -> str:
    """The «Tu corpus» status line while configuration ``config`` answers its queries.

    >>> queries_progress(20, 1_200, "256:32")
    'Consultas 20 de 1200 (256:32)'
    """
    return f"Consultas {integer(done)} de {integer(total)} ({config})"


def config_intervals_progress(config: str, resamples: int) -> str:
    """The «Tu corpus» status line while the bootstrap draws configuration ``config``'s intervals.

    >>> config_intervals_progress("256:32", 1_000)
    'Intervalos de confianza de 256:32 (1000 remuestreos)…'
    """
    return f"Intervalos de confianza de {config} ({integer(resamples)} remuestreos)…"


def baseline_progress(baseline: str, config: str | None = None, measure: str | None = None) -> str:
    """The «Tu corpus» status line as the configurations are compared with the ``baseline``, and while
    ``config`` is, in ``measure``.

    >>> baseline_progress("256:32")
    'Comparando cada configuración con 256:32 (línea base)…'
    >>> baseline_progress("256:32", "512:64", "EvidenceRecall@5")
    'Comparando 512:64 con 256:32 (línea base): EvidenceRecall@5…'
    """
    if config is None:
        return f"Comparando cada configuración con {baseline} (línea base)…"
    return f"Comparando {config} con {baseline} (línea base): {measure}…"


def page_texts(runtime_bytes: int) -> dict:
    """Every sentence the page's scripts show, as the build puts them in ``lab_config``: ``texts`` (lab.js,
    :func:`status_texts`), ``workerTexts`` (worker.js, :func:`worker_texts`) and ``dataSaverText``
    (:func:`data_saver_notice`, with the ``runtime_bytes`` Python's fast start downloads).

    >>> sorted(page_texts(6_000_000))
    ['dataSaverText', 'texts', 'workerTexts']
    """
    return {"dataSaverText": data_saver_notice(runtime_bytes), "texts": status_texts(), "workerTexts": worker_texts()}
