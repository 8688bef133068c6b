"""The lab's Spanish sentences: the readings under each panel and every other sentence ``compute`` shows.

What it holds:

- :func:`metrics_reading`, what the ranking panel's numbers mean for the
  current state: the top k, recall's denominator (where the known relevant
  documents are and how far Recall@k can go), and what reranking the prefix
  did and cannot do;
- :func:`chunking_reading`, what the chunking footprint costs, never what it
  is worth;
- :func:`announcements`, the short summaries for the page's polite live region;
- the sentences of the arithmetic under the ranking (:func:`ideal_order`,
  :func:`ndcg_division`, :func:`mrr_rank`), a ranking row's words
  (:func:`movement`, :func:`ranking_flags`) and the notes of outputs that
  cannot be computed (:func:`blocked_note`, :data:`RECALL_UNDEFINED`,
  :data:`NDCG_UNDEFINED`).

Every number a reading quotes is an output's text or is computed here from the
same values; tests/test_lab.py checks each of them against the outputs over
many states. Control error messages live with the rules in
:mod:`raglab_core.controls`.
"""

from . import metrics
from .controls import CHUNKING_INPUTS, invalid_labels
from .formatting import NBSP, count, decimal, integer, percent, spanish_list

BLOCKED = "Sin calcular"
"""How the note of an output that depends on an invalid control begins."""
RECALL_UNDEFINED = "Sin relevantes conocidos (total 0), Recall@k no está definido."
NDCG_UNDEFINED = "Ningún documento juzgado tiene grado mayor que 0: el DCG ideal es 0."


def blocked_note(names, values) -> str | None:
    """The note for an output that depends on an invalid control among ``names``, or None.

    >>> blocked_note(("k", "umbral"), {"k": None, "umbral": 1})
    'Sin calcular: corrige k.'
    """
    bad = invalid_labels(names, values)
    return f"{BLOCKED}: corrige {bad}." if bad else None


# --- ranking rows -------------------------------------------------------------------------


def movement(shift: int, reranked: bool) -> tuple[str, str]:
    """Arrow text and its spoken label for a document that moved ``shift`` places up.

    >>> movement(2, True), movement(-1, True)
    (('▲2', 'sube 2 puestos tras el reranking'), ('▼1', 'baja 1 puesto tras el reranking'))
    """
    if not reranked:
        return "", "fuera del prefijo: no se reordena"
    if shift > 0:
        return f"▲{shift}", f"sube {count(shift, 'puesto')} tras el reranking"
    if shift < 0:
        return f"▼{-shift}", f"baja {count(-shift, 'puesto')} tras el reranking"
    return "=", "no se mueve tras el reranking"


def ranking_flags(k, in_k, relevant, reranked, cut_k, cut_rerank) -> tuple[str, str]:
    """A ranking row's flags in words (for screen readers) and its cut marks: ``(flags_label, cut_label)``.

    >>> ranking_flags(3, True, False, True, True, False)
    ('dentro del top-3, no alcanza el umbral, en el prefijo reordenado, corte k = 3', 'corte k = 3')
    """
    flags = [
        f"dentro del top-{k}" if in_k else "fuera del top-k",
        "relevante" if relevant else "no alcanza el umbral",
    ]
    if reranked:
        flags.append("en el prefijo reordenado")
    cuts = ([f"corte k = {k}"] if cut_k else []) + (["fin del reranking"] if cut_rerank else [])
    return ", ".join(flags + cuts), " · ".join(cuts)


# --- the arithmetic under the ranking ------------------------------------------------------


def ideal_order(k, ideal, values) -> str:
    """The ideal order of all judgments that gives IDCG@k.

    >>> ideal_order(3, [3, 2, 2], {"k": 3})
    'Orden ideal de todos los juicios (los 3 grados más altos): 3, 2, 2.'
    """
    bad = invalid_labels(("k",), values)
    if bad:
        return f"Sin orden ideal hasta que corrijas {bad}."
    if k > 1:
        return f"Orden ideal de todos los juicios (los {k} grados más altos): " + ", ".join(str(g) for g in ideal) + "."
    return f"Orden ideal de todos los juicios: el grado más alto, {ideal[0]}."


