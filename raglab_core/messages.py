"""The catalogue of the core's bilingual messages: every sentence a :class:`raglab_core.errors.LabError` or a file's
problem (:class:`raglab_core.text_reader.Problem`) can say, by code, in English (the command line) and Spanish (the
page), and the warnings on the data (:mod:`raglab_core.warning_messages`). :func:`raglab_core.errors.message`
fills them.

>>> MESSAGES["not_integer"]
('{name} must be an integer.', '{name} debe ser un número entero.')
>>> all(len(forms) == len(LANGUAGES) for forms in MESSAGES.values())  # (English, Spanish), or (singular, plural)
True
"""

from .warning_messages import WARNINGS

RUN_LAYOUT = "qid Q0 docid rank score tag"
QRELS_LAYOUT = "qid iter docid rel"
BEIR_LAYOUT = "query-id corpus-id score"

# code -> (English, Spanish) templates, filled from LabError.params (or, for a file's problems, from
# raglab_core.text_reader.Problem.details); a pair of such pairs is (singular, plural), chosen by `count`.
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
    # raglab_core.corpus.sweep: configurations (the warnings on a sweep: raglab_core.warning_messages)
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
    **WARNINGS,  # the warnings on the data: raglab_core.warning_messages
}
LANGUAGES = ("en", "es")
