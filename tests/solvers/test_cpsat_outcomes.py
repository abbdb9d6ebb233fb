"""CP-SAT's outcomes without a sample: a JSON object each with --json, and exit 3 for a time limit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nonoqubo import clues
from nonoqubo.model.puzzle import Puzzle

pytest.importorskip("ortools.sat.python.cp_model", reason="the cp extra (ortools) is not installed")
SCHEMA = Path(__file__).resolve().parents[2] / "nonoqubo" / "schemas" / "report.schema.json"


def validate(doc: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(doc, json.loads(SCHEMA.read_text()))


@pytest.fixture
def big(tmp_path):
    """A random 50x50 puzzle: CP-SAT's first search takes far longer than a millisecond."""
    from nonoqubo.generation.families import Member, make

    path = tmp_path / "big.non"
    clues.dump(make(Member(50, 50, 0.5, 0, 1)), path)
    return path


def test_a_time_limit_is_exit_3_and_one_line(big, run_cli):
    status, out, err = run_cli("solve", big, "--sampler", "cpsat", "--time-limit", "0.001")
    assert status == 3 and out == ""
    assert err.strip() == "nonoqubo: time limit: CP-SAT found no solution within the time limit (0.001 s)"


def test_a_time_limit_with_json_is_a_json_object(big, run_cli):
    status, out, _ = run_cli("solve", big, "--sampler", "cpsat", "--time-limit", "0.001", "--json")
    doc = json.loads(out)
    validate(doc)
    assert status == 3
    assert {k: doc[k] for k in ("kind", "outcome", "sampler", "time_limit", "exit_status")} == {
        "kind": "solve", "outcome": "time limit", "sampler": "cpsat", "time_limit": 0.001, "exit_status": 3}


def test_no_solution_with_json_is_a_json_object(tmp_path, run_cli):
    path = tmp_path / "none.non"
    clues.dump(Puzzle(rows=[[1, 1], [1], [1]], cols=[[1], [1, 1], [1]]), path)
    status, out, _ = run_cli("solve", path, "--sampler", "cpsat", "--json")
    doc = json.loads(out)
    validate(doc)
    assert status == 1 and doc["outcome"] == "no solution" and "no solution" in doc["message"]
    status, out, _ = run_cli("solve", path, "--sampler", "cpsat")
    assert status == 1 and len(out.strip().split("\n")) == 1


def test_at_least_n_says_the_cap_cut_the_count(tmp_path, run_cli):
    path = tmp_path / "two.non"
    clues.dump(Puzzle(rows=[[1], [1]], cols=[[1], [1]]), path)  # two solutions
    status, out, _ = run_cli("solve", path, "--sampler", "cpsat", "--count", "2")
    assert "solutions: at least 2 (not unique; the --count cap stopped the count)" in out
    status, out, _ = run_cli("solve", path, "--sampler", "cpsat", "--count", "2", "--json")
    assert json.loads(out)["solutions"]["cut"] == "limit"
    status, out, _ = run_cli("solve", path, "--sampler", "cpsat", "--count", "3", "--json")
    assert json.loads(out)["solutions"] == {"count": 2, "exact": True, "limit": 3, "cut": None}
