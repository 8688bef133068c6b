"""The site generator's parts, beside build.py (which reads as the pipeline only).

- ``markdown_math``: Markdown with LaTeX formulas rendered to MathML at build time.
- ``runtime``: the browser runtime (Pyodide's files, the core's wheel).
- ``snapshot``: the Pyodide memory snapshot: its making, its format, its entry in the page's configuration.
- ``assets``: content-hashed names, integrity digests, the atomic write of dist/.
- ``headers``: the response headers every host should send, written to ``dist/_headers``.
- ``devserver``: the development server and file watcher behind ``build.py serve`` and the tests.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class BuildError(Exception):
    """A problem in the sources; ``str()`` is ``path:line: message``."""

    def __init__(self, path: Path | str, message: str, line: int | None = None):
        self.path, self.message, self.line = Path(path), message, line
        super().__init__(str(self))

    def __str__(self) -> str:
        try:
            shown = self.path.resolve().relative_to(ROOT)
        except ValueError:
            shown = self.path
        where = f"{shown}:{self.line}" if self.line else f"{shown}"
        return f"{where}: {self.message}"
