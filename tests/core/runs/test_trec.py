"""The TREC qrels and run parsers: good files, every kind of bad input, both languages."""

import io
import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from raglab_core.errors import LabError
from raglab_core.runs.trec import Problem, TrecFormatError, parse_qrels, parse_run
from raglab_core.text_reader import MAX_REPORTED

from tests.support.trec_data import qrels_lines, run_lines


def error_of(parse, lines, name="file.txt"):
    with pytest.raises(TrecFormatError) as caught:
        parse(lines, name)
    return caught.value


# --- good input -------------------------------------------------------------------------------


def test_qrels_keep_every_grade_including_zero_and_negative():
    lines = ["301 0 FT1 2\n", "301 0 FT2 0\n", "301 0 FT3 -1\n", "302 0 FT1 1\n"]
    assert parse_qrels(lines, "qrels.txt") == {"301": {"FT1": 2, "FT2": 0, "FT3": -1}, "302": {"FT1": 1}}


def test_run_ignores_q0_rank_and_tag_and_keeps_scores():
    lines = ["301 Q0 FT1 7 12.5 bm25\n", "301 xx FT2 1 -3 other\n", "302 Q0 FT1 1 1e-3 bm25\n"]
    assert parse_run(lines, "run.txt") == {"301": {"FT1": 12.5, "FT2": -3.0}, "302": {"FT1": 0.001}}


def test_tabs_runs_of_spaces_crlf_and_blank_lines_are_accepted():
    text = "\n  \n301\t0  FT1   1\r\n\r\n302 0 FT9 3\r\n\t\n"
    assert parse_qrels(text, "q") == {"301": {"FT1": 1}, "302": {"FT9": 3}}


def test_an_open_file_a_list_and_a_whole_string_parse_alike():
    text = "1 Q0 a 1 0.5 t\n1 Q0 b 2 0.25 t\n2 Q0 a 1 1 t\n"
    expected = {"1": {"a": 0.5, "b": 0.25}, "2": {"a": 1.0}}
    assert parse_run(io.StringIO(text), "r") == parse_run(text.splitlines(), "r") == parse_run(text, "r") == expected


def test_queries_need_not_be_contiguous():
    lines = ["1 Q0 a 1 3 t", "2 Q0 a 1 3 t", "1 Q0 b 2 2 t"]
    assert parse_run(lines, "r") == {"1": {"a": 3.0, "b": 2.0}, "2": {"a": 3.0}}


def test_json_run_is_detected_by_its_first_non_blank_character():
    text = '\n\n  {"q1": {"d1": 2, "d2": 0.5},\n   "q2": {"d1": -1e-3}}\n'
    assert parse_run(text.splitlines(keepends=True), "run.json") == {"q1": {"d1": 2.0, "d2": 0.5}, "q2": {"d1": -0.001}}


# --- bad input: every message names the file and the line -------------------------------------


