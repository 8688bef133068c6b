"""Several chunking configurations measured on one corpus, each compared with a baseline (DESIGN §4.9).

:func:`sweep` prepares the corpus once (tokens, positions, queries, spans:
:func:`~raglab_core.corpus.evaluate.prepare`), then measures each configuration
``C:O`` (:func:`~raglab_core.corpus.evaluate.evaluate_config`). :func:`report`
gives what ``chunks --json`` prints and the page downloads: per configuration
its footprint, the mean of every measure with its 95 % bootstrap interval over
the queries, and the per-query values; and each configuration compared with the
baseline query by query with the statistics the run comparison uses
(:mod:`raglab_core.runs.statistics`: paired randomization test, paired
bootstrap of the mean difference, Holm over the comparisons of each measure).
A query's undefined value (``None``) counts as 0, as in ``eval``'s means.

>>> parse_sweep("128:0 256:32, 512:64")
[(128, 0), (256, 32), (512, 64)]
"""

import json
import re

from ..errors import LabError
from ..runs.comparison import compare_all
from ..runs.evaluation import RunEvaluation
from ..runs.report import pair_json
from ..runs.statistics import PERMUTATIONS, RESAMPLES, SEED, bootstrap_intervals, holm
from .bm25 import B, DEPTH, K1
from .evaluate import CUTS, evaluate_config
from .sanity import sweep_warnings

MAX_CONFIGS = 24
"""At most this many configurations in one sweep."""
_CONFIG = re.compile(r"([0-9]+):([0-9]+)")


def config_name(chunk: int, overlap: int) -> str:
    """A configuration's name, ``C:O``.

    >>> config_name(256, 32)
    '256:32'
    """
    return f"{chunk}:{overlap}"


def parse_config(text: str, field: str = "sweep") -> tuple:
    """``"C:O"`` as ``(C, O)``, with ``C >= 1`` and ``0 <= O < C`` (``LabError("config")`` otherwise).

    >>> parse_config(" 512:64 ")
    (512, 64)
    """
    match = _CONFIG.fullmatch(text.strip())
    if not match:
        raise LabError("config", field=field, value=text.strip())
    chunk, overlap = int(match.group(1)), int(match.group(2))
    if chunk < 1 or overlap >= chunk:
        raise LabError("config_overlap", field=field, value=text.strip(), chunk=chunk, overlap=overlap)
    return chunk, overlap


def parse_sweep(text: str) -> list:
    """Configurations ``"C:O C:O …"`` (spaces or commas between them), repeats dropped, in order."""
    found = []
    for item in re.split(r"[\s,]+", str(text).strip()):
        if item:
            config = parse_config(item)
            if config not in found:
                found.append(config)
    if not found:
        raise LabError("config_none", field="sweep")
    if len(found) > MAX_CONFIGS:
        raise LabError("config_many", field="sweep", count=len(found), maximum=MAX_CONFIGS)
    return found


def sweep(prepared, configs, *, k1: float = K1, b: float = B, depth: int = DEPTH, cuts=CUTS, qrels=None,
          measures=None, progress=None) -> list:
    """Each configuration ``(C, O)`` of ``configs`` measured on ``prepared``: a list of
    :class:`~raglab_core.corpus.evaluate.Evaluation`. ``progress(index, name, done, total)`` hears each query."""
    results = []
    for index, (chunk, overlap) in enumerate(configs):
        told = progress and (lambda done, total, index=index, name=config_name(chunk, overlap):
                             progress(index, name, done, total))
        results.append(evaluate_config(prepared, chunk, overlap, k1=k1, b=b, depth=depth, cuts=cuts, qrels=qrels,
                                       measures=measures, progress=told))
    return results


def _as_run(result, queries) -> RunEvaluation:
    """A configuration's per-query values as the run comparison reads them (``None`` counts as 0)."""
    per_query = {qid: tuple(result.per_query.get(qid, {}).get(name) for name in result.names) for qid in queries}
    return RunEvaluation(measures=tuple(result.names), names=tuple(result.names), ties="double", complete=False,
                         per_query=per_query, mean=tuple(result.mean.get(name, 0.0) for name in result.names),
                         not_in_qrels=(), not_in_run=())


def config_json(result, queries, resamples: int = RESAMPLES, seed: int = SEED) -> dict:
    """One configuration's entry of the report (``"configs"``): its footprint, the mean of every measure with its
    95 % bootstrap interval over ``queries`` (sorted ids; a value the configuration lacks counts as 0), and its
    per-query values. The page builds it as each configuration ends; :func:`report` gives the same bytes."""
    run = _as_run(result, queries)
    columns = [[value or 0.0 for value in column] for column in zip(*run.per_query.values())]
    intervals = bootstrap_intervals(columns, resamples, seed) if columns else []
    return {
        "name": result.name,
        "chunk": result.chunk,
        "overlap": result.overlap,
        "chunks": result.footprint.chunks,
        "indexed_tokens": result.footprint.indexed_tokens,
        "duplicated_tokens": result.footprint.duplicated_tokens,
        "mean": {name: result.mean.get(name, 0.0) for name in result.names},
        "ci95": {name: list(interval) for name, interval in zip(result.names, intervals)},
        "per_query": result.per_query,
    }


def report_queries(results) -> list:
    """The queries a report reads, sorted: every query any configuration has a value for."""
    return sorted(set().union(*(result.per_query for result in results))) if results else []


def report(prepared, results, baseline: int = 0, *, k1: float = K1, b: float = B, depth: int = DEPTH,
           permutations: int = PERMUTATIONS, seed: int = SEED, resamples: int = RESAMPLES, configs=None,
           progress=None) -> dict:
    """The sweep as ``chunks --json`` prints it (DESIGN §4.9); ``baseline``: the index of the baseline in ``results``.

    ``configs``: the entries :func:`config_json` already gave for ``results`` over :func:`report_queries`
    (``None``: made here); ``progress(index, name, pair, pairs)`` hears the comparisons
    (:func:`raglab_core.runs.comparison.compare_all`)."""
    queries = report_queries(results)
    runs = [_as_run(result, queries) for result in results]
    if configs is None:
        configs = [config_json(result, queries, resamples, seed) for result in results]
    pairs = [(baseline, index) for index in range(len(results)) if index != baseline]
    compared = compare_all(runs, permutations, seed, progress=progress, resamples=resamples, pairs=pairs) if pairs else {}
    names = results[baseline].names if results else []
    adjusted = {name: dict(zip(compared, holm([c.metrics[name].p_value for c in compared.values()]))) for name in names}
    comparisons = [pair_json(results[i].name, results[j].name, comparison, {name: adjusted[name][(i, j)] for name in names})
                   for (i, j), comparison in compared.items()]
    return {
        "corpus": prepared.summary(),
        "bm25": {"k1": k1, "b": b, "depth": depth},
        "configs": configs,
        "baseline": results[baseline].name if results else None,
        "correction": "holm",
        "comparisons": comparisons,
        "warnings": [notice.as_json() for notice in sweep_warnings(prepared, results)],
    }


def report_text(data: dict) -> str:
    """The report as ``chunks --json`` prints it: indented JSON and a line end."""
    return json.dumps(data, indent=2, allow_nan=False) + "\n"
