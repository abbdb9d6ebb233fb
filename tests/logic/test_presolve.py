"""Presolve: sound fixings, Qubo.fix exactness, reduced models that keep exactly the solutions."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.support import SHARED, shared_puzzle, shared_puzzles
from tests.support.brute import all_assignments, all_solutions
from nonoqubo.decoding import decode
from nonoqubo.model.build import build
from nonoqubo.model.encoding import Layout
from nonoqubo.errors import PuzzleError, SampleError
from nonoqubo.logic.presolve import complete, fixed_values, fixings, presolve_qubo, shift_bounds
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.model.qubo import Qubo

SMALL = [(name, p) for name, p, _ in shared_puzzles() if p.width * p.height <= 3600]
IDS = [n for n, _ in SMALL]


# -- Qubo.fix --------------------------------------------------------------------------------
@st.composite
def qubos_and_fixings(draw):
    n = draw(st.integers(1, 7))
    coef = st.integers(-6, 6)
    linear = draw(st.lists(coef, min_size=n, max_size=n))
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), coef), max_size=3 * n))
    offset = draw(st.integers(-20, 20))
    labels = [f"v{i}" for i in range(n)]
    q = Qubo.from_terms(labels, linear, pairs, offset)
    chosen = draw(st.lists(st.sampled_from(labels), unique=True, max_size=n))
    values = draw(st.lists(st.integers(0, 1), min_size=len(chosen), max_size=len(chosen)))
    return q, dict(zip(chosen, values))


def check_canonical(q: Qubo) -> None:
    assert q.linear.dtype == q.quad.dtype == q.row.dtype == q.col.dtype == np.int64
    assert len(q.labels) == q.linear.size
    assert (q.row < q.col).all() and (q.quad != 0).all()
    key = q.row * max(q.num_vars, 1) + q.col
    assert (np.diff(key) > 0).all()  # sorted, each pair once
    assert isinstance(q.offset, int)


@settings(max_examples=200, deadline=None)
@given(qubos_and_fixings())
def test_fix_matches_the_full_energy_on_every_assignment(case):
    q, fix = case
    r = q.fix(fix)
    check_canonical(r)
    assert list(r.labels) == [lab for lab in q.labels if lab not in fix]  # order kept
    assert dict(r.fixed) == fix
    assert q.fixed == {}  # the original is untouched
    free = all_assignments(r.num_vars)
    full = np.zeros((free.shape[0], q.num_vars), np.int8)
    for label, v in fix.items():
        full[:, q.index[label]] = v
    full[:, [q.index[lab] for lab in r.labels]] = free
    assert r.energy(free).tolist() == q.energy(full).tolist()


@settings(max_examples=100, deadline=None)
@given(qubos_and_fixings(), st.data())
def test_fixing_in_two_steps_equals_fixing_at_once(case, data):
    q, fix = case
    first = dict(list(fix.items())[: data.draw(st.integers(0, len(fix)))])
    rest = {k: v for k, v in fix.items() if k not in first}
    two = q.fix(first).fix(rest)
    assert two == q.fix(fix)
    assert dict(two.fixed) == fix


def test_fix_keeps_puzzle_and_big_coefficients():
    big = 1 << 40
    q = Qubo.from_terms(["a", "b", "c"], [big, -big, 3], [(0, 1, big), (1, 2, -big), (0, 2, 7)], offset=big,
                        puzzle=Puzzle(rows=[[1]], cols=[[1]]))
    r = q.fix({"b": 1})
    assert r.puzzle is q.puzzle
    assert r.offset == big - big and r.linear.tolist() == [2 * big, 3 - big]
    assert (r.row.tolist(), r.col.tolist(), r.quad.tolist()) == ([0], [1], [7])
    assert q.fix({}).same_model(q)
    allfixed = q.fix({"a": 1, "b": 1, "c": 1})
    assert allfixed.num_vars == 0 and allfixed.offset == int(q.energy([1, 1, 1])[0])
    assert allfixed.energy(np.zeros((1, 0), np.int8)).tolist() == [allfixed.offset]


def test_fix_drops_terms_that_cancel_into_zero_linear_bias():
    q = Qubo.from_terms(["a", "b"], [2, 0], [(0, 1, -2)])
    r = q.fix({"b": 1})
    assert r.linear.tolist() == [0] and r.num_terms == 0


@pytest.mark.parametrize("fix,message", [({"nope": 1}, "no such variable"), ({"a": 2}, "values are 0 or 1")])
def test_fix_rejects_bad_input(fix, message):
    q = Qubo.from_terms(["a", "b"], [1, 1], [(0, 1, 1)])
    with pytest.raises(SampleError, match=message):
        q.fix(fix)


# -- fixings on the shared puzzles -------------------------------------------------------------
@pytest.mark.parametrize("name,puzzle", SMALL, ids=IDS)
def test_fixings_agree_with_the_known_solution(name, puzzle):
    lay = Layout.of(puzzle)
    truth = lay.encode(puzzle.solution_grid())
    values = fixed_values(puzzle)
    fixed = values >= 0
    assert np.array_equal(values[fixed], truth[fixed])
    fix = fixings(puzzle)
    assert len(fix) == int(fixed.sum())
    labels = lay.labels()
    assert all(truth[labels.index(k)] == v for k, v in list(fix.items())[:50])


@pytest.mark.parametrize("name,puzzle", SMALL, ids=IDS)
def test_reduced_energy_equals_full_energy_of_the_completion(name, puzzle):
    full = build(puzzle)
    reduced = presolve_qubo(puzzle, full)
    assert reduced.num_vars == full.num_vars - len(reduced.fixed)
    rng = np.random.default_rng(len(name))
    if reduced.num_vars <= 12:
        free = all_assignments(reduced.num_vars)
    else:
        free = rng.integers(0, 2, (64, reduced.num_vars), dtype=np.int8)
    completed = complete(reduced, free)
    assert reduced.energy(free).tolist() == full.energy(completed).tolist()
    # the known solution survives with energy 0
    truth = Layout.of(puzzle).encode(puzzle.solution_grid())
    keep = [full.index[lab] for lab in reduced.labels]
    assert int(reduced.energy(truth[keep])[0]) == 0
    assert np.array_equal(complete(reduced, truth[keep])[0], truth)


def test_presolve_qubo_builds_the_model_when_not_given(logo):
    assert presolve_qubo(logo) == presolve_qubo(logo, build(logo))


@pytest.mark.slow  # every line-solvable shared puzzle: 11 s
def test_line_solvable_puzzles_reduce_to_nothing_and_complete_to_the_solution():
    names = {"sgt-pattern-5x5", "sgt-pattern-50x50", "qbpp-logo", "gecode-heart", "olsak-kondor"}
    for name, puzzle in SMALL:
        if name not in names and not name.startswith("sgt-"):
            continue
        reduced = presolve_qubo(puzzle)
        assert (reduced.num_vars, reduced.num_terms, reduced.offset) == (0, 0, 0), name
        lay = Layout.of(puzzle)
        x = complete(reduced, np.zeros((1, 0), np.int8), lay)
        row_view, col_view = lay.grids(lay.shifts(x))
        sol = puzzle.solution_grid()
        assert np.array_equal(row_view[0], sol) and np.array_equal(col_view[0], sol), name


def test_presolve_of_an_already_reduced_model(logo):
    full = build(logo)
    some = dict(list(fixings(logo).items())[:40])
    part = full.fix(some)
    assert presolve_qubo(logo, part) == presolve_qubo(logo, full)
    wrong = full.fix({k: 1 - v for k, v in some.items()})
    with pytest.raises(SampleError, match="line logic proves"):
        presolve_qubo(logo, wrong)


def test_contradiction_is_reported():
    puzzle = Puzzle(rows=[[1, 1], [], [1, 1]], cols=[[3], [], [1]])
    with pytest.raises(PuzzleError, match="^column 1: no placement of clue 3"):
        presolve_qubo(puzzle)


def test_shift_bounds_fix_walls_consistently():
    puzzle = shared_puzzle("gecode-webpbn27")
    lo, hi = shift_bounds(puzzle)
    lay = Layout.of(puzzle)
    values = fixed_values(puzzle)
    blk, p = lay.var_block, lay.var_p
    assert (values[p < lo[blk]] == 1).all() and (values[p >= hi[blk]] == 0).all()
    assert (values[(p >= lo[blk]) & (p < hi[blk])] == -1).all()
    assert 0 < (values >= 0).sum() < lay.num_vars


# -- the reduced model keeps exactly the solutions -------------------------------------------------
def zero_states_are_the_solutions(puzzle: Puzzle, sols: np.ndarray) -> None:
    full = build(puzzle)
    reduced = presolve_qubo(puzzle, full)
    lay = Layout.of(puzzle)
    free = all_assignments(reduced.num_vars)
    energy = np.concatenate([reduced.energy(free[s : s + (1 << 16)]) for s in range(0, free.shape[0], 1 << 16)])
    assert energy.min() == 0
    zero = complete(reduced, free[energy == 0], lay)
    row_view, col_view = lay.grids(lay.shifts(zero))
    assert np.array_equal(row_view, col_view)
    found = {g.tobytes() for g in row_view.astype(np.int8)}
    assert found == {s.tobytes() for s in sols.astype(np.int8)}
    assert len(found) == zero.shape[0]  # one state per solution


def test_zero_states_of_a_tiny_reduced_model():
    puzzle = shared_puzzle("olsak-sachovnice")  # 16 free variables, several solutions
    assert presolve_qubo(puzzle).num_vars == 16
    zero_states_are_the_solutions(puzzle, all_solutions(puzzle))


@pytest.mark.slow  # 2**n states of the reduced moss: 10 s
def test_zero_states_of_the_moss_with_several_solutions():
    puzzle = shared_puzzle("dejoue-raw-moss-60x60-bw-1")
    reduced = presolve_qubo(puzzle)
    assert 0 < reduced.num_vars <= 22
    lay = Layout.of(puzzle)
    free = all_assignments(reduced.num_vars)
    energy = np.concatenate([reduced.energy(free[s : s + (1 << 17)]) for s in range(0, free.shape[0], 1 << 17)])
    zero = complete(reduced, free[energy == 0], lay)
    assert zero.shape[0] >= 2  # several solutions, all kept
    row_view, col_view = lay.grids(lay.shifts(zero))
    assert np.array_equal(row_view, col_view)
    for g in row_view:
        assert puzzle.mismatched_lines(g) == []
    assert any(np.array_equal(g, puzzle.solution_grid()) for g in row_view)


@st.composite
def tiny_puzzles(draw):
    h, w = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    cells = draw(st.lists(st.booleans(), min_size=h * w, max_size=h * w))
    return Puzzle.from_picture(np.array(cells, bool).reshape(h, w))


@settings(max_examples=30, deadline=None)
@given(tiny_puzzles())
def test_zero_states_of_random_tiny_puzzles_are_their_solutions(puzzle):
    assume(any(puzzle.rows))  # Layout.grids fails on a puzzle with no block at all (reported)
    if presolve_qubo(puzzle).num_vars > 14:
        return
    zero_states_are_the_solutions(puzzle, all_solutions(puzzle))


# -- decoding --------------------------------------------------------------------------------------
def test_decoding_the_empty_sample_of_a_solved_puzzle(logo):
    reduced = presolve_qubo(logo)
    report = decode(reduced, np.zeros((1, 0), np.int8))[0]
    assert report.valid
    assert np.array_equal(np.asarray(report.grid, bool), logo.solution_grid())


def test_annealing_a_reduced_model_decodes_like_the_full_model():
    samplers = pytest.importorskip("dwave.samplers")
    puzzle = shared_puzzle("gecode-webpbn27")
    full = build(puzzle)
    reduced = presolve_qubo(puzzle, full)
    assert 0 < reduced.num_vars < full.num_vars
    bqm = reduced.to_bqm()
    sampleset = samplers.SimulatedAnnealingSampler().sample(bqm, num_reads=8, num_sweeps=2000, seed=7)
    order = [sampleset.variables.index(lab) for lab in reduced.labels]
    x = sampleset.record.sample[:, order].astype(np.int8)
    assert reduced.energy(x).tolist() == [int(round(e)) for e in sampleset.record.energy]
    reports = decode(reduced, x)
    completed = complete(reduced, x)
    full_reports = decode(full, completed)
    for a, b in zip(reports, full_reports):
        assert a.valid == b.valid and a.energy == b.energy
        assert np.array_equal(np.asarray(a.grid), np.asarray(b.grid))
    assert [r.valid for r in decode(reduced, sampleset)] == [r.valid for r in reports]
    assert any(r.valid for r in reports)
    best = next(r for r in reports if r.valid)
    assert np.array_equal(np.asarray(best.grid, bool), puzzle.solution_grid())


def test_annealing_a_presolved_export_decodes_like_the_full_model(tmp_path, run_cli):
    """End to end: build --presolve -o FILE, anneal the file, decode FILE SAMPLES."""
    import json

    samplers = pytest.importorskip("dwave.samplers")
    import dimod


    puzzle = shared_puzzle("gecode-webpbn27")
    status, _, err = run_cli("build", SHARED / "json" / "gecode-webpbn27.json", "--presolve",
                             "-o", tmp_path / "w27.bqm", "-q")
    assert status == 0, err
    with open(tmp_path / "w27.bqm", "rb") as fh:
        bqm = dimod.BinaryQuadraticModel.from_file(fh)
    assert 0 < bqm.num_variables < 2140
    sampleset = samplers.SimulatedAnnealingSampler().sample(bqm, num_reads=8, num_sweeps=2000, seed=11)
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps(sampleset.to_serializable()))
    reduced_reports = decode(tmp_path / "w27.bqm", answers)
    # the same assignments, completed by hand and decoded against the full model
    reduced = presolve_qubo(puzzle)
    order = [sampleset.variables.index(lab) for lab in reduced.labels]
    x = sampleset.record.sample[:, order].astype(np.int8)
    full_reports = decode(build(puzzle), complete(reduced, x))
    assert [(r.valid, r.energy) for r in reduced_reports] == [(r.valid, r.energy) for r in full_reports]
    for a, b in zip(reduced_reports, full_reports):
        assert np.array_equal(a.grid, b.grid)
    assert any(r.valid for r in reduced_reports)
    status, out, _ = run_cli("decode", tmp_path / "w27.bqm", answers)
    assert status == 0 and "VALID" in out


# -- nonoqubo info --presolve ----------------------------------------------------------------------
def test_info_presolve_reports_settled_cells_and_sizes(run_cli):
    import json

    from tests.support import SHARED

    status, out, err = run_cli("info", SHARED / "json" / "gecode-webpbn27.json", "--presolve")
    assert status == 0, err
    assert "line logic:  553 of 621 cells settled (89.05 %), line-solvable: no" in out
    assert "presolve:    variables 2140 -> 174 (1966 fixed), terms 20384 -> 696, offset 216 -> 42" in out
    status, out, err = run_cli("info", SHARED / "json" / "qbpp-logo.json", "--presolve", "--json")
    pre = json.loads(out)["presolve"]
    assert (pre["line_solvable"], pre["settled_percent"], pre["variables_after_presolve"], pre["terms_after_presolve"]) == (True, 100.0, 0, 0)
    status, out, err = run_cli("info", SHARED / "json" / "qbpp-logo.json")
    assert "line logic" not in out


def test_info_presolve_names_the_contradicting_line(run_cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"rows": [[1, 1], [], [1, 1]], "cols": [[3], [], [1]]}')
    status, out, err = run_cli("info", bad, "--presolve")
    assert status == 2
    assert err.strip().endswith("column 1: no placement of clue 3 fits the cells settled so far")


@pytest.mark.parametrize("name", ["qbpp-logo", "gecode-webpbn27"])  # line-solvable; partly solvable
def test_the_fixed_mapping_of_a_presolved_model_behaves_as_a_dict(name):
    puzzle = shared_puzzle(name)
    reduced, want = presolve_qubo(puzzle), fixings(puzzle)
    assert len(reduced.fixed) == len(want) > 0  # counted before the dict is made
    assert list(reduced.fixed.items()) == list(want.items())  # variable order
    assert pickle.loads(pickle.dumps(reduced.fixed)) == want
    assert json.loads(json.dumps(dict(reduced.fixed))) == want
    again = reduced.fix({})  # fixing nothing more keeps every earlier fixing
    assert dict(again.fixed) == want and len(again.fixed) == len(want)
