"""Readings as a reader meets them (issue 49): the words visible before «Cómo leer esto» is opened."""

from html import escape
from html.parser import HTMLParser

BUDGET = 80
"""The most words a reading may show before its disclosure (issue 49: «under about 80»)."""


def reading_html(parts: dict) -> str:
    """A reading (:func:`raglab_core.readings.reading`'s parts) as the page shows it, the disclosure closed: the
    DOM panel-kit.js's ``reading`` builds, as HTML."""
    html = []
    if parts["warning"]:
        html.append(f'<p class="reading-warning">{escape(parts["warning"])}</p>')
    html.append(f'<p class="reading-verdict"><strong>{escape(parts["verdict"])}</strong></p>')
    if parts["lines"]:
        html.append('<ul class="reading-lines">' + "".join(f"<li>{escape(line)}</li>" for line in parts["lines"]) + "</ul>")
    if parts["details"] or parts["caveats"]:
        inner = f"<summary>{escape(parts['summary'])}</summary>"
        if parts["details"]:
            inner += '<ul class="reading-details">' + "".join(f"<li>{escape(line)}</li>" for line in parts["details"]) + "</ul>"
        inner += "".join(f"<p>{escape(caveat)}</p>" for caveat in parts["caveats"])
        html.append(f'<details class="reading-more">{inner}</details>')
    return "".join(html)


class _Visible(HTMLParser):
    """The text outside closed <details>, but for their <summary> (what a closed disclosure shows)."""

    def __init__(self):
        super().__init__()
        self.depth = 0  # inside how many <details>
        self.summary = False
        self.shown = []
        self.first = None  # the first element that holds text

    def handle_starttag(self, tag, attrs):
        if tag == "details":
            self.depth += 1
        elif tag == "summary":
            self.summary = True
        if self.first is None and tag in ("p", "li", "strong"):
            self.first = dict(attrs).get("class", tag)

    def handle_endtag(self, tag):
        if tag == "details":
            self.depth -= 1
        elif tag == "summary":
            self.summary = False

    def handle_data(self, data):
        if self.depth == 0 or self.summary:
            self.shown.append(data)


def visible(parts: dict) -> tuple:
    """``(words shown before the disclosure, the class of the first block)`` of a reading rendered as the page
    renders it."""
    parser = _Visible()
    parser.feed(reading_html(parts))
    return len(" ".join(parser.shown).split()), parser.first


def opens_with_its_verdict(parts: dict) -> bool:
    """The reading's first block is its warning (when the data have one) or its verdict, and the verdict is one
    sentence of at most about 30 words, in bold."""
    html = reading_html(parts)
    verdict = parts["verdict"]
    sentences = [s for s in verdict.replace("...", "").split(". ") if s]
    first = visible(parts)[1]
    return (first == ("reading-warning" if parts["warning"] else "reading-verdict")
            and "<strong>" in html.split("</p>", 2)[1 if parts["warning"] else 0]
            and len(verdict.split()) <= 32 and len(sentences) == 1)
