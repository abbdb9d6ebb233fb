"""nonoqubo's YAML/JSON clue spec (``schemas/puzzle.schema.json``).

Grammar (a YAML or JSON mapping)::

    name: Dancer              # optional
    width: 5                  # optional; checked against the clues
    height: 10                # optional; checked against the clues
    source: webpbn.com #1     # optional, kept
    rows:                     # one clue per row, top to bottom
      - [2]
      - [2, 1]
      - []                    # an empty row ([0] means the same)
    cols:                     # alias: columns
      - [2, 1]
    solution:                 # optional known answer, rows of '#'/'.'
      - ".##.."

A clue may also be written as a string of numbers (``"2 1"`` or ``"2,1"``) or
as a bare number (``3``).

Colour puzzles add a palette and give each block a colour::

    background: white         # optional: a name or {name, rgb, char}; default white
    colours:                  # the block colours (alias: colors), in order
      - {name: red, rgb: "ff0000", char: r}    # rgb and char optional
      - blue                                   # a bare name
    rows:
      - [[3, red], [1, blue]] # a block is [length, colour]; colour = name or char
      - "3r 1blue"            # compact: each number followed by a colour char or name
      - [2, [1, blue]]        # a bare number takes the first colour
    solution:
      - "rrr.b"               # one picture char a cell ('.' the background)

A colour a clue names must be in ``colours`` (a spec that names colours and
has no ``colours`` list is an error), and the background colours no block.
Other keys (author, license, ...) are kept in ``Puzzle.meta``.  YAML is read with ``yaml.safe_load`` only.  The shared puzzle
files (``puzzles/json/*.json``) are valid specs.

Examples:
    >>> loads("rows: [[1], [1]]\\ncols: [[2]]").cols
    ((2,),)
    >>> print(dumps(loads('{"rows": [[1]], "cols": [[1]]}')), end="")
    width: 1
    height: 1
    rows:
    - [1]
    cols:
    - [1]
    >>> c = loads("colours: [red, blue]\\nrows: ['1r 1b']\\ncols: [[[1, red]], '1blue']")
    >>> c.row_colours, c.col_colours
    (((1, 2),), ((1,), (2,)))
"""

from __future__ import annotations

import json
import re
from typing import Any

from .._util.guard import MAX_DIGITS, json_loads, yaml_load
from .._util.text import head_text
from ..errors import FormatError, PuzzleError, located
from ..model.palette import BW, Palette
from ..model.puzzle import Puzzle
from ._defaults import BINARY, KIND, LEGACY_ENCODING
from ._lines import META_KEYS

NAME = "spec"
TITLE = "nonoqubo clue spec, YAML or JSON (rows, cols, optional name/width/height/solution)"
EXTENSIONS = ("yaml", "yml", "json")
SOLUTION = True  # can the format carry a known solution?
COLOUR = True  # can the format carry a colour puzzle?
ALIASES = ("yaml", "yml", "json")
ORDER = 10
HEURISTIC = False  # told by its own keywords, not by the shape of the text

__all__ = ["dumps", "from_dict", "loads"]

_KNOWN = {"rows", "cols", "columns", "name", "width", "height", "source", "solution", "background", "colours", "colors"}
_TOKEN = re.compile(r"(\d+)(\D\S*)?")


def detect(head: bytes) -> bool:
    """True for a mapping with ``rows:`` and ``cols:``/``columns:`` keys."""
    text = head_text(head)
    return bool(re.search(r"^[ \t]*[\"']?rows[\"']?\s*:", text, re.M)) and bool(
        re.search(r"^[ \t]*[\"']?(cols|columns)[\"']?\s*:", text, re.M)
    ) or (text.lstrip().startswith("{") and '"rows"' in text)


