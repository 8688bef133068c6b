"""The hostile-input cases both the CPython matrix (tests/core/lab/test_hostile.py) and the page
(tests/browser/test_robustness.py) use (not a test module): the fields, a valid state, and the
representative cases that also go through the page."""

CHUNKING = ("docs", "tokens_doc", "chunk", "solape")
RANKING = ("k", "umbral", "rerank", "total")
VALID = {"total": "9", "docs": "1000", "tokens_doc": "700", "chunk": "256", "solape": "32"}
# The cases that also go through the page (tests/browser/test_robustness.py).
BROWSER_CASES = [
    ("total", ""), ("tokens_doc", "abc\n12"), ("chunk", "<script>alert(1)</script>"),
    ("docs", "<img src=x onerror=alert(1)>"), ("total", "９"), ("chunk", "1e309"), ("solape", "512"),
    ("total", "4"), ("docs", " 7 "),
]
