"""``nonoqubo.inputs.open_input``: the one opening of what a command is given (issue 29, item 2)."""

from __future__ import annotations

import io
import json
import sys

import pytest

from nonoqubo import exports
from nonoqubo.errors import FormatError, PhysicalError
from nonoqubo.inputs import is_model_input, load_model, names_a_model, open_input
from nonoqubo.model.build import build
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.model.qubo import Qubo

NON = "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n"


@pytest.fixture
def model_and_clues(tmp_path):
    clues = tmp_path / "p.non"
    clues.write_text(NON)
    model = tmp_path / "m.qubo.json"
    exports.dump(build(Puzzle.from_picture(["#.", ".#"])), model)
    return model, clues


def test_the_guard_is_one_function():
    assert is_model_input("m.qubo") and is_model_input("m.coo")
    assert not is_model_input("-") and not is_model_input("m.qubo", "non") and not is_model_input("x.json")
    assert names_a_model("a.qubo.json") and not names_a_model("a.non")


def test_a_command_that_takes_clues_refuses_a_model_by_its_name(model_and_clues):
    model, clues = model_and_clues
    with pytest.raises(FormatError) as info:
        open_input(model, what="clues", command="build")
    assert str(info.value) == (f"{model}: a model file by its name, not a clue file: 'build' takes a puzzle; "
                               "'decode', 'info', 'convert', 'solve' and 'embed' read models")
    assert isinstance(open_input(clues, what="clues"), Puzzle)


def test_models_are_read_by_name_and_any_file_is_sniffed(model_and_clues, tmp_path):
    model, clues = model_and_clues
    assert isinstance(open_input(model, what="models"), Qubo)
    assert isinstance(open_input(clues, what="models"), Puzzle)
    sniffed = tmp_path / "model-without-a-model-name.json"
    sniffed.write_bytes(model.read_bytes())
    assert isinstance(open_input(sniffed, what="any"), Qubo)
    with pytest.raises(FormatError, match="the 'rows' key is missing"):  # not a model by its name: clues
        open_input(sniffed, what="models")
    assert load_model(clues).rows == open_input(clues).rows


def test_standard_input_and_text(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(NON.encode())))
    assert open_input("-", from_format="non").width == 2
    assert open_input("given.non", data=NON, from_format="non").height == 2


def test_a_physical_problem_is_refused_once_for_every_command(tmp_path):
    phys = tmp_path / "phys.json"
    phys.write_text(json.dumps({"h": {}, "J": [], "nonoqubo": {"kind": "physical"}}, indent=None)
                    .replace('"kind":"physical"', '"kind": "physical"'))
    for what in ("clues", "models", "any"):
        with pytest.raises(PhysicalError, match="a physical problem on qubits"):
            open_input(phys, what=what, command="solve")


def test_reader_options_and_missing_files(tmp_path, model_and_clues):
    _, clues = model_and_clues
    with pytest.raises(FormatError, match="--index applies only to formats that hold several puzzles"):
        open_input(clues, options={"index": 2})
    with pytest.raises(FileNotFoundError):
        open_input(tmp_path / "missing.qubo", what="any")
    with pytest.raises(ValueError, match="what must be one of"):
        open_input(clues, what="puzzle")
