"""The «Tu corpus» panel: chunking configurations measured on your own corpus, in the browser, explained in Spanish.

The page's worker streams the files into a :class:`CorpusSession` a chunk at a
time (nothing leaves the browser): the corpus (BEIR's ``corpus.jsonl``, or
``.txt``/``.md`` files, a dropped folder's included), then the queries and the
evidence (span JSONL, or Chroma's ``questions_df.csv``, which holds the
queries), and optionally your own chunks and a run over them, read by the
same readers as ``python -m raglab_core chunks``. Then:

1. :meth:`CorpusSession.prepare` tokenizes the corpus once
   (:func:`~raglab_core.corpus.evaluate.prepare`);
2. each :meth:`CorpusSession.step` measures one configuration ``C:O``
   (:func:`~raglab_core.corpus.evaluate.evaluate_config`) and answers its
   table row (footprint and means), so that rows appear as each
   configuration ends;
3. :meth:`CorpusSession.finish` adds each configuration's 95 % intervals
   (:func:`~raglab_core.corpus.sweep.config_json`), compares each with the
   baseline (:func:`~raglab_core.corpus.sweep.report`, Holm over the
   comparisons of each measure) and answers the whole panel: the rows with
   their comparison, the warnings, the plot of quality against indexed tokens
   and its reading, for every measure.

The JSON download is :func:`~raglab_core.corpus.sweep.report_text` of that
same report: the bytes ``chunks --json`` prints for the same files and
settings. :func:`measure_files` does all of it for whole texts.

>>> view = measure_files({"name": "c.jsonl", "text": '{"_id": "d", "text": "el gato duerme en la alfombra"}'},
...                      {"name": "q.tsv", "text": "q1\\tgato"},
...                      {"name": "s.jsonl", "text": '{"query_id": "q1", "doc_id": "d", "start": 3, "end": 7}'},
...                      {"sweep": "2:0 4:1", "at": "1"})
>>> [(row["name"], row["cells"][1]["text"]) for row in view["rows"]]
[('2:0', '1,000'), ('4:1', '1,000')]
"""

import math
import re

from ..errors import LabError
from ..formatting import DASH, NBSP, count, decimal, integer, percent, spanish_list
from ..runs.cells import cell, interval
from ..words import megabytes
from ..runs.decoding import undecodable
from ..runs.report import ALPHA
from ..runs.sanity import Notice
from ..runs.statistics import PERMUTATIONS, RESAMPLES, p_value_text
from ..runs.trec import parse_qrels, parse_run
from ..words import corpus_panel_words
from .bm25 import B, DEPTH, K1
from .chroma import QuestionsReader
from .chunks import chunk_table
from .documents import CorpusReader, documents_from_files, is_document_file
from .evaluate import CUTS, evaluate_chunks_run, evaluate_config, prepare
from .exchange import ChunksReader, chunk_lines, run_lines
from .measures import held
from .queries import QueriesReader
from .spans import SpansReader
from .sweep import config_json, config_name, parse_config, parse_sweep, report, report_queries, report_text

DEFAULT_SWEEP = "128:0 256:0 256:32 512:0 512:64 1024:128"
"""The configurations the panel starts from (the chunking panel's own is added by its link)."""
LIMITS = {"corpus": 32_000_000, "queries": 8_000_000, "evidence": 16_000_000, "qrels": 16_000_000,
          "chunks": 64_000_000, "run": 64_000_000}
"""The most bytes (or pasted characters) of each input the browser takes; beyond, the command line."""
DETAIL_DEPTH = 20
"""The query detail shows each configuration's top k chunks, k the largest cut, but never more than this many."""
EXCERPT = 360
"""Characters of a chunk the query detail shows (then «…»)."""
QUERY_OPTIONS = 500
"""The query detail's list offers the first this many queries."""
PROGRESS_EVERY = 20
"""Queries between two progress messages."""
FAMILIES_SHOWN = ("EvidenceRecall", "CharIoU", "CharPrecision")
"""The evidence measures the table shows at each cut, after the ceiling (CharRecall is in the JSON)."""
EVIDENCE_FAMILIES = ("Ceiling", "EvidenceRecall", "CharRecall", "CharIoU", "CharPrecision")
"""The evidence measures (spans); every other measure is a document measure (qrels)."""
CLI = "python -m raglab_core chunks"


def _number(text, field: str, label: str, low: float, high: float | None) -> float:
    """A decimal setting written with a comma or a point, within ``[low, high]`` (a ``LabError`` otherwise)."""
    value = str(text if text is not None else "").strip().replace(",", ".")
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not math.isfinite(number) or number < low or (high is not None and number > high):
        bound = f"entre {decimal(low, 1)} y {decimal(high, 1)}" if high is not None else f"mayor o igual que {decimal(low, 1)}"
        raise LabError.page(f"{label} debe ser un número {bound}: «{str(text).strip()}» no lo es.", field=field)
    return number


def parse_cuts(text) -> list:
    """The cuts k, ``"1,3,5,10"`` or ``"1 3 5 10"``: whole numbers from 1 to 100, sorted, repeats dropped.

    >>> parse_cuts("10, 1 5 5")
    [1, 5, 10]
    """
    items = [item for item in re.split(r"[\s,;]+", str(text or "").strip()) if item]
    if not items or not all(item.isascii() and item.isdigit() and 1 <= int(item) <= 100 for item in items) \
            or len(set(items)) > 8:
        raise LabError.page("Los cortes k deben ser entre 1 y 8 enteros de 1 a 100, separados por comas: «1,3,5,10».",
                            field="at")
    return sorted({int(item) for item in items})


