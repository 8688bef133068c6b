"""The ``pool`` command: the (query, document) pairs to judge, from the top of your runs (DESIGN §4.13).

::

    python -m raglab_core pool RUN [RUN ...] --depth K [--qrels F] [--sample N --seed S] [--judge J]

Prints the depth-K pool of the runs as TSV, one ``query_id<TAB>doc_id`` line per pair, minus the pairs the qrels F
already judge, in the pool's order (:mod:`raglab_core.judges.pooling`: queries sorted, then each document by its
best rank over the runs, then docid). With ``--sample N``, N pairs drawn at random, seeded by S (default
:data:`~raglab_core.runs.statistics.SEED`, the judging page's default too); with ``--judge J`` (a model's qrels),
only the pool's pairs J grades, and with ``--sample`` a sample of them stratified by J's grade (the allocation is
:func:`~raglab_core.judges.pooling.allocation`'s). Runs and qrels are read as ``eval`` reads them (TREC, BEIR TSV,
JSON; gzipped or not).

Warnings (``sample_whole_pool``, ``judge_misses_pool``, ``pool_empty``) go to stderr; they change no output and no
exit status. Exit status: 0 on success, 1 when an input file is malformed (every problem listed in English on
stderr, nothing on stdout), 2 for usage errors and unreadable files.

>>> from raglab_core.__main__ import build_parser
>>> args = build_parser().parse_args(["pool", "r1.txt", "r2.txt", "--depth", "10", "--sample", "50"])
>>> args.runs, args.depth, args.sample, args.seed, args.qrels, args.judge
(['r1.txt', 'r2.txt'], 10, 50, None, None, None)
"""

import argparse
import sys

from ..command_line import at_least, cannot_read, malformed
from ..errors import LabError
from ..runs.decoding import NotUTF8, read_text_chunks, undecodable
from ..runs.inputs import MAX_RUNS
from ..runs.statistics import SEED
from .pooling import choose, pool_text, read_qrels, read_tops


NAME = "pool"
SUMMARY = "the pairs to judge: the top K of your runs (a pool), sampled or stratified by a model's grade"
DESCRIPTION = (
    "Print, as query_id<TAB>doc_id lines, every document in the top K of any RUN (each ranked as "
    "trec_eval ranks it: score descending, ties by docid descending), minus the pairs QRELS already judges. "
    "Order: queries sorted, then each document by its best rank over the runs, then docid. The judging page "
    f"takes up to {MAX_RUNS} runs."
)


def arguments(parser: argparse.ArgumentParser) -> None:
    """``pool``'s arguments and options, on its ``parser``."""
    add = parser.add_argument
    add("runs", metavar="RUN", nargs="+", help="runs in any format eval reads (TREC, JSON; gzipped or not)")
    add("--depth", type=at_least(1), required=True, metavar="K", help="the top K documents of each run")
    add("--qrels", metavar="F", help="qrels already made: the pairs they judge (any grade) are left out")
    add("--sample", type=at_least(1), metavar="N",
        help="draw N pairs at random (with --judge: stratified by the judge's grade)")
    add("--seed", type=int, metavar="S", help=f"the sample's seed (default {SEED})")
    add("--judge", metavar="J",
        help="a model's qrels: keep only the pool's pairs it grades; with --sample, stratify by its grade")


def _read(path, field, read):
    """``read(name, chunks)`` over the file at ``path``; a file that is not UTF-8 text is a :class:`LabError`
    naming it (an ``OSError``, a path that cannot be read, is the caller's)."""
    try:
        return read(path, lambda: read_text_chunks(path))
    except NotUTF8 as error:
        raise undecodable(path, field, error.head, error.offset, error.byte) from None
    except UnicodeDecodeError as error:
        raise LabError("not_utf8", field=field, name=path, reason=error.reason) from None


def run(args, parser) -> int:
    """``pool``: read the runs and qrels, print the pairs; return the exit status."""
    if args.seed is not None and args.sample is None:
        parser.error("pool: --seed is the seed of --sample, which is missing")
    seed = SEED if args.seed is None else args.seed
    files = [(path, "run", lambda name, chunks: read_tops(name, chunks, args.depth)) for path in args.runs]
    files += [(path, "qrels", read_qrels) for path in (args.qrels, args.judge) if path is not None]
    found, errors = [], []
    try:  # every file is read, so that all bad ones are reported
        for path, field, read in files:
            try:
                found.append(_read(path, field, read))
            except LabError as error:
                errors.append(error.render("en"))
    except OSError as failure:
        return cannot_read(f"{parser.prog} pool", failure)
    if errors:
        return malformed(errors)
    runs = found[: len(args.runs)]
    rest = iter(found[len(args.runs):])
    judged = next(rest) if args.qrels is not None else None
    judge = next(rest) if args.judge is not None else None
    pairs, notices = choose(runs, args.depth, judged, args.sample, seed, judge)
    for notice in notices:
        print(f"warning: {notice.render('en')}", file=sys.stderr)
    sys.stdout.write(pool_text(pairs))
    return 0
