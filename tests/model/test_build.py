"""The builder against the seed figures, known solutions, brute force and properties."""

from __future__ import annotations


import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import shared_puzzles
from tests.support.brute import all_assignments, all_solutions
from nonoqubo.model.build import build
from nonoqubo.model.encoding import Layout
from nonoqubo.model.palette import Palette
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.model.qubo import Qubo


def independent_encoding(puzzle: Puzzle, grid: np.ndarray) -> dict[str, int]:
    """label -> value for a solved grid, computed here from first principles.

    Block k of a line starts at e_k + shift, with e_k = sum_{l<k}(r_l + 1);
    w[k][p] = 1 exactly when shift > p.
    """
    values = {}
    for prefix, clues, lines in (("y", puzzle.rows, grid), ("z", puzzle.cols, grid.T)):
        for i, (clue, cells) in enumerate(zip(clues, lines)):
            d = len(cells) - sum(clue) - (len(clue) - 1) if clue else 0
            starts = [j for j in range(len(cells)) if cells[j] and (j == 0 or not cells[j - 1])]
            e = 0
            for k, r in enumerate(clue):
                shift = starts[k] - e
                for p in range(d):
                    values[f"{prefix}{i}[{k}][{p}]"] = int(shift > p)
                e += r + 1
    return values


def vector(qubo, values: dict[str, int]) -> np.ndarray:
    return np.array([values[label] for label in qubo.labels], dtype=np.int8)


def test_logo_seed_figures(logo):
    qubo = build(logo)
    layout = Layout.of(logo)
    assert qubo.num_vars == 437
    assert layout.num_row_vars == 198
    assert qubo.num_vars - layout.num_row_vars == 239
    assert qubo.num_terms == 2756
    assert qubo.labels[0] == "y0[0][0]" and qubo.labels[198].startswith("z0[")


def test_logo_solution_has_energy_zero(logo):
    qubo = build(logo)
    x = vector(qubo, independent_encoding(logo, logo.solution_grid()))
    assert qubo.energy(x).tolist() == [0]


def test_arrays_are_canonical(logo):
    q = build(logo)
    # issue 16: int32 indices and the smallest bias type (energies are still summed in int64)
    assert q.linear.dtype == np.int64 and q.row.dtype == q.col.dtype == np.int32 and q.quad.dtype == np.int8
    assert (q.row < q.col).all()
    keys = q.row * q.num_vars + q.col
    assert (np.diff(keys) > 0).all(), "pairs sorted, each once"
    assert (q.quad != 0).all()


@pytest.mark.parametrize(
    "name,puzzle,doc",
    [pytest.param(*item, marks=pytest.mark.slow) if item[0] == "dejoue-cauldron" else item
     for item in shared_puzzles() if item[2].get("solution")],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_energy_zero_at_every_known_solution(name, puzzle, doc):
    qubo = build(puzzle)
    grid = puzzle.solution_grid()
    x = Layout.of(puzzle).encode(grid)
    assert qubo.energy(x).tolist() == [0]
    if name == "dejoue-cauldron":  # DESIGN.md's figures for the 512x512 puzzle
        assert (qubo.num_vars, qubo.num_terms) == (1_370_549, 48_086_547)
    if 0 < qubo.num_vars < 100_000:  # any single flip of a valid encoding costs energy
        idx = np.random.default_rng(0).integers(0, qubo.num_vars, 16)
        flips = np.repeat(x[None, :], idx.size, axis=0)
        flips[np.arange(idx.size), idx] ^= 1
        assert (qubo.energy(flips) > 0).all()
    if qubo.num_vars < 20000:  # the independent encoder is plain Python
        assert np.array_equal(x, vector(qubo, independent_encoding(puzzle, grid)))
    if "expected" in doc:
        assert qubo.num_vars == doc["expected"]["variables"]
        assert qubo.num_terms == doc["expected"]["terms"]


TINY = [
    Puzzle(rows=[[1], [1]], cols=[[1], [1]]),  # two solutions
    Puzzle(rows=[[1, 1], [1], [1, 1]], cols=[[1, 1], [1], [1, 1]]),
    Puzzle(rows=[[2], [1], []], cols=[[2], [1], []]),
    Puzzle.from_picture(["#..#", ".##.", "#..."]),
    Puzzle.from_picture(["#.#.", "....", ".#.#", "#..."]),
    Puzzle.from_picture([".#..", "#.#.", ".#.#"]),
    Puzzle(rows=[[1], [1], [1]], cols=[[1], [1], [1]]),  # six solutions (permutations)
]


@pytest.mark.parametrize("puzzle", TINY, ids=lambda p: f"{p.width}x{p.height}")
def test_brute_force_zero_energy_states_are_exactly_the_solutions(puzzle):
    qubo = build(puzzle)
    n = qubo.num_vars
    assert n <= 22
    states = all_assignments(n)
    energy = qubo.energy(states)
    assert energy.min() >= 0
    zero = {tuple(s) for s in states[energy == 0]}
    expected = {tuple(vector(qubo, independent_encoding(puzzle, g))) for g in all_solutions(puzzle)}
    assert expected and zero == expected


@st.composite
def grids(draw):
    h = draw(st.integers(1, 7))
    w = draw(st.integers(1, 7))
    cells = draw(st.lists(st.booleans(), min_size=h * w, max_size=h * w))
    return np.array(cells, dtype=bool).reshape(h, w)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grids())
