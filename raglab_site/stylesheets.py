"""The stylesheet each page inlines: the sheets of site_src/inline/ joined in cascade order, then minified.

One sheet per concern: ``base.css`` (what both pages wear: the palette, the page's frame, a panel's
frame and inputs, the method), ``lab.css`` (the lab's own), one per panel (``tus-datos.css``,
``tu-corpus.css``, ``te-fias.css``) and ``print.css``, last. The lab inlines all of them in one
``<style>``: its first paint waits for no request, and for no more bytes than when they were one
lab.css (docs/performance.md). The judging page inlines the base and print only, and links its own
juzgar.css. Each page's joined text is allowed by its SHA-256 in the CSP (raglab_site/headers.py).
"""

from __future__ import annotations

from pathlib import Path

from . import BuildError
from .minify import minified

# Each page's sheets, in cascade order: where two rules of equal weight meet, the later sheet's wins
# (the panels' over the lab's, «Tu corpus»'s over «Tus datos»'s whose classes it wears), and print is last.
PAGE_SHEETS = {
    "lab": ("base.css", "lab.css", "tus-datos.css", "tu-corpus.css", "te-fias.css", "print.css"),
    "juzgar": ("base.css", "print.css"),
}


def page_styles(sheets: dict[str, str], directory: Path) -> dict[str, str]:
    """Each page's inline stylesheet (``sheets``: each sheet's checked text, by its name in
    ``directory``): its sheets joined in the order of :data:`PAGE_SHEETS`, then minified.
    BuildError names a sheet that no page lists (it would be shipped nowhere) or one listed but absent."""
    listed = {name for names in PAGE_SHEETS.values() for name in names}
    for name in sorted(set(sheets) - listed):
        raise BuildError(directory / name, "no page inlines this stylesheet: list it in raglab_site/stylesheets.py")
    styles = {}
    for page, names in PAGE_SHEETS.items():
        for name in names:
            if name not in sheets:
                raise BuildError(directory / name, f"missing stylesheet: the {page} page inlines it")
        joined = "\n".join(sheets[name] for name in names)
        styles[page] = minified(directory / f"{page}.css", joined.encode("utf-8")).decode("utf-8")
    return styles
