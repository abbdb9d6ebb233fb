"""Warm starts (issue 31 item 2): ``--initial-states line|FILE`` for sa and tabu, matched to the model
(presolved or not) before any sampling; another model's states are one line, exit 2."""

from __future__ import annotations

import json

import numpy as np
import pytest

from nonoqubo.errors import SampleError
from nonoqubo.logic.presolve import fixings
from nonoqubo.model.build import build
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.pipeline import Models
from nonoqubo.solvers.initial import initial_states
from nonoqubo.solvers.sampling import RUN, sample, sampleset_document, solve
from tests.support import SHARED

LOGO = SHARED / "json" / "qbpp-logo.json"
#: line logic fixes 3 of its 25 variables
PARTLY = Puzzle.from_picture(["###..", "#..#.", ".#..#", "..#.#"])
SMALL = Puzzle.from_picture(["#.#..", ".###.", "#...#", "##.##"])


def test_line_states_are_the_fixings_plus_seeded_random_values():
    q = build(PARTLY)
    known = fixings(PARTLY)
    states = initial_states(q, "line", 4, seed=3)
    assert states.shape == (4, q.num_vars) and states.dtype == np.int8
    for j, label in enumerate(q.labels):
        if str(label) in known:
            assert set(states[:, j].tolist()) == {known[str(label)]}
    assert len({tuple(row) for row in states.tolist()}) > 1  # each read its own random values
    assert np.array_equal(states, initial_states(q, "line", 4, seed=3))  # seeded


def write_samples(path, puzzle, bits_rows):
    """A SampleSet file of *puzzle*'s full model holding *bits_rows*."""
    import dimod

    q = build(puzzle)
    ss = dimod.SampleSet.from_samples((np.asarray(bits_rows), [str(x) for x in q.labels]), dimod.BINARY,
                                      energy=q.energy(np.asarray(bits_rows)))
    path.write_text(json.dumps(ss.to_serializable()))
    return q


def test_a_samples_file_starts_read_r_from_state_r_mod_k(tmp_path):
    q = build(PARTLY)
    rows = np.random.default_rng(1).integers(0, 2, size=(2, q.num_vars))
    write_samples(tmp_path / "s.json", PARTLY, rows)
    states = initial_states(q, str(tmp_path / "s.json"), 5)
    assert states.tolist() == [rows[r % 2].tolist() for r in range(5)]


def test_a_full_models_states_start_the_presolved_model_from_its_free_variables(tmp_path):
    models = Models.build(PARTLY)
    reduced = models.presolve()
    rows = np.random.default_rng(2).integers(0, 2, size=(1, models.qubo.num_vars))
    write_samples(tmp_path / "s.json", PARTLY, rows)
    states = initial_states(reduced, str(tmp_path / "s.json"), 1)
    where = {str(label): j for j, label in enumerate(models.qubo.labels)}
    assert states[0].tolist() == [rows[0, where[str(label)]] for label in reduced.labels]


def test_a_picture_is_encoded_through_the_layout(tmp_path):
    picture = tmp_path / "answer.txt"
    picture.write_text("\n".join(SMALL.solution) + "\n")
    q = build(SMALL)
    states = initial_states(q, str(picture), 2)
    assert q.energy(states).tolist() == [0, 0]  # the solution, in the model's variables


@pytest.mark.parametrize("content, message", [
    ("0101\n", "has 4 values but the model has"),
    ("#.\n##\n", "a 2x2 picture, but the puzzle is 5x4"),
])
def test_states_of_another_model_are_refused(tmp_path, content, message):
    path = tmp_path / "other.txt"
    path.write_text(content)
    with pytest.raises(SampleError, match=message) as info:
        initial_states(build(SMALL), str(path), 1)
    assert "\n" not in str(info.value)


def test_another_puzzles_sample_file_is_refused(tmp_path):
    other = Puzzle.from_picture(["###", "#..", "##."])
    write_samples(tmp_path / "other.json", other, [[0] * build(other).num_vars])
    with pytest.raises(SampleError, match="lacks variable|another puzzle|unknown"):
        initial_states(build(SMALL), str(tmp_path / "other.json"), 1)


@pytest.mark.parametrize("sampler, extra", [("sa", {"sweeps": 1, "beta_range": (50, 100)}),
                                            ("tabu", {"time_limit": 0.01})])
def test_sa_and_tabu_start_from_the_warm_state(tmp_path, sampler, extra):
    """Started from the solution and kept cold (sa) or keeping its best (tabu), every read is the solution."""
    pytest.importorskip("dwave.samplers")
    picture = tmp_path / "answer.txt"
    picture.write_text("\n".join(SMALL.solution) + "\n")
    result = solve(SMALL, sampler, reads=3, seed=1, initial_states=str(picture), **extra)
    assert result.num_valid == 3
    assert result.batch.extra[RUN]["parameters"]["initial_states"] == str(picture)


def test_a_cold_anneal_from_a_warm_state_never_climbs(tmp_path):
    pytest.importorskip("dwave.samplers")
    q = build(PARTLY)
    rows = np.random.default_rng(5).integers(0, 2, size=(3, q.num_vars))
    write_samples(tmp_path / "s.json", PARTLY, rows)
    batch = sample(q, "sa", reads=3, seed=2, sweeps=1, beta_range=(100, 200), initial_states=str(tmp_path / "s.json"))
    assert np.all(batch.energies <= q.energy(rows))


def test_cli_warm_start_from_an_earlier_run_with_presolve(run_cli, tmp_path):
    pytest.importorskip("dwave.samplers")
    first = tmp_path / "first.json"
    status, _, err = run_cli("solve", LOGO, "-q", "--reads", "2", "--seed", "1", "--sweeps", "50", "-o", first)
    assert status in (0, 1), err
    second = tmp_path / "second.json"
    status, out, err = run_cli("solve", LOGO, "-q", "--presolve", "--reads", "2", "--seed", "1", "--sweeps", "5",
                               "--beta-range", "20,40", "--initial-states", first, "-o", second)
    assert status in (0, 1), err
    assert json.loads(second.read_text())["info"]["nonoqubo"]["parameters"]["initial_states"] == str(first)


def test_cli_refuses_another_models_states_before_sampling(run_cli, tmp_path):
    other = tmp_path / "other.json"
    result = solve(SMALL, "exact")
    other.write_text(json.dumps(sampleset_document(result)))
    out = tmp_path / "s.json"
    status, stdout, err = run_cli("solve", LOGO, "-q", "--initial-states", other, "-o", out)
    assert status == 2 and err.startswith("nonoqubo: error: --initial-states: ") and err.count("\n") == 1, err
    assert not out.exists() and stdout == ""


def test_bad_states_stop_before_the_sampler_is_called(tmp_path, monkeypatch):
    pytest.importorskip("dwave.samplers")
    from tests.support.sa_kernel import spy_on_sa_kernel

    called: list[dict] = []
    spy_on_sa_kernel(monkeypatch, called, run=False)
    path = tmp_path / "short.txt"
    path.write_text("0101\n")
    with pytest.raises(SampleError, match="has 4 values"):
        sample(build(SMALL), "sa", reads=2, seed=1, initial_states=str(path))
    assert called == []
