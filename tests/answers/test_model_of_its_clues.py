"""Issue 33, classes 8 and 9: a model file whose metadata or terms contradict its own clues.

Class 9 is a wrong answer accepted silently: an edited offset was shown by ``info`` but ignored by
``decode`` and ``solve``, which reported VALID, energy 0, where the file's own energy is 1.  The
decoder now checks once that the model is the QUBO of its clues (its energy at all zeros and all
ones) and refuses, by name, one that is not (:func:`test_an_edited_offset_is_never_decoded_as_valid`).
"""

from __future__ import annotations

import json

import pytest

from nonoqubo.answers.decode import Decoder
from nonoqubo.clues import load as load_clues
from nonoqubo.errors import FormatError, SampleError
from nonoqubo.model.build import build
from nonoqubo.model.qubo import Qubo
from nonoqubo.pipeline import Models
from tests.support import SHARED

PATTERN = SHARED / "json" / "sgt-pattern-5x5.json"


@pytest.fixture
def model(tmp_path, run_cli):
    """The 5x5 puzzle's QUBO JSON file, and a solution of it (a SampleSet file)."""
    path = tmp_path / "m.qubo.json"
    assert run_cli("build", PATTERN, "-o", path)[0] == 0
    answer = tmp_path / "answer.json"
    assert run_cli("solve", path, "--sampler", "cpsat", "-o", answer)[0] == 0
    return path, answer


def _edited(path, **changes):
    doc = json.loads(path.read_text())
    doc.update(changes)
    out = path.with_name("edited.qubo.json")
    out.write_text(json.dumps(doc))
    return out, doc


def test_an_edited_offset_is_never_decoded_as_valid(model, run_cli):
    """Class 9: the worst outcome, a verdict the file's own energy contradicts; refused by name instead."""
    path, answer = model
    status, out, _ = run_cli("decode", path, answer)
    assert status == 0 and "1 valid, best energy 0" in out  # the model as built
    edited, doc = _edited(path, offset=json.loads(path.read_text())["offset"] + 1)
    for argv in (["decode", edited, answer], ["solve", edited, "--sampler", "sa", "--reads", "2", "--seed", "1"],
                 ["solve", edited, "--sampler", "cpsat", "--presolve"]):
        status, out, err = run_cli(*argv)
        assert status == 2 and "VALID" not in out and "valid" not in out, (argv, out)
        line = err.strip()
        assert "\n" not in line and str(edited) in line and f"its offset {doc['offset']}" in line, line


def test_an_edited_term_is_refused_too(model, run_cli):
    path, answer = model
    doc = json.loads(path.read_text())
    linear = list(doc["linear"])
    linear[0] += 1
    edited, _ = _edited(path, linear=linear)
    status, out, err = run_cli("decode", edited, answer)
    assert status == 2 and "its terms are not those of its clues" in err and str(edited) in err


def test_every_model_the_builder_makes_is_its_clues_qubo():
    """The check holds for what nonoqubo writes: both encodings, weights, presolved models."""
    puzzle = load_clues(SHARED / "json" / "olsak-veze.json")
    for encoding in ("domain-wall", "one-hot"):
        models = Models.build(puzzle, encoding=encoding, weights="shape=2,order=3,cell=5")
        Decoder(models.qubo)
        Decoder(models.presolve())


def test_the_library_refuses_a_model_with_another_offset():
    q = build(load_clues(PATTERN))
    other = Qubo(q.labels, q.linear, q.row, q.col, q.quad, q.offset + 3, puzzle=q.puzzle, weights=q.weights)
    with pytest.raises(SampleError, match="not the QUBO of its clues"):
        Decoder(other)


@pytest.mark.parametrize("changes, words", [
    ({"offset": "x"}, "'offset' must be a number"),
    ({"offset": [1]}, "'offset' must be a number"),
    ({"labels": ["a"] * 23}, "the label 'a' names variables 0 and 1"),
])
def test_wrong_types_and_equal_labels_are_one_line_in_every_command(model, run_cli, changes, words):
    """Class 8: numpy's TypeError in info, decode and solve; dimod's 'cannot map two items to the same label'."""
    path, answer = model
    edited, _ = _edited(path, **changes)
    for argv in (["info", edited], ["decode", edited, answer], ["solve", edited, "--sampler", "sa", "--reads", "1"]):
        status, out, err = run_cli(*argv)
        assert status == 2 and out == "" and len(err.strip().splitlines()) == 1, (argv, err)
        assert str(edited) in err and words in err, (argv, err)


def test_equal_labels_in_another_format(tmp_path, run_cli):
    path = tmp_path / "m.bqm.json"
    assert run_cli("build", PATTERN, "-o", path, "-f", "bqm-json")[0] == 0
    doc = json.loads(path.read_text())
    doc["variable_labels"] = ["y0[0][0]"] * len(doc["variable_labels"])
    path.write_text(json.dumps(doc))
    status, _, err = run_cli("info", path)
    assert status == 2 and str(path) in err and "the label 'y0[0][0]' names variables 0 and 1" in err, err
    with pytest.raises(FormatError):
        from nonoqubo.inputs import load_model

        load_model(str(path))
