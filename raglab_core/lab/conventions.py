"""«La misma lista, otras definiciones»: the lab's ranking scored by every library's convention (DESIGN §4.4).

The same displayed ranking, k, umbral and total (R), measured as trec_eval, ir_measures, ranx, BEIR,
ragas and scikit-learn measure it, one row per convention, so that the differences between tools
are seen on the ranking the reader is looking at. Every value comes from a function of
:mod:`raglab_core.metrics` (one home per formula); this module holds the table of conventions (name,
source, formula), builds the rows of the view and the panel's reading.

A document nobody judged (grade ``None``) counts as not relevant everywhere, except in the condensed
rows, which drop it and close up the ranks (trec_eval ``-J``; Sakai 2007); those rows, and
``judged``, are shown only when the ranking holds such a document.

Row fields in :data:`TABLE`: ``name`` (the ``data-convention`` name), ``label`` (Spanish),
``source`` (who uses it), ``formula`` (LaTeX, made MathML at build time), ``card`` (the lab's output
it is compared with, or None), ``needs`` (the controls its value depends on), ``unjudged_only`` and
``caveat`` (a warning the row always shows, or "").
"""

from .. import metrics
from .controls import invalid_labels
from ..formatting import DASH, count, decimal

_REL = r"\mathrm{rel}(i)"
_HITS = r"|\{i \le k : \mathrm{rel}(i)\}|"
_NDCG = r"\frac{\sum_{i \le k} %s / \log_2(i+1)}{\text{%s}}"


def _row(name, label, source, formula, *, card=None, needs=("k", "umbral", "rerank"), unjudged_only=False, caveat=""):
    return {"name": name, "label": label, "source": source, "formula": formula, "card": card,
            "needs": needs, "unjudged_only": unjudged_only, "caveat": caveat}


TABLE = (
    _row("recall", "Recall@k", "trec_eval recall_k, ir_measures R@k, ranx recall",
         rf"\frac{{{_HITS}}}{{R}}", card="recall", needs=("k", "umbral", "rerank", "total")),
    _row("recall_cap", "Recall con tope", "BEIR R_cap@k",
         rf"\frac{{{_HITS}}}{{\min(R, k)}}", card="recall", needs=("k", "umbral", "rerank", "total")),
    _row("success", "Success@k («hit rate»)", "ir_measures Success@k, trec_eval success",
         rf"\max_{{i \le k}} {_REL}"),
    _row("ap", "Average precision AP@k", "trec_eval map_cut_k, ir_measures AP@k",
         rf"\frac{{1}}{{R}} \sum_{{i \le k}} P@i \cdot {_REL}", needs=("k", "umbral", "rerank", "total")),
    _row("context_precision", "Context precision", "ragas (su documentación)",
         rf"\frac{{\sum_{{i \le k}} P@i \cdot {_REL}}}{{{_HITS}}}"),
    _row("ndcg", "nDCG@k del laboratorio", "ranx ndcg_burges, ir_measures nDCG(dcg='exp-log2')",
         _NDCG % ("(2^{g_i} - 1)", "IDCG@k de todos los juicios"), card="ndcg", needs=("k", "rerank")),
    _row("ndcg_linear", "nDCG@k con ganancia lineal", "trec_eval ndcg_cut_k, ir_measures nDCG@k",
         _NDCG % ("g_i", "IDCG@k lineal de todos los juicios"), card="ndcg", needs=("k", "rerank")),
    _row("ndcg_ranking_ideal", "nDCG@k con el ideal del propio ranking", "scikit-learn ndcg_score sobre la lista recuperada",
         _NDCG % ("(2^{g_i} - 1)", "IDCG@k de los grados del ranking"), card="ndcg", needs=("k", "rerank"),
         caveat="Incorrecto para evaluar: el ideal solo mira lo recuperado, así que perder un relevante que la "
                "primera etapa no devolvió no le resta nada."),
    _row("judged", "Judged@k (juzgados en el top-k)", "ir_measures Judged@k",
         r"\frac{|\{i \le k : d_i \text{ juzgado}\}|}{k}", needs=("k", "rerank"), unjudged_only=True),
    _row("condensed_precision", "Precision@k condensada", "trec_eval -J, Sakai (2007)",
         r"\frac{|\{i \le k : \mathrm{rel}(i) \text{ en la lista sin los no juzgados}\}|}{k}", card="precision",
         unjudged_only=True),
    _row("condensed_ndcg", "nDCG@k condensado", "trec_eval -J, Sakai (2007)",
         _NDCG % ("(2^{g_i} - 1)", "IDCG@k de todos los juicios") + r"\text{, sin los no juzgados}", card="ndcg",
         needs=("k", "rerank"), unjudged_only=True),
)
NAMES = tuple(row["name"] for row in TABLE)
_CARDS = {"recall": "Recall", "precision": "Precision", "ndcg": "nDCG"}


