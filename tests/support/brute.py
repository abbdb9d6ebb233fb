"""Brute-force references: every placement of a clue, every solution of a small puzzle."""

from __future__ import annotations

import itertools

import numpy as np

from nonoqubo.model.puzzle import Puzzle, clue_of_line


def placements(n: int, clue: tuple[int, ...]) -> list[tuple[np.ndarray, tuple[int, ...]]]:
    """Every placement of *clue* in *n* cells, as (cells, starts), by plain recursion."""
    out = []

    def rec(k: int, first_free: int, starts: tuple[int, ...]) -> None:
        if k == len(clue):
            cells = np.zeros(n, np.int8)
            for s, r in zip(starts, clue):
                cells[s : s + r] = 1
            out.append((cells, starts))
            return
        need = sum(clue[k:]) + len(clue) - k - 1
        for s in range(first_free, n - need + 1):
            rec(k + 1, s + clue[k] + 1, starts + (s,))

    rec(0, 0, ())
    return out


def all_solutions(puzzle: Puzzle) -> np.ndarray:
    """Every solution of a small puzzle: every product of row placements, columns checked."""
    per_row = [[c for c, _ in placements(puzzle.width, clue)] for clue in puzzle.rows]
    grids = np.array([np.array(rows) for rows in itertools.product(*per_row)], np.int8)
    keep = [g for g in grids if all(clue_of_line(g[:, j]) == c for j, c in enumerate(puzzle.cols))]
    return np.array(keep)
