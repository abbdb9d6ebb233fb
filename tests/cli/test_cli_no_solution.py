"""A puzzle with no solution: every command's verdict names the clue file, whoever proved it.

Line logic or probing (a presolve) raises :class:`~nonoqubo.errors.Contradiction`; CP-SAT raises
:class:`~nonoqubo.errors.NoSolution`.  ``solve`` (plain and ``--sweep``) and ``build`` name the file
given, never "the puzzle" alone or a sweep setting that is not at fault.  A bad clue is not a
contradiction: it keeps its own message.
"""

from __future__ import annotations

import pytest

from nonoqubo.errors import Contradiction, PuzzleError
from nonoqubo.logic.linesolve import line_solve
from nonoqubo.model.puzzle import Puzzle

# 3x3: the first row is full, but the third column needs a block of 2 and the second row is empty
UNSOLVABLE = "rows: [[3], [], []]\ncolumns: [[1], [], [2]]\n"


@pytest.fixture
def unsolvable(tmp_path):
    path = tmp_path / "unsolvable.yaml"
    path.write_text(UNSOLVABLE)
    return path


def test_line_logic_raises_a_contradiction_a_puzzle_error():
    puzzle = Puzzle(rows=[[3], [], []], cols=[[1], [], [2]])
    with pytest.raises(Contradiction, match="no placement of clue") as caught:
        line_solve(puzzle)
    assert isinstance(caught.value, PuzzleError)  # callers that catch PuzzleError still do


def test_cpsat_names_the_file(unsolvable, run_cli):
    pytest.importorskip("ortools")
    status, out, err = run_cli("solve", unsolvable, "--sampler", "cpsat")
    assert status == 1 and err == ""
    assert out.strip() == f"nonoqubo: {unsolvable}: CP-SAT proved that the puzzle has no solution"


@pytest.mark.parametrize("presolve, who", [("line", "line logic"), ("probe", "line logic")])
def test_a_presolve_names_the_file(unsolvable, run_cli, presolve, who):
    status, out, err = run_cli("solve", unsolvable, "--presolve", presolve)
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"nonoqubo: error: {unsolvable}: the puzzle has no solution, {who} proves it: ")


def test_a_sweep_names_the_file_not_a_setting(unsolvable, run_cli, tmp_path):
    status, out, err = run_cli("solve", unsolvable, "--presolve", "--sweep", "sweeps=10:20", "-o", tmp_path / "runs")
    assert status == 2 and len(err.splitlines()) == 1
    assert f"{unsolvable}: the puzzle has no solution, line logic proves it" in err and "sweeps=10" not in err
    assert not (tmp_path / "runs").exists()


def test_a_cpsat_sweep_names_the_file(unsolvable, run_cli, tmp_path):
    pytest.importorskip("ortools")
    status, out, err = run_cli("solve", unsolvable, "--sampler", "cpsat", "--sweep", "time-limit=1:2",
                               "-o", tmp_path / "runs")
    assert status == 1 and f"{unsolvable}: CP-SAT proved that the puzzle has no solution" in out
    assert not (tmp_path / "runs").exists()


def test_build_names_the_file(unsolvable, run_cli, tmp_path):
    status, out, err = run_cli("build", unsolvable, "--presolve", "-o", tmp_path / "u.qubo.json")
    assert status == 2 and f"{unsolvable}: the puzzle has no solution, line logic proves it" in err
    assert not (tmp_path / "u.qubo.json").exists()


def test_a_bad_clue_is_not_called_a_contradiction(tmp_path, run_cli):
    path = tmp_path / "bad.yaml"
    path.write_text("rows: [[1, 1], [1]]\ncolumns: [[1], [1]]\n")
    status, _, err = run_cli("solve", path, "--presolve")
    assert status == 2 and "no solution" not in err and "needs 3 cells" in err
