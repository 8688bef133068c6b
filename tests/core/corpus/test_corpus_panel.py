"""The «Tu corpus» panel in CPython (issue 39): the same JSON as ``chunks --json``, rows as the report has them, a
reading that never crowns a winner, warnings, the query detail, your own chunks and run, and hostile inputs."""

import json

import pytest

from raglab_core.__main__ import main
from raglab_core.browser import CorpusBridge
from raglab_core.corpus.panel import LIMITS
from raglab_core.corpus.documents import folder_ids
from raglab_core.corpus.session import CorpusSession, measure_files
from raglab_core.errors import LabError
from raglab_core.runs.lettered import adjusted_text

from tests.conftest import ROOT

CHROMA = ROOT / "tests" / "data" / "chroma"  # a 20-question slice: cheap
CORPUS = {"name": "state_of_the_union.md", "text": (CHROMA / "state_of_the_union.md").read_text("utf-8")}
EVIDENCE = {"name": "questions_df.csv", "text": (CHROMA / "questions_df.csv").read_text("utf-8")}
SWEEP = "64:0 128:16 256:32"


def cli(capsys, *args):
    assert main(["chunks", *map(str, args)]) == 0
    return capsys.readouterr().out


def session_for(corpus, queries, evidence, settings, chunks=None, run=None, qrels=None):
    """A finished session fed as the worker feeds it: each file in pieces of 1000 characters."""
    items = {f"corpus/{i}": item for i, item in enumerate(corpus)}
    items.update(queries=queries, evidence=evidence, qrels=qrels, chunks=chunks, run=run)
    request = {**settings, "corpus": [item["name"] for item in corpus]}
    request.update({slot: items[slot]["name"] if items[slot] else None
                    for slot in ("queries", "evidence", "qrels", "chunks", "run")})
    rows, said = [], []
    session = CorpusSession(request, lambda fraction, text: said.append((fraction, text)))
    while (slot := session.next()) is not None:
        text = items[slot]["text"]
        for start in range(0, len(text), 1000):
            session.feed(text[start:start + 1000])
        session.end()
    session.prepare()
    while (row := session.step()) is not None:
        rows.append(row)
    return session, session.finish(), rows, said


@pytest.fixture(scope="module")
def sample():
    return session_for([CORPUS], None, EVIDENCE, {"sweep": SWEEP, "baseline": "128:16"})


def test_the_json_is_the_command_lines_byte_for_byte(sample, capsys):
    session, view, rows, said = sample
    printed = cli(capsys, CHROMA / CORPUS["name"], "-", "--spans", CHROMA / EVIDENCE["name"], "--sweep", SWEEP,
                  "--baseline", "128:16", "--json")
    assert session.download("json")["text"] == printed
    data = json.loads(printed)
    # The rows: each shown mean and interval is the report's; streamed rows equal the final ones.
    for row, streamed, config in zip(view["rows"], rows, data["configs"]):
        assert row["name"] == streamed["name"] == config["name"]
        assert row["indexed_tokens"] == config["indexed_tokens"] and row["chunks"] == config["chunks"]
        for cell, early in zip(row["cells"], streamed["cells"]):
            assert cell["raw"] == early["raw"] == config["mean"][cell["measure"]]
            assert cell["ci"] == config["ci95"][cell["measure"]]
    assert [row["baseline"] for row in view["rows"]] == [False, True, False]
    pair = next(p for p in data["comparisons"] if p["candidate"] == "256:32")["metrics"]["EvidenceRecall@5"]
    cell = next(c for c in view["rows"][2]["cells"] if c["measure"] == "EvidenceRecall@5")
    assert cell["p_adjusted"] == pair["p_value_adjusted"] and cell["significant"] == (pair["p_value_adjusted"] < 0.05)
    # The Holm p the screen reader hears is the runs' tables' (issue 49), with no Monte Carlo "± 0,0000" it lacks.
    heard = adjusted_text(pair["p_value_adjusted"], 10_000, 2, pair["p_value_exact"])
    assert cell["mark_text"].endswith(f"p ajustado (Holm) {heard}") and "±" not in cell["mark_text"]
    texts = [text for _, text in said]
    assert "Troceando el corpus en tokens…" in texts and "Indexando 256:32…" in texts
    assert "Consultas 20 de 20 (64:0)" in texts
    fractions = [fraction for fraction, _ in said if fraction]
    assert fractions == sorted(fractions)


