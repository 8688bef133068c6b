"""The catalogue's warnings: every sentence a warning on the data can say, by code, in English (the command
line) and Spanish (the page): the runs' sanity warnings (:mod:`raglab_core.runs.sanity`), a chunking sweep's
(:mod:`raglab_core.corpus.sanity`), the agreement's
(:mod:`raglab_core.judges.agreement`) and the pool's (:mod:`raglab_core.judges.pooling`). A warning changes
no value. :data:`raglab_core.messages.MESSAGES` holds them with the errors; :func:`raglab_core.errors.message`
fills them, from a :class:`raglab_core.notices.Notice`.

>>> sorted(WARNINGS)[:2]
['base_rate_high', 'base_rate_low']
"""

from .words import COMPLETE_LABEL

LOW_JUDGED = 0.5
"""A run's mean Judged@10 below this is warned about (``run_low_judged``, :mod:`raglab_core.runs.sanity`): its
message says the limit, which the warning's JSON does not carry."""

WARNINGS = {
    # raglab_core.runs.sanity: warnings on the data, which change no value. {run} is the run's name, {examples}
    # query ids and {value} a number, each as the language writes them (raglab_core.notices.worded).
    "run_none_judged": (
        (
            "{run}: none of the documents it ranks in the query it shares with the qrels is judged, so every "
            "measure is 0. Check the ids' case and prefixes: the run has {docid!r} (query {qid!r}), the qrels {judged!r}.",
            "«{run}»: ninguno de los documentos que ordena en la consulta que comparte con los qrels está juzgado, "
            "así que todas sus medidas valen 0. Revisa las mayúsculas y los prefijos de los identificadores: el run "
            "tiene «{docid}» (consulta «{qid}») y los qrels, «{judged}».",
        ),
        (
            "{run}: none of the documents it ranks in the {count} queries it shares with the qrels is judged, so "
            "every measure is 0. Check the ids' case and prefixes: the run has {docid!r} (query {qid!r}), the qrels "
            "{judged!r}.",
            "«{run}»: ninguno de los documentos que ordena en las {count} consultas que comparte con los qrels está "
            "juzgado, así que todas sus medidas valen 0. Revisa las mayúsculas y los prefijos de los identificadores: "
            "el run tiene «{docid}» (consulta «{qid}») y los qrels, «{judged}».",
        ),
    ),
    "run_low_judged": (
        "{run}: mean Judged@10 is {value}, below {limit}: most of its top 10 is unjudged, and unjudged documents "
        "count as not relevant, so its measures may be underestimated.",
        "«{run}»: su Judged@10 medio es {value}, menos de {limit}: la mayor parte de sus 10 primeros documentos no "
        "está juzgada y un documento sin juzgar cuenta como no relevante, así que sus medidas pueden quedarse cortas.",
    ),
    "queries_missing_from_run": (
        (
            "{run}: 1 query of the qrels ({total} in all) is not in the run ({examples}); it is left out of its "
            "means (--complete scores it 0, as trec_eval -c does).",
            "«{run}»: 1 consulta de los qrels (de {total} en total) no está en el run ({examples}); queda fuera de "
            "sus medias (la casilla «" + COMPLETE_LABEL + "» la puntúa con 0, como trec_eval -c).",
        ),
        (
            "{run}: {count} queries of the qrels ({total} in all) are not in the run ({examples}); they are left "
            "out of its means (--complete scores them 0, as trec_eval -c does).",
            "«{run}»: {count} consultas de los qrels (de {total} en total) no están en el run ({examples}); quedan "
            "fuera de sus medias (la casilla «" + COMPLETE_LABEL + "» las puntúa con 0, como "
            "trec_eval -c).",
        ),
    ),
    "queries_missing_from_run_complete": (
        (
            "{run}: 1 query of the qrels ({total} in all) is not in the run ({examples}); it scores 0 (--complete).",
            "«{run}»: 1 consulta de los qrels (de {total} en total) no está en el run ({examples}); cuenta como 0 "
            "(casilla «" + COMPLETE_LABEL + "»).",
        ),
        (
            "{run}: {count} queries of the qrels ({total} in all) are not in the run ({examples}); they score 0 "
            "(--complete).",
            "«{run}»: {count} consultas de los qrels (de {total} en total) no están en el run ({examples}); cuentan "
            "como 0 (casilla «" + COMPLETE_LABEL + "»).",
        ),
    ),
    "missing_note": (  # next to the complete checkbox: what it decides about, in the last evaluation
        (
            "In the last evaluation, {run} lacks 1 query of the qrels ({total} in all).",
            "En la última evaluación, a «{run}» le falta 1 consulta de los qrels (de {total} en total).",
        ),
        (
            "In the last evaluation, {run} lacks {count} queries of the qrels ({total} in all).",
            "En la última evaluación, a «{run}» le faltan {count} consultas de los qrels (de {total} en total).",
        ),
    ),
    "query_id_retrieved": (
        (
            "{run}: in 1 query ({examples}) the run retrieves a document whose id is the query's own. If queries "
            "and documents share ids (as in BEIR's ArguAna), such self-matches change the measures; they are kept, "
            "not filtered.",
            "«{run}»: en 1 consulta ({examples}) el run recupera un documento con el mismo identificador que la "
            "consulta. Si consultas y documentos comparten identificadores (como en ArguAna, de BEIR), esas "
            "coincidencias cambian las medidas; se cuentan tal cual, no se filtran.",
        ),
        (
            "{run}: in {count} queries ({examples}) the run retrieves a document whose id is the query's own. If "
            "queries and documents share ids (as in BEIR's ArguAna), such self-matches change the measures; they "
            "are kept, not filtered.",
            "«{run}»: en {count} consultas ({examples}) el run recupera un documento con el mismo identificador que "
            "la consulta. Si consultas y documentos comparten identificadores (como en ArguAna, de BEIR), esas "
            "coincidencias cambian las medidas; se cuentan tal cual, no se filtran.",
        ),
    ),
    "run_scores_tied": (
        "{run}: in {count} of its {total} queries ({examples}) every document has the same score. Those rankings "
        "are ordered by document id, descending, as trec_eval breaks ties (the rank column is ignored), not in the "
        "order the run lists them: their measures describe that arbitrary order, not the retriever. Give each "
        "document a distinct score (for instance, minus its rank).",
        "«{run}»: en {count} de sus {total} consultas ({examples}) todos los documentos tienen la misma puntuación. "
        "Esas clasificaciones se ordenan por identificador de documento, en orden descendente, como desempata "
        "trec_eval (la columna de posición se ignora), no en el orden en que el run las da: sus medidas describen "
        "ese orden arbitrario, no el recuperador. Da a cada documento una puntuación distinta (por ejemplo, su "
        "posición cambiada de signo).",
    ),
    "run_scores_tied_all": (
        (
            "{run}: in its only query ({examples}) every document has the same score. That ranking is ordered by "
            "document id, descending, as trec_eval breaks ties (the rank column is ignored), not in the order the "
            "run lists it: its measures describe that arbitrary order, not the retriever. Give each document a "
            "distinct score (for instance, minus its rank).",
            "«{run}»: en su única consulta ({examples}) todos los documentos tienen la misma puntuación. Esa "
            "clasificación se ordena por identificador de documento, en orden descendente, como desempata trec_eval "
            "(la columna de posición se ignora), no en el orden en que el run la da: sus medidas describen ese "
            "orden arbitrario, no el recuperador. Da a cada documento una puntuación distinta (por ejemplo, su "
            "posición cambiada de signo).",
        ),
        (
            "{run}: in every one of its {count} queries ({examples}) every document has the same score. Those "
            "rankings are ordered by document id, descending, as trec_eval breaks ties (the rank column is "
            "ignored), not in the order the run lists them: its measures describe that arbitrary order, not the "
            "retriever. Give each document a distinct score (for instance, minus its rank).",
            "«{run}»: en todas sus {count} consultas ({examples}) todos los documentos tienen la misma puntuación. "
            "Esas clasificaciones se ordenan por identificador de documento, en orden descendente, como desempata "
            "trec_eval (la columna de posición se ignora), no en el orden en que el run las da: sus medidas "
            "describen ese orden arbitrario, no el recuperador. Da a cada documento una puntuación distinta (por "
            "ejemplo, su posición cambiada de signo).",
        ),
    ),
    "comment_lines": (
        (
            "{file}: 1 line starts with # and was skipped as a comment (line {line}: {text}). trec_eval reads such "
            "a line as data, a query whose id starts with #: if it holds a judgment or a result, remove the #.",
            "«{file}»: 1 línea empieza por # y se omitió como comentario (la línea {line}: «{text}»). trec_eval "
            "la lee como datos, una consulta cuyo identificador empieza por #: si es un juicio o un resultado, "
            "quita el #.",
        ),
        (
            "{file}: {count} lines start with # and were skipped as comments (the first, line {line}: {text}). "
            "trec_eval reads such lines as data, queries whose ids start with #: if they hold judgments or "
            "results, remove the #.",
            "«{file}»: {count} líneas empiezan por # y se omitieron como comentarios (la primera, la línea {line}: "
            "«{text}»). trec_eval las lee como datos, consultas cuyo identificador empieza por #: si son juicios o "
            "resultados, quita el #.",
        ),
    ),
    "run_shallow": (
        "{run}: {typical} documents per query in its median query ({count} at most), fewer than the cut-off of "
        "{measures}: past its last document those measures find nothing, and they do not compare it fairly with a "
        "deeper run. Cut within its depth, or retrieve deeper.",
        "«{run}»: {typical} documentos por consulta en la consulta mediana ({count} como mucho), menos que el corte "
        "de {measures}: más allá de su último documento esas medidas no encuentran nada, y no lo comparan en "
        "igualdad con un run más profundo. Usa un corte dentro de su profundidad o recupera más.",
    ),
    "run_shallow_uniform": (
        "{run}: {count} documents per query, fewer than the cut-off of {measures}: past its last document those "
        "measures find nothing, and they do not compare it fairly with a deeper run. Cut within its depth, or "
        "retrieve deeper.",
        "«{run}»: {count} documentos por consulta, menos que el corte de {measures}: más allá de su último "
        "documento esas medidas no encuentran nada, y no lo comparan en igualdad con un run más profundo. Usa un "
        "corte dentro de su profundidad o recupera más.",
    ),
    "queries_without_relevant": (
        (
            "1 evaluated query (of {total}) has no judged document with a grade >= {rel} ({examples}), so there is "
            "no value of {measures} for it: the means count it as 0, as trec_eval does.",
            "1 consulta evaluada (de {total}) no tiene ningún documento juzgado con grado ≥ {rel} ({examples}), así "
            "que para ella no hay valor de {measures}: las medias la cuentan como 0, como trec_eval.",
        ),
        (
            "{count} evaluated queries (of {total}) have no judged document with a grade >= {rel} ({examples}), so "
            "there is no value of {measures} for them: the means count them as 0, as trec_eval does.",
            "{count} consultas evaluadas (de {total}) no tienen ningún documento juzgado con grado ≥ {rel} "
            "({examples}), así que para ellas no hay valor de {measures}: las medias las cuentan como 0, como "
            "trec_eval.",
        ),
    ),
    # raglab_core.corpus.sanity: the warnings on a chunking sweep
    "spans_unknown_document": (
        (
            "1 document named by the evidence is not in the corpus ({examples}): its spans ({spans} of {total}) "
            "are left out of every measure.",
            "1 documento que nombra la evidencia no está en el corpus ({examples}): sus fragmentos ({spans} de "
            "{total}) quedan fuera de todas las medidas.",
        ),
        (
            "{count} documents named by the evidence are not in the corpus ({examples}): their spans ({spans} of "
            "{total}) are left out of every measure.",
            "{count} documentos que nombra la evidencia no están en el corpus ({examples}): sus fragmentos ({spans} "
            "de {total}) quedan fuera de todas las medidas.",
        ),
    ),
    "queries_without_evidence": (
        (
            "1 query of {total} has no evidence span ({examples}); the evidence measures leave it out.",
            "1 consulta de {total} no tiene ningún fragmento de evidencia ({examples}); las medidas de evidencia la "
            "dejan fuera.",
        ),
        (
            "{count} queries of {total} have no evidence span ({examples}); the evidence measures leave them out.",
            "{count} consultas de {total} no tienen ningún fragmento de evidencia ({examples}); las medidas de "
            "evidencia las dejan fuera.",
        ),
    ),
    "queries_retrieve_nothing": (
        (
            "1 query of {total} shares no token with the corpus ({examples}), so BM25 retrieves nothing for it.",
            "1 consulta de {total} no comparte ningún token con el corpus ({examples}), así que BM25 no recupera "
            "nada para ella.",
        ),
        (
            "{count} queries of {total} share no token with the corpus ({examples}), so BM25 retrieves nothing for "
            "them: check that the queries and the corpus are in the same language and that this is the right "
            "queries file.",
            "{count} consultas de {total} no comparten ningún token con el corpus ({examples}), así que BM25 no "
            "recupera nada para ellas: comprueba que las consultas y el corpus estén en el mismo idioma y que este "
            "sea el fichero de consultas correcto.",
        ),
    ),
    "config_low_ceiling": (
        "{run}: only {fraction} of the evidence spans lie whole in some chunk (below {limit}): before any "
        "retrieval, most evidence is cut by the chunk borders.",
        "«{run}»: solo el {fraction} de los fragmentos de evidencia cabe entero en algún chunk (menos del "
        "{limit}): antes de recuperar nada, los bordes de los chunks cortan la mayor parte de la evidencia.",
    ),
    # raglab_core.judges: the warnings of `agree` and «¿Te fías de tus juicios?» (raglab_core.judges.agreement)
    "side_reference": ("the reference", "la referencia"),
    "side_judge": ("the judge", "el juez"),
    "kappa_undefined": (
        (
            "Cohen's kappa is undefined: both sides give the only pair the grade {grade}, so chance alone explains "
            "their agreement (p_e = 1). It is null, not 0.",
            "La κ de Cohen no está definida: los dos lados dan al único par el grado {grade}, así que el azar basta "
            "para explicar su acuerdo (p_e = 1). No tiene valor, ni siquiera 0.",
        ),
        (
            "Cohen's kappa is undefined: both sides give all {count} pairs the grade {grade}, so chance alone "
            "explains their agreement (p_e = 1). It is null, not 0.",
            "La κ de Cohen no está definida: los dos lados dan a los {count} pares el grado {grade}, así que el azar "
            "basta para explicar su acuerdo (p_e = 1). No tiene valor, ni siquiera 0.",
        ),
    ),
    "kappa_single_label": (
        "Cohen's kappa is 0 because {side} gives every pair the grade {grade}: whatever the other side says, their "
        "agreement is what chance gives (scikit-learn computes it so). Read the exact agreement, PABAK and AC1 "
        "beside it.",
        "La κ de Cohen vale 0 porque {side} da a todos los pares el grado {grade}: diga lo que diga el otro lado, "
        "su acuerdo es el que daría el azar (así lo calcula scikit-learn). Lee a su lado el acuerdo exacto, PABAK "
        "y AC1.",
    ),
    "base_rate_low": (
        "At grade >= 1, {side} calls {rate} of the pairs relevant, below {limit}: at such a base rate kappa comes "
        "out low even when both sides mostly agree (the kappa paradox). Read PABAK and AC1 beside it.",
        "Con el umbral en el grado 1, {side} considera relevante el {rate} de los pares, menos del {limit}: con "
        "una tasa base así, κ sale baja aunque los dos lados coincidan casi siempre (la paradoja de kappa). Lee a "
        "su lado PABAK y AC1.",
    ),
    "base_rate_high": (
        "At grade >= 1, {side} calls {rate} of the pairs relevant, above {limit}: at such a base rate kappa comes "
        "out low even when both sides mostly agree (the kappa paradox). Read PABAK and AC1 beside it.",
        "Con el umbral en el grado 1, {side} considera relevante el {rate} de los pares, más del {limit}: con "
        "una tasa base así, κ sale baja aunque los dos lados coincidan casi siempre (la paradoja de kappa). Lee a "
        "su lado PABAK y AC1.",
    ),
    "few_pairs": (
        (
            "Only 1 pair is compared (fewer than {minimum}): no agreement measure means anything on it.",
            "Solo se compara 1 par (menos de {minimum}): ninguna medida de acuerdo significa nada con él.",
        ),
        (
            "Only {count} pairs are compared (fewer than {minimum}): kappa's interval is wide, and a difference of "
            "0.1 or 0.2 between two judges can be chance.",
            "Solo se comparan {count} pares (menos de {minimum}): el intervalo de κ es ancho, y una diferencia de "
            "0,1 o 0,2 entre dos jueces puede deberse al azar.",
        ),
    ),
    "kappa_interval_wide": (
        "Kappa's 95 % interval, {low} to {high}, is wider than {width}: it cannot tell a moderate agreement "
        "(0.41-0.60) from a substantial one (0.61-0.80). More pairs, from more queries, narrow it.",
        "El intervalo del 95 % de κ, de {low} a {high}, es más ancho que {width}: no distingue un acuerdo moderado "
        "(0,41–0,60) de uno sustancial (0,61–0,80). Más pares, de más consultas, lo estrechan.",
    ),
    "scales_differ": (
        "The two sides use different scales (the reference 0-{reference_max}, the judge 0-{judge_max}), so the "
        "weighted kappas and Krippendorff's alpha are undefined: they weigh distances between grades, which mean "
        "nothing across two scales. Give both the same maximum (--reference-max, --judge-max) to compute them.",
        "Los dos lados usan escalas distintas (la referencia, de 0 a {reference_max}; el juez, de 0 a "
        "{judge_max}), así que las κ ponderadas y la α de Krippendorff no están definidas: pesan distancias entre "
        "grados, que no significan nada entre dos escalas.",
    ),
    "grades_clipped": (
        (
            "{name}: 1 grade lay outside 0-{maximum} and was clipped into it (above {maximum} to {maximum}, below 0 "
            "to 0).",
            "«{name}»: 1 grado quedaba fuera de 0–{maximum} y se ha recortado (los mayores que {maximum}, a "
            "{maximum}; los negativos, a 0).",
        ),
        (
            "{name}: {count} grades lay outside 0-{maximum} and were clipped into it (above {maximum} to {maximum}, "
            "below 0 to 0).",
            "«{name}»: {count} grados quedaban fuera de 0–{maximum} y se han recortado (los mayores que {maximum}, "
            "a {maximum}; los negativos, a 0).",
        ),
    ),
    "pairs_one_side_intersect": (
        "Pairs judged on one side only: {reference_only} by the reference, {judge_only} by the judge. They are left "
        "out of every label measure (with --missing zero, the side that lacks a pair would grade it 0).",
        "Pares juzgados por un solo lado: {reference_only} solo por la referencia y {judge_only} solo por el juez. "
        "Quedan fuera de todas las medidas de acuerdo entre etiquetas.",
    ),
    "pairs_one_side_zero": (
        "Pairs judged on one side only: {reference_only} by the reference, {judge_only} by the judge. The side that "
        "lacks a pair grades it 0, which counts as agreement wherever the other side says 0 too.",
        "Pares juzgados por un solo lado: {reference_only} solo por la referencia y {judge_only} solo por el juez. "
        "El lado al que le falta un par le da el grado 0, lo que cuenta como acuerdo cuando el otro lado también "
        "dice 0.",
    ),
    "few_runs": (
        (
            "Only 1 run: there is no order of runs to compare.",
            "Solo hay 1 run: no hay ningún orden de runs que comparar.",
        ),
        (
            "Only {count} runs: with fewer than 3, a rank correlation (tau, tau_AP, rho) says almost nothing; read "
            "the flipped pairs instead.",
            "Solo hay {count} runs: con menos de 3, una correlación de rangos (τ, τ_AP, ρ) apenas dice nada; mira "
            "los pares invertidos.",
        ),
    ),
    "judge_lenient": (
        "The judge is more lenient than the reference: on both sides' 0-1 scales it grades {mean} higher on "
        "average (95 % interval over queries: {low} to {high}, which excludes 0). A lenient judge can still order "
        "the runs as the reference does; the measures' values move, not only their order.",
        "El juez es más generoso que la referencia: en las escalas de 0 a 1 de los dos lados puntúa de media {mean} "
        "más alto (intervalo del 95 % sobre las consultas: de {low} a {high}, que no incluye el 0). Un juez "
        "generoso puede ordenar los runs como la referencia; lo que cambia son los valores de las medidas, no solo "
        "su orden.",
    ),
    "judge_strict": (
        "The judge is stricter than the reference: on both sides' 0-1 scales it grades {mean} lower on average "
        "(95 % interval over queries: {low} to {high}, which excludes 0). A strict judge can still order the runs "
        "as the reference does; the measures' values move, not only their order.",
        "El juez es más estricto que la referencia: en las escalas de 0 a 1 de los dos lados puntúa de media "
        "{mean} más bajo (intervalo del 95 % sobre las consultas: de {low} a {high}, que no incluye el 0). Un juez "
        "estricto puede ordenar los runs como la referencia; lo que cambia son los valores de las medidas, no solo "
        "su orden.",
    ),
    # raglab_core.judges.pooling: the warnings of `pool` and of the judging page's start
    "pool_empty": (
        "Nothing is left to judge: every pair of the pool is already judged, or the judge grades none of them.",
        "No queda nada por juzgar: todos los pares del pool ya están juzgados, o el juez no califica ninguno.",
    ),
    "sample_whole_pool": (
        "The sample ({sample}) is not smaller than the pairs to judge ({count}): all of them are kept.",
        "La muestra ({sample}) no es menor que los pares por juzgar ({count}): se conservan todos.",
    ),
    "judge_misses_pool": (
        (
            "1 pair of the pool ({total} pairs) is not graded by the judge: it is left out, since its sample is "
            "drawn from the pairs it grades.",
            "El juez no califica 1 par del pool (de {total}): queda fuera, porque la muestra sale de los pares que "
            "el juez califica.",
        ),
        (
            "{count} pairs of the pool ({total} pairs) are not graded by the judge: they are left out, since its "
            "sample is drawn from the pairs it grades.",
            "El juez no califica {count} pares del pool (de {total}): quedan fuera, porque la muestra sale de los "
            "pares que el juez califica.",
        ),
    ),
}