def ndcg_division(k, dcg, idcg, ndcg) -> str:
    """nDCG as the division with the page's numbers (``dcg``, ``idcg``, ``ndcg``: outputs).

    >>> out = lambda value, text: {"value": value, "text": text, "note": None}
    >>> ndcg_division(2, out(1.5, "1,500"), out(3.0, "3,000"), out(0.5, "0,500"))
    'nDCG@2 = DCG@2 / IDCG@2 = 1,500 / 3,000 = 0,500'
    """
    if dcg["value"] is None or idcg["value"] is None:
        # The formula, then the card's own note as a sentence of its own (no «: Sin calcular: …»).
        return f"nDCG@k = DCG@k / IDCG@k. {ndcg['note'] or BLOCKED + '.'}"
    if ndcg["value"] is None:
        return f"nDCG@{k} = DCG@{k} / IDCG@{k}: el IDCG es 0, así que nDCG no está definido."
    return f"nDCG@{k} = DCG@{k} / IDCG@{k} = {dcg['text']} / {idcg['text']} = {ndcg['text']}"


def mrr_rank(k, first, mrr) -> str:
    """MRR@k as one over the rank of the first relevant document (``mrr``: the output).

    >>> mrr_rank(5, 2, {"value": 0.5, "text": "0,500"})
    'MRR@5 = 1 / 2 = 0,500: el primer relevante (marcado con ●) está en la posición 2.'
    >>> mrr_rank(5, None, {"value": None, "text": "—", "note": "Sin calcular: corrige k."})
    'MRR@k = 1 / posición del primer relevante. Sin calcular: corrige k.'
    """
    if mrr["value"] is None:
        return f"MRR@k = 1 / posición del primer relevante. {mrr.get('note') or BLOCKED + '.'}"
    if first is None:
        return (f"MRR@{k} = 0: ningún relevante entre los {k} primeros." if k > 1
                else "MRR@1 = 0: el primer resultado no es relevante.")
    return (
        f"MRR@{k} = 1 / {first} = {mrr['text']}: el primer relevante (marcado con ●) "
        f"está en la posición {first}."
    )


def no_windows(values) -> str | None:
    """Why the chunk-window strip is empty, or None when its controls are valid."""
    bad = invalid_labels(("tokens_doc", "chunk", "solape"), values)
    return f"Sin ventanas hasta que corrijas {bad}." if bad else None


# --- the page's status line --------------------------------------------------------------


def status_texts() -> dict:
    """The sentences lab.js shows in the page's status line and live region, by name (``lab_config.texts``);
    those about Python's download, with its sizes, are :mod:`raglab_core.loading`'s.

    >>> status_texts()["reset"]
    'Valores del escenario restablecidos.'
    """
    ready = "Python está listo: los valores se recalculan en tu navegador."
    return {
        "loading": "Los valores mostrados se calcularon al publicar la página. Preparando Python en tu navegador…",
        "ready": ready,
        # Service workers need a secure context (HTTPS, or this machine's own address): elsewhere, as on
        # plain HTTP from a LAN address, the page still works but cannot be kept for offline use.
        "ready_without_offline": ready + " Sin HTTPS, esta página no queda guardada para usarla sin conexión.",
        "worker_stopped": "El cálculo en segundo plano se detuvo: ves los últimos valores calculados. Recarga la página.",
        "no_boot": "No se pudo cargar el arranque del cálculo (boot.js): ves el estado inicial. Recarga la página.",
        "from_file": (
            "Abriste el archivo directamente: ves el estado inicial calculado al publicar la página. "
            "Para mover los controles, sírvela desde un servidor web (por ejemplo, «make serve» "
            "o «python3 -m http.server» en la carpeta dist/)."
        ),
        "unsupported": "Este navegador no puede ejecutar Python (faltan Web Workers o WebAssembly): ves el estado inicial.",
        "no_worker": "No se pudo iniciar el cálculo en segundo plano: ves el estado inicial. Recarga la página.",
        "reset": "Valores del escenario restablecidos.",
        "copied": "Enlace copiado: pégalo para compartir este estado del laboratorio.",
        "not_copied": "No se pudo copiar el enlace: cópialo de la barra de direcciones.",
    }


