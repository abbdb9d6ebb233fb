"""Presolved models survive every export: reduced files load back and decode to the full picture."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support import shared_puzzle
from nonoqubo import exports
from nonoqubo.decoding import decode
from nonoqubo.logic.presolve import presolve_qubo

FORMATS = [m.NAME for m in exports.formats()]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_model_presolved_to_nothing_loads_and_decodes(fmt, tmp_path):
    """A line-solvable puzzle reduces to zero variables and zero terms; the file still works."""
    puzzle = shared_puzzle("sgt-pattern-10x10")
    reduced = presolve_qubo(puzzle)
    assert reduced.num_vars == 0 and reduced.num_terms == 0
    if exports.get_format(fmt).KIND == "constrained":
        from nonoqubo.model.constrained import build_constrained

        model = build_constrained(puzzle, fixed=dict(reduced.fixed))
    else:
        model = reduced
    path = tmp_path / f"model.{exports.get_format(fmt).EXTENSIONS[0]}"
    exports.dump(model, path, fmt)
    back = exports.load(path)
    assert dict(back.fixed) == dict(reduced.fixed)
    report = decode(path, [{}])[0]
    assert report.valid and report.energy == 0
    assert np.array_equal(report.grid, puzzle.solution_grid())


@pytest.mark.parametrize("fmt", [m.NAME for m in exports.formats("qubo")])
def test_a_partly_presolved_model_round_trips(fmt, tmp_path):
    puzzle = shared_puzzle("gecode-webpbn27")
    reduced = presolve_qubo(puzzle)
    assert 0 < reduced.num_vars < 2140
    path = tmp_path / f"model.{exports.get_format(fmt).EXTENSIONS[0]}"
    exports.dump(reduced, path, fmt)
    back = exports.load(path)
    assert back.same_model(reduced) and dict(back.fixed) == dict(reduced.fixed)
