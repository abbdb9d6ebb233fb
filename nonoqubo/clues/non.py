"""Steve Simpson's ``.non`` clue format (with the mikix/nonogram-db extensions).

Grammar (one key a line; keys in any order, except that ``width`` and
``height`` come before ``rows``, ``columns`` and ``goal``)::

    catalogue "webpbn.com #1"      optional metadata: catalogue, title, by,
    title "Dancer"                 copyright, license (quotes optional;
    by "Jan Wolter"                HTML entities such as &copy; are decoded)
    width 5
    height 10
    rows                           then exactly `height` clue lines
    2
    2,1                            numbers separated by commas (or spaces)
    0                              an empty line: 0 or a blank line
    columns                        then exactly `width` clue lines
    ...
    goal "0110001101..."           optional solution, row-major, 1 = black

Blank lines between keys and lines with unknown keys are ignored.  A clue
number with a colour letter (``3b,1d``, the coloured extension) makes the
puzzle a colour puzzle, which is refused.  One puzzle a file (the ``====``
bundles of ``.nonpack`` files are not read).  The PyPI package pyNonogram uses
the ``.non`` ending for an unrelated ``key:value`` format; such a file is
refused with a message that says so.

Origin: Steve Simpson's nonogram solver, "Puzzle-file format"
(scc-forge.lancaster.ac.uk/open/nonogram/fmt2); extended by mikix/nonogram-db
``FORMAT.md``.  Read by pbnsolve, nonogrid ("ss"), picross-solver; webpbn
exports it as "ss".

Examples:
    >>> p = loads("width 2\\nheight 2\\nrows\\n2\\n1\\ncolumns\\n1\\n2\\ngoal 1101\\n")
    >>> p.rows, p.cols, p.solution
    (((2,), (1,)), ((1,), (2,)), ('##', '.#'))
    >>> print(dumps(p), end="")
    width 2
    height 2
    <BLANKLINE>
    rows
    2
    1
    <BLANKLINE>
    columns
    1
    2
    <BLANKLINE>
    goal "1101"
"""

from __future__ import annotations

import html
import re
from typing import Any

from ._defaults import BINARY, COLOUR, KIND, LEGACY_ENCODING
from ._lines import clue_text, colour_refusal, make_puzzle, meta_text, option_lines, parse_clue
from .._util.guard import integer
from .._util.text import head_text
from ..errors import FormatError, NonoquboError, located
from ..model.puzzle import Puzzle

NAME = "non"
TITLE = "Steve Simpson .non (keys, rows, columns, optional goal)"
EXTENSIONS = ("non",)
SOLUTION = True
ALIASES = ("simpson", "ss")
ORDER = 40
HEURISTIC = False  # told by its own keywords, not by the shape of the text

__all__ = ["dumps", "loads"]

#: .non key -> Puzzle.meta key ("title" goes to Puzzle.name)
_META = {"by": "author", "copyright": "copyright", "license": "license", "catalogue": "catalogue"}
_COLOUR_TOKEN = re.compile(r"(?<!\d)\d+[A-Za-z]\w*")  # look-behind: linear in a run of digits


def _not_simpson(text: str) -> str:
    """What a ``key:`` file given as ``.non`` is: nonoqubo's YAML clue spec (when it reads as one), or pyNonogram's."""
    from . import spec

    try:
        spec.loads(text, source="<non>")
    except NonoquboError:
        return "this is a pyNonogram 'key:value' file, not Simpson's .non format"
    else:
        return ("this is a YAML clue spec, not Simpson's .non format; name it .yaml "
                "or read it with --from spec")


def detect(head: bytes) -> bool:
    """True for text with ``width N``, ``height N`` and ``rows`` lines."""
    text = head_text(head)
    return all(re.search(p, text, re.M | re.I) for p in (r"^[ \t]*width\s+\d+", r"^[ \t]*height\s+\d+", r"^[ \t]*rows\s*$"))


