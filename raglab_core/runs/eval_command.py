"""The ``eval`` command: evaluate your own retriever's runs against qrels, and compare every pair of them.

::

    python -m raglab_core eval QRELS RUN [RUN ...] [--measures "nDCG@10 R@100 …"]
        [--ties double|float32] [--complete] [--json] [-q] [--pairs]
        [--permutations 10000] [--seed 42]

Any number of runs (a TREC track has 30 to 100); the page takes up to 12. With
three or more, the table leads with the lettered table (ranx's: after each mean,
the runs it beats) and prints each pair's block only with ``--pairs``.

Measures are named as ir_measures names them (:mod:`raglab_core.runs.measures`;
default ``nDCG@10 R@100 RR@10 Success@10 AP@100 Judged@10``); ``--k``,
``--umbral`` and ``--gain`` remain as a shorthand for the lab's four metrics,
``P(rel=umbral)@k R(rel=umbral)@k RR(rel=umbral)@k nDCG(dcg=…)@k``. Files are
TREC, BEIR TSV (qrels) or JSON, detected (:mod:`raglab_core.runs.trec`), and a run
is read as a stream: one query in memory at a time when its lines are grouped
by query (as every TREC tool writes them; otherwise it is read again, held
whole; :mod:`raglab_core.runs.inputs`, as the page does). Output is an aligned table, per query with ``-q``, or JSON with
``--json`` (:func:`raglab_core.runs.report.build_report`: values keyed by the
measure names exactly as ir_measures prints them).

An undefined value is ``null`` in JSON and ``n/a`` in the table. Notes on
skipped queries go to stderr. Exit status: 0 on success, 1 when an input file
is malformed (every problem found is listed in English on stderr, nothing is
printed on stdout) or a run shares no query with the qrels, 2 for usage
errors (unsupported measures included) and unreadable files.

>>> qrels = {"q1": {"a": 1, "b": 1}}
>>> runs = [("run.txt", evaluate_run(qrels, {"q1": {"a": 0.5, "c": 0.7}, "q9": {"a": 1.0}}, ["P@2", "RR"]))]
>>> report, comparison = build_report(runs)
>>> print(format_table(report), end="")
ties=double
<BLANKLINE>
run      queries     P@2      RR
run.txt        1  0.5000  0.5000
>>> skipped_notes(runs, comparison)
['run.txt: skipped 1 query without judgments (q9)']
"""

import argparse
import os
import sys

from ..command_line import at_least, cannot_read, malformed
from ..errors import LabError
from ..metrics import GAIN_ALIASES, GAINS
from ..notices import examples
from .decoding import read_text_chunks
from .evaluation import TIES, evaluate_run  # noqa: F401 (evaluate_run: the doctest)
from .inputs import Reading, read_all, run_names, slots
from .measures import DEFAULT_MEASURES, SUPPORTED, lab_measures, parse_measures
from .report import ALPHA, beaten, build_report, report_json, require_common_queries, warned_runs
from .statistics import PERMUTATIONS, SEED, p_text, p_value_text

TIES_HELP = (
    "how tied scores compare: 'double' (default) matches trec_eval 10.0 (2023) and ranx; "
    "'float32' rounds scores to single precision first, matching trec_eval 9.x and pytrec_eval "
    "(so ir_measures, which calls pytrec_eval)"
)




NAME = "eval"
SUMMARY = "evaluate runs against qrels (and compare every pair)"
DESCRIPTION = (
    "Evaluate each RUN against QRELS (any number of runs; the page takes up to 12); with two or "
    "more, compare every pair (paired randomization test, Holm-corrected over the pairs). With three or more, "
    "the table output leads with the lettered table and gives each pair's block only with --pairs."
)
EPILOG = (
    f"Supported measures (ir_measures notation; rel= also for R, RR, AP, Success): "
    f"{SUPPORTED}. Formats: TREC (extra run columns ignored, # comments; trec_eval 10), BEIR TSV qrels, JSON."
)


