"""The ``fuse`` command: several runs fused into one TREC run, on stdout.

::

    python -m raglab_core fuse RUN RUN [RUN ...] --method M [--norm N] [--rrf-k 60]
        [--weights w1,w2,...] [--depth 1000] [--tag NAME] > fused.txt

Methods and normalisations are ranx 0.3.21's (:mod:`raglab_core.runs.fusion`):
``--method rrf|sum|mnz|max|wsum``, ``--norm min-max|max|sum|zmuv|rank|borda|none``
(default ``min-max``, ranx's). Runs are TREC or JSON, read as ``eval`` reads
them (:class:`raglab_core.runs.trec.RunReader`). The output has 6 columns,
``qid Q0 docid rank score tag``, the top ``--depth`` documents of each query
ranked as trec_eval ranks them.

A query missing from a run is fused from the other runs alone (a warning on
stderr names the run and the queries). Exit status: 0 on success, 1 when an
input file is malformed (every problem found is listed in English on stderr,
nothing is printed on stdout), 2 for usage errors and unreadable files.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="python -m raglab_core")
>>> from raglab_core.command_line import add_command
>>> from raglab_core.runs import fuse_command
>>> _ = add_command(parser.add_subparsers(dest="command"), fuse_command)
>>> args = parser.parse_args(["fuse", "a.txt", "b.txt", "--method", "wsum", "--weights", "0.3,0.7"])
>>> args.method, args.norm, args.weights, args.depth, args.tag
('wsum', 'min-max', [0.3, 0.7], 1000, None)
"""

import argparse
import os
import sys

from ..command_line import at_least, cannot_read, malformed, tag, weights
from .decoding import NotUTF8, read_text_chunks, undecodable
from ..errors import LabError, message
from .trec import RunReader
from .fusion import DEFAULT_DEPTH, DEFAULT_NORM, METHODS, NORMS, RRF_K, check_settings, fuse, lacking_queries, trec_lines

SHOWN = 5
"""Query ids a warning names before it says «…»."""


NAME = "fuse"
SUMMARY = "fuse two or more runs into one TREC run (ranx's methods and normalisations)"
DESCRIPTION = (
    "Fuse two or more runs into one TREC run, printed on stdout. Methods and normalisations "
    "carry ranx 0.3.21's names and definitions (ranx.fuse)."
)
EPILOG = (
    "Scores are normalised per query and per run, then combined per document: a document missing "
    "from a run gets 0 from it (sum, wsum, rrf), is not counted (mnz) or counts -1e9 (max); a query missing "
    "from a run is fused from the other runs. Tied scores are ranked as trec_eval ranks them (document id "
    "descending). Weights are yours to choose: tuned on the queries being evaluated, they would flatter "
    "the fused run."
)


def arguments(parser: argparse.ArgumentParser) -> None:
    """``fuse``'s arguments and options, on its ``parser`` (:func:`raglab_core.command_line.add_command`)."""
    add = parser.add_argument
    add("runs", metavar="RUN", nargs="+",
        help="two or more runs: TREC (qid Q0 docid rank score tag) or JSON {qid: {docid: score}}")
    add("--method", required=True, choices=METHODS,
        help="rrf (reciprocal rank fusion), sum (CombSUM), mnz (CombMNZ), max (CombMAX), wsum (weighted sum)")
    add("--norm", choices=NORMS, default=DEFAULT_NORM,
        help=f"per-query normalisation of each run before combining (default {DEFAULT_NORM}, ranx's)")
    add("--rrf-k", type=at_least(0), help=f"rrf's k: a document at rank r scores 1/(k + r) (default {RRF_K})")
    add("--weights", type=weights, help="wsum's weights, one per run, comma-separated (e.g. 0.3,0.7)")
    add("--depth", type=at_least(1), default=DEFAULT_DEPTH,
        help=f"documents written per query (default {DEFAULT_DEPTH})")
    add("--tag", type=tag, help="the run tag, last column (default METHOD-NORM, e.g. rrf-min-max)")
    parser.set_defaults(fuse_parser=parser)


def read_run(path: str) -> dict:
    """The run at ``path`` as ``{qid: {docid: score}}`` (any line order); :class:`LabError` naming file and line,
    ``OSError`` when it cannot be opened."""
    reader = RunReader(path)
    try:
        for text in read_text_chunks(path):
            reader.feed(text)
    except NotUTF8 as error:
        raise undecodable(path, "run", error.head, error.offset, error.byte) from None
    return reader.close()


def lacking_warnings(paths, runs) -> list[str]:
    """One English warning per run that lacks queries the other runs hold.

    >>> lacking_warnings(["a.txt", "b.txt"], [{"q1": {"d": 1.0}, "q2": {"d": 1.0}}, {"q1": {"d": 1.0}}])
    ['b.txt: 1 query of the other runs is missing from it (q2); it contributes nothing to it']
    """
    warnings = []
    for path, lacking in zip(paths, lacking_queries(runs)):
        if lacking:
            sample = ", ".join(lacking[:SHOWN]) + (", …" if len(lacking) > SHOWN else "")
            warnings.append(message("fusion_query_missing", "en", name=path, count=len(lacking), sample=sample))
    return warnings


def run(args) -> int:
    """Carry out ``fuse`` for parsed ``args``; the exit status (usage errors exit 2 through argparse)."""
    parser = args.fuse_parser
    if len(args.runs) < 2:
        parser.error("fusion needs at least two runs")
    if args.rrf_k is not None and args.method != "rrf":
        parser.error("--rrf-k applies to --method rrf only")
    if args.weights is not None and args.method != "wsum":
        parser.error("--weights applies to --method wsum only")
    if args.method == "wsum" and args.weights is None:
        parser.error("--method wsum needs --weights, one per run")
    params = {"k": RRF_K if args.rrf_k is None else args.rrf_k} if args.method == "rrf" else {}
    if args.method == "wsum":
        params = {"weights": args.weights}
    try:  # the settings are checked before any file is read
        check_settings(len(args.runs), args.method, args.norm, params)
    except LabError as error:
        parser.error(error.render("en"))
    runs, errors = [], []
    for path in args.runs:  # every file is read, so that all bad ones are reported
        try:
            runs.append(read_run(path))
        except OSError as failure:  # a path the user mistyped: a usage error
            return cannot_read(parser.prog, failure, path)
        except LabError as error:
            errors.append(error.render("en"))
    if errors:
        return malformed(errors)
    for warning in lacking_warnings(args.runs, runs):
        print(f"warning: {warning}", file=sys.stderr)
    fused = fuse(runs, args.method, args.norm, params)
    try:
        sys.stdout.writelines(trec_lines(fused, args.tag or f"{args.method}-{args.norm}", args.depth))
        sys.stdout.flush()
    except BrokenPipeError:  # `| head`: the reader has gone; stop quietly (Python's documented idiom)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
