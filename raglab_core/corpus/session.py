"""The «Tu corpus» panel's session: chunking configurations measured on your own corpus, in the page's worker.

The page's worker streams the files into a :class:`CorpusSession` a chunk at a
time (nothing leaves the browser; the protocol is
:class:`raglab_core.runs.stream.StreamSession`'s): the corpus (BEIR's
``corpus.jsonl``, or ``.txt``/``.md`` files, a dropped folder's included), then
the queries and the evidence (span JSONL, or Chroma's ``questions_df.csv``,
which holds the queries), and optionally your own chunks and a run over them,
read by the same readers as ``python -m raglab_core chunks``. Then:

1. :meth:`CorpusSession.prepare` tokenizes the corpus once
   (:func:`~raglab_core.corpus.evaluate.prepare`);
2. each :meth:`CorpusSession.step` measures one configuration ``C:O``
   (:func:`~raglab_core.corpus.evaluate.evaluate_config`) and answers its
   table row (:func:`~raglab_core.corpus.panel.config_row`: footprint and
   means), so that rows appear as each configuration ends;
3. :meth:`CorpusSession.finish` adds each configuration's 95 % intervals
   (:func:`~raglab_core.corpus.sweep.config_json`), compares each with the
   baseline (:func:`~raglab_core.corpus.sweep.report`, Holm over the
   comparisons of each measure) and answers the whole panel
   (:func:`~raglab_core.corpus.panel.panel_view`).

Once finished, it answers a query in detail and the downloads. The JSON
download is :func:`~raglab_core.corpus.sweep.report_text` of that same report:
the bytes ``chunks --json`` prints for the same files and settings.
:func:`measure_files` does all of it for whole texts.

>>> view = measure_files({"name": "c.jsonl", "text": '{"_id": "d", "text": "el gato duerme en la alfombra"}'},
...                      {"name": "q.tsv", "text": "q1\\tgato"},
...                      {"name": "s.jsonl", "text": '{"query_id": "q1", "doc_id": "d", "start": 3, "end": 7}'},
...                      {"sweep": "2:0 4:1", "at": "1"})
>>> [(row["name"], row["cells"][1]["text"]) for row in view["rows"]]
[('2:0', '1,000'), ('4:1', '1,000')]
"""

import re

from ..errors import LabError
from ..runs.inputs import read_all
from ..runs.statistics import RESAMPLES
from ..runs.stream import StreamSession
from ..runs.decoding import format_name
from ..runs.trec import parse_qrels, parse_run
from ..settings import number_setting, written_number
from ..words import (TOKENIZING_PROGRESS, baseline_progress, config_intervals_progress, corpus_reading_progress,
                     indexing_progress, own_run_progress, queries_progress)
from .bm25 import B, DEPTH, K1
from .chroma import QuestionsReader
from .chunks import chunk_table
from .documents import CorpusReader, corpus_slots, documents_from_files
from .evaluate import CUTS, evaluate_chunks_run, evaluate_config, prepare
from .exchange import ChunksReader, chunk_lines, run_lines
from .lines import WholeText
from .panel import DEFAULT_SWEEP, LIMITS, config_row, panel_view, query_detail, table_columns
from .queries import QueriesReader
from .spans import SpansReader
from .sweep import config_json, config_name, parse_config, parse_sweep, report, report_queries, report_text

PROGRESS_EVERY = 20
"""Queries between two progress messages."""
CLI = "python -m raglab_core chunks"
SUBJECTS = {"corpus": ("El corpus", "ocupa"), "queries": ("Las consultas", "ocupan"), "evidence": ("La evidencia", "ocupa"),
            "qrels": ("Los qrels", "ocupan"), "chunks": ("Tus chunks", "ocupa"), "run": ("Tu run", "ocupa")}
"""Each input as the sentence that refuses it, too big, names it."""


def parse_cuts(text) -> list:
    """The cuts k, ``"1,3,5,10"`` or ``"1 3 5 10"``: whole numbers from 1 to 100, sorted, repeats dropped.

    >>> parse_cuts("10, 1 5 5")
    [1, 5, 10]
    """
    items = [item for item in re.split(r"[\s,;]+", str(text or "").strip()) if item]
    numbers = [written_number(item, whole=True) for item in items]
    if not items or not all(number is not None and 1 <= number <= 100 for number in numbers) \
            or len(set(items)) > 8:
        raise LabError.page("Los cortes k deben ser entre 1 y 8 enteros de 1 a 100, separados por comas: «1,3,5,10».",
                            field="at")
    return sorted(set(numbers))


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
        self.k1 = number_setting(settings.get("k1", K1), "k1", "k1", 0.0)
        self.b = number_setting(settings.get("b", B), "b", "b", 0.0, 1.0)
        self.cuts = parse_cuts(settings.get("at") or ",".join(map(str, CUTS)))
        self.depth = DEPTH

    def command(self, names: dict) -> str:
        """The command line that measures the same thing (what to run when the corpus is too big for the page)."""
        corpus = names["corpus"][0] if len(names["corpus"]) == 1 else "CARPETA"
        evidence, qrels = names.get("evidence"), names.get("qrels")
        chroma = evidence and format_name(evidence).lower().endswith(".csv")
        queries = names.get("queries") or ("-" if chroma else "CONSULTAS")
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