def test_the_reading_agrees_with_the_numbers_and_names_no_winner(sample):
    _, view, _, _ = sample
    data = sample[0].data
    for measure, parts in view["readings"].items():
        text = parts["text"]
        assert "mejor configuración" not in text and "gana" not in text
        assert "BM25" in text and "trae el run" in text
        same = [pair["candidate"] for pair in data["comparisons"] if pair["metrics"][measure]["p_value_adjusted"] >= 0.05]
        apart = len(data["comparisons"]) - len(same)
        # Verdict first (issue 49): how many the data tell from the baseline, the rest grouped in one line.
        if not apart:
            assert parts["verdict"].startswith(f"En {measure}, estos datos no distinguen de la línea base")
        else:
            assert parts["verdict"].startswith(f"En {measure}, frente a la línea base {data['baseline']}: ")
            assert "(p ajustado por Holm < 0,05)" in parts["verdict"]
            if same:
                [line] = [line for line in parts["lines"] if line.startswith("Sin diferencia que estos datos distingan")]
                assert all(name in line for name in same) or f"{len(same)} configuraciones" in line
        assert "no demuestra que rindan igual" in text if same else True
    lead = view["lead"]
    assert lead == "EvidenceRecall@5"
    ceilings = {c["name"]: c["mean"]["Ceiling"] for c in data["configs"]}
    assert f"Aquí va de {ceilings['64:0']:.3f}".replace(".", ",") in view["readings"][lead]["text"]
    plot = view["plots"][lead]
    frame = plot["frame"]
    for point, config in zip(plot["points"], data["configs"]):
        assert frame["left"] <= point["cx"] <= frame["right"] and frame["top"] <= point["y2"] <= point["cy"] <= point["y1"] <= frame["bottom"]
        assert f"{config['name']}: {config['indexed_tokens']} tokens indexados" in plot["description"]


def test_one_query_in_detail_says_which_chunk_holds_each_span_whole_or_cut():
    text = "uno dos tres cuatro cinco seis siete ocho"
    session, view, _, _ = session_for(
        [{"name": "c.jsonl", "text": json.dumps({"_id": "d", "text": text})}],
        {"name": "q.tsv", "text": "q1\tdos tres\nq2\tnada"},
        {"name": "s.jsonl", "text": json.dumps({"query_id": "q1", "doc_id": "d", "start": 4, "end": 12})},
        {"sweep": "2:0 4:1", "at": "1,2"})
    detail = session.detail("q1", 0, 1)
    assert detail["spans"][0]["text"] == "dos tres"
    first = {chunk["id"]: chunk for chunk in detail["columns"][0]["chunks"]}  # 2:0 cuts "uno dos | tres cuatro"
    assert first["d#0"]["cut"] == [1] and first["d#1"]["cut"] == [1] and first["d#0"]["whole"] == []
    assert first["d#0"]["relation"] == "corta la evidencia 1"
    # Each side shows the top k chunks, k the largest cut: 2 here; with the cut 1, one of the two 2:0 retrieves.
    assert [len(column["chunks"]) for column in detail["columns"]] == [2, 1]  # 4:1 retrieves one
    assert detail["columns"][0]["caption"] == "2:0: sus 2 primeros chunks"
    session.settings.cuts = [1]
    again = session.detail("q1", 0, 1)
    assert len(session.results[0].chunk_run["q1"]) == 2 and [len(c["chunks"]) for c in again["columns"]] == [1, 1]
    assert again["columns"][0]["caption"] == "2:0: su primer chunk"
    second = detail["columns"][1]["chunks"][0]  # 4:1: "uno dos tres cuatro" holds it
    assert second["id"] == "d#0" and second["whole"] == [1] and second["relation"] == "contiene entera la evidencia 1"
    assert [w["code"] for w in view["warnings"]] == ["queries_without_evidence", "config_low_ceiling"]
    assert session.download("chunk-run", 1)["text"].startswith("q1 Q0 d#0 1 ")
    assert session.download("chunks", 0)["name"] == "2-0.chunks.jsonl"


