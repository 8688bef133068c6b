"""The judging page's session over whole texts, for the tests: what the page's worker does with the files it
streams (raglab_core.judges.session.JudgeSession, driven by raglab_core.runs.inputs.read_all)."""

from raglab_core.judges.session import JudgeSession
from raglab_core.runs.inputs import SLOTS, read_all


def judge_files(queries, corpus, runs=(), settings=None, pool=None, qrels=None, judge=None, job=None) -> dict:
    """:class:`JudgeSession` over whole texts (``{"name", "text"}`` each; ``corpus`` a list of them)."""
    files = {"queries": queries, "pool": pool, "qrels": qrels, "judge": judge, "job": job}
    files.update(zip(SLOTS, runs))
    files.update((f"corpus/{i}", item) for i, item in enumerate(corpus))
    request = {key: (item or {}).get("name") for key, item in files.items() if key in ("queries", "pool", "qrels", "judge", "job")}
    request.update(runs=[run["name"] for run in runs], corpus=[item["name"] for item in corpus], **(settings or {}))
    session = JudgeSession(request)
    read_all(session, lambda slot: [files[slot]["text"]])
    return session.finish()
