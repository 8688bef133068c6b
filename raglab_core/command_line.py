"""What every command of the command line (``eval``, ``fuse``, ``chunks``, ``agree``, ``pool``) shares: how it is
added to the parser, argument types, and how it fails.

Each command's module says what it is, ``NAME``, ``SUMMARY`` (its line in ``--help``), ``DESCRIPTION`` and,
optionally, ``EPILOG``, and which arguments it takes, ``arguments(parser)``; :func:`add_command` makes its parser.
The argument types (:func:`at_least`, :func:`weights`, :func:`tag`) turn a command-line word into a
value or refuse it with an ``argparse.ArgumentTypeError``, which argparse reports as a usage error
(exit status 2). :func:`cannot_read` and :func:`malformed` say on stderr that a file could not be
read (2) or is malformed (1), and give the exit status. argparse is the command line's alone: this
module is listed in :data:`raglab_core.browser.COMMAND_LINE_ONLY`, out of the page's snapshot.

>>> at_least(1)("3"), weights("0.3,0.7"), tag("bm25")
(3, [0.3, 0.7], 'bm25')
>>> at_least(1)("0")
Traceback (most recent call last):
argparse.ArgumentTypeError: must be an integer >= 1, got 0
"""

import argparse
import errno
import io
import math
import sys


def add_command(subcommands, command) -> argparse.ArgumentParser:
    """Add ``command`` (a command's module: ``NAME``, ``SUMMARY``, ``DESCRIPTION``, optional ``EPILOG``,
    ``arguments(parser)``) to ``subcommands`` (an ``add_subparsers()`` result); return its parser."""
    parser = subcommands.add_parser(command.NAME, help=command.SUMMARY, description=command.DESCRIPTION,
                                    epilog=getattr(command, "EPILOG", None))
    command.arguments(parser)
    return parser


def at_least(minimum: int):
    """The type of a whole number ``>= minimum``."""

    def whole(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be an integer >= {minimum}, got {value}")
        return value

    return whole


def weights(text):
    """``"0.3,0.7"`` -> ``[0.3, 0.7]``: finite numbers, comma-separated."""
    found = []
    for part in text.split(","):
        try:
            weight = float(part)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part.strip()!r} is not a number") from None
        if not math.isfinite(weight):
            raise argparse.ArgumentTypeError(f"{part.strip()!r} is not a finite number")
        found.append(weight)
    return found


def tag(text):
    """A run tag: one word, without spaces."""
    if not text or any(character.isspace() for character in text):
        raise argparse.ArgumentTypeError(f"{text!r}: a tag is one word, without spaces")
    return text


def cannot_read(prog: str, failure: OSError, path: str | None = None) -> int:
    """A file that could not be read (``failure``, while reading ``path``), said on stderr as ``prog`` says a usage
    error; the exit status, 2. A stream that cannot be rewound (bash's ``<(...)``, a pipe) is named and said so:
    its ``OSError`` names no file, and every file is read from its start more than once (its first bytes say
    whether it is gzip; a run whose queries are not grouped, or any run ``agree`` evaluates, is read again).

    >>> import io, contextlib
    >>> with contextlib.redirect_stderr(io.StringIO()) as said:
    ...     cannot_read("eval", io.UnsupportedOperation("File or stream is not seekable."), "/dev/fd/63")
    2
    >>> print(said.getvalue(), end="")
    eval: error: cannot read /dev/fd/63: a stream, not a file (as a pipe or bash's <(...) gives), and it must be read from its start again: save it to a file first
    """
    name = failure.filename if failure.filename is not None else path
    if isinstance(failure, io.UnsupportedOperation) or failure.errno == errno.ESPIPE:
        reason = ("a stream, not a file (as a pipe or bash's <(...) gives), and it must be read from its start "
                  "again: save it to a file first")
    else:
        reason = failure.strerror or failure
    print(f"{prog}: error: cannot read {name}: {reason}", file=sys.stderr)
    return 2


def malformed(errors) -> int:
    """Each problem of malformed input (in English) on stderr; the exit status, 1.

    >>> malformed([])
    1
    """
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    return 1
