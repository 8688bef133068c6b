"""raglab_core's layers (DESIGN §2): the kernel, the domains ``lab/``, ``runs/``, ``corpus/`` and ``judges/``, and
which may import which.

- the kernel (the package root) imports neither subpackage; only the package's face (``__init__``),
  the command line (``__main__``) and the Pyodide edge (``browser``) may import both;
- ``lab`` never imports ``runs``, and ``runs`` never imports ``lab``;
- ``corpus`` may import the kernel and ``runs``;
- ``judges`` may import the kernel, ``runs`` and ``corpus``, and none of them imports it.

Imports are read from the source (``ast``), relative or absolute, at any depth (inside functions too).
"""

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "raglab_core"
EDGES = {"__init__", "__main__", "browser"}
DOMAINS = ("lab", "runs", "corpus", "judges")
FORBIDDEN = {"kernel": {"lab", "runs", "corpus", "judges"}, "lab": {"runs", "corpus", "judges"},
             "runs": {"lab", "corpus", "judges"}, "corpus": {"lab", "judges"}, "judges": {"lab"}}


def layer(module: str) -> str:
    """``"lab"``, ``"runs"``, ``"corpus"``, ``"judges"``, ``"kernel"``, or ``"edge"`` for a dotted name inside
    raglab_core."""
    first = module.split(".")[0]
    if first in DOMAINS:
        return first
    return "edge" if first in EDGES else "kernel"


def imported(path: Path, source: str) -> set:
    """The raglab_core layers ``source`` (the module at ``path``) imports, as top-level names inside the package."""
    package = path.relative_to(CORE).with_suffix("").parts[:-1]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(package[: len(package) - node.level + 1])
                target = base + (node.module.split(".") if node.module else [])
                names = [target + [alias.name] for alias in node.names] if not node.module else [target]
            elif node.module and node.module.split(".")[0] == "raglab_core":
                target = node.module.split(".")[1:]
                names = [target + [alias.name] for alias in node.names] if not target else [target]
            else:
                continue
            found |= {name[0] for name in names if name}
        elif isinstance(node, ast.Import):
            found |= {alias.name.split(".")[1] for alias in node.names
                      if alias.name.startswith("raglab_core.") and len(alias.name.split(".")) > 1}
    return found


def violations(path: Path, source: str) -> list:
    module = ".".join(path.relative_to(CORE).with_suffix("").parts)
    own = layer(module)
    if own == "edge":
        return []
    return sorted(f"{module} imports {other}" for other in imported(path, source) if other in FORBIDDEN[own])


MODULES = sorted(CORE.rglob("*.py"))


def test_the_layers_exist():
    """Every module of raglab_core is in exactly one layer, the one its place says: a package at the root is a
    domain (a new one, unnamed in DOMAINS, would otherwise count as the kernel and escape its rules), a file at
    the root is the kernel's or an edge; each domain and the kernel hold modules of their own beyond
    ``__init__``, and every layer but the edges has its rule in FORBIDDEN."""
    packages = {path.relative_to(CORE).parts[0] for path in MODULES if len(path.relative_to(CORE).parts) > 1}
    assert packages == set(DOMAINS)
    assert all((CORE / domain / "__init__.py").is_file() for domain in DOMAINS)
    assert {f"{edge}.py" for edge in EDGES} <= {path.name for path in CORE.glob("*.py")}
    layers = {}
    for path in MODULES:
        parts = path.relative_to(CORE).with_suffix("").parts
        own = layer(".".join(parts))
        expected = parts[0] if len(parts) > 1 else ("edge" if parts[0] in EDGES else "kernel")
        assert own == expected, (path, own)
        if parts[-1] != "__init__":
            layers.setdefault(own, []).append(parts)
    assert set(layers) == {*DOMAINS, "kernel", "edge"}, sorted(layers)
    assert set(FORBIDDEN) == {*DOMAINS, "kernel"}


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(CORE)))
def test_imports_flow_kernel_from_lab_and_runs_never_between(path):
    assert violations(path, path.read_text("utf-8")) == []


@pytest.mark.parametrize("where, line", [
    ("metrics.py", "from .runs import measures"),
    ("formatting.py", "from raglab_core.lab import compute"),
    ("lab/strip.py", "from ..runs.evaluation import trec_order"),
    ("lab/compute.py", "    from raglab_core.runs import panel"),
    ("runs/report.py", "from ..lab import controls"),
    ("runs/measures.py", "from .. import lab"),
    ("runs/sanity.py", "import raglab_core.lab.form"),
    ("runs/report.py", "from ..judges import labels"),
    ("corpus/sweep.py", "from ..judges.labels import kappa"),
    ("metrics.py", "from raglab_core.judges import labels"),
    ("judges/labels.py", "from ..lab import compute"),
])
def test_a_forbidden_import_fails(where, line):
    path = CORE / where
    source = path.read_text("utf-8") + "\n\ndef _added():\n" + ("    " + line.strip()) + "\n"
    assert violations(path, source), f"{line!r} in {where} was not caught"


def test_the_edges_may_import_both():
    assert violations(CORE / "browser.py", "from .lab import compute\nfrom .runs.trec import parse_run\n") == []



