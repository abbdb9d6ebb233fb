"""How big a puzzle's model will be, from its clues alone, before anything is built.

A 3000 x 3000 puzzle reads in seconds but builds for minutes and may need more memory than
the machine has.  :func:`estimate` answers from the clues, in time and memory proportional to
the variables (far below the build's cost, which grows with the terms):

* **variables** exactly: a line with ``m`` blocks and margin ``d`` has ``m * d``;
* **terms** as an upper bound: ``Σ linear + wall shape + block order`` is at most ``3`` per
  variable, and the cell penalty ``(R - C)²`` of a cell touched by ``a_r`` row and ``a_c``
  column variables adds at most ``a_r(a_r - 1)/2 + a_c(a_c - 1)/2 + a_r a_c`` pairs.  A
  variable ``w[k][p]`` touches the two cells ``e_k + p`` and ``e_k + r_k + p`` of its line, so
  the touch counts are the multiplicities of 2 x variables cell numbers (one sort), and only
  touched cells are ever counted.  On the puzzles of ``tests/data`` the bound is 1.05-2 times
  the real count (merged and cancelled terms make the difference).  Past
  :data:`EXACT_VARIABLES` a per-line bound is used, so that the estimate of an absurd puzzle
  (10^6 rows and columns of ``[1]`` is a 4 MB file and 2 x 10^12 variables) costs no more than
  reading its clues.
* the **one-hot** model (``encoding="one-hot"``, :mod:`nonoqubo.model.onehot`) has ``m (d + 1)``
  variables a line and O(d^2) order terms per pair of blocks: its variables and terms are counted
  **exactly** (:func:`~nonoqubo.model.build_onehot.count_onehot_terms`: the builder's segments
  and cell entries, counted without being filled, in time proportional to the variables times
  the blocks they meet); past :data:`EXACT_VARIABLES`, a per-line bound.
* **bytes**: :data:`BYTES_PER_TERM` per term, the measured peak of a build followed by a write
  (the model itself is 9 bytes a term: int32 row and column, int8 bias; writers widen a slice
  at a time), or more for the formats that declare a larger ``WRITE_BYTES_PER_TERM`` (their
  writers hold the whole file or a second model in memory); the caller, which knows the format
  modules, passes the largest of them (this layer imports no format).

:func:`check_fits` turns the estimate into a refusal (:class:`~nonoqubo.errors.ModelTooLarge`,
defined in :mod:`nonoqubo.errors` and importable from here), naming the figures and ``--force``,
when it exceeds the memory this machine has available.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> e = estimate(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> e.variables, e.terms >= 4
    (4, True)
"""

from __future__ import annotations

import os
import zipfile
from typing import NamedTuple

import numpy as np

from .encoding import Layout
from ..errors import ModelTooLarge  # defined in errors.py; importable from here as before
from .puzzle import Puzzle
from .weights import Weights

__all__ = ["BYTES_PER_TERM", "READ_BYTES_PER_FILE_BYTE", "Estimate", "ModelTooLarge",
           "available_memory", "check_file_fits", "check_fits", "check_random_fits", "estimate", "estimate_random"]

#: peak bytes per term of a build and a write (peak RSS of ``nonoqubo build -o`` on the 512x512
#: cauldron, 48 M terms, 2026-11-30: `info` 1.00 GB, .coo 0.73, .csv 1.06, .qubo.json 1.11, .bqm 1.36,
#: .qplib 1.41, .npz 1.78 GB, the largest of the QUBO formats but OMMX: 37 bytes a term)
BYTES_PER_TERM = 40
#: the formats that need more declare it as their ``WRITE_BYTES_PER_TERM`` (bytes per QUBO term, measured
#: the same way: .lp .mps .ommx on the cauldron, .cqm and the constrained .ommx on the random 100x100)
#: variables up to which the touch counts are exact (about 40 bytes a variable, briefly); past it, a
#: cruder bound from each line's blocks and margin (``4 m d min(m, d + 1)`` cell pairs) in O(lines)
EXACT_VARIABLES = 30_000_000
#: peak bytes of memory per byte of a model file while it is read (``info`` on the qubo-json of a
#: random 100x100, 55 MB, 2026-12-01: 0.45 GB peak RSS, 8 bytes a byte; more for files that pack
#: their numbers tighter, so with room); a compressed file counts its uncompressed size
READ_BYTES_PER_FILE_BYTE = 10
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


