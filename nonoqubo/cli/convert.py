"""``nonoqubo convert``: rewrite a puzzle from one clue format into another."""

from __future__ import annotations

import argparse
import sys

from .. import clues
from .._atomic import atomic_write
from ..errors import FormatError, PuzzleError, UnsupportedFormat
from ._common import add_puzzle_arguments, load_puzzle

ORDER = 40

HELP = "convert a puzzle between clue formats (webpbn XML, .non, .nin, .mk, .g, .cwd, ...)"
DESCRIPTION = """\
Read INPUT in any clue format and write it to OUTPUT in another.  The formats
are told by the file endings, else by the content (INPUT) or --from/--to.  A
known solution travels along when both formats can carry one (spec, xml, non,
picture, pbm); the picture formats need one.  Metadata (title, author,
copyright, ...) is kept where the output format has a place for it.

examples:
  nonoqubo convert dancer.non dancer.xml
  nonoqubo convert puzzles.xml --index 3 third.nin
  nonoqubo convert answer.pbm - --to non
"""


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser("convert", help=HELP, description=DESCRIPTION,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    add_puzzle_arguments(parser, "input")
    parser.add_argument("output", metavar="OUTPUT", help="file to write ('-' writes standard output; give --to)")
    parser.add_argument("--to", dest="to_format", metavar="FORMAT",
                        help="output clue format, when OUTPUT's ending does not tell")
    parser.add_argument("-q", "--quiet", action="store_true", help="no note when the solution cannot be kept")
    parser.set_defaults(run=run)
    return parser


def output_format(output: str, name: str | None):
    """The format module for OUTPUT: --to, else the file ending."""
    if name:
        return clues.get_format(name)
    if output != "-":
        try:
            return clues.format_for(output)
        except UnsupportedFormat:
            pass
    what = "writing to standard output" if output == "-" else f"{output}: the file ending does not tell the format; it"
    raise UnsupportedFormat(f"{what} needs --to FORMAT (one of: {', '.join(clues.FORMATS)})")


def run(args: argparse.Namespace) -> int:
    mod = output_format(args.output, args.to_format)
    puzzle = load_puzzle(args, "input")
    try:
        clues.refuse_colour(puzzle, mod)
        data = mod.dumps(puzzle)
    except PuzzleError as exc:
        raise FormatError(f"{args.output}: {exc}") from None
    with atomic_write(args.output, binary=isinstance(data, bytes)) as fh:
        fh.write(data)
    if puzzle.solution is not None and not getattr(mod, "SOLUTION", False) and not args.quiet:
        print(f"nonoqubo: note: the {mod.NAME} format has no place for the known solution; it was left out",
              file=sys.stderr)
    return 0