def _clue(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, bool):
        raise PuzzleError(f"{where}: {value!r} is not a clue")
    if isinstance(value, int):
        return [value]
    if isinstance(value, str):
        parts = [p for p in re.split(r"[\s,]+", value.strip()) if p]
        out: list[Any] = []
        for part in parts:
            m = _TOKEN.fullmatch(part)
            if m is None or len(m.group(1)) > MAX_DIGITS:
                raise PuzzleError(f"{where}: {value[:60]!r} is not a list of block lengths")
            out.append(int(m.group(1)) if m.group(2) is None else [int(m.group(1)), m.group(2)])
        return out
    if isinstance(value, list):
        return value
    raise PuzzleError(f"{where}: {value!r} is not a clue (a list of block lengths)")


def from_dict(doc: Any, *, source: str = "<spec>", text: str | None = None) -> Puzzle:
    """The puzzle of a parsed spec document.

    Raises:
        FormatError: a missing key, a wrong type or invalid clues; the message
            names the key path (``rows[3][1]``) and, when *text* is given, its line.
    """

    def fail(path: list[Any], message: str, name_path: bool = True) -> FormatError:
        line = _line_of(text, path) if text is not None and path else None
        key = _path_text(path) if name_path else ""
        return FormatError(located(source, line, f"{key}: {message}" if key else message))

    if not isinstance(doc, dict):
        raise fail([], f"expected a mapping with 'rows' and 'cols', found {type(doc).__name__}")
    if "cols" in doc and "columns" in doc:
        raise fail(["columns"], "give either 'cols' or 'columns', not both")
    col_key = "cols" if "cols" in doc else "columns"
    if "rows" not in doc and "settings" in doc:  # a campaign plan (campaign/plan.py's KEYS) read as a puzzle
        raise fail([], "this is a campaign plan (it has 'settings' and no 'rows'), not a puzzle: "
                       f"'nonoqubo run {source}' runs it")
    for key in ("rows", col_key):
        if key not in doc:
            raise fail([], f"the '{key if key == 'rows' else 'cols'}' key is missing")
        if not isinstance(doc[key], list):
            raise fail([key], f"expected a list of clues, found {type(doc[key]).__name__}")
    clues: dict[str, list[list[Any]]] = {}
    for key, kind in (("rows", "row"), (col_key, "column")):
        out = []
        for idx, value in enumerate(doc[key]):
            try:
                out.append(_clue(value, f"{kind} {idx + 1}"))
            except PuzzleError as exc:
                raise fail([key, idx], str(exc), name_path=False) from None
        clues[key] = out
    for key, size, kind in (("width", len(clues[col_key]), "columns"), ("height", len(clues["rows"]), "rows")):
        if key in doc and doc[key] != size:
            raise fail([key], f"{doc[key]!r} but there are {size} {kind}")
    meta = {k: v for k, v in doc.items() if k not in _KNOWN}
    if "source" in doc:
        meta["source"] = doc["source"]
    for key in ("name", *META_KEYS):  # the fields other formats write: plain text, never a structure's repr
        value = doc.get(key)
        if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
            value = ", ".join(map(str, value))
            if key != "name":
                meta[key] = value
        if value is not None and not isinstance(value, (str, int, float)):
            raise fail([key], f"expected text, found a {type(value).__name__}")
    name = doc.get("name")
    if isinstance(name, list):
        name = ", ".join(map(str, name))
    palette = _palette(doc, clues, col_key, fail)
    try:
        return Puzzle(rows=tuple(map(tuple, clues["rows"])), cols=tuple(map(tuple, clues[col_key])), name=None if name is None else str(name),
                      solution=doc.get("solution"), meta=meta, palette=palette)
    except PuzzleError as exc:
        # the message already says "row 3, block 2"; find that clue's line
        raise fail(_path_of_error(str(exc), col_key), str(exc), name_path=False) from None