@pytest.mark.parametrize(
    "parse, lines, line, kind, english, spanish",
    [
        (parse_qrels, ["1 0 a 1", "1 0 b yes"], 2, "relevance", "relevance 'yes' is not an integer in ASCII digits", "la relevancia «yes» no es un número entero"),
        (parse_qrels, ["1 0 a 1", "1 0 b 1.5"], 2, "relevance", "relevance '1.5' is not an integer in ASCII digits", "la relevancia «1.5» no es"),
        (parse_qrels, ["1 0 a 1", "", "1 0 b"], 3, "columns", "expected 4 columns (qid iter docid rel), found 3", "se esperaban 4 columnas"),
        (parse_qrels, ["1 0 a 1", "1 0 a 2"], 2, "duplicate", "document 'a' appears more than once for query '1'", "el documento «a» aparece más de una vez en la consulta «1»"),
        (parse_run, ["1 Q0 a 1 0.5 t", "1 Q0 b 2 high t"], 2, "score", "score 'high' is not a number in ASCII digits", "la puntuación «high» no es un número en cifras ASCII"),
        (parse_run, ["1 Q0 a 1 NaN t"], 1, "not_finite", "score 'NaN' is not a finite number", "la puntuación «NaN» no es un número finito"),
        (parse_run, ["1 Q0 a 1 0.5 t", "1 Q0 b 2 -inf t"], 2, "not_finite", "score '-inf' is not a finite number", "la puntuación «-inf» no es un número finito"),
        (parse_run, ["1 Q0 a 1 0.5 t", "1 Q0 b 2 1e999 t"], 2, "not_finite", "score '1e999' is not a finite number", "la puntuación «1e999» no es un número finito"),
        (parse_run, ["1 Q0 a 1 0.5 t", "1 Q0 b 2 0.5"], 2, "run_columns", "expected at least 6 columns (qid Q0 docid rank score tag), found 5", "se esperaban al menos 6 columnas"),
        (parse_run, ["1 Q0 a 1 0.5 t", "2 Q0 a 1 0.5 t", "1 Q0 a 3 0.1 t"], 3, "duplicate", "document 'a' appears more than once for query '1'", "el documento «a» aparece más de una vez"),
    ],
)
def test_each_bad_line_is_reported_with_file_line_and_reason_in_both_languages(parse, lines, line, kind, english, spanish):
    error = error_of(parse, lines, name="data/input.txt")
    assert error.english() == f"data/input.txt, line {line}: {english}"
    assert str(error).startswith(f"«data/input.txt», línea {line}: {spanish}")
    assert error.name == "data/input.txt"
    assert [(problem.line, problem.kind) for problem in error.problems] == [(line, kind)]
    assert isinstance(error, LabError) and isinstance(error, ValueError)
    assert error.field == ("qrels" if parse is parse_qrels else "run")


@pytest.mark.parametrize("parse, what", [(parse_qrels, "judgments"), (parse_run, "results")])
@pytest.mark.parametrize("lines", [[], [""], ["\n", "   \n", "\t"], ""])
def test_an_empty_or_blank_file_is_an_error(parse, what, lines):
    error = error_of(parse, lines, name="empty.txt")
    assert error.english() == f"empty.txt: the file holds no {what}"
    assert error.problems == [Problem(None, f"empty_{'qrels' if parse is parse_qrels else 'run'}", {})]


def test_a_run_given_as_qrels_is_named_as_such_once():
    error = error_of(parse_qrels, ["", "301 Q0 FT1 1 12.5 bm25", "301 Q0 FT2 2 11.0 bm25"], name="run.txt")
    assert error.english() == "run.txt, line 2: this looks like a run file (6 columns: qid Q0 docid rank score tag), not qrels"
    assert str(error) == "«run.txt», línea 2: esto parece un fichero de run (6 columnas: qid Q0 docid rank score tag), no de qrels"


def test_qrels_given_as_a_run_are_named_as_such_once():
    error = error_of(parse_run, ["301 0 FT1 1", "301 0 FT2 0"], name="qrels.txt")
    assert error.english() == (
        "qrels.txt, line 1: this looks like a qrels file, not a run: its first line has 4 columns, as qrels have "
        "(qid iter docid rel, or BEIR's query-id corpus-id score), where a run has 6 (qid Q0 docid rank score tag)"
    )
    assert len(error.problems) == 1 and error.more == 0


def test_json_qrels_are_read_and_their_values_must_be_integers():
    assert parse_qrels(['{"q1": {"d1": 1, "d2": -1},', ' "q2": {"d1": 0}}'], "qrels.json") == {"q1": {"d1": 1, "d2": -1}, "q2": {"d1": 0}}
    error = error_of(parse_qrels, ['{"q1": {"d1": 1.5, "d2": true, "d3": "2"}}'], name="qrels.json")
    assert error.english().splitlines()[1:] == [
        "  relevance 1.5 is not an integer", "  relevance True is not an integer", "  relevance '2' is not an integer"]