class Settings:
    """The panel's settings, read and checked: ``configs`` (``[(C, O)]``), ``baseline`` (its index), ``k1``, ``b``,
    ``cuts``; each bad one is a ``LabError`` naming its field (``sweep``, ``baseline``, ``k1``, ``b``, ``at``)."""

    def __init__(self, settings: dict):
        self.configs = parse_sweep(settings.get("sweep") or DEFAULT_SWEEP)
        self.baseline = 0
        wanted = str(settings.get("baseline") or "").strip()
        if wanted:
            config = parse_config(wanted, "baseline")
            if config not in self.configs:
                raise LabError("config_baseline", field="baseline", value=wanted,
                               configs=", ".join(config_name(*c) for c in self.configs))
            self.baseline = self.configs.index(config)
        self.k1 = _number(settings.get("k1", K1), "k1", "k1", 0.0, None)
        self.b = _number(settings.get("b", B), "b", "b", 0.0, 1.0)
        self.cuts = parse_cuts(settings.get("at") or ",".join(map(str, CUTS)))
        self.depth = DEPTH

    def command(self, names: dict) -> str:
        """The command line that measures the same thing (what to run when the corpus is too big for the page)."""
        corpus = names["corpus"][0] if len(names["corpus"]) == 1 else "CARPETA"
        evidence, qrels = names.get("evidence"), names.get("qrels")
        queries = names.get("queries") or ("-" if evidence and evidence.lower().endswith(".csv") else "CONSULTAS")
        parts = [CLI, corpus, queries]
        if evidence:
            parts += ["--spans", evidence]
        if qrels:
            parts += ["--qrels", qrels]
        parts += ["--sweep", f'"{" ".join(config_name(*c) for c in self.configs)}"']
        if self.baseline:
            parts += ["--baseline", config_name(*self.configs[self.baseline])]
        if (self.k1, self.b) != (K1, B):
            parts += ["--k1", repr(self.k1), "--b", repr(self.b)]
        if self.cuts != list(CUTS):
            parts += ["--at", ",".join(map(str, self.cuts))]
        return " ".join(parts + ["--json"])


def folder_ids(names: list) -> list:
    """The documents' ids for the corpus's file names: a dropped folder's paths lose the folder's own name
    (``notas/a.txt`` is ``a.txt``, as ``chunks notas/`` names it).

    >>> folder_ids(["notas/a.txt", "notas/sub/b.md"]), folder_ids(["a.txt"])
    (['a.txt', 'sub/b.md'], ['a.txt'])
    """
    parts = [name.split("/") for name in names]
    if len(names) == 1:
        return [parts[0][-1]]
    if all(len(part) > 1 for part in parts) and len({part[0] for part in parts}) == 1:
        return ["/".join(part[1:]) for part in parts]
    return list(names)


