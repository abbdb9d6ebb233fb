"""OpenJij's samplers in ``solve``: SA and simulated quantum annealing, their options, their errors."""

from __future__ import annotations


import pytest

from tests.support import SHARED, hide_packages
from nonoqubo.model.build import build
from nonoqubo.errors import MissingDependency, SolverError
from nonoqubo.solvers.openjij import sample
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.solvers.sampling import solve

LOGO_JSON = SHARED / "json" / "qbpp-logo.json"
SMALL = Puzzle.from_picture(["#.#..", ".###.", "#...#", "##.##"])


@pytest.mark.parametrize("sampler", ["openjij-sa", "openjij-sqa"])
def test_samplers_solve_a_small_puzzle_with_exact_energies(sampler):
    pytest.importorskip("openjij")
    result = solve(SMALL, sampler, reads=5, seed=2, sweeps=300)
    assert len(result.batch) == 5
    assert result.best.valid and result.best.picture == SMALL.solution
    # OpenJij's energies (offset included) are the QUBO's
    assert result.batch.energies.tolist() == result.qubo.energy(result.batch.bits).tolist()


def test_sqa_solves_the_logo_from_the_cli(run_cli, logo):
    pytest.importorskip("openjij")
    status, out, err = run_cli("solve", LOGO_JSON, "--sampler", "openjij-sqa", "--reads", "4", "--seed", "1",
                               "--beta", "5", "--gamma", "1", "--trotter", "4")
    assert status == 0, err
    assert out.startswith("openjij-sqa sampler: 4 samples") and "\n".join(logo.solution) in out


def test_schedule_options_reach_openjij(monkeypatch):
    openjij = pytest.importorskip("openjij")
    seen = []
    real = openjij.SASampler.sample

    def spy(self, bqm, **kwargs):
        seen.append(kwargs)
        return real(self, bqm, **kwargs)

    monkeypatch.setattr(openjij.SASampler, "sample", spy)
    sample(build(SMALL), "openjij-sa", reads=2, seed=4, sweeps=50, schedule={"beta_min": 0.2, "beta_max": 8})
    # with a seed, one read per call, read r seeded seed + r (OpenJij seeds every read of a call alike)
    assert seen == [{"beta_min": 0.2, "beta_max": 8.0, "num_sweeps": 50, "num_reads": 1, "seed": 4 + r}
                    for r in range(2)]


@pytest.mark.parametrize("args, message", [
    (["--sampler", "openjij-sa", "--gamma", "2"], "--gamma is not an option of the openjij-sa sampler; "
                                                   "it belongs to openjij-sqa"),
    (["--sampler", "openjij-sqa", "--beta-min", "1"], "--beta-min is not an option of the openjij-sqa"),
    (["--sampler", "sa", "--trotter", "8"], "--trotter is an option of the OpenJij samplers"),
    (["--sampler", "openjij-sa", "--beta-min", "2", "--beta-max", "1"], "--beta-min (2.0) must be below"),
    (["--sampler", "openjij-sqa", "--beta", "-1"], "--beta must be a positive number"),
    (["--sampler", "openjij-sqa", "--gamma", "nan"], "--gamma must be a positive number"),
    (["--sampler", "openjij-sqa", "--trotter", "1"], "--trotter must be an integer of at least 2"),
    (["--sampler", "openjij-sqa", "--sweeps", "0"], "--sweeps must be a whole number of at least 1"),
])
def test_bad_options_are_refused_before_sampling(run_cli, args, message):
    status, out, err = run_cli("solve", LOGO_JSON, *args)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_missing_openjij_gets_an_install_hint(run_cli, monkeypatch):
    hide_packages(monkeypatch, "openjij")
    with pytest.raises(MissingDependency, match='pip install "nonoqubo\\[openjij\\]"'):
        sample(build(SMALL), "openjij-sqa")
    status, _, err = run_cli("solve", LOGO_JSON, "--sampler", "openjij-sa")
    assert status == 2 and "the 'openjij-sa' sampler needs the 'openjij' package" in err


def test_unknown_sampler_and_empty_model():
    with pytest.raises(SolverError, match="unknown OpenJij sampler"):
        sample(build(SMALL), "openjij-pt")
    empty = build(Puzzle(rows=[[]], cols=[[]]))
    with pytest.raises(SolverError, match="no variables"):
        sample(empty, "openjij-sa")
