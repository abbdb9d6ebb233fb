"""Argument helpers shared by the sub-commands."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import clues
from ..errors import FormatError, PuzzleError
from ..puzzle import Puzzle

__all__ = ["add_puzzle_arguments", "load_puzzle", "progress_enabled"]


def add_puzzle_arguments(parser: argparse.ArgumentParser, name: str = "puzzle") -> None:
    """PUZZLE plus --from and --index."""
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
        help="which puzzle of a file that holds several (1-based; default: the first)",
    )


def load_puzzle(args: argparse.Namespace, name: str = "puzzle") -> Puzzle:
    """Read the puzzle named on the command line."""
    path = getattr(args, name)
    options: dict[str, Any] = {}
    if getattr(args, "index", None) is not None:
        options["index"] = args.index
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
            return clues.loads(data, args.from_format, source="<stdin>", **options)
        return clues.load(path, args.from_format, **options)
    except PuzzleError as exc:  # a reader that did not say where
        raise FormatError(f"{path}: {exc}") from None
    except TypeError as exc:
        if "unexpected options" in str(exc):
            raise FormatError(f"{path}: --index applies only to formats that hold several puzzles") from None
        raise


def progress_enabled(args: argparse.Namespace) -> bool:
    """Show progress bars only on a terminal and without --quiet."""
    return not getattr(args, "quiet", False) and sys.stderr.isatty()
