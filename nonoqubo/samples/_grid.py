"""Pictures as answers: a grid of colour indices -> the assignment of every variable of the model.

A CP solver (MiniZinc with Gecode, CP-SAT) answers with the picture, not with
the QUBO's variables.  :func:`assignments` encodes each picture in the model's
encoding: grid -> block shifts (the puzzle's :class:`~nonoqubo.model.encoding.Layout`)
-> the encoding's own variables (its geometry's ``encode_shifts``).  A line that
matches its clue gives its blocks' shifts exactly (:meth:`Layout.shifts_of_grid`); a line that does not
(an edited answer, the answer of another puzzle) gets the placement of its
clue's blocks nearest to the picture (fewest cells differing), so the decoder
reports the disagreement with the crossing lines instead of refusing the answer.

That is faithful only where every cell of the picture is kept by one of its two lines: a
cell whose row *and* column placements both differ from the picture (a stray black cell in
an otherwise solved picture) would be drawn as neither line printed it, and the decoder
could then call the nearest solution valid.  Such a picture is refused, in one line that
names the first such cell: it cannot be written in the model's variables.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import SampleError
from ..model.encoding import Layout
from ..model.encodings import EncodingLike, encoding_named
from ..model.puzzle import Puzzle

__all__ = ["assignments"]


def assignments(puzzle: Puzzle, grids: Sequence[np.ndarray], source: str,
                encoding: EncodingLike | None = None) -> tuple[np.ndarray, list[str]]:
    """``(bits, labels)``: one row of the full model's variables per picture in *grids*.

    Each picture becomes block shifts (:meth:`Layout.shifts_of_grid`, or the nearest
    shifts for a picture that breaks some lines), then *encoding*'s variables and labels
    (:meth:`~nonoqubo.model.geometry.Geometry.encode_shifts`; None: the default encoding).

    Raises:
        SampleError: a picture of the wrong size, or with a colour the puzzle does not have.
    """
    layout = Layout.of(puzzle)
    geo = encoding_named(encoding).geometry_of(puzzle, layout)
    h, w, top = puzzle.height, puzzle.width, puzzle.num_colours
    out = np.zeros((len(grids), geo.num_vars), np.int8)
    for s, grid in enumerate(grids):
        g = np.asarray(grid)
        if g.ndim != 2 or g.shape != (h, w):
            shape = "x".join(map(str, g.shape)) if g.ndim == 2 else f"{g.ndim}-D"
            raise SampleError(f"{source}: solution {s} is a {shape} picture but the puzzle is {h}x{w}")
        if g.size and (g.min() < 0 or g.max() > top):
            raise SampleError(f"{source}: solution {s} has colour {int(g.max() if g.max() > top else g.min())}; "
                              f"the puzzle's colours are 0..{top}")
        try:
            shifts = layout.shifts_of_grid(g)
        except ValueError:
            shifts = _nearest_shifts(layout, g)
            row_view, col_view = layout.grids(shifts[None, :])
            lost = np.argwhere((row_view[0] != g) & (col_view[0] != g))
            if lost.size:
                i, j = (int(v) + 1 for v in lost[0])
                raise SampleError(
                    f"{source}: solution {s}: the cell in row {i}, column {j} breaks the clues of both its row "
                    f"and its column ({len(lost)} such cell{'s' if len(lost) > 1 else ''}), so the picture "
                    "cannot be written in the model's variables; check it with: nonoqubo check PUZZLE GRID") from None
        out[s] = geo.encode_shifts(shifts)
    return out, geo.labels()


def _nearest_shifts(layout: Layout, grid: np.ndarray) -> np.ndarray:
    """Every block's shift: the placement of each line's clue nearest to the line of *grid*."""
    shifts = np.zeros(layout.num_blocks, np.int64)
    h = layout.height
    for line in range(layout.num_lines):
        lo, hi = int(layout.line_first_block[line]), int(layout.line_first_block[line + 1])
        if lo == hi:
            continue
        cells = grid[line] if line < h else grid[:, line - h]
        starts = _nearest_starts(cells.astype(np.int64), layout.block_length[lo:hi].tolist(),
                                 layout.block_colour[lo:hi].tolist())
        shifts[lo:hi] = np.asarray(starts) - layout.block_start[lo:hi]
    return shifts


def _nearest_starts(cells: np.ndarray, lengths: list[int], colours: list[int]) -> list[int]:
    """The start of every block, placed in order with the clue's gaps, that differs from *cells* in the fewest cells."""
    n, m = cells.size, len(lengths)
    background = np.concatenate(([0], np.cumsum(cells != 0)))  # cells[:i] not background
    same = {c: np.concatenate(([0], np.cumsum(cells == c))) for c in set(colours)}
    inf = n + 1
    cost = [[inf] * (n + 1) for _ in range(m)]  # cost[k][s]: blocks 0..k placed, block k at s
    back = [[-1] * (n + 1) for _ in range(m)]
    for k in range(m):
        length, colour = lengths[k], colours[k]
        gap = 0 if k == 0 else lengths[k - 1] + (colours[k - 1] == colour)
        best, arg = inf, -1  # min over the previous block's start p <= s - gap of cost - background[p + length']
        p = 0
        for s in range(n - length + 1):
            if k:
                while p <= s - gap:
                    v = cost[k - 1][p] - background[p + lengths[k - 1]] if cost[k - 1][p] < inf else inf
                    if v < best:
                        best, arg = v, p
                    p += 1
                if arg < 0:
                    continue
                before = best + background[s]
            else:
                before = background[s]
            cost[k][s] = before + length - (same[colour][s + length] - same[colour][s])
            back[k][s] = arg
    total = [cost[m - 1][s] + background[n] - background[s + lengths[-1]] if cost[m - 1][s] < inf else inf
             for s in range(n + 1)]
    s = int(np.argmin(total))
    starts = [s]
    for k in range(m - 1, 0, -1):
        s = back[k][s]
        starts.append(s)
    return starts[::-1]
