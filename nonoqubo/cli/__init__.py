"""The ``nonoqubo`` command line: a thin client of the library, each command loaded when it runs.

:data:`COMMANDS` is the one table of the sub-commands: name, module, place in ``nonoqubo --help``
and the one line it shows there.  ``nonoqubo --help`` lists them from the table, ``--version``
answers from it, and neither imports a command; ``nonoqubo CMD ...`` imports CMD's module alone
(:class:`~nonoqubo.cli._parser.Commands`).  Every command module defines::

    ORDER = 10                      # its place in `nonoqubo --help` (the table's copy)
    HELP = "one line"               # its line there (the table's copy)
    def register(subparsers) -> argparse.ArgumentParser   # adds the sub-command,
                                                           # sets defaults(run=...)

and ``tests/cli/test_cli_commands.py`` fails for a module that is not in the table or whose
``ORDER`` or ``HELP`` differ from its line.  The command line is read by
:class:`~nonoqubo.cli._parser.Parser` (a negative range bound is a value; an option such as
``--presolve [line|probe]`` says itself which words are its value).

``run(args) -> int`` parses what argparse could not, calls the library and prints; it returns the
exit status (most commands make one library call; ``info`` and ``build`` still compose a few).  Errors the library raises on purpose (:class:`NonoquboError`) and
file errors become one line on standard error and exit status 2, never a
traceback.

The exit status is the verdict also in a pipe: when the reader of standard
output goes away (``nonoqubo decode m.non s.json | head -3``), the rest of the
output is sent to the null device and the command runs on to its verdict
(0 valid, 1 invalid, 2 bad input, 3 a time limit before any answer), the same on every run.  A file written to standard
output (``build -o - -f lp | head -c 100``) is another matter: it was cut short, so the
command stops quietly with the status of a process killed by SIGPIPE, 141, as ``cat``
would, and says nothing about having written it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from collections.abc import Sequence
from typing import Any, TextIO

from ..errors import NonoquboError, NoSolution, Note, TimeLimit
from ._parser import Command, Commands, Parser

__all__ = ["COMMANDS", "main", "make_parser"]

#: every sub-command: ``nonoqubo --help`` lists them from here, in ORDER, without importing one; a
#: command's module (``nonoqubo.cli.MODULE``) is imported when the command runs.  Each line's
#: ORDER and HELP are its module's own (``tests/cli/test_cli_commands.py`` keeps them so).
COMMANDS: tuple[Command, ...] = (
    Command("info", "info", 10, "print the puzzle's size and the QUBO's figures (variables, terms, offset, ...)"),
    Command("build", "build", 20, "build the QUBO of PUZZLE and write it as a file (qbsolv, COO, dimod BQM, QPLIB, ...)"),
    Command("embed", "embed", 25, "find an embedding of the QUBO on a QPU topology (Pegasus, Zephyr, Chimera, a QPU's "
                                  "graph) with minorminer"),
    Command("formats", "formats", 30, "list the clue formats nonoqubo reads and the QUBO formats it writes"),
    Command("convert", "convert", 40, "convert a puzzle between clue formats (webpbn XML, .non, .nin, .mk, .g, .cwd, ...)"),
    Command("decode", "decode", 50, "decode a solver's samples: the picture, valid or not, and every broken term"),
    Command("check", "check", 60, "check a grid (text of #/. or 1/0, a character per colour, or JSON) against the clues"),
    Command("suite", "suite", 60, "build an instance library: many puzzles (files, folders, globs, random families) -> "
                                  "models + index"),
    Command("evaluate", "evaluate", 65, "judge a benchmark campaign: success probability, TTS99, residual energy per "
                                        "model and setting"),
    Command("run", "run", 62, "run a campaign plan (models x settings x seeds) in long-lived workers, locally or on "
                              "a Dask cluster"),
    Command("solve", "solve", 70, "solve a puzzle locally (simulated annealing, tabu, exact, QUBO++, OpenJij SA/SQA, "
                                  "CP-SAT) and show the picture"),
)

DESCRIPTION = """\
nonoqubo turns nonogram clues into QUBO files for quantum annealers, Ising
machines and QUBO solvers, and turns what those solvers return back into a
picture with a verdict.

