"""Command line: evaluate your own retriever's TREC run against qrels, and compare two runs.

::

    python -m raglab_core eval QRELS RUN [RUN2] [--k 10] [--umbral 1]
        [--gain exponential|linear] [--complete] [--json] [-q]
        [--permutations 10000] [--seed 42]

Prints P@k, R@k, MRR@k and nDCG@k (definitions and trec_eval conventions in
:mod:`raglab_core.evaluation`) as an aligned table, per query with ``-q``, or
as JSON with ``--json``::

    {"k", "umbral", "gain",
     "runs": [{"name", "queries", "mean": {"precision", "recall", "mrr", "ndcg"},
               "per_query": {qid: {"precision", "recall", "mrr", "ndcg"}}}],
     "comparison": null | {"baseline", "candidate", "queries", "test", "permutations", "seed",
                           "metrics": {metric: {"mean_delta", "wins", "ties", "losses",
                                                "p_value", "per_query": {qid: delta}}}}}

An undefined value is ``null`` in JSON and ``n/a`` in the table. Notes on
skipped queries go to stderr. Exit status: 0 on success, 1 when an input file
is malformed (every problem found is listed in English on stderr, nothing
is printed on stdout), 2 for usage errors and unreadable files.

>>> runs = [("run.txt", {"q1": {"a": 0.5, "c": 0.7}, "q9": {"a": 1.0}})]
>>> report, evaluations, comparison = build_report({"q1": {"a": 1, "b": 1}}, runs, k=2, umbral=1)
>>> report["runs"][0]["mean"]                    # ranking c, a: 1 of 2 relevant, at rank 2
{'precision': 0.5, 'recall': 0.5, 'mrr': 0.5, 'ndcg': 0.38685280723454163}
>>> print(format_table(report), end="")
k=2  umbral=1  gain=exponential
<BLANKLINE>
run      queries     P@2     R@2   MRR@2  nDCG@2
run.txt        1  0.5000  0.5000  0.5000  0.3869
>>> skipped_notes(runs, evaluations, comparison)
['run.txt: skipped 1 query without judgments (q9)']
"""

import argparse
import json
import os
import sys

from .evaluation import METRICS
from .metrics import GAINS
from .report import PERMUTATIONS, SEED, build_report, metric_labels
from .trec import TrecFormatError, parse_qrels, parse_run


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m raglab_core",
        description="Exact retrieval metrics for your own runs (trec_eval conventions).",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    evaluate = commands.add_parser(
        "eval",
        help="evaluate a TREC run (and compare a second one) against qrels",
        description="Evaluate RUN (and compare RUN2 with it) against QRELS: P@k, R@k, MRR@k, nDCG@k.",
    )
    add = evaluate.add_argument
    add("qrels", metavar="QRELS", help="TREC qrels: qid iter docid rel")
    add("run", metavar="RUN", help="TREC run (qid Q0 docid rank score tag) or JSON {qid: {docid: score}}")
    add("run2", metavar="RUN2", nargs="?", help="a second run, compared with RUN (the baseline)")
    add("--k", type=_at_least(1), default=10, help="cut-off (default 10)")
    add("--umbral", type=_at_least(1), default=1, help="relevant if rel >= umbral (default 1)")
    add("--gain", choices=GAINS, default="exponential", help="nDCG gain: 2^rel-1 or rel (default exponential)")
    add("--complete", action="store_true", help="score qrels queries missing from a run as 0 (trec_eval -c)")
    add("--json", action="store_true", help="print JSON instead of a table")
    add("-q", dest="per_query", action="store_true", help="also print per-query values (table output)")
    add("--permutations", type=_at_least(1), default=PERMUTATIONS,
        help=f"randomization test permutations (default {PERMUTATIONS})")
    add("--seed", type=int, default=SEED, help=f"randomization test seed (default {SEED})")
    return parser