class CorpusSession:
    """One measurement in the worker: settings and the files' names first, then each file's text in chunks.

    ``request``: ``{"corpus": [names], "queries": name | None, "evidence": name | None, "qrels": name | None,
    "chunks": name | None, "run": name | None, "sizes": {input: bytes (a list for the corpus)}, "sweep", "baseline",
    "k1", "b", "at"}``: the evidence is spans (``--spans``), document-level qrels (``--qrels``, any format ``eval``
    reads), or both. :meth:`next` names the file to read (``"corpus/0"``, …, ``"queries"``, ``"evidence"``,
    ``"qrels"``, ``"chunks"``, ``"run"``; ``None`` when all are read), :meth:`feed` takes its text, :meth:`end` ends it. Then
    :meth:`prepare`, :meth:`step` until it answers ``None``, and :meth:`finish`. ``progress(fraction, text)``
    hears how far it is, in Spanish.
    """

    def __init__(self, request: dict, progress=None):
        if not isinstance(request, dict):
            raise LabError.page("La petición debe ser un objeto JSON.")
        self.settings = Settings(request)
        corpus = request.get("corpus")
        if not isinstance(corpus, list) or not corpus or not all(isinstance(name, str) for name in corpus):
            raise LabError.page("Falta el corpus: elige un corpus.jsonl, ficheros .txt/.md o una carpeta.", field="corpus")
        self.names = {"corpus": corpus}
        for slot in ("queries", "evidence", "qrels", "chunks", "run"):
            name = request.get(slot)
            self.names[slot] = name if isinstance(name, str) and name else None
        if self.names["evidence"] is None and self.names["qrels"] is None:
            raise LabError.page("Falta la evidencia: elige un fichero de fragmentos (JSONL), el questions_df.csv de "
                                "Chroma o unos qrels de documentos.", field="evidence")
        self.chroma = bool(self.names["evidence"]) and self.names["evidence"].lower().endswith(".csv")
        if self.names["queries"] is None and not self.chroma:
            raise LabError.page("Faltan las consultas: elige un queries.jsonl o un TSV id<TAB>texto (o usa como "
                                "evidencia el questions_df.csv de Chroma, que las incluye).", field="queries")
        if (self.names["chunks"] is None) != (self.names["run"] is None):
            missing = "run" if self.names["run"] is None else "chunks"
            raise LabError.page("Tus chunks y tu run van juntos: elige los dos, o ninguno para medir las "
                                "configuraciones.", field=missing)
        self._check_sizes(request.get("sizes"))
        self.progress = progress or (lambda fraction, text: None)
        many = len(corpus) > 1 or is_document_file(corpus[0])
        self.ids = folder_ids(corpus)
        self.order = [f"corpus/{i}" for i, name in enumerate(self.ids) if not many or is_document_file(name)]
        if not self.order:
            raise LabError("no_text_files", field="corpus", name=corpus[0].split("/")[0])
        self.order += ["evidence", "queries"] if self.chroma else ["queries", "evidence"]
        self.order += ["qrels"]
        self.order = [slot for slot in self.order if slot.startswith("corpus/") or self.names[slot]]
        if self.names["chunks"]:
            self.order += ["chunks", "run"]
        self.many = many
        self.position = -1
        self.reader = None
        self.parts = []
        self.files, self.documents, self.queries, self.spans, self.qrels = [], None, None, [], None
        self.chunk_spans = self.chunk_run = None
        self.prepared = None
        self.results, self.entries, self.tables = [], [], {}
        self.data = self.numbers = None

    def _check_sizes(self, sizes):
        """A corpus too big for a browser tab is refused before anything is read, with the command to run."""
        if not isinstance(sizes, dict):
            return
        for slot, limit in LIMITS.items():
            size = sizes.get(slot)
            total = sum(size) if isinstance(size, list) else size if isinstance(size, int) else 0
            if total > limit:
                what = {"corpus": "El corpus", "queries": "Las consultas", "evidence": "La evidencia",
                        "qrels": "Los qrels", "chunks": "Tus chunks", "run": "Tu run"}[slot]
                raise LabError.page(
                    f"{what} ocupa{'n' if slot in ('queries', 'qrels') else ''} {megabytes(total)}{NBSP}MB, más de lo que esta página mide "
                    f"en el navegador ({megabytes(limit)}{NBSP}MB). Mídelo en la línea de órdenes, que da las mismas cifras: "
                    f"{self.settings.command(self.names)}", field=slot)

    @property
    def slot(self) -> str | None:
        """The file being read, or ``None``."""
        return self.order[self.position] if 0 <= self.position < len(self.order) else None

    def field(self, slot=None) -> str:
        """The input a slot belongs to (``"corpus"`` for each of the corpus's files)."""
        return (slot or self.slot or "corpus").split("/")[0]

    def name(self, slot=None) -> str:
        slot = slot or self.slot
        if slot.startswith("corpus/"):
            return self.names["corpus"][int(slot.split("/")[1])]
        return self.names[slot]

    def next(self) -> str | None:
        """The slot of the next file to read from its start, or ``None`` once every file is read."""
        self.position += 1
        slot = self.slot
        if slot is None:
            return None
        name = self.name(slot).split("/")[-1]
        self.parts = []
        self.reader = None
        if slot.startswith("corpus/") and not self.many:
            self.reader = CorpusReader(name)
        elif slot == "queries":
            self.reader = QueriesReader(name)
        elif slot == "evidence":
            self._documents()
            self.reader = QuestionsReader(name, self.documents) if self.chroma else \
                SpansReader(name, self.documents, self.queries)
        elif slot == "chunks":
            self.reader = ChunksReader(name, self.documents)
        what = {"queries": "las consultas", "evidence": "la evidencia", "qrels": "los qrels", "chunks": "tus chunks",
                "run": "tu run"}.get(self.field(slot), "el corpus")
        self.progress(0.0, f"Leyendo {what} («{name}»)…")
        return slot

    def feed(self, text: str, done=None) -> bool:
        """The next chunk of the file's text; ``False``: go on reading it."""
        if self.reader is not None:
            self.reader.feed(text)
        else:
            self.parts.append(text)
        return False

    def end(self) -> None:
        """End the file being read."""
        slot = self.slot
        if slot.startswith("corpus/"):
            if self.reader is not None:
                self.documents = self.reader.close()
            else:
                self.files.append((self.ids[int(slot.split("/")[1])], "".join(self.parts)))
        elif slot == "queries":
            self.queries = self.reader.close()
        elif slot == "evidence":
            if self.chroma:
                questions, self.spans = self.reader.close()
                self.queries = self.queries or questions
            else:
                self.spans = self.reader.close()
        elif slot == "chunks":
            self.chunk_spans = self.reader.close()
        elif slot == "qrels":  # as the command line reads --qrels: the whole text
            self.qrels = parse_qrels("".join(self.parts), self.names["qrels"].split("/")[-1])
        elif slot == "run":
            self.chunk_run = parse_run("".join(self.parts), self.names["run"].split("/")[-1])
        self.parts, self.reader = [], None

    def _documents(self):
        if self.documents is None:
            self.documents = documents_from_files(self.files)
            self.files = []

    def unreadable(self, reason: str) -> None:
        """The file being read could not be read as text."""
        raise LabError("not_utf8", field=self.field(), name=self.name().split("/")[-1], reason=reason)

    def undecodable(self, head: bytes, offset: int, byte=None) -> None:
        """The file being read is not UTF-8: what it looks like, where, and how to save it as UTF-8."""
        raise undecodable(self.name().split("/")[-1], self.field(), head, offset, byte)

    def prepare(self) -> dict:
        """Tokenize the corpus once; answer its summary (``{"documents", "tokens", "queries", "spans"}``)."""
        self._documents()
        if self.queries is None:
            raise LabError.page("Lee primero el corpus, las consultas y la evidencia.")
        self.progress(0.02, "Troceando el corpus en tokens…")
        self.prepared = prepare(self.documents, self.queries, self.spans)
        return self.prepared.summary()

    @property
    def byo(self) -> bool:
        """Your own chunks and run, instead of the configurations."""
        return self.chunk_spans is not None

    def step(self):
        """Measure the next configuration and answer its row (:func:`config_row`), or ``None`` when all are."""
        configs = [None] if self.byo else self.settings.configs
        index = len(self.results)
        if index >= len(configs):
            return None
        settings, prepared = self.settings, self.prepared
        share = 0.45 / len(configs)
        start = 0.05 + share * index
        if self.byo:
            self.progress(start, f"Midiendo tus chunks con tu run «{self.names['run']}»…")
            result = evaluate_chunks_run(prepared, self.chunk_spans, self.chunk_run, settings.cuts, self.qrels, None,
                                         self.names["chunks"].split("/")[-1], self.names["run"].split("/")[-1])
        else:
            chunk, overlap = configs[index]
            name = config_name(chunk, overlap)
            self.progress(start, f"Indexando {name}…")

            def told(done, total):
                if done % PROGRESS_EVERY == 0 or done == total:
                    self.progress(start + share * 0.8 * done / max(total, 1),
                                  f"Consultas {integer(done)} de {integer(total)} ({name})")

            result = evaluate_config(prepared, chunk, overlap, settings.k1, settings.b, settings.depth, settings.cuts,
                                     self.qrels, progress=told)
        self.results.append(result)
        entry = {"name": result.name, "chunks": result.footprint.chunks,
                 "indexed_tokens": result.footprint.indexed_tokens,
                 "duplicated_tokens": result.footprint.duplicated_tokens,
                 "mean": {name: result.mean.get(name, 0.0) for name in result.names}, "ci95": {}}
        row = config_row(entry, self.prepared.corpus.tokens, settings.cuts)
        row["columns"] = table_columns([item["measure"] for item in row["cells"]])
        return row

    def finish(self) -> dict:
        """Compare each configuration with the baseline and answer the panel (:func:`panel_view`)."""
        while self.step() is not None:
            pass
        results = self.results
        baseline = 0 if self.byo else self.settings.baseline
        queries = report_queries(results)
        for number, result in enumerate(results):  # as report() makes them, one configuration at a time
            self.progress(0.5 + 0.3 * number / len(results),
                          f"Intervalos de confianza de {result.name} ({integer(RESAMPLES)} remuestreos)…")
            self.entries.append(config_json(result, queries))
        pairs = len(results) - 1
        base = results[baseline].name

        def compared(index, name, pair, total):
            if name is not None:
                self.progress(0.8 + 0.2 * pair_number(pair) / max(total, 1),
                              f"Comparando {results[pair[1]].name} con {base} (línea base): {name}…")

        def pair_number(pair):
            return pair[1] - (pair[1] > baseline)

        if pairs:
            self.progress(0.8, f"Comparando cada configuración con {base} (línea base)…")
        self.data = report(self.prepared, results, baseline, self.settings.k1, self.settings.b, self.settings.depth,
                           configs=self.entries, progress=compared)
        return panel_view(self.data, self.settings.cuts)

    # --- once finished ----------------------------------------------------------------------------

    def report_text(self) -> str:
        """What ``chunks --json`` prints for these files and settings."""
        return report_text(self.data)

    def table(self, index: int):
        """Configuration ``index``'s chunks (kept once made)."""
        if index not in self.tables:
            result = self.results[index]
            self.tables[index] = chunk_table(self.prepared.corpus, result.chunk, result.overlap)
        return self.tables[index]

    def chunk_characters(self, index: int, chunk_id: str) -> tuple:
        """``(doc, start, end)`` of a chunk of configuration ``index`` (body characters)."""
        if self.byo:
            return self.chunk_spans[chunk_id]
        doc_id, _, j = chunk_id.rpartition("#")
        table = self.table(index)
        if self.numbers is None:
            self.numbers = {doc_id: number for number, doc_id in enumerate(self.prepared.corpus.ids)}
        return (doc_id, *table.characters(table.by_document[self.numbers[doc_id]] + int(j)))

    def detail(self, qid: str, first: int, second: int) -> dict:
        """Query ``qid``'s evidence and the first chunks of configurations ``first`` and ``second``."""
        if qid not in self.prepared.queries:
            raise LabError.page(f"La consulta «{qid}» no está entre las leídas.", field="corpus-query")
        count_ = len(self.results)
        picked = [index for index in (first, second) if isinstance(index, int) and 0 <= index < count_]
        if not picked:
            raise LabError.page("Elige una de las configuraciones medidas.", field="corpus-config")
        if len(picked) == 2 and picked[0] == picked[1]:
            picked = picked[:1]
        return query_detail(self, qid, picked)

    def download(self, kind: str, index: int = 0) -> dict:
        """``{"name", "type", "text"}``: the JSON report (``kind`` ``"json"``), configuration ``index``'s chunks
        (``"chunks"``, JSONL as ``--export-chunks`` writes them) or its chunk or document run (``"chunk-run"``,
        ``"document-run"``, TREC as ``--write-runs`` writes them)."""
        if kind == "json":
            return {"name": "raglab-chunks.json", "type": "application/json", "text": self.report_text()}
        if not (isinstance(index, int) and 0 <= index < len(self.results)):
            raise LabError.page("Elige una de las configuraciones medidas.", field="corpus-config")
        result = self.results[index]
        stem = result.name.replace(":", "-")
        if kind == "chunks":
            if self.byo:
                raise LabError.page("Tus chunks ya son tuyos: no hay chunks que exportar.", field="corpus-config")
            lines = chunk_lines(self.table(index), self.prepared.documents)
            return {"name": f"{stem}.chunks.jsonl", "type": "application/x-ndjson",
                    "text": "".join(line + "\n" for line in lines)}
        run = result.chunk_run if kind == "chunk-run" else result.document_run
        suffix = "chunks" if kind == "chunk-run" else "documents"
        return {"name": f"{stem}.{suffix}.txt", "type": "text/plain",
                "text": "".join(line + "\n" for line in run_lines(run, f"bm25-{stem}"))}