# --- readings -----------------------------------------------------------------------------




def _reaches(n: int) -> str:
    return "alcanza" if n == 1 else "alcanzan"


def metrics_reading(scenario, grades, judged, order, values, total_control, outputs) -> str:
    bad = invalid_labels(("k", "umbral", "rerank"), values)
    if bad:
        return f"Sin lectura de métricas hasta que corrijas {bad}."
    ranked = [grades[i] for i in order]
    parts = [_top_k_sentence(ranked, values, outputs)]
    parts += _total_sentences(grades, judged, values, total_control, outputs)
    parts += _rerank_sentences(scenario, grades, judged, order, values, outputs)
    return " ".join(part for part in parts if part)


def _top_k_sentence(ranked, values, outputs) -> str:
    """What the top k holds: how many reach the threshold and where the first one is."""
    k, threshold = values["k"], values["umbral"]
    found = outputs["relevant_in_k"]["value"]
    grade = f"el grado {threshold}"
    if found == 0:
        zero = [f"Precision@{k}", f"MRR@{k}"]
        if outputs["recall"]["value"] == 0:
            zero.insert(1, f"Recall@{k}")
        sentence = (
            f"{'El primer resultado no alcanza' if k == 1 else f'Ninguno de los {k} primeros resultados alcanza'} "
            f"{grade}: {spanish_list(zero)} valen {outputs['precision']['text']}"
        )
        if values["total"] == 0:
            sentence += f", y Recall@{k} no está definido: ningún documento juzgado alcanza {grade}"
        return sentence + "."
    first = metrics.first_relevant_rank(ranked, k, threshold)
    if k == 1:
        return f"El primer resultado alcanza {grade}: es relevante."
    if found == k:
        return f"Los {k} primeros resultados alcanzan {grade}: todos son relevantes."
    where = f"está en la posición {first}" if found == 1 else f"el primero está en la posición {first}"
    return f"{found} de los {k} primeros resultados {_reaches(found)} {grade}; {where}."


def _total_sentences(grades, judged, values, total_control, outputs) -> list[str]:
    """Recall's denominator: where the known relevant documents are, and how far Recall@k can go."""
    k, threshold, total = values["k"], values["umbral"], values["total"]
    parts = []
    judged_count = metrics.relevant_count(judged, threshold)
    if total_control["raised_from"] is not None:
        parts.append(
            f"Con el umbral {threshold} hay {count(judged_count, 'documento juzgado', 'documentos juzgados')} "
            f"que lo {_reaches(judged_count)}: el total de relevantes conocidos sube de "
            f"{total_control['raised_from']} a {total}."
        )
    if not total:  # undefined (an invalid total) or 0 (said by the top-k sentence)
        return parts
    found = metrics.relevant_count(grades, threshold)  # in the ranking, whatever its order
    in_k = outputs["relevant_in_k"]["value"]
    if total == 1:
        parts.append(f"El top-{k} {'recupera' if in_k else 'no recupera'} el único relevante conocido.")
    else:
        parts.append(f"El top-{k} recupera {in_k} de los {total} relevantes conocidos.")
    missing = total - found
    if missing == 0:
        return parts
    unretrieved, unjudged = judged_count - found, total - judged_count
    one = missing == 1
    if not unjudged:
        what = f"{'es un documento juzgado' if one else 'son documentos juzgados'} que la primera etapa no recuperó"
    elif not unretrieved:
        what = f"{'es un relevante' if one else 'son relevantes'} que nadie juzgó"
    else:
        what = (
            f"hay {count(unretrieved, 'documento juzgado', 'documentos juzgados')} que la primera etapa no "
            f"recuperó y {count(unjudged, 'relevante')} que nadie juzgó"
        )
    if found == 0:
        parts.append(
            f"{'Ninguno está' if total > 1 else 'No está'} en el ranking: {what}; "
            f"Recall@{k} vale {outputs['recall']['text']} con cualquier k y cualquier reranking."
        )
    else:
        parts.append(
            f"De esos {total}, {missing} no {'está' if one else 'están'} en el ranking: {what}; ni un k mayor ni el "
            f"reranking {'lo' if one else 'los'} alcanzan, así que Recall@{k} no pasará de {decimal(metrics.recall(grades, None, threshold, total))}."
        )
    if unjudged:
        parts.append(
            "Los relevantes sin juzgar solo cuentan en el denominador de Recall: sin un grado, "
            "el DCG ideal no puede incluirlos."
        )
    return parts