def _at_least(minimum):
    def whole(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be an integer >= {minimum}, got {value}")
        return value

    return whole


def skipped_notes(runs, evaluations, comparison) -> list[str]:
    """English notes on the queries :func:`raglab_core.report.build_report` skipped or left unpaired."""
    notes = [note for (name, _), result in zip(runs, evaluations) for note in _skipped(name, result)]
    if comparison and comparison.unpaired:
        unpaired = comparison.unpaired
        notes.append(f"comparison: left out {_count(unpaired)} evaluated for one run only ({_sample(unpaired)})")
    return notes


def _skipped(name, result):
    if result.not_in_qrels:
        yield f"{name}: skipped {_count(result.not_in_qrels)} without judgments ({_sample(result.not_in_qrels)})"
    if result.not_in_run:
        done = "scored 0 (--complete)" if result.complete else "skipped (--complete scores them 0)"
        missing = result.not_in_run
        yield f"{name}: {_count(missing)} of the qrels not in the run, {done} ({_sample(missing)})"


def _count(qids):
    return f"{len(qids)} quer{'y' if len(qids) == 1 else 'ies'}"


def _sample(qids, shown=5):
    return ", ".join(qids[:shown]) + (", …" if len(qids) > shown else "")


def format_table(report, per_query=False) -> str:
    """The plain-text report: per-query tables (``per_query``), means, comparison."""
    k = report["k"]
    labels = metric_labels(k)
    blocks = [f"k={k}  umbral={report['umbral']}  gain={report['gain']}"]
    if per_query:
        for run in report["runs"]:
            rows = [[qid, *(_number(scores[name]) for name in METRICS)] for qid, scores in run["per_query"].items()]
            rows.append(["mean", *(_number(run["mean"][name]) for name in METRICS)])
            blocks.append(f"{run['name']}\n" + _align(["query", *labels], rows))
    rows = [
        [run["name"], str(run["queries"]), *(_number(run["mean"][name]) for name in METRICS)] for run in report["runs"]
    ]
    blocks.append(_align(["run", "queries", *labels], rows))
    comparison = report["comparison"]
    if comparison:
        title = (
            f"{comparison['candidate']} - {comparison['baseline']} (baseline)"
            f" over {comparison['queries']} paired queries;\n"
            f"{comparison['test']}, {comparison['permutations']} permutations, seed {comparison['seed']}"
        )
        rows = []
        for name, label in zip(METRICS, labels):
            result = comparison["metrics"][name]
            counts = [str(result[key]) for key in ("wins", "ties", "losses")]
            rows.append([label, f"{result['mean_delta']:+.4f}", *counts, f"{result['p_value']:.4f}"])
        blocks.append(title + "\n" + _align(["metric", "delta", "wins", "ties", "losses", "p-value"], rows))
    return "\n\n".join(blocks) + "\n"


def _number(value):
    return "n/a" if value is None else f"{value:.4f}"


def _align(header, rows):
    """Columns padded to their widest cell: the first left-aligned, the others right-aligned."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def load(path, parse):
    """Parse the file at ``path`` with ``parse`` (:func:`parse_qrels` or :func:`parse_run`), streaming.

    Returns ``(data, None)``, or ``(None, message)`` for a malformed file (an
    English message); ``OSError`` propagates. A leading UTF-8 BOM is dropped.
    """
    with open(path, encoding="utf-8-sig") as lines:
        try:
            return parse(lines, path), None
        except TrecFormatError as error:
            return None, error.render("en")
        except UnicodeDecodeError as error:
            return None, f"{path}: not UTF-8 text ({error.reason})"


def main(argv=None) -> int:
    """Run the command line; return the exit status (argparse exits with 2 on usage errors)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    files = [(args.qrels, parse_qrels), (args.run, parse_run)] + ([(args.run2, parse_run)] if args.run2 else [])
    loaded, errors = [], []
    for path, parse in files:  # read every file, so that all bad ones are reported at once
        try:
            data, error = load(path, parse)
        except OSError as failure:  # a path the user mistyped: a usage error
            print(f"{parser.prog} eval: error: cannot read {path}: {failure.strerror or failure}", file=sys.stderr)
            return 2
        loaded.append(data)
        if error:
            errors.append(error)
    if errors:
        for error in errors:
            print(f"error: {error}", file=sys.stderr)
        return 1
    qrels, *runs = loaded
    names = [os.path.basename(path) for path, _ in files[1:]]
    runs = list(zip(names, runs))
    report, evaluations, comparison = build_report(
        qrels, runs, args.k, args.umbral, args.gain, args.complete, args.permutations, args.seed
    )
    notes = skipped_notes(runs, evaluations, comparison)
    if args.json:
        output = json.dumps(report, indent=2, allow_nan=False) + "\n"
    else:
        output = format_table(report, args.per_query)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    sys.stdout.write(output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
