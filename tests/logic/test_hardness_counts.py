"""The hardness label's two named counts of a hard core's size (issue 43 item 2, issue 44 item 3).

``cells_open_after_cell_probing`` is checked against an independent one-cell prober written here
(every placement of a line enumerated as a NumPy table, no code of nonoqubo's line solver), and
``cells_open_after_variable_probing`` against brute force (it never settles a cell two solutions
disagree on) and against the cell count (probing the variables settles at least as much).
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from tests.support import shared_puzzle
from tests.support.brute import all_solutions, placements
from nonoqubo.campaign.suite import INDEX_HARDNESS
from nonoqubo.logic.hardness import hardness
from nonoqubo.logic.probe import probe_solve
from nonoqubo.model.puzzle import Puzzle


def _patterns(clue: tuple[int, ...], n: int) -> np.ndarray:
    """Every 0/1 line of length *n* whose runs of ones are *clue* (the test support's enumeration of
    placements, checked here by re-reading the runs of each line)."""
    lines = np.array([line for line, _ in placements(n, tuple(c for c in clue if c))], np.int8).reshape(-1, n)
    assert all(tuple(len(list(g)) for v, g in itertools.groupby(row) if v) == tuple(c for c in clue if c)
               for row in lines)
    return lines


def _propagate(known: np.ndarray, rows: list[np.ndarray], cols: list[np.ndarray]) -> np.ndarray | None:
    """Line logic by enumeration to a fixpoint on *known* (-1 open, 0, 1); None on a contradiction."""
    known = known.copy()
    changed = True
    while changed:
        changed = False
        for view, tables in ((known, rows), (known.T, cols)):
            for k, table in enumerate(tables):
                line = view[k]
                fits = table[((line < 0) | (table == line)).all(axis=1)]
                if fits.shape[0] == 0:
                    return None
                agreed = np.where((fits == fits[0]).all(axis=0), fits[0], -1)
                if (agreed != line).any():
                    view[k] = np.where(line >= 0, line, agreed)
                    changed = True
    return known


def reference_open_after_cell_probing(puzzle: Puzzle) -> int:
    """Cells open after one-cell probing, independently: every open cell set to 0 and to 1 with line
    logic; a contradicted branch fixes the other value, two survivors fix what they agree on; repeat."""
    rows = [_patterns(tuple(c), puzzle.width) for c in puzzle.rows]
    cols = [_patterns(tuple(c), puzzle.height) for c in puzzle.cols]
    known = _propagate(np.full((puzzle.height, puzzle.width), -1, np.int8), rows, cols)
    assert known is not None
    learnt = True
    while learnt:
        learnt = False
        for i, j in zip(*np.nonzero(known < 0)):
            if known[i, j] >= 0:
                continue
            branches = []
            for value in (0, 1):
                trial = known.copy()
                trial[i, j] = value
                branches.append(_propagate(trial, rows, cols))
            alive = [b for b in branches if b is not None]
            assert alive, "a solvable puzzle keeps a branch"
            agreed = alive[0] if len(alive) == 1 else np.where(alive[0] == alive[1], alive[0], -1)
            if (agreed != known).any():
                new = _propagate(np.where(known >= 0, known, agreed), rows, cols)
                assert new is not None
                known, learnt = new, True
    return int(np.count_nonzero(known < 0))


def _random_puzzles(size: int, count: int, seed: int) -> list[Puzzle]:
    rng = np.random.default_rng(seed)
    return [Puzzle.from_picture(rng.random((size, size)) < 0.5) for _ in range(count)]


@pytest.mark.parametrize("size,seed", [(5, 1), (6, 2), (7, 3)])
def test_cells_open_after_cell_probing_matches_an_independent_prober(size, seed):
    puzzles = _random_puzzles(size, 25, seed)
    got = [hardness(p).cells_open_after_cell_probing for p in puzzles]
    assert got == [reference_open_after_cell_probing(p) for p in puzzles]
    assert any(g > 0 for g in got) and any(g == 0 for g in got)  # both kinds were seen


def test_the_two_counts_differ_where_variable_probing_pays_and_are_sound():
    """webpbn 6574 "forever": one-cell probing leaves cells open, probing the variables solves it; on
    small puzzles neither count settles a cell two solutions disagree on."""
    forever = shared_puzzle("dejoue-webpbn-06574-forever")
    h = hardness(forever)
    cells_only = probe_solve(forever, variables=False)  # (the independent prober takes a minute at 25x25)
    assert h.cells_open_after_cell_probing == cells_only.cells - cells_only.settled == 440
    assert (h.cells_open_after_variable_probing, h.variables_after_probe, h.hardness) == (0, 0, "probe-solvable")
    for p in _random_puzzles(5, 20, 7):
        h = hardness(p)
        sols = all_solutions(p)
        disagree = int(np.count_nonzero((sols != sols[0]).any(axis=0)))
        assert h.cells_open_after_cell_probing >= h.cells_open_after_variable_probing >= disagree
        assert h.cells_open_after_variable_probing == p.width * p.height - h.settled_by_probe


def test_gecode_difficult_counts_and_the_cell_only_probe():
    hard = shared_puzzle("gecode-difficult")
    h = hardness(hard)
    assert (h.cells_open_after_cell_probing, h.cells_open_after_variable_probing) == (213, 213)
    assert h.cells_open_after_cell_probing == reference_open_after_cell_probing(hard)
    cells_only = probe_solve(hard, variables=False)
    assert cells_only.cell_settled == cells_only.settled == 12
    assert hardness(hard, probed=cells_only).cells_open_after_cell_probing == 213


def test_line_solvable_counts_are_zero_and_json_names_them():
    h = hardness(Puzzle.from_picture(["#.", "##"]))
    assert (h.hardness, h.cells_open_after_cell_probing, h.cells_open_after_variable_probing) == ("line-solvable", 0, 0)
    d = h.to_dict()
    assert {"cells_open_after_cell_probing", "cells_open_after_variable_probing"} <= set(d)
    assert {"cells_open_after_cell_probing", "cells_open_after_variable_probing"} <= set(INDEX_HARDNESS)
    json.dumps(d)


def test_info_truth_and_the_suite_index_carry_both_counts(run_cli, tmp_path):
    pytest.importorskip("ortools")
    from nonoqubo import clues

    clues.dump(shared_puzzle("gecode-difficult"), tmp_path / "hard.json")
    status, out, _ = run_cli("info", tmp_path / "hard.json", "--truth")
    assert status == 0 and "open cells:  213 of 225 after one-cell probing, 213 after probing the model's variables" \
        in out
    status, out, _ = run_cli("info", tmp_path / "hard.json", "--truth", "--json")
    found = json.loads(out)["truth"]
    assert (found["cells_open_after_cell_probing"], found["cells_open_after_variable_probing"]) == (213, 213)
    status, _, err = run_cli("suite", tmp_path / "hard.json", "--presolve", "probe", "-o", tmp_path / "s",
                             "-f", "qbsolv", "-j", "1", "-q")
    assert status == 0, err
    entry = json.loads((tmp_path / "s" / "index.json").read_text())["puzzles"][0]
    assert (entry["cells_open_after_cell_probing"], entry["cells_open_after_variable_probing"]) == (213, 213)
    header = (tmp_path / "s" / "index.csv").read_text().splitlines()[0].split(",")
    assert "cells_open_after_cell_probing" in header and "cells_open_after_variable_probing" in header