def _rerank_sentences(scenario, grades, judged, order, values, outputs) -> list[str]:
    """What reranking the prefix did to nDCG and MRR, and what it cannot do."""
    k, threshold, depth = values["k"], values["umbral"], values["rerank"]
    n = len(order)
    if depth == 0:
        return ["Sin reranking: el orden es el de la primera etapa."]
    prefix = min(depth, n)
    if prefix == 1:
        return ["Con profundidad 1 el reranker solo recibe el primer documento: el orden no cambia."]
    head = "El reranking reordena todo el ranking" if prefix == n else f"El reranking reordena solo los {prefix} primeros"
    ndcg_before = metrics.ndcg_at_k(grades, k, judgments=judged)
    ndcg = outputs["ndcg"]
    parts = []
    rose = ndcg_before is not None and decimal(ndcg_before) != ndcg["text"] and ndcg["value"] > ndcg_before
    if ndcg_before is None:
        parts.append(head + ".")
    elif decimal(ndcg_before) == ndcg["text"]:
        parts.append(f"{head}, pero nDCG@{k} no cambia ({ndcg['text']}).")
    elif ndcg["value"] > ndcg_before:
        parts.append(f"{head}: nDCG@{k} pasa de {decimal(ndcg_before)} (orden inicial) a {ndcg['text']}.")
    else:
        parts.append(f"{head} y nDCG@{k} empeora: baja de {decimal(ndcg_before)} (orden inicial) a {ndcg['text']}.")

    # MRR's blind spot: the first relevant document did not move, while what follows it did.
    changed = []
    if ndcg_before is not None and decimal(ndcg_before) != ndcg["text"]:
        changed.append(f"nDCG@{k}")
    if decimal(metrics.precision_at_k(grades, k, threshold)) != outputs["precision"]["text"]:
        changed.append(f"Precision@{k}")
    if changed and decimal(metrics.mrr_at_k(grades, k, threshold)) == outputs["mrr"]["text"]:
        parts.append(
            f"MRR@{k} no cambia ({outputs['mrr']['text']}) aunque {spanish_list(changed)} sí: solo depende de la "
            "posición del primer relevante y no distingue lo que viene después."
        )

    if prefix == n:
        missed = [doc for doc in scenario.get("unretrieved", []) if doc["grade"] > 0]
        best = metrics.ndcg_at_k(sorted(metrics.condensed(grades), reverse=True), k, judgments=judged)
        if missed and best is not None and decimal(best) != decimal(1.0):
            top = max(missed, key=lambda doc: doc["grade"])
            ceiling = (
                f"Es el mejor orden posible de estos {n} documentos y aun así nDCG@{k} no llega a 1"
                if decimal(best) == ndcg["text"]
                else f"Ni el mejor orden posible de estos {n} documentos pasaría de {decimal(best)}"
            )
            reranker = (
                "el reranker mejora el orden, pero no rescata" if rose
                else "el reranker solo reordena los candidatos de la primera etapa: no rescata"
            )
            parts.append(
                f"{ceiling}: el ideal cuenta documentos juzgados que la primera etapa no recuperó, como "
                f"«{top['title']}» (grado {top['grade']}), y {reranker} documentos que quedaron fuera de los candidatos."
            )
    else:
        # Worth saying only when lifting it would change what is shown: a lower grade sits above it in the top k.
        ranked = [grades[i] for i in order]
        below = [
            i for i in range(prefix, n)
            if grades[i] is not None and grades[i] >= threshold
            and any(ranked[j] is None or ranked[j] < grades[i] for j in range(min(k, i)))
        ]
        if below:
            best_below = max(below, key=lambda i: (grades[i], -i))
            parts.append(
                f"«{scenario['documents'][best_below]['title']}» (grado {grades[best_below]}) está en la posición "
                f"{best_below + 1}, fuera del prefijo: el reranker no puede subirlo."
            )
    return parts


