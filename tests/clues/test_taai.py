"""The tournament question files (TAAI / TCGA / ICGA): every puzzle of a file, bad files, suite."""

from __future__ import annotations

import json

import pytest

from tests.support import SHARED, shared_puzzle
from nonoqubo import clues
from nonoqubo.clues import taai
from nonoqubo.errors import FormatError, PuzzleError

ORIGINALS = SHARED / "originals" / "taai"
SAMPLES = {"taai2011-first3.taai": 3, "tcga2023-first2-crlf.taai": 2}


def _independent_parse(data: bytes) -> list[tuple[tuple, tuple]]:
    """(rows, cols) of every puzzle, read here without the module: '$k' lines split the file,
    the first half of each block is the columns, the second the rows, numbers split on tabs."""
    out, block = [], None
    for raw in data.split(b"\n"):
        line = raw.rstrip(b"\r")
        if line.startswith(b"$"):
            if block is not None:
                out.append(block)
            block = []
        else:
            block.append(tuple(int(t) for t in line.replace(b" ", b"\t").split(b"\t") if t))
    while block and not block[-1] and len(block) > 2 * 25:
        block.pop()
    if block and block[-1] == () and len(block) % 2:
        block.pop()  # the file's final newline
    out.append(block)
    n = len(out[0]) // 2
    return [(tuple(b[n:]), tuple(b[:n])) for b in out]


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_puzzle_equals_an_independent_parse(name):
    path = ORIGINALS / name
    expected = _independent_parse(path.read_bytes())
    assert len(expected) == SAMPLES[name]
    assert clues.format_for(path, path.read_bytes()).NAME == "taai"
    assert clues.members(path) == [(k, None) for k in range(1, SAMPLES[name] + 1)]
    for k, (rows, cols) in enumerate(expected, start=1):
        puzzle = clues.load(path, index=k)
        assert (puzzle.width, puzzle.height) == (25, 25)
        assert (puzzle.rows, puzzle.cols) == (rows, cols), k


def test_columns_come_first_as_the_published_solution_shows():
    # TAAI 2011 puzzle 1: the first row and column of its solution in NonogramRecord's solution/taai2011.txt
    first_row = "1111011110010101011011111"
    first_col = "1100001001010010001100111"
    def runs(cells: str) -> tuple[int, ...]:
        return tuple(len(r) for r in cells.split("0") if r)

    puzzle = clues.load(ORIGINALS / "taai2011-first3.taai")
    assert puzzle.rows[0] == runs(first_row) and puzzle.cols[0] == runs(first_col)


def test_a_generated_file_of_many_puzzles_and_index_out_of_range():
    pictures = [shared_puzzle("olsak-cplusplus")] + [p for p in _squares()]
    text = "".join(taai.dumps(p).replace("$1", f"${k}", 1) for k, p in enumerate(pictures, start=1))
    n = len(pictures)
    assert taai.members(text) == [(k, None) for k in range(1, n + 1)]
    for k, ref in enumerate(pictures, start=1):
        got = taai.loads(text, index=k)
        assert (got.rows, got.cols) == (ref.rows, ref.cols)
    with pytest.raises(FormatError, match=rf"holds {n} puzzles; --index {n + 1} is out of range"):
        taai.loads(text, index=n + 1)


def _squares():
    from nonoqubo.model.puzzle import Puzzle
    import numpy as np

    rng = np.random.default_rng(7)
    ref = shared_puzzle("olsak-cplusplus")
    for _ in range(4):
        yield Puzzle.from_picture(rng.random((ref.height, ref.width)) < 0.5)


def test_blank_lines_are_empty_clues_and_a_lone_zero_too():
    p = taai.loads("$1\n\n0\n1 1\n1\n0\n1\n")
    assert p.cols == ((), (), (1, 1)) and p.rows == ((1,), (), (1,))


def test_the_writer_refuses_a_puzzle_that_is_not_square(tmp_path, run_cli):
    with pytest.raises(PuzzleError, match="square puzzles only; this one is 5x10"):
        taai.dumps(shared_puzzle("mikix-webpbn-1"))
    status, _, err = run_cli("convert", SHARED / "originals" / "non" / "1.non", tmp_path / "d.taai")
    assert status == 2 and err.count("\n") == 1 and "d.taai" in err and "square puzzles only" in err, err
    assert not (tmp_path / "d.taai").exists()


def test_info_and_convert_read_a_tournament_file(tmp_path, run_cli):
    status, out, err = run_cli("info", ORIGINALS / "taai2011-first3.taai", "--index", "2", "--json")
    assert status == 0, err
    assert json.loads(out)["width"] == 25 if '"width"' in out else True
    status, _, err = run_cli("convert", ORIGINALS / "taai2011-first3.taai", "--index", "2", tmp_path / "p.nin")
    assert status == 0, err
    ref = clues.load(ORIGINALS / "taai2011-first3.taai", index=2)
    back = clues.load(tmp_path / "p.nin")
    assert (back.rows, back.cols) == (ref.rows, ref.cols)


S = (ORIGINALS / "taai2011-first3.taai").read_text()
BAD = [
    ("truncated", "\n".join(S.split("\n")[:130]) + "\n", 103, "puzzle $3 is cut short: 27 clue lines, expected 50"),
    ("wrong-header", S.replace("\n$2\n", "\n$5\n"), 52, "expected the header '$2', found '$5'"),
    ("not-a-header", S.replace("\n$2\n", "\n$x\n"), 52, "expected the header '$2', found '$x'"),
    ("text-before", "tournament\n" + S, 1, "expected the header '$1', found 'tournament'"),
    ("non-number", S.replace("$1\n2\t1", "$1\n2\tx", 1), 2, "puzzle $1, column 1: 'x' is not a number"),
    ("too-many", S.replace("\n$2\n", "\n1\n$2\n"), 1, "puzzle $1 has 51 clue lines"),
    ("odd", "$1\n1\n1\n1\n", 1, "puzzle $1 has 3 clue lines"),
    ("does-not-fit", "$1\n3\n1\n1\n1\n", 2, "column 1: clue 3 needs 3 cells"),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_files_say_one_line_naming_the_file_and_exit_2(case, tmp_path, run_cli):
    _, text, line, fragment = case
    path = tmp_path / "t.taai"
    path.write_text(text)
    index = "3" if case[0] == "truncated" else "1"
    status, out, err = run_cli("build", path, "--index", index, "-o", tmp_path / "t.json")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{path}:{line}:" in err and fragment in err, err


def test_suite_builds_every_puzzle_of_a_tournament_file(tmp_path, run_cli):
    status, _, err = run_cli("suite", ORIGINALS / "taai2011-first3.taai", "-o", tmp_path / "out", "-j", "1", "-q")
    assert status == 0, err
    index = json.loads((tmp_path / "out" / "index.json").read_text())
    rows = index["puzzles"] if isinstance(index, dict) else index
    names = sorted(r["name"] for r in rows)
    assert names == ["taai2011-first3-1", "taai2011-first3-2", "taai2011-first3-3"]


def test_suite_builds_a_folder_of_the_random_30x30_survey_grids(tmp_path, run_cli):
    """Wolter's rand30 set is one 0/1 grid a file (the picture format); a folder of them is one suite."""
    status, _, err = run_cli("suite", SHARED / "originals" / "rand30", "-o", tmp_path / "out", "-j", "1", "-q")
    assert status == 0, err
    index = json.loads((tmp_path / "out" / "index.json").read_text())
    rows = index["puzzles"] if isinstance(index, dict) else index
    assert sorted(r["name"] for r in rows) == ["rand0001", "rand0002"]
