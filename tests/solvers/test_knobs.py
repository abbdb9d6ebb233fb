"""The annealing knobs of ``solve`` (issue 31 item 1): sa's beta range, schedule, sweeps per beta and
restarts, tabu's tenure and restarts, OpenJij SQA's schedule file and the OpenJij seed trap; each
reaches its sampler, is recorded flat in the run file, and a bad value is one line, exit 2."""

from __future__ import annotations

import json

import numpy as np
import pytest

from nonoqubo.errors import SolverError
from nonoqubo.model.build import build
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.solvers import openjij as openjij_module
from nonoqubo.solvers.base import SampleOptions, index_bqm
from nonoqubo.solvers.samplers import check_options
from nonoqubo.solvers.request import SolveRequest
from nonoqubo.solvers.sampling import RUN, sample
from nonoqubo.solvers.schedule import betas_from_text, parse_beta_range, sqa_schedule_from_text
from tests.support import SHARED
from tests.support.sa_kernel import spy_on_sa_kernel

LOGO = SHARED / "json" / "qbpp-logo.json"
SMALL = Puzzle.from_picture(["#.#..", ".###.", "#...#", "##.##"])
#: a puzzle SA at a few sweeps does not always solve, so reads differ
MEDIUM = Puzzle.from_picture(["#.##.#..", ".###..##", "#..#.#.#", "##.###..", ".#..####", "###.#..#"])


def spy_on(monkeypatch, cls, calls):
    """Record the keyword arguments of every ``cls.sample`` call."""
    real = cls.sample

    def spy(self, bqm, **kwargs):
        calls.append(kwargs)
        return real(self, bqm, **kwargs)

    monkeypatch.setattr(cls, "sample", spy)


def test_sa_knobs_reach_the_sampler_and_the_flat_record(monkeypatch):
    pytest.importorskip("dwave.samplers")
    calls: list[dict] = []
    spy_on_sa_kernel(monkeypatch, calls)
    batch = sample(build(SMALL), "sa", reads=3, seed=5, sweeps=40, beta_range=(0.5, 10), beta_schedule="linear",
                   sweeps_per_beta=4)
    assert len(calls) == 3 and [c["seed"] for c in calls] == [5, 6, 7]
    assert np.array_equal(calls[0]["betas"], np.linspace(0.5, 10, 10))  # 40 sweeps, 4 per beta, linear
    assert calls[0]["sweeps_per_beta"] == 4 and calls[0]["num_reads"] == 1
    params = batch.extra[RUN]["parameters"]
    assert params == {"reads": 3, "seed": 5, "sweeps": 40, "time_limit": None, "workers": None, "count": None,
                      "beta_range": "0.5,10", "beta_schedule": "linear", "sweeps_per_beta": 4, "presolve": False}
    assert all(isinstance(v, (int, float, str, type(None))) for v in params.values())  # flat, plain values
    assert batch.extra[RUN]["sampler_reported"]["beta_range"] == [0.5, 10.0]  # the sampler's own account


def test_without_knobs_sa_samples_as_before():
    """No knob given passes nothing new: the same seed gives dwave-samplers' own default samples."""
    samplers = pytest.importorskip("dwave.samplers")
    q = build(MEDIUM)
    batch = sample(q, "sa", reads=2, seed=9, sweeps=20)
    direct = [samplers.SimulatedAnnealingSampler().sample(index_bqm(q), num_reads=1, seed=9 + r, num_sweeps=20)
              for r in range(2)]
    assert batch.bits.tolist() == [list(d.record.sample[0]) for d in direct]


def test_sa_restarts_keep_the_best_of_each_reads_anneals(monkeypatch):
    samplers = pytest.importorskip("dwave.samplers")
    q = build(MEDIUM)
    calls: list[dict] = []
    spy_on_sa_kernel(monkeypatch, calls)
    batch = sample(q, "sa", reads=3, seed=1, sweeps=5, restarts=4)
    assert len(batch) == 3 and {c["num_reads"] for c in calls} == {4}
    monkeypatch.undo()
    for r in range(3):  # read r is the lowest energy of the four anneals seeded 1 + r
        anneals = samplers.SimulatedAnnealingSampler().sample(index_bqm(q), num_reads=4, seed=1 + r, num_sweeps=5)
        assert batch.energies[r] == pytest.approx(anneals.record.energy.min())
    assert batch.extra[RUN]["parameters"]["restarts"] == 4


def test_custom_beta_schedule_from_a_file(tmp_path, monkeypatch):
    pytest.importorskip("dwave.samplers")
    betas = tmp_path / "betas.txt"
    betas.write_text("# hot to cold\n0.1\n0.5\n1\n5\n")
    calls: list[dict] = []
    spy_on_sa_kernel(monkeypatch, calls)
    batch = sample(build(SMALL), "sa", reads=1, seed=1, beta_schedule="custom", beta_schedule_file=str(betas),
                   sweeps_per_beta=10)
    assert calls[0]["sweeps_per_beta"] == 10 and list(calls[0]["betas"]) == [0.1, 0.5, 1.0, 5.0]
    assert batch.extra[RUN]["sampler_reported"]["beta_schedule_type"] == "custom"
    assert batch.extra[RUN]["parameters"]["beta_schedule_file"] == str(betas)