def test_property_encoding_is_zero_and_every_flip_costs(grid):
    puzzle = Puzzle.from_picture(grid)
    qubo = build(puzzle)
    x = vector(qubo, independent_encoding(puzzle, grid))
    assert qubo.energy(x).tolist() == [0]
    if qubo.num_vars:
        flips = np.repeat(x[None, :], qubo.num_vars, axis=0)
        flips[np.arange(qubo.num_vars), np.arange(qubo.num_vars)] ^= 1
        assert (qubo.energy(flips) > 0).all()
    # the same model through dimod gives the same energies
    bqm = qubo.to_bqm()
    rng = np.random.default_rng(grid.size)
    samples = rng.integers(0, 2, (8, qubo.num_vars)).astype(np.int8)
    if qubo.num_vars:
        ours = qubo.energy(samples)
        theirs = bqm.energies((samples, list(qubo.labels)))
        assert np.array_equal(ours, theirs.astype(np.int64))


def test_lines_without_freedom_have_no_variables():
    puzzle = Puzzle(rows=[[3], [], [1, 1]], cols=[[1, 1], [1], [1, 1]])
    qubo = build(puzzle)
    assert not any(label.startswith(("y0[", "y1[")) for label in qubo.labels)
    assert qubo.energy(Layout.of(puzzle).encode(np.array([[1, 1, 1], [0, 0, 0], [1, 0, 1]]))).tolist() == [0]


def _naive_arrays(puzzle):
    """The model from its definition, one slot square at a time in plain Python, merged by
    :meth:`Qubo.from_terms` (an independent check of the structure-ordered builder)."""
    lay = Layout.of(puzzle)
    h, w, nc = lay.height, lay.width, lay.num_colours
    slots: dict[tuple[int, int], list[tuple[int, int]]] = {}  # (cell, colour) -> [(var, coef)]
    const: dict[tuple[int, int], int] = {}
    pairs, linear = [], [0] * lay.num_vars
    for b in range(lay.num_blocks):
        line, e, r, d = (int(a[b]) for a in (lay.block_line, lay.block_start, lay.block_length, lay.block_margin))
        c, sign, f = int(lay.block_colour[b]), (1 if line < h else -1), int(lay.block_first_var[b])

        def cell(pos: int) -> int:
            return line * w + pos if line < h else pos * w + (line - h)

        for pos in range(e, e + r):  # left-aligned picture
            const[(cell(pos), c)] = const.get((cell(pos), c), 0) + sign
        for p in range(d):
            slots.setdefault((cell(e + p), c), []).append((f + p, -sign))
            slots.setdefault((cell(e + r + p), c), []).append((f + p, sign))
            if p + 1 < d:  # wall shape
                linear[f + p + 1] += 1
                pairs.append((f + p, f + p + 1, -1))
            if b + 1 < lay.num_blocks and int(lay.block_line[b + 1]) == line:  # block order
                linear[f + p] += 1
                pairs.append((f + p, int(lay.block_first_var[b + 1]) + p, -1))
    offset = sum(v * v for v in const.values())
    for key, entries in slots.items():
        c0 = const.get(key, 0)
        for t, (u, cu) in enumerate(entries):
            linear[u] += cu * cu + 2 * c0 * cu
            pairs.extend((u, v, 2 * cu * cv) for v, cv in entries[t + 1:])
    assert nc >= 1
    return Qubo.from_terms(lay.labels(), linear, pairs, offset)


@pytest.mark.parametrize("colours", [1, 3])
@pytest.mark.parametrize("seed", range(6))
def test_structure_ordered_build_matches_the_definition_in_any_chunking(monkeypatch, seed, colours):
    from nonoqubo.model import build_domainwall as build_module  # the domain wall's builder

    rng = np.random.default_rng(seed)
    h, w = rng.integers(2, 12, size=2)
    grid = rng.integers(0, colours + 1, size=(h, w)) * (rng.random((h, w)) < 0.7)
    names = ["red", "green", "blue"][:colours] if colours > 1 else ["black"]
    puzzle = Puzzle.from_picture(grid.astype(np.int8), palette=Palette.of(names))
    want = _naive_arrays(puzzle)
    for chunk in (1 << 22, 1, 7, 64):  # one chunk, and chunks split anywhere (even across rows/columns)
        monkeypatch.setattr(build_module, "_CHUNK", chunk)
        got = build(puzzle)
        assert got.same_model(want), chunk
        assert got.row.dtype == got.col.dtype == np.int32 and got.quad.dtype == np.int8
