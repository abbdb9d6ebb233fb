"""The solvers package: one sampler table, the BQM every dimod sampler gets, the qbpp child's entry point."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from nonoqubo.errors import SolverError
from nonoqubo.model.build import build
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.solvers import dwave, openjij, qbpp, qpu, tempering
from nonoqubo.solvers.base import SampleOptions, index_bqm
from nonoqubo.solvers.samplers import SAMPLER_TABLE, SAMPLERS, check_options
from tests.support import SHARED

SMALL = Puzzle.from_picture(["#.#..", ".###.", "#...#", "##.##"])


def test_the_table_names_every_sampler_once_in_help_order():
    assert SAMPLERS == ("sa", "tabu", "exact", "qbpp", "openjij-sa", "openjij-sqa", "pt", "pa", "lines", "cpsat", "mock-dwave",
                        "dwave")
    assert set(openjij.SAMPLERS) <= set(SAMPLER_TABLE)
    assert SAMPLER_TABLE["exact"].run is dwave.run_exact and SAMPLER_TABLE["qbpp"].run is qbpp.run
    assert SAMPLER_TABLE["mock-dwave"].run is qpu.run_mock and SAMPLER_TABLE["dwave"].run is qpu.run_dwave
    assert SAMPLER_TABLE["pt"].run is tempering.run_pt and SAMPLER_TABLE["pa"].run is tempering.run_pa


def test_index_bqm_is_the_integer_labelled_model_in_variable_order():
    dimod = pytest.importorskip("dimod")
    from nonoqubo.clues import load

    q = build(load(SHARED / "json" / "qbpp-logo.json"))
    ref = dimod.BinaryQuadraticModel.from_numpy_vectors(q.linear, (q.row, q.col, q.quad), int(q.offset),
                                                        dimod.BINARY)
    got = index_bqm(q)
    assert list(got.variables) == list(range(q.num_vars)) == list(ref.variables)
    assert got == ref and got.offset == ref.offset
    assert all(list(got.adj[v]) == list(ref.adj[v]) for v in range(0, q.num_vars, 17))  # the neighbour order too
    samplers = pytest.importorskip("dwave.samplers")
    a = samplers.SimulatedAnnealingSampler().sample(got, num_reads=1, seed=3, num_sweeps=50)
    b = samplers.SimulatedAnnealingSampler().sample(ref, num_reads=1, seed=3, num_sweeps=50)
    assert np.array_equal(a.record.sample, b.record.sample)


def test_check_options_is_the_one_check():
    with pytest.raises(SolverError, match="unknown sampler 'annealer'"):
        check_options(SampleOptions(), "annealer")
    with pytest.raises(SolverError, match="--time-limit does not apply to the exact sampler"):
        check_options(SampleOptions(time_limit=1.0), "exact")
    check_options(SampleOptions(reads=3, seed=2**32 - 1, sweeps=5, schedule={"beta": 2.0}), "openjij-sqa")


def test_the_qbpp_child_is_its_own_module():
    proc = subprocess.run([sys.executable, "-m", "nonoqubo.solvers.qbpp"], capture_output=True, text=True)
    assert proc.returncode == 2 and "usage: python -m nonoqubo.solvers.qbpp --qbpp-worker" in proc.stderr


@pytest.mark.parametrize("options", [
    {"sweeps": 50},
    {"sweeps": 40, "restarts": 3, "beta_range": (0.5, 8.0), "sweeps_per_beta": 4},
    {"sweeps": 30, "beta_schedule": "linear"},
])
def test_sa_hands_dwave_samplers_arrays_and_gives_the_samplers_own_samples(options):
    """Issue 52 item 3: ``sa`` calls dwave-samplers' kernel with the model's arrays and schedule made once a
    run, and every read is what ``SimulatedAnnealingSampler().sample`` gives for its seed (the best of its
    restarts, in the order SampleSet.truncate takes)."""
    import dimod
    from dwave.samplers import SimulatedAnnealingSampler

    from nonoqubo.model.build import build
    from nonoqubo.model.puzzle import Puzzle
    from nonoqubo.solvers.base import SampleOptions, index_bqm
    from nonoqubo.solvers.dwave import sa_arguments
    from nonoqubo.solvers.sampling import sample

    q = build(Puzzle.from_picture(["#.##.#..", ".###..##", "#..#.#.#", "##.###..", ".#..####", "###.#..#"]))
    batch = sample(q, "sa", reads=4, seed=9, **options)
    opts = SampleOptions(reads=4, seed=9, **options)
    bqm = index_bqm(q)
    for r in range(4):
        theirs = SimulatedAnnealingSampler().sample(bqm, num_reads=options.get("restarts", 1), seed=9 + r,
                                                    **sa_arguments(opts)).truncate(1)
        expected = dimod.as_samples(theirs)[0][0]
        assert np.array_equal(batch.bits[r], expected), r
    assert np.array_equal(batch.energies, q.energy(batch.bits))
