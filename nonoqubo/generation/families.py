"""Generated puzzle families: random pictures of given sizes and densities, with seeds.

A benchmark needs instances of growing size drawn the same way every time.
A *family* is written as one string (the CLI's ``suite --random``)::

    SIZES:DENSITY:COUNT[:SEED]

    SIZES    WxH, or several separated by commas (10x10,20x20,30x30)
    DENSITY  the probability that a cell is black, 0 < DENSITY < 1
    COUNT    puzzles per size
    SEED     an integer (default 0)

Puzzle ``i`` of size ``WxH`` is drawn from ``numpy.random.default_rng((SEED, W,
H, i))``, so every puzzle can be made on its own (in any worker process, in any
order) and is the same on every run.  With ``unique="cpsat"`` (or ``True``)
pictures are drawn until CP-SAT proves their puzzle has one solution (a search
for two finds one: :func:`nonoqubo.solvers.cpsat.truth`; needs ortools), which
keeps the unique puzzles line logic cannot solve, the hard ones.  Each proof
runs within a time limit (``make(member, time_limit=...)``; ``suite
--truth-time``): a draw whose proof the limit stopped is not proven, so it is
not kept; the next picture is drawn and :func:`draw` counts the skipped ones
(``undecided``: a suite's index records them as ``undecided_draws``).  Such a
family depends on the machine's speed and leans to puzzles CP-SAT proves
within the limit; with no undecided draw it is the same on every machine.
:data:`MAX_UNDECIDED` undecided draws in a row mean the limit is too short
for the size: the member is a :class:`~nonoqubo.errors.TimeLimit`, its
uniqueness ``unknown (time limit)``.  (Few random pictures of density 0.5
and size 30x30 or more are unique, see ``benchmarks/README.md``: such a member
takes many draws.)  With
``unique="line"`` pictures are drawn until their puzzle is *line-solvable*:
line logic alone settles every cell, which proves the solution unique (the
criterion puzzle generators such as Simon Tatham's use; it is stricter than
uniqueness).  With ``unique="hard"`` the member is a
*hard core* (CP-SAT proves it unique and one-cell probing leaves cells open, so neither line
logic nor lookahead settles it and a solver has real search to do), made by *repair* rather than by
drawing: random pictures are almost never hard cores, so the member's random picture is
changed where CP-SAT's two solutions differ until its puzzle is unique, keeping at every step
what one-cell probing cannot settle (:mod:`nonoqubo.generation.repair`).  ``min_open`` (``suite
--min-open``) asks for at least so many cells open after one-cell probing; left out (``None``) it is
:func:`default_min_open`, a quarter of the member's cells (100 at 20x20, 157 at 25x25): a target of one
open cell never steers the repair towards hard pictures, so it wanders, while a quarter of the cells
is a target the repair reaches in seconds to a few minutes a member at 20x20 (``benchmarks/README.md``);
an explicit value wins (0: at least one cell open).  The uniqueness proof
and the repair's steps go in the suite's index (:attr:`Drawn.record`).  A picture that
needs more than :data:`MAX_TRIES` draws (a hard core more than
:data:`~nonoqubo.generation.repair.MAX_STEPS` repair steps) is an error for that puzzle.

Examples:
    >>> fam = parse_family("4x3:0.5:2:7")
    >>> fam.sizes, fam.density, fam.count, fam.seed
    (((4, 3),), 0.5, 2, 7)
    >>> [m.name for m in fam.members()]
    ['random-4x3-d0.5-s7-0001', 'random-4x3-d0.5-s7-0002']
    >>> p = make(fam.members()[0])
    >>> (p.width, p.height) == (4, 3) and p.solution is not None
    True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import NonoquboError, TimeLimit
from ..model.puzzle import Puzzle

__all__ = ["MAX_MEMBERS", "MAX_SEED", "MAX_TRIES", "MAX_UNDECIDED", "Drawn", "Family", "Member", "default_min_open",
           "draw", "make", "parse_family"]

#: draws per puzzle before ``unique=True`` gives up
MAX_TRIES = 1000
#: draws in a row whose CP-SAT proof the time limit stopped before ``unique="cpsat"`` gives up
MAX_UNDECIDED = 10

#: the most puzzles random families may ask for, in one family and in one suite: a suite of 100,000
#: 10x10 models already writes about 4 GB; ``--random 10x10:0.5:1000000000000`` is refused, not started
MAX_MEMBERS = 100_000
#: the largest seed of a family (NumPy's generators take any; 2^64 - 1 keeps names readable)
MAX_SEED = 2**64 - 1
#: the most digits of a width or a height (the memory guard refuses far smaller sizes, by their model)
_SIZE_DIGITS = 6

_SIZE = re.compile(r"^(\d+)x(\d+)$")


def default_min_open(width: int, height: int) -> int:
    """The cells a hard core of ``width x height`` keeps open after one-cell probing when ``--min-open``
    is not given: a quarter of its cells, rounded up (``ceil(W*H/4)``).

    Examples:
        >>> default_min_open(20, 20), default_min_open(25, 25), default_min_open(3, 3)
        (100, 157, 3)
    """
    return (width * height + 3) // 4


@dataclass(frozen=True)
class Member:
    """One puzzle of a family: everything needed to draw it again."""

    width: int
    height: int
    density: float
    seed: int
    number: int  # 1-based within its size
    unique: bool | str = False  # False, "line", "cpsat" or "hard" (True means "cpsat")
    min_open: int = 0  # ``unique="hard"``: at least so many cells open after one-cell probing (0: at least one)

    @property
    def name(self) -> str:
        return f"random-{self.width}x{self.height}-d{self.density:g}-s{self.seed}-{self.number:04d}"

    def fields(self) -> dict[str, Any]:
        """The family fields a suite's index keeps of the member (``family``): what the report groups by."""
        return {"kind": "random", "width": self.width, "height": self.height, "density": self.density,
                "seed": self.seed, "number": self.number}

    @property
    def source(self) -> str:
        more = f", >= {self.min_open} cells open after one-cell probing" \
            if self.min_open and unique_mode(self.unique) == "hard" else ""
        return (f"random {self.width}x{self.height} density {self.density:g} seed {self.seed} "
                f"#{self.number}{_UNIQUE_TEXT[unique_mode(self.unique)]}{more}")


