"""The judging page's session (``dist/juzgar/``, DESIGN §4.13): its files streamed in, a job out.

The page's worker streams the reader's files into a :class:`JudgeSession` a chunk at a time (the
protocol of :class:`raglab_core.runs.stream.StreamSession`; nothing leaves the browser):

1. the runs (``"A"``, ``"B"``, … up to twelve) or a pool file (``"pool"``: the TSV ``pool`` prints),
   or a job exported as JSON (``"job"``: :func:`raglab_core.judges.job.import_json`, which
   continues a job on another machine);
2. optionally the qrels already made (``"qrels"``: those pairs are skipped) and a model's qrels
   (``"judge"``: the pairs are a sample of them, stratified by the model's grade, whose grades are
   never kept);
3. then the pairs are drawn (:mod:`raglab_core.judges.pooling`, the code of ``pool``) and the job made
   (:func:`raglab_core.judges.job.make_job`), and only then are the queries and the corpus read,
   keeping the texts of the pooled pairs alone: a 50 MB corpus is read once, never held whole.

:meth:`JudgeSession.finish` answers ``{"job", "grades", "texts": {"queries": {qid: text}, "documents":
{docid: {"title", "text"}}}, "notes": [sentences]}``: what the page stores (IndexedDB) to judge, and
judge again after a reload, without the files.

>>> session = judge_files({"name": "q.tsv", "text": "q1\\tgatos"},
...                       [{"name": "c.jsonl", "text": '{"_id": "d1", "text": "Los gatos duermen."}'}],
...                       runs=[{"name": "r.txt", "text": "q1 Q0 d1 1 2.0 x\\nq1 Q0 d9 2 1.0 x"}],
...                       settings={"depth": "1"})
>>> session["job"]["pairs"], session["texts"]["documents"]["d1"]["text"]
([['q1', 'd1']], 'Los gatos duermen.')
"""

from ..errors import LabError
from ..runs.evaluation import trec_order
from ..runs.inputs import SLOTS, read_all
from ..runs.stream import StreamSession
from ..runs.trec import QrelsReader, RunReader
from ..words import megabytes
from . import page_texts as judge_words

LIMIT = 200_000_000
"""The largest input (bytes) the page reads: the corpus is streamed and only the pooled documents are kept."""


def _whole_number(text, field: str, label: str, low: int, high: int, default=None) -> int | None:
    """A setting written as a whole number within ``[low, high]``; ``default`` when empty."""
    value = str(text if text is not None else "").strip()
    if not value:
        return default
    if not (value.isascii() and value.isdigit()) or not low <= int(value) <= high:
        raise LabError.page(judge_words.NUMBER_SETTING.format(label=label, low=low, high=high, value=value),
                            field=field)
    return int(value)


