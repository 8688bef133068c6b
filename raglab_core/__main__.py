"""Command line: ``python -m raglab_core COMMAND``.

::

    python -m raglab_core eval QRELS RUN [RUN ...] [--measures "nDCG@10 R@100 …"] [--json] …
    python -m raglab_core fuse RUN RUN [RUN ...] --method M [--norm N] [--rrf-k 60]
        [--weights w1,w2,...] [--depth 1000] [--tag NAME]
    python -m raglab_core chunks CORPUS QUERIES [--spans F] [--qrels F] [--sweep "C:O …"] [--json] …
    python -m raglab_core agree REFERENCE JUDGE [RUN ...] [--reference-max G] [--judge-max G]
        [--missing intersect|zero] [--measures "…"] [--json]
    python -m raglab_core pool RUN [RUN ...] --depth K [--qrels F] [--sample N --seed S] [--judge J]

Each command lives with its domain, in a module named after it: ``eval`` in
:mod:`raglab_core.runs.eval_command`, ``fuse`` in :mod:`raglab_core.runs.fuse_command`, ``chunks`` in
:mod:`raglab_core.corpus.chunks_command`, ``agree`` in :mod:`raglab_core.judges.agree_command`, ``pool`` in
:mod:`raglab_core.judges.pool_command`; what they share (argument types, how a command fails) is
:mod:`raglab_core.command_line`'s. This module only parses the command line and hands it over.
Exit status: 0 on success, 1 when an input file is malformed, 2 for usage errors and unreadable files.

>>> args = build_parser().parse_args(["eval", "qrels.txt", "run.txt", "--measures", "nDCG@10"])
>>> args.command, args.qrels, args.run, args.measures
('eval', 'qrels.txt', 'run.txt', 'nDCG@10')
"""

import argparse
import sys

from .command_line import add_command
from .corpus import chunks_command
from .judges import agree_command, pool_command
from .runs import eval_command, fuse_command


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m raglab_core",
        description="Exact retrieval measures for your own runs (trec_eval conventions, ir_measures names).",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in (eval_command, fuse_command, chunks_command, agree_command, pool_command):
        add_command(commands, command)
    return parser


def main(argv=None) -> int:
    """Run the command line; return the exit status (argparse exits with 2 on usage errors)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    if args.command == "fuse":
        return fuse_command.run(args)
    if args.command == "chunks":
        return chunks_command.run(args, parser)
    if args.command == "agree":
        return agree_command.run(args, parser)
    if args.command == "pool":
        return pool_command.run(args, parser)
    return eval_command.run(args, parser)


if __name__ == "__main__":
    sys.exit(main())
