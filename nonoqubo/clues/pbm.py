"""PBM bitmaps (netpbm P1 plain and P4 raw) of the answer: the clues are derived.

Grammar (netpbm ``pbm(5)``)::

    P1 | P4            magic number
    # comment          comments ('#' to end of line) anywhere in the header
    W H                width and height, decimal, separated by white space
    raster             P1: H*W digits '1' (black) / '0' (white), white space
                           optional between them;
                       P4: after exactly one white-space byte, H rows of
                           ceil(W/8) bytes, most significant bit first, 1 = black

Only the first image of a file is read.  The picture is the puzzle's known
solution.  nonoqubo writes P4 (``dumps(p, plain=True)`` gives P1), with the
puzzle's name as a comment; writing needs a known solution.  pbnsolve and
Pierre Dejoue's picross-solver read PBM puzzles (``inputs/raw/*.pbm``).

Examples:
    >>> p = loads(b"P1\\n# tiny\\n3 2\\n0 1 0\\n1 1 1\\n")
    >>> p.rows, p.cols
    (((1,), (3,)), ((1,), (2,), (1,)))
    >>> dumps(p)
    b'P4\\n3 2\\n@\\xe0'
    >>> loads(dumps(p)) == p
    True
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ._defaults import ALIASES, COLOUR, KIND
from ._lines import check_options
from .._util.guard import integer
from .._util.text import head_text
from ..errors import FormatError, located
from ..model.puzzle import Puzzle
from .picture import to_picture

NAME = "pbm"
TITLE = "PBM bitmap of the answer (P1 plain, P4 raw); clues derived"
EXTENSIONS = ("pbm",)
BINARY = True
SOLUTION = True
ORDER = 110
HEURISTIC = False
LEGACY_ENCODING = None

__all__ = ["dumps", "loads"]

_TOKEN = re.compile(rb"\s*(?:#[^\n\r]*[\n\r]\s*)*(\S+)")


def detect(head: bytes) -> bool:
    """True for text starting with the P1 or P4 magic number."""
    text = head_text(head)
    return re.match(r"P[14]\s", text) is not None


def loads(data: bytes, *, source: str = "<string>", **options: Any) -> Puzzle:
    """Read a PBM image (P1 or P4); the puzzle's clues come from it and it is the solution.

    Raises:
        FormatError: a bad magic number, size or raster (too short, or a
            P1 digit other than 0/1); the message names the source and line.
    """
    check_options(options, NAME)
    if isinstance(data, str):
        data = data.encode("latin-1")
    magic = data[:2]
    if magic not in (b"P1", b"P4"):
        raise FormatError(located(source, 1, f"magic number {magic.decode('latin-1')!r}: not a PBM image (P1 or P4)"))
    pos = 2
    size = []
    for what in ("width", "height"):
        m = _TOKEN.match(data, pos)
        line = data.count(b"\n", 0, m.start(1) if m else len(data)) + 1
        if not m:
            raise FormatError(located(source, line, f"the header ends before the {what}"))
        token = m.group(1)
        if not token.isdigit() or integer(token, source, line, what) <= 0:
            raise FormatError(located(source, line, f"{what} {token[:40].decode('latin-1')!r} is not a positive number"))
        size.append(integer(token, source, line, what))
        pos = m.end(1)
    width, height = size
    line = data.count(b"\n", 0, pos) + 1
    if magic == b"P4":
        stride = (width + 7) // 8
        raster = data[pos + 1 : pos + 1 + stride * height]
        if len(raster) < stride * height:
            raise FormatError(located(source, line, f"the raster holds {len(raster)} bytes, {width}x{height} needs {stride * height}"))
        bits = np.unpackbits(np.frombuffer(raster, dtype=np.uint8).reshape(height, stride), axis=1)[:, :width]
        grid = bits.astype(bool)
    else:
        body = re.sub(rb"#[^\n\r]*", b"", data[pos:])
        digits = np.frombuffer(re.sub(rb"\s+", b"", body), dtype=np.uint8)
        bad = np.flatnonzero((digits != ord("0")) & (digits != ord("1")))
        if bad.size and bad[0] < width * height:
            char = chr(digits[bad[0]])
            raise FormatError(located(source, _p1_line(data, pos, int(bad[0])), f"raster: {char!r} is not 0 or 1"))
        if digits.size < width * height:
            raise FormatError(located(source, data.count(b"\n", 0, len(data.rstrip())) + 1,
                                      f"the raster has {digits.size} pixels, {width}x{height} needs {width * height}"))
        grid = (digits[: width * height] == ord("1")).reshape(height, width)
    return Puzzle.from_picture(grid)


def _p1_line(data: bytes, pos: int, nth: int) -> int:
    """The 1-based line of the *nth* raster character of a P1 image starting at *pos*."""
    seen = -1
    for m in re.finditer(rb"\S", re.sub(rb"#[^\n\r]*", lambda c: b" " * len(c.group()), data[pos:])):
        seen += 1
        if seen == nth:
            return data.count(b"\n", 0, pos + m.start()) + 1
    return data.count(b"\n") + 1  # pragma: no cover


def dumps(puzzle: Puzzle, *, plain: bool = False) -> bytes:
    """The known solution as a PBM image: P4, or P1 when *plain*.

    Raises:
        PuzzleError: the puzzle has no known solution.
    """
    rows = to_picture(puzzle, "pbm")
    cells = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8)
    grid = (cells == ord("#")).astype(np.uint8).reshape(puzzle.height, puzzle.width)
    comment = f"# {' '.join(puzzle.name.split())}\n".encode() if puzzle.name else b""
    if plain:
        body = "\n".join(" ".join(row) for row in np.where(grid, "1", "0")) + "\n"
        return b"P1\n" + comment + f"{puzzle.width} {puzzle.height}\n".encode() + body.encode("ascii")
    return b"P4\n" + comment + f"{puzzle.width} {puzzle.height}\n".encode() + np.packbits(grid, axis=1).tobytes()
