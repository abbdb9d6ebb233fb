"""The line-automaton encoding against brute force, the clue's automaton and an independent construction.

* brute force over every assignment of tiny puzzles, black-and-white and colour, with weights:
  the energy is >= 0 and its zero states are exactly the encodings of the solutions (found by
  enumerating every grid), one state per solution;
* term for term against the penalties expanded by dimod's arithmetic from the layered graph of
  :func:`nonoqubo.model.automaton.line_automaton` (worked out state by state here, nothing of
  the geometry's interval arithmetic);
* start and accept conditions hold by the pruning; the per-family penalties add up to the energy;
  presolve keeps exactly the solutions; the exact count equals the build; labels round-trip.
"""

from __future__ import annotations

import itertools
import re

import dimod
import numpy as np
import pytest

from nonoqubo import clues
from nonoqubo.logic.presolve import shift_bounds
from nonoqubo.model.automaton import line_automaton
from nonoqubo.model.build_automaton import (
    build_automaton_arrays,
    count_automaton_terms,
    count_variables,
    estimate_automaton,
    estimate_random_automaton,
)
from nonoqubo.model.line_automaton import AUTOMATON, AutomatonLabels, LineAutomaton
from nonoqubo.model.palette import Palette
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.model.qubo import Qubo
from nonoqubo.model.weights import Weights
from tests.model.references import weighted
from tests.support import SHARED, shared_puzzle, shared_puzzles

RGB = Palette.of(["red", "green", "blue"])
RG = Palette.of(["red", "green"])
WEIGHTS = [(1, 1, 1), (2, 3, 5)]
#: the labels: a{row}[cell][state], b{column}[cell][state]
LABEL = re.compile(r"([ab])(\d+)\[(\d+)\]\[(\d+)\]")


def model(puzzle: Puzzle, weights: tuple[int, int, int] = (1, 1, 1)) -> Qubo:
    """The line-automaton Qubo of *puzzle* (the builder's arrays, the geometry's labels)."""
    geo = LineAutomaton.of(puzzle)
    w = Weights(*weights)
    linear, row, col, quad, offset = build_automaton_arrays(puzzle, geo.layout, w, geo)
    return Qubo(AutomatonLabels(puzzle, geo), linear, row, col, quad, offset, puzzle=puzzle,
                encoding=AUTOMATON, weights=w)


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
    q = model(puzzle, weights)
    geo = LineAutomaton.of(puzzle)
    x = every_assignment(q.num_vars)
    energy = q.energy(x)
    assert energy.min() == 0
    zero = x[energy == 0]
    shifts = geo.shifts_of_columns(np.ascontiguousarray(zero.T))
    rows_view, cols_view = geo.layout.grids(shifts)
    assert np.array_equal(rows_view, cols_view)
    found = [g.tobytes() for g in rows_view]
    assert len(found) == len(set(found))  # one state per solution
    assert set(found) == solutions(puzzle)
    want = {geo.encode(np.frombuffer(g, np.int8).reshape(puzzle.height, puzzle.width)).tobytes()
            for g in solutions(puzzle)}
    assert {z.tobytes() for z in zero} == want


# -- an independent construction: the layered graph of the clue's automaton, state by state ------------
def layered(n: int, lengths, colours, num_colours: int) -> tuple[list[list[int]], dict[int, int], object]:
    """The possible states of every cell (reachable from the start, co-reachable to an accept), and each
    state's entry symbol."""
    dfa = line_automaton(lengths, colours, num_colours)
    step = {(q, s): r for q, s, r in dfa.transitions}
    symbol: dict[int, int] = {}
    for _, s, r in dfa.transitions:
        assert symbol.setdefault(r, s) == s  # every state is entered on one symbol only
    forward, states = [], {dfa.start}
    for _ in range(n):
        states = {step[q, s] for q in states for s in range(dfa.symbols) if (q, s) in step}
        forward.append(states)
    backward, states = [None] * n, set(dfa.finals)
    for j in range(n - 1, -1, -1):
        backward[j] = states
        states = {q for q in range(1, dfa.states + 1) for s in range(dfa.symbols) if step.get((q, s)) in states}
    return [sorted(f & b) for f, b in zip(forward, backward)], symbol, dfa


def reference_families(puzzle: Puzzle) -> tuple[list[str], dict[str, dimod.BinaryQuadraticModel]]:
    labels: list[str] = []
    shape, order = dimod.BinaryQuadraticModel("BINARY"), dimod.BinaryQuadraticModel("BINARY")
    coverage: dict[tuple[int, int, int], list] = {}  # (i, j, colour) -> [row form, column form]
    for is_row, cl, cc, n, letter in ((True, puzzle.rows, puzzle.row_colours, puzzle.width, "a"),
                                      (False, puzzle.cols, puzzle.col_colours, puzzle.height, "b")):
        for index, (lengths, colours) in enumerate(zip(cl, cc)):
            possible, symbol, dfa = layered(n, lengths, colours, puzzle.num_colours)
            table = dfa.table()
            constant = all(len(p) == 1 for p in possible)
            names = [{q: f"{letter}{index}[{j}][{q}]" for q in p} for j, p in enumerate(possible)]
            for j, p in enumerate(possible):
                cell = (index, j) if is_row else (j, index)
                for q in p:
                    term = 1 if constant else dimod.Binary(names[j][q])
                    if symbol[q]:
                        slot = coverage.setdefault((*cell, symbol[q]), [0, 0])
                        slot[0 if is_row else 1] += term
                if constant:
                    continue
                labels.extend(names[j][q] for q in p)
                shape += (1 - sum(dimod.Binary(names[j][q]) for q in p)) ** 2
                if j + 1 < n:
                    for q, q2 in itertools.product(p, possible[j + 1]):
                        if table[q - 1][symbol[q2]] != q2:
                            order += dimod.Binary(names[j][q]) * dimod.Binary(names[j + 1][q2])
    cell = dimod.BinaryQuadraticModel("BINARY")
    for row_form, col_form in coverage.values():
        cell += (row_form - col_form) ** 2
    for v in labels:
        shape.add_variable(v, 0)
    return labels, {"shape": shape, "order": order, "cell": cell}


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
    labels, families = reference_families(puzzle)
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
        est = estimate_automaton(p, weights=Weights(*weights))
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
    est = estimate_random_automaton(size, size, density)
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


def test_labels_are_lazy_and_equal_to_the_list(logo):
    labels = AutomatonLabels(logo)
    assert len(labels) == LineAutomaton.of(logo).num_vars and labels == LineAutomaton.of(logo).labels()
