"""The run record (``nonoqubo.records.run``): its format, version and field types, and issue 54's classes
6 to 9 on it from outside (``decode`` and ``evaluate`` of a run file whose record is hostile).

Each hostile record is refused in one line naming the file, exit 2, no traceback, its value quoted
short; on the code before the records package each gave a traceback, passed, or echoed the value.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nonoqubo.clues import spec
from nonoqubo.errors import RecordError
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.records import RUN_RECORD_VERSION, RunRecord
from nonoqubo.records._fields import MAX_QUOTED, quoted
from nonoqubo.solvers.request import SolveRequest
from tests.support.record_schemas import validator

PICTURE = ["#..#", ".##.", "#..#"]


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> tuple[Path, Path]:
    """A clue file and the run file ``solve -o`` wrote of it."""
    from tests.support import run_cli

    root = tmp_path_factory.mktemp("record")
    clues = root / "p.yaml"
    clues.write_text(spec.dumps(Puzzle.from_picture(PICTURE)))
    out = root / "run.json"
    status, _, err = run_cli("solve", clues, "--reads", 3, "--sweeps", 5, "--seed", 1, "-q", "-o", out)
    assert status in (0, 1), err
    return clues, out


def _with_record(solved, tmp_path: Path, change) -> Path:
    """A copy of the run file with its record changed by *change* (a function of the record dict)."""
    doc = json.loads(solved[1].read_text())
    change(doc["info"]["nonoqubo"])
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(doc))
    return path


def test_a_written_record_round_trips_and_its_schema_holds_it(solved):
    doc = json.loads(solved[1].read_text())["info"]["nonoqubo"]
    assert doc["version"] == RUN_RECORD_VERSION and len(doc["model"]["digest"]) == 64
    record = RunRecord.from_dict(doc, "run.json")
    assert record.to_dict() == doc
    validator("run-record").validate(doc)


def test_identity_is_compared_whole(solved):
    record = RunRecord.from_dict(json.loads(solved[1].read_text())["info"]["nonoqubo"], "run.json")
    request = SolveRequest.of("sa", reads=3, sweeps=5, seed=1)
    model = record.model
    assert model is not None and model.digest is not None
    assert request.matches(record, model.digest, model.encoding, model.weights)
    for other in (SolveRequest.of("sa", reads=3, sweeps=5, seed=2), SolveRequest.of("sa", reads=3, sweeps=6, seed=1),
                  SolveRequest.of("sa", reads=3, sweeps=5, seed=1, presolve=True)):
        assert not other.matches(record, model.digest, model.encoding, model.weights)
    assert not request.matches(record, "0" * 64, model.encoding, model.weights)


@pytest.mark.parametrize("change, words", [
    (lambda r: r.update(version=9), "version 9 is not one this nonoqubo reads"),
    (lambda r: r["parameters"].update(presolve=1), "parameters: presolve: true, false, line or probe, not 1"),  # class 8
    (lambda r: r["parameters"].update(seed="1"), "parameters: seed: a whole number, not '1'"),
    (lambda r: r["model"]["weights"].update(cell=int("9" * 400)), "a number of 400 digits is too large"),  # class 6
    (lambda r: r.update(sampler=5), "sampler: text, not 5"),
])
@pytest.mark.parametrize("command", ["decode", "evaluate"])
def test_a_hostile_record_is_refused_in_one_line_naming_the_file(solved, tmp_path, run_cli, change, words, command):
    path = _with_record(solved, tmp_path, change)
    args = ("decode", solved[0], path) if command == "decode" else ("evaluate", solved[0], path, "-j", 1)
    status, out, err = run_cli(*args)
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert str(path) in err and words in err


def test_a_400_digit_weight_in_memory_is_refused_too():
    with pytest.raises(RecordError, match="weights: cell: a whole number from 1"):
        RunRecord.from_dict({"version": 2, "sampler": "sa", "model": {"encoding": "domain-wall",
                                                                       "weights": {"cell": 10 ** 400}}}, "x.json")


@pytest.mark.parametrize("where", ['"machine": {', '"info": {'])
@pytest.mark.parametrize("command", ["decode", "evaluate"])
def test_a_record_nested_100000_deep_is_refused(solved, tmp_path, run_cli, command, where):  # class 7
    text = solved[1].read_text().replace(where, where + '"deep": ' + "[" * 100_000 + "]" * 100_000 + ', ', 1)
    path = tmp_path / "deep.json"
    path.write_text(text)
    args = ("decode", solved[0], path) if command == "decode" else ("evaluate", solved[0], path, "-j", 1)
    status, _, err = run_cli(*args)
    assert status == 2 and "nesting deeper than" in err and "Traceback" not in err and err.count("\n") == 1


@pytest.mark.parametrize("change", [lambda r: r["parameters"].update(presolve="x" * 10_000_000),
                                    lambda r: r["model"].update(encoding="x" * 10_000_000)])
@pytest.mark.parametrize("command", ["decode", "evaluate"])
def test_a_10_mb_value_is_quoted_short(solved, tmp_path, run_cli, command, change):  # class 9
    path = _with_record(solved, tmp_path, change)
    args = ("decode", solved[0], path) if command == "decode" else ("evaluate", solved[0], path, "-j", 1)
    status, _, err = run_cli(*args)
    assert status == 2 and len(err) < 1000 and "10,000,002 characters" in err and str(path) in err


def test_quoted_cuts_every_kind_of_value():
    assert quoted("x") == "'x'" and quoted(None) == "None"
    for value in ("x" * 10**6, [1] * 10**5, {"k": "v" * 10**5}, 10 ** 4000):
        assert len(quoted(value)) < MAX_QUOTED + 40


def test_a_version_1_record_is_read():
    old = {"version": "0.1.0", "sampler": "sa", "parameters": {"seed": 1, "presolve": False},
           "model": {"encoding": "domain-wall", "weights": {"shape": 1, "order": 1, "cell": 1}}}
    record = RunRecord.from_dict(old, "old.json")
    assert record.version == 1 and record.nonoqubo == "0.1.0" and record.identity().digest is None


@pytest.mark.parametrize("change", [
    lambda r: r.update(version=9), lambda r: r["parameters"].update(presolve=1), lambda r: r.pop("sampler"),
    lambda r: r["model"]["weights"].update(cell=0), lambda r: r["model"].update(digest="not a digest"),
    lambda r: r["parameters"].update(seed=-1),
])
def test_the_schema_refuses_a_broken_record_and_so_does_from_dict(solved, change):
    record = json.loads(solved[1].read_text())["info"]["nonoqubo"]
    change(record)
    assert not validator("run-record").is_valid(record)
    with pytest.raises(RecordError):
        RunRecord.from_dict(record, "run.json")
