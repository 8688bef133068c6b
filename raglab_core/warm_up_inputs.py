"""What :func:`raglab_core.browser.warm_up` runs once before the page's memory snapshot is taken: a small lab
scenario and its states (valid, invalid, undefined), and the «Tus datos» evaluations the page's worker may stream
(good files, bad files, a bad measure, an unreadable file, three runs and a fused one), so that every module and
every path they need is imported by then. Plain data: requests as the page's worker sends them, and each file's
text by its slot (``"qrels"``, ``"A"``, ``"B"``, …).

>>> sorted(LAB_STATES[1])[:3], [sorted(texts) for _, texts in EVALUATIONS][0]
(['chunk', 'docs', 'grades'], ['A', 'B', 'qrels'])
"""

DOCUMENTS = [
    {"id": f"d{i}", "title": f"Documento {i}", "grade": i % 4, "first_stage_score": 1 - i / 10,
     "reranker_score": (i * 7 % 10) / 10}
    for i in range(10)
]
SCENARIO = {
    "query": "calentamiento",
    "grade_labels": ["0", "1", "2", "3"],
    "documents": DOCUMENTS,
    "defaults": {"k": 5, "umbral": 2, "rerank": 4, "total": 6, "docs": 100, "tokens_doc": 900,
                 "chunk": 256, "solape": 32, "evidencia": 50},
}
LAB_STATES = [
    {"scenario": SCENARIO},
    {"scenario": SCENARIO, "k": "x", "umbral": "1,5", "rerank": "1e3", "total": "", "docs": "-1",
     "tokens_doc": "٣", "chunk": "0x10", "solape": "999999", "grades": "9,a"},
    {"scenario": SCENARIO, "grades": [0] * 10, "total": 0},
    {"scenario": None},
]
"""The lab's states: the scenario as it is, every control invalid, every grade 0, no scenario."""

MEASURES = "P(rel=2)@5 R@100 RR AP Success@10 Judged@10 nDCG@10 nDCG(dcg='exp-log2')@10"
SAMPLE = {"qrels": "q1 0 a 2\nq1 0 b 1\nq2 0 c 1",
          "A": "q1 Q0 a 1 0.9 x\nq2 Q0 c 1 0.2 x\nq1 Q0 b 2 0.1 x",
          "B": '{"q1": {"b": 0.5, "a": 0.1}, "q2": {"d": 1}}'}
TWO_RUNS = {"measures": MEASURES, "qrels": "q", "runs": ["a", "b"]}
EVALUATIONS = [
    (TWO_RUNS, SAMPLE),
    (TWO_RUNS, {**SAMPLE, "qrels": "q1 Q0 a 1 0.5 x"}),  # a run given as the qrels
    (TWO_RUNS, {**SAMPLE, "qrels": "query-id\tcorpus-id\tscore\nq9\td\t1_0\n"}),  # BEIR, a bad grade
    ({**TWO_RUNS, "measures": "ERR@10"}, SAMPLE),  # a measure not supported
    ({"measures": "nDCG@10", "qrels": "q", "runs": ["a"], "sizes": [9, 45], "files": [True, True]},
     {"qrels": "q1 0 a 1\n", "A": "q1 Q0 a 1 1 x\nq2 Q0 a 1 1 x\nq1 Q0 b 1 1 x\n"}),
]
"""``(request, texts)``: each evaluation streamed whole, then finished."""
UNREADABLE = {"qrels": "q", "runs": ["a"]}
"""An evaluation whose first file the browser cannot read as UTF-8."""
FUSED = (
    {"measures": "nDCG@10 Judged@10", "qrels": "q", "runs": ["a", "b", "c"], "sizes": [9, 14, 14, 14],
     "files": [True] * 4, "fusion": {"runs": [0, 1], "method": "wsum", "norm": "zmuv", "weights": "0,5 1,5"}},
    {"qrels": "q1 0 a 1\nq2 0 b 2\n", "A": "q1 Q0 a 1 2 x\nq2 Q0 b 1 1 x\n",
     "B": "q1 Q0 c 1 2 x\nq1 Q0 a 2 1 x\nq2 Q0 b 1 1 x\n", "C": "q2 Q0 b 1 1 x\nq1 Q0 a 1 1 x\n"},
)
"""Three runs and a fused one: the lettered view, a pair in detail, a query, the downloads."""
DOWNLOADS = ("json", "csv", "fused")
