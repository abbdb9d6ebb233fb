"""The constrained (0-1 ILP) model: constraints, names, fixings, violations, the dimod CQM."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonoqubo.model.build import build
from nonoqubo.model.constrained import ConstrainedModel, build_constrained
from nonoqubo.model.encoding import Layout, flat_name
from nonoqubo.errors import PuzzleError, SampleError
from nonoqubo.model.puzzle import Puzzle

from tests.support import shared_puzzle, shared_puzzles

SMALL = [(name, p) for name, p, _ in shared_puzzles() if Layout.of(p).num_vars <= 3000]


def penalty_by_hand(m: ConstrainedModel, full: np.ndarray) -> np.ndarray:
    """QUBO energy rebuilt from the rows: sum of squared cell residuals + broken walls + broken orders."""
    act = m.activities(full)
    res = act - m.rhs[None, :]
    cell = m.kind == 0
    ineq = ~cell
    return (res[:, cell] ** 2).sum(axis=1) + (res[:, ineq] < 0).sum(axis=1)


def test_logo_figures(logo):
    m = build_constrained(logo)
    assert m.num_vars == 437 and m.labels == Layout.of(logo).labels()
    counts = m.counts()
    lay = Layout.of(logo)
    # one wall row per consecutive pair of a block's variables, one order row per variable
    # of a block followed by another in its line
    assert counts["wall"] == int((lay.block_margin[lay.block_margin > 0] - 1).sum())
    nxt = np.zeros(lay.num_blocks, bool)
    nxt[:-1] = lay.block_line[1:] == lay.block_line[:-1]
    assert counts["order"] == int(lay.block_margin[nxt].sum())
    assert counts["cell"] <= 225
    assert m.num_constraints == len(set(m.names))
    assert m.coefs.dtype == np.int64 and set(np.unique(m.coefs)) <= {-1, 1}


def test_names_and_rows(logo):
    m = build_constrained(logo)
    names = {n: c for c, n in enumerate(m.names)}
    # a wall: w[k][p] - w[k][p+1] >= 0
    c = names["wall_y3_k1_p2"]
    assert m.row_terms(c) == [(1, "y3[1][2]"), (-1, "y3[1][3]")]
    assert (m.sense_of(c), int(m.rhs[c])) == (">=", 0)
    # an order: w[k+1][p] - w[k][p] >= 0
    c = names["order_z5_k0_p4"]
    assert m.row_terms(c) == [(-1, "z5[0][4]"), (1, "z5[1][4]")]
    assert (m.sense_of(c), int(m.rhs[c])) == (">=", 0)
    assert m.sense_of(names["cell_7_7"]) == "=="


def test_cell_row_is_colour_difference():
    # 1x3 row clue [1] and columns [], [1], []: d = 2 for the row, columns are constants
    p = Puzzle(rows=[[1]], cols=[[], [1], []])
    m = build_constrained(p)
    # row colour(0, j) = L(j) + w[p = j - 1] - w[p = j]; column colours are 0, 1, 0
    rows = {n: (m.row_terms(c), int(m.rhs[c])) for c, n in enumerate(m.names) if n.startswith("cell")}
    assert rows == {
        "cell_0_0": ([(-1, "y0[0][0]")], -1),  # 1 - w0 = 0
        "cell_0_1": ([(1, "y0[0][0]"), (-1, "y0[0][1]")], 1),  # w0 - w1 = 1
        "cell_0_2": ([(1, "y0[0][1]")], 0),  # w1 = 0
    }


@pytest.mark.parametrize("name,puzzle", SMALL[:25], ids=[n for n, _ in SMALL[:25]])
def test_solution_satisfies_everything(name, puzzle):
    m = build_constrained(puzzle)
    sol = Layout.of(puzzle).encode(puzzle.solution_grid())
    assert m.constraint_violations(sol) == [[]]


@pytest.mark.parametrize("name,puzzle", SMALL[::3], ids=[n for n, _ in SMALL[::3]])
def test_violations_zero_exactly_when_energy_zero(name, puzzle):
    rng = np.random.default_rng(len(name))
    m, q = build_constrained(puzzle), build(puzzle)
    n = q.num_vars
    sol = Layout.of(puzzle).encode(puzzle.solution_grid())
    near = np.repeat(sol[None, :], 60, axis=0)
    flips = rng.integers(0, n, size=(60, 2))
    near[np.arange(60), flips[:, 0]] ^= 1
    near[:20, flips[:20, 1]] ^= 1  # some with two flips (may cancel: still a solution)
    samples = np.concatenate((rng.integers(0, 2, (40, n)), near, sol[None, :]))
    energy = q.energy(samples)
    counts = np.array([len(v) for v in m.constraint_violations(samples)])
    assert np.array_equal(counts == 0, energy == 0)
    assert np.array_equal(penalty_by_hand(m, samples), energy)
    assert (energy[-1], counts[-1]) == (0, 0) and counts[:40].min() > 0


@st.composite
def picture_and_samples(draw):
    h, w = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    bits = draw(st.lists(st.booleans(), min_size=h * w, max_size=h * w))
    grid = np.array(bits, bool).reshape(h, w)
    seed = draw(st.integers(0, 2**31))
    return grid, seed


@settings(max_examples=60, deadline=None)
@given(picture_and_samples())
def test_penalty_identity_on_random_puzzles(case):
    grid, seed = case
    try:
        puzzle = Puzzle.from_picture(grid)
    except PuzzleError:  # an all-white picture has no clues to speak of
        return
    m, q = build_constrained(puzzle), build(puzzle)
    samples = np.random.default_rng(seed).integers(0, 2, (30, q.num_vars))
    energy = q.energy(samples)
    assert np.array_equal(penalty_by_hand(m, samples), energy)
    counts = np.array([len(v) for v in m.constraint_violations(samples)])
    assert np.array_equal(counts == 0, energy == 0)


def test_fixed_from_the_solution(logo):
    lay = Layout.of(logo)
    labels = lay.labels()
    sol = lay.encode(logo.solution_grid())
    rng = np.random.default_rng(7)
    pick = rng.choice(len(labels), size=150, replace=False)
    fixed = {labels[i]: int(sol[i]) for i in pick}
    m = build_constrained(logo, fixed)
    assert m.num_vars == 437 - 150 and not set(m.labels) & set(fixed)
    assert dict(m.fixed) == fixed and list(m.fixed) == [labels[i] for i in sorted(pick)]
    full = build_constrained(logo)
    assert m.num_constraints < full.num_constraints
    assert m.constraint_violations(sol) == [[]]
    # a sample that agrees with the fixings: violations exactly where the full model has them
    samples = np.repeat(sol[None, :], 30, axis=0)
    flip = rng.integers(0, len(labels), 30)
    samples[np.arange(30), flip] ^= 1
    q = build(logo)
    got = m.constraint_violations(samples)
    for s, names in enumerate(got):
        assert (len(names) == 0) == (q.energy(samples[s])[0] == 0)
        if flip[s] in set(pick.tolist()):
            assert f"fixed_{flat_name(labels[flip[s]])}" in names
    # the reduced rows are the full rows with the fixed values substituted
    reduced = samples[:, m.var_index]
    assert np.array_equal(m.full_assignment(reduced)[:, m.var_index], reduced)


def test_fixed_contradiction_names_the_constraint():
    p = Puzzle(rows=[[1], [1]], cols=[[1], [1]])
    with pytest.raises(PuzzleError, match="cell_0_1"):
        build_constrained(p, {"y0[0][0]": 1, "z1[0][0]": 1})
    with pytest.raises(SampleError, match="no such variable"):
        build_constrained(p, {"y9[0][0]": 1})
    with pytest.raises(SampleError, match="values are 0 or 1"):
        build_constrained(p, {"y0[0][0]": 2})


def test_fixing_every_variable_leaves_an_empty_model(logo):
    lay = Layout.of(logo)
    sol = lay.encode(logo.solution_grid())
    m = build_constrained(logo, dict(zip(lay.labels(), sol.tolist())))
    assert (m.num_vars, m.num_constraints) == (0, 0)
    assert m.constraint_violations(sol) == [[]]
    bad = sol.copy()
    bad[0] ^= 1
    assert m.constraint_violations(bad) == [["fixed_y0_0_0"]]


def test_structurally_infeasible_clues():
    # row 0 is full (no freedom) and column 0 is empty: cell (0, 0) is both
    p = Puzzle(rows=[[3], [1], []], cols=[[], [2], [2]])
    with pytest.raises(PuzzleError, match="cell_0_0"):
        build_constrained(p)
    assert build(p).offset > 0  # the QUBO can only say so through its energy


def test_bad_assignment_shape(logo):
    m = build_constrained(logo)
    with pytest.raises(SampleError, match="437"):
        m.constraint_violations(np.zeros((2, 436), int))


def test_cqm_has_the_model(logo):
    m = build_constrained(logo)
    cqm = m.to_cqm()
    assert list(cqm.variables) == m.labels
    assert list(cqm.constraints) == m.names
    assert all(cqm.vartype(v).name == "BINARY" for v in cqm.variables)
    assert cqm.objective.num_variables == 0 or not any(b for _, b in cqm.objective.iter_linear())
    for c in (0, 300, m.num_constraints - 1):
        comp = cqm.constraints[m.names[c]]
        assert dict(comp.lhs.iter_linear()) == {label: float(a) for a, label in m.row_terms(c)}
        assert comp.sense.value == m.sense_of(c) and comp.rhs == m.rhs[c]


@pytest.mark.parametrize("name", ["qbpp-logo", "gecode-non-unique", "gecode-heart"])
def test_check_feasible_agrees(name):
    puzzle = shared_puzzle(name)
    m = build_constrained(puzzle)
    cqm = m.to_cqm()
    lay = Layout.of(puzzle)
    sol = lay.encode(puzzle.solution_grid())
    rng = np.random.default_rng(1)
    near = np.repeat(sol[None, :], 8, axis=0)
    near[np.arange(8), rng.integers(0, m.num_vars, 8)] ^= 1
    samples = np.concatenate((sol[None, :], rng.integers(0, 2, (8, m.num_vars)), near))
    ours = m.constraint_violations(samples)
    for s in range(samples.shape[0]):
        sample = dict(zip(m.labels, samples[s].tolist()))
        assert cqm.check_feasible(sample) == (ours[s] == [])
        theirs = {k for k, v in cqm.violations(sample, skip_satisfied=True).items() if v != 0}
        assert theirs == set(ours[s])


@pytest.mark.parametrize("name", ["qbpp-logo", "gecode-castle"])
def test_flat_labels_follow_flat_name(name):
    m = build_constrained(shared_puzzle(name))
    assert m.flat_labels == [flat_name(label) for label in m.labels]


def test_activities_without_scipy_agree(monkeypatch, logo):
    m = build_constrained(logo)
    x = np.random.default_rng(2).integers(0, 2, (25, m.num_vars))
    with_scipy = m.activities(x)
    monkeypatch.setitem(sys.modules, "scipy.sparse", None)  # import fails: the NumPy path
    assert np.array_equal(m.activities(x), with_scipy)
    assert with_scipy.dtype == np.int64
