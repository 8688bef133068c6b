"""The judging page's Python (raglab_core.judges: job, grades, marking, progress, pair_view, exports, pooling): the judging order (grouped by query, seeded shuffle), the
query's words marked (whole words, ignoring case and accents), the progress, hostile documents passed through as
text, qrels that `eval` reads, the job's file exported and imported, the pool file's reader."""

import json
import random

import pytest

from raglab_core.corpus.documents import Document, read_corpus
from raglab_core.errors import LabError
from raglab_core.judges.exports import export_json, job_summary, qrels_text
from raglab_core.judges.grades import grade_key, merge_grades
from raglab_core.judges.job import import_json, make_job
from raglab_core.judges.marking import query_words, segments
from raglab_core.judges.pair_view import DISPLAY_CHARACTERS, pair_view
from raglab_core.judges.pooling import pool, pool_text, read_pool
from raglab_core.runs.trec import TrecFormatError, parse_qrels
from raglab_core.text_reader import FileFormatError

CREATED = "2026-12-04T23:00:00Z"


def a_pool(seed=1, queries=6, docs=12):
    rng = random.Random(seed)
    runs = [{f"q{q}": {f"d{q}_{d}": rng.random() for d in range(docs)} for q in range(queries)} for _ in range(2)]
    return pool(runs, 8)


def test_the_judging_order_is_grouped_by_query_and_shuffled_with_the_seed():
    pairs = a_pool()
    job = make_job({"seed": 7, "depth": 8}, pairs, {}, created=CREATED)
    ordered = [tuple(pair) for pair in job["pairs"]]
    assert sorted(ordered) == sorted(pairs)
    queries = [qid for qid, _ in ordered]
    assert [qid for i, qid in enumerate(queries) if i == 0 or queries[i - 1] != qid] == sorted(set(queries))
    for qid in set(queries):  # shuffled within each query: not the pool's (the runs' rank) order
        assert [p for p in ordered if p[0] == qid] != [p for p in pairs if p[0] == qid]
    assert make_job({"seed": 7, "depth": 8}, pairs, {}, created=CREATED) == job
    other = make_job({"seed": 8, "depth": 8}, pairs, {}, created=CREATED)
    assert other["pairs"] != job["pairs"] and other["id"] != job["id"]


def test_a_job_holds_its_settings_and_pairs_and_nothing_of_runs_ranks_or_a_model():
    job = make_job({"seed": 3, "depth": 10, "sample": 50, "scale": 2}, [("q1", "a"), ("q1", "b")],
                   {"runs": [{"name": "bm25.txt", "size": 1200}]}, created=CREATED)
    assert set(job) == {"format", "version", "id", "created", "settings", "inputs", "pairs"}
    assert job["settings"] == {"depth": 10, "sample": 50, "seed": 3, "scale": 2}
    assert (job["format"], job["version"], len(job["id"])) == ("raglab-judging", 1, 16)
    assert json.loads(json.dumps(job)) == job
    assert make_job({}, [("q", "a")], {})["settings"] == {"depth": None, "sample": None, "seed": 42, "scale": 4}


@pytest.mark.parametrize("settings, field", [({"scale": 3}, "scale"), ({"seed": "x"}, "seed"),
                                             ({"depth": 0}, "depth"), ({"sample": True}, "sample")])
def test_bad_settings_are_named(settings, field):
    with pytest.raises(LabError) as error:
        make_job(settings, [("q", "a")], {})
    assert error.value.field == field and f"«{field}»" in str(error.value)


@pytest.mark.parametrize("pairs", [[], [("q", "a b")], [("q", "a"), ("q", "a")], [("q",)]])
def test_bad_pairs_are_refused(pairs):
    with pytest.raises(LabError) as error:
        make_job({}, pairs, {})
    assert error.value.field == "pairs"


def marked(text, query):
    return [part["text"] for part in segments(text, query_words(query)) if part["mark"]]


def test_the_querys_words_are_marked_whole_ignoring_case_and_accents():
    assert marked("Índice y indice; qué índices", "¿Qué es un ÍNDICE?") == ["Índice", "indice"]  # not «qué», «es»
    assert marked("Un fragmento de RAG, rag y Rag.", "rag") == ["RAG", "rag", "Rag"]
    assert marked("El camión y el CAMION; camiones no.", "camion") == ["camión", "CAMION"]
    assert marked("fragmento", "rag") == []
    assert marked("Straße", "STRASSE") == ["Straße"]


