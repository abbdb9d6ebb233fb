"""Argument helpers shared by the sub-commands."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from .. import clues
from ..errors import FormatError, NonoquboError, PuzzleError
from ..model.puzzle import Puzzle

__all__ = ["add_puzzle_arguments", "check_output_folder", "load_puzzle", "progress_enabled"]


def add_puzzle_arguments(parser: argparse.ArgumentParser, name: str = "puzzle") -> None:
    """PUZZLE plus --from, --index and --name."""
    parser.add_argument(
        name,
        metavar=name.upper(),
        help="clue file in any supported format (see 'nonoqubo formats'); '-' reads standard input",
    )
    parser.add_argument(
        "--from", dest="from_format", metavar="FORMAT",
        help="clue format, when the file's extension and content do not tell",
    )
    parser.add_argument(
        "--index", type=int, default=None, metavar="N",
        help="which puzzle of a file that holds several: counted from 1 (webpbn XML, .nin, Tatham "
             "game ids; default the first), but from 0 in a Gecode C++ file, in the order of its "
             "specs[] table, like Gecode's own -size N",
    )
    parser.add_argument(
        "--name", dest="spec_name", metavar="NAME",
        help="which spec of a Gecode C++ file, by its declared name (e.g. castle)",
    )


def load_puzzle(args: argparse.Namespace, name: str = "puzzle") -> Puzzle:
    """Read the puzzle named on the command line."""
    path = getattr(args, name)
    options: dict[str, Any] = {}
    if getattr(args, "index", None) is not None:
        options["index"] = args.index
    if getattr(args, "spec_name", None) is not None:
        options["name"] = args.spec_name
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
            return clues.loads(data, args.from_format, source="<stdin>", **options)
        return clues.load(path, args.from_format, **options)
    except PuzzleError as exc:  # a reader that did not say where
        raise FormatError(f"{path}: {exc}") from None
    except TypeError as exc:
        if "unexpected options" in str(exc):
            what = "--name applies only to Gecode C++ files" if "name" in str(exc).split(":")[-1] \
                else "--index applies only to formats that hold several puzzles"
            raise FormatError(f"{path}: {what}") from None
        raise


def check_output_folder(path: str | None) -> None:
    """Refuse, before any work, an output file whose folder does not exist (the message names the file)."""
    if path and path != "-":
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise NonoquboError(f"{path}: cannot write it: the folder {folder} does not exist")


def progress_enabled(args: argparse.Namespace) -> bool:
    """Show progress bars only on a terminal and without --quiet."""
    return not getattr(args, "quiet", False) and sys.stderr.isatty()
