"""Local solving: samplers, limits checked before anything runs, clear messages."""

from __future__ import annotations

import builtins
import json

import pytest

from tests.support import SHARED
from nonoqubo.model.build import build
from nonoqubo.errors import MissingDependency
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.errors import SolverError
from nonoqubo.solvers.dwave import EXACT_LIMIT
from nonoqubo.solvers.qbpp import QBPP_LIMIT
from nonoqubo.solvers.sampling import sample, solve

LOGO_JSON = SHARED / "json" / "qbpp-logo.json"
SMALL = Puzzle.from_picture(["#.#..", ".###.", "#...#", "##.##"])


def test_solve_logo_with_simulated_annealing_prints_the_logo(run_cli, logo):
    pytest.importorskip("dwave.samplers")
    status, out, err = run_cli("solve", LOGO_JSON, "--sampler", "sa", "--reads", "10", "--seed", "1")
    assert status == 0, err
    assert "VALID, energy 0" in out
    assert "\n".join(logo.solution) in out


def test_solve_json_and_image(run_cli, tmp_path):
    pytest.importorskip("dwave.samplers")
    image = tmp_path / "logo.svg"
    status, out, _ = run_cli("solve", LOGO_JSON, "--reads", "2", "--sweeps", "5", "--seed", "3",
                             "--json", "--image", image)
    doc = json.loads(out)
    assert status == (0 if doc["samples"][0]["valid"] else 1)
    assert doc["num_samples"] == 2 and doc["model"] == "sa sampler"
    assert image.read_text().startswith("<svg")


def test_exact_and_tabu_on_a_small_puzzle():
    result = solve(Puzzle.from_picture(["#.", "##"]), "exact")
    assert result.best.valid and len(result.batch) == 2 ** result.qubo.num_vars
    pytest.importorskip("dwave.samplers")
    result = solve(SMALL, "tabu", reads=2, seed=1, time_limit=0.05)
    assert result.best.valid and result.best.picture == SMALL.solution


def test_exact_refuses_large_models(logo):
    with pytest.raises(SolverError, match=f"has 437 variables \\(limit {EXACT_LIMIT}\\)"):
        sample(build(logo), "exact")


def test_qbpp_refuses_large_models_before_running(logo, monkeypatch):
    import subprocess

    def forbidden(*args, **kwargs):  # pragma: no cover - the point is that it is not reached
        raise AssertionError("pyqbpp must not be started for a model over the limit")

    monkeypatch.setattr(subprocess, "run", forbidden)
    monkeypatch.setattr("importlib.util.find_spec", lambda name: object())
    with pytest.raises(SolverError, match=f"at most {QBPP_LIMIT} variables and this model has 437"):
        sample(build(logo), "qbpp")


def test_qbpp_easy_solver_in_a_child_process(run_cli):
    pytest.importorskip("pyqbpp")  # only finds the package; pyqbpp is never imported here
    result = solve(SMALL, "qbpp", reads=1, seed=1, time_limit=0.5)
    assert result.qubo.num_vars <= QBPP_LIMIT
    assert result.best.valid and result.best.picture == SMALL.solution


def test_missing_sampler_gets_a_clear_message(run_cli, monkeypatch):
    real_import = builtins.__import__

    def no_dwave(name, *args, **kwargs):
        if name.startswith("dwave"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_dwave)
    with pytest.raises(MissingDependency, match='pip install "nonoqubo\\[solvers\\]"'):
        sample(build(SMALL), "sa")
    status, out, err = run_cli("solve", LOGO_JSON, "--sampler", "tabu")
    assert status == 2 and out == ""
    assert "the 'tabu' sampler needs the 'dwave-samplers' package" in err
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    with pytest.raises(MissingDependency, match="pyqbpp"):
        sample(build(SMALL), "qbpp")


def test_bad_reads(run_cli):
    status, _, err = run_cli("solve", LOGO_JSON, "--reads", "0")
    assert status == 2 and "--reads must be at least 1" in err


@pytest.mark.parametrize("args,message", [
    (["--sweeps", "-5"], "--sweeps must be a whole number of at least 1, not -5"),
    (["--sweeps", "0"], "--sweeps must be a whole number of at least 1, not 0"),
    (["--seed", "-1"], "--seed must be a whole number from 0 to 4294967295, not -1"),
    (["--seed", "99999999999"], "--seed must be a whole number from 0 to 4294967295, not 99999999999"),
    (["--reads", "0"], "--reads must be at least 1, not 0"),
    (["--sampler", "tabu", "--time-limit", "-1"], "--time-limit must be a positive number of seconds, not -1.0"),
    (["--sampler", "qbpp", "--time-limit", "-1"], "--time-limit must be a positive number of seconds, not -1.0"),
    (["--sampler", "tabu", "--time-limit", "nan"], "--time-limit must be a positive number of seconds, not nan"),
    (["--time-limit", "-1"], "--time-limit does not apply to the sa sampler (it applies to: tabu, qbpp, cpsat)"),
    (["--sampler", "qbpp", "--sweeps", "5"], "--sweeps does not apply to the qbpp sampler (it applies to: sa, openjij-sa, openjij-sqa, pt, pa, lines, mock-dwave)"),
])
def test_every_bad_option_is_one_line_and_status_2(run_cli, args, message, monkeypatch):
    from nonoqubo.pipeline import Models

    def never(*a, **k):  # pragma: no cover - the point is that nothing is built or sampled
        raise AssertionError("a bad option must be refused before anything runs")

    monkeypatch.setattr(Models, "build", classmethod(never))
    status, out, err = run_cli("solve", LOGO_JSON, *args)
    assert (status, out) == (2, "")
    assert err == f"nonoqubo: error: {message}\n"