@dataclass(frozen=True)
class Family:
    """A family of random puzzles (see the module docstring)."""

    sizes: tuple[tuple[int, int], ...]
    density: float
    count: int
    seed: int = 0
    unique: bool | str = False
    #: ``unique="hard"``: cells open after one-cell probing; None: :func:`default_min_open` of each size
    min_open: int | None = None

    def members(self) -> list[Member]:
        return [Member(w, h, self.density, self.seed, i + 1, self.unique, self._min_open(w, h))
                for w, h in self.sizes for i in range(self.count)]

    def _min_open(self, width: int, height: int) -> int:
        if unique_mode(self.unique) != "hard":
            return 0
        return default_min_open(width, height) if self.min_open is None else int(self.min_open)


#: what a member's source says of its uniqueness rule
_UNIQUE_TEXT = {None: "", "line": " line-solvable", "cpsat": " unique (CP-SAT)",
                "hard": " unique (CP-SAT), not probe-solvable by one-cell probing"}


def unique_mode(unique: bool | str | None) -> str | None:
    """``None``, ``"line"``, ``"cpsat"`` or ``"hard"`` for a ``unique`` setting (``True`` is ``"cpsat"``).

    Raises:
        NonoquboError: another value.
    """
    if unique is None or unique is False:
        return None
    if unique is True:
        return "cpsat"
    if unique in ("line", "cpsat", "hard"):
        return str(unique)
    raise NonoquboError(f"--unique must be 'cpsat' (proven unique), 'line' (line-solvable) or 'hard' (proven "
                        f"unique and not probe-solvable), not {unique!r}")


