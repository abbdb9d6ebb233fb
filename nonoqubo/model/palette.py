"""The colours of a puzzle: the background, the block colours, their RGB and picture characters.

A :class:`Palette` is index-based: colour 0 is the background, colour ``c``
(1-based) is ``colours[c - 1]``; a grid of colour indices is what every part
of nonoqubo passes around (0/1 in black and white, which is the palette
:data:`BW`: black blocks on white).  Each colour has a name (what clue files
write: ``red``, ``a00CDFF``), its RGB if the source gave one (six lowercase
hex digits), and one picture character, distinct within the palette, for the
text pictures of the answer (the background's is always ``.``).

Examples:
    >>> p = Palette.of(["red", ("blue", "#00f")])
    >>> p.names, p.chars, p.colours[1].rgb
    (('white', 'red', 'blue'), ('.', 'r', 'b'), '0000ff')
    >>> p.grid(["rb.", ".r."]).tolist()
    [[1, 2, 0], [0, 1, 0]]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import PuzzleError

__all__ = ["BLACK_CHARS", "BW", "NOT_BLACK_OR_WHITE", "WHITE_CHARS", "Colour", "Palette", "normalise_rgb"]

#: characters accepted as black and as white in a picture of the answer
BLACK_CHARS = frozenset("#X1xB@■█*")
WHITE_CHARS = frozenset(".0-_ ·□")
#: what a character of a black-and-white picture must be
NOT_BLACK_OR_WHITE = (f"neither black ({' '.join(sorted(BLACK_CHARS))}) nor white ({' '.join(sorted(WHITE_CHARS - {' '}))} "
           "or a space)")
#: picture characters handed out to colours that bring none of their own
_SPARE_CHARS = "abcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNOPQRSTUVWYZ23456789%&+=?$"


# -- the palette ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Colour:
    """One colour: its name, its RGB as six lowercase hex digits (if known), its picture character."""

    name: str
    rgb: str | None = None
    char: str = "?"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        if self.rgb is not None:
            out["rgb"] = self.rgb
        out["char"] = self.char
        return out


def normalise_rgb(value: Any) -> str | None:
    """``"#F00"``, ``"ff0000"``, ``"FF0000"`` -> ``"ff0000"``; None stays None.

    Raises:
        PuzzleError: not 3 or 6 hex digits.

    Examples:
        >>> normalise_rgb("#F80"), normalise_rgb("00CDFF")
        ('ff8800', '00cdff')
    """
    if value is None:
        return None
    text = str(value).strip().lstrip("#").lower()
    if not re.fullmatch(r"[0-9a-f]{3}|[0-9a-f]{6}", text):
        raise PuzzleError(f"colour value {value!r} is not an RGB hex triple like 'ff0000'")
    return "".join(ch * 2 for ch in text) if len(text) == 3 else text


@dataclass(frozen=True)
class Palette:
    """The background and the block colours of a puzzle.

    Colour index 0 is the background; block colour ``c`` (1-based) is
    ``colours[c - 1]``.  Every colour has a distinct picture character.

    Examples:
        >>> BW.names, BW.chars
        (('white', 'black'), ('.', '#'))
        >>> Palette.of(["red", ("blue", "00f")]).colours[1]
        Colour(name='blue', rgb='0000ff', char='b')
    """

    background: Colour
    colours: tuple[Colour, ...]

    def __post_init__(self) -> None:
        names = [c.name for c in (self.background, *self.colours)]
        dup = next((n for k, n in enumerate(names) if n in names[:k]), None)
        if dup is not None:
            raise PuzzleError(f"the palette names the colour {dup!r} twice")
        if not self.colours:
            raise PuzzleError("the palette has no block colour")

    @classmethod
    def of(cls, colours: Iterable[Any], background: Any = "white") -> Palette:
        """A palette from names, ``(name, rgb)`` / ``(name, rgb, char)`` tuples, mappings or Colours.

        Picture characters: the one given, else ``#`` for black, else the
        name's first letter, else a spare letter; the background gets ``.``
        unless it brings its own.  Duplicates are resolved in order.
        """
        def make(item: Any) -> Colour:
            if isinstance(item, Colour):
                return item
            if isinstance(item, str):
                return Colour(item, None, "")
            if isinstance(item, Mapping):
                return Colour(str(item["name"]), normalise_rgb(item.get("rgb")), str(item.get("char") or ""))
            parts = list(item)
            return Colour(str(parts[0]), normalise_rgb(parts[1] if len(parts) > 1 else None),
                          str(parts[2]) if len(parts) > 2 and parts[2] else "")

        back = make(background)
        items = [make(c) for c in colours]
        taken = {"."}  # the background's character in every picture

        def pick(c: Colour) -> Colour:
            wanted = [c.char] if len(c.char) == 1 and c.char not in " \t" and not c.char.isdigit() else []
            if c.name.lower() == "black":
                wanted.append("#")
            wanted += [c.name[:1].lower()] if c.name[:1].isalpha() else []
            ch = next(x for x in (*wanted, *_SPARE_CHARS) if x not in taken)
            taken.add(ch)
            return Colour(c.name, c.rgb, ch)

        back = Colour(back.name, back.rgb, ".")
        items = [pick(c) for c in items]
        rgb_of = {"white": "ffffff", "black": "000000"}
        if back.rgb is None and back.name in rgb_of:
            back = Colour(back.name, rgb_of[back.name], back.char)
        items = [Colour(c.name, rgb_of[c.name], c.char) if c.rgb is None and c.name in rgb_of else c
                 for c in items]
        return cls(back, tuple(items))

    # -- views ------------------------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        """Every colour's name, background first (index = colour index)."""
        return (self.background.name, *(c.name for c in self.colours))

    @property
    def chars(self) -> tuple[str, ...]:
        """Every colour's picture character, background first."""
        return (self.background.char, *(c.char for c in self.colours))

    def __len__(self) -> int:
        return 1 + len(self.colours)

    def legend(self) -> str:
        """One line naming each picture character's colour, background first.

        Examples:
            >>> print(Palette.of([("red", "f00"), "blue"]).legend())
            . white (ffffff), r red (ff0000), b blue
        """
        items = [self.background, *self.colours]
        return ", ".join(f"{c.char} {c.name}" + (f" ({c.rgb})" if c.rgb and c.rgb != c.name else "")
                         for c in items)

    def index(self, token: Any, what: str) -> int:
        """The 1-based index of block colour *token* (a name, a picture character or an index).

        Raises:
            PuzzleError: an unknown colour, or the background used as a block colour.
        """
        if isinstance(token, (int, np.integer)) and not isinstance(token, bool):
            if 1 <= int(token) <= len(self.colours):
                return int(token)
            raise PuzzleError(f"{what}: colour number {token} is not 1..{len(self.colours)}")
        name = str(token)
        if name in (self.background.name, self.background.char):
            raise PuzzleError(f"{what}: the background colour {name!r} cannot colour a block")
        for k, c in enumerate(self.colours, start=1):
            if name == c.name:
                return k
        for k, c in enumerate(self.colours, start=1):
            if name == c.char:
                return k
        known = ", ".join(repr(c.name) for c in self.colours)
        raise PuzzleError(f"{what}: unknown colour {name!r} (the palette has {known})")

    def grid(self, picture: Sequence[str]) -> np.ndarray:
        """An int8 grid of colour indices from rows of picture characters.

        For the black-and-white palette every character of :data:`BLACK_CHARS`
        / :data:`WHITE_CHARS` is accepted too.

        Raises:
            PuzzleError: ragged rows or a character that is no colour's.
        """
        rows = [str(r).rstrip("\r\n") for r in picture]
        if not rows:
            raise PuzzleError("the picture has no rows")
        table = {ch: k for k, ch in enumerate(self.chars)}
        if len(self.colours) == 1:
            table.update({ch: 1 for ch in BLACK_CHARS if ch not in table})
            table.update({ch: 0 for ch in WHITE_CHARS if ch not in table})
        width = len(rows[0])
        for i, text in enumerate(rows):
            if len(text) != width:
                raise PuzzleError(f"picture row {i + 1} has {len(text)} cells, row 1 has {width}")
        # every cell's code point looked up in the sorted table, in one pass
        codes = np.frombuffer("".join(rows).encode("utf-32-le", "surrogatepass"), np.uint32)
        keys = np.array(sorted(map(ord, table)), np.uint32)
        values = np.array([table[chr(k)] for k in keys.tolist()], np.int8)
        at = np.minimum(np.searchsorted(keys, codes), keys.size - 1)
        bad = np.flatnonzero(keys[at] != codes)
        if bad.size:
            i, j = divmod(int(bad[0]), width)
            known = (NOT_BLACK_OR_WHITE if len(self.colours) == 1 else
                     f"no colour's character (the palette's are {' '.join(repr(c) for c in self.chars)})")
            raise PuzzleError(f"picture row {i + 1}, column {j + 1}: {rows[i][j]!r} is {known}")
        return values[at].reshape(len(rows), width)

    def picture(self, grid: np.ndarray) -> tuple[str, ...]:
        """Rows of picture characters from a grid of colour indices."""
        table = np.array(self.chars)
        return tuple("".join(row) for row in table[np.asarray(grid, dtype=np.int64)])

    def to_dict(self) -> dict[str, Any]:
        return {"background": self.background.to_dict(), "colours": [c.to_dict() for c in self.colours]}


#: the black-and-white palette: white background, one block colour, black
BW = Palette(Colour("white", "ffffff", "."), (Colour("black", "000000", "#"),))