def arguments(parser: argparse.ArgumentParser) -> None:
    """``eval``'s arguments and options, on its ``parser`` (:func:`raglab_core.command_line.add_command`)."""
    add = parser.add_argument
    add("qrels", metavar="QRELS", help="qrels: TREC (qid iter docid rel), BEIR TSV (query-id corpus-id score) or JSON")
    add("runs", metavar="RUN", nargs="+",
        help="runs: TREC (qid Q0 docid rank score tag [ignored columns]) or JSON {qid: {docid: score}}; "
        "each pair is compared with the earlier run as the baseline")
    add("--measures", help=f"measures in ir_measures notation, separated by spaces (default {DEFAULT_MEASURES!r})")
    add("--k", type=at_least(1), help="shorthand: the lab's P, R, RR and nDCG at cut-off k (default 10)")
    add("--umbral", type=at_least(1), help="shorthand: relevant if rel >= umbral (default 1)")
    add("--gain", choices=(*GAIN_ALIASES, *GAINS),
        help="shorthand: nDCG gain 2^rel-1 (exponential or exp-log2, default) or rel (linear or log2)")
    add("--ties", choices=TIES, default="double", help=TIES_HELP)
    add("--complete", action="store_true", help="score qrels queries missing from a run as 0 (trec_eval -c)")
    add("--json", action="store_true", help="print JSON instead of a table")
    add("-q", dest="per_query", action="store_true", help="also print per-query values (table output)")
    add("--pairs", action="store_true",
        help="with three runs or more, also print each pair's comparison block (table output; --json has them all)")
    add("--permutations", type=at_least(1), default=PERMUTATIONS,
        help=f"randomization test permutations (default {PERMUTATIONS})")
    add("--seed", type=int, default=SEED, help=f"randomization test seed (default {SEED})")


def skipped_notes(runs, comparisons) -> list[str]:
    """English notes on the queries the evaluations (``[(name, RunEvaluation)]``) skipped or left unpaired
    (``comparisons``: ``{(i, j): Comparison}``)."""
    notes = [note for name, result in runs for note in _skipped(name, result)]
    for (i, j), comparison in comparisons.items():
        if comparison.unpaired:
            unpaired = comparison.unpaired
            which = "comparison" if len(runs) == 2 else f"comparison {runs[j][0]} - {runs[i][0]}"
            notes.append(f"{which}: left out {_count(unpaired)} evaluated for one run only ({_sample(unpaired)})")
    return notes


def _skipped(name, result):
    # qrels queries missing from the run are a warning (raglab_core.runs.sanity), not a note
    if result.not_in_qrels:
        yield f"{name}: skipped {_count(result.not_in_qrels)} without judgments ({_sample(result.not_in_qrels)})"


def _count(qids):
    return f"{len(qids)} quer{'y' if len(qids) == 1 else 'ies'}"


def _sample(qids):
    return examples(qids, len(qids), "en")


def format_table(report, per_query=False, pairs=False) -> str:
    """The plain-text report: with three runs or more the lettered table first; per-query tables
    (``per_query``); the means; the comparison of two runs, or with more each pair's block when ``pairs``
    (otherwise a line saying how to see them)."""
    labels = report["measures"]
    blocks = [f"ties={report['ties']}" + ("  complete" if report["complete"] else "")]
    many = len(report["runs"]) > 2
    if many:
        blocks.append(_lettered(report))
    if per_query:
        for run in report["runs"]:
            rows = [[qid, *(_number(scores[name]) for name in labels)] for qid, scores in run["per_query"].items()]
            rows.append(["mean", *(_number(run["mean"][name]) for name in labels)])
            blocks.append(f"{run['name']}\n" + _align(["query", *labels], rows))
    rows = [
        [run["name"], str(run["queries"]), *(_number(run["mean"][name]) for name in labels)] for run in report["runs"]
    ]
    blocks.append(_align(["run", "queries", *labels], rows))
    several = len(report["comparisons"]) > 1 if "comparisons" in report else False
    if many and not pairs:
        count = len(report["comparisons"])
        blocks.append(f"{count} pairs compared; each pair's block: --pairs (or every figure: --json)")
    for comparison in report.get("comparisons", []) if pairs or not many else []:
        title = (
            f"{comparison['candidate']} - {comparison['baseline']} (baseline)"
            f" over {comparison['queries']} paired queries;\n"
            f"{comparison['test']}, {comparison['permutations']} permutations, seed {comparison['seed']}"
        )
        title += f";\n95% CI: paired percentile bootstrap, {comparison['resamples']} resamples, seed {comparison['seed']}"
        if several:
            title += f";\nHolm-adjusted over the {len(report['comparisons'])} pairs"
        rows = []
        for label in labels:
            result = comparison["metrics"][label]
            counts = [str(result[key]) for key in ("wins", "ties", "losses")]
            low, high = result["ci95"]
            p_value = p_value_text(result["p_value"], comparison["permutations"], result["p_value_exact"],
                                   result["p_value_se"], "en")
            row = [label, f"{result['mean_delta']:+.4f}", f"[{low:+.4f}, {high:+.4f}]", *counts, p_value]
            rows.append(row + ([p_text(result["p_value_adjusted"], result["p_value_exact"], "en")] if several else []))
        header = ["measure", "delta", "95% CI", "wins", "ties", "losses", "p-value"] + (["Holm p"] if several else [])
        blocks.append(title + "\n" + _align(header, rows))
    return "\n\n".join(blocks) + "\n"


