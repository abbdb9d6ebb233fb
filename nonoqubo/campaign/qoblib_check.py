"""The QOBLIB nonogram class's solution checker: one instance, one picture, a verdict by exit status.

``nonoqubo suite --layout qoblib`` copies this file, unchanged, to ``check/check_nonogram.py``
of the class it writes, so that anyone can check a solution without nonoqubo: it uses
Python's standard library only (3.8 or newer) and imports nothing of the package.  It is
the program ``misc/check_submission.py --checker-cmd`` runs, as QOBLIB's own checkers
(``07-independentset/check``) are run::

    python check/check_nonogram.py instances/NAME.non SOLUTION

Exit status, as QOBLIB's checkers give it: **0** the picture satisfies every clue
(a valid solution), **1** it does not (each failing line is printed), **2** an error
(a file that cannot be read, or is not an instance or a picture of the grammar below:
the readers raise ``ValueError``, so that the file needs no exception class of its own).

The instance is Steve Simpson's ``.non`` text as the class writes it: ``width W``,
``height H``, ``rows`` then H clue lines, ``columns`` then W clue lines (numbers separated
by commas or blanks; an empty line or ``0`` is an empty clue); other keys (``title``,
``catalogue`` ...) are skipped.  The solution is a plain PBM picture (``P1``, ``#``
comments, width and height, then H x W digits, ``1`` black) or rows of ``#``/``.``
(also ``1``/``0``, ``X``/``-``); blank lines and ``#`` comments before a ``P1`` header
are allowed.  A picture of another size than the instance is not a solution (exit 1).

Examples:
    >>> inst = parse_instance("width 2\\nheight 2\\nrows\\n2\\n1\\ncolumns\\n1\\n2\\n")
    >>> failing_lines(inst, parse_picture("P1\\n2 2\\n1 1\\n0 1\\n"))
    []
    >>> failing_lines(inst, parse_picture("##\\n#.\\n"))
    ['column 1: clue 1, picture 2', 'column 2: clue 2, picture 1']
"""

from __future__ import annotations

import re
import sys
from typing import List, Optional, Sequence, Tuple

#: the keys of a ``.non`` instance that start a block of clue lines
_BLOCKS = {"rows": "rows", "columns": "columns"}


class Instance:
    """A black-and-white nonogram's clues: ``rows[i]`` and ``columns[j]`` are tuples of block lengths."""

    def __init__(self, width: int, height: int, rows: List[Tuple[int, ...]], columns: List[Tuple[int, ...]]):
        self.width, self.height, self.rows, self.columns = width, height, rows, columns


def _clue(text: str, where: str) -> Tuple[int, ...]:
    parts = [p for p in re.split(r"[,\s]+", text.strip()) if p]
    if not all(p.isdigit() for p in parts):
        raise ValueError(f"{where}: a clue line holds numbers only (a colour clue is not checked here): {text!r}")
    return tuple(n for n in (int(p) for p in parts) if n > 0)


def parse_instance(text: str, source: str = "<instance>") -> Instance:
    """The clues of a ``.non`` text.

    Raises:
        ValueError: no width or height, or a block with too few or bad clue lines.
    """
    size = {}
    blocks = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        words = lines[i].split()
        i += 1
        if not words:
            continue
        key = words[0].lower()
        if key in ("width", "height"):
            if len(words) != 2 or not words[1].isdigit():
                raise ValueError(f"{source}:{i}: '{key}' needs one whole number")
            size[key] = int(words[1])
        elif key in _BLOCKS:
            if "width" not in size or "height" not in size:
                raise ValueError(f"{source}:{i}: '{key}' before the width and height")
            count = size["height"] if key == "rows" else size["width"]
            if len(lines) - i < count:
                raise ValueError(f"{source}:{i}: '{key}' needs {count} clue lines, the file ends first")
            blocks[key] = [_clue(lines[i + k], f"{source}:{i + k + 1}") for k in range(count)]
            i += count
    for key in ("width", "height", "rows", "columns"):
        if key not in size and key not in blocks:
            raise ValueError(f"{source}: no '{key}' in the instance")
    return Instance(size["width"], size["height"], blocks["rows"], blocks["columns"])


