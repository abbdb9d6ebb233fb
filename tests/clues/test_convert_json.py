"""`convert X out.json` writes JSON (the clue spec), and it reads back to the same puzzle."""

from __future__ import annotations

import json

import pytest

from tests.support import SHARED, shared_puzzle
from nonoqubo import clues


@pytest.mark.parametrize("name", ["qbpp-logo", "gecode-non-unique", "mikix-webpbn-1"])
def test_convert_to_a_json_file_writes_json(run_cli, tmp_path, name):
    out = tmp_path / "out.json"
    status, _, err = run_cli("convert", SHARED / "json" / f"{name}.json", out)
    assert status == 0, err
    doc = json.loads(out.read_text())  # JSON, not YAML
    puzzle = shared_puzzle(name)
    assert [tuple(r) for r in doc["rows"]] == list(puzzle.rows)
    assert [tuple(c) for c in doc["cols"]] == list(puzzle.cols)
    again = clues.load(out)
    assert (again.rows, again.cols, again.solution) == (puzzle.rows, puzzle.cols, puzzle.solution)


def test_to_json_on_standard_output_and_yaml_stays_yaml(run_cli, tmp_path):
    src = SHARED / "json" / "qbpp-logo.json"
    status, out, _ = run_cli("convert", src, "-", "--to", "json")
    assert status == 0 and json.loads(out)["name"] == "qbpp-logo"
    status, out, _ = run_cli("convert", src, "-", "--to", "yaml")
    assert status == 0 and out.startswith("name: ")
    yml = tmp_path / "logo.yaml"
    assert run_cli("convert", src, yml)[0] == 0 and not yml.read_text().lstrip().startswith("{")