def test_the_first_problems_are_listed_and_the_rest_counted():
    bad = MAX_REPORTED + 15
    lines = ["1 Q0 ok 1 1.0 t"] + [f"1 Q0 d{i} {i} bad{i} t" for i in range(2, bad + 2)]  # bad lines from line 2
    error = error_of(parse_run, lines, name="run.txt")
    assert [problem.line for problem in error.problems] == list(range(2, MAX_REPORTED + 2))
    assert error.more == 15
    english = error.english().splitlines()
    assert english[0] == f"run.txt: {bad} problems"
    assert english[1] == "  line 2: score 'bad2' is not a number in ASCII digits"
    last = MAX_REPORTED + 1
    assert english[MAX_REPORTED] == f"  line {last}: score 'bad{last}' is not a number in ASCII digits"
    assert english[MAX_REPORTED + 1:] == ["  … and 15 more"]
    spanish = str(error).splitlines()
    assert spanish[0] == f"«run.txt» tiene {bad} problemas:"  # the page's header (one, in raglab_core.errors)
    assert spanish[1] == "  línea 2: la puntuación «bad2» no es un número en cifras ASCII"
    assert spanish[-1] == "  … y 15 problemas más."


def test_the_limit_decides_how_many_are_listed(monkeypatch):
    monkeypatch.setattr("raglab_core.text_reader.MAX_REPORTED", 3)
    error = error_of(parse_qrels, [f"q1 0 d{i} x{i}" for i in range(1, 8)], name="q.txt")
    assert [problem.line for problem in error.problems] == [1, 2, 3] and error.more == 4
    assert error.listed("es")[-1] == "… y 4 problemas más."


def test_problems_of_different_kinds_are_listed_in_file_order():
    lines = ["1 0 a 1", "1 0 b x", "1 0 a 2", "1 0 c", "2 0 a 0"]
    error = error_of(parse_qrels, lines, name="q")
    assert [(problem.line, problem.kind) for problem in error.problems] == [
        (2, "relevance"), (3, "duplicate"), (4, "columns")
    ]
    assert error.more == 0


@pytest.mark.parametrize(
    "text, english",
    [
        ('{"q1": {"d1": 1.0,}}', "run.json, line 1: invalid JSON at column 19"),
        ('\n\n{"q1":\n  {"d1" 1.0}}', "run.json, line 4: invalid JSON at column 9"),
        ('{"q1": [1, 2]}', "run.json: JSON runs must be an object {qid: {docid: value}}; query 'q1' is not an object"),
        ('{"q1": {"d1": "0.5"}}', "run.json: score '0.5' is not a number"),
        ('{"q1": {"d1": true}}', "run.json: score True is not a number"),
        ('{"q1": {"d1": NaN}}', "run.json: score nan is not a finite number"),
        ('{"q1": {"d1": 1e999}}', "run.json: score inf is not a finite number"),
        ('{"q1": {"d1": 1' + "0" * 400 + "}}", None),
        ('{"q1": {"d1": 1, "d1": 2}}', "run.json: document 'd1' appears more than once for query 'q1'"),
        ('{"q1": {"d1": 1}, "q1": {"d2": 2}}', "run.json: query 'q1' appears more than once"),
        ("{}", "run.json: the file holds no results"),
    ],
)
def test_bad_json_runs(text, english):
    error = error_of(parse_run, text, name="run.json")
    if english is None:  # an integer too large for a float
        assert error.problems[0].kind == "not_finite"
    else:
        assert error.english() == english


def test_json_that_is_not_an_object_of_objects_is_refused():
    error = error_of(parse_run, '{"q1": 3, "q2": {"d": 1}, "q3": "x"}', name="run.json")
    assert error.english() == (
        "run.json: 2 problems\n"
        "  JSON runs must be an object {qid: {docid: value}}; query 'q1' is not an object\n"
        "  JSON runs must be an object {qid: {docid: value}}; query 'q3' is not an object"
    )
    assert str(error).splitlines()[1] == (
        "  los runs JSON deben ser un objeto {qid: {docid: valor}}; la consulta «q1» no es un objeto"
    )