def parse_picture(text: str, source: str = "<solution>") -> List[List[int]]:
    """The picture (rows of 0/1, 1 black) of a plain PBM or a ``#``/``.`` text.

    Raises:
        ValueError: a PBM whose numbers are not W x H bits, or a text line with other characters.
    """
    if _is_pbm(text):  # in a PBM '#' starts a comment; in a row text it is a black cell
        words = " ".join(line.split("#", 1)[0] for line in text.splitlines()).split()
        if len(words) < 3 or not words[1].isdigit() or not words[2].isdigit():
            raise ValueError(f"{source}: a P1 picture needs its width and height after 'P1'")
        width, height = int(words[1]), int(words[2])
        bits = "".join(words[3:])
        if len(bits) != width * height or set(bits) - {"0", "1"}:
            raise ValueError(f"{source}: a {width}x{height} P1 picture needs {width * height} digits 0/1, "
                             f"found {len(bits)} characters")
        return [[int(b) for b in bits[r * width:(r + 1) * width]] for r in range(height)]
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        cells = line.replace(" ", "").replace("\t", "")
        if not cells or cells.startswith(("//", ";")):
            continue
        if set(cells) - set("#X1.-0"):
            raise ValueError(f"{source}:{number}: a picture row holds '#'/'X'/'1' (black) and '.'/'-'/'0' only")
        rows.append([1 if c in "#X1" else 0 for c in cells])
    if not rows:
        raise ValueError(f"{source}: no picture in the file")
    return rows


def _is_pbm(text: str) -> bool:
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped.startswith("P1")
    return False


def blocks_of(cells: Sequence[int]) -> Tuple[int, ...]:
    """The block lengths of a line of 0/1 cells.

    Examples:
        >>> blocks_of([1, 1, 0, 1, 0])
        (2, 1)
    """
    out, run = [], 0
    for c in cells:
        if c:
            run += 1
        elif run:
            out.append(run)
            run = 0
    if run:
        out.append(run)
    return tuple(out)


def _text(clue: Tuple[int, ...]) -> str:
    return " ".join(map(str, clue)) or "0"


def failing_lines(instance: Instance, picture: List[List[int]]) -> List[str]:
    """One line per row and column whose blocks differ from its clue (empty: the picture is a solution).

    A picture of another size gives one line saying so.
    """
    height, width = len(picture), max((len(r) for r in picture), default=0)
    if height != instance.height or any(len(r) != instance.width for r in picture):
        return [f"the picture is {width}x{height} (width x height), the instance {instance.width}x{instance.height}"]
    out = []
    for i, clue in enumerate(instance.rows):
        got = blocks_of(picture[i])
        if got != clue:
            out.append(f"row {i + 1}: clue {_text(clue)}, picture {_text(got)}")
    for j, clue in enumerate(instance.columns):
        got = blocks_of([picture[i][j] for i in range(height)])
        if got != clue:
            out.append(f"column {j + 1}: clue {_text(clue)}, picture {_text(got)}")
    return out


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8-sig", errors="strict") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as exc:  # UnicodeDecodeError is a ValueError too
        raise ValueError(f"{path}: cannot be read: {getattr(exc, 'strerror', None) or exc}") from None


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``check_nonogram.py INSTANCE SOLUTION``: 0 valid, 1 invalid, 2 error (see the module docstring)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2 or args[0] in ("-h", "--help"):
        print("usage: check_nonogram.py INSTANCE.non SOLUTION (.pbm or #/. rows)\n"
              "exit status: 0 valid solution, 1 not a solution, 2 error", file=sys.stderr)
        return 0 if args[:1] in (["-h"], ["--help"]) else 2
    try:
        instance = parse_instance(_read(args[0]), args[0])
        picture = parse_picture(_read(args[1]), args[1])
    except ValueError as exc:  # the file is not an instance or a picture
        print(f"error: {exc}", file=sys.stderr)
        return 2
    failures = failing_lines(instance, picture)
    if failures:
        print(f"INVALID: {len(failures)} line(s) do not match their clue")
        for line in failures:
            print(f"  {line}")
        return 1
    print(f"VALID: the {instance.width}x{instance.height} picture satisfies all "
          f"{instance.height + instance.width} clues")
    return 0


if __name__ == "__main__":
    sys.exit(main())
