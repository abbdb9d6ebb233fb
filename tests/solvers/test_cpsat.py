"""The cpsat sampler: CP-SAT solves the puzzle; its solutions are valid samples of the QUBO; --count counts."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.support import hide_packages, shared_puzzle
from tests.support.brute import all_solutions
from nonoqubo import clues
from nonoqubo.errors import MissingDependency, NoSolution, SolverError
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.solvers.sampling import solve

pytest.importorskip("ortools.sat.python.cp_model", reason="the cp extra (ortools) is not installed")

from nonoqubo.solvers.cpsat import count_solutions  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data" / "puzzles"
COLOUR = sorted((DATA / "colour").glob("*.json"))
BW = ["qbpp-logo", "gecode-castle", "gecode-webpbn27", "jwilk-data005"]
INFEASIBLE = Puzzle(rows=[[1, 1], [1], [1]], cols=[[1], [1, 1], [1]])


@pytest.mark.parametrize("path", [DATA / "json" / f"{n}.json" for n in BW] + COLOUR, ids=lambda p: p.stem)
@pytest.mark.parametrize("presolve", [False, True])
def test_its_solutions_decode_valid_through_the_qubo(path, presolve):
    puzzle = clues.load(path)
    result = solve(puzzle, "cpsat", presolve=presolve, time_limit=60)
    assert result.best.valid and result.best.energy == 0
    assert int(result.qubo.energy(result.batch.bits)[0]) == 0  # the QUBO's own energy, in its variable order


@pytest.mark.parametrize("puzzle, expected", [
    (INFEASIBLE, 0),
    (Puzzle(rows=[[1], [2]], cols=[[2], [1]]), 1),
    (Puzzle(rows=[[1], [1]], cols=[[1], [1]]), 2),
    (Puzzle(rows=[[1], [1], [1]], cols=[[1], [1], [1]]), 6),
    (Puzzle(rows=[[1], [1], [1], [1]], cols=[[1], [1], [1], [1]]), 24),
    (Puzzle(rows=[[1, 1], [], [1, 1]], cols=[[1, 1], [], [1, 1]]), 1),
], ids=["none", "one", "two", "six", "twenty-four", "corners"])
def test_count_equals_brute_force(puzzle, expected):
    assert len(all_solutions(puzzle)) == expected
    assert count_solutions(puzzle, 100) == (expected, True)
    if expected > 1:
        assert count_solutions(puzzle, expected) == (expected, False)  # stopped at the limit: at least
        assert count_solutions(puzzle, expected - 1) == (expected - 1, False)


def test_count_on_a_shared_puzzle_with_several_solutions():
    puzzle = shared_puzzle("gecode-non-unique")
    found, exact = count_solutions(puzzle, 1000)
    assert found > 1 and exact


def test_count_gives_every_solution_as_a_sample(run_cli, tmp_path):
    path = tmp_path / "two.yaml"
    path.write_text("rows: [[1], [1]]\ncols: [[1], [1]]\n")
    status, stdout, stderr = run_cli("solve", path, "--sampler", "cpsat", "--count", "10", "--json", "-q")
    assert status == 0, stderr
    doc = json.loads(stdout)
    assert doc["solutions"] == {"count": 2, "exact": True, "limit": 10, "cut": None} and doc["num_valid"] == doc["num_samples"] == 2
    status, stdout, _ = run_cli("solve", path, "--sampler", "cpsat", "--count", "2", "-q")
    assert status == 0 and stdout.splitlines()[-1] == "solutions: at least 2 (not unique; the --count cap stopped the count)"
    status, stdout, _ = run_cli("solve", DATA / "json" / "qbpp-logo.json", "--sampler", "cpsat", "--count", "2", "-q")
    assert status == 0 and stdout.splitlines()[-1] == "solutions: exactly 1 (unique)"


def test_its_samples_are_saved_and_decoded_like_any_samplers(run_cli, tmp_path):
    logo = DATA / "json" / "qbpp-logo.json"
    out = tmp_path / "samples.json"
    status, _, stderr = run_cli("solve", logo, "--sampler", "cpsat", "--presolve", "--workers", "1", "-o", out, "-q")
    assert status == 0, stderr
    status, stdout, _ = run_cli("decode", logo, out)
    assert status == 0 and "VALID, energy 0" in stdout


def test_an_infeasible_puzzle_is_one_line_and_exit_1(run_cli, tmp_path):
    path = tmp_path / "none.yaml"
    path.write_text("rows: [[1, 1], [1], [1]]\ncols: [[1], [1, 1], [1]]\n")
    for extra in ((), ("--count", "5")):
        status, stdout, stderr = run_cli("solve", path, "--sampler", "cpsat", *extra)
        assert status == 1 and stderr == "" and len(stdout.splitlines()) == 1 and "no solution" in stdout
    with pytest.raises(NoSolution):
        solve(INFEASIBLE, "cpsat")


@pytest.mark.parametrize("argv, message", [
    (["--workers", "0"], "--workers must be a whole number of at least 1"),
    (["--count", "0"], "--count must be a whole number of at least 1"),
    (["--sweeps", "10"], "--sweeps does not apply to the cpsat sampler"),
])
def test_bad_options_are_one_line(run_cli, argv, message):
    status, _, stderr = run_cli("solve", DATA / "json" / "qbpp-logo.json", "--sampler", "cpsat", *argv)
    assert status == 2 and message in stderr and len(stderr.splitlines()) == 1


def test_workers_and_count_belong_to_cpsat(run_cli):
    status, _, stderr = run_cli("solve", DATA / "json" / "qbpp-logo.json", "--count", "2")
    assert status == 2 and "--count does not apply to the sa sampler (it applies to: cpsat)" in stderr


def test_a_time_limit_too_short_is_an_error_not_a_crash():
    puzzle = shared_puzzle("gecode-webpbn27")
    try:
        result = solve(puzzle, "cpsat", time_limit=1e-6)
    except SolverError as exc:
        assert "time limit" in str(exc)
    else:
        assert result.best.valid


def test_the_time_limit_before_any_solution_is_a_time_limit_error():
    # a random 50x50 puzzle: CP-SAT's first search takes far longer than a millisecond
    from nonoqubo.generation.families import Member, make
    from nonoqubo.errors import TimeLimit
    from nonoqubo.solvers.cpsat import solutions

    puzzle = make(Member(50, 50, 0.5, 0, 1))
    with pytest.raises(TimeLimit, match=r"within the time limit \(0\.001 s\)") as info:
        solutions(puzzle, limit=1, time_limit=0.001)
    assert isinstance(info.value, SolverError)  # callers that catch SolverError still do
    with pytest.raises(TimeLimit):  # the count's search too: not "no solution" (0, exact)
        count_solutions(puzzle, 2, time_limit=0.001)


def test_without_ortools_one_line_names_the_extra(monkeypatch, run_cli):
    hide_packages(monkeypatch, "ortools")
    with pytest.raises(MissingDependency, match=r'nonoqubo\[cp\]'):
        solve(Puzzle(rows=[[1], [1]], cols=[[1], [1]]), "cpsat")
    status, _, stderr = run_cli("solve", DATA / "json" / "qbpp-logo.json", "--sampler", "cpsat")
    assert status == 2 and "pip install \"nonoqubo[cp]\"" in stderr and len(stderr.splitlines()) == 1


def test_the_solution_is_the_known_one():
    puzzle = clues.load(DATA / "json" / "gecode-castle.json")
    result = solve(puzzle, "cpsat")
    if puzzle.solution_grid() is not None:
        assert np.array_equal(result.best.grid, puzzle.solution_grid())


def test_json_reports_cpsat_solve_time_and_the_run_record_keeps_it(run_cli, tmp_path):
    """solve --sampler cpsat --json gives CP-SAT's own time (its WallTime), within the command's wall time."""
    logo = DATA / "json" / "qbpp-logo.json"
    out = tmp_path / "run.json"
    status, stdout, stderr = run_cli("solve", logo, "--sampler", "cpsat", "--json", "-o", out)
    assert status == 0, stderr
    doc = json.loads(stdout)
    record = json.loads(out.read_text())["info"]["nonoqubo"]
    reported = record["sampler_reported"]
    assert set(reported) == {"solve_seconds", "user_seconds", "status"} and reported["status"] == "OPTIMAL"
    assert 0 < doc["solve_seconds"] == pytest.approx(reported["solve_seconds"], abs=1e-6)
    assert doc["solve_seconds"] <= record["timing"]["wall_seconds"]
    status, stdout, _ = run_cli("solve", logo, "--json", "--reads", "2", "--sweeps", "10")
    assert status in (0, 1) and "solve_seconds" not in json.loads(stdout)  # an annealer's time is its run record's