def test_options_are_checked_by_the_library_too():
    with pytest.raises(SolverError, match="--seed must be"):
        sample(build(SMALL), "sa", seed=2**32)
    with pytest.raises(SolverError, match="--time-limit must be"):
        solve(SMALL, "tabu", time_limit=0)


def test_saved_samples_decode_back_to_the_same_verdict(run_cli, tmp_path, logo):
    pytest.importorskip("dwave.samplers")
    out_path = tmp_path / "samples.json"
    status, out, err = run_cli("solve", LOGO_JSON, "--seed", "1", "--reads", "4", "-o", out_path, "--json")
    assert status == 0, err
    solved = json.loads(out)
    import dimod

    sampleset = dimod.SampleSet.from_serializable(json.loads(out_path.read_text()))
    assert len(sampleset) == 4 and len(sampleset.variables) == 437
    model = tmp_path / "logo.qubo"
    assert run_cli("build", LOGO_JSON, "-o", model, "-q")[0] == 0
    status, out, err = run_cli("decode", model, out_path, "--json")
    assert status == 0, err
    decoded = json.loads(out)
    assert (decoded["num_valid"], decoded["best_energy"]) == (solved["num_valid"], 0)
    assert decoded["samples"][0]["picture"] == list(logo.solution)


def test_presolve_samples_only_what_line_logic_leaves_and_saves_the_full_model(run_cli, tmp_path):
    pytest.importorskip("dwave.samplers")
    puzzle = SHARED / "json" / "gecode-non-unique.json"  # line logic fixes 6 of its 399 variables
    out_path = tmp_path / "samples.json"
    status, out, err = run_cli("solve", puzzle, "--presolve", "--seed", "2", "--reads", "3", "-o", out_path, "--json")
    doc = json.loads(out)
    assert status == (0 if doc["samples"][0]["valid"] else 1), err
    assert (doc["variables"], doc["fixed"]) == (393, 6)
    status, out, err = run_cli("decode", puzzle, out_path, "--json")
    assert json.loads(out)["best_energy"] == doc["best_energy"], err


def test_no_valid_sample_ends_with_what_to_try(run_cli):
    pytest.importorskip("dwave.samplers")
    status, out, err = run_cli("solve", LOGO_JSON, "--sweeps", "1", "--reads", "2", "--seed", "1")
    assert status == 1 and "INVALID" in out
    last = err.strip().splitlines()[-1]
    assert "--sweeps" in last and "--presolve" in last and "HiGHS" in last
    assert run_cli("solve", LOGO_JSON, "--sweeps", "1", "--reads", "2", "--seed", "1", "-q")[2] == ""


def test_progress_counts_reads_and_best_energy_on_a_terminal(run_cli, monkeypatch):
    pytest.importorskip("dwave.samplers")
    import nonoqubo.cli.solve as cli_solve

    monkeypatch.setattr(cli_solve, "progress_enabled", lambda args: True)
    status, _, err = run_cli("solve", LOGO_JSON, "--reads", "3", "--seed", "1")
    assert status == 0
    assert "3/3" in err and "best energy 0" in err
    monkeypatch.undo()
    assert run_cli("solve", LOGO_JSON, "--reads", "3", "--seed", "1")[2] == ""  # not a terminal: nothing


def test_the_same_seed_gives_the_same_samples():
    pytest.importorskip("dwave.samplers")
    a = solve(SMALL, "sa", reads=3, seed=7, sweeps=20)
    ticks = []
    b = solve(SMALL, "sa", reads=3, seed=7, sweeps=20, tick=lambda done, e: ticks.append(done))
    assert (a.batch.bits == b.batch.bits).all() and ticks == [1, 2, 3]



@pytest.mark.parametrize("sampler", ["exact", "qbpp"])
def test_a_model_presolve_empties_gives_its_one_sample_without_a_solver(logo, sampler, monkeypatch):
    import subprocess

    monkeypatch.setattr(subprocess, "run", None)  # no child process may start
    result = solve(logo, sampler, presolve=True, reads=3)  # line logic solves the logo
    assert result.qubo.num_vars == 0 and len(result.batch) == 1
    assert result.best.valid and result.best.picture == logo.solution


@pytest.mark.parametrize("presolve", [False, True])
def test_a_model_without_clues_is_refused_before_sampling(presolve):
    from nonoqubo.errors import FormatError
    from nonoqubo.model.qubo import Qubo

    bare = Qubo.from_terms(["a", "b"], [-1, 1], [(0, 1, 2)])  # no puzzle: presolve used to raise AttributeError
    with pytest.raises(FormatError, match="carries no clues"):
        solve(bare, "exact", presolve=presolve)
