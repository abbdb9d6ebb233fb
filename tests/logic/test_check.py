"""Grid checker: known solutions pass; one flipped cell fails exactly its row and its column."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import ROOT, SHARED, shared_puzzles
from nonoqubo.logic.check import check, failing_lines, parse_grid, read_grid
from nonoqubo.model.encoding import Layout
from nonoqubo.errors import FormatError, PuzzleError
from nonoqubo.model.puzzle import Puzzle

LOGO_JSON = SHARED / "json" / "qbpp-logo.json"
SOLVED = [(name, p) for name, p, _ in shared_puzzles() if p.solution is not None]


@pytest.mark.parametrize(("name", "puzzle"), SOLVED, ids=[n for n, _ in SOLVED])
def test_known_solution_checks_valid_and_every_flip_is_caught(name, puzzle):
    grid = puzzle.solution_grid()
    assert check(puzzle, grid).valid
    h, w = grid.shape
    # single-cell flips, vectorised: (F, h, w) grids; every cell of a small
    # puzzle, a few random cells of a large one
    rng = np.random.default_rng(len(name))
    idx = np.arange(h * w) if h * w <= 2500 else rng.choice(h * w, size=max(10, 400_000 // (h * w)), replace=False)
    flips = np.repeat(grid[None], idx.size, axis=0)
    flips[np.arange(idx.size), idx // w, idx % w] ^= True
    bad = failing_lines(Layout.of(puzzle), flips)
    expected = np.zeros_like(bad)
    expected[np.arange(idx.size), idx // w] = True
    expected[np.arange(idx.size), h + idx % w] = True
    assert np.array_equal(bad, expected)
    # and the named report for a few of them
    for t in rng.choice(idx.size, size=min(3, idx.size), replace=False):
        i, j = divmod(int(idx[t]), w)
        result = check(puzzle, flips[t])
        assert not result.valid
        assert [f.line for f in result.failures] == [f"row {i + 1}", f"column {j + 1}"]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 7).flatmap(lambda h: st.integers(1, 7).flatmap(
    lambda w: st.lists(st.lists(st.booleans(), min_size=w, max_size=w), min_size=h, max_size=h))),
    st.integers(0, 2**32 - 1))
def test_vectorised_check_agrees_with_the_line_by_line_check(picture, seed):
    puzzle = Puzzle.from_picture(np.array(picture, dtype=bool))
    rng = np.random.default_rng(seed)
    grids = rng.random((6, puzzle.height, puzzle.width)) < 0.5
    bad = failing_lines(Layout.of(puzzle), grids)
    for g, row in zip(grids, bad):
        names = puzzle.mismatched_lines(g)
        assert [Layout.of(puzzle).line_name(t) for t in np.flatnonzero(row)] == names


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6).flatmap(lambda h: st.integers(1, 6).flatmap(
    lambda w: st.lists(st.lists(st.integers(0, 3), min_size=w, max_size=w), min_size=h, max_size=h))),
    st.integers(0, 2**32 - 1))
def test_vectorised_check_agrees_with_the_line_by_line_check_in_colour(picture, seed):
    from nonoqubo.model.palette import Palette

    puzzle = Puzzle.from_picture(np.array(picture, dtype=np.int8), palette=Palette.of(["red", "green", "blue"]))
    rng = np.random.default_rng(seed)
    grids = rng.integers(0, 4, size=(6, puzzle.height, puzzle.width), dtype=np.int8)
    grids[0] = np.array(picture)  # the solution itself: no line fails
    bad = failing_lines(Layout.of(puzzle), grids)
    assert not bad[0].any()
    for g, row in zip(grids, bad):
        names = puzzle.mismatched_lines(g)
        assert [Layout.of(puzzle).line_name(t) for t in np.flatnonzero(row)] == names


def test_failure_details(logo):
    grid = logo.solution_grid().copy()
    grid[0, 0] = True
    result = check(logo, grid)
    assert [str(f) for f in result.failures] == [
        "row 1: clue 7, picture has 1 7",
        "column 1: clue 5, picture has 1 5",
    ]
    assert result.to_dict()["failing_lines"][0] == {"line": "row 1", "clue": [7], "got": [1, 7]}


def test_read_grid_forms():
    expected = [[1, 0, 1], [0, 1, 0]]
    for text in ("#.#\n.#.\n", "1 0 1\n0 1 0\n", "X-X\n-X-", "// comment\n#.#\n\n.#.",
                 '["#.#", ".#."]', "[[1, 0, 1], [0, 1, 0]]", '{"grid": ["#.#", ".#."]}',
                 '{"solution": [[true, false, true], [false, true, false]]}'):
        assert parse_grid(text).astype(int).tolist() == expected, text


def test_read_grid_takes_a_path_and_parse_grid_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "#.").write_text("..\n")  # a file named like a grid's text
    assert read_grid("#.").astype(int).tolist() == [[0, 0]]
    assert parse_grid("#.").astype(int).tolist() == [[1, 0]]
    with pytest.raises(FileNotFoundError):
        read_grid(tmp_path / "missing.txt")
    (tmp_path / "g.txt").write_text("#?\n")
    with pytest.raises(FormatError, match=r"^g\.txt:1: "):
        read_grid("g.txt")


@pytest.mark.parametrize(("text", "message"), [
    ("#.#\n.#\n", "g.txt:2: picture row 2 has 2 cells, row 1 has 3"),
    ("#.#\n.?.\n", "g.txt:2: picture row 2, column 2: '?'"),
    ("", "g.txt: no grid rows"),
    ('{"cells": 1}', "needs a 'grid'"),
    ("[[1, 2]]", "may hold only 0 and 1"),
])
def test_read_grid_errors(text, message):
    with pytest.raises(FormatError) as info:
        parse_grid(text, source="g.txt")
    assert message in str(info.value)


def test_check_size_mismatch(logo):
    with pytest.raises(PuzzleError, match="the grid is 2x1 but the puzzle is 15x15"):
        check(logo, ["#."])


def test_cli_check(run_cli, tmp_path, logo):
    good = tmp_path / "good.txt"
    good.write_text("\n".join(logo.solution) + "\n")
    status, out, _ = run_cli("check", LOGO_JSON, good)
    assert status == 0 and out.startswith("VALID") and "\n".join(logo.solution) in out
    rows = list(logo.solution)
    rows[4] = ("." if rows[4][2] == "#" else "#").join((rows[4][:2], rows[4][3:]))
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(rows))
    image = tmp_path / "check.svg"
    status, out, _ = run_cli("check", LOGO_JSON, bad, "--image", image)
    assert status == 1
    assert "INVALID: 2 lines" in out and "row 5:" in out and "column 3:" in out
    assert image.read_text().startswith("<svg")
    status, out, _ = run_cli("check", LOGO_JSON, bad, "--json")
    doc = json.loads(out)
    assert doc["kind"] == "check" and not doc["valid"]
    assert [f["line"] for f in doc["failing_lines"]] == ["row 5", "column 3"]
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "nonoqubo" / "schemas" / "report.schema.json").read_text())
    jsonschema.validate(doc, schema)
    status, out, err = run_cli("check", LOGO_JSON, "-", stdin="#.\n")
    assert status == 2 and "the grid is 2x1 but the puzzle is 15x15" in err