def measure_files(corpus, queries, evidence, settings=None, progress=None, chunks=None, run=None, qrels=None) -> dict:
    """The whole panel for whole texts: ``corpus`` a ``{"name", "text"}`` or a list of them, the others
    ``{"name", "text"}`` or ``None``; ``settings`` as :class:`CorpusSession` reads them."""
    files = corpus if isinstance(corpus, list) else [corpus]
    items = {f"corpus/{i}": item for i, item in enumerate(files)}
    items.update(queries=queries, evidence=evidence, qrels=qrels, chunks=chunks, run=run)
    request = {**(settings or {}), "corpus": [item["name"] for item in files]}
    for slot in ("queries", "evidence", "qrels", "chunks", "run"):
        request[slot] = items[slot]["name"] if items[slot] else None
    session = CorpusSession(request, progress)
    while (slot := session.next()) is not None:
        session.feed(items[slot]["text"])
        session.end()
    session.prepare()
    return session.finish()


# --- the view ---------------------------------------------------------------------------------------


def shown_measures(names, cuts) -> list:
    """The measures the table shows, in order: the ceiling, then each family of :data:`FAMILIES_SHOWN` at each
    cut, then the document measures (those of ``names`` not evidence measures).

    >>> shown_measures(["Ceiling", "EvidenceRecall@1", "CharRecall@1", "CharIoU@1", "CharPrecision@1", "P@1"], [1])
    ['Ceiling', 'EvidenceRecall@1', 'CharIoU@1', 'CharPrecision@1', 'P@1']
    """
    evidence = ["Ceiling", *(f"{family}@{k}" for family in FAMILIES_SHOWN for k in cuts)]
    others = [name for name in names if name.split("@")[0] not in EVIDENCE_FAMILIES]
    return [name for name in evidence if name in names] + others


