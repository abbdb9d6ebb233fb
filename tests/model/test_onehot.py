"""The one-hot encoding (issue 22) against brute force and an independent construction.

* brute force over every assignment of tiny puzzles, black-and-white and colour, in both
  encodings and with weights: the energy is >= 0 and its zero states are exactly the
  encodings of the solutions (found by enumerating every grid), one state per solution;
* term for term against the penalties expanded by dimod's arithmetic from the clues
  (``tests/model/references.py``, which uses nothing of nonoqubo's model code);
* the geometry's labels, order and presolve rule; the exact estimate.
"""

from __future__ import annotations


import numpy as np
import pytest

from nonoqubo import clues
from nonoqubo.logic.presolve import fixings, presolve_qubo
from nonoqubo.model.build import build
from nonoqubo.model.estimate import estimate
from nonoqubo.errors import EncodingError
from nonoqubo.model.encodings import encoding_named, geometry_of, names
from nonoqubo.model.onehot import OneHot, triangle_row
from nonoqubo.model.palette import Palette
from nonoqubo.model.puzzle import Puzzle
from tests.model.references import FAMILIES, weighted
from tests.support import SHARED, shared_puzzle, shared_puzzles
from tests.support.brute import all_assignments, all_solutions

RGB = Palette.of(["red", "green", "blue"])
ENCODINGS = names()  # every registered encoding
WEIGHTS = [(1, 1, 1), (2, 3, 5)]


def solutions(puzzle: Puzzle) -> set[bytes]:
    """Every solution (colour indices), as bytes, from the clues alone (tests.support.brute)."""
    return {g.tobytes() for g in all_solutions(puzzle)}


def tiny_puzzles() -> list[Puzzle]:
    rng = np.random.default_rng(22)
    out = [Puzzle.from_picture(["#.", ".#"]),  # two solutions
           Puzzle.from_picture(["#.#", ".##", "#.."]),
           Puzzle.from_picture(["r.", ".r"], palette=RGB),
           Puzzle.from_picture(["rg.", ".gr"], palette=RGB),  # touching colours: no gap between them
           Puzzle.from_picture(["rr.", "..g"], palette=RGB)]
    while len(out) < 10:
        if len(out) % 2:
            grid = rng.integers(0, 3, size=(2, 3))
            p = Puzzle.from_picture(grid, palette=Palette.of(["red", "green"]))
        else:
            p = Puzzle.from_picture(["".join("#" if v else "." for v in row) for row in rng.random((3, 3)) < 0.5])
        if 0 < build(p, encoding="one-hot").num_vars <= 15:
            out.append(p)
    return out


def encodes(puzzle: Puzzle, encoding: str) -> bool:
    """Whether *encoding* encodes *puzzle* (colour puzzles only in encodings with a colour model)."""
    return puzzle.num_colours == 1 or encoding_named(encoding).colour


TINY = tiny_puzzles()


@pytest.mark.parametrize("weights", WEIGHTS, ids=str)
@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("puzzle", TINY, ids=lambda p: "/".join(p.solution))
def test_brute_force_zero_states_are_exactly_the_solutions(puzzle, encoding, weights):
    if puzzle.num_colours > 1 and not encoding_named(encoding).colour:  # refused by name, or encoded
        with pytest.raises(EncodingError, match=f"the {encoding} encoding has no colour model"):
            build(puzzle, encoding=encoding, weights=weights)
        return
    q = build(puzzle, encoding=encoding, weights=weights)
    geo = geometry_of(puzzle, encoding=encoding)
    n = q.num_vars
    x = all_assignments(n)
    energy = q.energy(x)
    assert energy.min() == 0
    zero = x[energy == 0]
    shifts = geo.shifts_of_columns(np.ascontiguousarray(zero.T))
    rows_view, cols_view = geo.layout.grids(shifts)
    assert np.array_equal(rows_view, cols_view)
    found = [g.tobytes() for g in rows_view]
    assert len(found) == len(set(found))  # one state per solution
    assert set(found) == solutions(puzzle)
    # and the zero states are the encodings of those solutions
    want = {geo.encode(np.frombuffer(g, np.int8).reshape(puzzle.height, puzzle.width)).tobytes()
            for g in solutions(puzzle)}
    assert {z.tobytes() for z in zero} == want


def reference_puzzles() -> list[tuple[str, Puzzle]]:
    out = [(name, p) for name, p, _ in shared_puzzles() if p.width * p.height <= 100][:4]
    out.append(("qbpp-logo", shared_puzzle("qbpp-logo")))
    for path in sorted((SHARED / "colour").glob("*.json")):
        p = clues.load(path)
        if p.width * p.height <= 150:
            out.append((path.stem, p))
    rng = np.random.default_rng(5)
    for k in range(3):
        grid = rng.integers(0, 3, size=(5, 6))
        out.append((f"random-colour-{k}", Puzzle.from_picture(grid, palette=Palette.of(["red", "green"]))))
    out += [(f"tiny-{k}", p) for k, p in enumerate(TINY)]
    return out


def as_dicts(bqm) -> tuple[dict, dict, int]:
    lin = {v: int(b) for v, b in bqm.linear.items() if b}
    quad = {frozenset(k): int(b) for k, b in bqm.quadratic.items() if b}
    return lin, quad, int(bqm.offset)


