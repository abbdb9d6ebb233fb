"""``nonoqubo check``: a grid checked against the clues directly."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .._atomic import atomic_write
from ..check import check, read_grid
from ..render import svg_picture, text_picture
from ._common import add_puzzle_arguments, load_puzzle
from .decode import add_image_argument

ORDER = 60

HELP = "check a grid (text of #/. or 1/0, or JSON) against the clues"
DESCRIPTION = """\
Check GRID against the clues of PUZZLE and list the lines that fail: a line
fails when the lengths of its black runs, in order, differ from its clue.

GRID is text, one row per line, '#' (or 'X', '1') black and '.' (or '0', '-')
white, or JSON: a list of row strings, a list of 0/1 lists, or an object with
a "grid" (or "solution") key.

exit status: 0 when the grid solves the puzzle, 1 when it does not, 2 on bad input.

example:
  nonoqubo check examples/qbpp-logo.yaml answer.txt
"""


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser("check", help=HELP, description=DESCRIPTION,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    add_puzzle_arguments(parser)
    parser.add_argument("grid", metavar="GRID", help="the grid to check ('-' reads standard input)")
    parser.add_argument("--json", action="store_true",
                        help="print the verdict as JSON (schemas/report.schema.json, kind 'check')")
    add_image_argument(parser)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    puzzle = load_puzzle(args)
    pal = puzzle.palette
    grid = read_grid(sys.stdin.read(), source="<stdin>", palette=pal) if args.grid == "-" else \
        read_grid(Path(args.grid), palette=pal)
    result = check(puzzle, grid)
    rows = [int(f.line.split()[1]) - 1 for f in result.failures if f.line.startswith("row")]
    cols = [int(f.line.split()[1]) - 1 for f in result.failures if f.line.startswith("column")]
    verdict = "VALID: the grid solves the puzzle" if result.valid else \
        f"INVALID: {len(result.failures)} line{'s' * (len(result.failures) != 1)} do not match their clue"
    if args.image:
        svg = svg_picture(puzzle, result.grid, failing_rows=rows, failing_cols=cols,
                          title=f"{puzzle.name + ': ' if puzzle.name else ''}{verdict}")
        with atomic_write(args.image) as fh:
            fh.write(svg)
    if args.json:
        doc = {"kind": "check",
               "puzzle": {"name": puzzle.name, "width": puzzle.width, "height": puzzle.height}}
        doc.update(result.to_dict())
        print(json.dumps(doc, indent=1))
    else:
        print(verdict)
        print("\n".join(text_picture(result.grid, failing_rows=rows, failing_cols=cols, palette=pal)))
        for failure in result.failures:
            print(f"  {failure}")
    return 0 if result.valid else 1