def table_columns(measures) -> list:
    """The table's headings: the configuration, its footprint, then each shown measure."""
    return ["Configuración", "Chunks", "Tokens indexados", "Duplicación", *measures]


def lead_measure(names, cuts) -> str:
    """The measure the plot and the reading start from: EvidenceRecall at the largest cut up to 5.

    >>> lead_measure(["Ceiling", "EvidenceRecall@1", "EvidenceRecall@10"], [1, 10])
    'EvidenceRecall@1'
    """
    cut = max([k for k in cuts if k <= 5] or [min(cuts)])
    name = f"EvidenceRecall@{cut}"
    return name if name in names else names[0]


def config_row(entry: dict, corpus_tokens: int, cuts, comparison=None) -> dict:
    """One configuration's table row: its footprint and each shown measure's mean with its 95 % interval;
    with ``comparison`` (its pair with the baseline in the report), each measure's difference and Holm p."""
    names = list(entry["mean"])
    cells = []
    for name in shown_measures(names, cuts):
        shown = cell(entry["mean"][name])
        low, high = entry["ci95"].get(name, (None, None))
        item = {"measure": name, "raw": shown["raw"], "text": shown["text"],
                "ci": [low, high], "ci_text": f"{decimal(low, 2)}–{decimal(high, 2)}" if low is not None else ""}
        if comparison is not None:
            result = comparison["metrics"][name]
            item["delta"] = result["mean_delta"]
            item["p_adjusted"] = result["p_value_adjusted"]
            item["significant"] = result["p_value_adjusted"] < ALPHA
            delta = cell(result["mean_delta"], signed=True)["text"]
            item["mark"] = ("▲" if result["mean_delta"] > 0 else "▼") if item["significant"] else ""
            item["mark_text"] = (f"{delta} frente a la línea base, p ajustado (Holm) "
                                 f"{_p(result['p_value_adjusted'], comparison)}")
        cells.append(item)
    duplication = entry["duplicated_tokens"] / corpus_tokens if entry["duplicated_tokens"] is not None \
        and corpus_tokens else None
    return {
        "name": entry["name"],
        "chunks": entry["chunks"], "chunks_text": integer(entry["chunks"]),
        "indexed_tokens": entry["indexed_tokens"],
        "indexed_text": DASH if entry["indexed_tokens"] is None else integer(entry["indexed_tokens"]),
        "duplication": duplication,
        "duplication_text": DASH if duplication is None else percent(duplication),
        "cells": cells,
    }


def _p(value, comparison) -> str:
    return p_value_text(value, comparison.get("permutations", PERMUTATIONS), False, 0.0)


def _notice(warning) -> Notice:
    params = {key: value for key, value in warning.items() if key not in ("code", "message", "run")}
    return Notice(warning["code"], warning.get("run"), params)


