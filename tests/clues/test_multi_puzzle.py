"""Multi-puzzle files are read in one pass: every format's ``puzzles``, ``clues.read_all``, and suite on them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from nonoqubo import clues
from nonoqubo.campaign import suite
from nonoqubo.clues import gecode, nin, sgt, taai, webpbn
from nonoqubo.errors import FormatError
from nonoqubo.model.puzzle import Puzzle


def random_puzzles(count: int, size: int = 5, seed: int = 0) -> list[Puzzle]:
    rng = np.random.default_rng(seed)
    return [Puzzle.from_picture(["".join("#" if v else "." for v in row) for row in rng.random((size, size)) < 0.5])
            for _ in range(count)]


def tournament_text(puzzles: list[Puzzle]) -> str:
    return "".join(taai.dumps(p).replace("$1", f"${k}", 1) for k, p in enumerate(puzzles, start=1))


def webpbn_text(puzzles: list[Puzzle]) -> str:
    bodies = [webpbn.dumps(p).split("<puzzleset>", 1)[1].rsplit("</puzzleset>", 1)[0] for p in puzzles]
    return "<puzzleset>" + "".join(bodies) + "</puzzleset>\n"


def gecode_text(puzzles: list[Puzzle]) -> str:
    decls = [f"const int p{k}[] = {{{', '.join(map(str, gecode.to_array(p)))}}};" for k, p in enumerate(puzzles)]
    return "\n".join(decls) + "\nconst int *specs[] = {" + ", ".join(f"p{k}" for k in range(len(puzzles))) + "};\n"


FORMATS = {  # a writer of many puzzles in each multi-puzzle format, the file ending, the first index
    "taai": (tournament_text, "taai", 1),
    "xml": (webpbn_text, "xml", 1),
    "sgt": (lambda ps: "".join(sgt.dumps(p) for p in ps), "sgt", 1),
    "gecode": (gecode_text, "cpp", 0),
    "nin": (lambda ps: "\n".join(nin.dumps(p) for p in ps), "nin", 1),  # one after another, blank lines between
}


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_every_multi_puzzle_format_yields_what_load_reads_by_index(tmp_path, name):
    write, ext, first = FORMATS[name]
    puzzles = random_puzzles(4, seed=len(name))
    path = tmp_path / f"many.{ext}"
    path.write_text(write(puzzles))
    found = clues.read_all(path)
    assert [r.index for r in found] == list(range(first, first + 4))
    for read, puzzle in zip(found, puzzles):
        assert read.error is None
        assert (read.puzzle.rows, read.puzzle.cols) == (puzzle.rows, puzzle.cols)
        one = clues.load(path, index=read.index)
        assert (one.rows, one.cols) == (puzzle.rows, puzzle.cols)
    assert clues.members(path) == [(r.index, r.name) for r in found]


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_the_protocol_function_is_declared_by_each_multi_puzzle_format(name):
    mod = clues.get_format(name)
    assert callable(getattr(mod, "puzzles", None)) and "puzzles" in mod.__all__


def test_a_broken_puzzle_is_its_own_located_error_and_the_others_are_read(tmp_path):
    puzzles = random_puzzles(3)
    text = tournament_text(puzzles).split("\n")
    text[1 + 11 + 2] = "1 x"  # puzzle $2 (its header on line 12): its third column clue
    path = tmp_path / "q.taai"
    path.write_text("\n".join(text))
    found = clues.read_all(path)
    assert [r.error is None for r in found] == [True, False, True]
    assert str(found[1].error) == f"{path}:15: puzzle $2, column 3: 'x' is not a number"


def test_a_question_file_cut_short_keeps_every_whole_puzzle(tmp_path):
    lines = tournament_text(random_puzzles(3)).split("\n")
    path = tmp_path / "q.taai"
    path.write_text("\n".join(lines[:-5]) + "\n")  # the last puzzle loses its last rows
    found = clues.read_all(path)
    assert [r.puzzle is not None for r in found] == [True, True, False]
    assert str(found[2].error).startswith(f"{path}:23: puzzle $3 is cut short: 6 clue lines, expected 10")


def test_a_file_of_one_puzzle_is_one_read_with_no_index(tmp_path):
    path = tmp_path / "one.taai"
    path.write_text(taai.dumps(random_puzzles(1)[0]))
    assert [(r.index, r.error) for r in clues.read_all(path)] == [(None, None)]
    non = tmp_path / "one.non"  # a format with no puzzles(): its loads, once
    clues.dump(random_puzzles(1)[0], non)
    assert [r.index for r in clues.read_all(non)] == [None]


def test_headers_out_of_order_break_the_file_as_a_whole(tmp_path):
    path = tmp_path / "q.taai"
    path.write_text(tournament_text(random_puzzles(2)).replace("$2", "$3"))
    with pytest.raises(FormatError, match=r"q.taai:12: expected the header '\$2', found '\$3'"):
        clues.read_all(path)


def test_suite_reads_a_multi_puzzle_file_once(tmp_path, monkeypatch):
    path = tmp_path / "q.taai"
    path.write_text(tournament_text(random_puzzles(6)))
    calls = []
    real = taai.puzzles
    monkeypatch.setattr(taai, "puzzles", lambda *a, **k: calls.append(1) or real(*a, **k))
    monkeypatch.setattr(taai, "loads", lambda *a, **k: pytest.fail("a puzzle was read again by its index"))
    result = suite.run_suite([str(path)], tmp_path / "out", jobs=1)
    assert result.built == 6 and result.failed == 0 and len(calls) == 1
    assert [e["name"] for e in result.entries] == [f"q-{k}" for k in range(1, 7)]


def test_suite_records_a_broken_puzzle_and_builds_the_others(tmp_path):
    lines = tournament_text(random_puzzles(3)).split("\n")
    lines[1 + 11 + 2] = "1 x"
    path = tmp_path / "q.taai"
    path.write_text("\n".join(lines))
    result = suite.run_suite([str(path)], tmp_path / "out", jobs=1)
    assert [e["status"] for e in result.entries] == ["ok", "error", "ok"]
    assert result.entries[1]["error"] == f"{path}:15: puzzle $2, column 3: 'x' is not a number"


# -- .nin: puzzles one after another in one stream, as Wilk's solver reads one from its input ------------
NIN_ORIGINALS = Path(__file__).resolve().parents[1] / "data" / "puzzles" / "originals" / "nin"


def nin_text(puzzles: list[Puzzle]) -> str:
    return "".join(nin.dumps(p) for p in puzzles)  # no separator: the header's W+H tells where each ends


def test_nin_puzzles_of_different_sizes_follow_each_other_without_a_separator(tmp_path):
    puzzles = [*random_puzzles(2, size=4, seed=1), *random_puzzles(2, size=6, seed=2)]
    path = tmp_path / "many.nin"
    path.write_text(nin_text(puzzles))
    found = clues.read_all(path)
    assert [(r.index, r.error) for r in found] == [(1, None), (2, None), (3, None), (4, None)]
    assert [(r.puzzle.rows, r.puzzle.cols) for r in found] == [(p.rows, p.cols) for p in puzzles]
    assert (clues.load(path).rows, clues.load(path, index=4).cols) == (puzzles[0].rows, puzzles[3].cols)
    with pytest.raises(FormatError, match=r"many.nin: the file holds 4 puzzles; --index 5 is out of range 1..4"):
        clues.load(path, index=5)


def test_nin_a_bad_clue_is_that_puzzles_error_and_the_next_is_read(tmp_path):
    puzzles = random_puzzles(3)
    lines = nin_text(puzzles).split("\n")
    lines[11 + 3] = "1 x"  # puzzle 2 (its header on line 12): its third row
    path = tmp_path / "q.nin"
    path.write_text("\n".join(lines))
    found = clues.read_all(path)
    assert [r.error is None for r in found] == [True, False, True]
    assert str(found[1].error) == f"{path}:15: puzzle 2, row 3: 'x' is not a number"
    assert (found[2].puzzle.rows, found[2].puzzle.cols) == (puzzles[2].rows, puzzles[2].cols)
    with pytest.raises(FormatError) as caught:
        clues.load(path, index=2)
    assert str(caught.value) == str(found[1].error)  # load by index and the one pass say the same


def test_nin_a_file_cut_short_keeps_every_whole_puzzle(tmp_path):
    lines = nin_text(random_puzzles(3)).split("\n")
    path = tmp_path / "q.nin"
    path.write_text("\n".join(lines[:-4]) + "\n")  # puzzle 3 (header on line 23) loses its last 3 columns
    found = clues.read_all(path)
    assert [r.puzzle is not None for r in found] == [True, True, False]
    assert str(found[2].error) == (f"{path}:30: puzzle 3: the file ends after 2 of 5 column clues "
                                   "(the header on line 23 says 5 x 5)")


def test_nin_a_line_that_is_no_header_ends_the_reading_as_the_next_puzzles_error(tmp_path):
    path = tmp_path / "q.nin"
    path.write_text(nin_text(random_puzzles(2)) + "\n\n7\n1\n")
    found = clues.read_all(path)
    assert [r.index for r in found] == [1, 2, 3] and found[2].puzzle is None
    assert str(found[2].error).startswith(f"{path}:25: puzzle 3: expected the header 'W H' of the next puzzle, "
                                          "found '7'")


def test_nin_original_with_a_glued_copy_loads_its_puzzle_and_reports_the_copy():
    """jwilk-archive/nonogram data/data142.nin: a 25 x 20 puzzle, then a copy of its rows with no header."""
    path = NIN_ORIGINALS / "data142.nin"
    found = clues.read_all(path)
    assert [r.index for r in found] == [1, 2]
    assert (found[0].puzzle.width, found[0].puzzle.height) == (25, 20)
    assert (clues.load(path).rows, clues.load(path).cols) == (found[0].puzzle.rows, found[0].puzzle.cols)
    assert str(found[1].error).startswith(f"{path}:47: puzzle 2: expected the header 'W H'")


def test_nin_single_puzzle_files_are_one_read_with_their_old_messages(tmp_path):
    assert [(r.index, r.error) for r in clues.read_all(NIN_ORIGINALS / "data000.nin")] == [(None, None)]
    path = tmp_path / "a.nin"
    path.write_text("2 2\n1\nx\n1\n1\n")
    [read] = clues.read_all(path)
    assert (read.index, str(read.error)) == (None, f"{path}:3: row 2: 'x' is not a number")


def test_suite_reads_a_multi_puzzle_nin_file_once(tmp_path, monkeypatch):
    path = tmp_path / "q.nin"
    path.write_text(nin_text(random_puzzles(3, seed=5)))
    calls = []
    real = nin.puzzles
    monkeypatch.setattr(nin, "puzzles", lambda *a, **k: calls.append(1) or real(*a, **k))
    monkeypatch.setattr(nin, "loads", lambda *a, **k: pytest.fail("a puzzle was read again by its index"))
    result = suite.run_suite([str(path)], tmp_path / "out", jobs=1)
    assert result.built == 3 and result.failed == 0 and len(calls) == 1
    assert [e["name"] for e in result.entries] == ["q-1", "q-2", "q-3"]
