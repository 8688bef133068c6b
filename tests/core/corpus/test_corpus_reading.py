"""Reading a corpus, its queries and its evidence: plain data out, and bad lines named in English and Spanish."""

import json
import random

import pytest

from raglab_core.corpus.chroma import QuestionsReader, read_questions
from raglab_core.corpus.documents import CorpusReader, Document, read_corpus
from raglab_core.corpus.exchange import read_chunks
from raglab_core.corpus.files import read_folder, read_path
from raglab_core.corpus.queries import QueriesReader, read_queries
from raglab_core.corpus.spans import Span, SpansReader, read_spans
from raglab_core.errors import LabError
from raglab_core.text_reader import FileFormatError

DOCUMENTS = {"d1": Document("d1", "El café cuesta 2 €. 😀 Fin.", "Precios"), "doc-2": Document("doc-2", "Otro texto.")}
QUERIES = {"q1": "precio del café", "q2": "fin"}


def jsonl(*records) -> str:
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)


def failure(call):
    with pytest.raises(LabError) as caught:
        call()
    return caught.value


def test_a_beir_corpus_reads_into_documents_in_file_order():
    text = jsonl({"_id": "b", "title": "T", "text": "uno", "metadata": {}}, {"_id": "a", "text": "dos", "title": ""},
                 {"_id": 7, "text": "tres", "title": None})
    assert read_corpus(text) == {"b": Document("b", "uno", "T"), "a": Document("a", "dos"), "7": Document("7", "tres")}


def test_any_chunking_of_the_text_reads_the_same_as_the_whole_text():
    text = jsonl(*({"_id": f"d{i}", "text": "á" * i + "\nx"} for i in range(40))).replace("\n", "\r\n")
    whole = read_corpus(text)
    rng = random.Random(4)
    for _ in range(20):
        reader, position = CorpusReader(), 0
        while position < len(text):
            step = rng.randint(1, 30)
            reader.feed(text[position: position + step])
            position += step
        assert reader.close() == whole
    assert whole["d3"].text == "ááá\nx"  # a JSON "\n" inside a text is not a line end


@pytest.mark.parametrize("text, english, spanish", [
    ('{"_id": "a", "text": "x"}\n\n{"_id": "a", "text": "y"}\n',
     "corpus.jsonl, line 3: the id 'a' was already given on line 1; ids must be unique",
     "«corpus.jsonl», línea 3: el identificador «a» ya aparece en la línea 1; los identificadores deben ser únicos"),
    ('{"_id": "a b", "text": "x"}\n',
     "corpus.jsonl, line 1: the id 'a b' contains whitespace, which a TREC run cannot hold (its columns are separated "
     "by whitespace); replace it, e.g. with _",
     "«corpus.jsonl», línea 1: el identificador «a b» contiene espacios, y un run TREC no puede contenerlos (sus "
     "columnas se separan con espacios); sustitúyelos, por ejemplo por _"),
    ('{"_id": "a"}\n',
     """corpus.jsonl, line 1: the key 'text' is missing: each line needs {"_id": ..., "text": ...} and optionally "title\"""",
     """«corpus.jsonl», línea 1: falta la clave «text»: cada línea necesita {"_id": ..., "text": ...} and optionally "title\""""),
    ('{"_id": "a", "text": 3}\n', "corpus.jsonl, line 1: 'text' must be a string, not 3",
     "«corpus.jsonl», línea 1: «text» debe ser una cadena de texto, no 3"),
    ('["a", "x"]\n',
     """corpus.jsonl, line 1: expected one JSON object per line ({"_id": ..., "text": ...} and optionally "title"), found ["a", "x"]""",
     """«corpus.jsonl», línea 1: se esperaba un objeto JSON por línea ({"_id": ..., "text": ...} and optionally "title") y hay ["a", "x"]"""),
    ('{"_id": "a", "text": "x"\n', "corpus.jsonl, line 1: invalid JSON at column 25",
     "«corpus.jsonl», línea 1: JSON no válido en la columna 25"),
    ("\n \n", "corpus.jsonl: the file holds no documents", "«corpus.jsonl»: el fichero no contiene ningún documento"),
])
def test_a_bad_corpus_line_is_named_in_english_and_spanish(text, english, spanish):
    error = failure(lambda: read_corpus(text))
    assert isinstance(error, FileFormatError) and error.field == "corpus"
    assert (error.render("en"), str(error)) == (english, spanish)


