"""Every warning of raglab_core.judges words in English (the command line) and Spanish (the page), numbers as each
language writes them."""

import pytest

from raglab_core.judges.agreement import Notice

NOTICES = [
    Notice("kappa_undefined", {"count": 1234, "grade": 1}),
    Notice("kappa_undefined", {"count": 1, "grade": 0}),
    Notice("kappa_single_label", {"side": "judge", "grade": 1}),
    Notice("base_rate_low", {"side": "reference", "rate": 0.0512, "limit": 0.1}),
    Notice("base_rate_high", {"side": "judge", "rate": 0.95, "limit": 0.9}),
    Notice("few_pairs", {"count": 150, "minimum": 200}),
    Notice("few_pairs", {"count": 1, "minimum": 200}),
    Notice("kappa_interval_wide", {"low": 0.412, "high": 0.705, "width": 0.2}),
    Notice("scales_differ", {"reference_max": 3, "judge_max": 1}),
    Notice("grades_clipped", {"name": "llm.txt", "count": 12345, "maximum": 3}),
    Notice("pairs_one_side", {"reference_only": 12000, "judge_only": 4, "missing": "intersect"},
           "pairs_one_side_intersect"),
    Notice("pairs_one_side", {"reference_only": 1, "judge_only": 0, "missing": "zero"}, "pairs_one_side_zero"),
    Notice("few_runs", {"count": 2, "minimum": 3}),
    Notice("few_runs", {"count": 1, "minimum": 3}),
    Notice("judge_lenient", {"mean": 0.1234, "low": 0.1, "high": 0.15}),
    Notice("judge_strict", {"mean": 0.05, "low": -0.08, "high": -0.02}),
    # raglab_core.judges.pooling's, said by `pool` and the judging page
    Notice("pool_empty", {}),
    Notice("sample_whole_pool", {"count": 1234, "sample": 5000}),
    Notice("judge_misses_pool", {"count": 1, "total": 40}),
    Notice("judge_misses_pool", {"count": 12345, "total": 20000}),
]


def test_every_code_of_the_judges_is_listed():
    """The list above holds every warning the judges' modules can give (those of raglab_core.warning_messages
    after the judges' first), so that a new one cannot go untested."""
    from raglab_core.warning_messages import WARNINGS

    codes = list(WARNINGS)
    judges = codes[codes.index("kappa_undefined"):]
    assert sorted({notice.template or notice.code for notice in NOTICES}) == sorted(judges)


@pytest.mark.parametrize("notice", NOTICES, ids=lambda notice: notice.template or notice.code)
def test_every_warning_words_in_both_languages(notice):
    english, spanish = notice.render("en"), notice.render("es")
    assert "{" not in english + spanish and english != spanish
    assert notice.as_json()["message"] == english and notice.as_json()["code"] == notice.code


def test_numbers_are_written_as_each_language_writes_them():
    rate = Notice("base_rate_low", {"side": "reference", "rate": 0.0512, "limit": 0.1})
    assert "the reference calls 5.1 % of the pairs relevant, below 10 %" in rate.render("en")
    assert "la referencia considera relevante el 5,1\u00a0% de los pares, menos del 10\u00a0%" in rate.render("es")
    clipped = Notice("grades_clipped", {"name": "llm.txt", "count": 12345, "maximum": 3})
    assert clipped.render("en").startswith("llm.txt: 12345 grades lay outside 0-3")
    assert clipped.render("es").startswith("«llm.txt»: 12\u00a0345 grados quedaban fuera de 0–3")
    lenient = Notice("judge_lenient", {"mean": 0.1234, "low": 0.1, "high": 0.15}).render("es")
    assert "puntúa de media 0,123 más alto" in lenient and "de 0,100 a 0,150" in lenient
    assert Notice("few_runs", {"count": 1, "minimum": 3}).render("es") == "Solo hay 1 run: no hay ningún orden de runs que comparar."
    missed = Notice("judge_misses_pool", {"count": 12345, "total": 20000})
    assert missed.render("en").startswith("12345 pairs of the pool (20000 pairs) are not graded by the judge")
    assert missed.render("es").startswith("El juez no califica 12\u00a0345 pares del pool (de 20\u00a0000)")
    assert Notice("judge_misses_pool", {"count": 1, "total": 40}).render("es").startswith("El juez no califica 1 par ")
