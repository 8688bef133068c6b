"""The catalogue of the core's bilingual messages: every sentence a :class:`raglab_core.errors.LabError`, a file's
problem (:class:`raglab_core.runs.trec.Problem`) or a warning (:mod:`raglab_core.runs.sanity`) can say, by code,
in English (the command line) and Spanish (the page). :func:`raglab_core.errors.message` fills them.

>>> MESSAGES["not_integer"]
('{name} must be an integer.', '{name} debe ser un número entero.')
>>> all(len(forms) == len(LANGUAGES) for forms in MESSAGES.values())  # (English, Spanish), or (singular, plural)
True
"""

from .words import COMPLETE_LABEL

RUN_LAYOUT = "qid Q0 docid rank score tag"
QRELS_LAYOUT = "qid iter docid rel"
BEIR_LAYOUT = "query-id corpus-id score"

# code -> (English, Spanish) templates, filled from LabError.params (or, for a file's problems, from
# raglab_core.runs.trec.Problem.details); a pair of such pairs is (singular, plural), chosen by `count`.
MESSAGES = {
    # raglab_core.checks: arguments of the metric and chunking functions
    "not_integer": ("{name} must be an integer.", "{name} debe ser un número entero."),
    "below_minimum": (
        "{name} must be an integer greater than or equal to {minimum}.",
        "{name} debe ser un entero mayor o igual que {minimum}.",
    ),
    "not_grade_sequence": (
        "{name} must be a sequence of integer grades.",
        "{name} debe ser una secuencia de grados enteros.",
    ),
    "negative_grade": (
        "Every grade of {name} must be an integer greater than or equal to 0.",
        "Cada grado de {name} debe ser un entero mayor o igual que 0.",
    ),
    # raglab_core.metrics
    "total_below_ranked": (
        "total_relevant must be at least {found}: the ranking already holds {found} relevant documents.",
        "total_relevant debe ser al menos {found}: el ranking ya contiene {found} documentos relevantes.",
    ),
    "judgments_missing": (
        "judgments must include the grade of every relevant document of the ranking.",
        "judgments debe incluir el grado de cada documento relevante del ranking.",
    ),
    "gain": (
        "The gain must be 'exp-log2' (or 'exponential') or 'log2' (or 'linear').",
        "La ganancia debe ser «exp-log2» (o «exponential») o «log2» (o «linear»).",
    ),
    # raglab_core.chunking (and the lab's «solape» control)
    "overlap_not_below_chunk": ("Must be less than the chunk size.", "Debe ser menor que el tamaño del chunk."),
    # raglab_core.runs.evaluation and raglab_core.runs.report
    "settings_differ": (
        "Both evaluations must use the same measures and tie mode.",
        "Las dos evaluaciones deben usar las mismas medidas y el mismo tratamiento de empates.",
    ),
    "measure_unknown": (
        "Unsupported measure: {name!r}. Supported: {supported}.",
        "Medida no admitida: «{name}». Se admiten: {supported}.",
    ),
    "measure_param": (
        "{name!r}: {param}= must be one of {allowed}.",
        "«{name}»: {param}= debe ser uno de {allowed}.",
    ),
    "measure_cutoff": (
        "{name!r}: the cut-off must be an integer from 1 to {maximum}.",
        "«{name}»: el corte debe ser un entero entre 1 y {maximum}.",
    ),
    "measure_needs_cutoff": (
        "{name!r}: {family} needs a cut-off, e.g. {family}@10.",
        "«{name}»: {family} necesita un corte, por ejemplo {family}@10.",
    ),
    "no_measures": ("No measure given. Supported: {supported}.", "No hay ninguna medida. Se admiten: {supported}."),
    "ties": ("ties must be 'double' or 'float32', not {value!r}.", "Los empates deben ser «double» o «float32», no «{value}»."),
    "no_common_query": (
        "{run} and {qrels} share no query id, so there is nothing to evaluate (are they from the same collection?).",
        "«{run}» y «{qrels}» no tienen ninguna consulta en común, así que no hay nada que evaluar "
        "(¿son de la misma colección?).",
    ),
    # A message the page's own modules (lab, controls, scenario, data panel) write: Spanish only.
    "page": ("{text}", "{text}"),
    # raglab_core.runs.trec: one problem in a qrels or run file (Problem.kind, filled from Problem.details).
    # English quotes values with repr() (escapes show odd characters); Spanish with «», as the page does.
    "columns": (
        "expected {expected} columns ({layout}), found {found}",
        "se esperaban {expected} columnas ({layout}) y hay {found}",
    ),
    "run_columns": (
        "expected at least 6 columns (" + RUN_LAYOUT + "), found {found}",
        "se esperaban al menos 6 columnas (" + RUN_LAYOUT + ") y hay {found}",
    ),
    "looks_like_run": (
        "this looks like a run file (6 columns: " + RUN_LAYOUT + "), not qrels",
        "esto parece un fichero de run (6 columnas: " + RUN_LAYOUT + "), no de qrels",
    ),
    "looks_like_qrels": (
        "this looks like a qrels file, not a run: its first line has {found} columns, as qrels have ("
        + QRELS_LAYOUT + ", or BEIR's query-id corpus-id score), where a run has 6 (" + RUN_LAYOUT + ")",
        "esto parece un fichero de qrels, no un run: su primera línea tiene {found} columnas, como los qrels ("
        + QRELS_LAYOUT + ", o query-id corpus-id score en BEIR), y un run tiene 6 (" + RUN_LAYOUT + ")",
    ),
    "relevance": (
        "relevance {value!r} is not an integer in ASCII digits",
        "la relevancia «{value}» no es un número entero en cifras ASCII",
    ),
    "score": ("score {value!r} is not a number in ASCII digits", "la puntuación «{value}» no es un número en cifras ASCII"),
    "not_finite": ("score {value!r} is not a finite number", "la puntuación «{value}» no es un número finito"),
    "duplicate": (
        "document {docid!r} appears more than once for query {qid!r}",
        "el documento «{docid}» aparece más de una vez en la consulta «{qid}»",
    ),
    "duplicate_query": ("query {qid!r} appears more than once", "la consulta «{qid}» aparece más de una vez"),
    "empty_qrels": ("the file holds no judgments", "el fichero no contiene ningún juicio de relevancia"),
    "empty_run": ("the file holds no results", "el fichero no contiene ningún resultado"),
    "json_score": ("score {value!r} is not a number", "la puntuación «{value}» no es un número"),
    "json_relevance": ("relevance {value!r} is not an integer", "la relevancia «{value}» no es un número entero"),
    "json_syntax": ("invalid JSON at column {column}", "JSON no válido en la columna {column}"),
    "json_shape": (
        "JSON {what} must be an object {{qid: {{docid: value}}}}; {where} is not an object",
        "{what} JSON deben ser un objeto {{qid: {{docid: valor}}}}; {where} no es un objeto",
    ),
    # raglab_core.runs.sanity: warnings on the data, which change no value. {run} is the run's name, {examples}
    # query ids and {value} a number, each as the language writes them (raglab_core.runs.sanity.Notice.render).
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
    # raglab_core.runs.decoding: a file that is not UTF-8, its likely encoding, and how to save it as UTF-8
    "not_utf8_utf16": (
        "{name}: not UTF-8 text: it looks like UTF-16 (it starts with a UTF-16 byte order mark; Windows PowerShell 5 "
        "writes UTF-16 with > and Out-File). The first byte that is not UTF-8 is at offset {offset}. Save it as "
        "UTF-8: in PowerShell, Get-Content {name} | Set-Content -Encoding utf8 {utf8_name}; in an editor, "
        '"Save as" with the UTF-8 encoding.',
        "No se pudo leer «{name}»: no es texto UTF-8; parece UTF-16 (empieza con la marca de orden de bytes de "
        "UTF-16, y Windows PowerShell 5 escribe así con > y Out-File). El primer byte que no es UTF-8 está en la "
        "posición {offset} (contando desde 0). Guárdalo como UTF-8: en PowerShell, Get-Content {name} | "
        "Set-Content -Encoding utf8 {utf8_name}, o en un editor, «Guardar como» con la codificación UTF-8.",
    ),
    "not_utf8_utf16_nul": (
        "{name}: not UTF-8 text: it looks like UTF-16 without a byte order mark (every other byte is NUL). Save "
        "it as UTF-8: in PowerShell, Get-Content {name} | Set-Content -Encoding utf8 {utf8_name}; in an editor, "
        '"Save as" with the UTF-8 encoding.',
        "No se pudo leer «{name}»: no es texto UTF-8; parece UTF-16 sin marca de orden de bytes (uno de cada dos "
        "bytes es nulo). Guárdalo como UTF-8: en PowerShell, Get-Content {name} | Set-Content -Encoding utf8 "
        "{utf8_name}, o en un editor, «Guardar como» con la codificación UTF-8.",
    ),
    # a file that is no text at all: what it looks like (raglab_core.runs.decoding.binary_kind), never iconv
    "not_a_text_file": (
        "{name} is not a text file: it looks like {kind_en}. raglab reads UTF-8 text, plain or gzipped.",
        "No se pudo leer «{name}»: no es un fichero de texto; parece {kind_es}. Esta página lee texto UTF-8, "
        "tal cual o comprimido con gzip.",
    ),
    "not_utf8_cp1252": (
        "{name}: not UTF-8 text: it looks like Windows-1252 (Latin-1): byte {byte} at offset {offset} is {char!r} "
        "in Windows-1252. Save it as UTF-8: iconv -f WINDOWS-1252 -t UTF-8 {name} > {utf8_name}, or \"Save as\" "
        "with the UTF-8 encoding in an editor.",
        "No se pudo leer «{name}»: no es texto UTF-8; parece Windows-1252 (Latin-1): el byte {byte}, en la "
        "posición {offset} (contando desde 0), es «{char}» en Windows-1252. Guárdalo como UTF-8: iconv -f "
        "WINDOWS-1252 -t UTF-8 {name} > {utf8_name}, o en un editor, «Guardar como» con la codificación UTF-8.",
    ),
    "not_utf8_byte": (
        "{name}: not UTF-8 text: byte {byte} at offset {offset} is not valid UTF-8. Save the file as UTF-8 "
        '("Save as" with the UTF-8 encoding in an editor, or iconv -t UTF-8).',
        "No se pudo leer «{name}»: no es texto UTF-8: el byte {byte}, en la posición {offset} (contando desde 0), "
        "no es UTF-8 válido. Guárdalo como UTF-8 (en un editor, «Guardar como» con la codificación UTF-8, o con "
        "iconv -t UTF-8).",
    ),
    "not_utf8": ("{name}: not UTF-8 text ({reason})", "No se pudo leer «{name}»: no es un fichero de texto UTF-8 legible."),
    # The words around those problems: where they are, and the report that lists them.
    "files_qrels": ("qrels", "los qrels"),
    "files_run": ("runs", "los runs"),
    "top_level": ("the top level", "el nivel superior"),
    "query": ("query {qid!r}", "la consulta «{qid}»"),
    "at_line": ("line {line}: {text}", "línea {line}: {text}"),
    "file_problem": ("{name}: {text}", "«{name}»: {text}"),  # file names in «», as everywhere in Spanish
    "file_line_problem": ("{name}, line {line}: {text}", "«{name}», línea {line}: {text}"),
    "problems": ("{name}: {count} problems", "«{name}» tiene {count} problemas:"),
    "more_problems": (
        ("… and 1 more", "… y 1 problema más."),
        ("… and {count} more", "… y {count} problemas más."),
    ),
    # raglab_core.runs.fusion and the fuse command
    "fusion_runs": (
        "Fusion needs at least 2 runs; got {found}.",
        "La fusión necesita al menos 2 runs; hay {found}.",
    ),
    "fusion_no_room": (  # the page's: the fused run would be one more than it evaluates
        "With {max} runs there is no room for a fused one (the page evaluates {max} at most): remove one to fuse.",
        "Con {max} runs no cabe uno fusionado (la página evalúa {max} como mucho): quita uno para fusionar.",
    ),
    "fusion_method": (
        "Unsupported fusion method {name!r}. Supported: {supported}.",
        "Método de fusión no admitido: «{name}». Se admiten: {supported}.",
    ),
    "fusion_norm": (
        "Unsupported normalisation {name!r}. Supported: {supported}.",
        "Normalización no admitida: «{name}». Se admiten: {supported}.",
    ),
    "fusion_param": (
        "The fusion method {method!r} takes no parameter {name!r} (it takes: {accepted}).",
        "El método de fusión «{method}» no admite el parámetro «{name}» (admite: {accepted}).",
    ),
    "fusion_rrf_k": (
        "rrf's k must be a number greater than or equal to 0; got {value!r}.",
        "La k de rrf debe ser un número mayor o igual que 0; se ha dado «{value}».",
    ),
    "fusion_weights": (
        "wsum needs one weight per run, each a finite number: {expected} runs, got {found!r}.",
        "wsum necesita un peso por run, cada uno un número finito: hay {expected} runs y se han dado {found}.",
    ),
    "fusion_rrf_borda": (
        "rrf ranks each run itself, so the borda normalisation is not offered with it (ranx would rank "
        "by an arbitrary order); use another normalisation, or none.",
        "rrf ordena cada run por sí mismo, así que no se ofrece con la normalización borda (ranx ordenaría "
        "en un orden arbitrario); usa otra normalización, o ninguna.",
    ),
    "fusion_depth": (
        "The depth must be an integer greater than or equal to 1; got {value!r}.",
        "La profundidad debe ser un número entero mayor o igual que 1; se ha dado «{value}».",
    ),
    "fusion_query_missing": (
        (
            "{name}: 1 query of the other runs is missing from it ({sample}); it contributes nothing to it",
            "A «{name}» le falta 1 consulta de los otros runs ({sample}); no aporta nada a ella.",
        ),
        (
            "{name}: {count} queries of the other runs are missing from it ({sample}); it contributes nothing to them",
            "A «{name}» le faltan {count} consultas de los otros runs ({sample}); no aporta nada a ellas.",
        ),
    ),
    # raglab_core.corpus: one problem in a corpus, queries, spans or chunks file (a Problem, like trec's).
    # {layout} is what a line must hold; {key} a JSON key or CSV column; values quoted as above.
    "line_not_object": (
        "expected one JSON object per line ({layout}), found {found}",
        "se esperaba un objeto JSON por línea ({layout}) y hay {found}",
    ),
    "key_missing": (
        "the key {key!r} is missing: each line needs {layout}",
        "falta la clave «{key}»: cada línea necesita {layout}",
    ),
    "not_text": ("{key!r} must be a string, not {value}", "«{key}» debe ser una cadena de texto, no {value}"),
    "not_id": (
        "{key!r} must be a string (or a whole number), not {value}",
        "«{key}» debe ser una cadena de texto (o un número entero), no {value}",
    ),
    "not_offset": (
        "{key!r} must be a whole number of characters (0, 1, 2, ...), not {value}",
        "«{key}» debe ser un número entero de caracteres (0, 1, 2…), no {value}",
    ),
    "id_blank": ("{key!r} is empty: every line needs an id", "«{key}» está vacío: cada línea necesita un identificador"),
    "id_space": (
        "the id {value!r} contains whitespace, which a TREC run cannot hold (its columns are separated by "
        "whitespace); replace it, e.g. with _",
        "el identificador «{value}» contiene espacios, y un run TREC no puede contenerlos (sus columnas se separan "
        "con espacios); sustitúyelos, por ejemplo por _",
    ),
    "id_repeated": (
        "the id {value!r} was already given on line {first}; ids must be unique",
        "el identificador «{value}» ya aparece en la línea {first}; los identificadores deben ser únicos",
    ),
    "no_documents": ("the file holds no documents", "el fichero no contiene ningún documento"),
    "no_queries": ("the file holds no queries", "el fichero no contiene ninguna consulta"),
    "no_spans": ("the file holds no evidence spans", "el fichero no contiene ningún fragmento de evidencia"),
    "no_chunks": ("the file holds no chunks", "el fichero no contiene ningún chunk"),
    "pool_columns": (
        "expected 2 columns separated by one tab (query_id<TAB>doc_id), found {found}",
        "se esperaban 2 columnas separadas por un tabulador (query_id<TAB>doc_id) y hay {found}",
    ),
    "no_pairs": ("the file holds no pairs", "el fichero no contiene ningún par"),
    "query_columns": (
        "expected 2 tab-separated columns (id<TAB>text), found {found}",
        "se esperaban 2 columnas separadas por tabuladores (id<TAB>texto) y hay {found}",
    ),
    "unknown_document": (
        "document {doc!r} is not in the corpus",
        "el documento «{doc}» no está en el corpus",
    ),
    "unknown_document_like": (
        "document {doc!r} is not in the corpus; did you mean {like!r}?",
        "el documento «{doc}» no está en el corpus; ¿querías decir «{like}»?",
    ),
    "unknown_query": ("query {qid!r} is not among the queries", "la consulta «{qid}» no está entre las consultas"),
    "span_order": (
        "'start' ({start}) must be less than 'end' ({end}): a span holds at least one character",
        "«start» ({start}) debe ser menor que «end» ({end}): un fragmento tiene al menos un carácter",
    ),
    "span_beyond": (
        "'end' ({end}) is past the end of document {doc!r}, which has {length} characters (offsets count "
        "characters, code points, of its 'text', as Python slices do)",
        "«end» ({end}) pasa del final del documento «{doc}», que tiene {length} caracteres (las posiciones cuentan "
        "caracteres, puntos de código, de su «text», como los cortes de Python)",
    ),
    "span_text": (
        "'text' is not the document's characters {start}:{end}: the line gives {given!r}, the document has {found!r}",
        "«text» no coincide con los caracteres {start}:{end} del documento: la línea dice «{given}» y el documento, "
        "«{found}»",
    ),
    "span_text_utf16": (
        "'text' is not the document's characters {start}:{end}, but these offsets find it counted in UTF-16 code "
        "units, as JavaScript counts; count characters (code points), as Python does: here {fixed_start}:{fixed_end}",
        "«text» no coincide con los caracteres {start}:{end} del documento, pero sí contando en unidades UTF-16, "
        "como cuenta JavaScript; cuenta caracteres (puntos de código), como Python: aquí, {fixed_start}:{fixed_end}",
    ),
    "span_text_utf8": (
        "'text' is not the document's characters {start}:{end}, but these offsets find it counted in UTF-8 bytes; "
        "count characters (code points), as Python does: here {fixed_start}:{fixed_end}",
        "«text» no coincide con los caracteres {start}:{end} del documento, pero sí contando bytes UTF-8; cuenta "
        "caracteres (puntos de código), como Python: aquí, {fixed_start}:{fixed_end}",
    ),
    "span_text_elsewhere": (
        "'text' is not the document's characters {start}:{end}, but it is at {found_start}:{found_end}",
        "«text» no coincide con los caracteres {start}:{end} del documento, pero sí con {found_start}:{found_end}",
    ),
    "span_repeated": (
        "the same span was already given on line {first}",
        "el mismo fragmento ya aparece en la línea {first}",
    ),
    "csv_header": (
        "expected the columns question,references,corpus_id (Chroma's questions_df.csv), found {found}",
        "se esperaban las columnas question,references,corpus_id (el questions_df.csv de Chroma) y hay {found}",
    ),
    "csv_syntax": ("invalid CSV: {reason}", "CSV no válido: {reason}"),
    "csv_references": (
        "'references' must be a JSON list of objects {{\"content\", \"start_index\", \"end_index\"}}; "
        "{detail}",
        "«references» debe ser una lista JSON de objetos {{\"content\", \"start_index\", \"end_index\"}}; "
        "{detail}",
    ),
    # raglab_core.corpus: problems that are not tied to one line
    "no_text_files": (
        "{name}: the folder holds no .txt or .md file",
        "«{name}»: la carpeta no contiene ningún fichero .txt o .md",
    ),
    "chunk_unknown": (
        "{run}: chunk {chunk!r} (query {qid!r}) is not in {chunks}; a run over your chunks must use their chunk_id",
        "«{run}»: el chunk «{chunk}» (consulta «{qid}») no está en «{chunks}»; un run sobre tus chunks debe usar "
        "su chunk_id",
    ),
    # raglab_core.corpus.sweep and raglab_core.corpus.sanity: configurations, and warnings on a sweep
    "config": (
        "{value!r} is not a configuration: write chunk size and overlap in tokens as C:O, such as 256:32.",
        "«{value}» no es una configuración: escribe el tamaño de chunk y el solape en tokens como C:O, por ejemplo 256:32.",
    ),
    "config_overlap": (
        "{value!r}: the overlap ({overlap}) must be smaller than the chunk size ({chunk}), and the chunk size at least 1.",
        "«{value}»: el solape ({overlap}) debe ser menor que el tamaño de chunk ({chunk}), y el chunk de al menos 1.",
    ),
    "config_none": ("No configuration given: write them as C:O, such as 256:32.",
                    "No hay ninguna configuración: escríbelas como C:O, por ejemplo 256:32."),
    "config_many": ("{count} configurations: at most {maximum} in one sweep.",
                    "{count} configuraciones: como mucho {maximum} en un barrido."),
    "config_baseline": ("The baseline {value!r} is not one of the configurations ({configs}).",
                        "La referencia «{value}» no es una de las configuraciones ({configs})."),
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
LANGUAGES = ("en", "es")