def chunking_reading(values, outputs, fp, ev=None) -> str:
    """What the chunking footprint costs, and whether evidence of the chosen length survives the cut.

    ``ev`` is the lab's evidence summary (:func:`raglab_core.lab.compute`), or
    None while one of its controls is invalid. Cost and geometry, never
    relevance: the reading ends by saying so.
    """
    bad = invalid_labels(CHUNKING_INPUTS, values)
    if bad:
        return f"Sin lectura de chunking hasta que corrijas {bad}."
    docs, tokens, chunk, overlap = (values[name] for name in CHUNKING_INPUTS)
    caveat = (
        " Esta huella mide coste (almacenamiento y candidatos redundantes) y la geometría del corte, no calidad "
        "ni relevancia: si el retriever encuentra el chunk que contiene la evidencia, y si un tamaño u otro "
        "recupera mejor, solo lo dice una evaluación con qrels reales."
    )
    if docs == 0 or tokens == 0:
        return "El corpus está vacío: no hay nada que indexar ni duplicar."
    evidence = evidence_sentences(values, outputs, ev)
    if tokens <= chunk:
        return (
            f"Cada documento ({count(tokens, 'token')}) cabe en un solo chunk de {count(chunk, 'token')}: "
            f"el índice guarda {count(fp.chunks, 'chunk')} y el solape no duplica nada."
            + evidence + caveat
        )
    text = (
        f"Cada documento de {integer(tokens)} tokens se parte en {count(fp.per_document, 'chunk')} "
        f"con un stride de {count(fp.stride, 'token')}."
    )
    if overlap == 0:
        return (
            text
            + f" Sin solape no hay copias: el índice guarda los {integer(fp.corpus_tokens)} tokens del corpus."
            + evidence + caveat
        )
    copies = "es una copia creada" if fp.duplicated_tokens == 1 else "son copias creadas"
    warning = ""
    if fp.duplication > 1:  # the index holds the corpus more than twice over: copies are the most of it
        warning = (
            f" Aviso: un solape de {integer(overlap)} en chunks de {integer(chunk)} deja un stride de "
            f"{count(fp.stride, 'token')}: la mayor parte de lo que guarda el índice son copias."
        )
    return (
        text
        + f" El índice guarda {outputs['indexed_tokens']['text']} tokens para un corpus de "
        f"{integer(fp.corpus_tokens)}: {integer(fp.duplicated_tokens)} "
        f"(el {outputs['duplication']['text']} del corpus, no del índice) {copies} por el solape, "
        f"así que el corpus se indexa {times_indexed(fp)} veces."
        + warning + evidence + caveat
    )


def times_indexed(fp) -> str:
    """How many times the index holds the corpus: indexed tokens / corpus tokens, two decimals.

    >>> from raglab_core import chunking
    >>> times_indexed(chunking.footprint(10_000, 1200, 512, 64))
    '1,11'
    """
    return decimal(fp.indexed_tokens / fp.corpus_tokens, 2)


def duplicated_caption(fp) -> str:
    """The duplication card's caption: the copies, their base (the corpus, not the index) and the times indexed.

    >>> from raglab_core import chunking
    >>> duplicated_caption(chunking.footprint(10, 1200, 512, 64)).replace(NBSP, " ")
    '1280 tokens duplicados, sobre un corpus de 12 000: se indexa 1,11 veces'
    """
    copies = count(fp.duplicated_tokens, "token duplicado", "tokens duplicados")
    if not fp.corpus_tokens:
        return copies
    if not fp.duplicated_tokens:
        return f"{copies}: el corpus se indexa una sola vez"
    return f"{copies}, sobre un corpus de {integer(fp.corpus_tokens)}: se indexa {times_indexed(fp)} veces"


# --- evidence against the cut (DESIGN §4.5) ------------------------------------------------