def test_every_problem_is_listed_with_its_line_up_to_ten():
    text = jsonl(*({"_id": "a", "text": i} for i in range(13)))
    error = failure(lambda: read_corpus(text))
    lines = error.render("en").splitlines()
    assert lines[0] == "corpus.jsonl: 13 problems" and lines[1] == "  line 1: 'text' must be a string, not 0"
    assert lines[-1] == "  … and 3 more"


def test_queries_read_from_beir_jsonl_or_tsv():
    assert read_queries(jsonl({"_id": "q1", "text": "uno", "metadata": {}}, {"_id": 2, "text": ""})) == {
        "q1": "uno", "2": ""}
    assert read_queries("q1\tuno\tcon tab\r\nq2\tdos\n", name="queries.tsv") == {"q1": "uno\tcon tab", "q2": "dos"}
    error = failure(lambda: read_queries("q1\tuno\nq1\tdos\n", name="queries.tsv"))
    assert error.render("en") == "queries.tsv, line 2: the id 'q1' was already given on line 1; ids must be unique"
    assert error.field == "queries"
    assert failure(lambda: read_queries("")).render("en") == "queries.jsonl: the file holds no queries"


def span(**fields):
    record = {"query_id": "q1", "doc_id": "d1", "start": 3, "end": 7}
    record.update(fields)
    return {key: value for key, value in record.items() if value is not None}


def test_spans_read_and_check_against_the_corpus_and_the_queries():
    text = jsonl(span(text="café"), span(start=20, end=21, text="😀"), span(query_id="q2", doc_id="doc-2", start=0, end=4),
                 span(start=22, end=25, text=None))
    assert read_spans(text, DOCUMENTS, QUERIES) == [
        Span("q1", "d1", 3, 7), Span("q1", "d1", 20, 21), Span("q2", "doc-2", 0, 4), Span("q1", "d1", 22, 25)]


