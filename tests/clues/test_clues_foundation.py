"""The foundation's readers: the YAML/JSON clue spec and the Gecode flat array."""

from __future__ import annotations

import json

import pytest

from tests.support import SHARED, shared_puzzles
from nonoqubo import clues
from nonoqubo.clues import gecode, spec
from nonoqubo.errors import FormatError, UnsupportedFormat
from nonoqubo.model.puzzle import Puzzle

GECODE_PUZZLES = [(n, p, d) for n, p, d in shared_puzzles() if "gecode_spec" in d]


def test_every_shared_json_is_a_valid_spec():
    assert len(shared_puzzles()) >= 50
    for name, puzzle, doc in shared_puzzles():
        assert puzzle.width == doc["width"] and puzzle.height == doc["height"], name


@pytest.mark.parametrize("name,puzzle,doc", GECODE_PUZZLES, ids=lambda v: v if isinstance(v, str) else "")
def test_gecode_spec_gives_the_same_clues(name, puzzle, doc):
    from_array = gecode.from_array(doc["gecode_spec"])
    assert from_array.rows == puzzle.rows and from_array.cols == puzzle.cols
    assert gecode.to_array(puzzle) == doc["gecode_spec"]
    # as text pasted from the C source, and written back by nonoqubo
    text = "static const int spec[] = {  // " + name + "\n  " + ", ".join(map(str, doc["gecode_spec"])) + ",\n};\n"
    pasted = gecode.loads(text, source="pasted.cpp")
    assert (pasted.rows, pasted.cols) == (puzzle.rows, puzzle.cols)
    again = gecode.loads(gecode.dumps(puzzle))
    assert (again.rows, again.cols) == (puzzle.rows, puzzle.cols)


def test_gecode_comments_and_braces():
    text = "/* Dancer */\n{5,10, // columns\n 2,2,1, 3,2,1,3, 1,7, 2,1,3, 2,2,1,\n /* rows */ 1,2, 2,2,1, 2,1,1, 1,3, 2,1,1, 2,1,1, 1,2, 2,1,1, 2,1,2, 1,2}"
    p = gecode.loads(text)
    assert (p.width, p.height) == (5, 10)
    assert p.rows[1] == (2, 1)


@pytest.mark.parametrize(
    "text,message",
    [
        ("{3}", "pasted.cpp: the array needs at least width and height, found 1 number(s)"),
        ("{2, 2, 1,1, 1,1, 1,1}", "pasted.cpp:1:20: the array ends after 8 numbers, before the hint of row 2"),
        ("{2, 2, 1,1, 1,1, 1,1, 3,1}", "pasted.cpp:1:23: element 9: row 2: block count 3 runs past the end"),
        ("{2, 2, 1,1, 1,1, 1,1, 1,1, 7}", "pasted.cpp:1:28: element 11: 1 number(s) left over"),
        ("{2, 2,\n 1,1, x, 1,1, 1,1}", "pasted.cpp:2:7: 'x' is not a number"),
        ("{2, 2, 1,1, 1,1, -1, 1,1}", "element 7: row 1: block count -1 is negative"),
        ("{0, 2}", "element 1: width 0 must be positive"),
        ("{2, 1, 1,1, 1,1, 1,3}", "pasted.cpp: row 1: clue 3 needs 3 cells"),
        ("{2, 2, 1,1, 1,1", "the array's '{' is never closed"),
        ("", "no numbers found"),
    ],
)
def test_gecode_errors_name_the_position(text, message):
    with pytest.raises(FormatError) as info:
        gecode.loads(text, source="pasted.cpp")
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_spec_yaml_and_json_and_aliases():
    yaml_text = "name: t\nrows:\n  - [1]\n  - 1\ncolumns: ['2', '']\n"
    p = spec.loads(yaml_text)
    assert p.rows == ((1,), (1,)) and p.cols == ((2,), ()) and p.name == "t"
    q = spec.loads(json.dumps({"rows": [[1], [1]], "cols": [[2], [0]], "width": 2}))
    assert (q.rows, q.cols) == (p.rows, p.cols)
    assert spec.loads(spec.dumps(p)) == p


@pytest.mark.parametrize(
    "text,message",
    [
        ("rows: [[1]]\n", "x.yaml: the 'cols' key is missing"),
        ("rows: [[1]]\ncols: [[1]]\nwidth: 3\n", "x.yaml:3: width: 3 but there are 1 columns"),
        ("rows:\n  - [1]\n  - [1, x]\ncols: [[1], [1]]\n", "x.yaml:3: row 2, block 2: block length 'x' is not an integer"),
        ("rows:\n  - [1]\n  - [5]\ncols: [[1], [1]]\n", "x.yaml:3: row 2: clue 5 needs 5 cells (blocks plus gaps) but the width is 2"),
        ("rows: [[1]\ncols: [[1]]\n", "x.yaml:2:1: invalid YAML"),
        ('{"rows": [[1]], "cols": [[1]],}', "x.yaml:1:31: invalid JSON"),
        ("- 1\n- 2\n", "x.yaml: expected a mapping with 'rows' and 'cols', found list"),
        ("rows: [[1]]\ncols: [[1]]\ncolumns: [[1]]\n", "give either 'cols' or 'columns'"),
        ("", "x.yaml: the file is empty"),
        ("rows: [[1], [1]]\ncols: [[1], [0]]\n", "x.yaml: the row clues paint 2 cells but the column clues paint 1"),
    ],
)
def test_spec_errors_name_file_and_line(text, message):
    with pytest.raises(FormatError) as info:
        spec.loads(text, source="x.yaml")
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_yaml_is_read_safely():
    with pytest.raises(FormatError, match="invalid YAML"):
        spec.loads("rows: !!python/object/apply:os.system ['echo hi']\ncols: [[1]]\n", source="evil.yaml")


def test_registry_by_extension_content_and_name(tmp_path):
    target = tmp_path / "logo.yaml"
    target.write_text((SHARED / "json" / "qbpp-logo.json").read_text())
    assert clues.load(target).width == 15
    weird = tmp_path / "puzzle.txt"
    weird.write_text("{2, 2, 1,1, 1,1, 1,1, 1,1}")
    assert clues.load(weird).rows == ((1,), (1,))
    assert clues.load(weird, format="gecode").rows == ((1,), (1,))
    with pytest.raises(UnsupportedFormat, match="unknown clue format 'nope'; known formats: spec, gecode"):
        clues.load(weird, format="nope")


def test_dump_is_atomic_and_round_trips(tmp_path):
    p = Puzzle.from_picture(["#.", "##"], name="tiny")
    out = tmp_path / "t.yaml"
    clues.dump(p, out)
    assert clues.load(out) == p
    assert [f.name for f in tmp_path.iterdir()] == ["t.yaml"]
