"""``nonoqubo formats``: every clue format and every QUBO file format, with extensions, and the encodings."""

from __future__ import annotations

import argparse
import json

from .. import clues, exports
from ..model.encodings import DEFAULT, encodings
from ._options import add

ORDER = 30

HELP = "list the clue formats nonoqubo reads and the QUBO formats it writes"
DESCRIPTION = """\
List every format: the clue formats PUZZLE may be in (--from NAME) and the
QUBO file formats 'build' writes (-f NAME, or by the output's extension); then
the encodings a QUBO may be built in (--encoding NAME).

example:
  nonoqubo formats
"""


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser("formats", help=HELP, description=DESCRIPTION,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    add(parser, "json", "the list")
    parser.set_defaults(run=run)
    return parser


def _clue_formats() -> list[dict]:
    return [{"name": m.NAME, "extensions": list(m.EXTENSIONS), "title": m.TITLE, "colour": m.COLOUR}
            for m in clues.formats()]


def _qubo_formats() -> list[dict]:
    return [{"name": m.NAME, "extensions": list(m.EXTENSIONS), "title": m.TITLE, "kind": m.KIND, "ising": m.ISING,
             "binary": m.BINARY} for m in exports.formats()]


def _encodings() -> list[dict]:
    return [{"name": e.name, "title": e.title, "default": e is DEFAULT, "colour": e.colour,
             "constrained": e.constrained} for e in encodings()]


def run(args: argparse.Namespace) -> int:
    clue, qubo, encs = _clue_formats(), _qubo_formats(), _encodings()
    if args.json:
        print(json.dumps({"clue_formats": clue, "qubo_formats": qubo, "encodings": encs}, indent=2))
        return 0
    print("clue formats (PUZZLE; --from NAME; c = colour puzzles too, else black and white only):")
    _table(clue)
    print()
    print("QUBO formats (build -o OUT; -f NAME; * = can carry --ising, + = constrained model):")
    _table(qubo)
    print()
    print("encodings (build, info, solve, suite --encoding NAME; the first is the default):")
    for e in encs:
        print(f"  {e['name']:<{max(len(x['name']) for x in encs)}}  {e['title']}")
    return 0


def _table(rows: list[dict]) -> None:
    if not rows:
        return
    exts = [" ".join("." + e for e in r["extensions"]) for r in rows]
    marks = ["c" if r.get("colour") else "*" if r.get("ising") else ("+" if r.get("kind") == "constrained" else " ")
             for r in rows]
    w1 = max(len(r["name"]) for r in rows)
    w2 = max(len(e) for e in exts)
    for r, e, m in zip(rows, exts, marks):
        print(f"  {r['name']:<{w1}} {m} {e:<{w2}}  {r['title']}")
