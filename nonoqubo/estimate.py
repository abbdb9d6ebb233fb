"""How big a puzzle's model will be, from its clues alone, before anything is built.

A 3000 x 3000 puzzle or a spec with ten million rows reads in seconds but builds for minutes
and may need more memory than the machine has.  :func:`estimate` answers from the clues, in
time proportional to the lines and cells (far below the build's cost):

* **variables** exactly: a line with ``m`` blocks and margin ``d`` has ``m * d``;
* **terms** as an upper bound: ``Σ linear + wall shape + block order`` is at most ``3`` per
  variable, and the cell penalty ``(R - C)²`` of a cell touched by ``a_r`` row and ``a_c``
  column variables adds at most ``a_r(a_r - 1)/2 + a_c(a_c - 1)/2 + a_r a_c`` pairs.  The
  touch counts come from one difference array per direction; a variable ``w[k][p]`` touches
  the two cells ``e_k + p`` and ``e_k + r_k + p``.  On the puzzles of ``tests/data`` the bound
  is 1.05-2 times the real count (merged and cancelled terms make the difference).  Past
  :data:`EXACT_CELLS` cells a cruder per-line bound is used instead.
* **bytes**: :data:`BYTES_PER_TERM` per term, the build's measured peak (int64 row, column
  and value plus the sort that merges like terms).

:func:`check_fits` turns the estimate into a refusal, naming the figures and ``--force``,
when it exceeds the memory this machine has available.

Examples:
    >>> from nonoqubo.puzzle import Puzzle
    >>> e = estimate(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> e.variables, e.terms >= 4
    (4, True)
"""

from __future__ import annotations

import os
from typing import NamedTuple

import numpy as np

from .encoding import Layout
from .errors import NonoquboError
from .puzzle import Puzzle

__all__ = ["BYTES_PER_TERM", "Estimate", "ModelTooLarge", "available_memory", "check_fits", "estimate"]

#: peak bytes of the build per term (measured: the 512x512 cauldron, 48M terms, peaks at 2.4 GB)
BYTES_PER_TERM = 64
#: largest grid whose cells are counted one by one (8 bytes a cell, briefly)
EXACT_CELLS = 20_000_000
#: terms past which the estimate is worth printing before the build
LONG_WORK_TERMS = 5_000_000


class Estimate(NamedTuple):
    """The predicted size of a puzzle's QUBO."""

    variables: int
    terms: int  # an upper bound
    bytes: int

    def __str__(self) -> str:
        return (f"{self.variables:,} variables, up to {self.terms:,} terms, "
                f"about {_size(self.bytes)} of memory to build")


class ModelTooLarge(NonoquboError, MemoryError):
    """The model of a puzzle would not fit this machine's memory."""


def estimate(puzzle: Puzzle, layout: Layout | None = None) -> Estimate:
    """The model's size from *puzzle*'s clues (see the module docstring)."""
    lay = layout or Layout.of(puzzle)
    variables = lay.num_vars
    if puzzle.height * puzzle.width <= EXACT_CELLS:
        a_r = _touches(lay, 0, puzzle.height, puzzle.width)
        a_c = _touches(lay, puzzle.height, puzzle.width, puzzle.height).T
        cells = (a_r * (a_r - 1) // 2 + a_c * (a_c - 1) // 2 + a_r * a_c).sum()
    else:
        m = np.diff(lay.line_first_block)
        d = lay.line_margin
        cells = (m * d * 4 * np.minimum(m, d + 1)).sum()
    terms = 3 * variables + int(cells)
    return Estimate(variables, terms, terms * BYTES_PER_TERM)


def _touches(lay: Layout, first_line: int, count: int, length: int) -> np.ndarray:
    """``(count, length)`` number of variables touching each cell of lines ``first_line ...``."""
    blocks = (lay.block_line >= first_line) & (lay.block_line < first_line + count) & (lay.block_margin > 0)
    line = lay.block_line[blocks] - first_line
    e, r, d = lay.block_start[blocks], lay.block_length[blocks], lay.block_margin[blocks]
    base = line * (length + 1)
    at = np.concatenate((base + e, base + e + d, base + e + r, base + e + r + d))
    step = np.concatenate((np.ones(e.size), -np.ones(e.size), np.ones(e.size), -np.ones(e.size)))
    diff = np.bincount(at, weights=step, minlength=count * (length + 1))
    return np.cumsum(diff).astype(np.int64).reshape(count, length + 1)[:, :length]


def available_memory() -> int | None:
    """Bytes of memory available now (``MemAvailable``), or None where that cannot be told."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return None


def check_fits(puzzle: Puzzle, source: str, *, force: bool = False, memory: int | None = None) -> Estimate:
    """The estimate of *puzzle*'s model; refused when it would not fit in *memory*.

    Args:
        puzzle: the clues.
        source: the file they came from, for the message.
        force: build anyway (the estimate is still returned).
        memory: bytes available (default: :func:`available_memory`).

    Raises:
        ModelTooLarge: the estimated build memory exceeds *memory* and not *force*.
    """
    est = estimate(puzzle)
    limit = available_memory() if memory is None else memory
    if not force and limit is not None and est.bytes > limit:
        raise ModelTooLarge(
            f"{source}: the {puzzle.width}x{puzzle.height} puzzle's model would have {est}, more than the "
            f"{_size(limit)} of memory available; add --force to build it anyway")
    return est


def _size(n: int) -> str:
    value = float(n)
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if value < 1024 or unit == "TB":
            return f"{value:,.0f} {unit}" if unit == "bytes" else f"{value:,.1f} {unit}"
        value /= 1024
    return f"{value:.1f} TB"  # pragma: no cover