def panel_view(data: dict, cuts) -> dict:
    """What the panel shows once every configuration is measured and compared (``data``: the JSON report)."""
    configs = data["configs"]
    tokens = data["corpus"]["tokens"]
    by_candidate = {pair["candidate"]: pair for pair in data["comparisons"]}
    rows = [config_row(entry, tokens, cuts, by_candidate.get(entry["name"])) for entry in configs]
    for row in rows:
        row["baseline"] = row["name"] == data["baseline"]
    names = list(configs[0]["mean"]) if configs else []
    measures = shown_measures(names, cuts)
    lead = lead_measure(measures, cuts) if measures else None
    corpus = data["corpus"]
    documents = [name for name in measures if name.split("@")[0] not in EVIDENCE_FAMILIES]
    read = [count(corpus['documents'], 'documento'), count(corpus['tokens'], 'token'),
            count(corpus['queries'], 'consulta')]
    if corpus["spans"] or not documents:
        read.append(f"{count(corpus['spans'], 'fragmento', 'fragmentos')} de evidencia")
    summary = (
        f"{spanish_list(read)}; BM25 (variante de Lucene) con k1 = {_plain(data['bm25']['k1'])} y "
        f"b = {_plain(data['bm25']['b'])}, los {data['bm25']['depth']} primeros chunks de cada consulta. "
        f"Línea base: {data['baseline']}."
    )
    if documents:
        summary += (f" Con los qrels, {spanish_list(documents)} miden el run de documentos (cada documento puntúa "
                    "como su mejor chunk) sobre las consultas de los qrels.")
    return {
        "summary": summary,
        "warnings": [{"code": w["code"], "text": _notice(w).render("es")} for w in data["warnings"]],
        "columns": table_columns(measures),
        "caption": (
            f"Media de cada medida sobre las consultas con evidencia y, debajo, su intervalo de confianza del 95 % "
            f"(bootstrap, {integer(RESAMPLES)} remuestreos). ▲ o ▼: difiere de la línea base ({data['baseline']}) con "
            f"p ajustado por Holm < {decimal(ALPHA, 2)}."
        ),
        "rows": rows,
        "measures": measures,
        "lead": lead,
        "plots": {name: plot(data, name) for name in measures},
        "readings": {name: reading(data, name) for name in measures},
        "configs": [row["name"] for row in rows],
        "queries": query_options(data),
    }


def _plain(value: float) -> str:
    """A setting as the reader wrote it: ``0.9`` as ``0,9``."""
    return repr(value).replace(".", ",").removesuffix(",0")


def query_options(data: dict) -> list:
    """``[[qid, label], …]``: the queries the detail offers (those with a value, the first :data:`QUERY_OPTIONS`)."""
    qids = report_queries_of(data)[:QUERY_OPTIONS]
    return [[qid, qid] for qid in qids]


def report_queries_of(data: dict) -> list:
    return sorted(set().union(*(entry["per_query"] for entry in data["configs"]))) if data["configs"] else []


# --- the plot: quality against indexed tokens ----------------------------------------------------------

WIDTH, HEIGHT = 600, 320
LEFT, RIGHT, TOP, BOTTOM = 56, 36, 16, 44


def nice_step(largest: float) -> float:
    """A round step (1, 2 or 5 times a power of ten) that cuts ``0..largest`` into 3 to 6 parts.

    >>> nice_step(9794), nice_step(1), nice_step(0)
    (2000, 0.2, 1)
    """
    if largest <= 0:
        return 1
    power = 10 ** math.floor(math.log10(largest / 4))
    for factor in (1, 2, 5, 10):
        if largest / (factor * power) <= 6:
            step = factor * power
            return int(step) if step >= 1 else round(step, 12)
    return 10 * power


def plot(data: dict, measure: str) -> dict:
    """The plot of ``measure`` against indexed tokens, one point per configuration with its 95 % interval, as
    coordinates in a ``WIDTH`` × ``HEIGHT`` SVG viewBox, and its values in words (the accessible text).

    The cost axis is the chunking panel's own figure (indexed tokens: overlaps counted each time), over round
    numbers around the configurations' (its ends are said in the text); the quality axis runs from 0 to 1.
    """
    configs = [entry for entry in data["configs"] if entry["indexed_tokens"] is not None]
    tokens = [entry["indexed_tokens"] for entry in configs] or [0]
    step = nice_step(max(max(tokens) - min(tokens), max(tokens) * 0.2, 1))
    low_x = step * math.floor(min(tokens) * 0.98 / step)
    top_x = step * math.ceil(max(tokens) * 1.02 / step)
    if top_x <= low_x:
        top_x = low_x + step
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(value):
        return round(LEFT + inner_w * (value - low_x) / (top_x - low_x), 2)

    def y(value):
        return round(TOP + inner_h * (1 - min(max(value, 0.0), 1.0)), 2)

    points = []
    for entry in configs:
        mean = entry["mean"][measure]
        low, high = entry["ci95"].get(measure, (mean, mean))
        points.append({
            "name": entry["name"], "baseline": entry["name"] == data["baseline"],
            "cx": x(entry["indexed_tokens"]), "cy": y(mean), "y1": y(low), "y2": y(high),
            "label_x": 0, "label_y": 0, "label_anchor": "start",
            "text": (f"{entry['name']}: {integer(entry['indexed_tokens'])} tokens indexados, {measure} "
                     f"{decimal(mean)} (IC 95 % {decimal(low)}–{decimal(high)})"),
        })
    placed = []  # labels beside their points, right of them where they fit, moved down past a label in the way
    for point in sorted(points, key=lambda point: (point["cx"], point["cy"])):
        right = point["cx"] < WIDTH - RIGHT - 70
        point["label_x"] = round(point["cx"] + (8 if right else -8), 2)
        point["label_anchor"] = "start" if right else "end"
        label_y = point["cy"] + 4
        while any(abs(other["label_x"] - point["label_x"]) < 70 and abs(other["label_y"] - label_y) < 12
                  and other["label_anchor"] == point["label_anchor"] for other in placed):
            label_y += 12
        point["label_y"] = round(label_y, 2)
        placed.append(point)
    values = "; ".join(point["text"] for point in points)
    return {
        "measure": measure,
        "width": WIDTH, "height": HEIGHT,
        "title": f"{measure} frente a tokens indexados",
        "description": (f"{measure} (eje vertical, de 0 a 1) frente a los tokens indexados (eje horizontal, de "
                        f"{integer(int(low_x))} a {integer(int(top_x))}), un punto por configuración con su intervalo del 95 %: {values}."),
        "x_label": "Tokens indexados (el coste del panel de chunking)",
        "y_label": measure,
        "x_ticks": [{"at": x(value), "text": integer(int(value)) if float(value).is_integer() else decimal(value, 1)}
                    for value in _ticks(low_x, top_x, step)],
        "y_ticks": [{"at": y(value), "text": decimal(value, 2)} for value in (0, 0.25, 0.5, 0.75, 1)],
        "frame": {"left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": HEIGHT - BOTTOM},
        "points": points,
    }


