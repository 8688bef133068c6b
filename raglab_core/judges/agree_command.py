"""The ``agree`` command: how far a judge's qrels agree with a reference's, label by label and system by system.

::

    python -m raglab_core agree REFERENCE JUDGE [RUN ...] [--reference-max G] [--judge-max G]
        [--missing intersect|zero] [--measures "nDCG@10 R@100 …"] [--json]

REFERENCE and JUDGE are qrels in any format ``eval`` reads (TREC, BEIR TSV, JSON; gzipped too), REFERENCE usually
people's and JUDGE usually a model's. Each RUN is evaluated with either qrels as ``eval`` evaluates it (its
default measures unless ``--measures``), and the runs' orders are compared (:mod:`raglab_core.judges.systems`).
The measures, the JSON's shape and the warnings are :mod:`raglab_core.judges.agreement`'s (DESIGN §4.12).

Warnings go to stderr first (and into ``--json``'s ``"warnings"``); they change no value and no exit status.
Exit status: 0 on success, 1 when an input file is malformed (every problem listed in English on stderr) or a
run shares no query with a qrels, 2 for usage errors and unreadable files.

>>> print(_align(["measure", "tau-b"], [["nDCG@10", "0.9000"], ["P@5", "n/a"]]))
measure   tau-b
nDCG@10  0.9000
P@5         n/a
"""

import argparse
import os
import sys

from ..command_line import at_least, cannot_read, malformed
from ..errors import LabError
from ..runs.decoding import read_text_chunks
from ..runs.inputs import MAX_RUNS, Reading, read_all, run_names, slots
from ..runs.measures import DEFAULT_MEASURES, parse_measures
from ..runs.report import require_common_queries
from ..runs.statistics import p_text
from . import labels
from .agreement import agreement_json, agreement_report


NAME = "agree"
SUMMARY = "compare a judge's qrels with a reference's (labels, and the runs' order)"
DESCRIPTION = (
    "How far JUDGE's grades agree with REFERENCE's on the pairs they share (confusion matrix, exact "
    "agreement, Cohen's kappa with a bootstrap interval, weighted kappas, Krippendorff's alpha, binary tables "
    "with PABAK and AC1, bias) and, with runs, whether the runs keep their order (Kendall's tau-b, tau_AP, "
    f"Spearman's rho, flipped pairs). Any number of runs (the page takes up to {MAX_RUNS})."
)


def arguments(parser: argparse.ArgumentParser) -> None:
    """``agree``'s arguments and options, on its ``parser`` (:func:`raglab_core.command_line.add_command`)."""
    add = parser.add_argument
    add("reference", metavar="REFERENCE", help="the reference qrels (usually people's), in any format eval reads")
    add("judge", metavar="JUDGE", help="the judge's qrels (usually a model's)")
    add("runs", metavar="RUN", nargs="*", help="runs evaluated with either qrels, their orders compared")
    add("--reference-max", type=at_least(0), metavar="G",
        help="the reference's top grade; grades above it are clipped to it (default: the largest it uses)")
    add("--judge-max", type=at_least(0), metavar="G",
        help="the judge's top grade; grades above it are clipped to it (default: the largest it uses)")
    add("--missing", choices=labels.MISSING, default=labels.INTERSECT,
        help="pairs judged on one side only: left out (intersect, the default) or graded 0 by the other (zero)")
    add("--measures", help=f"measures in ir_measures notation, separated by spaces (default {DEFAULT_MEASURES!r})")
    add("--json", action="store_true", help="print JSON instead of tables")


def _read(reading):
    """Read the ``reading``'s qrels and every run, evaluated with it, as ``eval`` reads them (the command line
    names each file by its path)."""
    paths = dict(reading.files)  # slot -> path
    return read_all(reading, lambda slot: read_text_chunks(paths[slot]))


def run(args, parser) -> int:
    """``agree``: read both qrels and the runs, print the report; return the exit status."""
    try:
        measures = parse_measures(DEFAULT_MEASURES if args.measures is None else args.measures)
    except LabError as error:
        parser.error(error.render("en"))
    paths = args.runs
    lettered = slots(len(paths))
    # the judge's qrels first, then the reference's and each run, read once and evaluated with both qrels
    judged = Reading(args.judge, [], measures, keep_going=True)
    reading = judged
    try:  # every file is read, so that all bad ones are reported
        _read(judged)
        reading = Reading(args.reference, paths, measures, keep_going=True, also=judged.qrels)
        _read(reading)
    except OSError as failure:
        return cannot_read(f"{parser.prog} agree", failure, reading.name)
    errors = [error.render("en") for error in reading.errors + judged.errors]
    evaluations = (reading.evaluations, reading.also_evaluations)
    names = run_names(paths)
    if not errors:
        for evaluated, path in zip(evaluations, (args.reference, args.judge)):
            try:
                require_common_queries([(name, evaluated[slot]) for slot, name in zip(lettered, names)],
                                       os.path.basename(path))
            except LabError as error:
                errors.append(error.render("en"))
    if errors:
        return malformed(errors)
    runs = [(name, evaluations[0][slot], evaluations[1][slot]) for slot, name in zip(lettered, names)]
    report = agreement_report(os.path.basename(args.reference), reading.qrels, os.path.basename(args.judge),
                              judged.qrels, runs, args.reference_max, args.judge_max, args.missing)
    for warning in report["warnings"]:
        print(f"warning: {warning['message']}", file=sys.stderr)
    sys.stdout.write(agreement_json(report) if args.json else format_text(report))
    return 0


