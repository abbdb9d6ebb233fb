"""Probing the model's variables (issue 32: "where it pays, on the model's variables").

Cell probing stalls on some hard cores; probing the domain wall's variables ("block b starts at
or after cell j", both ways, line logic keeping each branch's block bounds) goes further:

* line logic with block bounds (``solve_masks(starts=...)``) against an independent pure-Python
  line solver, on random lines, masks and bounds;
* brute force: on small random puzzles every solution keeps its cells among the colours probing
  leaves and every block's shift within the bounds it gives (what presolve fixes), and the
  presolved QUBO keeps every solution at energy 0;
* it never settles less than cell probing, and more where cell probing stalls: webpbn 6574
  "forever" (cell probing leaves 1,250 of 2,106 variables) is solved, gecode-difficult keeps
  479 variables instead of 483; decode puts the fixings back.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.support import shared_puzzle
from tests.support.brute import all_solutions
from nonoqubo.decoding import decode
from nonoqubo.logic.hardness import hardness
from nonoqubo.logic.linesolve import solve_masks
from nonoqubo.logic.presolve import presolve_qubo
from nonoqubo.logic.probe import probe_solve
from nonoqubo.model.encoding import Layout
from nonoqubo.model.encodings import geometry_of
from nonoqubo.model.palette import Palette
from nonoqubo.model.puzzle import Puzzle

WHITE, BLACK = 1, 2


def reference_line(mask: list[int], clue: list[int], lo: list[int], hi: list[int]) -> tuple[list[int], list[int]] | None:
    """Every placement of *clue* on the cells *mask* allows with block k starting in ``lo[k] .. hi[k]``,
    enumerated: the union of their cells' colours and every block's starts, or None when there is none."""
    n = len(mask)
    found: list[tuple[int, ...]] = []

    def place(k: int, at: int, starts: tuple[int, ...]) -> None:
        if k == len(clue):
            found.append(starts)
            return
        for s in range(max(at, lo[k]), min(hi[k], n - clue[k]) + 1):
            place(k + 1, s + clue[k] + 1, (*starts, s))

    place(0, 0, ())
    out, firsts = [0] * n, []
    good = []
    for starts in found:
        line = [WHITE] * n
        for s, r in zip(starts, clue):
            line[s:s + r] = [BLACK] * r
        if all(m & v for m, v in zip(mask, line)):
            good.append(starts)
            out = [o | v for o, v in zip(out, line)]
    if not good:
        return None
    firsts = [min(g[k] for g in good) for k in range(len(clue))] + [max(g[k] for g in good) for k in range(len(clue))]
    return out, firsts


def test_line_logic_keeps_to_block_bounds_as_enumeration_does():
    rng = np.random.default_rng(11)
    for _ in range(1500):
        n = int(rng.integers(1, 11))
        runs = "".join("#" if v else "." for v in rng.random(n) < 0.5).split(".")
        clue = [len(r) for r in runs if r]
        k = len(clue)
        mask = rng.choice([WHITE, BLACK, 3, 3, 3], size=n)
        lo = [int(rng.integers(0, n)) for _ in range(k)]
        hi = [int(rng.integers(a, n)) for a in lo]
        want = reference_line(mask.tolist(), clue, lo, hi)
        m = max(k, 1)
        c, lo_t, hi_t = np.ones((1, m), int), np.zeros((1, m), int), np.full((1, m), n)
        c[0, :k], lo_t[0, :k], hi_t[0, :k] = clue, lo, hi
        got, ok, first, last = solve_masks(mask[None].astype(np.uint8), c, np.ones((1, m), int), np.array([k]),
                                           starts=(lo_t, hi_t))
        assert bool(ok[0]) == (want is not None), (clue, mask.tolist(), lo, hi)
        if want is not None:
            assert got[0].tolist() == want[0]
            assert [*first[0, :k].tolist(), *last[0, :k].tolist()] == want[1]


def _random_puzzles(seed: int, count: int, colours: int, most: int) -> list[Puzzle]:
    rng = np.random.default_rng(seed)
    palette = Palette.of(["red", "green", "blue"]) if colours > 1 else None
    out = []
    for _ in range(count):
        h, w = (int(v) for v in rng.integers(2, most + 1, size=2))
        pic = rng.random((h, w)) < 0.5 if colours == 1 else rng.integers(0, colours + 1, size=(h, w))
        out.append(Puzzle.from_picture(pic, palette=palette) if palette else Puzzle.from_picture(pic))
    return out


@pytest.mark.parametrize("colours", [1, 3])
def test_no_solution_is_lost_brute_force(colours):
    tighter = 0
    for puzzle in _random_puzzles(6 if colours == 1 else 8, 400 if colours == 1 else 60, colours, 6):
        cells, both = probe_solve(puzzle, variables=False), probe_solve(puzzle)
        assert (both.shift_lo >= cells.shift_lo).all() and (both.shift_hi <= cells.shift_hi).all()
        assert both.settled >= cells.settled
        if both.variable_rounds == 0:
            continue  # cell probing settled it: variable probing did not run
        lay = Layout.of(puzzle)
        for grid in all_solutions(puzzle):
            assert ((both.possible.astype(np.uint64) >> grid.astype(np.uint64)) & 1).all()
            shifts = lay.shifts_of_grid(grid)
            assert ((both.shift_lo <= shifts) & (shifts <= both.shift_hi)).all(), (puzzle.rows, puzzle.cols)
        reduced = presolve_qubo(puzzle, method="probe")
        geo = geometry_of(puzzle)
        keep = [geo.labels().index(label) for label in reduced.labels]
        for grid in all_solutions(puzzle):  # every solution is still a zero of the presolved QUBO
            assert int(reduced.energy(geo.encode(grid)[keep][None, :])[0]) == 0
        tighter += bool(((both.shift_lo > cells.shift_lo) | (both.shift_hi < cells.shift_hi)).any())
    if colours == 1:
        assert tighter > 0  # the sample holds puzzles where the variables' probes learn more


def test_variable_probing_solves_what_cell_probing_leaves():
    forever = shared_puzzle("dejoue-webpbn-06574-forever")
    cells, both = probe_solve(forever, variables=False), probe_solve(forever)
    assert (cells.settled, cells.solved, cells.variable_rounds) == (185, False, 0)
    assert both.solved and both.variable_rounds >= 1 and both.variable_probes > 0
    assert np.array_equal(both.grid, forever.solution_grid().astype(np.int8))
    assert hardness(forever).hardness == "probe-solvable"
    report = decode(presolve_qubo(forever, method="probe"), np.zeros((1, 0), np.int8))[0]
    assert report.valid and np.array_equal(np.asarray(report.grid, bool), forever.solution_grid())


def test_gecode_difficult_keeps_479_variables_and_decodes():
    hard = shared_puzzle("gecode-difficult")
    label = hardness(hard)
    assert (label.hardness, label.variables_after_line, label.variables_after_probe) == ("needs-search", 499, 479)
    assert hardness(hard, probed=probe_solve(hard, variables=False)).variables_after_probe == 483
    part = presolve_qubo(hard, method="probe")
    geo = geometry_of(hard)
    keep = [geo.labels().index(label) for label in part.labels]
    report = decode(part, geo.encode(hard.solution_grid())[keep][None, :])[0]
    assert report.valid and report.energy == 0
    assert np.array_equal(np.asarray(report.grid, bool), hard.solution_grid())