def test_tabu_knobs_reach_the_sampler(monkeypatch):
    samplers = pytest.importorskip("dwave.samplers")
    calls: list[dict] = []
    spy_on(monkeypatch, samplers.TabuSampler, calls)
    batch = sample(build(SMALL), "tabu", reads=2, seed=3, time_limit=0.01, tenure=2, restarts=5)
    assert calls[0]["timeout"] == 10 and calls[0]["tenure"] == 2 and calls[0]["num_restarts"] == 5
    assert batch.extra[RUN]["parameters"]["tenure"] == 2


@pytest.mark.parametrize("options, sampler, message", [
    (SampleOptions(beta_range=(10.0, 0.5)), "sa", "--beta-range: LO must be below HI"),
    (SampleOptions(beta_range=(0.0, 1.0)), "sa", "above 0"),
    (SampleOptions(beta_range=(0.5, 10.0)), "tabu", "--beta-range does not apply to the tabu sampler"),
    (SampleOptions(beta_schedule="cosine"), "sa", "linear, geometric or custom FILE"),
    (SampleOptions(beta_schedule="custom"), "sa", "needs a FILE of betas"),
    (SampleOptions(sweeps=100, sweeps_per_beta=3), "sa", "multiple of --sweeps-per-beta"),
    (SampleOptions(tenure=3), "sa", "--tenure does not apply to the sa sampler"),
    (SampleOptions(restarts=0), "tabu", "--restarts must be a whole number of at least 1"),
    (SampleOptions(initial_states="line"), "exact", "--initial-states does not apply"),
    (SampleOptions(initial_states="no/such/file.json"), "sa", "no such file"),
])
def test_bad_knobs_are_refused_in_one_line(options, sampler, message):
    with pytest.raises(SolverError, match=message) as info:
        check_options(options, sampler)
    assert "\n" not in str(info.value)


def test_a_custom_schedule_is_the_whole_schedule(tmp_path):
    betas = tmp_path / "b.json"
    betas.write_text("[0.1, 1, 2]")
    with pytest.raises(SolverError, match="leave out --sweeps"):
        check_options(SampleOptions(sweeps=10, beta_schedule="custom", beta_schedule_file=str(betas)), "sa")
    betas.write_text("[0.1, 2, 1]")
    with pytest.raises(SolverError, match="beta 3 .* is below beta 2"):
        check_options(SampleOptions(beta_schedule="custom", beta_schedule_file=str(betas)), "sa")


def test_schedule_readers():
    assert parse_beta_range("0.5, 10") == (0.5, 10.0)
    assert betas_from_text("[0.5, 0.5, 3]", "b").tolist() == [0.5, 0.5, 3.0]  # equal betas: not decreasing
    with pytest.raises(SolverError, match="b:2: not a number"):
        betas_from_text("1\nx\n", "b")
    with pytest.raises(SolverError, match="finite number above 0"):
        betas_from_text("0\n1\n", "b")
    assert sqa_schedule_from_text("0 10\n0.5 10\n1 20\n", "s") == [[0.0, 10], [0.5, 10], [1.0, 20]]
    assert sqa_schedule_from_text("[[0, 2, 5], [1, 4, 5]]", "s") == [[0.0, 2.0, 5], [1.0, 4.0, 5]]
    with pytest.raises(SolverError, match="row 2: s .* must not decrease"):
        sqa_schedule_from_text("0.5 10\n0.2 10\n", "s")
    with pytest.raises(SolverError, match="row 1: s must be from 0 to 1"):
        sqa_schedule_from_text("1.5 10\n", "s")
    with pytest.raises(SolverError, match="every row is"):
        sqa_schedule_from_text("0 1\n0.5 1 2\n", "s")


def test_openjij_reads_with_a_seed_are_not_copies_of_one_read():
    """OpenJij seeds every read of a call alike: nonoqubo gives read r the seed seed + r."""
    pytest.importorskip("openjij")
    q = build(MEDIUM)
    first = sample(q, "openjij-sa", reads=6, seed=1, sweeps=3)
    assert len({tuple(row) for row in first.bits.tolist()}) > 1
    again = sample(q, "openjij-sa", reads=6, seed=1, sweeps=3)
    assert again.bits.tolist() == first.bits.tolist()  # and still repeatable
    assert len(first.extra[RUN]["timing"]["read_seconds"]) == 6


