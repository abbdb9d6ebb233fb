"""The colour model (issue 14) against independent builds, brute force and known solutions.

* pyqbpp (the seed program) builds the colour model from its definition in
  ``tests/support/qbpp_reference.py``, one small puzzle per process (under its
  100-variable limit);
* dimod's symbolic ``Binary`` arithmetic builds it here, from the same
  definition, for the colour puzzles of the repository (up to ~2,000 variables);
* brute force over every assignment of tiny colour puzzles: the zero-energy
  states are exactly the solutions (found by enumerating every colour grid);
* energy 0 at the known solution of every colour puzzle in ``tests/data``;
* one colour gives exactly the black-and-white model, term for term.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import dimod
import numpy as np
import pytest

import tests.support as support

from tests.support import SHARED, shared_puzzles
from tests.support.brute import all_assignments, all_solutions
from nonoqubo import clues
from nonoqubo.model.build import build
from nonoqubo.model.encoding import Layout
from nonoqubo.errors import PuzzleError
from nonoqubo.model.palette import Palette
from nonoqubo.model.puzzle import Puzzle

REFERENCE = Path(support.__file__).with_name("qbpp_reference.py")
COLOUR_DIR = SHARED / "colour"
RGB = Palette.of(["red", "green", "blue"])


def colour_puzzles() -> list[tuple[str, Puzzle]]:
    return [(path.stem, clues.load(path)) for path in sorted(COLOUR_DIR.glob("*.json"))]


def random_colour_puzzle(rng: np.random.Generator, h: int, w: int, colours: int) -> Puzzle:
    grid = rng.integers(0, colours + 1, size=(h, w))
    return Puzzle.from_picture(grid, palette=Palette.of(["red", "green", "blue"][:colours]))


def items(puzzle: Puzzle) -> tuple[list, list]:
    """The clues as [[length, colour name], ...] per line (the reference's input)."""
    return ([[list(b) for b in c] for c in puzzle.clue_items(puzzle.rows, puzzle.row_colours)],
            [[list(b) for b in c] for c in puzzle.clue_items(puzzle.cols, puzzle.col_colours)])


def ours(puzzle: Puzzle) -> tuple[int, dict[str, int], dict[frozenset, int]]:
    q = build(puzzle)
    linear = {q.labels[i]: int(v) for i, v in enumerate(q.linear) if v}
    quadratic = {frozenset((q.labels[i], q.labels[j])): int(v) for i, j, v in zip(q.row, q.col, q.quad)}
    assert all(quadratic.values())
    return q.offset, linear, quadratic


# -- an independent symbolic build with dimod -----------------------------------------------
def dimod_reference(puzzle: Puzzle) -> dimod.BinaryQuadraticModel:
    """The colour model of the issue, term by term, with dimod's symbolic arithmetic."""
    rows, cols = items(puzzle)
    colours = sorted({c for clue in rows + cols for _, c in clue})
    total = dimod.BinaryQuadraticModel("BINARY")

    def line(prefix: str, clue: list, n: int) -> dict[str, list]:
        starts, e = [], 0
        for k, (r, c) in enumerate(clue):
            if k:
                e += clue[k - 1][0] + (c == clue[k - 1][1])
            starts.append(e)
        d = n - (starts[-1] + clue[-1][0]) if clue else 0
        w = [[dimod.Binary(f"{prefix}[{k}][{p}]") for p in range(d)] for k in range(len(clue))]

        def strip(k: int, q: int):
            return 1 if q < 0 else 0 if q >= d else w[k][q]

        for k in range(len(clue)):
            for p in range(d - 1):
                total.update((1 - w[k][p]) * w[k][p + 1])
            if k + 1 < len(clue):
                for p in range(d):
                    total.update(w[k][p] * (1 - w[k + 1][p]))
        cover = {}
        for colour in colours:
            cover[colour] = [sum((strip(k, j - starts[k] - r) - strip(k, j - starts[k])
                                  for k, (r, c) in enumerate(clue) if c == colour),
                                 dimod.BinaryQuadraticModel("BINARY")) for j in range(n)]
        return cover

    row_cover = [line(f"y{i}", c, puzzle.width) for i, c in enumerate(rows)]
    col_cover = [line(f"z{j}", c, puzzle.height) for j, c in enumerate(cols)]
    for i in range(puzzle.height):
        for j in range(puzzle.width):
            for colour in colours:
                diff = row_cover[i][colour][j] - col_cover[j][colour][i]
                total.update(diff * diff)
    return total


def as_terms(bqm: dimod.BinaryQuadraticModel) -> tuple[int, dict[str, int], dict[frozenset, int]]:
    # x*x = x: a binary BQM's self-products are already folded into the linear part
    linear = {str(v): int(b) for v, b in bqm.linear.items() if b}
    quadratic = {frozenset((str(u), str(v))): int(b) for (u, v), b in bqm.quadratic.items() if b}
    return int(bqm.offset), linear, quadratic


@pytest.mark.parametrize("name,puzzle", [pytest.param(n, p, marks=pytest.mark.slow) if n == "olsak-acorn" else (n, p)
                                         for n, p in colour_puzzles()[:5]],  # the acorn through dimod: 16 s
                         ids=lambda v: v if isinstance(v, str) else "")
def test_same_terms_as_dimod_symbolic_build(name, puzzle):
    assert puzzle.is_colour
    assert ours(puzzle) == as_terms(dimod_reference(puzzle))


def test_same_terms_as_dimod_on_random_colour_puzzles():
    rng = np.random.default_rng(14)
    for _ in range(8):
        p = random_colour_puzzle(rng, *rng.integers(2, 7, size=2), int(rng.integers(2, 4)))
        assert ours(p) == as_terms(dimod_reference(p)), p.to_dict()


# -- pyqbpp, the seed program ----------------------------------------------------------------
def qbpp_expansion(puzzle: Puzzle) -> dict:
    rows, cols = items(puzzle)
    proc = subprocess.run([sys.executable, str(REFERENCE)], input=json.dumps({"rows": rows, "cols": cols}),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout[proc.stdout.index("{"):])  # pyqbpp prints a banner first


def small_colour_puzzles() -> list[Puzzle]:
    rng = np.random.default_rng(2026)
    out: list[Puzzle] = []
    while len(out) < 4:
        p = random_colour_puzzle(rng, *rng.integers(3, 6, size=2), 2 + len(out) % 2)
        if 20 <= build(p).num_vars <= 100:
            out.append(p)
    return out


@pytest.mark.skipif(importlib.util.find_spec("pyqbpp") is None, reason="pyqbpp==2026.10.6 is not installed")
@pytest.mark.parametrize("puzzle", small_colour_puzzles(), ids=lambda p: f"{p.width}x{p.height}")
def test_same_terms_as_pyqbpp(puzzle):
    ref = qbpp_expansion(puzzle)
    linear, quadratic = {}, {}
    for coeff, labels in ref["terms"]:
        assert len(labels) in (1, 2)
        (linear if len(labels) == 1 else quadratic)[labels[0] if len(labels) == 1 else frozenset(labels)] = coeff
    assert ours(puzzle) == (ref["constant"], linear, quadratic)


# -- one colour is black and white ---------------------------------------------------------
@pytest.mark.parametrize("name", ["qbpp-logo", "mikix-webpbn-1", "gecode-non-unique"])
def test_one_colour_is_todays_model_term_for_term(name):
    bw = next(p for stem, p, _ in shared_puzzles() if stem == name)
    red = Puzzle([[(v, "red") for v in c] for c in bw.rows], [[(v, "red") for v in c] for c in bw.cols],
                 palette=Palette.of([("red", "ff0000")]))
    assert not red.is_colour and red.palette != bw.palette
    a, b = build(bw), build(red)
    assert a.labels == b.labels and a.offset == b.offset
    for attr in ("linear", "row", "col", "quad"):
        assert np.array_equal(getattr(a, attr), getattr(b, attr))


# -- brute force -----------------------------------------------------------------------------
def colour_solutions(puzzle: Puzzle) -> set[bytes]:
    """Every solution (colour indices), as bytes, from the clues alone (tests.support.brute)."""
    return {g.tobytes() for g in all_solutions(puzzle)}


def brute_force_puzzles() -> list[Puzzle]:
    rng = np.random.default_rng(7)
    out = [Puzzle.from_picture(["r.", ".r"], palette=RGB),  # two solutions: the diagonals
           Puzzle.from_picture(["rg", "gr"], palette=RGB),  # no variable: touching colours fix it
           Puzzle.from_picture(["rgb", "b.r"], palette=RGB)]
    while len(out) < 6:
        p = random_colour_puzzle(rng, 2, 3, 2 + len(out) % 2)
        if 0 < build(p).num_vars <= 16:
            out.append(p)
    return out


@pytest.mark.parametrize("puzzle", brute_force_puzzles(), ids=lambda p: "/".join(p.solution))
def test_brute_force_ground_states_are_exactly_the_solutions(puzzle):
    q = build(puzzle)
    lay = Layout.of(puzzle)
    x = all_assignments(q.num_vars)
    energy = q.energy(x)
    assert energy.min() == 0
    zero = x[energy == 0]
    rows_view, cols_view = lay.grids(lay.shifts(zero))
    assert np.array_equal(rows_view, cols_view)
    found = [g.tobytes() for g in rows_view]
    assert len(found) == len(set(found))  # one state per solution
    assert set(found) == colour_solutions(puzzle)


def test_two_colour_swap_has_two_solutions():
    assert len(colour_solutions(brute_force_puzzles()[0])) == 2


# -- known solutions ---------------------------------------------------------------------------
@pytest.mark.parametrize("name,puzzle", colour_puzzles(), ids=lambda v: v if isinstance(v, str) else "")
def test_energy_zero_at_the_known_solution(name, puzzle):
    assert puzzle.solution is not None and puzzle.is_colour
    q = build(puzzle)
    x = Layout.of(puzzle).encode(puzzle.solution_grid())
    assert int(q.energy(x)[0]) == 0
    assert q.offset > 0 and int(q.energy(1 - x)[0]) > 0


def test_colour_starts_and_margins():
    p = Puzzle([[(2, "r"), (1, "r"), (1, "g")]], [[(1, "r")]] * 2 + [[]] + [[(1, "r")], [(1, "g")], []],
               palette=Palette.of(["r", "g"]))
    lay = Layout.of(p)
    # same colour: one gap; different colours touch
    assert lay.block_start[:3].tolist() == [0, 3, 4]
    assert lay.line_margin[0] == 6 - 5
    with pytest.raises(PuzzleError, match=r"row 1: clue 2r 1r 1g needs 5 cells"):
        Puzzle([[(2, "r"), (1, "r"), (1, "g")]], [[(1, "r")]] * 4, palette=Palette.of(["r", "g"]))


def test_colour_totals_must_agree_per_colour():
    with pytest.raises(PuzzleError, match="the row clues paint 1 r cells but the column clues paint 2"):
        Puzzle([[(1, "r"), (1, "g")]], [[(1, "r")], [(1, "r")]], palette=Palette.of(["r", "g"]))