_VALUES = {
    # name: its value from (displayed grades, all judged grades, k, umbral, R), through raglab_core.metrics
    "recall": lambda ranked, judged, k, t, total: metrics.recall_at_k(ranked, k, t, total),
    "recall_cap": lambda ranked, judged, k, t, total: metrics.recall_cap_at_k(ranked, k, t, total),
    "success": lambda ranked, judged, k, t, total: metrics.success_at_k(ranked, k, t),
    "ap": lambda ranked, judged, k, t, total: metrics.average_precision_at_k(ranked, k, t, total),
    "context_precision": lambda ranked, judged, k, t, total: metrics.context_precision_at_k(ranked, k, t),
    "ndcg": lambda ranked, judged, k, t, total: metrics.ndcg_at_k(ranked, k, judgments=judged),
    "ndcg_linear": lambda ranked, judged, k, t, total: metrics.ndcg_at_k(ranked, k, judgments=judged, gain="log2"),
    "ndcg_ranking_ideal": lambda ranked, judged, k, t, total: metrics.ndcg_at_k(ranked, k),
    "judged": lambda ranked, judged, k, t, total: metrics.judged_at_k(ranked, k),
    "condensed_precision": lambda ranked, judged, k, t, total: metrics.precision_at_k(metrics.condensed(ranked), k, t),
    "condensed_ndcg": lambda ranked, judged, k, t, total: metrics.ndcg_at_k(metrics.condensed(ranked), k, judgments=judged),
}


def rows(ranked, judged, controls, outputs) -> list[dict]:
    """The panel's rows for the view: ``name``, ``value``, ``raw`` (for ``data-value``), ``text`` and ``diff_text``.

    ``controls``: the settled control values (``k``, ``umbral``, ``rerank``, ``total``; ``None`` when
    invalid); ``outputs``: the view's outputs (the cards the rows are compared with). A row whose
    controls are invalid has no value; a value is ``None`` when undefined (R = 0, an ideal DCG of 0).
    The unjudged-only rows are present only when ``ranked`` holds a ``None``.

    >>> controls = {"k": 2, "umbral": 2, "rerank": 0, "total": 3}
    >>> v = {row["name"]: row["value"] for row in rows([3, None, 0, 2], [3, 0, 2, 2], controls, {})}
    >>> v["recall"], v["recall_cap"], v["success"], v["judged"], v["condensed_precision"]
    (0.3333333333333333, 0.5, 1.0, 0.5, 0.5)
    """
    k, threshold, total = controls["k"], controls["umbral"], controls["total"]
    unjudged = None in ranked
    out = []
    for row in TABLE:
        if row["unjudged_only"] and not unjudged:
            continue
        value = None
        if not invalid_labels(row["needs"], controls):
            value = _VALUES[row["name"]](ranked, judged, k, threshold, total)
        card = outputs.get(row["card"]) if row["card"] else None
        out.append({
            "name": row["name"],
            "value": value,
            "raw": "" if value is None else repr(value),
            "text": DASH if value is None else decimal(value),
            "diff_text": _difference(value, card, row["card"], k) if card else "",
        })
    return out


def _difference(value, card, card_name, k) -> str:
    """How a row's value stands against the lab's card: «igual que la tarjeta …» or «+0,225 frente a …».

    The difference is the shown numbers' (three decimals each), so it never reads ±0,000 (issue 49):

    >>> card = {"value": 0.2245001, "text": "0,225"}
    >>> _difference(0.2244999, card, "ndcg", 5).split(" frente")[0], _difference(0.2245004, card, "ndcg", 5)
    ('−0,001', 'igual que la tarjeta nDCG@5')
    """
    if value is None or card["value"] is None:
        return ""
    label = f"{_CARDS[card_name]}@{k}"
    if decimal(value) == card["text"]:
        return f"igual que la tarjeta {label}"
    shown = round(value, 3) - round(card["value"], 3)  # round() rounds as decimal()'s format does
    return f"{'+' if shown > 0 else '−'}{decimal(abs(shown))} frente a la tarjeta {label}"


# --- the panel's reading ------------------------------------------------------------------