EVIDENCE_INPUTS = ("tokens_doc", "chunk", "solape", "evidencia")
"""The controls the evidence's containment depends on (its price also on ``docs``)."""


def share(fraction) -> str:
    """A fraction of positions as a percentage that never rounds to 0 % or 100 % unless it is exactly that.

    >>> from fractions import Fraction
    >>> [share(x).replace(NBSP, " ") for x in (Fraction(1031, 1101), Fraction(1), Fraction(0), Fraction(9999, 10000))]
    ['93,6 %', '100 %', '0 %', 'más del 99,9 %']
    >>> share(Fraction(1, 10**6)).replace(NBSP, " ")
    'menos del 0,1 %'
    """
    if fraction == 1:
        return f"100{NBSP}%"
    if fraction == 0:
        return f"0{NBSP}%"
    text = percent(float(fraction))
    if text == percent(1.0):
        return f"más del 99,9{NBSP}%"
    if text == percent(0.0):
        return f"menos del 0,1{NBSP}%"
    return text


def longer_than_document(length: int, tokens: int) -> str:
    """Why the evidence outputs are undefined when the evidence is longer than the document."""
    return (
        f"Una evidencia de {count(length, 'token')} no cabe en un documento de {count(tokens, 'token')}: "
        "no hay ninguna posición donde medirla."
    )


def longer_than_chunk(length: int, chunk: int) -> str:
    """Why no overlap keeps evidence longer than the chunk whole."""
    return (
        f"Ningún solape basta: la evidencia ({count(length, 'token')}) es más larga que el chunk "
        f"({count(chunk, 'token')})."
    )


def _at_positions(text: str) -> str:
    """«en el 93,6 % de las posiciones», «en más del 99,9 % de las posiciones»."""
    return f"en {text if text.startswith(('más', 'menos')) else 'el ' + text} de las posiciones"


def evidence_sentences(values, outputs, ev) -> str:
    """The reading's sentences on the evidence (each starting with a space), or "" with nothing to add.

    Says in what share of the positions evidence of ``evidencia`` tokens lies
    whole in at least one chunk, the smallest overlap that would always keep
    it whole and what the index would then hold, and how many chunks touch it
    (the top-k slots one piece of evidence can fill).
    """
    if values["evidencia"] is None:
        return f" Sin lectura de la evidencia hasta que corrijas {invalid_labels(('evidencia',), values)}."
    if ev is None:
        return ""
    tokens, chunk, overlap, length = (values[name] for name in EVIDENCE_INPUTS)
    if length > tokens:
        return " " + longer_than_document(length, tokens)
    touching = outputs["windows_touching"]
    if ev["touching"] == 1:
        touch = " Cada posición de la evidencia la toca un solo chunk: ocupa un solo puesto del top-k."
    else:
        touch = (
            f" De media la tocan {touching['text']} chunks: si se recuperan todos los que la tocan, una sola "
            "evidencia ocupa otros tantos puestos del top-k."
        )
    evidence = f"una evidencia de {count(length, 'token')}"
    if tokens <= chunk:
        return f" Por eso {evidence} queda siempre entera, sin necesidad de solape." + touch
    if length > chunk:
        return (
            f" {evidence[0].upper()}{evidence[1:]} no cabe entera en ningún chunk de {count(chunk, 'token')}, "
            f"con ningún solape: queda siempre partida. Para que quepa hace falta un chunk de al menos "
            f"{count(length, 'token')}." + touch
        )
    head = f" Con chunks de {integer(chunk)} y solape {integer(overlap)}, {evidence}"
    minimum = ev["min_overlap"]
    cost = f"el índice pasaría de {outputs['indexed_tokens']['text']} a {outputs['indexed_tokens_whole']['text']} tokens"
    if ev["containment"] == 1:
        if overlap == minimum:
            tail = f" Un solape de {integer(minimum)} es justo el mínimo para eso."
        else:
            tail = f" Bastaría un solape de {integer(minimum)}: {cost}."
        return head + " queda siempre entera en al menos un chunk." + tail + touch
    return (
        head + f" queda entera en al menos un chunk {_at_positions(outputs['containment']['text'])}. "
        f"Con un solape de {integer(minimum)} o más quedaría siempre entera, y {cost}." + touch
    )


