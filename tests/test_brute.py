"""tests/support/brute.py, the one brute-force enumerator, against the blunter roads it replaced.

Every brute-force test of the package rests on it, so it is checked here the
slow way: solutions against every picture filtered by ``Puzzle.mismatched_lines``,
assignments against :func:`itertools.product`, placements against the clue they
read back to.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from nonoqubo.model.palette import Palette
from nonoqubo.model.puzzle import Puzzle, clue_of_line, line_runs
from tests.support.brute import (MAX_ROWS, all_assignments, all_pictures, all_solutions, all_spins,
                                 colour_placements, placements)

RGB = ["red", "green", "blue"]


def _random_puzzles(seed: int, count: int) -> list[Puzzle]:
    """Small random puzzles from pictures: black-and-white and up to three colours, some blank lines."""
    rng = np.random.default_rng(seed)
    out: list[Puzzle] = []
    while len(out) < count:
        h, w = (int(v) for v in rng.integers(1, 4, 2))
        colours = int(rng.integers(1, 4))
        grid = rng.integers(0, colours + 1, (h, w))
        if not grid.any():
            continue
        palette = Palette.of(RGB[:colours]) if colours > 1 else None
        picture = grid if palette else ["".join("#" if v else "." for v in row) for row in grid]
        out.append(Puzzle.from_picture(picture, palette=palette))
    return out


@pytest.mark.parametrize("puzzle", _random_puzzles(29, 60), ids=lambda p: "/".join(p.solution))
def test_solutions_are_the_pictures_that_match_the_clues(puzzle):
    got = all_solutions(puzzle)
    assert got.dtype == np.int8 and got.shape[1:] == (puzzle.height, puzzle.width)
    pictures = all_pictures(puzzle.height, puzzle.width, puzzle.num_colours)
    want = {g.tobytes() for g in pictures if not puzzle.mismatched_lines(g)}
    assert len(got) == len(want) and {g.tobytes() for g in got} == want
    assert puzzle.solution_grid().tobytes() in want


def test_solutions_of_known_counts():
    assert len(all_solutions(Puzzle(rows=[[1], [1], [1]], cols=[[1], [1], [1]]))) == 6  # the permutations
    assert all_solutions(Puzzle(rows=[[1, 1], [1], [1]], cols=[[1], [1, 1], [1]])).shape == (0, 3, 3)
    touching = Puzzle.from_picture(["rg", "gr"], palette=Palette.of(RGB))  # touching colours: no gap
    assert all_solutions(touching).tolist() == [[[1, 2], [2, 1]]]


@pytest.mark.parametrize("n, values", [(0, 2), (1, 2), (5, 2), (4, 3), (3, 4), (2, 1)])
def test_assignments_are_the_product_in_its_order(n, values):
    got = all_assignments(n, values)
    want = np.array(list(itertools.product(range(values), repeat=n)), np.int8).reshape(values**n, n)
    assert got.dtype == np.int8 and np.array_equal(got, want)


def test_spins_pictures_and_the_size_guard():
    assert np.array_equal(all_spins(3), 2 * all_assignments(3) - 1) and all_spins(3).dtype == np.int8
    assert all_pictures(1, 2, 2).tolist() == [[[a, b]] for a in range(3) for b in range(3)]
    with pytest.raises(ValueError, match="more than a brute force should list"):
        all_assignments(MAX_ROWS.bit_length())
    with pytest.raises(ValueError, match="need n >= 0"):
        all_assignments(-1)


@pytest.mark.parametrize("n", range(0, 8))
def test_placements_are_every_line_of_the_clue(n):
    for cells in all_assignments(n):
        clue = clue_of_line(cells)
        found = [c.tolist() for c, _ in placements(n, clue)]
        assert cells.tolist() in found and len(found) == len({tuple(f) for f in found})
    for clue in [(), (1,), (2, 1), (1, 1, 1)]:
        for cells, starts in placements(n, clue):
            assert clue_of_line(cells) == clue
            assert all(cells[s] == 1 and (s == 0 or cells[s - 1] == 0) for s in starts)


@pytest.mark.parametrize("lengths, colours", [((1, 1), (1, 1)), ((1, 1), (1, 2)), ((2, 1, 1), (1, 1, 2)), ((), ())])
def test_colour_placements_are_every_line_of_the_clue(lengths, colours):
    n = 5
    got = {c.tobytes() for c, _ in colour_placements(n, lengths, colours)}
    lines = all_assignments(n, 3)
    runs, run_colours = line_runs(lines)
    want = {line.tobytes() for line, r, c in zip(lines, runs, run_colours)
            if tuple(r) == lengths and tuple(c) == colours}
    assert got == want and len(got) == len(colour_placements(n, lengths, colours))