def test_the_view_of_a_pair():
    corpus = read_corpus('{"_id": "d1", "title": "Qué es BM25", "text": "BM25 pondera los términos."}\n'
                         '{"_id": "d2", "text": "Otro."}\n{"_id": "d3", "text": "Uno más."}\n')
    queries = {"q1": "¿qué es bm25?", "q2": "otra"}
    job = make_job({"seed": 1}, [("q1", "d1"), ("q1", "d3"), ("q2", "d2")], {}, created=CREATED)
    index = job["pairs"].index(["q1", "d1"])
    other = job["pairs"][1 - index]
    grades = {grade_key(*other): {"grade": 2, "at": 1000}, "q2\td2": {"grade": None, "at": 2000}}
    view = pair_view(job, index, grades, queries, corpus)
    assert view["query"] == {"id": "q1", "text": "¿qué es bm25?"}
    assert view["doc"]["id"] == "d1"
    assert [part["text"] for part in view["doc"]["title"] if part["mark"]] == ["BM25"]  # «qué», «es»: function words
    assert "".join(part["text"] for part in view["doc"]["text"]) == "BM25 pondera los términos."
    progress = view["progress"]
    assert (progress["done"], progress["total"], progress["query"], progress["queries"], progress["query_done"],
            progress["query_total"]) == (1, 3, 1, 2, 1, 2)
    assert progress["text"] == "1 de 3 juzgados · consulta 1 de 2: 1 de 2"
    assert view["grade"] is None and view["notes"] == []
    assert [(s["grade"], s["label"]) for s in view["scale"]] == [
        (0, "Irrelevante"), (1, "Relacionado"), (2, "Muy relevante"), (3, "Perfectamente relevante")]
    assert pair_view(job, 1 - index, grades, queries, corpus)["grade"] == 2
    last = pair_view(job, 2, grades, {}, {})
    assert last["progress"]["query"] == 2 and len(last["notes"]) == 2 and last["doc"]["text"] == [
        {"text": "", "mark": False}]
    binary = make_job({"scale": 2}, [("q1", "d1")], {}, created=CREATED)
    assert [s["label"] for s in pair_view(binary, 0, {}, queries, corpus)["scale"]] == ["No relevante", "Relevante"]
    with pytest.raises(LabError):
        pair_view(job, 3, grades, queries, corpus)