# --- the chunk-window strip in words --------------------------------------------------------


def strip_scale(w: dict) -> str:
    """Which tokens the strip draws, said visibly: the zoom is never silent.

    >>> from raglab_core.arithmetic import chunk_windows
    >>> strip_scale(chunk_windows(10_000_000, 1, 0)).replace(NBSP, " ")
    'Se dibujan los tokens 0–12 de 10 000 000: las 12 primeras ventanas.'
    >>> strip_scale(chunk_windows(1200, 512, 64))
    'Se dibujan los 1200 tokens del documento.'
    """
    if not w["windows"]:
        return ""
    if w["whole"]:
        return f"Se dibujan los {count(w['tokens'], 'token')} del documento." if w["tokens"] > 1 else \
            "Se dibuja el único token del documento."
    drawn = f"Se dibujan los tokens 0–{integer(w['span'])} de {integer(w['tokens'])}"
    shown = len(w["shown"])
    if w["more"]:
        return drawn + f": {'la primera ventana' if shown == 1 else f'las {shown} primeras ventanas'}."
    return drawn + "."


def doc_legend(w: dict) -> str:
    """The legend's words for the strip's top bar: the whole document, or only the part drawn."""
    return "el documento" if w["whole"] else f"los tokens 0–{integer(w['span'])} del documento"


def _windows_named(first: int, number: int) -> str:
    """Windows ``first … first + number - 1`` (0-based) named for a reader, 1-based.

    >>> _windows_named(1, 1), _windows_named(0, 2), _windows_named(3, 5)
    ('la ventana 2', 'las ventanas 1 y 2', 'las ventanas 4 a 8')
    """
    if number == 1:
        return f"la ventana {integer(first + 1)}"
    if number == 2:
        return f"las ventanas {integer(first + 1)} y {integer(first + 2)}"
    return f"las ventanas {integer(first + 1)} a {integer(first + number)}"


def evidence_span_text(marks: dict) -> str:
    """Where the drawn evidence lies and which windows hold or touch it (the strip's marks in words).

    >>> from raglab_core.arithmetic import chunk_windows
    >>> evidence_span_text(chunk_windows(1200, 512, 64, 100)["evidence"])
    'La evidencia ocupa los tokens 430–530: ninguna ventana la contiene entera; queda partida entre las ventanas 1 y 2.'
    >>> evidence_span_text(chunk_windows(1200, 100, 0, 250)["evidence"])
    'La evidencia ocupa los tokens 0–250: ninguna ventana la contiene entera; queda repartida en 3 ventanas, de la 1 a la 3.'
    >>> evidence_span_text(chunk_windows(1200, 512, 64, 100, position=470)["evidence"])
    'La evidencia ocupa los tokens 470–570: la contiene entera la ventana 2, y la toca sin contenerla 1 más.'
    """
    where = f"La evidencia ocupa los tokens {integer(marks['start'])}–{integer(marks['end'])}"
    holding, touching = marks["holding"], marks["touching"]
    if not holding["count"]:
        if touching["count"] == 2:
            return f"{where}: ninguna ventana la contiene entera; queda partida entre " \
                f"{_windows_named(touching['first'], 2)}."
        # «entre las ventanas 1 a 100» mixes two prepositions: say how many, then which.
        return f"{where}: ninguna ventana la contiene entera; queda repartida en " \
            f"{integer(touching['count'])} ventanas, de la {integer(touching['first'] + 1)} " \
            f"a la {integer(touching['first'] + touching['count'])}."
    verb = "la contiene entera" if holding["count"] == 1 else "la contienen entera"
    text = f"{where}: {verb} {_windows_named(holding['first'], holding['count'])}"
    others = touching["count"] - holding["count"]
    if others:
        text += f", y la {'toca' if others == 1 else 'tocan'} sin contenerla {integer(others)} más"
    return text + "."


