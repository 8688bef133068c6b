"""The maps of the tree cannot go stale: every module, script and test folder is named where a newcomer looks.

- every module of ``raglab_core`` is named, in backquotes, in docs/design.md's paragraph of its layer (the kernel,
  ``lab/``, ``runs/``, ``corpus/``, ``judges/``, the edges), and in its package's docstring (``:mod:`` or
  ````name````);
- every module of ``raglab_site`` is named in docs/design.md's paragraph on ``raglab_site/`` and in that package's
  docstring;
- every script the page ships (``site_src/static/*.js``, ``site_src/inline/*.js``) and every stylesheet is named in
  README.md's list of scripts and in docs/design.md;
- every folder of tests/ and of tests/core/ is named in README.md's paragraph on ``tests/``.

The checks are functions over the files' text, so a test plants a module without a mention and sees it reported.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DESIGN = ROOT / "docs" / "design.md"
README = ROOT / "README.md"

# docs/design.md's bullet for each layer of raglab_core: the text that opens it.
LAYER_BULLETS = {"kernel": "**The kernel**", "lab": "**`lab/`**", "runs": "**`runs/`**",
                 "corpus": "**`corpus/`**", "judges": "**`judges/`**", "edge": "**The edges**"}
EDGES = {"__main__", "browser"}


def bullet(text: str, opening: str) -> str:
    """The Markdown list item of ``text`` that contains ``opening``, with its continuation lines and nested items:
    up to the next item at the same indentation or shallower, or a blank line."""
    lines = text.splitlines()
    for start, line in enumerate(lines):
        if opening in line and line.lstrip().startswith("- "):
            indent = len(line) - len(line.lstrip())
            end = start + 1
            while end < len(lines) and lines[end].strip():
                current = lines[end]
                if current.lstrip().startswith("- ") and len(current) - len(current.lstrip()) <= indent:
                    break
                end += 1
            return "\n".join(lines[start:end])
    raise AssertionError(f"no list item opening with {opening!r}")


def backquoted(text: str) -> set:
    """Every name written in backquotes in ``text``, with each dotted or slashed part as a name too
    (```runs.stream``` names ``runs.stream``, ``runs`` and ``stream``)."""
    found = set()
    for quoted in re.findall(r"`([^`\n]+)`", text):
        found.add(quoted)
        found |= set(re.split(r"[./\s()]+", quoted)) - {""}
    return found


def docstring_names(docstring: str) -> set:
    """The modules a package's docstring names: ``:mod:`` targets (their last part) and double-backquoted names."""
    names = {target.rsplit(".", 1)[-1] for target in re.findall(r":mod:`~?([\w.]+)`", docstring)}
    return names | set(re.findall(r"``(\w+)``", docstring))


def core_modules(core: Path) -> dict:
    """``{layer: [module names]}`` of the ``.py`` files under ``core`` (``__init__`` left out)."""
    found: dict = {}
    for path in sorted(core.rglob("*.py")):
        if path.stem == "__init__" or "__pycache__" in path.parts:
            continue
        parts = path.relative_to(core).parts
        if len(parts) > 1:
            layer = parts[0]
        else:
            layer = "edge" if path.stem in EDGES else "kernel"
        found.setdefault(layer, []).append(path.stem)
    return found


def unnamed_in_design(modules: dict, design: str) -> list:
    """``layer/module`` for each module that its layer's paragraph of docs/design.md does not name."""
    missing = []
    for layer, names in sorted(modules.items()):
        said = backquoted(bullet(design, LAYER_BULLETS[layer]))
        missing += [f"{layer}/{name}" for name in names if name not in said]
    return missing


def package_docstring(package: Path) -> str:
    import ast

    return ast.get_docstring(ast.parse((package / "__init__.py").read_text("utf-8"))) or ""


def unnamed_in_docstrings(core: Path, modules: dict) -> list:
    """``layer/module`` for each module its package's docstring does not name (the kernel's and the edges' in
    raglab_core's own)."""
    missing = []
    for layer, names in sorted(modules.items()):
        package = core if layer in {"kernel", "edge"} else core / layer
        said = docstring_names(package_docstring(package))
        missing += [f"{layer}/{name}" for name in names if name not in said]
    return missing


