"""Issue 49, item 9: gzipped files are read as they are, and a file that is no text is said to be so, naming what
it looks like, on the command line (English) and the page (Spanish), never with advice to run iconv on it."""

import gzip
import json

import pytest

from raglab_core.__main__ import main
from raglab_core.browser import EvaluationBridge
from raglab_core.runs.decoding import looks_utf16, undecodable

from tests.conftest import ROOT

SAMPLE = ROOT / "site_src" / "data" / "sample"
CHROMA = ROOT / "tests" / "data" / "chroma"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
ELF = b"\x7fELF\x02\x01\x01\x00" + bytes(8) + b"\x03\x00>\x00\x01\x00\x00\x00\x10\x6b\x00\x00" + bytes(20) + b"\xe8\x03"


def command(capsys, *args):
    status = main([*map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def gzipped(tmp_path, source, name):
    path = tmp_path / name
    path.write_bytes(gzip.compress(source.read_bytes(), mtime=0))
    return path


def test_gzipped_qrels_and_runs_evaluate_to_the_numbers_of_the_plain_files(tmp_path, capsys):
    plain = [SAMPLE / "qrels.txt", SAMPLE / "run-bm25.txt", SAMPLE / "run-densa.txt"]
    # Known by its first bytes, not its name: the second run is gzipped under a plain .txt name.
    packed = [gzipped(tmp_path, plain[0], "qrels.txt.gz"), gzipped(tmp_path, plain[1], "run-bm25.txt.gz"),
              gzipped(tmp_path, plain[2], "run-densa.txt")]
    measures = ["--measures", "nDCG@10 AP@100 RR@10", "--json"]
    status, out, err = command(capsys, "eval", *plain, *measures)
    assert status == 0, err
    expected = json.loads(out)
    status, out, err = command(capsys, "eval", *packed, *measures)
    assert status == 0, err
    got = json.loads(out.replace(".txt.gz", ".txt"))  # the same names then
    assert got == expected and got["comparisons"][0]["baseline"] == "run-bm25.txt"
    assert got["runs"][0]["mean"]["nDCG@10"] == pytest.approx(0.5114676, abs=1e-7)
    status, fused_plain, _ = command(capsys, "fuse", plain[1], plain[2], "--method", "rrf")
    assert status == 0
    status, fused_packed, err = command(capsys, "fuse", packed[1], packed[2], "--method", "rrf")
    assert status == 0, err
    assert fused_packed == fused_plain and fused_plain.count("\n") > 100


def test_a_gzipped_corpus_and_evidence_give_the_chunks_command_the_same_numbers(tmp_path, capsys):
    corpus, questions = CHROMA / "state_of_the_union.md", CHROMA / "questions_df.csv"
    args = ["--chunk", "400", "--overlap", "0", "--at", "5", "--json"]
    status, out, err = command(capsys, "chunks", corpus, "-", "--spans", questions, *args)
    assert status == 0, err
    packed = tmp_path / "state_of_the_union.md"
    packed.write_bytes(gzip.compress(corpus.read_bytes()))
    status, got, err = command(capsys, "chunks", packed, "-", "--spans",
                               gzipped(tmp_path, questions, "questions.csv.gz"), *args)
    assert status == 0, err
    assert json.loads(got)["configs"] == json.loads(out)["configs"]


def test_a_damaged_gzip_is_an_error_naming_the_file(tmp_path, capsys):
    truncated = tmp_path / "run.txt.gz"
    truncated.write_bytes(gzip.compress((SAMPLE / "run-bm25.txt").read_bytes())[:300])
    status, out, err = command(capsys, "eval", SAMPLE / "qrels.txt", truncated)
    assert status == 1 and out == ""
    assert f"{truncated} is not a text file: it looks like a gzip file that could not be decompressed" in err
    assert "iconv" not in err


@pytest.mark.parametrize("head, english, spanish", [
    (PNG, "a PNG image", "un PNG (una imagen)"),
    (b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00", "a ZIP archive", "un ZIP"),
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "a PDF document", "un PDF"),
    (ELF, "an ELF executable", "un ejecutable ELF"),
    (b"q1 0 d1 1\n\x00\x00\x07\x01\x00\xff\x00", "a binary file (it holds NUL bytes", "un fichero binario"),
])
def test_a_file_that_is_no_text_is_named_for_what_it_looks_like_on_the_cli_and_the_page(tmp_path, capsys, head,
                                                                                     english, spanish):
    qrels = tmp_path / "qrels.txt"
    qrels.write_bytes(head + bytes(range(256)) * 4)
    status, out, err = command(capsys, "eval", qrels, SAMPLE / "run-bm25.txt")
    assert status == 1 and out == ""
    assert f"{qrels} is not a text file: it looks like {english}" in err
    assert "iconv" not in err and "UTF-16" not in err
    # The page: the browser's decoder failed, and data-worker.js hands the bytes to Python.
    bridge = EvaluationBridge(json.dumps({"qrels": "qrels.png", "runs": ["r.txt"]}))
    assert bridge.next() == "qrels"
    data = qrels.read_bytes()
    bridge.undecodable(json.dumps({"head": list(data[:4096]), "data": list(data[:4096]), "base": 0, "skip": 0}))
    answer = json.loads(bridge.finish())
    assert answer["ok"] is False and answer["field"] == "qrels"
    assert answer["message"].startswith(f"No se pudo leer «qrels.png»: no es un fichero de texto; parece {spanish}")
    assert "iconv" not in answer["message"]


def test_an_elf_binary_is_not_called_utf16_and_utf16_without_a_mark_is_not_said_to_have_one():
    assert not looks_utf16(ELF) and looks_utf16("q1 0 d1 1\n".encode("utf-16-le"))
    error = undecodable("ls", "run", ELF, 24)
    assert error.code == "not_a_text_file" and "UTF-16" not in error.render("en")
    error = undecodable("r.txt", "run", "q1 Q0 d1 1 2.5 x\n".encode("utf-16-le"), 0)
    assert error.code == "not_utf8_utf16_nul"
    assert "without a byte order mark (every other byte is NUL)" in error.render("en")
    assert "starts with" not in error.render("en") and "sin marca de orden de bytes" in str(error)


def test_text_that_decodes_but_holds_nul_bytes_fails_on_the_page_as_on_the_cli():
    """An ELF binary's start and UTF-16 text without a mark are valid UTF-8: the page's first text is looked at."""
    for body, expected in (("\x7fELF\x02\x01\x01\x00" + "\x00" * 8, "parece un ejecutable ELF"),
                           ("q1 0 d1 1\n".encode("utf-16-le").decode(), "parece UTF-16 sin marca")):
        bridge = EvaluationBridge(json.dumps({"qrels": "q.txt", "runs": ["r.txt"]}))
        assert bridge.next() == "qrels"
        assert bridge.feed(body, 20) is True
        bridge.end()
        answer = json.loads(bridge.finish())
        assert answer["ok"] is False and expected in answer["message"], answer["message"]
