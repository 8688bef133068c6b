"""Library errors carry a code and parameters; the CLI words them in English, the page in Spanish."""

import json
import re

import pytest

from raglab_core import LabError, chunking, metrics
from raglab_core.__main__ import main
from raglab_core.browser import compute_json
from raglab_core.messages import MESSAGES
from raglab_core.runs.evaluation import evaluate_run
from raglab_core.runs.comparison import compare_runs

from tests.conftest import load_scenario
from tests.support.bridges import evaluate_texts
from tests.support.trec_data import write_lines

QRELS = {"q1": {"a": 1}}
SPANISH = set("áéíóúñ«»¿¡")
# Spanish words no English message uses: Spanish written without accents is caught too.
SPANISH_WORDS = {"y", "de", "del", "el", "la", "los", "las", "una", "que", "debe", "deben", "problema", "problemas", "linea"}


@pytest.mark.parametrize(
    "call, code, english, spanish",
    [
        (lambda: metrics.precision_at_k([1], 0, 1), "below_minimum",
         "k must be an integer greater than or equal to 1.", "k debe ser un entero mayor o igual que 1."),
        (lambda: metrics.mrr_at_k([1], 1.5, 1), "not_integer", "k must be an integer.", "k debe ser un número entero."),
        (lambda: metrics.ndcg_at_k("12", 1), "not_grade_sequence",
         "grades must be a sequence of integer grades.", "grades debe ser una secuencia de grados enteros."),
        (lambda: metrics.ndcg_at_k([1, -1], 1), "negative_grade",
         "Every grade of grades must be an integer greater than or equal to 0.",
         "Cada grado de grades debe ser un entero mayor o igual que 0."),
        (lambda: metrics.recall_at_k([1, 1], 2, 1, 1), "total_below_ranked",
         "total_relevant must be at least 2: the ranking already holds 2 relevant documents.",
         "total_relevant debe ser al menos 2: el ranking ya contiene 2 documentos relevantes."),
        (lambda: metrics.ndcg_at_k([3], 1, judgments=[1]), "judgments_missing",
         "judgments must include the grade of every relevant document of the ranking.",
         "judgments debe incluir el grado de cada documento relevante del ranking."),
        (lambda: metrics.dcg_at_k([1], 1, gain="log"), "gain",
         "The gain must be 'exp-log2' (or 'exponential') or 'log2' (or 'linear').",
         "La ganancia debe ser «exp-log2» (o «exponential») o «log2» (o «linear»)."),
        (lambda: chunking.footprint(1, 10, 5, 5), "overlap_not_below_chunk",
         "Must be less than the chunk size.", "Debe ser menor que el tamaño del chunk."),
        (lambda: evaluate_run(QRELS, {"q1": {"a": 1.0}}, ["P(rel=0)@1"]), "measure_param",
         "'P(rel=0)@1': rel= must be one of 1, 2, 3, ….", "«P(rel=0)@1»: rel= debe ser uno de 1, 2, 3, …."),
        (lambda: evaluate_run(QRELS, {"q1": {"a": 1.0}}, ["Success"]), "measure_needs_cutoff",
         "'Success': Success needs a cut-off, e.g. Success@10.", "«Success»: Success necesita un corte, por ejemplo Success@10."),
        (lambda: evaluate_run(QRELS, {"q1": {"a": 1.0}}, ties="float"), "ties",
         "ties must be 'double' or 'float32', not 'float'.", "Los empates deben ser «double» o «float32», no «float»."),
        (lambda: compare_runs(evaluate_run(QRELS, {}, ["P@1"]), evaluate_run(QRELS, {}, ["P@2"])), "settings_differ",
         "Both evaluations must use the same measures and tie mode.",
         "Las dos evaluaciones deben usar las mismas medidas y el mismo tratamiento de empates."),
    ],
)
def test_library_errors_carry_a_code_and_render_in_both_languages(call, code, english, spanish):
    with pytest.raises(LabError) as caught:
        call()
    error = caught.value
    assert error.code == code
    assert error.render("en") == english
    assert error.render("es") == str(error) == spanish  # str() stays the page's Spanish


def test_every_message_has_both_languages_and_english_is_english():
    for code, templates in MESSAGES.items():
        # An (English, Spanish) pair, or a (singular, plural) pair of such pairs: every form is checked.
        forms = templates if isinstance(templates[0], tuple) else (templates,)
        assert len(forms) in (1, 2), code
        for english, spanish in forms:
            assert isinstance(english, str) and isinstance(spanish, str), code
            assert english and spanish, code
            assert not SPANISH & set(english), code
            assert not SPANISH_WORDS & set(re.findall(r"[a-zA-Z]+", english.lower())), code