def test_your_own_chunks_and_run_give_the_command_lines_json(capsys, tmp_path):
    session, _, _, _ = session_for([CORPUS], None, EVIDENCE, {"sweep": "200:20"})
    chunks = session.download("chunks", 0)["text"]
    run = session.download("chunk-run", 0)["text"]
    (tmp_path / "c.jsonl").write_text(chunks, "utf-8")
    (tmp_path / "r.txt").write_text(run, "utf-8")
    byo, view, rows, _ = session_for([CORPUS], None, EVIDENCE, {}, {"name": "c.jsonl", "text": chunks},
                                     {"name": "r.txt", "text": run})
    assert len(rows) == 1 and view["rows"][0]["name"] == "r.txt"
    printed = cli(capsys, CHROMA / CORPUS["name"], "-", "--spans", CHROMA / EVIDENCE["name"], "--chunks",
                  tmp_path / "c.jsonl", "--run", tmp_path / "r.txt", "--json")
    assert byo.download("json")["text"] == printed
    assert json.loads(printed)["configs"][0]["mean"] == session.data["configs"][0]["mean"]  # the same chunks: the same numbers


def test_a_dropped_folder_is_the_cli_folder():
    assert folder_ids(["notas/a.txt", "notas/sub/b.md", "notas/x.csv"]) == ["a.txt", "sub/b.md", "x.csv"]
    files = [{"name": "notas/a.txt", "text": "gatos y perros"}, {"name": "notas/b.md", "text": "peces"},
             {"name": "notas/léeme.csv", "text": "no"}]
    view = measure_files(files, {"name": "q.tsv", "text": "q1\tperros"},
                         {"name": "s.jsonl", "text": '{"query_id": "q1", "doc_id": "a.txt", "start": 8, "end": 14}'},
                         {"sweep": "1:0"})
    assert view["summary"].startswith("2 documentos, 4 tokens, 1 consulta y 1 fragmento de evidencia")


BIG = 50_000_000


@pytest.mark.parametrize("corpus, queries, evidence, settings, field, said", [
    ({"name": "c.jsonl", "text": ""}, None, EVIDENCE, {}, "corpus", "no contiene ningún documento"),
    ({"name": "c.jsonl", "text": '{"_id": "d", "text": "a"}\n{"_id": "d", "text": "b"}'}, {"name": "q", "text": "q\ta"},
     {"name": "s.jsonl", "text": ""}, {}, "corpus", "línea 2: el identificador «d» ya aparece en la línea 1"),
    (CORPUS, {"name": "q.tsv", "text": "q1\ta\nq1\tb"}, {"name": "s.jsonl", "text": ""}, {}, "queries",
     "«q.tsv», línea 2: el identificador «q1» ya aparece"),
    (CORPUS, {"name": "q.tsv", "text": "q1\ta"},
     {"name": "s.jsonl", "text": '{"query_id": "q1", "doc_id": "state_of_the_union.md", "start": 5, "end": 99999999}'},
     {}, "evidence", "«s.jsonl», línea 1"),
    (CORPUS, {"name": "q.tsv", "text": "q1\ta"},
     {"name": "s.jsonl", "text": '{"query_id": "q1", "doc_id": "otro.md", "start": 5, "end": 9}'},
     {}, "evidence", "el documento «otro.md» no está en el corpus"),
    (CORPUS, {"name": "q.tsv", "text": "q1\ta"}, {"name": "s.jsonl", "text": "[1, 2]"}, {}, "evidence", "línea 1"),
    (CORPUS, None, EVIDENCE, {"sweep": "8:9"}, "sweep", "8:9"),
    (CORPUS, None, EVIDENCE, {"sweep": "8:1 16:2", "baseline": "4:0"}, "baseline", "4:0"),
    (CORPUS, None, EVIDENCE, {"k1": "mucho"}, "k1", "k1 debe ser un número"),
    (CORPUS, None, EVIDENCE, {"b": "1,5"}, "b", "b debe ser un número entre 0,0 y 1,0"),
    (CORPUS, None, EVIDENCE, {"at": "0"}, "at", "Los cortes k"),
], ids=["empty corpus", "duplicate document ids", "duplicate query ids", "span out of range", "unknown document",
        "span not an object", "overlap not below chunk", "baseline not swept", "k1", "b", "cuts"])