class CorpusSession(StreamSession):
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
        super().__init__(progress)
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
        self.chroma = bool(self.names["evidence"]) and format_name(self.names["evidence"]).lower().endswith(".csv")
        if self.names["queries"] is None and not self.chroma:
            raise LabError.page("Faltan las consultas: elige un queries.jsonl o un TSV id<TAB>texto (o usa como "
                                "evidencia el questions_df.csv de Chroma, que las incluye).", field="queries")
        if (self.names["chunks"] is None) != (self.names["run"] is None):
            missing = "run" if self.names["run"] is None else "chunks"
            raise LabError.page("Tus chunks y tu run van juntos: elige los dos, o ninguno para medir las "
                                "configuraciones.", field=missing)
        self.check_sizes(request.get("sizes"), LIMITS, SUBJECTS, self.settings.command(self.names))
        self.ids, self.order, many = corpus_slots(corpus)
        self.order += ["evidence", "queries"] if self.chroma else ["queries", "evidence"]
        self.order += ["qrels"]
        self.order = [slot for slot in self.order if slot.startswith("corpus/") or self.names[slot]]
        if self.names["chunks"]:
            self.order += ["chunks", "run"]
        self.many = many
        self.position = -1
        self.reader = None
        self.files, self.documents, self.queries, self.spans, self.qrels = [], None, None, [], None
        self.chunk_spans = self.chunk_run = None
        self.prepared = None
        self.results, self.entries, self.tables = [], [], {}
        self.data = self.numbers = None

    def field(self, slot=None) -> str:
        """The input a slot belongs to (``"corpus"`` for each of the corpus's files)."""
        return (slot or self.slot or "corpus").split("/")[0]

    def blamed(self, slot):
        """A failure is tied to the input its file belongs to (:meth:`field`)."""
        return slot and self.field(slot)

    def name(self, slot=None) -> str:
        """The file's own name (a dropped folder's path without its folders)."""
        slot = slot or self.slot
        if slot.startswith("corpus/"):
            return self.names["corpus"][int(slot.split("/")[1])].split("/")[-1]
        return self.names[slot].split("/")[-1]

    def next(self) -> str | None:
        """The slot of the next file to read from its start, or ``None`` once every file is read."""
        self.position += 1
        slot = self.slot
        if slot is None:
            return None
        name = self.name(slot)
        self.reader = WholeText(name)
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
        self.progress(0.0, corpus_reading_progress(self.field(slot), name))
        return slot

    def feed(self, text: str, done=None) -> bool:
        """The next chunk of the file's text; ``False``: go on reading it."""
        self.reader.feed(text)
        return False

    def end(self) -> None:
        """End the file being read."""
        slot = self.slot
        if slot.startswith("corpus/"):
            if self.many:
                self.files.append((self.ids[int(slot.split("/")[1])], self.reader.close()))
            else:
                self.documents = self.reader.close()
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
            self.qrels = parse_qrels(self.reader.close(), self.name(slot))
        elif slot == "run":
            self.chunk_run = parse_run(self.reader.close(), self.name(slot))
        self.reader = None

    def _documents(self):
        if self.documents is None:
            self.documents = documents_from_files(self.files)
            self.files = []

    def prepare(self) -> dict:
        """Tokenize the corpus once; answer its summary (``{"documents", "tokens", "queries", "spans"}``)."""
        self._documents()
        if self.queries is None:
            raise LabError.page("Lee primero el corpus, las consultas y la evidencia.")
        self.progress(0.02, TOKENIZING_PROGRESS)
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
            self.progress(start, own_run_progress(self.names["run"]))
            result = evaluate_chunks_run(prepared, self.chunk_spans, self.chunk_run, cuts=settings.cuts,
                                         qrels=self.qrels, chunks_name=self.name("chunks"), run_name=self.name("run"))
        else:
            chunk, overlap = configs[index]
            name = config_name(chunk, overlap)
            self.progress(start, indexing_progress(name))

            def told(done, total):
                if done % PROGRESS_EVERY == 0 or done == total:
                    self.progress(start + share * 0.8 * done / max(total, 1),
                                  queries_progress(done, total, name))

            result = evaluate_config(prepared, chunk, overlap, k1=settings.k1, b=settings.b, depth=settings.depth,
                                     cuts=settings.cuts, qrels=self.qrels, progress=told)
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
                          config_intervals_progress(result.name, RESAMPLES))
            self.entries.append(config_json(result, queries))
        pairs = len(results) - 1
        base = results[baseline].name

        def compared(index, name, pair, total):
            if name is not None:
                self.progress(0.8 + 0.2 * pair_number(pair) / max(total, 1),
                              baseline_progress(base, results[pair[1]].name, name))

        def pair_number(pair):
            return pair[1] - (pair[1] > baseline)

        if pairs:
            self.progress(0.8, baseline_progress(base))
        self.data = report(self.prepared, results, baseline, k1=self.settings.k1, b=self.settings.b,
                           depth=self.settings.depth, configs=self.entries, progress=compared)
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
    read_all(session, lambda slot: [items[slot]["text"]])
    session.prepare()
    return session.finish()