def estimate(puzzle: Puzzle, layout: Layout | None = None, encoding: str = "domain-wall",
             weights: Weights | None = None) -> Estimate:
    """The model's size from *puzzle*'s clues (see the module docstring), in *encoding*.

    Examples:
        >>> from nonoqubo.model.build import build
        >>> p = Puzzle.from_picture(["#.#", ".##", "#.."])
        >>> estimate(p, encoding="one-hot").terms == build(p, encoding="one-hot").num_terms
        True
    """
    lay = layout or Layout.of(puzzle)
    if encoding == "one-hot":
        return _estimate_onehot(puzzle, lay, weights)
    variables = lay.num_vars
    if variables > EXACT_VARIABLES:  # per-variable arrays would be big themselves: a per-line bound
        m = np.diff(lay.line_first_block).astype(np.float64)
        d = lay.line_margin.astype(np.float64)
        terms = int((m * d * (3 + 4 * np.minimum(m, d + 1))).sum())
        return Estimate(variables, terms, terms * BYTES_PER_TERM)
    block = lay.var_block
    line = lay.block_line[block]
    first = lay.block_start[block] + lay.var_p  # the cell e_k + p; the other is r_k further
    cells = np.concatenate((first, first + lay.block_length[block]))
    line = np.concatenate((line, line))
    row = line < puzzle.height
    w = puzzle.width  # cell number i * width + j, from the row (i = line) or the column (j = line - H)
    at_row, at_col = line[row] * w + cells[row], cells[~row] * w + (line[~row] - puzzle.height)
    if puzzle.width * puzzle.height <= 8 * cells.size + 1_000_000:  # a count per cell: no sort
        a_r = np.bincount(at_row, minlength=puzzle.width * puzzle.height)
        a_c = np.bincount(at_col, minlength=puzzle.width * puzzle.height)
        cross = int(a_r @ a_c)
    else:  # far more cells than touches (long empty lines): count the touched cells only
        rows, a_r = np.unique(at_row, return_counts=True)
        cols, a_c = np.unique(at_col, return_counts=True)
        _, at_r, at_c = np.intersect1d(rows, cols, assume_unique=True, return_indices=True)
        cross = int(a_r[at_r] @ a_c[at_c])
    pairs = (a_r * (a_r - 1) // 2).sum() + (a_c * (a_c - 1) // 2).sum() + cross
    terms = 3 * variables + int(pairs)
    return Estimate(variables, terms, terms * BYTES_PER_TERM)


def _estimate_onehot(puzzle: Puzzle, lay: Layout, weights: Weights | None) -> Estimate:
    """The one-hot model's exact size (a per-line bound past :data:`EXACT_VARIABLES`)."""
    from .build_onehot import count_onehot_terms
    from .onehot import OneHot

    m = np.diff(lay.line_first_block).astype(np.float64)
    d1 = np.where(lay.line_margin > 0, lay.line_margin + 1, 0).astype(np.float64)
    variables = int((m * d1).sum())
    if variables > EXACT_VARIABLES:
        # a variable meets at most every shift of its line's blocks, and in each of the cells it
        # covers (at most the line's length) every variable of the crossing line
        length = lay.line_length.astype(np.float64)
        per_line = m * d1
        most_cross = float(per_line.max(initial=0.0))
        terms = int((per_line * (1 + m * d1 + length * most_cross)).sum())
        return Estimate(variables, terms, terms * BYTES_PER_TERM)
    n, linear, quadratic = count_onehot_terms(puzzle, lay, Weights.of(weights), OneHot(lay))
    return Estimate(n, linear + quadratic, (linear + quadratic) * BYTES_PER_TERM)


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


def check_fits(puzzle: Puzzle, source: str, *, force: bool = False, memory: int | None = None,
               write_bytes_per_term: int = 0, encoding: str = "domain-wall") -> Estimate:
    """The estimate of *puzzle*'s model; refused when it would not fit in *memory*.

    Args:
        puzzle: the clues.
        source: the file they came from, for the message.
        force: build anyway (the estimate is still returned).
        memory: bytes available (default: :func:`available_memory`).
        write_bytes_per_term: the largest ``WRITE_BYTES_PER_TERM`` of the formats it will be
            written in (0: none needs more than the build).
        encoding: the model's encoding (``"domain-wall"`` or ``"one-hot"``).

    Raises:
        ModelTooLarge: the estimated build memory exceeds *memory* and not *force*.
    """
    est = _per_term(estimate(puzzle, encoding=encoding), write_bytes_per_term)
    _refuse(est.bytes, memory, force,
            f"{source}: the {puzzle.width}x{puzzle.height} puzzle's model would have {est}", "build it")
    return est


def estimate_random(width: int, height: int, density: float, encoding: str = "domain-wall") -> Estimate:
    """The expected model size of a random *width* x *height* picture (cells black with *density*).

    From the sizes alone, before any picture is drawn: a line of ``L`` cells has on average
    ``m = p + (L - 1) p (1 - p)`` blocks and margin ``d = L - L p - (m - 1)``, so about ``m d``
    variables, each touching two of its cells; the cell pairs follow as in :func:`estimate` with
    the touches spread evenly. The bytes add the picture itself (a byte a cell).

    Examples:
        >>> e = estimate_random(100, 100, 0.5)  # the real 100x100 at 0.5 (seed 1): 127,877 and 3,701,722
        >>> 120_000 < e.variables < 140_000 and 3_000_000 < e.terms < 4_500_000
        True
    """
    p = float(density)
    variables = 0.0
    pairs = 0.0
    touch = {}
    if encoding == "one-hot":
        return _estimate_random_onehot(width, height, p)
    for length, lines in ((width, height), (height, width)):
        m = p + (length - 1) * p * (1 - p)
        d = max(0.0, length - length * p - (m - 1))
        per_line = m * d
        variables += per_line * lines
        touch[length] = 2 * per_line / max(1, length)  # touches a cell gets from its row (or column)
    a_r, a_c = touch[width], touch[height]
    cells = float(width) * float(height)
    pairs = cells * (a_r * max(0.0, a_r - 1) / 2 + a_c * max(0.0, a_c - 1) / 2 + a_r * a_c)
    terms = 3 * variables + pairs
    return Estimate(int(variables), int(terms), int(terms * BYTES_PER_TERM + cells))


def _estimate_random_onehot(width: int, height: int, p: float) -> Estimate:
    """:func:`estimate_random` of the one-hot model: ``m (d + 1)`` variables a line, each meeting about
    ``1.3 (d + 1)`` of its line's (its own block's other shifts, the next block's earlier ones, overlaps) and, in
    each of the ``r`` cells it covers, the column variables that cover that cell."""
    variables = 0.0
    views = []  # (variables, d + 1, block length, variables covering a cell) of the rows, then the columns
    for length, lines in ((width, height), (height, width)):
        m = p + (length - 1) * p * (1 - p)
        d = max(0.0, length - length * p - (m - 1))
        r = length * p / max(m, 1e-9)
        per_line = m * (d + 1) if d > 0 else 0.0
        variables += per_line * lines
        views.append((per_line * lines, d + 1, r, per_line * r / max(1, length)))
    in_line = sum(n * (1.3 * d1 + 1) for n, d1, _, _ in views)  # 1.3: the farther overlaps
    cross = views[0][0] * views[0][2] * views[1][3]
    terms = in_line + cross
    cells = float(width) * float(height)
    return Estimate(int(variables), int(terms), int(terms * BYTES_PER_TERM + cells))


def check_random_fits(width: int, height: int, density: float, source: str, *, force: bool = False,
                      memory: int | None = None, write_bytes_per_term: int = 0,
                      encoding: str = "domain-wall") -> Estimate:
    """:func:`estimate_random`, refused as :func:`check_fits` refuses (before any picture is drawn).

    Raises:
        ModelTooLarge: the expected build memory exceeds *memory* and not *force*.
    """
    est = _per_term(estimate_random(width, height, density, encoding), write_bytes_per_term)
    est = est._replace(bytes=max(est.bytes, int(float(width) * float(height))))
    _refuse(est.bytes, memory, force,
            f"{source}: a random {width}x{height} puzzle's model would have about {est}", "build it")
    return est


def check_file_fits(path: str, *, force: bool = False, memory: int | None = None) -> int:
    """The bytes reading the model file *path* takes (:data:`READ_BYTES_PER_FILE_BYTE` a byte); refused
    when more than *memory*, from the file's size alone, before it is read.

    A zip archive (``.npz``) counts the uncompressed size of its members.

    Raises:
        ModelTooLarge: the estimate exceeds *memory* and not *force*.
        OSError: the file cannot be read.
    """
    size = os.path.getsize(path)
    if size > 4 and zipfile.is_zipfile(path):
        try:
            with zipfile.ZipFile(path) as archive:
                size = max(size, sum(info.file_size for info in archive.infolist()))
        except (zipfile.BadZipFile, OSError, ValueError):
            pass
    need = size * READ_BYTES_PER_FILE_BYTE
    _refuse(need, memory, force,
            f"{path}: reading the {_size(size)} model file would take about {_size(need)} of memory", "read it")
    return need


def _per_term(est: Estimate, write_bytes_per_term: int) -> Estimate:
    per_term = max(BYTES_PER_TERM, write_bytes_per_term)
    return est if per_term == BYTES_PER_TERM else est._replace(bytes=int(est.terms * per_term))


def _refuse(need: int, memory: int | None, force: bool, what: str, verb: str) -> None:
    limit = available_memory() if memory is None else memory
    if not force and limit is not None and need > limit:
        raise ModelTooLarge(f"{what}, more than the {_size(limit)} of memory available; add --force to {verb} anyway")


def _size(n: int) -> str:
    value = float(n)
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if value < 1024 or unit == "TB":
            return f"{value:,.0f} {unit}" if unit == "bytes" else f"{value:,.1f} {unit}"
        value /= 1024
    return f"{value:.1f} TB"  # pragma: no cover
