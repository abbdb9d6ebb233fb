"""evaluate reads sample files as decode does: through the samples registry, its format's text rule, the puzzle."""

from __future__ import annotations

import json
import shutil

import dimod
import numpy as np
import pytest

from nonoqubo import exports
from nonoqubo.campaign import evaluate as evaluate_module
from nonoqubo.campaign.evaluate import evaluate
from nonoqubo.clues import load
from nonoqubo.errors import NonoquboError
from nonoqubo.model.build import build
from nonoqubo.model.encoding import Layout
from nonoqubo.samples import get_format
from nonoqubo.solvers.base import index_bqm
from tests.support import DATA, SHARED

LOGO = SHARED / "json" / "qbpp-logo.json"


@pytest.fixture()
def logo_model(tmp_path):
    evaluate_module._DECODERS.clear()  # a fresh decoder per test: each one writes its own model file
    puzzle = load(LOGO)
    qubo = build(puzzle)
    path = tmp_path / "logo.qubo.json"
    exports.dump(qubo, path)
    return puzzle, qubo, path


def _sampleset_bytes(puzzle, qubo, note: bytes) -> bytes:
    x = Layout.of(puzzle).encode(puzzle.solution_grid())
    bits = np.stack([x, 1 - x])
    ss = dimod.SampleSet.from_samples((bits, qubo.labels), dimod.BINARY, energy=qubo.energy(bits).astype(float))
    text = json.dumps(ss.to_serializable()).encode()
    return text[:-1] + b', "note": "' + note + b'"}'


def test_a_latin1_file_is_read_by_its_format_rule(logo_model, tmp_path, monkeypatch):
    puzzle, qubo, model = logo_model
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "logo.json").write_bytes(_sampleset_bytes(puzzle, qubo, b"mod\xe8le"))  # Latin-1, not UTF-8
    [group] = evaluate(str(model), [str(runs)], seconds=1.0, jobs=1)
    assert (group.raw.samples, group.raw.valid) == (2, 1)
    # the format's LEGACY_ENCODING decides (the registry's one bytes-to-text step), not evaluate
    monkeypatch.setattr(get_format("sampleset"), "LEGACY_ENCODING", None)
    evaluate_module._DECODERS.clear()
    with pytest.raises(NonoquboError, match=r"logo\.json: not UTF-8 text \(byte 0xe8 at offset \d+\)"):
        evaluate(str(model), [str(runs)], seconds=1.0, jobs=1)


def test_a_picture_answer_is_judged_against_the_puzzle(tmp_path):
    evaluate_module._DECODERS.clear()
    runs = tmp_path / "cp"
    runs.mkdir()
    shutil.copy(DATA / "answers" / "logo.minizinc.txt", runs / "logo.txt")  # MiniZinc's picture, not bits
    [group] = evaluate(str(LOGO), [str(runs)], seconds=1.0, jobs=1)
    assert (group.raw.samples, group.raw.valid) == (1, 1)


def test_polish_descends_on_the_models_own_bqm(logo_model, monkeypatch):
    pytest.importorskip("dwave.samplers")
    _, qubo, model = logo_model
    from dwave.samplers import SteepestDescentSolver

    seen = []

    original = SteepestDescentSolver.sample

    def spy(self, bqm, **kwargs):
        seen.append(bqm)
        return original(self, bqm, **kwargs)

    monkeypatch.setattr(SteepestDescentSolver, "sample", spy)
    evaluate_module._POLISHERS.pop(str(model), None)
    polish = evaluate_module.polisher(str(model))
    bits = np.zeros((1, qubo.num_vars), np.int8)
    out = polish(bits)
    assert seen and seen[0] == index_bqm(qubo)
    assert qubo.energy(out)[0] <= qubo.energy(bits)[0]
