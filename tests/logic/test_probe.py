"""Probing presolve: sound (never removes a solution), stronger than line logic, exact after fixing.

* brute force: on small random puzzles, black and white and colour, every solution
  (enumerated from the clues, :func:`tests.support.brute.all_solutions`) keeps every one of
  its cells among the colours probing leaves, and probing settles exactly what all solutions share
  when it solves the puzzle;
* random pictures up to 15x15: the picture is a solution, so probing must leave each of its
  cells its colour; a probe-solvable puzzle is unique (CP-SAT agrees, when installed);
* the presolved QUBO of every registered encoding has energy 0 at the known solution and the
  same zero states as the solutions; decode completes a sample of it to the picture;
* probing fixes strictly more than line logic where line logic stalls (gecode-difficult, 12
  cells of 225, as measured in issue 32).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.support import shared_puzzle
from tests.support.brute import all_assignments, all_solutions
from nonoqubo.decoding import decode
from nonoqubo.errors import PuzzleError
from nonoqubo.logic.linesolve import line_solve
from nonoqubo.logic.presolve import complete, fixed_values, fixings, presolve_qubo
from nonoqubo.logic.probe import ProbeResult, probe_solve
from nonoqubo.model.build import build
from nonoqubo.model.encodings import encodings, geometry_of
from nonoqubo.model.palette import Palette
from nonoqubo.model.puzzle import Puzzle

#: line logic settles 4 of these 12 cells, probing all of them (one round)
STALLS = [".##.", ".##.", "#..#"]
RGB = Palette.of(["red", "green", "blue"])
#: colour pictures where line logic stalls: it settles 7 and 10 cells, probing 15 of 15 and 20 of 20
COLOUR_STALLS = [["gr.", "g.r", "..r", "rr.", "..g"], [".r.g", ".gg.", "gg.b", "r.gb", "gbbg"]]


def _stalls(colours: int) -> list[Puzzle]:
    if colours == 1:
        return [Puzzle.from_picture(STALLS)]
    return [Puzzle.from_picture(pic, palette=RGB)
            for pic in COLOUR_STALLS]


def _random_puzzles(seed: int, count: int, colours: int, most: int) -> list[Puzzle]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        h, w = (int(v) for v in rng.integers(2, most + 1, size=2))
        if colours == 1:
            out.append(Puzzle.from_picture(rng.random((h, w)) < 0.55))
        else:
            out.append(Puzzle.from_picture(rng.integers(0, colours + 1, size=(h, w)), palette=RGB))
    return out


def _allows(possible: np.ndarray, grid: np.ndarray) -> bool:
    """Every cell of *grid* among the colours *possible* leaves it."""
    return bool(((possible.astype(np.uint64) >> np.asarray(grid).astype(np.uint64)) & 1).all())


@pytest.mark.parametrize("colours", [1, 3])
def test_probing_never_removes_a_solution_brute_force(colours):
    stalled = 0
    for puzzle in [*_stalls(colours), *_random_puzzles(31 + colours, 60, colours, 5)]:
        solutions = all_solutions(puzzle)
        res = probe_solve(puzzle)
        assert res.possible is not None
        for grid in solutions:
            assert _allows(res.possible, grid), (puzzle.solution, grid.tolist())
        # what every solution shares is all probing can settle; a solved puzzle has one solution
        settled = res.grid >= 0
        assert (solutions[:, settled] == res.grid[settled]).all()
        if res.solved:
            assert len(solutions) == 1
        line = line_solve(puzzle)
        assert res.settled >= line.settled and res.line_settled == line.settled
        stalled += res.settled > line.settled
    assert stalled > 0  # the sample has puzzles where probing goes further


@pytest.mark.parametrize("colours", [1, 2])
def test_the_picture_survives_probing_on_random_puzzles(colours):
    for puzzle in _random_puzzles(7 + colours, 25, colours, 15):
        res = probe_solve(puzzle)
        assert res.possible is not None and _allows(res.possible, puzzle.solution_grid())
        lo, hi = res.shift_lo, res.shift_hi
        assert (lo <= hi).all()


def test_a_probe_solvable_puzzle_is_unique_for_cp_sat():
    pytest.importorskip("ortools")
    from nonoqubo.solvers.cpsat import count_solutions

    checked = 0
    stalls = [Puzzle.from_picture(STALLS), shared_puzzle("gecode-pinwheel"), shared_puzzle("gecode-webpbn23")]
    for puzzle in [*stalls, *_random_puzzles(3, 30, 1, 9)]:
        res = probe_solve(puzzle)
        if res.solved and not line_solve(puzzle).solved:
            assert count_solutions(puzzle, 2, time_limit=30) == (1, True)
            checked += 1
        elif not res.solved:
            found, _ = count_solutions(puzzle, 2, time_limit=30)
            assert found >= 1
    assert checked > 0


def test_probing_fixes_strictly_more_where_line_logic_stalls():
    puzzle = shared_puzzle("gecode-difficult")
    line, probed = line_solve(puzzle), probe_solve(puzzle)
    assert (line.settled, probed.settled, probed.solved) == (0, 12, False)
    assert probed.rounds >= 2 and probed.contradictions > 0
    line_fix, probe_fix = fixings(puzzle), fixings(puzzle, method="probe")
    assert set(line_fix.items()) < set(probe_fix.items())
    small = Puzzle.from_picture(STALLS)
    assert len(fixings(small)) < len(fixings(small, method="probe")) == geometry_of(small).num_vars


@pytest.mark.parametrize("encoding", list(encodings()), ids=str)
def test_energy_zero_at_the_solution_and_the_same_zero_states_in_every_encoding(encoding):
    for puzzle in [Puzzle.from_picture(STALLS), *_random_puzzles(12, 8, 1, 4), *_random_puzzles(13, 6, 2, 3)]:
        if encoding.name != "domain-wall" and puzzle.is_colour and not encoding.colour:
            continue
        full = build(puzzle, encoding=encoding)
        reduced = presolve_qubo(puzzle, full, method="probe")
        assert reduced.num_vars <= presolve_qubo(puzzle, full).num_vars
        geo = geometry_of(puzzle, encoding=encoding)
        x = geo.encode(puzzle.solution_grid())
        values = fixed_values(puzzle, encoding=encoding, method="probe")
        fixed = values >= 0
        assert (x[fixed] == values[fixed]).all()  # the solution keeps every fixing
        keep = [i for i, lab in enumerate(geo.labels()) if lab in set(reduced.labels)]
        assert int(reduced.energy(x[keep][None, :])[0]) == 0
        if reduced.num_vars <= 14:
            states = all_assignments(reduced.num_vars)
            zero = states[reduced.energy(states) == 0]
            assert len(zero) == len(all_solutions(puzzle))
            completed = complete(reduced, zero)
            assert int(full.energy(completed).max(initial=0)) == 0


def test_decode_puts_the_fixings_back():
    puzzle = Puzzle.from_picture(STALLS)
    reduced = presolve_qubo(puzzle, method="probe")
    assert reduced.num_vars == 0
    report = decode(reduced, np.zeros((1, 0), np.int8))[0]
    assert report.valid and np.array_equal(np.asarray(report.grid, bool), puzzle.solution_grid())
    hard = shared_puzzle("gecode-difficult")
    part = presolve_qubo(hard, method="probe")
    geo = geometry_of(hard)
    x = geo.encode(hard.solution_grid())
    keep = [geo.labels().index(lab) for lab in part.labels]
    report = decode(part, x[keep][None, :])[0]
    assert report.valid and report.energy == 0
    assert np.array_equal(np.asarray(report.grid, bool), hard.solution_grid())


def test_a_puzzle_without_solution_is_a_one_line_error():
    # line logic finds no contradiction in these clues; probing does, at the first cell
    puzzle = Puzzle(rows=[[1, 1], [2], [1, 1], [1]], cols=[[1, 1], [1, 1], [1, 1], [1]])
    line_solve(puzzle)
    with pytest.raises(PuzzleError, match=r"^probing: every colour of the cell at row 0, column 0 leads to a "
                                          "contradiction: the puzzle has no solution$"):
        probe_solve(puzzle)
    assert probe_solve(Puzzle(rows=[[1], [1]], cols=[[1], [1]])).settled == 0  # two solutions


def test_rounds_stop_and_results_are_the_line_results_of_the_probed_grid():
    puzzle = shared_puzzle("gecode-p200")
    res = probe_solve(puzzle)
    assert isinstance(res, ProbeResult) and res.solved and res.rounds >= 1
    again = line_solve(puzzle, possible=res.possible)
    assert np.array_equal(again.grid, res.grid) and np.array_equal(again.shift_lo, res.shift_lo)
    assert probe_solve(puzzle, max_rounds=1).rounds == 1
    assert probe_solve(Puzzle.from_picture(["#.", "##"])).rounds == 0


def test_stop_below_ends_probing_once_too_few_cells_are_open_and_changes_nothing_above_it():
    """Issue 52 item 5 (a hard core's repair asks only whether a flip leaves at least so many cells open):
    with stop_below at or under the cells probing leaves, the result is the full one; above it, probing
    stops early with fewer probes, leaving fewer open than asked, and line logic alone can already stop it."""
    puzzle = shared_puzzle("gecode-difficult")
    full = probe_solve(puzzle, variables=False)
    left = full.cells - full.settled
    assert left > 0
    same = probe_solve(puzzle, variables=False, stop_below=left)
    assert same.grid.tolist() == full.grid.tolist() and same.probes == full.probes
    early = probe_solve(puzzle, variables=False, stop_below=left + 1)
    assert early.cells - early.settled < left + 1 and early.probes < full.probes
    at_once = probe_solve(puzzle, variables=False, stop_below=puzzle.height * puzzle.width + 1)
    assert at_once.probes == 0 and at_once.rounds == 0  # line logic already leaves fewer open than that
    assert at_once.settled == line_solve(puzzle).settled
