"""The one warning object (raglab_core.notices): every warning of the catalogue words in English (the command line)
and Spanish (the page), each number as its language writes it, and comes back whole from its JSON."""

import pytest

from raglab_core.notices import Notice, from_json
from raglab_core.warning_messages import WARNINGS

# One notice per message of the catalogue (a code, or the variant its parameters call for), as its producer makes
# it: raglab_core.runs.sanity, raglab_core.corpus.sanity, raglab_core.judges.agreement, raglab_core.judges.pooling.
EXAMPLES = [
    Notice("run_none_judged", {"run": "r", "queries": 1, "example": ["q1", "D1", "d1"]}),
    Notice("run_low_judged", {"run": "r", "value": 0.3125}),
    Notice("queries_missing_from_run", {"run": "r", "count": 2, "total": 40, "examples": ["q1", "q2"],
                                        "complete": False}),
    Notice("queries_missing_from_run", {"run": "r", "count": 1, "total": 4, "examples": ["q1"], "complete": True}),
    Notice("missing_note", {"run": "r", "count": 2, "total": 40}),
    Notice("query_id_retrieved", {"run": "r", "count": 7, "examples": ["q1", "q2", "q3", "q4", "q5"]}),
    Notice("run_scores_tied", {"run": "r", "count": 3, "total": 5, "examples": ["a", "b", "c"]}),
    Notice("run_scores_tied", {"run": "r", "count": 4, "total": 4, "examples": ["a", "b", "c", "d"]}),
    Notice("comment_lines", {"run": None, "file": "q.txt", "count": 12345, "line": 12345, "text": "#303 0 d 1"}),
    Notice("run_shallow", {"run": "r", "typical": 20, "deepest": 50, "measures": ["R@100", "AP@1000"]}),
    Notice("run_shallow", {"run": "r", "typical": 20, "deepest": 20, "measures": ["R@100"]}),
    Notice("queries_without_relevant", {"run": None, "rel": 2, "measures": ["nDCG@10"], "count": 3, "total": 9,
                                        "examples": ["q1", "q2", "q3"]}),
    Notice("spans_unknown_document", {"run": None, "count": 2, "examples": ["x", "y"], "spans": 12345,
                                      "total": 23456}),
    Notice("queries_without_evidence", {"run": None, "count": 1, "total": 2, "examples": ["a"]}),
    Notice("queries_retrieve_nothing", {"run": None, "count": 3, "total": 4, "examples": ["a", "b", "c"]}),
    Notice("config_low_ceiling", {"run": "256:32", "fraction": 0.4123, "limit": 0.5}),
    Notice("kappa_undefined", {"count": 1234, "grade": 1}),
    Notice("kappa_single_label", {"side": "judge", "grade": 1}),
    Notice("base_rate_low", {"side": "reference", "rate": 0.0512, "limit": 0.1}),
    Notice("base_rate_high", {"side": "judge", "rate": 0.95, "limit": 0.9}),
    Notice("few_pairs", {"count": 150, "minimum": 200}),
    Notice("kappa_interval_wide", {"low": 0.412, "high": 0.705, "width": 0.2}),
    Notice("scales_differ", {"reference_max": 3, "judge_max": 1}),
    Notice("grades_clipped", {"name": "llm.txt", "count": 12345, "maximum": 3}),
    Notice("pairs_one_side", {"reference_only": 12000, "judge_only": 4, "missing": "intersect"}),
    Notice("pairs_one_side", {"reference_only": 1, "judge_only": 0, "missing": "zero"}),
    Notice("few_runs", {"count": 2, "minimum": 3}),
    Notice("judge_lenient", {"mean": 0.1234, "low": 0.1, "high": 0.15}),
    Notice("judge_strict", {"mean": 0.05, "low": -0.08, "high": -0.02}),
    Notice("pool_empty", {}),
    Notice("sample_whole_pool", {"count": 12345, "sample": 20000}),
    Notice("judge_misses_pool", {"count": 3, "total": 40}),
]
SIDES = {"side_reference", "side_judge"}
"""Words a warning uses (``{side}``), not warnings."""


def test_every_message_of_the_catalogue_has_an_example():
    # A warning added to the catalogue without an example here fails: its words are then tested below.
    assert sorted({notice.template for notice in EXAMPLES}) == sorted(set(WARNINGS) - SIDES)


@pytest.mark.parametrize("notice", EXAMPLES, ids=lambda notice: notice.template)
def test_every_warning_words_in_both_languages_and_comes_back_from_its_json(notice):
    english, spanish = notice.render("en"), notice.render("es")
    assert "{" not in english + spanish and "«" not in english and english != spanish
    as_json = notice.as_json()
    assert list(as_json)[:2] == ["code", "message"] and as_json["message"] == english
    assert from_json(as_json) == notice and from_json(as_json).render("es") == spanish


def test_numbers_are_written_as_each_language_writes_them():
    clipped = EXAMPLES[8]  # a count and a line number: the count grouped in Spanish, the line never
    assert clipped.render("en").startswith("q.txt: 12345 lines start with # and were skipped as comments (the "
                                           "first, line 12345: #303 0 d 1).")
    assert clipped.render("es").startswith("«q.txt»: 12\u00a0345 líneas empiezan por # y se omitieron como "
                                           "comentarios (la primera, la línea 12345: «#303 0 d 1»).")
    ceiling = Notice("config_low_ceiling", {"run": "256:32", "fraction": 0.4123, "limit": 0.5})
    assert "only 41.2 % of the evidence spans lie whole in some chunk (below 50 %)" in ceiling.render("en")
    assert "solo el 41,2\u00a0% de los fragmentos de evidencia cabe entero en algún chunk (menos del 50\u00a0%)" \
        in ceiling.render("es")
    judged = Notice("run_low_judged", {"run": "r.txt", "value": 0.3125})  # the limit, a number, not in the JSON
    assert judged.render("en").startswith("r.txt: mean Judged@10 is 0.312, below 0.5: ")
    assert judged.render("es").startswith("«r.txt»: su Judged@10 medio es 0,312, menos de 0,5: ")
    assert "limit" not in judged.as_json()


def test_a_variant_follows_the_parameters_not_the_code():
    tied = [notice for notice in EXAMPLES if notice.code == "run_scores_tied"]
    assert [notice.template for notice in tied] == ["run_scores_tied", "run_scores_tied_all"]
    assert tied[1].render("en").startswith("r: in every one of its 4 queries (a, b, c, d) every document")
    assert [notice.as_json()["code"] for notice in tied] == ["run_scores_tied", "run_scores_tied"]