A puzzle's block shifts are written as binary variables in one of three
encodings (--encoding NAME; 'nonoqubo formats' lists them):
  domain-wall  the default: the QUBO++ "Nonogram" case study's model, labels
               y{i}[k][p] for rows, z{j}[k][p] for columns
  one-hot      one variable per possible shift of every block
  automaton    the line automaton: one state of each line's clue automaton
               per cell (the Gecode chapter's regular constraint)
Every model file records its encoding, so decode, info and evaluate read it back.
"""

EPILOG = """\
examples:
  nonoqubo info examples/qbpp-logo.yaml --presolve
  nonoqubo build examples/qbpp-logo.yaml -o logo.qubo          # qbsolv format
  nonoqubo decode logo.qubo answers.json                      # picture + verdict
  nonoqubo solve examples/qbpp-logo.yaml --sampler sa --seed 1
run 'nonoqubo COMMAND --help' for the options of each command.
"""


#: the exit status of a file cut short by a closed pipe (128 + SIGPIPE, as the shell reports ``cat``)
CLOSED_PIPE = 141
#: the exit status of a search its time limit stopped before it decided (``solve --sampler cpsat --time-limit``):
#: not 1 (an answer: no valid sample, no solution) and not 2 (bad input)
TIME_LIMIT = 3


def make_parser() -> argparse.ArgumentParser:
    """The argument parser: every command of :data:`COMMANDS` listed, none imported until it is parsed."""
    parser = Parser(
        prog="nonoqubo",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from .._version import __version__

    parser.add_argument("--version", action="version", version=f"nonoqubo {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", action=Commands)
    assert isinstance(sub, Commands)
    sub.add_table(COMMANDS, __name__)
    sub.on_load = _shared_options
    parser.set_defaults(_commands=sub)
    return parser


def _shared_options(name: str, parser: argparse.ArgumentParser) -> None:
    """The options defined once for many commands, added to command *name*'s parser when it loads: ``--progress``."""
    from ._common import PROGRESS_COMMANDS, add_progress_argument

    if name in PROGRESS_COMMANDS:
        add_progress_argument(parser)


def _stdout_to_devnull(stream: Any) -> None:
    """Point standard output's file descriptor at the null device (its reader has gone)."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


class _PipeSafe:
    """Standard output that outlives a closed pipe: after ``BrokenPipeError`` it writes to the null device."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            _stdout_to_devnull(self._stream)
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            _stdout_to_devnull(self._stream)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 invalid answer, 2 bad input)."""
    parser = make_parser()
    args, unknown = parser.parse_known_args(sys.argv[1:] if argv is None else list(argv))
    if unknown:  # the sub-command's usage, not the top level's, goes with the complaint
        name = getattr(args, "command", None)
        (args._commands.load(name) if name else parser).error(f"unrecognized arguments: {' '.join(unknown)}")
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    stdout = sys.stdout
    sys.stdout = _PipeSafe(stdout)  # type: ignore[assignment]
    try:
        status = _run(args)
        sys.stdout.flush()
        return status
    finally:
        sys.stdout = stdout


def outcome_document(args: argparse.Namespace, outcome: str, exc: Exception) -> dict[str, Any]:
    """The JSON object of a search that ended without a sample: ``"no solution"`` (proven) or ``"time limit"``.

    Examples:
        >>> doc = outcome_document(argparse.Namespace(command="solve", puzzle="p.non", sampler="cpsat",
        ...                        time_limit=1.0), "time limit", TimeLimit("CP-SAT found no solution"))
        >>> doc["outcome"], doc["exit_status"], doc["time_limit"]
        ('time limit', 3, 1.0)
    """
    return {"kind": getattr(args, "command", None) or "nonoqubo", "outcome": outcome,
            "input": getattr(args, "puzzle", None) or getattr(args, "model", None),
            "sampler": getattr(args, "sampler", None), "time_limit": getattr(args, "time_limit", None),
            "message": str(exc), "exit_status": TIME_LIMIT if outcome == "time limit" else 1}


def _show_note(message, category, filename, lineno, file=None, line=None):  # type: ignore[no-untyped-def]
    """A :class:`~nonoqubo.errors.Note` as one ``nonoqubo: note:`` line on stderr (other warnings as Python shows them)."""
    if issubclass(category, Note):
        print(f"nonoqubo: note: {message}", file=sys.stderr)
    else:
        _PYTHON_SHOWWARNING(message, category, filename, lineno, file, line)


_PYTHON_SHOWWARNING = warnings.showwarning


def _run(args: argparse.Namespace) -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("default", Note)  # each note once
        warnings.showwarning = _show_note
        return _run_command(args)


def _run_command(args: argparse.Namespace) -> int:
    try:
        return int(args.run(args) or 0)
    except NoSolution as exc:  # a verdict (the puzzle has no solution), not bad input
        if getattr(args, "json", False):
            print(json.dumps(outcome_document(args, "no solution", exc), indent=1))
        else:
            print(f"nonoqubo: {exc}")
        return 1
    except TimeLimit as exc:  # the search stopped before it decided: neither an answer nor bad input
        if getattr(args, "json", False):
            print(json.dumps(outcome_document(args, "time limit", exc), indent=1))
        else:
            print(f"nonoqubo: time limit: {exc}", file=sys.stderr)
        return TIME_LIMIT
    except NonoquboError as exc:
        print(f"nonoqubo: error: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # a model or file written to standard output (build -o - | head): cut short
        _stdout_to_devnull(sys.stdout)
        return CLOSED_PIPE
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"nonoqubo: error: {_one_line(f'{where}{exc.strerror or exc}')}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("nonoqubo: interrupted", file=sys.stderr)
        return 130


#: every character that breaks a line (``str.splitlines``), and how a one-line message writes it
_BREAKS = {c: repr(chr(c))[1:-1] for c in (0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029)}


def _one_line(message: str) -> str:
    """*message* on one line: a line break inside it (a file name given with one: ``-o $'a\\nb'``) written as
    its escape (``\\n``, ``\\x0c``...)."""
    return message.translate(_BREAKS)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
