"""OpenJij's knobs (the knobs brief, items 1 and 2): ``openjij-sa`` takes sa's beta range, schedules and
sweeps per beta where OpenJij has them; both OpenJij samplers take a warm start (``initial_state``),
which reaches OpenJij, is recorded, and in SQA survives only a schedule that starts late."""

from __future__ import annotations

import json

import numpy as np
import pytest

from nonoqubo.errors import SampleError, SolverError
from nonoqubo.model.build import build
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.solvers.base import SampleOptions
from nonoqubo.solvers.openjij import knob_arguments
from nonoqubo.solvers.samplers import check_options
from nonoqubo.solvers.sampling import RUN, sample
from tests.support import SHARED

LOGO = SHARED / "json" / "qbpp-logo.json"
SMALL = Puzzle.from_picture(["#.#..", ".###.", "#...#", "##.##"])


def spy_on(monkeypatch, cls, calls):
    """Record the keyword arguments of every ``cls.sample`` call (and still sample)."""
    original = cls.sample

    def spy(self, bqm, **kwargs):
        calls.append(kwargs)
        return original(self, bqm, **kwargs)

    monkeypatch.setattr(cls, "sample", spy)


def test_the_beta_range_is_openjijs_beta_min_and_max(monkeypatch):
    openjij = pytest.importorskip("openjij")
    calls: list[dict] = []
    spy_on(monkeypatch, openjij.SASampler, calls)
    batch = sample(build(SMALL), "openjij-sa", reads=2, seed=1, sweeps=20, beta_range="0.5,10")
    assert [(c["beta_min"], c["beta_max"], c["num_sweeps"]) for c in calls] == [(0.5, 10.0, 20)] * 2
    record = batch.extra[RUN]
    assert record["parameters"]["beta_range"] == "0.5,10"
    assert record["sampler_reported"]["schedule"] == {"beta_max": 10.0, "beta_min": 0.5, "num_sweeps": 20}


@pytest.mark.parametrize("kind, expected", [
    ("linear", [1.0, 2.0, 3.0, 4.0]),
    ("geometric", [1.0, 2.0, 4.0, 8.0]),
])
def test_a_spaced_schedule_is_made_for_openjij(monkeypatch, kind, expected):
    openjij = pytest.importorskip("openjij")
    calls: list[dict] = []
    spy_on(monkeypatch, openjij.SASampler, calls)
    hi = expected[-1]
    batch = sample(build(SMALL), "openjij-sa", reads=1, seed=1, sweeps=12, beta_range=(1.0, hi), beta_schedule=kind,
                   sweeps_per_beta=3)
    schedule = calls[0]["schedule"]
    assert [row[1] for row in schedule] == [3] * 4
    assert np.allclose([row[0] for row in schedule], expected)
    assert not {"num_sweeps", "beta_min", "beta_max"} & set(calls[0])  # the schedule is the whole schedule
    made = batch.extra[RUN]["sampler_reported"]["nonoqubo_schedule"]
    assert made == {"betas": 4, "first_beta": 1.0, "last_beta": hi, "sweeps": 12}
    assert batch.extra[RUN]["parameters"]["beta_schedule"] == kind


def test_a_custom_schedule_file_with_sweeps_per_beta(tmp_path, monkeypatch):
    openjij = pytest.importorskip("openjij")
    path = tmp_path / "betas.txt"
    path.write_text("0.1\n1\n5\n")
    calls: list[dict] = []
    spy_on(monkeypatch, openjij.SASampler, calls)
    sample(build(SMALL), "openjij-sa", reads=1, seed=1, beta_schedule="custom", beta_schedule_file=str(path),
           sweeps_per_beta=4)
    assert calls[0]["schedule"] == [[0.1, 4], [1.0, 4], [5.0, 4]]


def test_beta_min_and_max_make_the_range_of_a_spaced_schedule():
    made = knob_arguments(SampleOptions(schedule={"beta_min": 1.0, "beta_max": 2.0}, beta_schedule="linear", sweeps=2))
    assert made == {"schedule": [[1.0, 1], [2.0, 1]]}


@pytest.mark.parametrize("options, sampler, message", [
    (SampleOptions(beta_schedule="linear"), "openjij-sa", "needs the whole range, --beta-range LO,HI"),
    (SampleOptions(sweeps_per_beta=10), "openjij-sa", "--sweeps-per-beta needs the whole range"),
    (SampleOptions(beta_range=(0.5, 10.0), schedule={"beta_max": 3.0}), "openjij-sa",
     "--beta-range and --beta-max say the same thing"),
    (SampleOptions(restarts=2), "openjij-sa", "--restarts does not apply to the openjij-sa sampler"),
    (SampleOptions(tenure=2), "openjij-sqa", "--tenure does not apply to the openjij-sqa sampler"),
    (SampleOptions(beta_range=(0.5, 10.0)), "openjij-sqa", "--beta-range does not apply to the openjij-sqa sampler"),
    (SampleOptions(beta_range=(10.0, 0.5)), "openjij-sa", "LO must be below HI"),
    (SampleOptions(sweeps=100, sweeps_per_beta=3, beta_range=(1.0, 2.0)), "openjij-sa", "must be a multiple of"),
])
def test_knobs_openjij_cannot_take_are_refused_in_one_line(options, sampler, message):
    with pytest.raises(SolverError, match=message) as caught:
        check_options(options, sampler)
    assert "\n" not in str(caught.value)