def _lettered(report) -> str:
    """The runs' means lettered as in ranx's tables: after each mean, the letters of the runs it beats
    (mean higher, Holm-adjusted p below ALPHA)."""
    labels, letters = report["measures"], [slot.lower() for slot in slots(len(report["runs"]))]
    wins = beaten(report)
    rows = []
    for index, run in enumerate(report["runs"]):
        cells = []
        for label in labels:
            marks = ("," if len(letters) > 26 else "").join(letters[other] for other in wins[label][index])
            cells.append(_number(run["mean"][label]) + (f" >{marks}" if marks else ""))
        rows.append([f"{letters[index]}  {run['name']}", *cells])
    note = (f"each mean is followed by >LETTERS: the runs it beats (higher mean, Holm-adjusted p < {ALPHA}"
            " over all pairs)")
    return note + "\n" + _align(["run", *labels], rows)


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


def _measures(args, parser):
    shorthand = (args.k, args.umbral, args.gain) != (None, None, None)
    if shorthand and args.measures is not None:
        parser.error("--measures cannot be combined with --k, --umbral or --gain")
    try:
        if shorthand:
            return lab_measures(args.k or 10, args.umbral or 1, args.gain or "exp-log2")
        return parse_measures(DEFAULT_MEASURES if args.measures is None else args.measures)
    except LabError as error:
        parser.error(error.render("en"))


def run(args, parser) -> int:
    """``eval``: evaluate the runs of ``args`` and print the report; return the exit status."""
    measures = _measures(args, parser)
    paths = args.runs
    lettered = slots(len(paths))
    reading = Reading(args.qrels, paths, measures, args.ties, args.complete, keep_going=True)
    try:  # every file is read, so that all bad ones are reported
        read_all(reading, lambda slot: read_text_chunks(args.qrels if slot == "qrels" else paths[lettered.index(slot)]))
    except OSError as failure:  # a path the user mistyped: a usage error
        return cannot_read(f"{parser.prog} eval", failure, reading.name)
    errors = [error.render("en") for error in reading.errors]
    runs = [(name, reading.evaluations.get(slot)) for slot, name in zip(lettered, run_names(paths))]
    try:
        if not errors:
            require_common_queries(runs, os.path.basename(args.qrels))
    except LabError as error:
        errors.append(error.render("en"))
    if errors:
        return malformed(errors)
    report, comparisons = build_report(runs, args.permutations, args.seed)
    notes = skipped_notes(runs, comparisons)
    if args.json:
        output = report_json(report)
    else:
        output = format_table(report, args.per_query, args.pairs)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    for warning in report["warnings"]:  # they change no value and no exit status
        print(f"warning: {warning['message']}", file=sys.stderr)
    warned = comparisons and warned_runs(report)
    if warned:
        print(f"warning: the comparison rests on data with warnings ({', '.join(warned)})", file=sys.stderr)
    sys.stdout.write(output)
    return 0
