"""Brute-force references, the one place the tests enumerate everything.

Two kinds of "everything", both small enough to list in full and both built as
NumPy arrays in one step (no Python loop per row):

* every **assignment** of ``n`` variables (:func:`all_assignments`, :func:`all_spins`),
  what a test feeds to ``Qubo.energy`` to find *all* zero-energy states;
* every **solution** of a small puzzle, black-and-white or colour
  (:func:`all_solutions`), computed from the clues alone, without the model
  under test: every product of row placements, kept when each column's cells are
  one of that column's placements.  :func:`all_pictures` is the blunter road
  (every grid of cell values), for a test that wants a second, independent one.

Line placements (:func:`placements`, :func:`colour_placements`) are plain recursion
over block starts, the definition itself: block ``k+1`` starts at least one cell
after block ``k`` ends when both have the same colour, right after it otherwise.

Examples:
    >>> all_assignments(2).tolist()
    [[0, 0], [0, 1], [1, 0], [1, 1]]
    >>> all_spins(1).tolist()
    [[-1], [1]]
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> all_solutions(Puzzle(rows=[[1], [1]], cols=[[1], [1]])).tolist()
    [[[1, 0], [0, 1]], [[0, 1], [1, 0]]]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from nonoqubo.model.puzzle import Puzzle

__all__ = ["all_assignments", "all_pictures", "all_solutions", "all_spins", "colour_placements", "placements"]

#: the most rows any enumeration here builds (2**24 assignments: 400 MB as int8 at n = 24)
MAX_ROWS = 1 << 24


def all_assignments(n: int, values: int = 2) -> np.ndarray:
    """Every vector of *n* digits in ``0..values-1``, one a row: shape ``(values**n, n)``, int8.

    Rows come in :func:`itertools.product` order (the first variable is the most
    significant digit); ``n == 0`` gives the one empty assignment, shape ``(1, 0)``.

    Raises:
        ValueError: more than :data:`MAX_ROWS` rows (a test that meant a small model).
    """
    if n < 0 or values < 1:
        raise ValueError(f"all_assignments({n}, {values}): need n >= 0 and values >= 1")
    count = values**n
    if count > MAX_ROWS:
        raise ValueError(f"all_assignments({n}, {values}): {count:,} rows is more than a brute force should list")
    place = values ** np.arange(n - 1, -1, -1, dtype=np.int64)
    return ((np.arange(count, dtype=np.int64)[:, None] // place) % values).astype(np.int8)


def all_spins(n: int) -> np.ndarray:
    """Every state of *n* spins (-1/+1), one a row, in :func:`all_assignments` order."""
    return (2 * all_assignments(n) - 1).astype(np.int8)


def all_pictures(height: int, width: int, colours: int = 1) -> np.ndarray:
    """Every grid of cell values ``0..colours`` (0 is blank): shape ``((colours+1)**(h*w), h, w)``."""
    return all_assignments(height * width, colours + 1).reshape(-1, height, width)


def colour_placements(n: int, lengths: Sequence[int],
                      colours: Sequence[int]) -> list[tuple[np.ndarray, tuple[int, ...]]]:
    """Every placement of a clue (block *lengths*, block *colours*) in *n* cells, as (cells, starts).

    ``cells`` holds each cell's colour (0 blank), int8; ``starts`` each block's first cell.
    The empty clue has one placement, the blank line.
    """
    lengths, colours = tuple(lengths), tuple(colours)
    out: list[tuple[np.ndarray, tuple[int, ...]]] = []

    def rec(k: int, first_free: int, starts: tuple[int, ...]) -> None:
        if k == len(lengths):
            cells = np.zeros(n, np.int8)
            for s, r, c in zip(starts, lengths, colours):
                cells[s : s + r] = c
            out.append((cells, starts))
            return
        for s in range(first_free, n - lengths[k] + 1):
            gap = int(k + 1 < len(lengths) and colours[k + 1] == colours[k])
            rec(k + 1, s + lengths[k] + gap, starts + (s,))

    rec(0, 0, ())
    return out


def placements(n: int, clue: tuple[int, ...]) -> list[tuple[np.ndarray, tuple[int, ...]]]:
    """Every placement of a black-and-white *clue* in *n* cells, as (cells, starts)."""
    return colour_placements(n, clue, [1] * len(clue))


def _line_codes(lines: np.ndarray, base: int) -> np.ndarray:
    """Each line (the last axis) as one integer, its cells the digits in *base*."""
    return lines.astype(np.int64) @ (base ** np.arange(lines.shape[-1], dtype=np.int64))


def all_solutions(puzzle: Puzzle) -> np.ndarray:
    """Every solution of a small puzzle, shape ``(count, height, width)``, int8 cell colours (0 blank).

    Black-and-white and colour alike: every product of row placements (in
    :func:`itertools.product` order of each row's placements), kept when every
    column is one of its own placements; the columns are compared as integer
    codes, all grids at once.
    """
    h, w, base = puzzle.height, puzzle.width, puzzle.num_colours + 1
    rows = [np.array([c for c, _ in colour_placements(w, lengths, colours)], np.int8).reshape(-1, w)
            for lengths, colours in zip(puzzle.rows, puzzle.row_colours)]  # type: ignore[arg-type]
    count = int(np.prod([len(r) for r in rows], dtype=np.int64))
    if count > MAX_ROWS:
        raise ValueError(f"all_solutions: {count:,} row combinations is more than a brute force should list")
    choice = np.indices([len(r) for r in rows]).reshape(h, -1).T  # one row per combination
    grids = np.stack([rows[i][choice[:, i]] for i in range(h)], axis=1) if count else np.zeros((0, h, w), np.int8)
    columns = _line_codes(np.swapaxes(grids, 1, 2), base)  # (count, width)
    keep = np.ones(len(grids), bool)
    for j, (lengths, colours) in enumerate(zip(puzzle.cols, puzzle.col_colours)):  # type: ignore[arg-type]
        allowed = _line_codes(np.array([c for c, _ in colour_placements(h, lengths, colours)], np.int8), base)
        keep &= np.isin(columns[:, j], allowed)
    return grids[keep]