def test_a_custom_schedule_takes_no_beta_min(tmp_path):
    path = tmp_path / "betas.txt"
    path.write_text("1\n2\n")
    with pytest.raises(SolverError, match="leave out --beta-min"):
        check_options(SampleOptions(beta_schedule="custom", beta_schedule_file=str(path), schedule={"beta_min": 1.0}),
                      "openjij-sa")


@pytest.mark.parametrize("sampler, cls", [("openjij-sa", "SASampler"), ("openjij-sqa", "SQASampler")])
def test_a_warm_start_reaches_openjij_state_by_state(tmp_path, monkeypatch, sampler, cls):
    openjij = pytest.importorskip("openjij")
    import dimod

    q = build(SMALL)
    rows = np.random.default_rng(4).integers(0, 2, size=(2, q.num_vars))
    ss = dimod.SampleSet.from_samples((rows, [str(x) for x in q.labels]), dimod.BINARY, energy=q.energy(rows))
    path = tmp_path / "start.json"
    path.write_text(json.dumps(ss.to_serializable()))
    calls: list[dict] = []
    spy_on(monkeypatch, getattr(openjij, cls), calls)
    batch = sample(q, sampler, reads=3, sweeps=5, initial_states=str(path))  # no seed: still one call per read
    starts = [[c["initial_state"][j] for j in range(q.num_vars)] for c in calls]
    assert starts == [rows[r % 2].tolist() for r in range(3)]
    assert batch.extra[RUN]["parameters"]["initial_states"] == str(path)


def test_a_warm_start_of_another_model_is_refused_before_openjij_runs(tmp_path, monkeypatch):
    openjij = pytest.importorskip("openjij")
    path = tmp_path / "other.txt"
    path.write_text("0101\n")
    calls: list[dict] = []
    spy_on(monkeypatch, openjij.SQASampler, calls)
    with pytest.raises(SampleError, match="has 4 values but the model has"):
        sample(build(SMALL), "openjij-sqa", reads=1, initial_states=str(path))
    assert calls == []


def test_sqa_keeps_a_warm_start_only_when_its_schedule_starts_late(tmp_path):
    """The transverse field of s near 0 randomises the state: a warm start survives a schedule held near s = 1."""
    pytest.importorskip("openjij")
    q = build(SMALL)
    answer = tmp_path / "answer.txt"
    answer.write_text("\n".join(SMALL.solution) + "\n")
    late = tmp_path / "late.txt"
    late.write_text("0.9 20\n1.0 20\n")
    warm = sample(q, "openjij-sqa", reads=3, seed=1, initial_states=str(answer),
                  schedule={"sqa_schedule": str(late)})
    cold = sample(q, "openjij-sqa", reads=3, seed=1, schedule={"sqa_schedule": str(late)})
    assert q.energy(warm.bits).max() == 0  # every read stayed at the answer
    assert q.energy(cold.bits).min() > 0  # from random states the late schedule finds nothing


def test_cli_openjij_sa_knobs_are_in_the_run_file_and_evaluates_setting(run_cli, tmp_path):
    pytest.importorskip("openjij")
    from nonoqubo.campaign.evaluate import evaluate, records

    out = tmp_path / "runs"
    out.mkdir()
    status, _, err = run_cli("solve", LOGO, "--sampler", "openjij-sa", "--reads", "2", "--seed", "1", "--sweeps", "40",
                             "--beta-range", "0.5,10", "--beta-schedule", "linear", "--sweeps-per-beta", "2", "-q",
                             "-o", out / "a.json")
    assert status in (0, 1), err
    record = json.loads((out / "a.json").read_text())["info"]["nonoqubo"]
    assert {k: record["parameters"][k] for k in ("beta_range", "beta_schedule", "sweeps_per_beta", "sweeps")} == {
        "beta_range": "0.5,10", "beta_schedule": "linear", "sweeps_per_beta": 2, "sweeps": 40}
    assert record["sampler_reported"]["nonoqubo_schedule"]["betas"] == 20
    rows = records(evaluate(str(LOGO), [str(out)]))
    assert rows[0]["run"]["parameters"]["beta_schedule"] == "linear"
    status, stdout, err = run_cli("evaluate", LOGO, out)
    assert "beta_range=0.5,10" in stdout and "beta_schedule=linear" in stdout and "sweeps_per_beta=2" in stdout


def test_cli_refuses_a_linear_openjij_schedule_without_a_range(run_cli, tmp_path):
    status, stdout, err = run_cli("solve", LOGO, "--sampler", "openjij-sa", "--beta-schedule", "linear", "-q",
                                  "-o", tmp_path / "a.json")
    assert status == 2 and err.count("\n") == 1 and "needs the whole range" in err
    assert not (tmp_path / "a.json").exists()