def evidence_valuetext(marks: dict) -> str:
    """The position slider's words for screen readers: the tokens, and whole or cut.

    >>> from raglab_core.arithmetic import chunk_windows
    >>> evidence_valuetext(chunk_windows(1200, 512, 64, 100)["evidence"])
    'tokens 430–530, partida'
    """
    state = "entera en un chunk" if marks["holding"]["count"] else "partida"
    return f"tokens {integer(marks['start'])}–{integer(marks['end'])}, {state}"


def windows_text(w: dict) -> str:
    """The strip in words: its text equivalent for screen readers and for anyone who prefers reading.

    >>> from raglab_core.arithmetic import chunk_windows
    >>> windows_text(chunk_windows(1200, 512, 64))
    'Un documento de 1200 tokens en 3 ventanas de hasta 512 tokens que empiezan cada 448: 0–512, 448–960 y 896–1200 (la última, recortada al final del documento).'
    >>> windows_text(chunk_windows(3, 2, 1))
    'Un documento de 3 tokens en 2 ventanas de hasta 2 tokens que empiezan en cada token: 0–2 y 1–3.'
    """
    if not w["windows"]:
        return "Un documento vacío no tiene ventanas."
    ranges = [f"{integer(s['start'])}–{integer(s['end'])}" for s in w["shown"]]
    evidence = " " + evidence_span_text(w["evidence"]) if w.get("evidence") else ""
    if w["windows"] == 1:
        return f"Un documento de {count(w['tokens'], 'token')} cabe en una sola ventana: {ranges[0]}." + evidence
    listed = ", ".join(ranges[:-1]) + " y " + ranges[-1]
    text = (
        f"Un documento de {count(w['tokens'], 'token')} en {integer(w['windows'])} ventanas de hasta "
        f"{count(w['chunk'], 'token')} que empiezan "
        + (f"cada {integer(w['stride'])}: " if w["stride"] > 1 else "en cada token: ")  # not «cada 1»
    )
    if w["more"]:
        return text + ", ".join(ranges) + f" y {count(w['more'], 'ventana')} más. " + strip_scale(w) + evidence
    clipped = w["shown"][-1]["end"] - w["shown"][-1]["start"] < w["chunk"]
    text += listed + (" (la última, recortada al final del documento)." if clipped else ".")
    return text + ("" if w["whole"] else " " + strip_scale(w)) + evidence


def announcements(values, outputs) -> dict:
    """Short summaries for the page's polite live region, one per panel; a value shown as «—» comes with its reason.

    >>> out = lambda text, note=None: {"text": text, "note": note}
    >>> announcements({"k": 5}, {"precision": out("0,600"), "recall": out("—", "Sin calcular: corrige los relevantes totales."),
    ...     "mrr": out("1,000"), "ndcg": out("0,623"), "chunks": out("2"), "indexed_tokens": out("1024"),
    ...     "duplication": out("0,0 %"), "containment": out("100 %")})["metrics"]
    'Precision@5 0,600, Recall@5 —, MRR@5 1,000, nDCG@5 0,623. Sin calcular: corrige los relevantes totales.'
    """
    k = values["k"]
    at = f"@{k}" if k is not None else "@k"
    metric_names = (("Precision", "precision"), ("Recall", "recall"), ("MRR", "mrr"), ("nDCG", "ndcg"))
    metrics_text = ", ".join(f"{label}{at} {outputs[name]['text']}" for label, name in metric_names)
    chunking_text = (
        f"Chunks {outputs['chunks']['text']}, tokens indexados {outputs['indexed_tokens']['text']}, "
        f"duplicación {outputs['duplication']['text']}, evidencia entera {outputs['containment']['text']}"
    )
    return {
        "metrics": _with_reasons(metrics_text, outputs, [name for _, name in metric_names]),
        "chunking": _with_reasons(chunking_text, outputs, ["chunks", "indexed_tokens", "duplication", "containment"]),
    }


def _with_reasons(text, outputs, names) -> str:
    """``text`` closed with a full stop, then each distinct note of the outputs ``names`` (why a value is «—»)."""
    notes = []
    for name in names:
        note = outputs[name]["note"]
        if note and note not in notes:
            notes.append(note)
    return " ".join([text + "."] + notes)
