"""SA restarts from the probe's fixings (issue 43 item 3): ``--initial-states probe`` (probing's fixings, random
values elsewhere), and ``sa --restarts R`` with a warm start drawing one state per restart."""

from __future__ import annotations

import json

import numpy as np
import pytest

from nonoqubo.model.build import build
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.solvers.initial import initial_states
from nonoqubo.solvers.sampling import RUN, sample
from tests.support import SHARED

#: line logic settles 4 of its 12 cells, probing all 12 (nonoqubo.logic.probe's example)
PROBED = Puzzle.from_picture([".##.", ".##.", "#..#"])
HEART = SHARED / "json" / "gecode-heart.json"


def answer_bits(tmp_path, puzzle, q):
    """The state of *puzzle*'s own picture in *q*'s variables (through the picture reader of --initial-states)."""
    picture = tmp_path / "answer.txt"
    picture.write_text("\n".join(puzzle.solution) + "\n")
    return initial_states(q, str(picture), 1)[0]


@pytest.fixture
def starts(monkeypatch):
    """The warm-start states of every call of dwave-samplers' SA kernel, as they are handed over (as 0/1)."""
    pytest.importorskip("dwave.samplers")
    from tests.support.sa_kernel import spy_on_sa_kernel

    calls: list[dict] = []
    spy_on_sa_kernel(monkeypatch, calls)
    return calls


def test_probe_states_hold_what_probing_settles_and_it_is_the_answer(tmp_path):
    q = build(PROBED)
    answer = answer_bits(tmp_path, PROBED, q)
    line = initial_states(q, "line", 6, seed=1)
    probe = initial_states(q, "probe", 6, seed=1)
    same = lambda states: (states == states[0]).all(axis=0)  # noqa: E731 - columns equal in every state
    assert same(probe).sum() > same(line).sum()  # probing decides more than line logic
    assert same(probe).all() and np.array_equal(probe[0], answer)  # a probe-solvable puzzle: every state is its answer
    assert np.array_equal(probe, initial_states(q, "probe", 6, seed=1))


def test_each_sa_restart_starts_from_its_own_completion_of_the_fixings(starts):
    from nonoqubo.clues import load
    from nonoqubo.logic.presolve import fixings

    puzzle = load(SHARED / "json" / "gecode-non-unique.json")  # several solutions: probing leaves variables open
    q = build(puzzle)
    known = fixings(puzzle, method="probe")
    decided = np.array([str(label) in known for label in q.labels])
    values = np.array([known.get(str(label), 0) for label in q.labels])
    assert 0 < decided.sum() < q.num_vars
    batch = sample(q, "sa", reads=3, seed=2, sweeps=10, restarts=4, initial_states="probe", beta_range=(2, 20))
    states = [call["initial_states"] for call in starts]
    assert len(states) == 3 and all(s.shape == (4, q.num_vars) for s in states)
    every = np.concatenate(states)
    assert len({row.tobytes() for row in every}) == 12  # every restart its own state
    assert (every[:, decided] == values[decided]).all()  # every start respects probing's fixings
    assert batch.extra[RUN]["parameters"]["initial_states"] == "probe"
    assert np.array_equal(batch.energies, q.energy(batch.bits))


def test_one_state_file_still_starts_every_restart(starts, tmp_path):
    q = build(PROBED)
    picture = tmp_path / "answer.txt"
    picture.write_text("\n".join(PROBED.solution) + "\n")
    sample(q, "sa", reads=2, seed=2, sweeps=10, restarts=3, initial_states=str(picture))
    assert all((call["initial_states"] == answer_bits(tmp_path, PROBED, q)).all() for call in starts)


def test_cli_probe_start_is_recorded_and_a_typo_is_one_line(run_cli, tmp_path):
    pytest.importorskip("dwave.samplers")
    out = tmp_path / "s.json"
    status, _, err = run_cli("solve", HEART, "-q", "--reads", "2", "--seed", "1", "--restarts", "2",
                             "--initial-states", "probe", "--beta-range", "2,20", "-o", out)
    assert status in (0, 1), err
    assert json.loads(out.read_text())["info"]["nonoqubo"]["parameters"]["initial_states"] == "probe"
    status, stdout, err = run_cli("solve", HEART, "-q", "--initial-states", "prob", "-o", tmp_path / "t.json")
    assert status == 2 and err.count("\n") == 1 and "--initial-states prob: no such file" in err and "'probe'" in err
    assert not (tmp_path / "t.json").exists()
