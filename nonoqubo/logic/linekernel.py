"""The compiled line solver (numba): :func:`~nonoqubo.logic.linesolve.solve_masks` one line at a time.

This module imports numba at its top; :mod:`nonoqubo.logic.linesolve` imports it only when a line
solve misses its cache (:class:`~nonoqubo.logic.linesolve.LineCache`), and keeps to the NumPy
solver when numba is not installed (``pip install nonoqubo[tempering]`` brings it).  The kernel is
compiled on its first call and cached on disk (``cache=True``), as the samplers' kernels are.

The NumPy solver pays a fixed cost per call (a few milliseconds of array set-up, whatever the
batch); probing and a hard core's repair ask for small batches all the time, so that cost was
most of their time.  The kernel answers the same question exactly, for colour puzzles too, by the
textbook dynamic programme over a line's blocks, in ``O(blocks x cells)`` a line:

* ``pre[k][j]``: blocks ``0 .. k-1`` fit in cells ``0 .. j-1`` (every cell they cover may take its
  block's colour, every other cell there may be background), the last one possibly ending at ``j``;
* ``suf[k][j]``: blocks ``k .. m-1`` fit in cells ``j .. n-1`` likewise, the first possibly at ``j``;
* block ``k`` may start at ``s`` when its cells may take its colour and the blocks before fit to
  its left and the blocks after to its right, with the gaps the clue asks for (one background
  cell between blocks of the same colour, none needed between different colours);
* cell ``j`` may be background when, for some ``k``, blocks ``0 .. k-1`` fit before it and blocks
  ``k .. m-1`` after it.

Both solvers are exact, so they agree bit for bit (``tests/logic/test_linekernel.py`` checks it on
random lines and puzzles, black and white and colour).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["solve_lines_compiled"]


@njit(cache=True, inline="always")
def _fits_left(mask: np.ndarray, colour: np.ndarray, pre: np.ndarray, k: int, s: int) -> bool:  # pragma: no cover
    """Blocks ``0 .. k-1`` fit before block ``k`` starting at ``s`` (a background cell between two blocks
    of one colour)."""
    if k == 0:
        return bool(pre[0, s])
    if colour[k - 1] == colour[k]:
        return s >= 1 and (mask[s - 1] & np.uint64(1)) != 0 and bool(pre[k, s - 1])
    return bool(pre[k, s])


@njit(cache=True, inline="always")
def _fits_right(mask: np.ndarray, colour: np.ndarray, suf: np.ndarray, m: int, k: int,
                e: int) -> bool:  # pragma: no cover
    """Blocks ``k+1 .. m-1`` fit after block ``k`` ending at ``e``."""
    if k == m - 1:
        return bool(suf[m, e])
    if colour[k + 1] == colour[k]:
        return e < mask.size and (mask[e] & np.uint64(1)) != 0 and bool(suf[k + 1, e + 1])
    return bool(suf[k + 1, e])


@njit(cache=True)
def _solve_one(mask: np.ndarray, clue: np.ndarray, colour: np.ndarray, m: int,
               pre: np.ndarray, suf: np.ndarray, out: np.ndarray,
               first: np.ndarray, last: np.ndarray) -> bool:  # pragma: no cover - compiled
    n = mask.size
    one = np.uint64(1)
    # pre[k][j], k = 0..m, j = 0..n
    pre[0, 0] = True
    for j in range(1, n + 1):
        pre[0, j] = pre[0, j - 1] and (mask[j - 1] & one) != 0
    for k in range(1, m + 1):
        r = clue[k - 1]
        bit = one << np.uint64(colour[k - 1])
        pre[k, 0] = False
        run = 0  # cells ending at j-1 that may take the block's colour
        for j in range(1, n + 1):
            run = run + 1 if (mask[j - 1] & bit) != 0 else 0
            ok = pre[k, j - 1] and (mask[j - 1] & one) != 0
            if not ok and run >= r:  # block k-1 ends at j
                ok = _fits_left(mask, colour, pre, k - 1, j - r)
            pre[k, j] = ok
    # suf[k][j], k = 0..m, j = 0..n
    suf[m, n] = True
    for j in range(n - 1, -1, -1):
        suf[m, j] = suf[m, j + 1] and (mask[j] & one) != 0
    for k in range(m - 1, -1, -1):
        r = clue[k]
        bit = one << np.uint64(colour[k])
        suf[k, n] = False
        run = 0  # cells from j on that may take the block's colour
        for j in range(n - 1, -1, -1):
            run = run + 1 if (mask[j] & bit) != 0 else 0
            ok = suf[k, j + 1] and (mask[j] & one) != 0
            if not ok and run >= r:  # block k starts at j
                ok = _fits_right(mask, colour, suf, m, k, j + r)
            suf[k, j] = ok
    if not pre[m, n]:
        return False
    for j in range(n):
        out[j] = 0
    for j in range(n):
        if (mask[j] & one) != 0:
            for k in range(m + 1):
                if pre[k, j] and suf[k, j + 1]:
                    out[j] |= one
                    break
    for k in range(m):
        r = clue[k]
        bit = one << np.uint64(colour[k])
        first[k] = -1
        last[k] = -1
        covered = -1  # cells before it are painted already
        for s in range(0, n - r + 1):
            fits = True
            for j in range(s, s + r):
                if (mask[j] & bit) == 0:
                    fits = False
                    break
            if not fits:
                continue
            e = s + r
            if not _fits_left(mask, colour, pre, k, s) or not _fits_right(mask, colour, suf, m, k, e):
                continue
            if first[k] < 0:
                first[k] = s
            last[k] = s
            for j in range(max(s, covered), e):
                out[j] |= bit
            covered = e
    return True


@njit(cache=True)
def solve_lines_compiled(mask: np.ndarray, clue: np.ndarray, colour: np.ndarray, counts: np.ndarray,
                         out: np.ndarray, ok: np.ndarray, first: np.ndarray,
                         last: np.ndarray) -> None:  # pragma: no cover - compiled
    """:func:`~nonoqubo.logic.linesolve.solve_masks` of a batch of lines (without block bounds),
    into the given arrays.

    Args:
        mask: ``(L, n)`` uint64 colour masks (bit 0 the background).
        clue, colour: ``(L, M)`` int64 block lengths and colours (past a line's clue: anything).
        counts: ``(L,)`` int64 blocks of each line.
        out: ``(L, n)`` uint64: the narrowed masks (a line that does not fit keeps its masks).
        ok: ``(L,)`` bool: the line fits.
        first, last: ``(L, M)`` int64: the first and last feasible start of every block (-1 past a
            line's clue or when the line does not fit).
    """
    n_lines, n = mask.shape
    m_max = clue.shape[1]
    pre = np.zeros((m_max + 1, n + 1), np.bool_)
    suf = np.zeros((m_max + 1, n + 1), np.bool_)
    for i in range(n_lines):
        m = counts[i]
        for k in range(m_max):
            first[i, k] = -1
            last[i, k] = -1
        fits = _solve_one(mask[i], clue[i], colour[i], m, pre, suf, out[i], first[i], last[i])
        ok[i] = fits
        if not fits:
            for j in range(n):
                out[i, j] = mask[i, j]
            for k in range(m_max):
                first[i, k] = -1
                last[i, k] = -1
