"""The line solver: exact per line (against enumeration), sound on every shared puzzle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import shared_puzzle, shared_puzzles
from tests.support.brute import all_solutions, placements
from nonoqubo.model.encoding import Layout
from nonoqubo.errors import PuzzleError
from nonoqubo.logic.linesolve import line_solve, solve_lines
from nonoqubo.model.puzzle import Puzzle, clue_of_line

#: shared puzzles small enough for the test run (the 512x512 cauldron is in the benchmark)
SMALL = [(name, p) for name, p, _ in shared_puzzles() if p.width * p.height <= 3600]
MULTIPLE = ["olsak-sachovnice", "olsak-veze", "gecode-non-unique", "dejoue-raw-moss-60x60-bw-1"]


def expected(n: int, clue: tuple[int, ...], known: np.ndarray):
    """(cells, feasible, first, last) by enumeration."""
    fits = [(c, s) for c, s in placements(n, clue) if np.all((known < 0) | (c == known))]
    if not fits:
        return None, False, None, None
    cells = np.array([c for c, _ in fits])
    starts = np.array([s for _, s in fits], dtype=np.int64).reshape(len(fits), len(clue))
    agreed = np.where(cells.min(0) == cells.max(0), cells[0], -1)
    return agreed, True, starts.min(0), starts.max(0)


@st.composite
def line_cases(draw, n_max: int = 12, n_min: int = 1):
    n = draw(st.integers(n_min, n_max))
    picture = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    clue = clue_of_line(picture)
    known = np.full(n, -1, np.int8)
    # known cells from the picture (consistent) or at random (maybe contradictory)
    source = picture if draw(st.booleans()) else draw(st.lists(st.booleans(), min_size=n, max_size=n))
    for j in draw(st.sets(st.integers(0, n - 1))):
        known[j] = int(source[j])
    return n, clue, known


def run_batch(cases):
    """solve_lines on a batch of equal-length lines with different clue lengths."""
    m = max(max((len(c) for _, c, _ in cases)), 1)
    clue = np.ones((len(cases), m), np.int64)
    for i, (_, c, _) in enumerate(cases):
        clue[i, : len(c)] = c
    counts = np.array([len(c) for _, c, _ in cases])
    known = np.array([k for _, _, k in cases], np.int8)
    return solve_lines(known, clue, counts)


@settings(max_examples=300, deadline=None)
@given(line_cases())
def test_solve_lines_is_exact_on_one_line(case):
    n, clue, known = case
    cells, ok, first, last = run_batch([case])
    agreed, feasible, lo, hi = expected(n, clue, known)
    assert ok[0] == feasible
    if feasible:
        assert cells[0].tolist() == agreed.tolist()
        assert first[0, : len(clue)].tolist() == lo.tolist()
        assert last[0, : len(clue)].tolist() == hi.tolist()
    else:
        assert (first[0] == -1).all() and (last[0] == -1).all()


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9).flatmap(lambda n: st.lists(line_cases(n_max=n, n_min=n), min_size=2, max_size=6)))
def test_a_batch_solves_each_line_as_alone(cases):
    cells, ok, first, last = run_batch(cases)
    for i, case in enumerate(cases):
        c1, ok1, f1, l1 = run_batch([case])
        m = len(case[1])
        assert ok[i] == ok1[0]
        assert cells[i].tolist() == c1[0].tolist()
        assert first[i, :m].tolist() == f1[0, :m].tolist()
        assert last[i, :m].tolist() == l1[0, :m].tolist()


def test_classic_overlap_and_empty_line():
    known = np.full((3, 10), -1, np.int8)
    known[2, 4] = 1  # an empty clue with a black cell cannot fit
    cells, ok, first, last = solve_lines(known, np.array([[8, 1], [1, 1], [1, 1]]), np.array([1, 0, 0]))
    assert cells[0].tolist() == [-1, -1, 1, 1, 1, 1, 1, 1, -1, -1]
    assert cells[1].tolist() == [0] * 10
    assert ok.tolist() == [True, True, False]
    assert (first[0, 0], last[0, 0]) == (0, 2)


@pytest.mark.parametrize("name,puzzle", SMALL, ids=[n for n, _ in SMALL])
def test_settled_cells_and_bounds_agree_with_the_known_solution(name, puzzle):
    res = line_solve(puzzle)
    sol = puzzle.solution_grid().astype(np.int8)
    settled = res.grid >= 0
    assert np.array_equal(res.grid[settled], sol[settled])
    assert res.settled == int(settled.sum()) and res.solved == bool(settled.all())
    lay = Layout.of(puzzle)
    shifts = lay.shifts(lay.encode(sol))[0]
    assert (res.shift_lo <= shifts).all() and (shifts <= res.shift_hi).all()
    assert (0 <= res.shift_lo).all() and (res.shift_hi <= lay.block_margin).all()
    if res.solved:  # a settled grid leaves one placement per line
        assert np.array_equal(res.shift_lo, res.shift_hi)


def test_every_simon_tatham_puzzle_is_line_solvable():
    sgt = [(n, p) for n, p in SMALL if n.startswith("sgt-")]
    assert len(sgt) >= 5
    for name, puzzle in sgt:
        res = line_solve(puzzle)
        assert res.solved, name
        assert np.array_equal(res.grid, puzzle.solution_grid().astype(np.int8))
        assert res.fraction == 1.0


def solutions(puzzle: Puzzle, limit: int = 50) -> list[np.ndarray]:
    """Every solution (up to *limit*): line logic plus branching on the first unknown cell."""
    found: list[np.ndarray] = []

    def search(known: np.ndarray | None) -> None:
        if len(found) >= limit:
            return
        try:
            res = line_solve(puzzle, known)
        except PuzzleError:
            return
        if res.solved:
            found.append(res.grid.copy())
            return
        i, j = np.argwhere(res.grid < 0)[0]
        for value in (1, 0):
            guess = res.grid.copy()
            guess[i, j] = value
            search(guess)

    search(None)
    return found


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n == "gecode-non-unique" else n  # 6 s
                                  for n in MULTIPLE])
def test_no_settled_cell_differs_between_solutions(name):
    puzzle = shared_puzzle(name)
    sols = solutions(puzzle)
    assert len(sols) >= 2
    for s in sols:  # each one really is a solution
        assert puzzle.mismatched_lines(s) == []
    res = line_solve(puzzle)
    settled = res.grid >= 0
    for s in sols:
        assert np.array_equal(s[settled], res.grid[settled])
    lay = Layout.of(puzzle)
    shifts = lay.shifts(np.array([lay.encode(s.astype(bool)) for s in sols]))
    assert (res.shift_lo <= shifts).all() and (shifts <= res.shift_hi).all()


@pytest.mark.parametrize("name", ["olsak-sachovnice", "olsak-veze", "gecode-pinwheel"])
def test_brute_force_on_tiny_puzzles(name):
    """Line logic settles only what every solution shares (and finds every solution there is)."""
    puzzle = shared_puzzle(name)
    sols = all_solutions(puzzle)
    assert len(sols) >= 1
    assert len(solutions(puzzle)) == len(sols)
    res = line_solve(puzzle)
    settled = res.grid >= 0
    agreed = sols.min(0) == sols.max(0)
    assert not (settled & ~agreed).any()
    assert (sols[:, settled] == res.grid[settled]).all()


def test_contradiction_names_the_line():
    # row 2 is empty, so column 1 (clue 3) cannot be painted
    puzzle = Puzzle(rows=[[1, 1], [], [1, 1]], cols=[[3], [], [1]])
    with pytest.raises(PuzzleError, match=r"^column 1: no placement of clue 3 fits the cells settled so far$"):
        line_solve(puzzle)


def test_contradiction_from_known_cells_names_a_row():
    puzzle = Puzzle(rows=[[3, 1], [1], [1]], cols=[[1], [1], [1], [], [1], [2]])
    known = np.full((3, 6), -1, np.int8)
    known[0, 1] = 0
    with pytest.raises(PuzzleError, match=r"^row 1: no placement of clue 3 1 fits"):
        line_solve(puzzle, known)


def test_known_cells_are_kept_and_extended(logo):
    sol = logo.solution_grid().astype(np.int8)
    known = np.full(sol.shape, -1, np.int8)
    known[0] = sol[0]
    res = line_solve(logo, known)
    assert res.solved and np.array_equal(res.grid, sol)


@pytest.mark.parametrize("bad", [np.zeros((2, 3)), np.full((15, 15), 2)])
def test_known_cells_are_checked(logo, bad):
    with pytest.raises(PuzzleError, match="known cells"):
        line_solve(logo, bad)


def test_counts_of_a_puzzle_with_nothing_to_settle():
    res = line_solve(shared_puzzle("olsak-veze"))
    assert (res.solved, res.settled, res.fraction) == (False, 0, 0.0)
    assert res.iterations == 2 and res.line_solves == 8  # rows once, columns once, no change
    assert res.shift_lo.tolist() == [0] * 8 and res.shift_hi.tolist() == [3] * 8