# --- the text output -----------------------------------------------------------------------------------


def _number(value, signed=False):
    if value is None:
        return "n/a"
    return f"{value:+.4f}" if signed else f"{value:.4f}"


def _align(header, rows):
    """Columns padded to their widest cell: the first left-aligned, the others right-aligned."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    return "\n".join("  ".join([row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in
                                                              zip(row[1:], widths[1:])]).rstrip()
                     for row in [header, *rows])


def format_text(report) -> str:
    """The plain-text report: the files and pairs, the label measures, the confusion matrix, the binary tables,
    the bias; with runs, each run's means and the order's agreement, then the flipped pairs."""
    found, pairs = report["labels"], report["pairs"]
    blocks = [_align(["qrels", "file", "judgments", "queries", "max", "clipped"], [
        [side, report[side]["file"], str(report[side]["pairs"]), str(report[side]["queries"]),
         str(report[side]["max"]), str(report[side]["clipped"])] for side in ("reference", "judge")])]
    blocks.append(f"pairs: {pairs['both']} judged on both sides, {pairs['reference_only']} by the reference only, "
                  f"{pairs['judge_only']} by the judge only; {found['n']} compared")
    interval = found["kappa_ci95"]
    ci = "" if interval is None else f"  95% CI [{interval[0]:.4f}, {interval[1]:.4f}] (bootstrap over queries)"
    rows = [["exact agreement", _number(found["exact"])], ["Cohen's kappa", _number(found["kappa"]) + ci]]
    rows += [[label, _number(found[key])] for label, key in (
        ("kappa, linear weights", "kappa_linear"), ("kappa, quadratic weights", "kappa_quadratic"),
        ("Krippendorff's alpha, ordinal", "alpha_ordinal"), ("Krippendorff's alpha, interval", "alpha_interval"))]
    bias = found["bias"]
    limits = "n/a" if bias["limits"] is None else f"[{bias['limits'][0]:+.4f}, {bias['limits'][1]:+.4f}]"
    rows.append(["bias (judge - reference, 0-1)", f"{_number(bias['mean'], True)}  sd {_number(bias['sd'])}  "
                 f"limits {limits}"])
    blocks.append("\n".join(f"{label.ljust(32)}{value}" for label, value in rows))
    confusion = found["confusion"]
    blocks.append("confusion (rows: reference grade, columns: judge grade)\n" + _align(
        ["", *(f"judge {j}" for j in range(len(confusion[0])))],
        [[f"reference {r}", *map(str, row)] for r, row in enumerate(confusion)]))
    if found["binary"]:
        blocks.append("relevant at reference >= t and judge >= u\n" + _align(
            ["t", "u", "neither", "judge only", "ref only", "both", "exact", "kappa", "PABAK", "AC1", "ref rate",
             "judge rate"],
            [[str(b["reference_threshold"]), str(b["judge_threshold"]), *(str(x) for row in b["table"] for x in row),
              *(_number(b[key]) for key in ("exact", "kappa", "pabak", "ac1", "reference_rate", "judge_rate"))]
             for b in found["binary"]]))
    systems = report["systems"]
    if systems["runs"]:
        measures = list(systems["agreement"])
        blocks.append("means (reference / judge)\n" + _align(["run", *measures], [
            [name, *(f"{_number(systems['reference_means'][name][m])} / {_number(systems['judge_means'][name][m])}"
                     for m in measures)] for name in systems["runs"]]))
        blocks.append("the runs' order under the judge against the reference's\n" + _align(
            ["measure", "tau-b", "tau_AP", "rho", "flips", "significant"],
            [[m, _number(a["kendall_tau_b"]), _number(a["tau_ap"]), _number(a["spearman"]), str(len(a["flips"])),
              str(sum(flip["significant"] for flip in a["flips"]))] for m, a in systems["agreement"].items()]))
        flipped = [[m, f["baseline"], f["candidate"], _number(f["reference_delta"], True),
                    _number(f["judge_delta"], True),
                    "n/a" if f["p_value_adjusted"] is None else p_text(f["p_value_adjusted"], False, "en"),
                    "yes" if f["significant"] else "no"]
                   for m, a in systems["agreement"].items() for f in a["flips"]]
        if flipped:
            blocks.append("flipped pairs (delta: candidate - baseline; Holm p: the reference's comparison)\n" + _align(
                ["measure", "baseline", "candidate", "reference delta", "judge delta", "Holm p", "significant"],
                flipped))
    return "\n\n".join(blocks) + "\n"
