"""PPM colour images (netpbm P3 plain and P6 raw) of the answer: the clues are derived from the pixels.

Grammar (netpbm ``ppm(5)``)::

    P3 | P6            magic number
    # comment          comments ('#' to end of line) anywhere in the header
    W H                width and height, decimal, separated by white space
    MAXVAL             largest sample value, 1 .. 65535
    raster             P3: H*W triples of decimal samples (red green blue);
                       P6: after exactly one white-space byte, H*W triples of
                           bytes (two bytes each, most significant first, when
                           MAXVAL > 255)

One pixel is one cell.  Samples are scaled to 0 .. 255; every distinct colour
is a colour of the puzzle, named by its RGB (``ff0000``; ``000000`` is
``black``).  The background is the colour a ``# background RRGGBB`` header
comment names (nonoqubo writes one), else white (``ffffff``) when the image
has white, else the most frequent colour.  Block colours are in order of first
appearance (rows top to bottom).  An image with only black and white is a
black-and-white puzzle.  Only the first image of a file is read.  The picture
is the puzzle's known solution; writing needs one, and a colour without RGB is
drawn in a fixed fallback colour.  nonoqubo writes P6 with the puzzle's name as
a comment.

:func:`puzzle_of_pixels` and :func:`pixels_of` are shared with the PNG
format, which differs only in its container.

Examples:
    >>> p = loads(b"P3\\n4 1\\n255\\n255 0 0  0 0 255  255 255 255  0 0 255\\n")
    >>> p.palette.names, p.rows, p.row_colours
    (('white', 'ff0000', '0000ff'), ((1, 1, 1),), ((1, 2, 2),))
    >>> loads(dumps(p)) == p
    True
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ._defaults import ALIASES, KIND
from ._lines import check_options
from .._util.guard import claimed, integer
from ..errors import FormatError, PuzzleError, located
from ..model.palette import Palette
from ..model.puzzle import Puzzle

NAME = "ppm"
TITLE = "PPM colour image of the answer (P3 plain, P6 raw); clues derived from the pixels"
EXTENSIONS = ("ppm",)
BINARY = True
SOLUTION = True
COLOUR = True
ORDER = 120
HEURISTIC = False
LEGACY_ENCODING = None

__all__ = ["background_of", "dumps", "loads", "pixels_of", "puzzle_of_pixels"]

_TOKEN = re.compile(rb"\s*(?:#[^\n\r]*[\n\r]\s*)*(\S+)")
_BACKGROUND = re.compile(rb"#\s*background\s+#?([0-9A-Fa-f]{6})\b")
#: RGB of colours that come without one (distinct hues, then greys)
FALLBACK = ("e6194b", "3cb44b", "4363d8", "f58231", "911eb4", "42d4f4", "f032e6", "bfef45",
            "fabed4", "469990", "dcbeff", "9a6324", "fffac8", "800000", "aaffc3", "808000")
_NAMES = {"000000": "black", "ffffff": "white"}


def detect(head: bytes) -> bool:
    """True for a P3 or P6 magic number followed by white space."""
    return re.match(rb"P[36]\s", head[:3]) is not None


def puzzle_of_pixels(rgb: np.ndarray, source: str = "<image>", background: str | None = None) -> Puzzle:
    """The puzzle whose answer is the ``(height, width, 3)`` uint8 image *rgb*.

    Args:
        rgb: the image.
        source: the file name for messages.
        background: the background's RGB as six hex digits, when the file says
            (nonoqubo's own images do); else white if present, else the most
            frequent colour.

    Raises:
        FormatError: an empty image, or more than 63 colours besides the background
            (the message names *source*).
    """
    if rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.shape[0] == 0 or rgb.shape[1] == 0:
        raise FormatError(located(source, None, f"an image must be a non-empty height x width x 3 array, "
                                  f"got shape {rgb.shape}"))
    packed = (rgb[..., 0].astype(np.int64) << 16) | (rgb[..., 1].astype(np.int64) << 8) | rgb[..., 2]
    values, first, inverse, counts = np.unique(packed.ravel(), return_index=True, return_inverse=True,
                                               return_counts=True)
    wanted = 0xFFFFFF if background is None else int(background, 16)
    found = np.flatnonzero(values == wanted)
    back = int(found[0]) if found.size else -1 if background is not None else int(np.argmax(counts))
    order = [int(v) for v in np.argsort(first, kind="stable") if v != back]
    if len(order) > 63:
        raise FormatError(located(source, None, f"the image has {len(order)} colours besides the background; "
                                  "at most 63 are read"))
    hexes = [f"{int(v):06x}" for v in values]
    back_hex = hexes[back] if back >= 0 else f"{wanted:06x}"
    palette = Palette.of([(_NAMES.get(hexes[v], hexes[v]), hexes[v]) for v in order] or [("black", "000000")],
                         (_NAMES.get(back_hex, back_hex), back_hex))
    index = np.zeros(values.size, np.int8)
    index[order] = np.arange(1, len(order) + 1)
    grid = index[inverse].reshape(packed.shape)
    return Puzzle.from_picture(grid, palette=palette)


def background_of(puzzle: Puzzle) -> str:
    """The RGB nonoqubo writes for *puzzle*'s background (six hex digits)."""
    return puzzle.palette.background.rgb or "ffffff"


def pixels_of(puzzle: Puzzle, format_name: str) -> np.ndarray:
    """The ``(height, width, 3)`` uint8 image of *puzzle*'s known solution.

    Raises:
        PuzzleError: the puzzle has no known solution.
    """
    grid = puzzle.solution_grid()
    if grid is None:
        raise PuzzleError(
            f"the {format_name} format is a picture of the answer, and this puzzle has no known "
            "solution (write it in a clue format instead, or solve it first)")
    colours = (puzzle.palette.background, *puzzle.palette.colours)
    rgbs = [background_of(puzzle)] + [c.rgb or FALLBACK[k % len(FALLBACK)] for k, c in enumerate(colours[1:])]
    table = np.array([[int(h[t:t + 2], 16) for t in (0, 2, 4)] for h in rgbs], np.uint8)
    return table[grid]


def loads(data: bytes, *, source: str = "<string>", **options: Any) -> Puzzle:
    """Read a PPM image; the puzzle's clues come from it and it is the solution.

    Raises:
        FormatError: not a PPM file, a bad header, a short raster, or a sample
            above MAXVAL; the message names the source.
    """
    check_options(options, NAME)
    if isinstance(data, str):
        data = data.encode("latin-1")
    pos = 0
    header = []
    for what in ("magic number", "width", "height", "maxval"):
        m = _TOKEN.match(data, pos)
        if m is None:
            raise FormatError(located(source, None, f"the PPM header ends before its {what}"))
        header.append(m.group(1))
        pos = m.end()
    magic = header[0]
    if magic not in (b"P3", b"P6"):
        raise FormatError(located(source, 1, f"not a PPM image: magic number {magic[:8]!r}, expected P3 or P6"))
    try:
        width, height, maxval = (int(v) for v in header[1:])
    except ValueError:
        raise FormatError(located(source, None, "the PPM width, height and maxval must be numbers")) from None
    if width <= 0 or height <= 0 or not 0 < maxval < 65536:
        raise FormatError(located(source, None, f"bad PPM size {width}x{height} or maxval {maxval}"))
    count = claimed(width * height * 3, len(data), source, None, "samples")  # before any split or allocation
    if magic == b"P6":
        size = 2 if maxval > 255 else 1
        raster = data[pos + 1:pos + 1 + count * size]
        if len(raster) < count * size:
            raise FormatError(located(source, None, f"the raster has {len(raster)} bytes, {width}x{height} "
                                      f"pixels need {count * size}"))
        samples = np.frombuffer(raster, ">u2" if size == 2 else np.uint8).astype(np.int64)
    else:
        tokens = data[pos:].split(maxsplit=count)[:count]
        if len(tokens) < count or not all(t.isdigit() for t in tokens):
            raise FormatError(located(source, None, f"the plain raster needs {count} numbers "
                                      f"({width}x{height} pixels, 3 samples each)"))
        samples = np.array([integer(t, source, None, "sample") for t in tokens], np.int64)
    if samples.max(initial=0) > maxval:
        raise FormatError(located(source, None, f"a sample exceeds maxval {maxval}"))
    rgb = (samples * 255 // maxval).astype(np.uint8).reshape(height, width, 3)
    m = _BACKGROUND.search(data, 0, pos)
    return puzzle_of_pixels(rgb, source, m.group(1).decode("ascii").lower() if m else None)


def dumps(puzzle: Puzzle) -> bytes:
    """The known solution as a P6 image (8-bit samples).

    Raises:
        PuzzleError: the puzzle has no known solution.
    """
    rgb = pixels_of(puzzle, NAME)
    name = f"# {' '.join(puzzle.name.split())}\n".encode("utf-8") if puzzle.name else b""
    return (b"P6\n" + name + f"# background {background_of(puzzle)}\n{puzzle.width} {puzzle.height}\n255\n".encode("ascii")
            + rgb.tobytes())
