"""Line logic and presolve in colour: exact on single lines, sound on whole puzzles.

* one line: :func:`solve_masks` against the union over every placement that
  fits (enumerated here, by brute force), on random colour clues and masks;
* whole puzzles: every cell line logic settles has that colour in every
  solution (the solutions come from the brute-forced zero-energy states of the
  QUBO), the shift bounds hold every solution's shifts, and the presolved QUBO
  keeps minimum 0 at the solution;
* the colour puzzles of the repository are all line-solvable.
"""

from __future__ import annotations


import numpy as np
import pytest

from tests.support import SHARED
from tests.support.brute import all_assignments, colour_placements
from nonoqubo import clues
from nonoqubo.model.build import build
from nonoqubo.model.encoding import Layout
from nonoqubo.errors import PuzzleError
from nonoqubo.logic.linesolve import line_solve, solve_masks
from nonoqubo.logic.presolve import complete, presolve_qubo
from nonoqubo.model.palette import Palette
from nonoqubo.model.puzzle import Puzzle


def test_one_line_is_exact_against_every_placement():
    rng = np.random.default_rng(14)
    for _ in range(300):
        n = int(rng.integers(1, 9))
        m = int(rng.integers(0, 4))
        lengths = rng.integers(1, 3, m).tolist()
        colours = rng.integers(1, 4, m).tolist()
        mask = rng.choice([15, 15, 15, 1, 2, 3, 5, 9, 14], n).astype(np.uint8)
        fits = [(cells, starts) for cells, starts in colour_placements(n, lengths, colours)
                if all(mask[j] >> cells[j] & 1 for j in range(n))]
        width = max(m, 1)
        clue = np.array([lengths + [1] * (width - m)])
        colour = np.array([colours + [1] * (width - m)])
        out, ok, first, last = solve_masks(mask[None, :], clue, colour, np.array([m]))
        assert bool(ok[0]) == bool(fits), (lengths, colours, mask)
        if not fits:
            continue
        union = np.zeros(n, np.uint8)
        for cells, _ in fits:
            union |= (1 << cells).astype(np.uint8)
        assert out[0].tolist() == union.tolist(), (lengths, colours, mask.tolist())
        for k in range(m):
            assert first[0, k] == min(st[k] for _, st in fits)
            assert last[0, k] == max(st[k] for _, st in fits)


def small_puzzles() -> list[Puzzle]:
    rng = np.random.default_rng(5)
    pal = Palette.of(["red", "green", "blue"])
    out: list[Puzzle] = []
    while len(out) < 12:
        h, w = rng.integers(2, 5, size=2)
        p = Puzzle.from_picture(rng.integers(0, 3 + len(out) % 2, size=(h, w)), palette=pal)
        if build(p).num_vars <= 16:
            out.append(p)
    return out


@pytest.mark.parametrize("puzzle", small_puzzles(), ids=lambda p: "/".join(p.solution))
def test_line_logic_is_sound_on_every_solution(puzzle):
    q = build(puzzle)
    lay = Layout.of(puzzle)
    n = q.num_vars
    x = all_assignments(n)
    zero = x[q.energy(x) == 0]
    solutions, _ = lay.grids(lay.shifts(zero))
    res = line_solve(puzzle)
    settled = res.grid >= 0
    for grid in solutions:
        assert np.array_equal(grid[settled], res.grid[settled])
        assert ((res.possible >> grid.astype(np.uint8)) & 1).all()
    shifts = lay.shifts(zero)
    assert (res.shift_lo <= shifts).all() and (shifts <= res.shift_hi).all()
    reduced = presolve_qubo(puzzle, q)
    assert reduced.num_vars <= n
    sol = lay.encode(puzzle.solution_grid())
    keep = [lay.labels().index(label) for label in reduced.labels]
    assert int(reduced.energy(sol[keep][None, :])[0]) == 0
    assert np.array_equal(complete(reduced, sol[keep][None, :])[0], sol)


@pytest.mark.parametrize("path", sorted((SHARED / "colour").glob("*.json")), ids=lambda p: p.stem)
def test_repository_colour_puzzles_are_line_solvable(path):
    puzzle = clues.load(path)
    res = line_solve(puzzle)
    assert res.solved and np.array_equal(res.grid, puzzle.solution_grid())
    reduced = presolve_qubo(puzzle)
    assert reduced.num_vars == 0 and reduced.offset == 0


def test_contradiction_names_the_line_and_its_colours():
    p = Puzzle.from_picture(["rg", "g."], palette=Palette.of(["r", "g"]))
    with pytest.raises(PuzzleError, match=r"no placement of clue 1r 1g fits"):
        line_solve(p, known=np.array([[2, -1], [-1, -1]]))