def _ticks(low: float, top: float, step: float) -> list:
    return [low + step * i for i in range(int(round((top - low) / step)) + 1)]


# --- the reading ---------------------------------------------------------------------------------------


def reading(data: dict, measure: str) -> str:
    """What the sweep shows for ``measure``, in Spanish, agreeing with every number: which configurations the data
    cannot tell from the baseline (Holm-corrected), what the extra tokens bought, what the ceiling says, and that
    BM25 is what is measured. It names no winner: each configuration is compared only with the baseline.
    """
    configs = {entry["name"]: entry for entry in data["configs"]}
    base_name = data["baseline"]
    base = configs[base_name]
    parts = []
    if data["warnings"]:
        parts.append("Atención: hay avisos sobre estos datos (arriba); léelos antes que estas cifras.")
    if len(configs) == 1:
        parts.append(f"Con una sola configuración no hay comparación: {base_name} da {measure} "
                     f"{decimal(base['mean'][measure])} (IC 95 % {interval_text(base, measure)}).")
    else:
        same, above, below = [], [], []
        for pair in data["comparisons"]:
            result = pair["metrics"][measure]
            if result["p_value_adjusted"] >= ALPHA:
                same.append(pair["candidate"])
            elif result["mean_delta"] > 0:
                above.append(pair["candidate"])
            else:
                below.append(pair["candidate"])
        holm = f"p ajustado por Holm sobre las {len(data['comparisons'])} comparaciones"
        if same:
            parts.append(
                f"En {measure}, estos datos no distinguen {_of(same)} de la línea base {base_name} "
                f"({holm} ≥ {decimal(ALPHA, 2)}), lo que no demuestra que rindan igual."
            )
        if above:
            parts.append(f"{_cap(spanish_list(above))} {'queda' if len(above) == 1 else 'quedan'} por encima de "
                         f"{base_name} en {measure} ({holm} < {decimal(ALPHA, 2)}).")
        if below:
            parts.append(f"{_cap(spanish_list(below))} {'queda' if len(below) == 1 else 'quedan'} por debajo de "
                         f"{base_name} en {measure} ({holm} < {decimal(ALPHA, 2)}).")
        if len(above) > 1:
            parts.append("Cada configuración se compara solo con la línea base: que varias la superen no dice cuál "
                         "de ellas es mejor.")
        parts.append(_tokens_bought(data, configs, base, measure))
    parts.append(_ceiling_text(configs, measure))
    parts.append(
        "Lo que se mide es BM25 sobre los chunks: un recuperador denso puede ordenar las configuraciones de otra "
        "manera. Para medir el tuyo, descarga los chunks (JSONL), recupéralos con tu modelo y trae el run (TREC, "
        "con el chunk_id como documento) en «Trae tus chunks y tu run»: se mide con las mismas medidas."
    )
    return " ".join(part for part in parts if part)


def _of(names) -> str:
    return spanish_list(names)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def interval_text(entry, measure) -> str:
    low, high = entry["ci95"][measure]
    return f"{decimal(low)}–{decimal(high)}"


def _tokens_bought(data, configs, base, measure) -> str:
    """What the configurations that index more tokens than the baseline got for them, in ``measure``."""
    tokens = base["indexed_tokens"]
    if tokens is None:
        return ""
    pairs = {pair["candidate"]: pair["metrics"][measure] for pair in data["comparisons"]}
    more = [name for name, entry in configs.items() if entry["indexed_tokens"] is not None and entry["indexed_tokens"] > tokens]
    if not more:
        return f"Ninguna configuración indexa más tokens que la línea base ({integer(tokens)})."
    said = []
    for name in more:
        entry, result = configs[name], pairs[name]
        extra = entry["indexed_tokens"] / tokens - 1
        delta = cell(result["mean_delta"], signed=True)["text"]
        low, high = (cell(end, signed=True)["text"] for end in result["ci95"])
        verdict = "una diferencia que estos datos distinguen" if result["p_value_adjusted"] < ALPHA else \
            "una diferencia que estos datos no distinguen del azar"
        said.append(f"{name} indexa un {percent(extra)} más ({integer(entry['indexed_tokens'])} tokens) y cambia "
                    f"{measure} en {delta} (IC 95 % de la diferencia {low} a {high}): {verdict}")
    return f"Frente a la línea base ({integer(tokens)} tokens indexados): " + "; ".join(said) + "."


