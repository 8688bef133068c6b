"""Markdown with LaTeX formulas, rendered to MathML at build time (no math engine in the browser).

``$…$`` inside a paragraph becomes inline MathML; ``$$…$$`` alone on a line becomes a block.
An unknown LaTeX command is an error, not text on the page.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

import markdown
from latex2mathml.converter import convert as latex_to_mathml
from markdown.inlinepatterns import InlineProcessor
from markdown.preprocessors import Preprocessor


class MathError(ValueError):
    def __init__(self, latex: str, reason: str):
        super().__init__(f"cannot convert formula ${latex}$ to MathML: {reason}")
        self.latex = latex


def mathml(latex: str, display: str) -> str:
    """MathML for ``latex`` (no xmlns: the HTML parser puts <math> in the MathML namespace)."""
    try:
        html = latex_to_mathml(latex, display=display)
    except Exception as error:  # latex2mathml raises a family of its own exception types
        raise MathError(latex, str(error) or type(error).__name__) from None
    unknown = re.search(r">(\\[A-Za-z]+)<", html)
    if unknown:  # latex2mathml passes unknown commands through as text
        raise MathError(latex, f"unknown command {unknown.group(1)}")
    return html.replace(' xmlns="http://www.w3.org/1998/Math/MathML"', "", 1)


def formula_name(latex: str) -> str:
    r"""A display formula's accessible name: what it defines, the left-hand side of each ``=``.

    >>> formula_name(r"\text{Precision@}k = \frac{\text{rel}_k}{k} \qquad \text{Recall@}k = \frac{\text{rel}_k}{R}")
    'Fórmula de Precision@k y Recall@k'
    >>> formula_name(r"\text{tokens indexados} = N + (m - 1)\, O")
    'Fórmula de tokens indexados'
    """
    names = []
    for part in re.split(r"\\qquad", latex):
        left = part.split("=", 1)[0]
        left = re.sub(r"\\text\{([^}]*)\}", r"\1", left)
        left = re.sub(r"[{}\\]|\s+", lambda m: " " if m.group().isspace() else "", left).strip()
        names.append(re.sub(r"@ ", "@", left))
    return "Fórmula de " + " y ".join(names)


class DisplayMath(Preprocessor):
    """``$$ … $$`` on its own line becomes a MathML block (stashed, so Markdown leaves it alone)."""

    def run(self, lines):
        out = []
        for line in lines:
            match = re.fullmatch(r"\s*\$\$(.+)\$\$\s*", line)
            if match:
                html = (
                    # Focusable: on a narrow screen a long formula scrolls, and keyboards must reach it;
                    # named by what it defines, so that a list of the page's groups tells them apart.
                    f'<div class="formula" tabindex="0" role="group" aria-label="{formula_name(match.group(1))}">'
                    f'{mathml(match.group(1).strip(), "block")}</div>'
                )
                out.append(self.md.htmlStash.store(html))
            else:
                out.append(line)
        return out


class InlineMath(InlineProcessor):
    """``$ … $`` inside a paragraph becomes inline MathML."""

    def handleMatch(self, m, data):
        element = etree.Element("span", {"class": "math"})
        element.text = self.md.htmlStash.store(mathml(m.group(1), "inline"))
        return element, m.start(0), m.end(0)


class MathExtension(markdown.Extension):
    def extendMarkdown(self, md):
        md.preprocessors.register(DisplayMath(md), "display_math", 27)
        # Before escapes (180) and emphasis, so "\," and "_" inside formulas stay LaTeX.
        md.inlinePatterns.register(InlineMath(r"(?<!\\)\$([^$\n]+?)\$", md), "inline_math", 185)


def render_markdown(text: str) -> str:
    return markdown.markdown(text, extensions=["attr_list", MathExtension()], output_format="html")