@pytest.mark.parametrize("weights", WEIGHTS, ids=str)
@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("name,puzzle", reference_puzzles(), ids=[n for n, _ in reference_puzzles()])
def test_term_for_term_the_weighted_sum_of_the_independent_families(name, puzzle, encoding, weights):
    labels, families = FAMILIES[encoding](puzzle)
    q = build(puzzle, encoding=encoding, weights=weights)
    assert list(q.labels) == labels
    assert as_dicts(q.to_bqm()) == as_dicts(weighted(families, weights))
    assert np.all(q.row < q.col) and np.all(np.diff(q.row.astype(np.int64) * q.num_vars + q.col) > 0)


def test_labels_are_distinct_from_the_domain_wall_ones(logo):
    oh, dw = build(logo, encoding="one-hot"), build(logo)
    assert not set(oh.labels) & set(dw.labels)
    assert oh.labels[0] == "r0[0][0]" and oh.labels[-1].startswith("c14[")
    geo = OneHot.of(logo)
    # rows first by (line, block, shift), then columns
    keys = [(geo.layout.block_line[b], geo.layout.block_k[b], s) for b, s in zip(geo.var_block, geo.var_s)]
    assert keys == sorted(keys)
    assert oh.num_vars == int(((logo_margins := geo.layout.block_margin) + 1)[logo_margins > 0].sum())


def test_order_family_is_every_earlier_shift_of_the_next_block():
    geo = OneHot.of(Puzzle(rows=[[1, 1, 1]], cols=[[1], [], [1], [], [1], []]))  # d = 1 in the row
    lay = geo.layout
    pairs = {(geo.labels()[a], geo.labels()[b]) for a, b in zip(geo.order.first, geo.order.second)}
    assert pairs == {("r0[0][1]", "r0[1][0]"), ("r0[1][1]", "r0[2][0]")}
    assert lay.block_margin[0] == 1


def test_triangle_row_inverts_the_triangle_numbers():
    s = np.arange(1, 3000)
    t = np.concatenate([np.arange(k * (k - 1) // 2, k * (k + 1) // 2) for k in s[:200]])
    got = triangle_row(t)
    assert np.all(got * (got - 1) // 2 <= t) and np.all(t < got * (got + 1) // 2)
    big = s * (s - 1) // 2
    assert np.array_equal(triangle_row(big), s) and np.array_equal(triangle_row(big + s - 1), s)


@pytest.mark.parametrize("puzzle,encoding", [(p, e) for e in ENCODINGS for p in TINY if encodes(p, e)],
                         ids=lambda v: v if isinstance(v, str) else "/".join(v.solution))
def test_presolve_keeps_exactly_the_solutions(puzzle, encoding):
    full = build(puzzle, encoding=encoding)
    reduced = presolve_qubo(puzzle, full)
    assert reduced.encoding is full.encoding
    geo = geometry_of(puzzle, encoding=encoding)
    want = {geo.encode(np.frombuffer(g, np.int8).reshape(puzzle.height, puzzle.width)).tobytes()
            for g in solutions(puzzle)}
    # every fixed value is the value of every solution
    index = {label: i for i, label in enumerate(geo.labels())}
    for label, value in reduced.fixed.items():
        assert {w[index[label]] for w in want} == {value}
    n = reduced.num_vars
    x = all_assignments(n)
    energy = reduced.energy(x)
    assert energy.min() == 0
    from nonoqubo.logic.presolve import complete

    got = {row.tobytes() for row in complete(reduced, x[energy == 0])}
    assert got == want


def test_presolve_fixes_shifts_outside_the_bounds_on_shared_puzzles():
    for name in ("qbpp-logo", "gecode-castle", "sgt-pattern-10x10"):
        p = shared_puzzle(name)
        full = build(p, encoding="one-hot")
        reduced = presolve_qubo(p, full)
        fixed = fixings(p, encoding="one-hot")
        assert dict(reduced.fixed) == fixed and reduced.num_vars == full.num_vars - len(fixed)
        sol = geometry_of(p, encoding="one-hot").encode(p.solution_grid())
        index = {label: i for i, label in enumerate(full.labels)}
        assert all(sol[index[k]] == v for k, v in fixed.items())
        kept = np.array([sol[index[k]] for k in reduced.labels], np.int8)
        assert int(reduced.energy(kept)[0]) == 0


def random_puzzles(count: int, seed: int) -> list[Puzzle]:
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        h, w = rng.integers(2, 14, size=2)
        if k % 3 == 2:
            out.append(Puzzle.from_picture(rng.integers(0, 3, size=(h, w)), palette=Palette.of(["red", "green"])))
        else:
            grid = rng.random((h, w)) < rng.uniform(0.2, 0.8)
            out.append(Puzzle.from_picture(["".join("#" if v else "." for v in row) for row in grid]))
    return out


@pytest.mark.parametrize("weights", WEIGHTS, ids=str)
def test_the_one_hot_estimate_is_exact(weights):
    for p in random_puzzles(25, 3):
        q = build(p, encoding="one-hot", weights=weights)
        est = estimate(p, encoding="one-hot", weights=weights)
        assert (est.variables, est.terms) == (q.num_vars, q.num_terms)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_estimate_counts_the_variables_exactly_and_bounds_the_terms(encoding):
    """Every registered encoding's estimate, before building: exact variables, at least the terms."""
    for p in random_puzzles(25, 5):
        if encodes(p, encoding):
            q = build(p, encoding=encoding)
            est = estimate(p, encoding=encoding)
            assert est.variables == q.num_vars and est.terms >= q.num_terms


def test_the_domain_wall_estimate_keeps_its_contract():
    """Exact variables, an upper bound on the terms (merged and cancelled terms make the difference)."""
    for p in random_puzzles(25, 4):
        q = build(p)
        est = estimate(p)
        assert est.variables == q.num_vars and est.terms >= q.num_terms