def test_hostile_inputs_get_spanish_errors_naming_file_line_and_field(corpus, queries, evidence, settings, field, said):
    with pytest.raises(LabError) as caught:
        measure_files(corpus, queries, evidence, settings)
    assert caught.value.field == field
    message = str(caught.value) + " ".join(getattr(caught.value, "listed", lambda language: [])("es"))
    assert said in message


def test_fifty_megabytes_of_one_line_and_a_wrong_encoding_through_the_bridge():
    request = {"corpus": ["una-linea.jsonl"], "evidence": "s.jsonl", "queries": "q.tsv",
               "sizes": {"corpus": [BIG], "queries": 10, "evidence": 10}}
    bridge = CorpusBridge(json.dumps(request))
    answer = json.loads(bridge.finish())
    assert answer["field"] == "corpus" and bridge.next() is None
    assert "50,0\u00a0MB" in answer["message"] and f"{LIMITS['corpus'] // 1_000_000},0\u00a0MB" in answer["message"]
    assert "python -m raglab_core chunks una-linea.jsonl q.tsv --spans s.jsonl" in answer["message"]
    bridge = CorpusBridge(json.dumps({**request, "sizes": {}}))
    assert bridge.next() == "corpus/0"
    latin = "café".encode("latin-1")
    bridge.undecodable(json.dumps({"head": list(latin), "data": list(latin), "base": 0, "skip": 0}))
    answer = json.loads(bridge.finish())
    assert answer["field"] == "corpus" and "una-linea.jsonl" in answer["message"] and "UTF-8" in answer["message"]