def test_the_page_imports_nothing_only_the_command_line_runs():
    """warm_up imports every module the page may run, for the snapshot: the command line's
    modules, and argparse with them, stay out of it (raglab_core.browser.COMMAND_LINE_ONLY)."""
    import subprocess
    import sys

    script = ("import sys, raglab_core.browser as b; b.warm_up(); "
              "print(sorted(set(sys.modules) & (b.COMMAND_LINE_ONLY | {'argparse'})))")
    out = subprocess.run([sys.executable, "-c", script], cwd=CORE.parent, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def exercise_corpus(browser) -> None:
    """Run «Tu corpus» once through ``browser`` (:mod:`raglab_core.browser`), on two configurations of a
    two-document corpus: a query in detail, the downloads. Its source runs in a fresh interpreter after
    ``warm_up``, to find what it imports; it imports nothing itself but ``json``, which the bridge has."""
    import json

    corpus = browser.CorpusBridge(json.dumps({"corpus": ["c.jsonl"], "queries": "q.tsv", "evidence": "s.jsonl",
                                              "sweep": "2:0 3:1", "at": "1,2"}), lambda fraction, text: None)
    texts = {"corpus/0": '{"_id": "d", "title": "Gatos", "text": "el gato duerme en la alfombra"}\n{"_id": "e", "text": "x"}',
             "queries": "q1\tgato alfombra\nq2\tperro", "evidence": '{"query_id": "q1", "doc_id": "d", "start": 3, "end": 7}'}
    while slot := corpus.next():
        corpus.feed(texts[slot]), corpus.end()
    corpus.prepare()
    while corpus.step():
        pass
    corpus.finish(), corpus.detail("q1", 0, 1), corpus.download("json"), corpus.download("chunks", 1)
    corpus.download("chunk-run", 0), corpus.download("document-run", 1)


def exercise_judges(browser) -> None:
    """Run «¿Te fías de tus juicios?» once through ``browser``: a reference, a judge and two runs, the download."""
    import json

    bridge = browser.EvaluationBridge(json.dumps({"measures": "nDCG@10", "qrels": "q", "judge": "j", "runs": ["a", "b"],
                                                  "sizes": [9, 14, 14], "files": [True] * 3}), lambda f, t: None)
    texts = {"qrels": "q1 0 a 1\nq2 0 b 2\nq2 0 c 0\n", "judge": "q1 0 a 2\nq2 0 b 2\nq2 0 c 1\n",
             "A": "q1 Q0 a 1 2 x\nq2 Q0 b 1 1 x\n", "B": "q1 Q0 c 1 2 x\nq2 Q0 c 1 1 x\nq2 Q0 b 2 0 x\n"}
    while slot := bridge.next():
        bridge.feed(texts[slot], len(texts[slot])), bridge.end()
    assert json.loads(bridge.finish())["ok"]
    bridge.download("agreement")


def exercise_judging(browser) -> None:
    """Run the judging page once through ``browser``: a job pooled from a run, a pair's view, a grade, both
    downloads and the list's summary."""
    import json

    bridge = browser.JudgeBridge(json.dumps({"runs": ["a"], "queries": "q.tsv", "corpus": ["c.jsonl"], "depth": 2,
                                             "sizes": {}}), lambda f, t: None)
    texts = {"A": "q1 Q0 d 1 2 x\nq1 Q0 e 2 1 x\n", "queries": "q1\tQué gatos",
             "corpus/0": '{"_id": "d", "title": "Gatos", "text": "El gato, qué bien duerme."}\n{"_id": "e", "text": "x"}'}
    while slot := bridge.next():
        bridge.feed(texts[slot], len(texts[slot])), bridge.end()
    made = json.loads(bridge.finish())
    assert made["ok"], made
    panel = made["panel"]
    desk = browser.JudgeDesk(json.dumps(panel["job"]), json.dumps(panel["texts"]))
    grades = {"q1\td": {"grade": 2, "at": 1}}
    assert json.loads(desk.view(0, json.dumps(grades)))["ok"]
    desk.download("qrels", json.dumps(grades)), desk.download("json", json.dumps(grades))
    assert json.loads(browser.judge_summary(json.dumps(panel["job"]), json.dumps(grades)))["ok"]


def test_the_corpus_code_added_on_first_use_needs_nothing_the_snapshot_lacks(tmp_path):
    """«Tu corpus»'s Python and the judges' are left out of the snapshot and added from the wheel when first
    used (browser.add_on_first_use): after warm_up, running them imports only their own modules, since the
    restored page has no standard library archive to import others from."""
    import inspect
    import subprocess
    import sys

    script = (
        "import sys, raglab_core.browser as b\n"
        "b.warm_up()\n"
        "before = set(sys.modules)\n"
        "assert not any(m.startswith(b.ON_FIRST_USE) for m in before), 'in the snapshot'\n"
        + inspect.getsource(exercise_corpus) + inspect.getsource(exercise_judges)
        + inspect.getsource(exercise_judging) +
        "exercise_corpus(b)\n"
        "exercise_judges(b)\n"
        "exercise_judging(b)\n"
        "print(sorted(m for m in set(sys.modules) - before if not m.startswith(tuple(p + '.' for p in b.ON_FIRST_USE))))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=CORE.parent, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['raglab_core.corpus', 'raglab_core.judges']", out.stdout


def test_add_on_first_use_unpacks_only_its_packages_after_checking_the_wheel(tmp_path):
    import hashlib
    import io
    import zipfile

    from raglab_core.browser import add_on_first_use

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as wheel:
        for name in ("raglab_core/__init__.py", "raglab_core/corpus/__init__.py", "raglab_core/corpus/bm25.py",
                     "raglab_core/judges/panel.py", "raglab_core/runs/panel.py"):
            wheel.writestr(name, "x = 1\n")
    data = buffer.getvalue()
    assert add_on_first_use(data, hashlib.sha256(data).hexdigest(), str(tmp_path)) == 3
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.py")) == [
        "raglab_core/corpus/__init__.py", "raglab_core/corpus/bm25.py", "raglab_core/judges/panel.py"]
    with pytest.raises(ValueError, match="SHA-256"):
        add_on_first_use(data[:-1], hashlib.sha256(data).hexdigest(), str(tmp_path))