def _palette(doc: dict[str, Any], clues: dict[str, list[list[Any]]], col_key: str, fail: Any) -> Palette:
    """The palette the spec declares (black on white when it declares none and names no colour)."""
    if "colours" in doc and "colors" in doc:
        raise fail(["colors"], "give either 'colours' or 'colors', not both")
    key = "colours" if "colours" in doc else "colors"
    if key not in doc:
        for ckey, kind in (("rows", "row"), (col_key, "column")):
            for idx, clue in enumerate(clues[ckey]):
                for b, item in enumerate(clue, start=1):
                    if isinstance(item, (list, tuple)) and len(item) == 2 and item[1] not in BW.names + BW.chars:
                        raise fail([ckey, idx], f"{kind} {idx + 1}, block {b}: colour {item[1]!r} is used but the "
                                   "spec has no 'colours' palette", name_path=False)
        if "background" not in doc:
            return BW
    items = doc.get(key, ["black"])
    if not isinstance(items, list) or not items:
        raise fail([key], "expected a non-empty list of colours (names or {name, rgb, char})")
    for idx, item in enumerate([*items, doc.get("background", "white")]):
        ok = isinstance(item, str) or (isinstance(item, dict) and isinstance(item.get("name"), str)
                                       and set(item) <= {"name", "rgb", "char"})
        if not ok:
            where = [key, idx] if idx < len(items) else ["background"]
            raise fail(where, f"{item!r} is not a colour (a name, or a mapping with name and optional rgb, char)")
    try:
        return Palette.of(items, doc.get("background", "white"))
    except PuzzleError as exc:
        raise fail([key], str(exc)) from None


def loads(text: str, *, source: str = "<string>", **options: Any) -> Puzzle:
    """Read a clue spec from YAML or JSON text."""
    if options:
        raise TypeError(f"unexpected options for the spec format: {', '.join(options)}")
    if not text.strip():
        raise FormatError(f"{source}: the file is empty")
    if text.lstrip().startswith(("{", "[")):
        doc = json_loads(text, source)
    else:
        doc = yaml_load(text, source)
    return from_dict(doc, source=source, text=text)


def dumps(puzzle: Puzzle) -> str:
    """The puzzle as a YAML clue spec (clues in flow style, one a line)."""
    lines = []
    if puzzle.name is not None:
        lines.append(f"name: {json.dumps(puzzle.name, ensure_ascii=False)}")
    lines.append(f"width: {puzzle.width}")
    lines.append(f"height: {puzzle.height}")
    for key, value in puzzle.meta.items():
        if key in _KNOWN - {"source"} or not isinstance(value, (str, int, float, bool)):
            continue
        lines.append(f"{key}: {json.dumps(value, ensure_ascii=False)}")
    pal = puzzle.palette
    names = pal.names
    if pal != BW:
        lines.append(f"background: {_flow(pal.background.to_dict())}")
        lines.append("colours:")
        lines.extend(f"- {_flow(c.to_dict())}" for c in pal.colours)
    for key, clues, colours in (("rows", puzzle.rows, puzzle.row_colours), ("cols", puzzle.cols, puzzle.col_colours)):
        lines.append(f"{key}:")
        if pal == BW:
            lines.extend(f"- [{', '.join(map(str, c))}]" for c in clues)
        else:
            lines.extend("- [" + ", ".join(f"[{v}, {json.dumps(names[k], ensure_ascii=False)}]" for v, k in zip(c, cc)) + "]"
                         for c, cc in zip(clues, colours))  # type: ignore[arg-type]
    if puzzle.solution is not None:
        lines.append("solution:")
        lines.extend(f'- "{row}"' for row in puzzle.solution)
    return "\n".join(lines) + "\n"


def _flow(mapping: dict[str, Any]) -> str:
    """A mapping in YAML flow style with JSON-quoted values: ``{name: "red", char: "r"}``."""
    return "{" + ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in mapping.items()) + "}"


# -- locating errors -------------------------------------------------------------------
def _path_text(path: list[Any]) -> str:
    out = ""
    for part in path:
        out += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _path_of_error(message: str, col_key: str) -> list[Any]:
    m = re.match(r"(row|column) (\d+)", message)
    if not m:
        return []
    return ["rows" if m.group(1) == "row" else col_key, int(m.group(2)) - 1]


def _line_of(text: str, path: list[Any]) -> int | None:
    """1-based line of the node at *path* in YAML/JSON *text*, or None."""
    import yaml

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    line = None
    for part in path:
        if node is None:
            break
        line = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if k.value == part), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
        else:
            node = None
    if node is not None:
        line = node.start_mark.line + 1
    return line