def _value(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        raw = raw[1:-1]
    return html.unescape(raw)


def loads(text: str, *, source: str = "<string>", **options: Any) -> Puzzle:
    """Read a ``.non`` puzzle (see the module docstring).

    Raises:
        FormatError: a missing or bad size, a missing or non-numeric clue, a
            colour clue, a goal of the wrong length, or clues that do not make
            a puzzle; the message names the source and line.
    """
    lines = option_lines(text, NAME, options)
    size: dict[str, int] = {}
    clues: dict[str, tuple[list[tuple[int, ...]], list[int]]] = {}
    meta: dict[str, Any] = {}
    name = None
    goal: tuple[str, int] | None = None
    idx = 0
    while idx < len(lines):
        line = lines[idx].strip()
        lineno = idx + 1
        idx += 1
        if not line:
            continue
        key, _, rest = line.partition(" ")
        key = key.lower()
        if re.match(r"(rows|columns|width|height)\s*:", line, re.I):
            raise FormatError(located(source, lineno, _not_simpson(text)))
        if key in ("width", "height"):
            if not re.fullmatch(r"\s*\d+\s*", rest) or integer(rest, source, lineno, key) <= 0:
                raise FormatError(located(source, lineno, f"{key} must be a positive number, found {rest.strip()[:40]!r}"))
            size[key] = integer(rest, source, lineno, key)
        elif key in ("rows", "columns"):
            other = "height" if key == "rows" else "width"
            if other not in size:
                raise FormatError(located(source, lineno, f"'{key}' before '{other}' (the size must come first)"))
            if key in clues:
                raise FormatError(located(source, lineno, f"a second '{key}' section"))
            kind = "row" if key == "rows" else "column"
            count = size[other]
            found, where = [], []
            for k in range(count):
                if idx >= len(lines):
                    raise FormatError(located(source, len(lines), f"the file ends after {k} of {count} {kind} clues"))
                body = lines[idx].strip()
                if _COLOUR_TOKEN.search(body):
                    raise colour_refusal(source, idx + 1, f"{kind} {k + 1} has the colour clue {body!r}")
                found.append(parse_clue(body, source, idx + 1, f"{kind} {k + 1}"))
                where.append(idx + 1)
                idx += 1
            clues[key] = (found, where)
        elif key == "goal":
            goal = (rest, lineno)
        elif key == "title":
            name = _value(rest)
        elif key in _META:
            meta[_META[key]] = _value(rest)
    for key in ("width", "height", "rows", "columns"):
        if key not in clues and key not in size:
            raise FormatError(located(source, len(lines) or None, f"the '{key}' key is missing"))
    solution = None
    if goal is not None:
        solution = _goal(goal[0], goal[1], size["width"], size["height"], source)
    return make_puzzle(
        clues["rows"][0], clues["columns"][0], source=source, row_lines=clues["rows"][1],
        col_lines=clues["columns"][1], solution_line=None if goal is None else goal[1],
        name=name, solution=solution, meta=meta,
    )


def _goal(raw: str, lineno: int, width: int, height: int, source: str) -> tuple[str, ...]:
    cells = re.sub(r"\s", "", raw.strip().strip('"'))
    bad = set(cells) - {"0", "1"}
    if bad:
        if any(ch.isalpha() for ch in bad):
            raise colour_refusal(source, lineno, f"the goal uses colour letters {''.join(sorted(bad))!r}")
        raise FormatError(located(source, lineno, f"goal: {''.join(sorted(bad))!r} is not 0 or 1"))
    if len(cells) != width * height:
        raise FormatError(located(source, lineno, f"goal has {len(cells)} cells, width x height is {width * height}"))
    picture = cells.translate(str.maketrans("01", ".#"))
    return tuple(picture[i * width : (i + 1) * width] for i in range(height))


def _quote(value: Any) -> str:
    text = " ".join(str(value).split())
    return '"' + text.replace("&", "&amp;").replace('"', "&quot;") + '"'


def dumps(puzzle: Puzzle) -> str:
    """The puzzle as ``.non`` text: metadata, size, clues (commas), and the goal when known."""
    lines = []
    meta = puzzle.meta
    catalogue = meta.get("catalogue", meta.get("source"))
    if catalogue is not None:
        lines.append(f"catalogue {_quote(meta_text(catalogue))}")
    if puzzle.name:
        lines.append(f"title {_quote(puzzle.name)}")
    for key, field in (("by", "author"), ("copyright", "copyright"), ("license", "license")):
        if field in meta:
            value = meta_text(meta[field])
            bare = key == "license" and re.fullmatch(r"[\w.+-]+", value)  # mikix writes licences bare
            lines.append(f"{key} {value if bare else _quote(value)}")
    lines += [f"width {puzzle.width}", f"height {puzzle.height}", "", "rows"]
    lines += [clue_text(c, ",") for c in puzzle.rows]
    lines += ["", "columns"]
    lines += [clue_text(c, ",") for c in puzzle.cols]
    if puzzle.solution is not None:
        goal = "".join(puzzle.solution).translate(str.maketrans(".#", "01"))
        lines += ["", f'goal "{goal}"']
    return "\n".join(lines) + "\n"