def parse_family(text: str, unique: bool | str = False, min_open: int | None = None) -> Family:
    """Read ``SIZES:DENSITY:COUNT[:SEED]``; *min_open*: a hard core's cells open after one-cell probing
    (None: :func:`default_min_open` of each size with ``unique="hard"``; 0: at least one).

    Examples:
        >>> [m.min_open for m in parse_family("20x20,25x25:0.5:1", unique="hard").members()]
        [100, 157]
        >>> [m.min_open for m in parse_family("20x20,25x25:0.5:1", unique="hard", min_open=30).members()]
        [30, 30]
        >>> [m.min_open for m in parse_family("20x20:0.5:1", unique="cpsat").members()]
        [0]

    Raises:
        NonoquboError: the text does not follow the grammar (the message says which part), or
            *min_open* is negative, given without ``unique="hard"`` or above a size's cells.
    """
    parts = text.split(":")
    where = f"--random {text if len(text) <= 60 else text[:57] + '...'!r}"  # a message shows 60 characters
    if len(parts) not in (3, 4):
        raise NonoquboError(f"{where}: expected SIZES:DENSITY:COUNT[:SEED], e.g. 10x10,20x20:0.5:100:1")
    sizes = []
    for item in parts[0].split(","):
        m = _SIZE.match(item.strip().lower())
        if m and max(len(m.group(1).lstrip("0")), len(m.group(2).lstrip("0"))) > _SIZE_DIGITS:
            raise NonoquboError(f"{where}: size {item[:40]!r} is too large (at most {_SIZE_DIGITS} digits; "
                                "the memory guard refuses a model long before)")
        if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
            raise NonoquboError(f"{where}: size {item!r} is not WxH with positive W and H")
        sizes.append((int(m.group(1)), int(m.group(2))))
    try:
        density = float(parts[1])
    except ValueError:
        raise NonoquboError(f"{where}: density {parts[1]!r} is not a number") from None
    if not 0.0 < density < 1.0:
        raise NonoquboError(f"{where}: density {density:g} must lie strictly between 0 and 1")
    numbers = []
    for what, value, most in zip(("count", "seed"), parts[2:], (MAX_MEMBERS, MAX_SEED)):
        digits = value.strip()
        if not (digits.isascii() and digits.isdigit()):
            raise NonoquboError(f"{where}: {what} {value[:40]!r} is not a non-negative integer")
        if len(digits.lstrip("0")) > len(str(most)) or int(digits) > most:  # int() of 5,000 digits is an error
            raise NonoquboError(f"{where}: {what} {digits[:24]}{'...' if len(digits) > 24 else ''} is above "
                                f"{most:,}" + (" (puzzles a family may ask for, over all its sizes)"
                                               if what == "count" else ""))
        numbers.append(int(digits))
    if numbers[0] < 1:
        raise NonoquboError(f"{where}: count must be at least 1")
    if numbers[0] * len(sizes) > MAX_MEMBERS:
        raise NonoquboError(f"{where}: {len(sizes)} sizes of {numbers[0]:,} puzzles are "
                            f"{numbers[0] * len(sizes):,}, above the {MAX_MEMBERS:,} a family may ask for")
    mode = unique_mode(unique)
    if min_open:
        if mode != "hard" or min_open < 0:
            raise NonoquboError(f"--min-open {min_open}: it applies to --unique=hard only, and counts cells (>= 0)")
        small = [f"{w}x{h}" for w, h in sizes if w * h < min_open]
        if small:
            raise NonoquboError(f"{where}: size {small[0]} has fewer than --min-open {min_open} cells")
    kept = (None if min_open is None else int(min_open)) if mode == "hard" else 0
    return Family(tuple(sizes), density, numbers[0], numbers[1] if len(numbers) > 1 else 0,
                  False if mode is None else mode, kept)