@pytest.mark.parametrize("record, english, spanish", [
    (span(doc_id="D1"), "line 1: document 'D1' is not in the corpus; did you mean 'd1'?",
     "línea 1: el documento «D1» no está en el corpus; ¿querías decir «d1»?"),
    (span(doc_id="d9"), "line 1: document 'd9' is not in the corpus", "línea 1: el documento «d9» no está en el corpus"),
    (span(query_id="q7"), "line 1: query 'q7' is not among the queries",
     "línea 1: la consulta «q7» no está entre las consultas"),
    (span(start=7, end=7), "line 1: 'start' (7) must be less than 'end' (7): a span holds at least one character",
     "línea 1: «start» (7) debe ser menor que «end» (7): un fragmento tiene al menos un carácter"),
    (span(end=99), "line 1: 'end' (99) is past the end of document 'd1', which has 26 characters (offsets count "
     "characters, code points, of its 'text', as Python slices do)",
     "línea 1: «end» (99) pasa del final del documento «d1», que tiene 26 caracteres (las posiciones cuentan "
     "caracteres, puntos de código, de su «text», como los cortes de Python)"),
    (span(start=-1), "line 1: 'start' must be a whole number of characters (0, 1, 2, ...), not -1",
     "línea 1: «start» debe ser un número entero de caracteres (0, 1, 2…), no -1"),
    (span(end="7"), """line 1: 'end' must be a whole number of characters (0, 1, 2, ...), not "7\"""",
     """línea 1: «end» debe ser un número entero de caracteres (0, 1, 2…), no "7\""""),
    (span(start=23, end=26, text="Fin"),  # counted in UTF-16 units: 😀 is two
     "line 1: 'text' is not the document's characters 23:26, but these offsets find it counted in UTF-16 code "
     "units, as JavaScript counts; count characters (code points), as Python does: here 22:25",
     "línea 1: «text» no coincide con los caracteres 23:26 del documento, pero sí contando en unidades UTF-16, como "
     "cuenta JavaScript; cuenta caracteres (puntos de código), como Python: aquí, 22:25"),
    (span(start=3, end=8, text="café"),  # counted in UTF-8 bytes: é is two
     "line 1: 'text' is not the document's characters 3:8, but these offsets find it counted in UTF-8 bytes; count "
     "characters (code points), as Python does: here 3:7",
     "línea 1: «text» no coincide con los caracteres 3:8 del documento, pero sí contando bytes UTF-8; cuenta "
     "caracteres (puntos de código), como Python: aquí, 3:7"),
    (span(start=0, end=2, text="cuesta"),
     "line 1: 'text' is not the document's characters 0:2, but it is at 8:14",
     "línea 1: «text» no coincide con los caracteres 0:2 del documento, pero sí con 8:14"),
    (span(start=0, end=2, text="té"),
     "line 1: 'text' is not the document's characters 0:2: the line gives 'té', the document has 'El'",
     "línea 1: «text» no coincide con los caracteres 0:2 del documento: la línea dice «té» y el documento, «El»"),
])
def test_a_bad_span_is_named_by_its_line_with_a_suggestion(record, english, spanish):
    error = failure(lambda: read_spans(jsonl(record), DOCUMENTS, QUERIES, name="spans.jsonl"))
    assert error.field == "evidence"
    assert error.render("en") == f"spans.jsonl, {english}"
    assert str(error) == f"«spans.jsonl», {spanish}"


def test_a_repeated_span_names_both_lines():
    error = failure(lambda: read_spans(jsonl(span(), span(end=9), span()), DOCUMENTS, QUERIES, name="s.jsonl"))
    assert error.render("en") == "s.jsonl, line 3: the same span was already given on line 1"


def test_spans_stream_in_chunks():
    text = jsonl(*(span(start=i, end=i + 1) for i in range(20)))
    reader = SpansReader("s.jsonl", DOCUMENTS, QUERIES)
    for position in range(0, len(text), 7):
        reader.feed(text[position: position + 7])
    assert reader.close() == read_spans(text, DOCUMENTS, QUERIES) and len(read_spans(text, DOCUMENTS)) == 20


def chroma_row(question, references, corpus_id):
    return '"' + question + '","' + json.dumps(references).replace('"', '""') + '",' + corpus_id + "\n"


def test_chromas_csv_reads_as_queries_by_row_number_and_spans_in_the_document_its_stem_names():
    documents = {"sotu.md": Document("sotu.md", "We cut fees.\nWe built roads."), "x.txt": Document("x.txt", "abc")}
    text = ("question,references,corpus_id\n"
            + chroma_row("Fees?", [{"content": "We cut fees.", "start_index": 0, "end_index": 12}], "sotu")
            + "\n" + chroma_row("Both?\nReally", [{"content": "fees.\nWe", "start_index": 7, "end_index": 15},
                                                   {"content": "c", "start_index": 3, "end_index": 4}], "sotu"))
    queries, spans = read_questions(text, documents)
    assert queries == {"0": "Fees?", "1": "Both?\nReally"}  # the blank line is no row, as pandas reads it
    assert spans == [Span("0", "sotu.md", 0, 12), Span("1", "sotu.md", 7, 15), Span("1", "sotu.md", 3, 4)]