def split_sample(parts: int = 6):
    """The sample's speech cut at paragraph breaks into ``parts`` documents (BEIR JSONL), its questions as TSV, its
    spans moved into those documents (JSONL; a span across a cut is left out) and TREC qrels: each question's
    documents holding a span, with grade 1."""
    import csv
    import io

    text = CORPUS["text"]
    breaks = [i for i in range(len(text)) if text.startswith("\n\n", i)]
    cuts = [0, *(breaks[len(breaks) * n // parts] + 2 for n in range(1, parts)), len(text)]
    documents = [(f"d{n}", cuts[n], cuts[n + 1]) for n in range(parts)]
    rows = list(csv.DictReader(io.StringIO(EVIDENCE["text"], newline="")))
    queries = "".join(f"{qid}\t{row['question']}\n" for qid, row in enumerate(rows))
    spans, qrels = [], {}
    for qid, row in enumerate(rows):
        for reference in json.loads(row["references"]):
            start, end = reference["start_index"], reference["end_index"]
            for doc_id, low, high in documents:
                if low <= start and end <= high:
                    spans.append({"query_id": str(qid), "doc_id": doc_id, "start": start - low, "end": end - low})
                    qrels.setdefault(str(qid), {})[doc_id] = 1
    return {
        "corpus.jsonl": "".join(json.dumps({"_id": doc_id, "text": text[low:high]}) + "\n"
                                for doc_id, low, high in documents),
        "queries.tsv": queries,
        "spans.jsonl": "".join(json.dumps(span) + "\n" for span in spans),
        "qrels.txt": "".join(f"{qid} 0 {doc_id} {grade}\n" for qid, docs in qrels.items() for doc_id, grade in docs.items()),
    }


@pytest.mark.parametrize("with_spans", [True, False], ids=["spans and qrels", "qrels alone"])
def test_document_qrels_give_the_command_lines_json_and_the_document_measures(with_spans, capsys, tmp_path):
    files = split_sample()
    for name, text in files.items():
        (tmp_path / name).write_text(text, "utf-8")
    item = {name: {"name": name, "text": text} for name, text in files.items()}
    settings = {"sweep": "64:0 200:20", "at": "1,5"}
    session, view, rows, said = session_for([item["corpus.jsonl"]], item["queries.tsv"],
                                            item["spans.jsonl"] if with_spans else None, settings,
                                            qrels=item["qrels.txt"])
    spans = ["--spans", tmp_path / "spans.jsonl"] if with_spans else []
    printed = cli(capsys, tmp_path / "corpus.jsonl", tmp_path / "queries.tsv", *spans, "--qrels", tmp_path / "qrels.txt",
                  "--sweep", "64:0 200:20", "--at", "1,5", "--json")
    assert session.download("json")["text"] == printed
    data = json.loads(printed)
    assert "nDCG@10" in data["configs"][0]["mean"] and ("Ceiling" in data["configs"][0]["mean"]) == with_spans
    # The document measures are in the table, the rows streamed and final, as the report has them.
    for row, streamed, config in zip(view["rows"], rows, data["configs"]):
        shown = {cell["measure"]: cell for cell in row["cells"]}
        early = {cell["measure"]: cell for cell in streamed["cells"]}
        for name in ("nDCG@10", "R@100", "RR@10"):
            assert shown[name]["raw"] == early[name]["raw"] == config["mean"][name]
            assert shown[name]["ci"] == config["ci95"][name]
    assert 0 < data["configs"][0]["mean"]["nDCG@10"] <= 1
    assert "nDCG@10" in view["measures"] and view["readings"]["nDCG@10"] and view["plots"]["nDCG@10"]["points"]
    assert ("Con los qrels, nDCG@10, R@100" in view["summary"]) and ("fragmentos de evidencia" in view["summary"]) == with_spans
    assert view["lead"] == ("EvidenceRecall@5" if with_spans else "nDCG@10")
    assert ("Leyendo los qrels («qrels.txt»)…") in [text for _, text in said]
    # The query detail says which retrieved chunks' documents the qrels judge relevant.
    detail = session.detail("0", 0, 1)
    relevant = [chunk for column in detail["columns"] for chunk in column["chunks"] if chunk["relevant"]]
    assert relevant and all("relevante en los qrels" in chunk["relation"] for chunk in relevant)
    judged = json.loads(session.download("json")["text"])  # the qrels say d-something is relevant for query 0
    assert detail["judged"].startswith("Relevantes según los qrels: «d") and "(grado 1)" in detail["judged"]
    assert detail["no_spans"] == ""
    assert judged["corpus"]["spans"] == (len(files["spans.jsonl"].splitlines()) if with_spans else 0)


def test_spans_whose_document_is_not_in_the_corpus_are_left_out_with_a_warning_as_the_cli_does(capsys, tmp_path):
    files = split_sample()
    lines = files["corpus.jsonl"].splitlines(keepends=True)
    files["corpus.jsonl"] = "".join(lines[:-2])  # d4 and d5 left out of the corpus, not of the evidence
    for name, text in files.items():
        (tmp_path / name).write_text(text, "utf-8")
    item = {name: {"name": name, "text": text} for name, text in files.items()}
    spans = [json.loads(line) for line in files["spans.jsonl"].splitlines()]
    outside = [span for span in spans if span["doc_id"] in ("d4", "d5")]
    assert outside and len(outside) < len(spans)
    named = list(dict.fromkeys(span["doc_id"] for span in outside))  # in the order the evidence first names them
    assert sorted(named) == ["d4", "d5"]
    session, view, _, _ = session_for([item["corpus.jsonl"]], item["queries.tsv"], item["spans.jsonl"], {"sweep": "128:16"})
    printed = cli(capsys, tmp_path / "corpus.jsonl", tmp_path / "queries.tsv", "--spans", tmp_path / "spans.jsonl",
                  "--sweep", "128:16", "--json")
    assert session.download("json")["text"] == printed
    data = json.loads(printed)
    assert data["corpus"]["spans"] == len(spans) - len(outside)
    assert data["warnings"][0] == {**data["warnings"][0], "code": "spans_unknown_document", "count": 2,
                                   "examples": named, "spans": len(outside), "total": len(spans)}
    first = view["warnings"][0]
    assert first == {"code": "spans_unknown_document",
                     "text": f"2 documentos que nombra la evidencia no están en el corpus («{named[0]}», «{named[1]}»): sus fragmentos "
                             f"({len(outside)} de {len(spans)}) quedan fuera de todas las medidas."}
    # Their queries, left with no evidence, are said too; the reading warns before its numbers.
    assert "queries_without_evidence" in [warning["code"] for warning in view["warnings"]]
    assert view["readings"][view["lead"]]["warning"].startswith("Atención: hay avisos")


def test_the_plots_quality_axis_fits_the_measure_and_many_labels_never_touch(sample):
    """Issue 49: CharIoU (about 0,01) on a 0–1 axis lay on the floor; 24 configurations' names collided and spilled
    under the axis. The axis ends at a round number just above the highest interval; the labels, names or numbers
    (then a legend), keep apart and inside the plot, in the desktop's layout and the phone's."""
    from itertools import combinations

    from raglab_core.corpus.panel import label_box, plot

    _, view, _, _ = sample
    data = sample[0].data
    plotted = view["plots"]["CharIoU@10"]
    highest = max(max(c["mean"]["CharIoU@10"], *c["ci95"]["CharIoU@10"]) for c in data["configs"])
    assert highest < 0.2
    ticks = [float(t["text"].replace(",", ".")) for t in plotted["y_ticks"]]
    assert ticks[0] == 0 and ticks[-2] < highest <= ticks[-1] == plotted["y_top"] and 3 <= len(ticks) <= 7
    assert plotted["y_ticks"][-1]["at"] == plotted["frame"]["top"]
    assert f"de 0 a {plotted['y_ticks'][-1]['text']})" in plotted["description"]
    assert view["plots"]["Ceiling"]["y_ticks"][-1]["text"] == "1,0"  # a measure near 1 keeps the whole axis
    assert plotted["legend"] == [] and [p["label"] for p in plotted["points"]] == ["64:0", "128:16", "256:32"]

    configs = [{"name": f"{64 * (1 + i % 6)}:{8 * (i // 6)}", "indexed_tokens": 9000 + 40 * i,
                "mean": {"CharIoU@5": 0.010 + 0.0004 * i}, "ci95": {"CharIoU@5": (0.006 + 0.0004 * i, 0.014 + 0.0004 * i)}}
               for i in range(24)]
    many = plot({"configs": configs, "baseline": "64:0"}, "CharIoU@5")
    for layout in (many, many["narrow"]):
        assert [t["text"] for t in layout["y_ticks"]] == ["0,000", "0,005", "0,010", "0,015", "0,020", "0,025"]
        assert [p["label"] for p in layout["points"]] == [str(n) for n in range(1, 25)]
        assert [(item["number"], item["name"]) for item in layout["legend"]][:2] == [("1", "64:0"), ("2", "128:0")]
        boxes = [label_box(p["label_x"], p["label_y"], p["label"]) for p in layout["points"]]
        assert not [(a, b) for a, b in combinations(boxes, 2) if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]
        frame = layout["frame"]
        assert all(frame["left"] <= box[0] and box[2] <= layout["width"] and 0 <= box[1] and box[3] <= frame["bottom"]
                   for box in boxes)
    assert many["narrow"]["width"] == 320 and many["width"] == 600


def test_each_compared_cell_gives_its_difference_and_p_value(sample):
    """Issue 49: the table showed sighted readers only ▲/▼; every compared cell now says Δ and Holm p, on screen
    and in full on hover, and the mark's meaning is what a screen reader hears for it."""
    session, view, _, _ = sample
    pairs = {p["candidate"]: p for p in session.data["comparisons"]}
    row = view["rows"][2]
    assert row["name"] == "256:32" and not any("detail" in cell for cell in view["rows"][1]["cells"])  # the baseline
    for cell in row["cells"]:
        result = pairs["256:32"]["metrics"][cell["measure"]]
        delta = f"{result['mean_delta']:+.3f}".replace(".", ",").replace("-", "−")
        p = adjusted_text(result["p_value_adjusted"], 10_000, 2, result["p_value_exact"])
        assert cell["detail"] == f"Δ {delta}; p {p if p.startswith('<') else '= ' + p}", cell
        assert cell["detail_title"].startswith(f"Diferencia con la línea base: {delta}; p ajustado por Holm: {p}")
        if result["p_value_adjusted"] < 0.05:
            assert cell["mark"] == ("▲" if result["mean_delta"] > 0 else "▼")
            assert cell["mark_said"] == (" (por encima de la línea base)" if result["mean_delta"] > 0 else
                                         " (por debajo de la línea base)")
        else:
            assert cell["mark"] == cell["mark_said"] == "" and "sin marca" in cell["detail_title"]