def test_a_qrels_line_whose_query_id_starts_with_a_brace_is_still_trec():
    assert parse_qrels(["{x} 0 d 1"], "q") == {"{x}": {"d": 1}}


def test_nothing_partial_is_returned_on_error():
    lines = ["1 Q0 a 1 1.0 t"] * 1 + ["1 Q0 b 2 x t"]
    result = None
    with pytest.raises(TrecFormatError):
        result = parse_run(lines, "r")
    assert result is None
    with pytest.raises(TrecFormatError):
        result = parse_run('{"q1": {"a": 1}, "q2": {"b": "x"}}', "r.json")
    assert result is None


# --- properties ----------------------------------------------------------------------------------

# Query and document ids: no whitespace or control characters (column separators), and for queries
# no leading "#" (a comment) or "{" (which announces JSON).
ids = st.text(alphabet=st.characters(blacklist_categories=("Z", "C")), min_size=1, max_size=8)
qids = ids.filter(lambda text: text[0] not in "#{")
finite = st.floats(allow_nan=False, allow_infinity=False)


@given(st.dictionaries(qids, st.dictionaries(ids, finite, min_size=1, max_size=6), min_size=1, max_size=6))
def test_a_written_run_parses_back_to_the_same_dict_in_both_formats(run):
    assert parse_run(list(run_lines(run)), "r") == run
    assert parse_run(json.dumps(run), "r.json") == run


@given(st.dictionaries(qids, st.dictionaries(ids, st.integers(-3, 10**6), min_size=1, max_size=6), min_size=1, max_size=6))
def test_written_qrels_parse_back_to_the_same_dict(qrels):
    assert parse_qrels(list(qrels_lines(qrels)), "q") == qrels
    assert parse_qrels(json.dumps(qrels), "q.json") == qrels


@given(st.lists(st.text(max_size=30), max_size=15))
def test_any_text_either_parses_or_raises_only_trec_format_error(lines):
    for parse in (parse_qrels, parse_run):
        try:
            result = parse(lines, "fuzz")
        except TrecFormatError as error:
            assert error.english() and str(error) and (error.problems or error.more)
            assert len(error.problems) <= MAX_REPORTED
        else:
            assert result and all(result.values()) or parse is parse_run
            if parse is parse_run:
                assert all(math.isfinite(score) for docs in result.values() for score in docs.values())


# --- trec_eval 10 and BEIR formats, strict numbers, streaming (issue 13) ---------------------------

from raglab_core.runs.trec import QrelsReader, RunNotGrouped, RunReader  # noqa: E402


def test_trec_eval_10_runs_with_extra_columns_and_comments_read_as_the_plain_run():
    plain = ["301 Q0 FT1 1 12.5 bm25", "301 Q0 FT2 2 11 bm25", "302 Q0 FT1 1 3 bm25"]
    ten = ["# run: bm25, k1=0.9 b=0.4", "301 Q0 FT1 1 12.5 bm25 0.77 extra", "", "  # a comment with 6 fields 1 2 3",
           "301 Q0 FT2 2 11 bm25 x", "#302 Q0 FT9 1 99 bm25", "302 Q0 FT1 1 3 bm25 y z"]
    assert parse_run(ten, "ten.txt") == parse_run(plain, "plain.txt") == {"301": {"FT1": 12.5, "FT2": 11.0}, "302": {"FT1": 3.0}}
    reader = RunReader("ten.txt")
    reader.read(ten)
    reader.close()
    assert reader.comments == (3, 1, "# run: bm25, k1=0.9 b=0.4")  # counted for the warning; the blank line is not


@pytest.mark.parametrize("lines, expected", [
    (["q1\td1\t1", "# note", "#q2\td1\t1"], (2, 2, "# note")),  # BEIR TSV
    (["301 0 d1 1", "#303 0 d1 x", "#303 0 d1", "\t", "#303 0 d2 1"], (3, 2, "#303 0 d1 x")),  # TREC, each path
    (["301 0 d1 1"], None),
])
def test_the_qrels_reader_counts_lines_skipped_as_comments(lines, expected):
    reader = QrelsReader("q.txt")
    reader.read(lines)
    assert len(reader.close()) == 1 and reader.comments == expected


