"""The ``nonoqubo`` command line: a thin client of the library.

Every sub-command lives in a module of this package that defines::

    ORDER = 10                      # position in `nonoqubo --help`
    def register(subparsers) -> argparse.ArgumentParser   # adds the sub-command,
                                                           # sets defaults(run=...)

``run(args) -> int`` does one library call and prints; it returns the exit
status.  Errors the library raises on purpose (:class:`NonoquboError`) and
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

from .._util.discover import submodules
from ..errors import NonoquboError, NoSolution, Note, TimeLimit
from ._common import joined_presolve

__all__ = ["main", "make_parser"]

DESCRIPTION = """\
nonoqubo turns nonogram clues into QUBO files for quantum annealers, Ising
machines and QUBO solvers, and turns what those solvers return back into a
picture with a verdict.  The model is the domain-wall encoding of the QUBO++
"Nonogram" case study (labels y{i}[k][p] for rows, z{j}[k][p] for columns).
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


def _command_modules() -> list:
    mods = submodules(__name__, __path__, "register")
    return sorted(mods, key=lambda m: (getattr(m, "ORDER", 100), m.__name__))


def make_parser() -> argparse.ArgumentParser:
    """The full argument parser (all sub-commands)."""
    parser = argparse.ArgumentParser(
        prog="nonoqubo",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from .._version import __version__

    parser.add_argument("--version", action="version", version=f"nonoqubo {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands = {}
    for mod in _command_modules():
        command = mod.register(sub)
        commands[command.prog.split()[-1]] = command
    parser.set_defaults(_commands=commands)
    return parser


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


#: options whose value is a range LO,HI that may start with a minus sign (argparse would take
#: ``-4,4`` for an option of its own)
RANGE_OPTIONS = ("--h-range", "--j-range", "--beta-range")
#: options whose value may be two words, the first one given here: ``--beta-schedule custom FILE``
#: (joined into one value, so the option takes one word otherwise and never swallows PUZZLE)
TWO_WORD_VALUES = {"--beta-schedule": "custom"}


def joined_ranges(argv: Sequence[str]) -> list[str]:
    """``--h-range -4,4`` as ``--h-range=-4,4``, so a negative lower bound reads as a value.

    Examples:
        >>> joined_ranges(["build", "p.non", "--h-range", "-2,2", "--j-range", "-1,1"])
        ['build', 'p.non', '--h-range=-2,2', '--j-range=-1,1']
        >>> joined_ranges(["build", "--h-range", "--quiet"])
        ['build', '--h-range', '--quiet']
    """
    out: list[str] = []
    items = list(argv)
    i = 0
    while i < len(items):
        value = items[i + 1] if i + 1 < len(items) else ""
        if items[i] in RANGE_OPTIONS and value[:1] == "-" and (value[1:2].isdigit() or value[1:2] == "."):
            out.append(f"{items[i]}={value}")
            i += 2
        else:
            out.append(items[i])
            i += 1
    return out


def joined_two_word_values(argv: Sequence[str]) -> list[str]:
    """``--beta-schedule custom FILE`` as ``--beta-schedule=custom FILE``, so the option takes one word otherwise.

    Examples:
        >>> joined_two_word_values(["solve", "--beta-schedule", "custom", "b.txt", "p.non"])
        ['solve', '--beta-schedule=custom b.txt', 'p.non']
        >>> joined_two_word_values(["solve", "--beta-schedule", "linear", "p.non"])
        ['solve', '--beta-schedule', 'linear', 'p.non']
        >>> joined_two_word_values(["solve", "--beta-schedule", "custom", "-q"])
        ['solve', '--beta-schedule', 'custom', '-q']
    """
    out: list[str] = []
    items = list(argv)
    i = 0
    while i < len(items):
        first = TWO_WORD_VALUES.get(str(items[i]))
        if (first is not None and i + 2 < len(items) and items[i + 1] == first
                and not str(items[i + 2]).startswith("-")):
            out.append(f"{items[i]}={first} {items[i + 2]}")
            i += 3
        else:
            out.append(items[i])
            i += 1
    return out


def normalised_argv(argv: Sequence[str]) -> list[str]:
    """The command line as argparse can read it: every rewrite before parsing, in one place.

    :func:`joined_ranges` (a negative range bound is a value), :func:`joined_two_word_values`
    (``--beta-schedule custom FILE`` is one value) and :func:`~nonoqubo.cli._common.joined_presolve`
    (``--presolve probe`` is a value; a bare ``--presolve`` never takes the puzzle's name).
    """
    return joined_presolve(joined_two_word_values(joined_ranges(argv)))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 invalid answer, 2 bad input)."""
    parser = make_parser()
    args, unknown = parser.parse_known_args(normalised_argv(sys.argv[1:] if argv is None else list(argv)))
    if unknown:  # the sub-command's usage, not the top level's, goes with the complaint
        command = args._commands.get(getattr(args, "command", None) or "", parser)
        command.error(f"unrecognized arguments: {' '.join(unknown)}")
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
        print(f"nonoqubo: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # a model or file written to standard output (build -o - | head): cut short
        _stdout_to_devnull(sys.stdout)
        return CLOSED_PIPE
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"nonoqubo: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("nonoqubo: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
