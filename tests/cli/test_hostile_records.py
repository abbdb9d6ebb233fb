"""``decode`` and ``evaluate`` of a run file whose run record is hostile (issue 54 classes 6 to 9).

A 400-digit weight (class 6: ``OverflowError`` before), JSON nested 100,000 deep (class 7:
``RecursionError``), ``"presolve": 1`` (class 8: passed as ``true`` by evaluate, a line naming no
file from decode), a 10 MB value (class 9: echoed whole): each is one line naming the file, exit 2,
no traceback, the value quoted short.  Every test here fails on the code before the records package.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.record_schemas import a_run_file


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> tuple[Path, Path]:
    return a_run_file(tmp_path_factory.mktemp("record"))


def _with_record(solved, tmp_path: Path, change) -> Path:
    """A copy of the run file with its record changed by *change* (a function of the record dict)."""
    doc = json.loads(solved[1].read_text())
    change(doc["info"]["nonoqubo"])
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(doc))
    return path


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


