"""``nonoqubo check``: a grid checked against the clues directly.

The command owns the arguments, the hint when GRID is a solver's samples, and the text;
reading and checking the grid is :mod:`nonoqubo.logic.check`'s.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .._util.atomic import atomic_write
from ..logic.check import check, parse_grid
from ..errors import FormatError, NonoquboError, PuzzleError
from ..model.palette import BLACK_CHARS, WHITE_CHARS
from ..answers.render import check_svg, text_picture
from ..solvers.tournament import check_answers, is_answer_file
from ._common import (add_image_argument, add_puzzle_arguments, check_image_path, load_puzzle,
                      print_tournament, refuse_in_tournament, say_wrote)
from ._options import add

ORDER = 60


def _chars(chars: frozenset[str]) -> str:
    return " ".join(repr(c) for c in sorted(chars))


HELP = "check a grid (text of #/. or 1/0, a character per colour, or JSON) against the clues"
DESCRIPTION = f"""\
Check GRID against the clues of PUZZLE and list the lines that fail: a line
fails when the lengths of its black runs, in order, differ from its clue (in
a colour puzzle: the lengths and colours of its runs).

GRID is text, one row per line, or JSON: a list of row strings, a list of
0/1 lists, or an object with a "grid" (or "solution", "picture") key.
  black: {_chars(BLACK_CHARS)}
  white: {_chars(WHITE_CHARS)}
Blank lines and lines starting with // or ; are skipped; spaces between
cells are ignored (so ' ' is white only inside JSON row strings).  A colour
puzzle's grid has one character per colour, its palette's ('nonoqubo info
PUZZLE' lists them), and '.' for the background.

A solver's samples (domain-wall variables, not a grid) are for 'decode':
  nonoqubo decode PUZZLE SAMPLES

A tournament answer file (a '$N' header, then the rows of tab-separated 0/1,
for every puzzle: TAAI, TCGA, ICGA) is checked against every puzzle of PUZZLE,
its question file (or any multi-puzzle clue file), each answer matched by its
number: one line per failing puzzle (wrong, no answer, wrong size, broken),
the problems of either file (an extra or second header, CRLF mixed with LF, a
question cut short), each located file:line, then the total.  Every other
puzzle is still checked.

exit status: 0 when the grid solves the puzzle (every puzzle of a tournament),
1 when it does not (a puzzle is not solved), 2 on bad input (in a tournament:
a problem of a file; the verdicts are printed all the same).

examples:
  nonoqubo check examples/qbpp-logo.yaml answer.txt
  nonoqubo check taai2011.taai taai2011-answers.txt
  nonoqubo check taai2011.taai taai2011-answers.txt --json
"""


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser("check", help=HELP, description=DESCRIPTION,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    add_puzzle_arguments(parser)
    parser.add_argument("grid", metavar="GRID", help="the grid to check ('-' reads standard input)")
    add(parser, "json", "the verdict (schemas/report.schema.json, kind 'check'; a tournament answer file: kind "
                        "'tournament-check')")
    add_image_argument(parser, "the grid")
    add(parser, "quiet", "no 'wrote FILE' line for --image")
    parser.set_defaults(run=run)
    return parser


def _samples_hint(text: str, args: argparse.Namespace) -> str:
    """'; ... use decode' when *text* reads as a solver's samples file, else ''."""
    from ..samples import formats

    head = text.encode()
    for mod in formats().values():
        if not mod.HEURISTIC and mod.detect(head):
            return (f"; it looks like a solver's samples ({mod.NAME}), not a grid: "
                    f"decode it with 'nonoqubo decode {args.puzzle} {args.grid}'")
    return ""


def run(args: argparse.Namespace) -> int:
    if is_answer_file(args.grid):  # a tournament's answers: every puzzle of PUZZLE, matched by number
        refuse_in_tournament(args, "a tournament answer file", {"image": "--image", "index": "--index",
                                                                "spec_name": "--name"})
        return print_tournament(check_answers(args.puzzle, args.grid, format=args.from_format), args.json)
    check_image_path(args.image, args.puzzle, args.grid)  # never over a file it reads
    puzzle = load_puzzle(args)
    source = "<stdin>" if args.grid == "-" else args.grid
    text = sys.stdin.read() if args.grid == "-" else Path(args.grid).read_text(encoding="utf-8-sig", errors="replace")
    try:
        grid = parse_grid(text, source=source, palette=puzzle.palette)
        result = check(puzzle, grid)
    except (PuzzleError, FormatError) as exc:
        message = str(exc) if str(exc).startswith(source) else f"{source}: {exc}"
        raise NonoquboError(message + _samples_hint(text, args)) from None
    rows, cols, verdict = result.failing_rows, result.failing_cols, result.verdict
    if args.image:
        svg = check_svg(result, puzzle)
        with atomic_write(args.image) as fh:
            fh.write(svg)
    if args.json:
        doc = {"kind": "check",
               "puzzle": {"name": puzzle.name, "width": puzzle.width, "height": puzzle.height}}
        doc.update(result.to_dict())
        print(json.dumps(doc, indent=1))
    else:
        print(verdict)
        print("\n".join(text_picture(result.grid, failing_rows=rows, failing_cols=cols, palette=puzzle.palette)))
        for failure in result.failures:
            print(f"  {failure}")
    if args.image:
        say_wrote(args.image, "SVG picture of the grid", quiet=args.quiet)
    return 0 if result.valid else 1