def test_a_bad_file_reads_english_on_the_command_line_and_spanish_on_the_page(tmp_path, capsys):
    qrels = write_lines(tmp_path / "qrels.txt", ["q1 0 a 1\n"])
    run = write_lines(tmp_path / "run.txt", ["q1 Q0 a 1 alto t\n"])
    assert main(["eval", str(qrels), str(run)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == f"error: {run}, line 1: score 'alto' is not a number in ASCII digits\n"
    answer = evaluate_texts({"name": "qrels.txt", "text": "q1 0 a 1\n"}, [{"name": "run.txt", "text": "q1 Q0 a 1 alto t\n"}])
    assert answer == {"ok": False, "field": "run", "slot": "A", "problems": [],
                      "message": "«run.txt», línea 1: la puntuación «alto» no es un número en cifras ASCII"}


def test_no_common_query_is_an_error_in_both_languages_not_zeros(tmp_path, capsys):
    qrels = write_lines(tmp_path / "qrels.txt", ["q1 0 a 1\n"])
    run = write_lines(tmp_path / "run.txt", ["q2 Q0 a 1 1 t\n"])
    assert main(["eval", str(qrels), str(run)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "run.txt and qrels.txt share no query id" in err
    answer = evaluate_texts({"name": "qrels.txt", "text": "q1 0 a 1\n"}, [{"name": "run.txt", "text": "q2 Q0 a 1 1 t\n"}])
    assert answer["ok"] is False and "panel" not in answer
    assert answer["message"] == ("«run.txt» y «qrels.txt» no tienen ninguna consulta en común, así que no hay nada que "
                                 "evaluar (¿son de la misma colección?).")


def test_the_page_shows_a_bad_control_in_spanish():
    view = json.loads(compute_json(json.dumps({"scenario": load_scenario(), "solape": "4096", "chunk": "512"})))["view"]
    assert view["controls"]["solape"]["error"] == "Debe ser menor que el tamaño del chunk."


def test_an_internal_error_is_the_pages_failure_not_an_invalid_state(monkeypatch):
    """Only LabError and malformed JSON are refused as bad input; a bug (here a ValueError) says the page failed."""
    import raglab_core.browser as browser

    def broken(state):
        raise ValueError("a bug")

    monkeypatch.setattr(browser, "compute", broken)
    answer = json.loads(browser.compute_json("{}"))
    assert answer["ok"] is False and answer["internal"] is True
    assert answer["text"].startswith("La página falló") and "Estado no válido" not in answer["text"]
    assert "ValueError: a bug" in answer["detail"]
    refused = json.loads(browser.compute_json("not json"))
    assert "internal" not in refused and refused["text"].startswith("Estado no válido: ")

    monkeypatch.setattr("raglab_core.runs.session.EvaluationSession.finish", broken)
    failed = evaluate_texts({"name": "q", "text": "q1 0 a 1\n"}, [{"name": "r", "text": "q1 Q0 a 1 1 t\n"}])
    assert failed["internal"] is True and failed["message"].startswith("La página falló al evaluar")
    assert "ValueError: a bug" in failed["detail"]


def test_spanish_messages_quote_file_names_alike():
    """Issue 20, item 13: every Spanish message that names a file puts it in «…»."""
    from raglab_core.messages import MESSAGES

    for code in ("file_problem", "file_line_problem", "problems", "not_utf8"):
        assert "«{name}»" in MESSAGES[code][1], code


def test_a_bug_in_any_call_of_the_bridges_is_answered_never_raised(monkeypatch):
    """One way to answer (raglab_core.browser._answer): bad input refused with its field, a bug as the page's."""
    from types import SimpleNamespace

    from raglab_core.browser import CorpusBridge, judge_summary

    def broken(*args):
        raise RuntimeError("a bug")

    bridge = CorpusBridge(json.dumps({"corpus": ["c.jsonl"], "queries": "q.tsv", "evidence": "s.jsonl"}))
    bridge.session = SimpleNamespace(download=broken, detail=broken)
    failed = json.loads(bridge.download("chunks", 0))
    assert failed["ok"] is False and failed["internal"] is True and "RuntimeError: a bug" in failed["detail"]
    refused = json.loads(bridge.download("chunks", "x"))  # not an index: refused as input, not a bug
    assert refused["ok"] is False and "internal" not in refused
    unread = json.loads(judge_summary("{}", "not json"))  # a stored job this version cannot read
    assert unread["internal"] is True and unread["message"] == unread["text"]
