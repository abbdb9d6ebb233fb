"""Puzzle validation: every fault gets its own clear message."""

from __future__ import annotations

import numpy as np
import pytest

from nonoqubo.errors import PuzzleError
from nonoqubo.model.puzzle import Puzzle, clue_of_line, grid_from_picture


def test_empty_line_spellings_are_equal():
    assert Puzzle(rows=[[0], [1]], cols=[[], [1]]) == Puzzle(rows=[[], [1]], cols=[[0], [1]])


@pytest.mark.parametrize(
    "rows,cols,message",
    [
        ([[1, 0]], [[1], []], "row 1, block 2: block length 0 is zero"),
        ([[-1]], [[1]], "row 1, block 1: block length -1 is negative"),
        ([[1.5]], [[1]], "row 1, block 1: block length 1.5 is not an integer"),
        ([["2"]], [[1], [1]], "row 1, block 1: block length '2' is not an integer"),
        ([[True]], [[1]], "is not an integer"),
        ([[2, 2]], [[1], [1], [1], [1]], "row 1: clue 2 2 needs 5 cells (blocks plus gaps) but the width is 4"),
        ([[1], [1]], [[3]], "column 1: clue 3 needs 3 cells (blocks plus gaps) but the height is 2"),
        ([[1]], [[1], [1]], "the row clues paint 1 cells but the column clues paint 2"),
        ([], [[1]], "the puzzle has no rows"),
        ([[1]], [], "the puzzle has no columns"),
        ("12", [[1]], "a clue must be a list"),
    ],
)
def test_validation_messages(rows, cols, message):
    with pytest.raises(PuzzleError) as info:
        Puzzle(rows=rows, cols=cols)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_from_picture_and_solution():
    p = Puzzle.from_picture(["#.#", "###", "..."])
    assert p.rows == ((1, 1), (3,), ())
    assert p.cols == ((2,), (1,), (2,))
    assert p.solution == ("#.#", "###", "...")
    assert p.is_solution(["#.#", "###", "..."])
    assert not p.is_solution(["##.", "###", "..."])
    assert Puzzle.from_picture(["10", "01"]) == Puzzle.from_picture(["X.", ".X"])
    assert Puzzle.from_picture(np.array([[1, 0], [0, 1]])).rows == ((1,), (1,))


def test_wrong_solution_is_refused():
    with pytest.raises(PuzzleError, match="does not match the clues: row 1"):
        Puzzle(rows=[[1], []], cols=[[1], []], solution=["..", "#."])
    with pytest.raises(PuzzleError, match="the solution is 3x1"):
        Puzzle(rows=[[1], []], cols=[[1], []], solution=["#.."])


@pytest.mark.parametrize(
    "picture,message",
    [
        (["#.", "#"], "picture row 2 has 1 cells, row 1 has 2"),
        (["#?"], "picture row 1, column 2: '?' is neither black"),
        ([], "the picture has no rows"),
        ([[0, 2]], "may hold only 0 and 1"),
    ],
)
def test_picture_errors(picture, message):
    with pytest.raises(PuzzleError, match=message.replace("?", r"\?")):
        grid_from_picture(picture)


def test_clue_of_line():
    assert clue_of_line([]) == ()
    assert clue_of_line([1, 1, 1]) == (3,)
    assert clue_of_line([0, 1, 0, 1, 1, 0]) == (1, 2)


# -- the bulk check of plain integer clues agrees with the clue-by-clue one ---------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_clue = st.lists(st.integers(min_value=-1, max_value=6), max_size=4)


def _outcome(rows, cols, **kw):
    try:
        p = Puzzle(rows=rows, cols=cols, **kw)
    except PuzzleError as exc:
        return str(exc)
    return (p.rows, p.cols, p.row_colours, p.col_colours)


@settings(max_examples=300, deadline=None)
@given(st.lists(_clue, min_size=0, max_size=5), st.lists(_clue, min_size=0, max_size=5))
def test_bulk_clue_check_equals_the_clue_by_clue_check(rows, cols):
    import numpy as np

    # NumPy integers take the careful, clue-by-clue path (the bulk check takes Python ints only)
    slow = ([[np.int64(v) for v in c] for c in rows], [[np.int64(v) for v in c] for c in cols])
    assert _outcome(rows, cols) == _outcome(*slow)


def test_bulk_clue_check_takes_given_colours_and_names_bad_ones():
    from nonoqubo.model.palette import Palette

    pal = Palette.of(["red", "blue"])
    p = Puzzle(rows=[[1, 1]], cols=[[1], [1]], palette=pal, row_colours=[[1, 2]], col_colours=[[1], [2]])
    assert p.row_colours == ((1, 2),) and p.col_colours == ((1,), (2,))
    assert p.rows == ((1, 1),) and p.cols == ((1,), (1,))
    with pytest.raises(PuzzleError, match=r"^row 1, block 2: colour number 3 is not 1\.\.2$"):
        Puzzle(rows=[[1, 1]], cols=[[1], [1]], palette=pal, row_colours=[[1, 3]], col_colours=[[1], [2]])


def test_a_block_longer_than_int64_is_refused_by_its_line():
    import pytest

    with pytest.raises(PuzzleError, match=r"^row 1: clue 1(0{30}) needs 1\1 cells"):
        Puzzle(rows=[[10**30]], cols=[[1]])