def test_chromas_csv_names_the_line_a_bad_record_starts_on():
    documents = {"sotu.md": Document("sotu.md", "We cut fees.")}
    text = ("question,references,corpus_id\n"
            + chroma_row("A\nlong question", [{"content": "We", "start_index": 0, "end_index": 2}], "sotu")
            + chroma_row("Bad", [{"content": "cut", "start_index": 0, "end_index": 3}], "sotu")
            + chroma_row("Gone", [{"content": "We", "start_index": 0, "end_index": 2}], "nowhere"))
    error = failure(lambda: read_questions(text, documents))
    assert error.render("en") == "questions_df.csv, line 4: 'text' is not the document's characters 0:3, but it is at 3:6"
    # A reference to a corpus not given is no error (prepare leaves it out, with a warning); none inside is one.
    reader = QuestionsReader("questions_df.csv", documents)
    queries, spans = reader.read(text.replace('""cut"", ""start_index"": 0, ""end_index"": 3', '""cut"", ""start_index"": 3, ""end_index"": 6'))
    assert spans[-1] == Span("2", "nowhere", 0, 2) and reader.outside == [(5, "nowhere")] and len(queries) == 3
    error = failure(lambda: read_questions("question,references,corpus_id\n" + chroma_row(
        "Gone", [{"content": "We", "start_index": 0, "end_index": 2}], "nowhere") + chroma_row(
        "Too", [{"content": "We", "start_index": 0, "end_index": 2}], "elsewhere"), documents))
    assert error.render("en").splitlines() == [
        "questions_df.csv: 2 problems",
        "  line 2: document 'nowhere' is not in the corpus",
        "  line 3: document 'elsewhere' is not in the corpus",
    ]
    header = failure(lambda: read_questions("q,refs\n", documents))
    assert header.render("en") == ("questions_df.csv, line 1: expected the columns question,references,corpus_id "
                                   "(Chroma's questions_df.csv), found q,refs")


def test_a_folder_is_a_corpus_of_its_text_files(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / ".hidden").mkdir()
    (tmp_path / "sub" / "b.MD").write_bytes("\ufeffsegundo\r\n".encode())
    (tmp_path / "a.txt").write_text("primero", encoding="utf-8")
    (tmp_path / ".hidden" / "c.txt").write_text("no", encoding="utf-8")
    (tmp_path / "d.pdf").write_bytes(b"%PDF")
    assert read_folder(str(tmp_path)) == {"a.txt": Document("a.txt", "primero"),
                                          "sub/b.MD": Document("sub/b.MD", "segundo\r\n")}
    (tmp_path / "a.txt").write_bytes("caf\xe9".encode("latin-1"))
    error = failure(lambda: read_folder(str(tmp_path)))
    assert error.code == "not_utf8_cp1252" and error.field == "corpus"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert failure(lambda: read_folder(str(empty))).render("en") == f"{empty}: the folder holds no .txt or .md file"


def test_a_file_is_fed_to_its_reader_in_chunks(tmp_path):
    path = tmp_path / "queries.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + jsonl({"_id": "q1", "text": "uno"}).encode())
    assert read_path(QueriesReader(str(path)), str(path)) == {"q1": "uno"}
    path.write_bytes("q1\tuno".encode("utf-16"))
    assert failure(lambda: read_path(QueriesReader(str(path)), str(path))).code == "not_utf8_utf16"


def test_chunks_read_against_the_documents_bodies():
    chunks = jsonl({"chunk_id": "c1", "doc_id": "d1", "start": 0, "end": 7, "text": "Precios"},
                   {"chunk_id": "c2", "doc_id": "d1", "start": 9, "end": 16})
    assert read_chunks(chunks, DOCUMENTS) == {"c1": ("d1", 0, 7), "c2": ("d1", 9, 16)}
    bad = jsonl({"chunk_id": "c1", "doc_id": "d1", "start": 0, "end": 5, "text": "El ca"})
    error = failure(lambda: read_chunks(bad, DOCUMENTS))
    assert error.field == "chunks"
    assert error.render("en") == ("chunks.jsonl, line 1: 'text' is not the document's characters 0:5, but it is at "
                                  "9:14")
