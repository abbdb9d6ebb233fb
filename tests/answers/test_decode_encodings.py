"""Decoding one-hot and weighted models (issue 22): every family's weighted penalty, adding up to the energy.

The energy a report accounts for is checked against ``Qubo.energy`` of the built model (not the
decoder's own sum), and the listed items against the independent families of
``tests/model/references.py``: the one-position terms count ``(1 - chosen)^2`` per block, the
order pairs of one-hot ``x[k][s] x[k+1][s']`` with ``s' < s``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from nonoqubo import exports
from nonoqubo.answers.decode import Decoder, PositionCount
from nonoqubo.decoding import decoder_of
from nonoqubo.model.build import build
from nonoqubo.model.encodings import geometry_of, names
from nonoqubo.model.palette import Palette
from nonoqubo.model.puzzle import Puzzle
from tests.model.references import FAMILIES
from tests.support import ROOT, shared_puzzle

PUZZLES = ["qbpp-logo", "gecode-heart", "sgt-pattern-10x10"]
WEIGHTS = [None, "shape=2,order=3,cell=5"]


def colour_puzzle() -> Puzzle:
    grid = np.random.default_rng(3).integers(0, 3, size=(6, 7))
    return Puzzle.from_picture(grid, palette=Palette.of(["red", "green"]))


def samples(q, puzzle, encoding, rng) -> np.ndarray:
    """Random samples and samples near the solution (a few flipped bits)."""
    sol = geometry_of(puzzle, encoding=encoding).encode(puzzle.solution_grid())
    near = np.tile(sol, (40, 1))
    near[rng.random(near.shape) < 0.02] ^= 1
    return np.vstack([rng.integers(0, 2, (40, q.num_vars)), near, sol[None, :]]).astype(np.int8)


@pytest.mark.parametrize("weights", WEIGHTS, ids=["weights-1", "weighted"])
@pytest.mark.parametrize("encoding", names())
@pytest.mark.parametrize("name", [*PUZZLES, "colour"])
def test_family_penalties_add_up_to_the_energy(name, encoding, weights):
    puzzle = colour_puzzle() if name == "colour" else shared_puzzle(name)
    q = build(puzzle, encoding=encoding, weights=weights)
    x = samples(q, puzzle, encoding, np.random.default_rng(len(name)))
    decoder = Decoder(q)
    analysis = decoder.analyse(x)
    energy = q.energy(x)
    np.testing.assert_array_equal(analysis.energy, energy)
    a_w, b_w, c_w = q.weights
    labels, families = FAMILIES[encoding](puzzle)
    for i, report in enumerate(decoder.reports(analysis, range(len(x)))):
        pen = report.penalties
        assert pen["wall_shape"] + pen["block_order"] + pen["cells"] == report.energy == energy[i]
        assert report.valid == (energy[i] == 0)
        # each family's share is its weight times that family's energy, independently computed
        point = dict(zip(labels, x[i].tolist()))
        assert pen["wall_shape"] == a_w * families["shape"].energy(point)
        assert pen["block_order"] == b_w * families["order"].energy(point)
        assert pen["cells"] == c_w * families["cell"].energy(point)
        if encoding == "one-hot":
            for item in report.broken_walls:
                assert isinstance(item, PositionCount) and item.penalty == a_w * (1 - item.chosen) ** 2
    assert analysis.valid[-1]


def test_one_hot_report_text_and_json(run_cli, tmp_path):
    logo = ROOT / "tests" / "data" / "puzzles" / "json" / "qbpp-logo.json"
    model = tmp_path / "logo.qubo.json"
    status, _, err = run_cli("build", logo, "--encoding", "one-hot", "--weights", "shape=2,cell=3", "-o", model, "-q")
    assert status == 0, err
    q = exports.load(model)
    assert q.encoding == "one-hot" and tuple(q.weights) == (2, 1, 3)
    sol = geometry_of(q.puzzle, encoding="one-hot").encode(shared_puzzle("qbpp-logo").solution_grid())
    bad = sol.copy()
    bad[[0, 1, 40]] ^= 1  # block 1 of row 1 takes two shifts; another block none or two
    (tmp_path / "s.txt").write_text("".join(map(str, sol)) + "\n" + "".join(map(str, bad)) + "\n")
    status, out, err = run_cli("decode", model, tmp_path / "s.txt", "--all")
    assert status == 0, err
    assert "VALID, energy 0" in out and "(one position)" in out and "not exactly one" in out
    status, out, _ = run_cli("decode", model, tmp_path / "s.txt", "--all", "--json")
    doc = json.loads(out)
    assert doc["encoding"] == "one-hot" and doc["weights"] == {"shape": 2, "order": 1, "cell": 3}
    second = doc["samples"][1]
    assert second["energy"] == int(q.energy(bad)[0]) == sum(second["penalties"].values())
    assert all("chosen" in w and w["penalty"] == 2 * (1 - w["chosen"]) ** 2 for w in second["broken_walls"])
    schema = json.loads((ROOT / "schemas" / "report.schema.json").read_text())
    import jsonschema

    jsonschema.validate(doc, schema)
    status, out, _ = run_cli("info", model)
    assert status == 0 and "encoding:    one-hot, weights shape=2,order=1,cell=3" in out


@pytest.mark.parametrize("answer", ["logo.minizinc.txt", "logo.minizinc.json"])
@pytest.mark.parametrize("presolve", [False, True])
def test_picture_answers_decode_against_a_one_hot_model(tmp_path, answer, presolve):
    """MiniZinc answers are pictures: they are written in the model's own encoding's variables."""
    from nonoqubo.logic.presolve import presolve_qubo

    puzzle = shared_puzzle("qbpp-logo")
    q = build(puzzle, encoding="one-hot")
    if presolve:
        q = presolve_qubo(puzzle, q)
    path = tmp_path / "logo.mzn"
    exports.dump(q, path)
    decoder = decoder_of(path)
    assert decoder.encoding == "one-hot"
    batch = decoder.batch(ROOT / "tests" / "data" / "answers" / answer)
    analysis = decoder.analyse(batch.bits)
    assert analysis.valid.all()
    want = geometry_of(puzzle, encoding="one-hot").encode(puzzle.solution_grid())
    assert np.array_equal(decoder.complete(batch.bits)[0], want)
