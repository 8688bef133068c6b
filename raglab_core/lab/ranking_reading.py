"""The ranking panel's Spanish sentences: its reading, its rows' words, the arithmetic's sentences.

What it holds:

- :func:`metrics_reading`, what the ranking panel's numbers mean for the
  current state: the top k, recall's denominator (where the known relevant
  documents are and how far Recall@k can go), and what reranking the prefix
  did and cannot do;
- the sentences of the arithmetic under the ranking (:func:`ideal_order`,
  :func:`ndcg_division`, :func:`mrr_rank`), a ranking row's words
  (:func:`movement`, :func:`ranking_flags`) and the notes of outputs that
  cannot be computed (:func:`blocked_note`, :data:`RECALL_UNDEFINED`,
  :data:`NDCG_UNDEFINED`);
- :func:`announcements`, the short summaries of both panels for the page's
  polite live region.

Every number a reading quotes is an output's text or is computed here from the
same values; tests/core/lab/test_lab.py checks each of them against the outputs over
many states. Control error messages live with the rules in
:mod:`raglab_core.lab.controls`; the chunking panel's sentences in
:mod:`raglab_core.lab.chunking_reading`.
"""

from .. import metrics
from ..formatting import count, decimal, spanish_list
from .controls import invalid_labels

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
    parts += _rerank_sentences(scenario, grades, judged, order, values=values, outputs=outputs)
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
    where = f"está en la posición {first}" if found == 1 else f"el primer relevante está en la posición {first}"
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