def reading(ranked, rows_, controls, outputs) -> str:
    """One or two sentences naming the conventions that differ most for this state, and why.

    Candidates (each with the gap it explains): R_cap against Recall (R > k), context precision
    against AP (R > relevant retrieved), the ranking's own ideal against all judgments, linear
    against exponential gain, Success against Recall. The largest one or two gaps are told; when
    unjudged documents lie within k, a sentence says what they change, and one gap is told.
    """
    bad = invalid_labels(("k", "umbral", "rerank", "total"), controls)
    if bad:
        return f"Sin comparación de convenciones hasta que corrijas {bad}."
    k, threshold, total = controls["k"], controls["umbral"], controls["total"]
    v = {row["name"]: row["value"] for row in rows_}
    t = {row["name"]: row["text"] for row in rows_}
    candidates = []

    def differ(a, b):
        return v[a] is not None and v[b] is not None and t[a] != t[b]

    if total and total > k and differ("recall_cap", "recall"):
        candidates.append((v["recall_cap"] - v["recall"], (
            f"Con k = {k} y {count(total, 'relevante')}, Recall@{k} no puede pasar de {k}/{total} "
            f"({decimal(k / total)}); el R_cap de BEIR divide entre {k} y da {t['recall_cap']}."
        )))
    if differ("context_precision", "ap"):
        found = outputs["relevant_in_k"]["value"]
        candidates.append((v["context_precision"] - v["ap"], (
            f"La context precision de ragas da {t['context_precision']} y el AP@{k} de trec_eval "
            f"{t['ap']}: suman las mismas precisiones, pero ragas divide entre "
            f"{count(found, 'relevante recuperado', 'relevantes recuperados')} y AP entre los {total} relevantes "
            "conocidos, así que ragas no ve los que faltan."
        )))
    if differ("ndcg_ranking_ideal", "ndcg"):
        candidates.append((v["ndcg_ranking_ideal"] - v["ndcg"], (
            f"Con el ideal sacado del propio ranking (ndcg_score de scikit-learn sobre la lista recuperada), "
            f"nDCG@{k} sube a {t['ndcg_ranking_ideal']} desde {t['ndcg']}: ese ideal ignora los relevantes que "
            "la primera etapa no recuperó, justo lo que la evaluación debe castigar."
        )))
    if differ("ndcg_linear", "ndcg"):
        more = v["ndcg_linear"] > v["ndcg"]
        candidates.append((v["ndcg_linear"] - v["ndcg"], (
            f"Con ganancia lineal g (trec_eval, nDCG@{k} de ir_measures) nDCG@{k} da {t['ndcg_linear']} y con "
            f"2^g − 1 (el laboratorio, ndcg_burges de ranx) {t['ndcg']}: la exponencial "
            + ("premia más los grados altos que este ranking no pone arriba." if more
               else "premia más los grados altos que este ranking pone arriba.")
        )))
    if differ("success", "recall"):
        candidates.append((v["success"] - v["recall"], (
            f"Success@{k} («hit rate») vale {t['success']} en cuanto aparece un relevante; Recall@{k} mide qué "
            f"parte de los {total} relevantes conocidos está en el top-{k}: {t['recall']}. No son la misma medida."
        )))
    candidates.sort(key=lambda item: -abs(item[0]))  # stable: the order above breaks ties
    within = sum(1 for grade in ranked[:k] if grade is None)
    told = [sentence for _, sentence in candidates[: 1 if within else 2]]
    if within:
        told.insert(0, _unjudged_sentence(ranked, within, k=k, threshold=threshold, v=v, t=t, outputs=outputs))
    if not told:
        return (f"Con este ranking y k = {k}, ningún par de convenciones de la tabla se separa (con tres decimales): "
                "aquí la definición elegida no cambia la lectura.")
    return " ".join(told)


def _unjudged_sentence(ranked, within, k, threshold, v, t, outputs) -> str:
    """What the documents nobody judged within k change: the cards if they were relevant, and condensed."""
    hopeful = [threshold if grade is None else grade for grade in ranked]
    precision = decimal(metrics.precision_at_k(hopeful, k, threshold))
    mrr = decimal(metrics.mrr_at_k(hopeful, k, threshold))
    one = within == 1
    what = (f"Hay {count(within, 'documento sin juicio', 'documentos sin juicio')} en el top-{k}: "
            f"{'cuenta' if one else 'cuentan'} como no relevante{'' if one else 's'} (la convención de trec_eval). "
            f"Si {'fuera relevante' if one else 'fueran relevantes'}, Precision@{k} valdría {precision} "
            f"(y no {outputs['precision']['text']}) y MRR@{k} {mrr} (y no {outputs['mrr']['text']}); ")
    ndcg = f" y nDCG@{k} {t['condensed_ndcg']}" if v.get("condensed_ndcg") is not None else ""
    return (what + f"si se {'quita' if one else 'quitan'} y se cierran los huecos (lista condensada, trec_eval -J), "
            f"Precision@{k} vale {t['condensed_precision']}{ndcg}.")
