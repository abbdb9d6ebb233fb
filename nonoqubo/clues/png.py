"""PNG images of the answer: one pixel a cell, the clues derived from the pixels (needs Pillow).

The container is PNG (any mode Pillow reads: palette, greyscale, RGB, RGBA;
transparent pixels count as white); the pixels are read exactly as a PPM's
(:mod:`nonoqubo.clues.ppm`): every distinct colour is a colour of the puzzle,
named by its RGB; the background is the colour of a ``background-rgb`` text
chunk (nonoqubo writes one), else white, else the most frequent colour; an
image with only black and white is a black-and-white puzzle.  The picture
is the puzzle's known solution; writing needs one and gives an 8-bit RGB PNG.

Pillow is an optional dependency: ``pip install "nonoqubo[image]"``.

Examples:
    >>> from nonoqubo.model.puzzle import Palette
    >>> p = Puzzle.from_picture(["rg", ".r"], palette=Palette.of([("red", "f00"), ("green", "0f0")]))
    >>> back = loads(dumps(p))
    >>> back.rows == p.rows and back.row_colours == p.row_colours, back.palette.names
    (True, ('white', 'ff0000', '00ff00'))
"""

from __future__ import annotations

import io
import re
from typing import Any

import numpy as np

from ._defaults import ALIASES, KIND
from ._lines import check_options
from .ppm import background_of, pixels_of, puzzle_of_pixels
from ..errors import FormatError, MissingDependency, located
from ..model.puzzle import Puzzle

NAME = "png"
TITLE = "PNG image of the answer (one pixel a cell); clues derived from the pixels (Pillow)"
EXTENSIONS = ("png",)
BINARY = True
SOLUTION = True
COLOUR = True
ORDER = 130
HEURISTIC = False
LEGACY_ENCODING = None

__all__ = ["dumps", "loads"]

_MAGIC = b"\x89PNG\r\n\x1a\n"


def _pillow() -> Any:
    try:
        from PIL import Image
    except ImportError:
        raise MissingDependency("pillow", "image", "reading or writing PNG images") from None
    return Image


def detect(head: bytes) -> bool:
    """True for the PNG signature."""
    return head.startswith(_MAGIC)


def loads(data: bytes, *, source: str = "<string>", **options: Any) -> Puzzle:
    """Read a PNG image; the puzzle's clues come from its pixels and it is the solution.

    Raises:
        FormatError: not a PNG image Pillow can decode, or an image that makes no puzzle.
        MissingDependency: Pillow is not installed.
    """
    check_options(options, NAME)
    Image = _pillow()
    if isinstance(data, str):
        data = data.encode("latin-1")
    if not data.startswith(_MAGIC):
        raise FormatError(located(source, None, "not a PNG image (no PNG signature)"))
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load()
            rgba = np.asarray(image.convert("RGBA"))
            back = str(image.info.get("background-rgb", "")) or None
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        raise FormatError(located(source, None, f"cannot decode the PNG image: {exc}")) from None
    rgb = np.where(rgba[..., 3:] == 0, np.uint8(255), rgba[..., :3]).astype(np.uint8)
    if back is not None and not re.fullmatch(r"[0-9a-fA-F]{6}", back):
        back = None
    return puzzle_of_pixels(rgb, source, back.lower() if back else None)


def dumps(puzzle: Puzzle) -> bytes:
    """The known solution as an 8-bit RGB PNG.

    Raises:
        PuzzleError: the puzzle has no known solution.
        MissingDependency: Pillow is not installed.
    """
    Image = _pillow()
    from PIL.PngImagePlugin import PngInfo

    rgb = pixels_of(puzzle, NAME)
    info = PngInfo()
    info.add_text("background-rgb", background_of(puzzle))
    buf = io.BytesIO()
    Image.fromarray(rgb, "RGB").save(buf, format="PNG", pnginfo=info)
    return buf.getvalue()
