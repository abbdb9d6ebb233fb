"""Parallel tempering (``pt``) and population annealing (``pa``), issues 43 and 52: the compiled Metropolis
sweep against exact Boltzmann weights, its acceptance table, ground states reached, seeds that repeat, reads
that do not depend on the reads after them, the logo and a hard core with the model's energies and valid
decodes, a run file that decodes with its energies, ``--sweep`` over ``--replicas``, and bad values in one
line with exit 2."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from nonoqubo.model.build import build
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.solvers import tempering
from nonoqubo.solvers.sampling import RUN, sample
from tests.support import SHARED

pytest.importorskip("numba")

SMALL = Puzzle.from_picture(["#.#..", ".###.", "#...#", "##.##"])
MEDIUM = Puzzle.from_picture(["#.##.#..", ".###..##", "#..#.#.#", "##.###..", ".#..####", "###.#..#"])
HEART = SHARED / "json" / "gecode-heart.json"
LOGO = Path(__file__).parents[2] / "examples" / "qbpp-logo.yaml"
CORE = Path(__file__).parents[1] / "data" / "puzzles" / "hard" / "random-20x20-d0.5-s1-0002.non"


def _sweep_many(q, beta: float, lanes: int, sweeps: int, seed: int = 5):
    """*lanes* independent replicas of *q* swept *sweeps* times at *beta* by the compiled kernel."""
    from nonoqubo.solvers import metropolis

    model = tempering.KernelModel.of(q)
    rng = np.random.default_rng(seed)
    state = rng.integers(0, 2, size=(q.num_vars, lanes), dtype=np.int8)
    field = np.empty(state.shape, dtype=model.weights.dtype)
    energy = np.empty(lanes, dtype=np.int64)
    metropolis._fields(model.indptr, model.indices, model.weights, model.linear, state, field, energy, model.offset)
    betas = np.array([beta])
    table = metropolis.acceptance_table(betas, model.reach)
    cut = metropolis._cutoffs(betas, table)
    streams = rng.bit_generator.random_raw(lanes + 1).astype(np.uint64)
    rows = np.zeros(lanes, dtype=np.int64)
    for _ in range(sweeps):
        metropolis._sweep(model.indptr, model.indices, model.weights, state, field, energy, rows, table, cut, betas,
                          streams, np.iinfo(np.int64).min)
    return state, energy


@pytest.mark.parametrize("scale", [1, 2**33])
def test_the_sweep_samples_boltzmann_weights_and_keeps_energies_exact(scale):
    """Every state of a 4-variable model, its frequency after many sweeps against exp(-beta E) / Z; at scale
    2**33 the local fields are int64 and the acceptance is computed, not read from a table."""
    from nonoqubo.model.qubo import Qubo

    q = Qubo.from_terms(["a", "b", "c", "d"], [-1 * scale, 2 * scale, -1 * scale, 1 * scale],
                        [(0, 1, -2 * scale), (1, 2, 3 * scale), (2, 3, -2 * scale), (0, 3, scale), (0, 2, scale)])
    assert (tempering.KernelModel.of(q).weights.dtype == np.int64) == (scale > 1)
    beta = 0.7 / scale
    state, energy = _sweep_many(q, beta, 40_000, 30)
    assert np.array_equal(energy, q.energy(state.T))  # kept by the accepted changes
    states = np.array(list(itertools.product((0, 1), repeat=4)))
    exact = np.exp(-beta * q.energy(states).astype(float))
    exact /= exact.sum()
    seen = np.bincount(state.T.astype(np.int64) @ (1 << np.arange(3, -1, -1)), minlength=16) / 40_000
    assert np.abs(seen - exact).max() < 0.015, (seen, exact)


def test_the_acceptance_table_is_metropolis_to_two_to_the_minus_32():
    from nonoqubo.solvers import metropolis

    betas = np.array([0.1, 2.0])
    table = metropolis.acceptance_table(betas, 48)
    assert table.shape == (2, 49) and (table[:, 0] == 2**32).all()
    exact = np.exp(-np.outer(betas, np.arange(49))) * 2.0**32
    assert np.abs(table[:, 1:] - exact[:, 1:]).max() <= 1
    cut = metropolis._cutoffs(betas, table)
    assert cut[0] == 49 and table[1, cut[1] - 1] > 0 and table[1, cut[1]] == 0  # beta 2: 0 from d = 12 on
    assert metropolis.acceptance_table(np.array([1e-9]), 10**9).shape == (1, 0)  # too long: computed instead


@pytest.mark.parametrize("sampler", ["pt", "pa"])
def test_reaches_the_ground_state_and_energies_are_the_models(sampler):
    q = build(SMALL)
    batch = sample(q, sampler, reads=4, seed=3, sweeps=200)
    assert np.array_equal(batch.energies, q.energy(batch.bits))
    assert batch.energies.min() == 0
    record = batch.extra[RUN]
    assert record["sampler"] == sampler and record["timing"]["time_source"] == "sampler timing"
    assert len(record["timing"]["read_seconds"]) == 4


@pytest.mark.parametrize("sampler", ["pt", "pa"])
def test_the_same_seed_gives_the_same_samples(sampler):
    q = build(MEDIUM)
    one = sample(q, sampler, reads=5, seed=11, sweeps=20, replicas=4)
    two = sample(q, sampler, reads=5, seed=11, sweeps=20, replicas=4)
    other = sample(q, sampler, reads=5, seed=12, sweeps=20, replicas=4)
    assert np.array_equal(one.bits, two.bits)
    assert not np.array_equal(one.bits, other.bits)


@pytest.mark.parametrize("sampler", ["pt", "pa"])
def test_a_reads_samples_do_not_depend_on_how_many_reads_follow(sampler):
    q = build(MEDIUM)
    few = sample(q, sampler, reads=2, seed=4, sweeps=20, replicas=4)
    more = sample(q, sampler, reads=5, seed=4, sweeps=20, replicas=4)
    assert np.array_equal(few.bits, more.bits[:2]) and np.array_equal(few.energies, more.energies[:2])


@pytest.mark.parametrize("sampler", ["pt", "pa"])
@pytest.mark.parametrize("path, presolve", [(LOGO, None), (CORE, "line")])
def test_on_the_logo_and_a_hard_core_energies_are_the_models_and_reads_decode(path, presolve, sampler):
    """The models of benchmarks/bench_samplers.py (the QUBO++ logo, a 20x20 hard core's line-presolved model):
    every read's energy is Qubo.energy of its state, the same seed gives the same reads, and every read
    decodes, to a valid picture exactly when its energy is 0."""
    from nonoqubo.answers.decode import decode
    from nonoqubo.clues import load
    from nonoqubo.pipeline import Models

    q = Models.build(load(path), presolve=presolve).presolve() if presolve else Models.build(load(path)).qubo
    options = {"replicas": 8, "sweeps": 200, "beta_range": (1, 20)}
    batch = sample(q, sampler, reads=3, seed=7, **options)
    assert np.array_equal(batch.energies, q.energy(batch.bits))
    assert np.array_equal(batch.bits, sample(q, sampler, reads=3, seed=7, **options).bits)
    reports = decode(q, batch)
    assert [r.energy for r in reports] == batch.energies.tolist()
    assert [r.valid for r in reports] == (batch.energies == 0).tolist()


@pytest.mark.parametrize("sampler", ["pt", "pa"])
def test_a_cold_warm_start_at_the_answer_stays_there(tmp_path, sampler):
    picture = tmp_path / "answer.txt"
    picture.write_text("\n".join(SMALL.solution) + "\n")
    q = build(SMALL)
    batch = sample(q, sampler, reads=2, seed=1, sweeps=10, replicas=2, beta_range=(50, 60),
                   initial_states=str(picture))
    assert (q.energy(batch.bits) == 0).all()
    assert batch.extra[RUN]["parameters"]["initial_states"] == str(picture)


@pytest.mark.parametrize("sampler", ["pt", "pa"])
def test_cli_run_file_records_the_knobs_and_decodes_with_its_energies(run_cli, tmp_path, sampler):
    out = tmp_path / "s.json"
    status, stdout, err = run_cli("solve", HEART, "--sampler", sampler, "--reads", "3", "--seed", "1",
                                  "--sweeps", "100", "--replicas", "4", "--beta-range", "0.5,10", "-q",
                                  "-o", out, "--json")
    assert status in (0, 1), err
    solved = json.loads(stdout)
    doc = json.loads(out.read_text())
    params = doc["info"]["nonoqubo"]["parameters"]
    assert (params["replicas"], params["beta_range"], params["sweeps"]) == (4, "0.5,10", 100)
    status, decoded, err = run_cli("decode", HEART, out, "--json")
    decoded = json.loads(decoded)
    assert decoded["best_energy"] == solved["best_energy"], err
    import dimod

    recorded = dimod.SampleSet.from_serializable(doc).record.energy
    assert {s["energy"] for s in decoded["samples"]} == set(recorded.tolist())  # decode lists each sample once


def test_cli_sweep_over_replicas(run_cli, tmp_path):
    status, stdout, err = run_cli("solve", HEART, "--sampler", "pt", "--reads", "2", "--seed", "3", "--sweeps",
                                  "50", "-q", "--json", "--sweep", "replicas=2:4", "-o", tmp_path / "runs")
    assert status in (0, 1), err
    summary = json.loads(stdout)["sweep"]
    assert [s["setting"] for s in summary] == ["replicas=2", "replicas=4"]
    assert all(s["num_samples"] == 2 for s in summary)


@pytest.mark.parametrize("args, message", [
    (["--sampler", "pt", "--replicas", "1"], "--replicas must be at least 2 for --sampler pt"),
    (["--sampler", "pa", "--replicas", "0"], "--replicas must be a whole number of at least 1, not 0"),
    (["--sampler", "sa", "--replicas", "4"], "--replicas does not apply to the sa sampler (it applies to: pt, pa, lines)"),
    (["--sampler", "pa", "--sweeps", "100", "--sweeps-per-beta", "30"], "--sweeps (100) must be a multiple of"),
    (["--sampler", "pt", "--sweeps-per-beta", "10"], "--sweeps-per-beta does not apply to the pt sampler"),
    (["--sampler", "pt", "--beta-range", "5,1"], "--beta-range: LO must be below HI"),
    (["--sampler", "pa", "--replicas", "1000000"], "--replicas 1000000: the replicas of one read of this model"),
    (["--sampler", "pa", "--replicas", "10000000"], "--replicas must be at most 1,000,000, not 10,000,000"),
])
def test_a_bad_value_is_one_line_and_exit_2(run_cli, tmp_path, args, message):
    out = tmp_path / "s.json"
    status, stdout, err = run_cli("solve", HEART, "-q", "-o", out, *args)
    assert status == 2 and message in err and err.count("\n") == 1, err
    assert not out.exists() and stdout == ""


@pytest.mark.parametrize("sampler", ["pt", "pa", "lines"])
def test_without_numba_the_message_is_the_install_line(monkeypatch, run_cli, sampler):
    import sys
    import tomllib
    from pathlib import Path

    from nonoqubo.errors import MissingDependency

    monkeypatch.setitem(sys.modules, "numba", None)  # import numba fails
    with pytest.raises(MissingDependency, match=rf"^the '{sampler}' sampler needs the 'numba' package.*"
                                                r'pip install "nonoqubo\[tempering\]"'):
        sample(build(SMALL), sampler, reads=1, seed=1, sweeps=10)
    status, stdout, err = run_cli("solve", HEART, "--sampler", sampler, "--reads", "1", "-q")
    assert status == 2 and "nonoqubo[tempering]" in err and err.count("\n") == 1, err
    extras = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(req.startswith("numba") for req in extras["tempering"]) and any(
        req.startswith("numba") for req in extras["dev"])


def test_a_campaign_plan_sweeps_replicas_and_gives_what_solve_gives(run_cli, tmp_path):
    status, _, err = run_cli("suite", "--random", "5x5:0.5:1:7", "-o", tmp_path / "suite", "-f", "bqm", "-q")
    assert status == 0, err
    (tmp_path / "plan.yaml").write_text("suite: suite\nseeds: [3]\nsettings:\n"
                                        "  pa: {sampler: pa, reads: 3, sweeps: 40, replicas: [2, 4]}\n")
    status, out, err = run_cli("run", tmp_path / "plan.yaml", "-j", 1, "-q")
    assert status == 0, out + err
    ran = sorted((tmp_path / "runs").glob("*/*.json"))
    assert [p.parent.name for p in ran] == ["pa-replicas=2", "pa-replicas=4"]
    model = next((tmp_path / "suite").glob("*.bqm"))
    alone = tmp_path / "alone.json"
    status, _, err = run_cli("solve", model, "--sampler", "pa", "--reads", 3, "--sweeps", 40, "--replicas", 4,
                             "--seed", 3, "-q", "-o", alone)
    assert status in (0, 1), err
    planned = json.loads(ran[1].read_text())
    assert planned["info"]["nonoqubo"]["parameters"]["replicas"] == 4
    assert planned["sample_data"] == json.loads(alone.read_text())["sample_data"]  # the same seed, the same samples


@pytest.mark.parametrize("sampler", ["pt", "pa"])
def test_a_target_energy_ends_each_read_at_its_first_state_there_and_records_the_budget(sampler):
    """Issue 52 item 2: with --target-energy 0 every read that reaches 0 stops there (fewer sweeps than its
    budget), its time is its time to target, and the record keeps the budget beside it; the same seed gives
    the same reads."""
    q = build(MEDIUM)
    options = {"reads": 4, "seed": 2, "sweeps": 2000, "replicas": 8, "beta_range": (1, 20)}
    whole = sample(q, sampler, **options)
    stopped = sample(q, sampler, target_energy=0, **options)
    assert np.array_equal(stopped.bits, sample(q, sampler, target_energy=0, **options).bits)
    assert np.array_equal(stopped.energies, q.energy(stopped.bits)) and (stopped.energies == 0).all()
    reported = stopped.extra[RUN]["sampler_reported"]
    assert reported["target_energy"] == 0 and reported["budget_sweeps"] == 2000
    assert all(s < 2000 for s in reported["sweeps_run"])
    assert reported["target_seconds"] == stopped.extra[RUN]["timing"]["read_seconds"]
    assert reported["budget_seconds"] > max(reported["target_seconds"])
    assert stopped.extra[RUN]["parameters"]["target_energy"] == 0
    assert "target_seconds" not in whole.extra[RUN]["sampler_reported"]


def test_a_read_that_misses_the_target_runs_its_whole_budget():
    q = build(MEDIUM)
    batch = sample(q, "pt", reads=2, seed=1, sweeps=30, replicas=2, target_energy=-1)  # below the ground energy
    reported = batch.extra[RUN]["sampler_reported"]
    assert reported["sweeps_run"] == [30, 30] and reported["target_seconds"] == [None, None]
    assert reported["budget_seconds"] == pytest.approx(np.mean(batch.extra[RUN]["timing"]["read_seconds"]))


def test_target_energy_is_refused_by_a_sampler_that_does_not_stop_at_one(run_cli, tmp_path):
    status, stdout, err = run_cli("solve", HEART, "--sampler", "sa", "--target-energy", "0", "-q",
                                  "-o", tmp_path / "s.json")
    assert status == 2 and "--target-energy does not apply to the sa sampler (it applies to: pt, pa, lines)" in err, err


@pytest.mark.parametrize("sampler", ["pt", "pa"])
def test_a_model_of_very_large_coefficients_runs_on_int64_fields_and_computed_acceptance(sampler):
    """Coefficients of 2**33: the local fields are int64 and no acceptance table fits (TABLE_LIMIT), so the
    kernels compute exp(-beta dE); the energies are still the model's, exactly, and the ground state is found."""
    from nonoqubo.model.qubo import Qubo

    small = build(SMALL)
    scale = 2**33
    q = Qubo.from_terms(list(small.labels), (np.asarray(small.linear) * scale).tolist(),
                        [(int(r), int(c), int(v) * scale) for r, c, v in zip(small.row, small.col, small.quad)],
                        offset=int(small.offset) * scale)
    batch = sample(q, sampler, reads=3, seed=2, sweeps=200, beta_range=(0.5 / scale, 10 / scale))
    assert np.array_equal(batch.energies, q.energy(batch.bits)) and batch.energies.min() == 0
