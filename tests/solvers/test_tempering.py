"""Parallel tempering (``pt``) and population annealing (``pa``), issue 43 item 3: the chromatic Metropolis
sweep against exact Boltzmann weights, ground states reached, seeds that repeat, a run file that decodes
with its energies, ``--sweep`` over ``--replicas``, and bad values in one line with exit 2."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from nonoqubo.model.build import build
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.solvers import tempering
from nonoqubo.solvers.sampling import RUN, sample
from tests.support import SHARED

pytest.importorskip("scipy")

SMALL = Puzzle.from_picture(["#.#..", ".###.", "#...#", "##.##"])
MEDIUM = Puzzle.from_picture(["#.##.#..", ".###..##", "#..#.#.#", "##.###..", ".#..####", "###.#..#"])
HEART = SHARED / "json" / "gecode-heart.json"


def test_no_term_joins_two_variables_of_one_colour():
    q = build(MEDIUM)
    colour = tempering.colour_classes(q.row, q.col, q.num_vars)
    off = q.row != q.col
    assert (colour >= 0).all()
    assert not (colour[q.row[off]] == colour[q.col[off]]).any()
    assert colour.max() + 1 < 20  # a colouring, not one colour per variable


def test_the_sweep_samples_boltzmann_weights_and_keeps_energies_exact():
    """Every state of a 4-variable model, its frequency after many sweeps against exp(-beta E) / Z."""
    from nonoqubo.model.qubo import Qubo

    q = Qubo.from_terms(["a", "b", "c", "d"], [-1, 2, -1, 1],
                        [(0, 1, -2), (1, 2, 3), (2, 3, -2), (0, 3, 1), (0, 2, 1)])
    model = tempering._Model.of(q, "test")
    chain = tempering._Chain(model, 1, 40_000, np.random.default_rng(5), None)
    beta = np.full(40_000, 0.7)
    for _ in range(30):
        chain.sweep(beta)
    assert np.array_equal(chain.energy, model.energies(chain.state))  # kept by the accepted changes
    states = np.array(list(itertools.product((0, 1), repeat=4)))
    exact = np.exp(-0.7 * q.energy(states))
    exact /= exact.sum()
    bits = np.empty((40_000, 4), dtype=np.int64)
    bits[:, model.order] = chain.state.T
    seen = np.bincount(bits @ (1 << np.arange(3, -1, -1)), minlength=16) / 40_000
    assert np.abs(seen - exact).max() < 0.015, (seen, exact)


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
def test_reads_past_one_batch_run_in_further_batches(monkeypatch, sampler):
    q = build(SMALL)
    whole = sample(q, sampler, reads=6, seed=2, sweeps=20, replicas=4)
    monkeypatch.setattr(tempering, "BATCH_ROWS", 8)  # two reads a batch
    split = sample(q, sampler, reads=6, seed=2, sweeps=20, replicas=4)
    assert np.array_equal(whole.energies, q.energy(whole.bits)) and np.array_equal(split.energies, q.energy(split.bits))
    assert len(split) == 6 and split.energies.min() == 0


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
    (["--sampler", "sa", "--replicas", "4"], "--replicas does not apply to the sa sampler (it applies to: pt, pa)"),
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


@pytest.mark.parametrize("sampler", ["pt", "pa"])
def test_without_scipy_the_message_is_the_install_line(monkeypatch, run_cli, sampler):
    import sys
    import tomllib
    from pathlib import Path

    from nonoqubo.errors import MissingDependency

    monkeypatch.setitem(sys.modules, "scipy", None)  # import scipy fails
    with pytest.raises(MissingDependency, match=rf"^the '{sampler}' sampler needs the 'scipy' package.*"
                                                r'pip install "nonoqubo\[tempering\]"'):
        sample(build(SMALL), sampler, reads=1, seed=1, sweeps=10)
    status, stdout, err = run_cli("solve", HEART, "--sampler", sampler, "--reads", "1", "-q")
    assert status == 2 and "nonoqubo[tempering]" in err and err.count("\n") == 1, err
    extras = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(req.startswith("scipy") for req in extras["tempering"]) and any(
        req.startswith("scipy") for req in extras["dev"])


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