HOSTILE = [
    "<script>alert('x')</script><img src=x onerror=alert(1)>",
    "NUL\x00inside\x00",
    "مرحبا بالعالم \u202eevil\u202c עברית",
    "emoji 👍🏽👨‍👩‍👧 and \ufeff BOM, \u200b zero width",
    "&lt;b&gt; &amp; </div></body>",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_passes_through_unchanged_as_text_segments(text):
    job = make_job({}, [("q", "d")], {}, created=CREATED)
    view = pair_view(job, 0, {}, {"q": "script alert evil"}, {"d": Document("d", text, text)})
    for parts in (view["doc"]["title"], view["doc"]["text"]):
        assert "".join(part["text"] for part in parts) == text
        assert all(set(part) == {"text", "mark"} and isinstance(part["text"], str) for part in parts)
    assert json.loads(json.dumps(view)) == view


def test_a_megabyte_on_one_line_is_shown_in_part_with_a_note():
    text = "palabra " * (1 << 17)  # 1 MiB, one line
    job = make_job({}, [("q", "d")], {}, created=CREATED)
    view = pair_view(job, 0, {}, {"q": "palabra"}, {"d": text})
    shown = "".join(part["text"] for part in view["doc"]["text"])
    assert shown == text[:DISPLAY_CHARACTERS]
    assert [note.replace("\xa0", " ") for note in view["notes"]] == [
        "Se muestran los primeros 50 000 caracteres de 1 048 576. El documento entero sigue en el corpus, y es el "
        "que juzgas."]


def test_the_qrels_are_what_was_graded_and_read_back_by_eval():
    pairs = a_pool(queries=4)
    job = make_job({}, pairs, {}, created=CREATED)
    rng = random.Random(2)
    grades = {grade_key(*pair): {"grade": rng.choice([0, 1, 2, 3, None]), "at": i}
              for i, pair in enumerate(job["pairs"]) if rng.random() < 0.7}
    expected = {}
    for key, entry in grades.items():
        if entry["grade"] is not None:
            qid, docid = key.split("\t")
            expected.setdefault(qid, {})[docid] = entry["grade"]
    text = qrels_text(job, grades)
    assert parse_qrels(text, name="juicios.qrels") == expected
    lines = text.splitlines()
    assert lines == sorted(lines, key=lambda line: (line.split()[0], line.split()[2]))
    assert qrels_text(job, {}) == ""


def test_export_and_import_continue_a_job():
    job = make_job({"seed": 5, "depth": 8, "sample": 20}, a_pool(), {"queries": {"name": "q.tsv", "size": 9}},
                   created=CREATED)
    grades = {grade_key(*job["pairs"][0]): {"grade": 3, "at": 1_700_000_000_000},
              grade_key(*job["pairs"][1]): {"grade": None, "at": 1_700_000_000_500}}
    text = export_json(job, grades)
    assert import_json(text) == (job, grades)
    assert import_json(json.dumps(job)) == (job, {})
    assert export_json(*import_json(text)) == text


@pytest.mark.parametrize("change, field, words", [
    (lambda data: "no es json", "job", "no es JSON"),
    (lambda data: {**data, "format": "otra"}, "format", "raglab-judging"),
    (lambda data: {**data, "version": 2}, "version", "versión 2"),
    (lambda data: {**data, "pairs": [["q", "a"], ["q", "a"]]}, "pairs", "repite el par «q», «a»"),
    (lambda data: {**data, "pairs": "q a"}, "pairs", "lista no vacía"),
    (lambda data: {**data, "grades": {"q\tzz": {"grade": 1, "at": 1}}}, "grades", "«q», «zz»"),
    (lambda data: {**data, "grades": {"q\ta": {"grade": 4, "at": 1}}}, "grade", "0 a 3"),
    (lambda data: {**data, "grades": {"q\ta": {"grade": 1, "at": -1}}}, "at", "milisegundos"),
    (lambda data: {**data, "created": 7}, "created", "texto"),
])
def test_import_names_the_field_that_is_wrong(change, field, words):
    data = json.loads(export_json(make_job({}, [("q", "a")], {}, created=CREATED), {}))
    changed = change(data)
    with pytest.raises(LabError) as error:
        import_json(changed if isinstance(changed, str) else json.dumps(changed))
    assert error.value.field == field and words in str(error.value), str(error.value)


def test_the_newer_grade_wins_when_two_tabs_meet():
    mine = {"q\ta": {"grade": 2, "at": 10}, "q\tb": {"grade": None, "at": 30}}
    theirs = {"q\ta": {"grade": 0, "at": 20}, "q\tb": {"grade": 1, "at": 25}, "q\tc": {"grade": 3, "at": 5}}
    assert merge_grades(mine, theirs) == {"q\ta": {"grade": 0, "at": 20}, "q\tb": {"grade": None, "at": 30},
                                          "q\tc": {"grade": 3, "at": 5}}
    assert merge_grades(theirs, mine) == merge_grades(mine, theirs)


def test_the_list_of_jobs_and_the_time_spent():
    job = make_job({}, [("q1", "a"), ("q1", "b"), ("q2", "c")], {"pool": {"name": "pool.tsv", "size": 30}},
                   created=CREATED)
    keys = [grade_key(*pair) for pair in job["pairs"]]
    grades = {keys[0]: {"grade": 1, "at": 0}, keys[1]: {"grade": 0, "at": 95_000}}
    summary = job_summary(job, grades)
    assert (summary["done"], summary["total"], summary["finished"], summary["resume"]) == (2, 3, False, 2)
    assert summary["seconds"] == 95 + 95 and summary["time"] == "3 min" and summary["text"] == "2 de 3 juzgados"
    grades[keys[2]] = {"grade": 3, "at": 10_000_000}
    summary = job_summary(job, grades)
    assert summary["finished"] and summary["text"] == "Terminado: 3 de 3 juzgados" and summary["seconds"] == 95 + 300 + (95 + 300) / 2


def test_a_pool_file_is_read_back_and_its_problems_named_by_line():
    pairs = a_pool(queries=3)
    assert read_pool(pool_text(pairs)) == pairs
    assert read_pool("q1\ta\r\n\nq1\tb") == [("q1", "a"), ("q1", "b")]
    with pytest.raises(FileFormatError) as error:
        read_pool("q1\ta\nq1\ta\nq1\tb c\nq2\n", name="mi.pool")
    assert not isinstance(error.value, TrecFormatError) and error.value.field == "pool"  # a pool is no TREC file
    english = error.value.english()
    assert "mi.pool: 3 problems" in english
    assert "line 2: document 'a' appears more than once" in english
    assert "line 3" in english and "whitespace" in english
    assert "line 4: expected 2 columns separated by one tab" in english
    with pytest.raises(FileFormatError):
        read_pool("\n\n")