def _ceiling_text(configs, measure) -> str:
    ceilings = {name: entry["mean"].get("Ceiling") for name, entry in configs.items()}
    if any(value is None for value in ceilings.values()):
        return ""
    low = min(ceilings, key=lambda name: (ceilings[name], name))
    high = max(ceilings, key=lambda name: (ceilings[name], name))
    text = (
        "El techo (Ceiling) es la parte de la evidencia que cabe entera en algún chunk, antes de recuperar nada: "
        "ningún recuperador, ni BM25 ni uno denso, puede pasar de él en EvidenceRecall con esos chunks. "
    )
    if ceilings[low] == ceilings[high]:
        text += f"Aquí vale {decimal(ceilings[low])} en todas las configuraciones."
    else:
        text += f"Aquí va de {decimal(ceilings[low])} ({low}) a {decimal(ceilings[high])} ({high})."
    if measure.startswith("EvidenceRecall"):
        gaps = {name: ceilings[name] - configs[name]["mean"][measure] for name in configs}
        widest = max(gaps, key=lambda name: (gaps[name], name))
        text += (f" La mayor distancia entre el techo y {measure} es la de {widest} ({decimal(gaps[widest])}): esa "
                 "parte la pierde la recuperación, no el corte.")
    return text


# --- one query in detail ---------------------------------------------------------------------------------


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` with its whitespace runs made single spaces, cut at ``limit`` characters with «…».

    >>> excerpt("uno\\n\\ndos   tres", 8)
    'uno dos…'
    """
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit].rstrip() + "…"


def query_detail(session: CorpusSession, qid: str, picked: list) -> dict:
    """Query ``qid``'s evidence spans and, for each configuration of ``picked`` (indices), its top k chunks (k the
    largest cut the measures read, at most :data:`DETAIL_DEPTH`), each saying which spans it holds whole and which
    it cuts."""
    prepared = session.prepared
    spans = prepared.evidence.get(qid, [])
    documents = prepared.documents
    items = []
    for number, (doc, start, end) in enumerate(spans, 1):
        items.append({"number": number, "doc": doc, "start": start, "end": end,
                      "label": f"Evidencia {number} · «{doc}», caracteres {integer(start)}–{integer(end)}",
                      "text": excerpt(documents[doc].body[start:end], 600)})
    judged = (session.qrels or {}).get(qid, {})
    columns = []
    for index in picked:
        result = session.results[index]
        ranked = list(result.chunk_run.get(qid, {}).items())[:min(max(session.settings.cuts), DETAIL_DEPTH)]
        chunks = []
        for rank, (chunk_id, score) in enumerate(ranked, 1):
            doc, start, end = session.chunk_characters(index, chunk_id)
            whole = [n for n, span in enumerate(spans, 1) if held(span, (doc, start, end))]
            cut = [n for n, (d, s, e) in enumerate(spans, 1)
                   if d == doc and s < end and start < e and n not in whole]
            said = []
            if whole:
                said.append(f"contiene entera{'s las evidencias' if len(whole) > 1 else ' la evidencia'} "
                            f"{spanish_list(map(str, whole))}")
            if cut:
                said.append(f"corta {'las evidencias' if len(cut) > 1 else 'la evidencia'} {spanish_list(map(str, cut))}")
            grade = judged.get(doc)
            if grade is not None and grade > 0:
                said.append(f"su documento es relevante en los qrels (grado {grade})")
            chunks.append({
                "rank": rank, "id": chunk_id, "score": decimal(score, 3),
                "whole": whole, "cut": cut, "relevant": grade if grade is not None and grade > 0 else None,
                "relation": "; ".join(said) if said else
                "ni toca ninguna evidencia ni su documento es relevante en los qrels" if session.qrels is not None
                else "no toca ninguna evidencia",
                "text": excerpt(documents[doc].body[start:end]),
            })
        ceiling = result.per_query.get(qid, {}).get("Ceiling")
        columns.append({
            "name": result.name,
            "caption": f"{result.name}: sus {len(chunks)} primeros chunks" if len(chunks) != 1 else
            f"{result.name}: su primer chunk",
            "empty": "" if chunks else "BM25 no recupera ningún chunk para esta consulta.",
            "ceiling": "" if ceiling is None else f"Techo de esta consulta: {decimal(ceiling)}.",
            "chunks": chunks,
        })
    return {
        "qid": qid,
        "title": f"Consulta «{qid}»",
        "query": prepared.queries[qid],
        "spans": items,
        "no_spans": "" if items or session.qrels is not None and not session.spans else
        "Esta consulta no tiene evidencia: las medidas de evidencia la dejan fuera.",
        "judged": _judged_text(session.qrels, judged),
        "columns": columns,
    }


def _judged_text(qrels, judged: dict) -> str:
    """What the qrels (when given) say of a query: its relevant documents, with their grades."""
    if qrels is None:
        return ""
    relevant = [f"«{doc}» (grado {grade})" for doc, grade in judged.items() if grade > 0]
    if not relevant:
        return "Los qrels no dan ningún documento relevante para esta consulta."
    shown = relevant[:DETAIL_DEPTH]
    more = f" y {integer(len(relevant) - len(shown))} más" if len(relevant) > len(shown) else ""
    return f"Relevantes según los qrels: {', '.join(shown)}{more}."


def page_settings() -> dict:
    """What the page's «Tu corpus» script and template need before Python runs (the build's ``lab_config``)."""
    return {
        "sweep": DEFAULT_SWEEP,
        "k1": _plain(K1),
        "b": _plain(B),
        "at": ",".join(map(str, CUTS)),
        "limits": LIMITS,
        "words": corpus_panel_words(),
    }
