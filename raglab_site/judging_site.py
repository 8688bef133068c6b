"""The judging page's part of the build (``dist/juzgar/``): its sample job's files and its configuration.

The sample job is «Tu corpus»'s sample (one long document and Chroma's questions) cut into chunks at two
configurations, with a BM25 run over each: the runs ``python -m raglab_core chunks --write-runs`` writes,
made here at build time by that same command. Each configuration's chunk ids get its name
(``sotu-128#4``), so that the two runs, pooled, name different chunks apart; the corpus the page judges
holds the chunks of both. A handful of queries and a small depth keep the whole path (pool, judge,
export, evaluate, compare with a judge) within a minute.

Its "model" (``juez-lexico.txt``) is no model: a synthetic judge that grades each pooled pair by the share of
the query's words (:func:`raglab_core.judges.marking.query_words`) the chunk holds, ≥ ¾ → 3, ≥ ½ → 2, ≥ ¼ → 1,
else 0; the page says so. It is there so that «Comparar con el juez» can be tried on the sample.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from . import ROOT, BuildError
from .cache import cached_transform

CONFIGS = (("128", "16"), ("256", "32"))
QUERIES = 5
"""The sample's queries: the first of the questions."""
DEPTH = 10
"""The runs' depth as published; the sample job pools their top :data:`SAMPLE_DEPTH`."""
SAMPLE_DEPTH = 2
BASE = "data/juzgar/"


def _chunks(folder: Path, questions: Path, chunk: str, overlap: str, out: Path) -> tuple[list[str], list[str]]:
    """The chunks (JSONL lines) and the chunk run (TREC lines) of one configuration, from the CLI itself."""
    corpus = out / "corpus"
    corpus.mkdir(exist_ok=True)
    (corpus / "state_of_the_union.md").write_bytes((folder / "state_of_the_union.md").read_bytes())
    runs = out / f"runs-{chunk}"
    exported = out / f"chunks-{chunk}.jsonl"
    command = [sys.executable, "-m", "raglab_core", "chunks", str(corpus), "-", "--spans", str(questions),
               "--chunk", chunk, "--overlap", overlap, "--depth", str(DEPTH), "--export-chunks", str(exported),
               "--write-runs", str(runs)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        raise BuildError(folder, f"the judging sample's runs: {done.stderr.strip()}")
    run = (runs / f"{chunk}-{overlap}.chunks.txt").read_text("utf-8").splitlines()
    return exported.read_text("utf-8").splitlines(), run


def sample_files(folder: Path) -> dict[str, bytes]:
    """The sample job's files, ``{path in dist/: bytes}`` (:func:`make_sample_files`), from the build cache when
    the same sample, this module and the core have made them before (two runs of the CLI: about 0.7 s a build)."""
    inputs = [folder / "questions_df.csv", folder / "state_of_the_union.md", Path(__file__),
              *sorted((ROOT / "raglab_core").rglob("*.py"))]
    key = b"".join(hashlib.sha256(path.read_bytes()).digest() for path in inputs)
    made = cached_transform(key, "judging-sample.json", lambda _: json.dumps(
        {path: data.decode("utf-8") for path, data in make_sample_files(folder).items()}).encode())
    return {path: text.encode("utf-8") for path, text in json.loads(made).items()}


def make_sample_files(folder: Path) -> dict[str, bytes]:
    """The sample job's files, ``{path in dist/: bytes}``: queries (TSV), corpus (JSONL of both
    configurations' chunks) and the two runs, cut to the first :data:`QUERIES` queries."""
    sys.path.insert(0, str(ROOT))
    from raglab_core.corpus.chroma import read_questions
    from raglab_core.corpus.documents import documents_from_files

    questions = folder / "questions_df.csv"
    documents = documents_from_files([("state_of_the_union.md", (folder / "state_of_the_union.md").read_text("utf-8"))])
    queries, _ = read_questions(questions.read_text("utf-8"), documents)
    chosen = list(queries)[:QUERIES]
    files = {BASE + "consultas.tsv": "".join(f"{qid}\t{queries[qid]}\n" for qid in chosen).encode()}
    corpus = []
    with tempfile.TemporaryDirectory() as temporary:
        for chunk, overlap in CONFIGS:
            chunks, run = _chunks(folder, questions, chunk, overlap, Path(temporary))
            rename = lambda chunk_id: chunk_id.replace("state_of_the_union.md#", f"sotu-{chunk}#")  # noqa: E731
            for line in chunks:
                record = json.loads(line)
                corpus.append(json.dumps({"_id": rename(record["chunk_id"]), "text": record["text"]}, ensure_ascii=False))
            lines = [line.split(" ") for line in run]
            kept = [" ".join([f[0], f[1], rename(f[2]), *f[3:]]) for f in lines if f[0] in chosen]
            files[f"{BASE}run-bm25-{chunk}-{overlap}.txt"] = ("\n".join(kept) + "\n").encode()
    files[BASE + "corpus.jsonl"] = ("\n".join(corpus) + "\n").encode()
    files[BASE + "juez-lexico.txt"] = lexical_judge(files, {qid: queries[qid] for qid in chosen}, corpus).encode()
    return files


def lexical_judge(files: dict, queries: dict, corpus: list) -> str:
    """The sample's synthetic judge (the module's docstring), as TREC qrels over the pool the sample job judges."""
    from raglab_core.corpus.tokens import TOKEN
    from raglab_core.judges.marking import fold, query_words
    from raglab_core.judges.pooling import pool
    from raglab_core.runs.trec import parse_run

    runs = [parse_run(text.decode(), path) for path, text in files.items() if "/run-" in path]
    texts = {record["_id"]: record["text"] for record in map(json.loads, corpus)}
    lines = []
    for qid, doc in pool(runs, SAMPLE_DEPTH):
        asked = query_words(queries[qid])
        held = {fold(word) for word in TOKEN.findall(texts[doc])}
        share = len(asked & held) / len(asked) if asked else 0.0
        lines.append(f"{qid} 0 {doc} {sum(share >= bound for bound in (0.25, 0.5, 0.75))}\n")
    return "".join(lines)


def judge_config(lab_config: dict, assets: dict, files: dict, words: dict) -> dict:
    """The judging page's configuration (its ``#juzgar-config``): where Python and the scripts are (URLs
    from ``dist/juzgar/``, one folder down), the sample job's files, and every sentence juzgar.js shows."""
    up = lambda url: "../" + url  # noqa: E731
    sample = sorted(path for path in files if path.startswith(BASE))
    return {
        "worker": up(lab_config["worker"]),
        "workerKit": up(lab_config["workerKit"]),
        "panelWorkers": {"judge": up(assets["judge-worker.js"]["url"])},
        "pyodide": up(lab_config["pyodide"]),
        "runtime": up(lab_config["runtime"]),
        "wasm": {**lab_config["wasm"], "url": up(lab_config["wasm"]["url"])},
        "decoder": {key: up(value) for key, value in lab_config["decoder"].items()},
        "wheel": {**lab_config["wheel"], "url": up(lab_config["wheel"]["url"])},
        "snapshot": lab_config["snapshot"] and {**lab_config["snapshot"], "url": up(lab_config["snapshot"]["url"])},
        "lock": lab_config["lock"],
        "workerTexts": lab_config["workerTexts"],
        "sample": {
            "queries": up(BASE + "consultas.tsv"),
            "corpus": up(BASE + "corpus.jsonl"),
            "runs": [up(path) for path in sample if "/run-" in path],
            "judge": up(BASE + "juez-lexico.txt"),
            "depth": str(SAMPLE_DEPTH),
        },
        "lab": "../",
        "words": words,
    }
