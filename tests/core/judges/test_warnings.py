"""Every warning of raglab_core.judges (the agreement's and the pool's) is made by its producer where it should be,
and words in English (the command line) and Spanish (the page), numbers as each language writes them (the
catalogue's other warnings: tests/core/kernel/test_notices.py)."""

from raglab_core.judges.agreement import agreement_report
from raglab_core.judges.pooling import choose
from raglab_core.notices import Notice

def test_the_pool_warns_of_what_it_left_out():
    runs = [{"q1": {"a": 2.0, "b": 1.0}}, {"q1": {"c": 1.0}}]
    pairs, notices = choose(runs, 2, judge={"q1": {"a": 1, "c": 0}}, n=5)
    assert pairs == [("q1", "a"), ("q1", "c")]
    assert notices == [Notice("judge_misses_pool", {"count": 1, "total": 3}),
                       Notice("sample_whole_pool", {"count": 2, "sample": 5})]
    assert [notice.render("en") for notice in notices] == [
        "1 pair of the pool (3 pairs) is not graded by the judge: it is left out, since its sample is drawn from the "
        "pairs it grades.",
        "The sample (5) is not smaller than the pairs to judge (2): all of them are kept."]
    assert choose(runs, 2, judged={"q1": {"a": 0, "b": 1, "c": 0}}) == ([], [Notice("pool_empty", {})])


def test_the_pools_numbers_are_written_as_spanish_writes_them():
    assert Notice("sample_whole_pool", {"count": 12345, "sample": 20000}).render("es") == (
        "La muestra (20\u00a0000) no es menor que los pares por juzgar (12\u00a0345): se conservan todos.")
    assert Notice("judge_misses_pool", {"count": 12345, "total": 23456}).render("es") == (
        "El juez no califica 12\u00a0345 pares del pool (de 23\u00a0456): quedan fuera, porque la muestra sale de los "
        "pares que el juez califica.")
    assert Notice("pool_empty", {}).render("es") == (
        "No queda nada por juzgar: todos los pares del pool ya están juzgados, o el juez no califica ninguno.")


def test_the_agreement_says_its_warnings_in_the_json_in_order():
    report = agreement_report("people.txt", {"q1": {"a": 1, "b": 0, "c": 7}}, "llm.txt",
                              {"q1": {"a": 1, "b": 1}, "q2": {"d": 0}}, reference_max=3)
    codes = [warning["code"] for warning in report["warnings"]]
    assert codes == ["grades_clipped", "pairs_one_side", "scales_differ", "kappa_single_label", "base_rate_high",
                     "few_pairs", "judge_lenient"]
    clipped, one_side = report["warnings"][:2]
    assert clipped == {"code": "grades_clipped", "message": "people.txt: 1 grade lay outside 0-3 and was clipped "
                       "into it (above 3 to 3, below 0 to 0).", "name": "people.txt", "count": 1, "maximum": 3}
    assert one_side["message"].startswith("Pairs judged on one side only: 1 by the reference, 1 by the judge. They "
                                          "are left out")


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
    zero = Notice("pairs_one_side", {"reference_only": 12000, "judge_only": 4, "missing": "zero"})
    assert zero.template == "pairs_one_side_zero"
    assert zero.render("es").startswith("Pares juzgados por un solo lado: 12\u00a0000 solo por la referencia y 4 solo "
                                        "por el juez. El lado al que le falta un par le da el grado 0")
