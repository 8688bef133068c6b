"""No shipped JavaScript words or formats anything (issue 19): every Spanish sentence and every number the
page shows comes from raglab_core, through the page's ``lab_config`` or the worker's views.

This scans the string literals (and template literals' fixed parts) of every JavaScript file the site
ships, comments left out, for text that reads as a sentence for the user; and the code for number
formatting. A sentence that must exist before Python runs is worded by Python at build time
(``lab_config``); one the worker says reaches it in its "boot-start" message.
"""

import re

import pytest

from tests.conftest import ROOT

SHIPPED = sorted(
    [*ROOT.glob("site_src/static/*.js"), *ROOT.glob("site_src/inline/*.js"), *ROOT.glob("site_src/templates/*.js.j2")]
)

# Spanish letters and punctuation, and the typographic marks the page's texts use.
SPANISH_MARKS = re.compile("[áéíóúüñÁÉÍÓÚÜÑ¿¡«»…]")
# Common Spanish words (whole words, any case): a sentence without an accent still has some of these.
SPANISH_WORDS = {
    "de", "del", "la", "las", "el", "los", "un", "una", "unos", "es", "en", "se", "que", "con", "para",
    "por", "sin", "al", "no", "su", "sus", "lo", "más", "ya", "está", "están", "pulsa", "elige",
    "consulta", "consultas", "página", "valores", "fichero", "ficheros", "recarga", "evaluar", "cargando",
    "descargando", "falló", "cálculo", "documento", "documentos", "grado", "resultados",
}
# A literal that is one capitalized word ("Run", "Consultas") reads as a heading; these are API names.
API_NAMES = {"Worker", "WebAssembly", "Home", "End"}  # API names; KeyboardEvent.key values
# Thousands separators (no-break, narrow no-break and thin spaces) and a percent sign.
NUMBER_MARKS = re.compile("[\u00a0\u202f\u2009%]")
NUMBER_FORMATTING = re.compile(r"\b(toFixed|toPrecision|toExponential|toLocale\w*|Intl|NumberFormat|padStart)\b")


def _regex_allowed(before: str) -> bool:
    """Whether a ``/`` after ``before`` (the code so far, a literal as ``"``) starts a regular expression."""
    before = before.rstrip()
    if not before or before[-1] in "(,=:[!&|?{};+-*%<>~^":
        return True
    return re.search(r"\b(return|typeof|case|in|of|new|delete|void|throw)$", before) is not None


def tokens(source: str):
    """``(kind, text, line)`` for each piece of ``source``: kind ``"string"`` (a quoted string, or a template
    literal's fixed part) or ``"code"`` (the code between literals, comments and regexes left out)."""
    out, code, i, n = [], [], 0, len(source)
    depth = []  # for each open ${…}: how many of its own braces are open
    before = ""  # the code before this point, a literal written as '"': tells a regex from a division

    def line(at):
        return source.count("\n", 0, at) + 1

    def flush():
        if code:
            out.append(("code", "".join(code), None))
            code.clear()

    def literal(text, at):
        nonlocal before
        flush()
        out.append(("string", text, line(at)))
        before = '"'

    def template(i):
        """Read a template literal's fixed part from ``i``; return where to go on, and whether a ${ opened."""
        start, parts = i, []
        while i < n:
            if source[i] == "\\":
                parts.append(source[i:i + 2])
                i += 2
            elif source[i] == "`":
                literal("".join(parts), start)
                return i + 1, False
            elif source.startswith("${", i):
                literal("".join(parts), start)
                return i + 2, True
            else:
                parts.append(source[i])
                i += 1
        raise ValueError("unterminated template literal")

    while i < n:
        c = source[i]
        if source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
        elif source.startswith("/*", i):
            i = source.index("*/", i + 2) + 2
        elif c in "\"'":
            j = i + 1
            while source[j] != c:
                j += 2 if source[j] == "\\" else 1
            literal(source[i + 1:j], i)
            i = j + 1
        elif c == "`" or (c == "}" and depth and depth[-1] == 0):
            if c == "}":
                depth.pop()
            i, opened = template(i + 1)
            if opened:
                depth.append(0)
        elif c == "/" and _regex_allowed(before):
            j, in_class = i + 1, False
            while source[j] != "/" or in_class:
                if source[j] == "\\":
                    j += 1
                elif source[j] in "[]":
                    in_class = source[j] == "["
                j += 1
            code.append(" ")  # a regex: neither a sentence nor a call
            before = '"'
            i = j + 1
        else:
            if depth and c in "{}":
                depth[-1] += 1 if c == "{" else -1
            code.append(c)
            if not c.isspace():
                before = (before + c)[-40:]
            elif before and not before[-1].isspace():
                before += " "
            i += 1
    flush()
    return out


def words_for_the_reader(text: str) -> str | None:
    """Why ``text`` (a literal) reads as words for the user, or None."""
    if SPANISH_MARKS.search(text):
        return "Spanish letters or marks"
    found = [word for word in re.findall(r"[^\W\d_]+", text) if word.lower() in SPANISH_WORDS]
    if found:
        return f"Spanish words {found}"
    if re.fullmatch(r"[A-Z][a-z]+", text) and text not in API_NAMES:
        return "a capitalized word (a heading?)"
    if NUMBER_MARKS.search(text):
        return "a thousands separator or a percent sign"
    return None


def findings(source: str) -> list[str]:
    problems = []
    for kind, text, line in tokens(source):
        if kind == "string":
            why = words_for_the_reader(text)
            if why:
                problems.append(f"line {line}: {text[:70]!r}: {why}")
        else:
            for match in NUMBER_FORMATTING.finditer(text):
                problems.append(f"number formatting: {match.group(0)}")
    return problems


def test_the_scanner_sees_literals_and_skips_comments_and_regexes():
    source = """
    // «Tus datos» in a comment is fine; so is /* this */ a «block»
    const a = "Consultas", b = 'Run', c = `${n} de ${m} MB`, d = x / 2 / y, e = s.replace(/%2C/g, ",");
    const f = `L${(i * step).toFixed(2)}`; const g = 3 + "\u00a0000"; const h = "y"; // «fine»
    const w = "Worker" in window;
    """
    found = findings(source)
    assert any("'Consultas'" in problem for problem in found)
    assert any("'Run'" in problem for problem in found)
    assert any("' de '" in problem for problem in found)
    assert "number formatting: toFixed" in found
    assert any("thousands separator" in problem for problem in found)
    assert len(found) == 5, found
    assert findings('const s = "Recarga la página"; const t = `Comprobando el núcleo…`;') != []
    assert findings("const ok = (a / b) / c; const r = /2g$/.test(x) ? 'snapshot' : \"plain\";") == []


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_no_words_or_number_formatting_in_shipped_javascript(path):
    problems = findings(path.read_text(encoding="utf-8"))
    assert not problems, f"{path.relative_to(ROOT)} words or formats for the reader: " + "; ".join(problems)


def test_every_shipped_script_is_scanned():
    names = {path.name for path in SHIPPED}
    assert {"lab.js", "data.js", "agreement.js", "corpus.js", "panel-kit.js", "worker.js", "worker-router.js",
            "worker-kit.js", "data-worker.js", "corpus-worker.js", "juzgar.js", "judge-store.js", "judge-worker.js",
            "boot.js", "spawn.js", "sw.js.j2"} <= names