def test_sqa_schedule_file_reaches_openjij(tmp_path, monkeypatch):
    openjij = pytest.importorskip("openjij")
    path = tmp_path / "sqa.txt"
    path.write_text("0 5\n0.5 5\n1 10\n")
    calls: list[dict] = []
    spy_on(monkeypatch, openjij.SQASampler, calls)
    batch = openjij_module.sample(build(SMALL), "openjij-sqa", reads=1, seed=2,
                                  schedule={"sqa_schedule": str(path), "trotter": 2})
    assert calls[0]["schedule"] == [[0.0, 5], [0.5, 5], [1.0, 10]] and calls[0]["trotter"] == 2
    assert len(batch) == 1
    with pytest.raises(SolverError, match="leave out --sweeps"):
        check_options(SampleOptions(sweeps=10, schedule={"sqa_schedule": str(path)}), "openjij-sqa")


def test_recorded_parameters_flatten_the_openjij_schedule():
    params = SolveRequest.of("openjij-sqa", reads=2, schedule={"beta": 5.0, "trotter": None}).parameters()
    assert params == {"reads": 2, "seed": None, "sweeps": None, "time_limit": None, "workers": None, "count": None,
                      "beta": 5.0, "presolve": False}


@pytest.mark.parametrize("args, message", [
    (["--beta-range", "10,0.5"], "--beta-range: LO must be below HI"),
    (["--beta-range", "0,1"], "above 0"),
    (["--beta-range", "-1,2"], "above 0"),  # a negative LO with a space: a value, not an option
    (["--beta-range", "1"], "--beta-range takes LO,HI"),
    (["--beta-schedule", "custom", "NOFILE"], "--beta-schedule custom NOFILE: cannot read it"),
    (["--beta-schedule", "cosine"], "linear, geometric or custom FILE"),
    (["--beta-schedule", "custom"], "needs a FILE of betas"),
    (["--sampler", "tabu", "--tenure", "1000"], "--tenure must be below the model's number of variables"),
    (["--sampler", "openjij-sqa", "--sqa-schedule", "NOFILE"], "--sqa-schedule NOFILE"),
])
def test_cli_refuses_bad_knobs_before_sampling(run_cli, tmp_path, args, message):
    out = tmp_path / "s.json"
    status, stdout, err = run_cli("solve", LOGO, "-q", "-o", out, *args)
    assert status == 2 and message in err and err.count("\n") == 1, err
    assert not out.exists() and stdout == ""


def test_cli_sa_knobs_are_recorded_in_the_run_file(run_cli, tmp_path):
    pytest.importorskip("dwave.samplers")
    out = tmp_path / "s.json"
    status, _, err = run_cli("solve", LOGO, "-q", "--reads", "2", "--seed", "1", "--sweeps", "100",
                             "--beta-range", "0.5,10", "--beta-schedule", "linear", "--sweeps-per-beta", "10",
                             "--restarts", "2", "-o", out)
    assert status in (0, 1), err
    params = json.loads(out.read_text())["info"]["nonoqubo"]["parameters"]
    assert params["beta_range"] == "0.5,10" and params["beta_schedule"] == "linear"
    assert params["sweeps_per_beta"] == 10 and params["restarts"] == 2 and params["presolve"] is False


def test_help_says_when_sqa_is_the_wrong_tool(run_cli):
    status, out, _ = run_cli("solve", "--help")
    assert status == 0
    for flag in ("--beta-range", "--beta-schedule", "--sweeps-per-beta", "--restarts", "--tenure",
                 "--initial-states", "--sqa-schedule", "--sweep"):
        assert flag in out
    assert "seed trap" in out.lower() and "wrong tool" in out.lower()


def test_sample_refuses_an_unknown_knob():
    with pytest.raises(TypeError, match="unknown sampling option 'beta_rnge'"):
        sample(build(SMALL), "sa", beta_rnge=(1, 2))


def test_energies_of_knobbed_runs_are_the_models():
    pytest.importorskip("dwave.samplers")
    q = build(SMALL)
    batch = sample(q, "sa", reads=2, seed=4, beta_range=(1, 20), restarts=2)
    assert np.array_equal(batch.energies, q.energy(batch.bits))


def test_beta_schedule_takes_one_word_or_custom_file_and_never_swallows_the_puzzle(run_cli, tmp_path):
    pytest.importorskip("dwave.samplers")
    betas = tmp_path / "betas.txt"
    betas.write_text("0.1\n1\n5\n")
    for args in (["--beta-schedule", "linear", LOGO, "--sweeps", "20"],
                 ["--beta-schedule", "custom", betas, LOGO], [LOGO, "--beta-schedule", "custom", betas]):
        out = tmp_path / "s.json"
        status, _, err = run_cli("solve", *args, "--reads", "1", "--seed", "1", "-q", "-o", out)
        assert status in (0, 1) and err == "", (args, err)
        params = json.loads(out.read_text())["info"]["nonoqubo"]["parameters"]
        assert params["beta_schedule"] == ("linear" if "linear" in args else "custom"), params
