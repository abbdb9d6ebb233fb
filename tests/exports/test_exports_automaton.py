"""The line-automaton model through every export: load(dump(q)) == q, encoding and weights kept;
the constrained formats refuse it by name (it has no 0-1 program)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from nonoqubo import exports
from nonoqubo.model.build import build
from nonoqubo.model.encodings import encoding_named
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.model.qubo import Qubo
from tests.support import shared_puzzle

#: every format that is handed a QUBO or the puzzle (the constrained ones are handed a 0-1 program)
FORMATS = sorted(m.NAME for m in exports.formats() if m.KIND != "constrained")


def clues_only(q: Qubo) -> Qubo:
    p = q.puzzle
    return dataclasses.replace(q, puzzle=Puzzle(p.rows, p.cols, p.name))


@pytest.fixture(scope="module", params=["sgt-pattern-5x5", "gecode-heart"])
def solved(request) -> tuple[Qubo, np.ndarray]:
    """A shared puzzle's weighted automaton model (clues only, as files carry them) and its solution's variables."""
    puzzle = shared_puzzle(request.param)
    q = build(puzzle, encoding="automaton", weights="shape=2,order=3,cell=5")
    return clues_only(q), encoding_named("automaton").geometry_of(puzzle).encode(puzzle.solution_grid())


@pytest.fixture(scope="module")
def automaton_model(solved) -> Qubo:
    return solved[0]


@pytest.mark.parametrize("fmt", FORMATS)
def test_load_dump_is_identity(fmt, automaton_model, tmp_path):
    path = tmp_path / f"m.{exports.get_format(fmt).EXTENSIONS[0]}"
    exports.dump(automaton_model, path)
    back = exports.load(path)
    assert back == automaton_model and list(back.labels) == list(automaton_model.labels)
    assert back.encoding is encoding_named("automaton") and back.weights == automaton_model.weights


@pytest.mark.parametrize("fmt", FORMATS)
def test_fixed_variables_survive(fmt, solved):
    automaton_model, solution = solved
    fix = {automaton_model.labels[i]: int(solution[i]) for i in range(0, automaton_model.num_vars, 5)}
    reduced = automaton_model.fix(fix)
    back = exports.loads(exports.dumps(reduced, fmt), fmt)
    assert back == reduced and dict(back.fixed) == fix
    kept = np.array([solution[automaton_model.labels.index(label)] for label in back.labels], np.int8)
    assert int(back.energy(kept)[0]) == 0


def test_the_constrained_form_is_refused_by_name(run_cli, tmp_path):
    path = tmp_path / "p.json"
    path.write_text('{"rows": [[1], [1]], "columns": [[1], [1]]}')
    status, _, err = run_cli("build", str(path), "--encoding", "automaton", "--constrained", "-o", str(tmp_path / "m.lp"))
    assert status == 2 and "automaton" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
