"""Local solving: samplers, limits checked before anything runs, clear messages."""

from __future__ import annotations

import builtins
import json

import pytest

from conftest import SHARED
from nonoqubo.build import build
from nonoqubo.errors import MissingDependency
from nonoqubo.puzzle import Puzzle
from nonoqubo.solve import EXACT_LIMIT, QBPP_LIMIT, SolverError, sample, solve

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
