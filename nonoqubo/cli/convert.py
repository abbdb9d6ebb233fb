"""``nonoqubo convert``: rewrite a puzzle from one clue format into another."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .. import clues
from .._util.atomic import atomic_write
from ..inputs import load_model
from ..model.puzzle import Puzzle
from ..errors import FormatError, PuzzleError, UnsupportedFormat
from ._common import add_puzzle_arguments, check_output_folder, load_puzzle, say_wrote
from ._options import add

ORDER = 40

HELP = "convert a puzzle between clue formats (webpbn XML, .non, .nin, .mk, .g, .cwd, ...)"
DESCRIPTION = """\
Read INPUT in any clue format and write it to OUTPUT in another.  The formats
are told by the file endings, else by the content (INPUT) or --from/--to.  A
model file nonoqubo wrote gives the clues it carries.  A
known solution travels along when both formats can carry one (spec, xml, non,
picture, pbm); the picture formats need one.  Metadata (title, author,
copyright, ...) is kept where the output format has a place for it.  The clue
spec is written as JSON to a .json file (or with --to json), else as YAML.

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
    add(parser, "quiet", "no 'wrote FILE' line, and no note when the solution cannot be kept")
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
    raise UnsupportedFormat(f"{what} needs --to FORMAT (one of: {', '.join(m.NAME for m in clues.formats())})")


def wants_json(output: str, name: str | None) -> bool:
    """True when the clue spec is to be written as JSON: --to json, else a .json OUTPUT."""
    if name:
        return name.lower() == "json"
    return output != "-" and Path(output).suffix.lower() == ".json"


def spec_as_json(yaml_text: str) -> str:
    """The YAML clue spec (plain data, keys in order) as the same document in JSON, one clue a line."""
    import yaml

    def dump(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    doc = yaml.safe_load(yaml_text)
    parts = []
    for key, value in doc.items():
        if isinstance(value, list) and value:
            items = ",\n".join(f"  {dump(v)}" for v in value)
            parts.append(f" {dump(key)}: [\n{items}\n ]")
        else:
            parts.append(f" {dump(key)}: {dump(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def read_input(args: argparse.Namespace):
    """The puzzle of INPUT: a clue file, else a model file nonoqubo wrote (its clues travel in it)."""
    try:
        return load_puzzle(args, "input")
    except (FormatError, UnsupportedFormat) as clue_error:
        if args.input == "-" or args.from_format or not os.path.isfile(args.input):
            raise
        try:
            model = load_model(args.input)
        except UnsupportedFormat:  # neither a model nor clues: the clue reader's word stands
            raise clue_error from None
        puzzle = getattr(model, "puzzle", None)
        if not isinstance(puzzle, Puzzle):
            raise clue_error from None
        return puzzle


def run(args: argparse.Namespace) -> int:
    mod = output_format(args.output, args.to_format)
    check_output_folder(args.output, args.input)
    puzzle = read_input(args)
    try:
        clues.refuse_colour(puzzle, mod)
        data = mod.dumps(puzzle)
    except PuzzleError as exc:
        raise FormatError(f"{args.output}: {exc}") from None
    if mod.NAME == "spec" and wants_json(args.output, args.to_format):
        data = spec_as_json(data)
    with atomic_write(args.output, binary=isinstance(data, bytes)) as fh:
        fh.write(data)
    if puzzle.solution is not None and not getattr(mod, "SOLUTION", False) and not args.quiet:
        print(f"nonoqubo: note: the {mod.NAME} format has no place for the known solution; it was left out",
              file=sys.stderr)
    say_wrote(args.output, f"{mod.NAME} clues", quiet=args.quiet or args.output == "-")  # '-': the output itself
    return 0
