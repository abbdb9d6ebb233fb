"""The line-automaton encoding against brute force, the clue's automaton and an independent construction.

* brute force over every assignment of tiny puzzles, black-and-white and colour, with weights:
  the energy is >= 0 and its zero states are exactly the encodings of the solutions (found by
  enumerating every grid), one state per solution;
* term for term against the penalties expanded by dimod's arithmetic from the layered graph of
  :func:`nonoqubo.model.automaton.line_automaton` (tests/model/references.py, nothing of
  the geometry's interval arithmetic);
* start and accept conditions hold by the pruning; the per-family penalties add up to the energy;
  presolve keeps exactly the solutions; the exact count equals the build; labels round-trip.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from nonoqubo import clues
from nonoqubo.answers.decode import decode
from nonoqubo.logic.presolve import complete, presolve_qubo, shift_bounds
from nonoqubo.model.automaton import line_automaton
from nonoqubo.model.build import build
from nonoqubo.model.build_automaton import count_automaton_terms, count_variables
from nonoqubo.model.encoding import bracket_name, flat_name, parse_label
from nonoqubo.model.encodings import Encoding, encoding_named, encoding_of_label
from nonoqubo.model.estimate import estimate, estimate_random
from nonoqubo.model.line_automaton import AUTOMATON, LineAutomaton
from nonoqubo.model.palette import Palette
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.model.qubo import Qubo
from nonoqubo.model.weights import Weights
from tests.model.references import FAMILIES, weighted
from tests.support import SHARED, shared_puzzle, shared_puzzles

RGB = Palette.of(["red", "green", "blue"])
RG = Palette.of(["red", "green"])
WEIGHTS = [(1, 1, 1), (2, 3, 5)]
#: the labels: a{row}[cell][state], b{column}[cell][state]
LABEL = re.compile(r"([ab])(\d+)\[(\d+)\]\[(\d+)\]")


def model(puzzle: Puzzle, weights: tuple[int, int, int] = (1, 1, 1)) -> Qubo:
    """The line-automaton Qubo of *puzzle*, built through the registry."""
    q = build(puzzle, encoding=AUTOMATON, weights=Weights(*weights))
    assert q.encoding == AUTOMATON and isinstance(q.encoding, Encoding)
    return q


def solutions(puzzle: Puzzle) -> set[bytes]:
    """Every solution, by enumerating every grid of colour indices."""
    h, w, c = puzzle.height, puzzle.width, puzzle.num_colours
    grids = np.array(list(itertools.product(range(c + 1), repeat=h * w)), np.int8).reshape(-1, h, w)
    return {g.tobytes() for g in grids if not puzzle.mismatched_lines(g)}


def tiny_puzzles() -> list[Puzzle]:
    rng = np.random.default_rng(29)
    out = [Puzzle.from_picture(["#.", ".#"]),  # two solutions
           Puzzle.from_picture(["#.#", "..."]),
           Puzzle.from_picture(["r.", ".r"], palette=RGB),
           Puzzle.from_picture(["rg", ".g"], palette=RGB),  # touching colours: no gap between them
           Puzzle.from_picture(["r.g", "g.r"], palette=RGB)]
    while len(out) < 10:
        shape = (2, 3) if len(out) % 2 else (3, 2)
        if len(out) % 3 == 0:
            p = Puzzle.from_picture(rng.integers(0, 3, size=shape), palette=RG)
        else:
            p = Puzzle.from_picture(["".join("#" if v else "." for v in row) for row in rng.random(shape) < 0.5])
        if 0 < LineAutomaton.of(p).num_vars <= 16:
            out.append(p)
    return out


TINY = tiny_puzzles()


def every_assignment(n: int) -> np.ndarray:
    """All ``2^n`` assignments of *n* variables, one a row (the bits of 0 .. 2^n - 1)."""
    return ((np.arange(2 ** n)[:, None] >> np.arange(n - 1, -1, -1)) & 1).astype(np.int8)


@pytest.mark.parametrize("weights", WEIGHTS, ids=str)
@pytest.mark.parametrize("puzzle", TINY, ids=lambda p: "/".join(p.solution))
def test_brute_force_zero_states_are_exactly_the_solutions(puzzle, weights):
    """Over every assignment: energy >= 0, and 0 exactly at the encodings of the solutions, one each."""
    geo = LineAutomaton.of(puzzle)
    every = solutions(puzzle)
    want = {geo.encode(np.frombuffer(g, np.int8).reshape(puzzle.height, puzzle.width)).tobytes() for g in every}
    assert len(want) == len(every) > 0
    x = every_assignment(geo.num_vars)
    energy = model(puzzle, weights).energy(x)
    assert energy.min() == 0
    assert {z.tobytes() for z in x[energy == 0]} == want


def reference_puzzles() -> list[tuple[str, Puzzle]]:
    out = [(name, p) for name, p, _ in shared_puzzles() if p.width * p.height <= 64][:3]
    for path in sorted((SHARED / "colour").glob("*.json")):
        p = clues.load(path)
        if p.width * p.height <= 60:
            out.append((path.stem, p))
    rng = np.random.default_rng(7)
    for k in range(3):
        out.append((f"random-colour-{k}", Puzzle.from_picture(rng.integers(0, 3, size=(4, 5)), palette=RG)))
    out += [(f"tiny-{k}", p) for k, p in enumerate(TINY)]
    return out


REFERENCE = reference_puzzles()


def as_dicts(bqm) -> tuple[dict, dict, int]:
    lin = {v: int(b) for v, b in bqm.linear.items() if b}
    quad = {frozenset(k): int(b) for k, b in bqm.quadratic.items() if b}
    return lin, quad, int(bqm.offset)


@pytest.mark.parametrize("weights", WEIGHTS, ids=str)
@pytest.mark.parametrize("name,puzzle", REFERENCE, ids=[n for n, _ in REFERENCE])
def test_term_for_term_the_weighted_sum_of_the_automaton_families(name, puzzle, weights):
    labels, families = FAMILIES[AUTOMATON](puzzle)
    q = model(puzzle, weights)
    assert list(q.labels) == labels
    assert as_dicts(q.to_bqm()) == as_dicts(weighted(families, weights))
    assert np.all(q.row < q.col) and np.all(np.diff(q.row.astype(np.int64) * q.num_vars + q.col) > 0)
    assert np.all(q.quad != 0) and q.quad.dtype.kind == "i" and q.linear.dtype == np.int64


@pytest.mark.parametrize("name,puzzle", REFERENCE, ids=[n for n, _ in REFERENCE])
def test_start_and_accept_states_hold_by_the_pruning(name, puzzle):
    """Cell 0 holds exactly the states one symbol from the start, the last cell only accepting states,
    and the geometry's transitions are the automaton's: no start or accept penalty is needed."""
    geo = LineAutomaton.of(puzzle)
    lay = geo.layout
    seen = 0
    for line in np.flatnonzero(lay.line_margin > 0).tolist():
        b0, b1 = lay.line_first_block[line], lay.line_first_block[line + 1]
        dfa = line_automaton(lay.block_length[b0:b1], lay.block_colour[b0:b1], puzzle.num_colours)
        n = int(lay.line_length[line])
        var = np.flatnonzero(geo.var_line == line)
        state, pos = geo.state_q[geo.var_state[var]], geo.var_pos[var]
        assert set(state[pos == 0].tolist()) == {r for q, _, r in dfa.transitions if q == dfa.start}
        assert set(state[pos == n - 1].tolist()) <= set(dfa.finals)
        assert all(np.count_nonzero(pos == j) >= 2 for j in range(n))  # no constant cell in a variable line
        s0 = int(geo.line_first_state[line])
        states = np.arange(s0, int(geo.line_first_state[line + 1]))
        mine = {(q, q + step) for step, ok in enumerate(geo.successors(states))
                for q in (states[ok] - s0 + 1).tolist()}
        assert mine == {(q, r) for q, _, r in dfa.transitions}
        seen += 1
    assert seen == int(np.count_nonzero(lay.line_margin > 0)) > 0


def random_samples(n: int, count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.random((count, n)) < rng.uniform(0.05, 0.6, size=(count, 1))).astype(np.int8)


@pytest.mark.parametrize("weights", WEIGHTS, ids=str)
@pytest.mark.parametrize("name", ["qbpp-logo", "gecode-castle"])
def test_the_families_and_the_cells_add_up_to_the_energy(name, weights):
    puzzle = shared_puzzle(name)
    geo = LineAutomaton.of(puzzle)
    q = model(puzzle, weights)
    x = random_samples(q.num_vars, 40, 3)
    x[0] = geo.encode(puzzle.solution_grid())
    xt = np.ascontiguousarray(x.T)
    hw = puzzle.height * puzzle.width * puzzle.num_colours
    views = []
    for rows in (True, False):
        e = geo.slot_entries(rows)
        cover = np.repeat(geo.left_aligned(rows).astype(np.int64)[:, None], x.shape[0], axis=1)
        np.add.at(cover, e.slot, xt[e.var] * e.coef[:, None])
        views.append(cover)
    a_w, b_w, c_w = weights
    cells = ((views[0] - views[1]) ** 2).sum(axis=0)
    total = a_w * geo.shape.violations(xt).sum(axis=0) + b_w * geo.order.violations(xt).sum(axis=0) + c_w * cells
    assert views[0].shape[0] == hw
    assert np.array_equal(total, q.energy(x))
    assert total[0] == 0 and np.all(total[1:] > 0)


@pytest.mark.parametrize("name", ["qbpp-logo", "gecode-castle", "sgt-pattern-10x10"])
def test_encode_and_shifts_are_inverse_on_the_solution(name):
    puzzle = shared_puzzle(name)
    geo = LineAutomaton.of(puzzle)
    sol = geo.encode(puzzle.solution_grid())
    shifts = geo.shifts_of_columns(sol[:, None])[0]
    assert np.array_equal(geo.layout.view_grid(shifts)[0], puzzle.solution_grid())
    assert np.array_equal(geo.encode_shifts(shifts), sol)
    assert int(model(puzzle).energy(sol)[0]) == 0
    # one state per cell, each line's run accepted
    assert np.all(np.add.reduceat(sol, geo.cell_first_var[:-1]) == 1)


def test_encode_refuses_a_grid_that_breaks_a_clue():
    puzzle = Puzzle.from_picture(["#.", ".#"])
    with pytest.raises(ValueError, match="row 1"):
        LineAutomaton.of(puzzle).encode(np.array([[1, 1], [0, 1]]))


def test_shifts_of_a_broken_sample_take_the_first_start_and_default_to_zero():
    geo = LineAutomaton.of(Puzzle(rows=[[1]], cols=[[1], [], []]))  # row 0: one block, d = 2
    labels = geo.labels()
    x = np.zeros((geo.num_vars, 2), np.int8)
    x[labels.index("a0[1][2]"), 0] = 1
    x[labels.index("a0[2][2]"), 0] = 1  # the block's first cell twice: the first counts
    shifts = geo.shifts_of_columns(x)
    assert shifts[:, 0].tolist() == [1, 0]


@pytest.mark.parametrize("puzzle", TINY[:6], ids=lambda p: "/".join(p.solution))
def test_presolve_rule_keeps_exactly_the_solutions(puzzle):
    q = model(puzzle)
    geo = LineAutomaton.of(puzzle)
    values = geo.fixed_by_bounds(*shift_bounds(puzzle))
    want = {geo.encode(np.frombuffer(g, np.int8).reshape(puzzle.height, puzzle.width)).tobytes()
            for g in solutions(puzzle)}
    every = np.array([np.frombuffer(w, np.int8) for w in want])
    fixed = np.flatnonzero(values >= 0)
    assert np.all(every[:, fixed] == values[fixed])  # every fixed value is every solution's
    labels = geo.labels()
    reduced = q.fix({labels[i]: int(values[i]) for i in fixed.tolist()})
    x = every_assignment(reduced.num_vars)
    energy = reduced.energy(x)
    assert energy.min() == 0
    keep = [labels.index(label) for label in reduced.labels]
    full = np.zeros((int(np.count_nonzero(energy == 0)), geo.num_vars), np.int8)
    full[:, fixed] = values[fixed]
    full[:, keep] = x[energy == 0]
    assert {row.tobytes() for row in full} == want


@pytest.mark.parametrize("name", ["qbpp-logo", "gecode-castle", "sgt-pattern-10x10"])
def test_presolve_rule_fixes_only_the_solution_values_on_shared_puzzles(name):
    puzzle = shared_puzzle(name)
    geo = LineAutomaton.of(puzzle)
    values = geo.fixed_by_bounds(*shift_bounds(puzzle))
    sol = geo.encode(puzzle.solution_grid())
    fixed = values >= 0
    assert np.array_equal(sol[fixed], values[fixed]) and fixed.any()
    # a line-solvable puzzle is fixed whole
    if name == "qbpp-logo":
        assert fixed.all()


def random_puzzles(count: int, seed: int) -> list[Puzzle]:
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        h, w = rng.integers(1, 14, size=2)
        if k % 3 == 2:
            out.append(Puzzle.from_picture(rng.integers(0, 3, size=(h, w)), palette=RG))
        else:
            grid = rng.random((h, w)) < rng.uniform(0.1, 0.9)
            out.append(Puzzle.from_picture(["".join("#" if v else "." for v in row) for row in grid]))
    return out


@pytest.mark.parametrize("weights", WEIGHTS, ids=str)
def test_the_count_is_exact(weights):
    for p in random_puzzles(30, 11):
        q = model(p, weights)
        n, linear, quadratic = count_automaton_terms(p, weights=Weights(*weights))
        assert (n, linear, quadratic) == (q.num_vars, q.num_linear, q.num_quadratic)
        est = estimate(p, encoding=AUTOMATON, weights=Weights(*weights))
        assert (est.variables, est.terms) == (q.num_vars, q.num_terms)
        assert int(count_variables(LineAutomaton.of(p).layout).sum()) == q.num_vars


def test_the_bound_past_the_exact_limit_holds(monkeypatch):
    import nonoqubo.model.build_automaton as ba

    monkeypatch.setattr(ba, "EXACT_VARIABLES", 0)
    for p in random_puzzles(12, 5):
        q = model(p)
        n, terms = ba.count_terms(p, LineAutomaton.of(p).layout)
        assert n == q.num_vars and terms >= q.num_terms


@pytest.mark.parametrize("size,density", [(30, 0.5), (40, 0.3), (25, 0.7)])
def test_the_random_estimate_is_near_a_random_puzzle(size, density):
    rng = np.random.default_rng(size)
    grid = rng.random((size, size)) < density
    p = Puzzle.from_picture(["".join("#" if v else "." for v in row) for row in grid])
    n, linear, quadratic = count_automaton_terms(p)
    est = estimate_random(size, size, density, encoding=AUTOMATON)
    assert 0.7 < est.variables / n < 1.3
    assert 0.6 < est.terms / (linear + quadratic) < 1.5


def test_labels_are_distinct_and_in_line_cell_state_order(logo):
    geo = LineAutomaton.of(logo)
    labels = geo.labels()
    assert len(set(labels)) == len(labels) == geo.num_vars
    parts = [(m[1], int(m[2]), int(m[3]), int(m[4])) for m in map(LABEL.fullmatch, labels) if m]
    assert len(parts) == len(labels)
    h = logo.height
    keys = [(0 if letter == "a" else 1, line, cell, q) for letter, line, cell, q in parts]
    assert keys == sorted(keys)
    assert [(line + (h if letter == "b" else 0), cell, q) for letter, line, cell, q in parts] == list(
        zip(geo.var_line.tolist(), geo.var_pos.tolist(), geo.state_q[geo.var_state].tolist()))


def test_labels_round_trip_through_the_label_grammar(logo):
    q = model(logo)
    labels = list(q.labels)
    assert len(q.labels) == q.num_vars and q.labels == LineAutomaton.of(logo).labels()
    assert all(bracket_name(flat_name(label)) == label and "[" not in flat_name(label) for label in labels)
    assert {encoding_of_label(label) for label in labels} == {encoding_named(AUTOMATON)}
    assert all(parse_label(flat_name(label)) == parse_label(label) for label in labels[:50])


@pytest.mark.parametrize("weights", WEIGHTS, ids=str)
@pytest.mark.parametrize("name", ["gecode-castle", "sgt-pattern-10x10"])
def test_decode_reports_penalties_that_add_up_to_the_energy(name, weights):
    puzzle = shared_puzzle(name)
    q = model(puzzle, weights)
    x = random_samples(q.num_vars, 12, 5)
    x[0] = LineAutomaton.of(puzzle).encode(puzzle.solution_grid())
    reports = decode(q, x)
    energy = q.energy(x)
    assert [r.energy for r in reports] == energy.tolist()
    assert all(r.penalty_total == r.energy for r in reports)
    assert reports[0].valid and np.array_equal(reports[0].grid, puzzle.solution_grid())
    assert all(r.penalties["wall_shape"] and r.penalties["block_order"] for r in reports[1:])
    assert reports[0].encoding == AUTOMATON


def test_decode_a_colour_puzzle_through_the_automaton():
    puzzle = clues.load(sorted((SHARED / "colour").glob("*.json"))[0])
    q = model(puzzle)
    sol = LineAutomaton.of(puzzle).encode(puzzle.solution_grid())
    bad = sol.copy()
    bad[np.flatnonzero(sol)[0]] = 0
    good, broken = decode(q, np.stack([sol, bad]))
    assert good.valid and np.array_equal(good.grid, puzzle.solution_grid())
    assert not broken.valid and broken.penalty_total == broken.energy == int(q.energy(bad)[0]) > 0


@pytest.mark.parametrize("puzzle", TINY[:6], ids=lambda p: "/".join(p.solution))
def test_presolve_qubo_keeps_the_encoding_and_the_solutions(puzzle):
    q = model(puzzle)
    reduced = presolve_qubo(puzzle, q)
    assert reduced.encoding == AUTOMATON
    x = every_assignment(reduced.num_vars)
    energy = reduced.energy(x)
    assert energy.min() == 0
    got = {row.tobytes() for row in complete(reduced, x[energy == 0])}
    geo = LineAutomaton.of(puzzle)
    assert got == {geo.encode(np.frombuffer(g, np.int8).reshape(puzzle.height, puzzle.width)).tobytes()
                   for g in solutions(puzzle)}