def shipped_files(site_src: Path) -> list:
    """The scripts and stylesheets the page ships, by file name."""
    return sorted(path.name for folder in ("static", "inline") for path in (site_src / folder).iterdir()
                  if path.suffix in {".js", ".css"})


def unnamed_files(names: list, text: str) -> list:
    said = backquoted(text)
    return [name for name in names if name not in said]


def test_every_core_module_is_named_in_its_layers_paragraph_of_design_md():
    assert unnamed_in_design(core_modules(ROOT / "raglab_core"), DESIGN.read_text("utf-8")) == []


def test_every_core_module_is_named_in_its_packages_docstring():
    core = ROOT / "raglab_core"
    assert unnamed_in_docstrings(core, core_modules(core)) == []


def test_every_site_module_is_named_in_design_md_and_in_the_packages_docstring():
    site = ROOT / "raglab_site"
    names = sorted(path.stem for path in site.glob("*.py") if path.stem != "__init__")
    paragraph = backquoted(bullet(DESIGN.read_text("utf-8"), "`raglab_site/` —"))
    docstring = docstring_names(package_docstring(site))
    assert [name for name in names if name not in paragraph] == []
    assert [name for name in names if name not in docstring] == []


def test_every_shipped_script_and_sheet_is_named_in_the_readme_and_in_design_md():
    files = shipped_files(ROOT / "site_src")
    scripts = bullet(README.read_text("utf-8"), "`site_src/inline/` and `site_src/static/`")
    styles = README.read_text("utf-8")
    assert unnamed_files([name for name in files if name.endswith(".js")], scripts) == []
    assert unnamed_files([name for name in files if name.endswith(".css")], styles) == []
    assert unnamed_files(files, DESIGN.read_text("utf-8")) == []


def test_every_test_folder_is_named_in_the_readmes_paragraph_on_tests():
    said = backquoted(bullet(README.read_text("utf-8"), "`tests/` —"))
    said |= {part for quoted in said for part in re.findall(r"\w+", quoted)}  # core/{kernel,lab,...}/
    folders = sorted({path.name for path in (ROOT / "tests").iterdir() if path.is_dir() and path.name != "__pycache__"}
                     | {path.name for path in (ROOT / "tests" / "core").iterdir()
                        if path.is_dir() and path.name != "__pycache__"})
    assert [folder for folder in folders if folder not in said] == []


# --- the checks catch what they are for -----------------------------------------------------------------------


@pytest.fixture
def planted(tmp_path):
    """A copy of raglab_core's tree of names (empty files) with one module more in judges/ and one in the kernel."""
    core = tmp_path / "raglab_core"
    for path in (ROOT / "raglab_core").rglob("*.py"):
        if "__pycache__" in path.parts:
            continue
        target = core / path.relative_to(ROOT / "raglab_core")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text("utf-8") if path.stem == "__init__" else "", "utf-8")
    (core / "judges" / "planted_module.py").write_text("", "utf-8")
    (core / "planted_kernel.py").write_text("", "utf-8")
    return core


def test_a_module_added_without_a_mention_is_reported(planted):
    modules = core_modules(planted)
    design = DESIGN.read_text("utf-8")
    assert {"judges/planted_module", "kernel/planted_kernel"} <= set(unnamed_in_design(modules, design))
    assert {"judges/planted_module", "kernel/planted_kernel"} <= set(unnamed_in_docstrings(planted, modules))


def test_a_script_added_without_a_mention_is_reported(tmp_path):
    for folder in ("static", "inline"):
        (tmp_path / folder).mkdir()
    (tmp_path / "static" / "planted-worker.js").write_text("", "utf-8")
    (tmp_path / "static" / "lab.js").write_text("", "utf-8")
    files = shipped_files(tmp_path)
    assert unnamed_files(files, README.read_text("utf-8")) == ["planted-worker.js"]


def test_a_name_in_another_layers_paragraph_does_not_count():
    design = "- **The kernel**: `metrics`.\n- **`judges/`**: `labels`.\n"
    assert unnamed_in_design({"kernel": ["labels"], "judges": ["metrics"]}, design) == ["judges/metrics",
                                                                                       "kernel/labels"]