@pytest.mark.parametrize("header", [True, False])
def test_beir_tsv_qrels_with_or_without_header_read_as_trec_qrels(header):
    rows = ["q1\tdoc 1\t2", "q1\td2\t0", "q2\td1\t1"]  # BEIR ids may hold spaces: only tabs separate
    lines = (["query-id\tcorpus-id\tscore"] if header else []) + rows
    assert parse_qrels([line + "\r\n" for line in lines], "test.tsv") == {"q1": {"doc 1": 2, "d2": 0}, "q2": {"d1": 1}}


def test_a_beir_header_anywhere_else_or_a_bad_score_is_a_line_error():
    error = error_of(parse_qrels, ["query-id\tcorpus-id\tscore", "q1\td1\t1", "q1\td2\tx", "q1\td3"], "test.tsv")
    assert [(p.line, p.kind) for p in error.problems] == [(3, "relevance"), (4, "columns")]
    assert error.problems[1].render("en") == "line 4: expected 3 columns (query-id corpus-id score), found 2"


NUMBERS = [("1_0", "score"), ("١", "score"), ("９", "score"), ("1e400", "not_finite"), ("-1e400", "not_finite"),
           ("infinity", "not_finite"), ("nan", "not_finite"), ("0x10", "score"), ("1,5", "score"), ("½", "score")]


@pytest.mark.parametrize("text, kind", NUMBERS)
def test_a_score_must_be_an_ascii_finite_number_and_is_reported_with_its_line(text, kind):
    error = error_of(parse_run, ["1 Q0 a 1 0.5 t", "1 Q0 b 2 0.25 t", f"1 Q0 c 3 {text} t"], "run.txt")
    assert [(p.line, p.kind, p.details["value"]) for p in error.problems] == [(3, kind, text)]
    assert error.english().startswith("run.txt, line 3: score ")


@pytest.mark.parametrize("text", ["1_0", "١", "９", "1e400", "1.0", "٢٣", "+1_000"])
def test_a_relevance_must_be_an_ascii_integer_and_is_reported_with_its_line(text):
    for lines, name in ((["1 0 a 1", f"1 0 b {text}"], "q.txt"), (["1\ta\t1", f"1\tb\t{text}"], "q.tsv")):
        error = error_of(parse_qrels, lines, name)
        assert [(p.line, p.kind, p.details["value"]) for p in error.problems] == [(2, "relevance", text)]


def test_python_only_numbers_that_c_reads_alike_are_accepted():
    assert parse_run(["1 Q0 a 1 +1.5 t", "1 Q0 b 2 .5 t", "1 Q0 c 3 5. t", "1 Q0 d 4 -2E-3 t"], "r") == {
        "1": {"a": 1.5, "b": 0.5, "c": 5.0, "d": -0.002}}
    assert parse_qrels(["1 0 a +2", "1 0 b -1", "1 0 c 007"], "q") == {"1": {"a": 2, "b": -1, "c": 7}}


def test_a_streaming_reader_hands_over_each_query_once_it_ends_and_refuses_a_regrouped_run():
    seen = []
    reader = RunReader("r", lambda qid, scores: seen.append((qid, dict(scores))))
    reader.read(["1 Q0 a 1 3 t", "1 Q0 b 2 2 t"])
    assert seen == []  # query 1 may go on
    reader.read(["2 Q0 a 1 1 t"])
    assert seen == [("1", {"a": 3.0, "b": 2.0})]
    reader.close()
    assert seen[-1] == ("2", {"a": 1.0})
    with pytest.raises(RunNotGrouped):
        again = RunReader("r", lambda qid, scores: None)
        again.read(["1 Q0 a 1 3 t", "2 Q0 a 1 3 t", "1 Q0 b 2 2 t"])
    held = []
    ungrouped = RunReader("r", lambda qid, scores: held.append((qid, scores)), grouped=False)
    ungrouped.read(["1 Q0 a 1 3 t", "2 Q0 a 1 3 t", "1 Q0 b 2 2 t"])
    ungrouped.close()
    assert held == [("1", {"a": 3.0, "b": 2.0}), ("2", {"a": 3.0})]


