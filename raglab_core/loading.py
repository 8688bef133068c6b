"""What the page says about Python's own download, in Spanish, with its numbers.

These texts depend only on sizes the build knows (the snapshot's compressed size, the runtime's
bytes), so the build writes them into the page's configuration; ``worker.js`` and ``lab.js`` pick
one and show it, and format nothing themselves.
"""

from .formatting import decimal


TABLE_ANSWERS = "Los controles del ranking ya responden; Python termina de cargarse para el resto…"
"""The status line while the build-time view table answers the ranking's sliders and Python loads."""


def megabytes(n: int) -> str:
    """A byte count in megabytes (10⁶ bytes), one decimal: ``3_604_113 -> '3,6'``.

    >>> megabytes(3_604_113), megabytes(0), megabytes(12_345_678_901).replace("\\u00a0", " ")
    ('3,6', '0,0', '12 345,7')
    """
    return decimal(n / 1e6, 1)


def download_progress(received: int, total: int) -> str:
    """The status line while the snapshot downloads.

    >>> download_progress(1_200_000, 3_604_113)
    'Descargando el entorno de Python (1,2 de 3,6 MB)…'
    """
    return f"Descargando el entorno de Python ({megabytes(received)} de {megabytes(total)} MB)…"


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
    where = f" ({megabytes(done)} de {megabytes(size)} MB)" if done is not None and size is not None else ""
    return f"Leyendo y evaluando {what}{why}{where}…"


WHAT_TO_DO = "Ves los valores calculados al publicar la página. Recarga la página; si el problema sigue, avisa a quien publica el sitio."
"""What a reader can do when Python could not load: said after each boot failure."""


def boot_texts() -> dict:
    """Every sentence the worker says while it loads Python, by name: its progress steps, what it
    recovered from, and each failure with :data:`WHAT_TO_DO`. They must exist before Python runs, so
    the build puts them in ``lab_config.workerTexts`` and ``boot.js`` hands them to the worker in its
    "init" message (with :mod:`raglab_core.browser`'s own).

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
