"""Term-for-term equality with the seed program, QUBO++ (pyqbpp), on small puzzles.

pyqbpp's unlicensed limit is 100 variables per process, counted cumulatively,
and past it the interpreter aborts; so every puzzle is built by
``tests/support/qbpp_reference.py`` in a process of its own, and only puzzles with at
most 100 variables are sent.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import tests.support as support

from tests.support import shared_puzzles
from nonoqubo.model.build import build
from nonoqubo.model.puzzle import Puzzle

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("pyqbpp") is None, reason="pyqbpp==2026.10.6 is not installed"
)

REFERENCE = Path(support.__file__).with_name("qbpp_reference.py")
LIMIT = 100


def qbpp_expansion(puzzle: Puzzle) -> dict:
    doc = {"rows": [list(c) for c in puzzle.rows], "cols": [list(c) for c in puzzle.cols]}
    proc = subprocess.run(
        [sys.executable, str(REFERENCE)], input=json.dumps(doc), capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    return json.loads(out[out.index("{"):])  # pyqbpp prints a banner first


def small_puzzles() -> list[tuple[str, Puzzle]]:
    out = [(name, p) for name, p, _ in shared_puzzles() if build(p).num_vars <= LIMIT]
    rng = np.random.default_rng(2026)
    shared = len(out)
    while len(out) < shared + 10:
        h, w = rng.integers(2, 8, size=2)
        grid = rng.random((h, w)) < rng.uniform(0.3, 0.7)
        if not grid.any():
            continue
        p = Puzzle.from_picture(grid)
        if 0 < build(p).num_vars <= LIMIT:
            out.append((f"random-{w}x{h}-{len(out)}", p))
    return out


@pytest.mark.parametrize("name,puzzle", small_puzzles(), ids=lambda v: v if isinstance(v, str) else "")
def test_same_terms_as_pyqbpp(name, puzzle):
    qubo = build(puzzle)
    ref = qbpp_expansion(puzzle)
    linear, quadratic = {}, {}
    for coeff, labels in ref["terms"]:
        assert len(labels) in (1, 2), f"degree {len(labels)} term from pyqbpp"
        if len(labels) == 1:
            linear[labels[0]] = coeff
        else:
            quadratic[frozenset(labels)] = coeff
    ours_linear = {qubo.labels[i]: int(v) for i, v in enumerate(qubo.linear) if v}
    ours_quadratic = {
        frozenset((qubo.labels[i], qubo.labels[j])): int(v) for i, j, v in zip(qubo.row, qubo.col, qubo.quad)
    }
    assert ref["constant"] == qubo.offset
    assert linear == ours_linear
    assert quadratic == ours_quadratic