class JudgeSession(StreamSession):
    """One judging job made in the worker from the reader's files.

    ``request``: ``{"runs": [names], "pool": name, "job": name, "qrels": name, "judge": name, "queries": name,
    "corpus": [names], "sizes": {input: bytes}, "depth", "sample", "seed", "scale"}`` (names ``null`` when
    not chosen; one of runs, pool, judge or job is needed, and the queries and the corpus always).
    """

    def __init__(self, request: dict, progress=None):
        super().__init__(progress)
        if not isinstance(request, dict):
            raise LabError.page("La petición debe ser un objeto JSON.")
        names = lambda key: [n for n in (request.get(key) or []) if isinstance(n, str) and n]  # noqa: E731
        one = lambda key: request.get(key) if isinstance(request.get(key), str) and request.get(key) else None  # noqa: E731
        self.names = {"runs": names("runs")[: len(SLOTS)], "corpus": names("corpus")}
        for key in ("pool", "job", "qrels", "judge", "queries"):
            self.names[key] = one(key)
        self.settings = {
            "depth": _whole_number(request.get("depth"), "depth", "La profundidad", 1, 10_000, 10),
            "sample": _whole_number(request.get("sample"), "sample", "La muestra", 1, 1_000_000, None),
            "seed": _whole_number(request.get("seed"), "seed", "La semilla", 0, 2**32 - 1, 0),
            "scale": 2 if str(request.get("scale")) == "2" else 4,
        }
        if not (self.names["runs"] or self.names["pool"] or self.names["judge"] or self.names["job"]):
            raise LabError.page(judge_words.NEED_PAIRS, field="run-a")
        if not self.names["queries"]:
            raise LabError.page(judge_words.NEED_QUERIES, field="queries")
        if not self.names["corpus"]:
            raise LabError.page(judge_words.NEED_CORPUS, field="corpus")
        sizes = request.get("sizes") if isinstance(request.get("sizes"), dict) else {}
        self.sizes = sizes
        for key, size in sizes.items():
            total = sum(size) if isinstance(size, list) else size if isinstance(size, int) else 0
            if total > LIMIT:
                raise LabError.page(judge_words.TOO_BIG.format(size=megabytes(total), limit=megabytes(LIMIT)), field=key)
        self.slots = dict(zip(SLOTS, self.names["runs"]))
        first = list(self.slots) if not self.names["job"] else ["job"]
        if self.names["pool"] and not self.names["job"]:
            first = ["pool"]
        self.order = first + [s for s in ("qrels", "judge") if self.names[s]] + ["queries"]
        self.order += [f"corpus/{i}" for i in range(len(self.names["corpus"]))]
        self.runs, self.pool_pairs, self.judged, self.judge = [], None, None, None
        self.job, self.grades, self.queries, self.documents = None, {}, {}, {}
        self.needed_queries, self.needed_documents = set(), set()
        self.reader, self.parts = None, []
        self.notes = []

    # --- the files' names, as errors give them ------------------------------------------------

    def field(self, slot=None) -> str:
        slot = slot or self.slot or ""
        if slot in self.slots:
            return "run-" + slot.lower()
        if slot.startswith("corpus/"):
            return "corpus"
        return {"judge": "judge-qrels"}.get(slot, slot)

    blamed = field

    def name(self, slot=None) -> str:
        slot = slot or self.slot or ""
        if slot in self.slots:
            return self.slots[slot]
        if slot.startswith("corpus/"):
            return self.names["corpus"][int(slot.split("/")[1])]
        return self.names.get(slot) or slot

    # --- reading --------------------------------------------------------------------------------

    def next(self):
        if self.position + 1 < len(self.order) and self.order[self.position + 1] == "queries":
            if self.job is None:
                self._make_job()
            for qid, doc_id in self.job["pairs"]:
                self.needed_queries.add(qid)
                self.needed_documents.add(doc_id)
        self.position += 1
        slot = self.slot
        self.reader, self.parts = None, []
        if slot is None:
            return None
        name = self.name(slot)
        if slot in self.slots:
            self.reader = RunReader(name)
        elif slot in ("qrels", "judge"):
            self.reader = QrelsReader(name)
        elif slot == "queries":
            from ..corpus.queries import QueriesReader

            self.reader = QueriesReader(name)
        elif slot.startswith("corpus/") and name.lower().endswith((".jsonl", ".json")):
            from ..corpus.documents import CorpusReader

            self.reader = CorpusReader(name)
        if self.heard:
            self.progress(self.position / max(1, len(self.order)), judge_words.reading(name))
        return slot

    def feed(self, text: str, done=None) -> bool:
        if self.reader is not None:
            self.reader.feed(text)
        else:
            self.parts.append(text)
        if self.heard and done is not None:
            size = self.sizes.get(self.slot.split("/")[0] if self.slot else "")
            if isinstance(size, list):
                size = size[int(self.slot.split("/")[1])] if self.slot.startswith("corpus/") else None
            if isinstance(size, int) and size:
                self.progress((self.position + min(1, done / size)) / max(1, len(self.order)),
                              judge_words.reading(self.name(), done, size))
        return False

    def end(self) -> None:
        slot = self.slot
        if slot in self.slots:
            run = self.reader.close()
            depth = self.settings["depth"]
            self.runs.append({qid: {d: scores[d] for d in trec_order(scores)[:depth]} for qid, scores in run.items()})
        elif slot == "qrels":
            self.judged = self.reader.close()
        elif slot == "judge":
            self.judge = self.reader.close()
        elif slot == "pool":
            from .pooling import read_pool

            self.pool_pairs = read_pool("".join(self.parts), self.name())
        elif slot == "job":
            from .job import import_json

            self.job, self.grades = import_json("".join(self.parts))
        elif slot == "queries":
            queries = self.reader.close()
            self.queries = {qid: queries[qid] for qid in self.needed_queries if qid in queries}
        elif slot.startswith("corpus/"):
            if self.reader is not None:
                documents = self.reader.close()
                for doc_id in self.needed_documents & documents.keys():
                    document = documents[doc_id]
                    self.documents[doc_id] = {"title": document.title, "text": document.text}
            else:
                from ..corpus.session import folder_ids

                doc_id = folder_ids(self.names["corpus"])[int(slot.split("/")[1])]
                if doc_id in self.needed_documents:
                    self.documents[doc_id] = {"title": "", "text": "".join(self.parts)}
        self.reader, self.parts = None, []

    def _make_job(self) -> None:
        """Draw the pairs (the code of ``pool``) and make the job, before the queries and the corpus are read."""
        from . import pooling
        from .job import make_job

        settings = dict(self.settings)
        if self.runs:
            pairs, notices = pooling.choose(self.runs, settings["depth"], self.judged, settings["sample"],
                                            settings["seed"], self.judge)
            self.notes += [notice.render("es") for notice in notices if notice.code != "pool_empty"]
        elif self.pool_pairs is not None:
            judged = self.judged or {}
            pairs = [(q, d) for q, d in self.pool_pairs if d not in judged.get(q, {})]
            if settings["sample"]:
                pairs = pooling.sample(pairs, settings["sample"], settings["seed"])
        else:  # a model's qrels alone: the sample is drawn from every pair it grades
            count = settings["sample"] or sum(len(docs) for docs in self.judge.values())
            pairs = pooling.stratified(self.judge, count, settings["seed"], exclude=self.judged)
        if not pairs:
            raise LabError.page(judge_words.NO_PAIRS, field="run-a")
        inputs = {}
        for key, value in self.names.items():
            size = self.sizes.get("A" if key == "runs" else key)
            if key == "runs":
                for slot, name in self.slots.items():
                    inputs["run-" + slot.lower()] = {"name": name, "size": self.sizes.get(slot)}
            elif key == "corpus" and value:
                inputs["corpus"] = {"name": ", ".join(value), "size": sum(size) if isinstance(size, list) else size}
            elif value:
                inputs[key] = {"name": value, "size": size}
        self.judge = None  # its grades are never kept, nor shown
        self.job = make_job(settings, pairs, inputs)

    def finish(self) -> dict:
        missing = [pair for pair in self.job["pairs"] if pair[0] not in self.queries or pair[1] not in self.documents]
        notes = list(self.notes)
        if missing:
            notes.append(judge_words.missing_texts(len(missing), len(self.job["pairs"])))
        return {"job": self.job, "grades": self.grades, "notes": notes,
                "texts": {"queries": self.queries, "documents": self.documents}}


def judge_files(queries, corpus, runs=(), settings=None, pool=None, qrels=None, judge=None, job=None) -> dict:
    """:class:`JudgeSession` over whole texts (``{"name", "text"}`` each; ``corpus`` a list of them)."""
    files = {"queries": queries, "pool": pool, "qrels": qrels, "judge": judge, "job": job}
    files.update(zip(SLOTS, runs))
    files.update((f"corpus/{i}", item) for i, item in enumerate(corpus))
    request = {key: (item or {}).get("name") for key, item in files.items() if key in ("queries", "pool", "qrels", "judge", "job")}
    request.update(runs=[run["name"] for run in runs], corpus=[item["name"] for item in corpus], **(settings or {}))
    session = JudgeSession(request)
    read_all(session, lambda slot: [files[slot]["text"]])
    return session.finish()
