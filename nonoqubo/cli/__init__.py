"""The ``nonoqubo`` command line: a thin client of the library.

Every sub-command lives in a module of this package that defines::

    ORDER = 10                      # position in `nonoqubo --help`
    def register(subparsers) -> argparse.ArgumentParser   # adds the sub-command,
                                                           # sets defaults(run=...)

``run(args) -> int`` does one library call and prints; it returns the exit
status.  Errors the library raises on purpose (:class:`NonoquboError`) and
file errors become one line on standard error and exit status 2, never a
traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .._discover import submodules
from ..errors import NonoquboError

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
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"nonoqubo {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in _command_modules():
        mod.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 invalid answer, 2 bad input)."""
    parser = make_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except NonoquboError as exc:
        print(f"nonoqubo: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - `nonoqubo decode ... | head`
        return 0
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"nonoqubo: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("nonoqubo: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