@dataclass(frozen=True)
class Drawn:
    """A member's puzzle and how it was drawn (:func:`draw`)."""

    puzzle: Puzzle
    draws: int  # pictures drawn, this one included (``unique="hard"``: CP-SAT counts of the repair)
    undecided: int = 0  # draws skipped because the time limit stopped their proof (``unique="cpsat"``)
    #: ``unique="hard"``: the uniqueness proof and the repair's figures (:meth:`~nonoqubo.generation.repair.Repaired.record`)
    record: dict[str, Any] = field(default_factory=dict)


def make(member: Member, time_limit: float | None = None) -> Puzzle:
    """Draw the puzzle of *member* (the picture becomes its known solution): :func:`draw`'s puzzle."""
    return draw(member, time_limit).puzzle


def draw(member: Member, time_limit: float | None = None, step: Callable[[str], None] | None = None) -> Drawn:
    """Draw the puzzle of *member*, with the count of draws it took.

    Args:
        member: the family member.
        step: ``unique="hard"``: called with a line after every repair step (:func:`~nonoqubo.generation.repair.repair`).
        time_limit: seconds for each CP-SAT proof of ``unique="cpsat"`` (None: no limit).  A draw
            whose proof it stops is skipped (``undecided``); :data:`MAX_UNDECIDED` of them in a row
            end the search.

    Raises:
        NonoquboError: ``unique`` and no such picture in :data:`MAX_TRIES` draws (``"hard"``: no hard
            core in :data:`~nonoqubo.generation.repair.MAX_STEPS` repair steps).
        TimeLimit: ``unique="cpsat"`` and :data:`MAX_UNDECIDED` draws in a row whose proof the time
            limit stopped (uniqueness unknown: the limit is too short for the size).
        MissingDependency: ``unique="cpsat"`` without ortools.
    """
    mode = unique_mode(member.unique)
    if mode == "hard":  # made by repair, not drawn
        from .repair import repair

        core = repair(member.height, member.width, member.density,
                      (member.seed, member.width, member.height, member.number), min_open=member.min_open,
                      time_limit=time_limit, name=member.name, source=member.source, step=step)
        return Drawn(core.puzzle, core.steps, core.undecided, core.record())
    rng = np.random.default_rng((member.seed, member.width, member.height, member.number))
    undecided = in_a_row = 0
    for tries in range(1, MAX_TRIES + 1):
        grid = rng.random((member.height, member.width)) < member.density
        puzzle = Puzzle.from_picture(grid, name=member.name, source=member.source)
        if mode is None:
            return Drawn(puzzle, tries)
        if mode == "line":
            from ..logic.linesolve import line_solve

            if line_solve(puzzle).solved:
                return Drawn(puzzle, tries)
            continue
        from ..solvers.cpsat import UNKNOWN, count_solutions

        try:
            found, exact = count_solutions(puzzle, 2, time_limit=time_limit)
        except TimeLimit:
            found, exact = 0, False
        if (found, exact) == (1, True):
            return Drawn(puzzle, tries, undecided)
        if found >= 2:  # proven not unique
            in_a_row = 0
            continue
        undecided += 1  # neither proven unique nor not: the time limit stopped it; not kept
        in_a_row += 1
        if in_a_row >= MAX_UNDECIDED:
            raise TimeLimit(f"{member.name}: uniqueness {UNKNOWN}: CP-SAT did not finish the proof of "
                            f"{in_a_row} draws in a row within {time_limit:g} s each; none kept "
                            "(raise --truth-time)")
    what = "line-solvable" if mode == "line" else "unique (CP-SAT)"
    skipped = f" ({undecided} of them {UNKNOWN})" if undecided else ""
    raise NonoquboError(f"{member.name}: no {what} picture in {MAX_TRIES} draws{skipped}; "
                        "lower the size or raise the density")