@given(st.lists(st.integers(0, 400), max_size=12), st.sampled_from(["trec", "beir", "json"]))
def test_text_fed_in_any_chunks_reads_as_the_whole_text(cuts, shape):
    qrels = {f"q{i}": {f"d{j}": (i * j) % 4 for j in range(4)} for i in range(6)}
    if shape == "trec":
        text = "# comment\n" + "".join(qrels_lines(qrels))
    elif shape == "beir":
        text = "query-id\tcorpus-id\tscore\r\n" + "".join(f"{q}\t{d}\t{g}\r\n" for q, j in qrels.items() for d, g in j.items())
    else:
        text = json.dumps(qrels, indent=1)
    reader = QrelsReader("q")
    last = 0
    for cut in sorted(cuts):
        reader.feed(text[last:cut])
        last = max(last, cut)
    reader.feed(text[last:])
    assert reader.close() == qrels
    assert shape == "json" or reader.number == text.count("\n")  # line numbers survive the chunking


RUN_LINES = [f"q{q} Q0 d{d} {d} {(q * 7 + d * 3) % 11 / 4} t\n" for q in range(6) for d in range(9)]
ODD_RUNS = {
    "plain": RUN_LINES,
    "comment": RUN_LINES[:20] + ["# comment 1 2 3 4 5\n"] + RUN_LINES[20:],
    "extra columns": [line.replace(" t\n", " t x\n") if i % 7 == 0 else line for i, line in enumerate(RUN_LINES)],
    "blank": RUN_LINES[:30] + ["\n", "  \n"] + RUN_LINES[30:],
    "ungrouped": RUN_LINES[::2] + RUN_LINES[1::2],
}
BAD_RUNS = {
    "duplicate": RUN_LINES[:10] + [RUN_LINES[3]] + RUN_LINES[10:],
    "duplicate across chunks": RUN_LINES + [RUN_LINES[-1]],
    "not ascii": RUN_LINES[:40] + ["q9 Q0 dx 1 ٣ t\n"] + RUN_LINES[40:],
    "not finite": RUN_LINES[:40] + ["q9 Q0 dx 1 1e400 t\n"],
    "five columns": RUN_LINES[:5] + ["q0 Q0 dz 1 0.5\n"] + RUN_LINES[5:],
}


def fed(lines, cuts, grouped):
    seen = []
    reader = RunReader("r", lambda qid, scores: seen.append((qid, dict(scores))), grouped)
    text, last = "".join(lines), 0
    for cut in sorted(cuts):
        reader.feed(text[last:cut])
        last = max(last, cut)
    reader.feed(text[last:])
    reader.close()
    return seen, reader.number


@pytest.mark.parametrize("name", list(ODD_RUNS))
@given(cuts=st.lists(st.integers(0, 1500), max_size=6))
def test_chunks_read_column_wise_equal_the_line_by_line_reading(name, cuts):
    lines = ODD_RUNS[name]
    expected = parse_run(lines, "r")
    try:
        seen, number = fed(lines, cuts, grouped=True)
    except RunNotGrouped:
        assert name == "ungrouped"
        seen, number = fed(lines, cuts, grouped=False)
    assert dict(seen) == expected and len(seen) == len(expected) and number == len(lines)


@pytest.mark.parametrize("name", list(BAD_RUNS))
@given(cuts=st.lists(st.integers(0, 2500), max_size=6))
def test_chunks_with_bad_lines_report_what_the_line_by_line_reading_reports(name, cuts):
    lines = BAD_RUNS[name]
    expected = error_of(parse_run, lines, "r")
    with pytest.raises(TrecFormatError) as caught:
        fed(lines, cuts, grouped=False)
    assert caught.value.problems == expected.problems
