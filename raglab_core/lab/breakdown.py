"""The arithmetic under the ranking, laid out for the page (DESIGN §4.2).

:func:`breakdown` gives one row per displayed ranking position with its gain
``2**g - 1``, discount ``log2(i + 1)`` and contribution ``gain / discount``
(Järvelin & Kekäläinen 2002; Burges et al. 2005), the running DCG, and the
ideal order of *all* judged grades that gives IDCG@k (DESIGN §4.1). Every
one of these numbers comes from :mod:`raglab_core.metrics`' kernel
(:func:`~raglab_core.metrics.gains`, :func:`~raglab_core.metrics.discounts`,
:func:`~raglab_core.metrics.dcg`), the one the cards and the evaluator use.
"""

from .. import metrics
from ..formatting import DASH, decimal, integer
from ..words import UNJUDGED_LABEL
from .controls import grade_token


def breakdown(ranked, judged, k, threshold, ids) -> dict:
    """Per-rank gain, discount and contribution of ``ranked`` (displayed order), and IDCG@k over ``judged``.

    ``k`` or ``threshold`` may be ``None`` (an invalid control): rows then say
    nothing about the cut or relevance, and the totals are ``None``.
    ``first_relevant`` is the rank that sets MRR@k (``None`` if none within k).

    >>> b = breakdown([3, 0, 2], judged=[3, 0, 2, 3], k=2, threshold=2, ids=["a", "b", "c"])
    >>> [(row["rank"], row["gain"], row["contribution"]) for row in b["rows"]]
    [(1, 7, 7.0), (2, 0, 0.0), (3, 3, 1.5)]
    >>> b["dcg"], b["ideal"], b["idcg"] == 7 + 7 / metrics.discounts(2)[1], b["first_relevant"]
    (7.0, [3, 3], True, 1)
    """
    gains, discounts = metrics.gains(ranked), metrics.discounts(len(ranked))
    rows = []
    for rank, (doc_id, grade) in enumerate(zip(ids, ranked), start=1):
        gain, discount = gains[rank - 1], discounts[rank - 1]
        rows.append(
            {
                "rank": rank,
                "doc": doc_id,
                "grade": grade,
                "grade_token": grade_token(grade),
                "grade_text": UNJUDGED_LABEL if grade is None else str(grade),
                "gain": gain,
                "discount": discount,
                "contribution": gain / discount,
                "in_k": k is not None and rank <= k,
                "relevant": threshold is not None and grade is not None and grade >= threshold,
                "running": metrics.dcg(ranked[:rank]),
            }
        )
    first = None if k is None or threshold is None else metrics.first_relevant_rank(ranked, k, threshold)
    ideal = sorted(judged, reverse=True)[:k] if k is not None else []
    return {
        "rows": rows,
        "dcg": metrics.dcg(ranked[:k]) if k is not None else None,
        "ideal": ideal,
        "idcg": metrics.dcg(ideal) if k is not None else None,
        "first_relevant": first,
    }


def breakdown_texts(row: dict, first_relevant, threshold) -> dict:
    """The Spanish cells of a breakdown row: relevance, MRR mark, gain, discount, contribution, running DCG.

    >>> row = {"rank": 2, "relevant": True, "gain": 7, "discount": 1.5849625007211562,
    ...        "contribution": 7 / 1.5849625007211562, "running": 11.4}
    >>> breakdown_texts({**row, "grade": 3}, first_relevant=2, threshold=2)
    {'relevant_text': 'sí', 'mrr_text': '● 1/2', 'gain_text': '7', 'discount_text': '1,585', 'contribution_text': '4,417', 'running_text': '11,400'}
    >>> breakdown_texts({**row, "grade": None, "relevant": False}, None, 2)["gain_text"]
    '—'
    """
    return {
        "relevant_text": ("sí" if row["relevant"] else "no") if threshold is not None else "—",
        "mrr_text": f"● 1/{row['rank']}" if row["rank"] == first_relevant else "",
        "gain_text": DASH if row["grade"] is None else integer(row["gain"]),  # unjudged: not relevant, gains 0
        "discount_text": decimal(row["discount"]),
        "contribution_text": decimal(row["contribution"]),
        "running_text": decimal(row["running"]),
    }
