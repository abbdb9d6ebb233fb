"""Malformed clue files: one clear line naming the file and the line, exit status 2, no traceback."""

from __future__ import annotations

import pytest

from nonoqubo import clues
from nonoqubo.errors import FormatError

BOMB = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<puzzleset><puzzle><title>&lol3;</title></puzzle></puzzleset>
"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE puzzleset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<puzzleset><puzzle><title>&xxe;</title></puzzle></puzzleset>
"""
XML_OK_START = '<puzzleset><puzzle>\n<clues type="columns">\n<line><count>1</count></line>\n</clues>\n'

#: (id, file name, content, line the message names, fragment of the message)
CASES = [
    # .nin
    ("nin-truncated", "a.nin", "2 2\n1\n1\n1\n", 4, "the file ends after 1 of 2 column clues"),
    ("nin-non-numeric", "a.nin", "2 2\n1\nx\n1\n1\n", 3, "row 2: 'x' is not a number"),
    ("nin-bad-header", "a.nin", "2\n1\n1\n", 1, "expected width and height"),
    ("nin-does-not-fit", "a.nin", "2 2\n3\n1\n1\n1\n", 2, "row 1: clue 3 needs 3 cells"),
    # .mk
    ("mk-truncated", "a.mk", "2 2\r\n1\r\n", 2, "the file ends after 1 of 2 row clues"),
    ("mk-non-numeric", "a.mk", "2 2\n1\n1a\n#\n1\n1\n", 3, "row 2: '1a' is not a number"),
    ("mk-wrong-count", "a.mk", "3 2\n1\n1\n#\n1\n1\n", 4, "'#' after 2 row clues, but the header says height 3"),
    ("mk-extra-column", "a.mk", "2 2\n1\n1\n#\n1\n1\n1\n", 7, "text after the 2 column clues"),
    ("mk-does-not-fit", "a.mk", "2 2\n1\n1\n#\n1 1\n1\n", 5, "column 1: clue 1 1 needs 3 cells"),
    # .cwd
    ("cwd-truncated", "a.cwd", "2\n2\n1\n1\n\n1\n", 6, "the file ends after 1 of 2 column clues"),
    ("cwd-non-numeric", "a.cwd", "2\ntwo\n", 2, "'two' is not a number"),
    ("cwd-does-not-fit", "a.cwd", "1\n1\n2\n\n1\n", 3, "row 1: clue 2 needs 2 cells"),
    # .non
    ("non-truncated", "a.non", "width 2\nheight 2\nrows\n1\n", 4, "the file ends after 1 of 2 row clues"),
    ("non-non-numeric", "a.non", "width 2\nheight 2\nrows\n1\n1;\ncolumns\n1\n1\n", 5, "row 2: '1;' is not a number"),
    ("non-bad-width", "a.non", "width two\n", 1, "width must be a positive number"),
    ("non-goal-length", "a.non", "width 1\nheight 1\nrows\n1\ncolumns\n1\ngoal \"10\"\n", 7, "goal has 2 cells"),
    ("non-missing-columns", "a.non", "width 1\nheight 1\nrows\n1\n", 4, "the 'columns' key is missing"),
    ("non-does-not-fit", "a.non", "width 1\nheight 1\nrows\n2\ncolumns\n1\n", 4, "row 1: clue 2 needs 2 cells"),
    ("non-wrong-goal", "a.non", "width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal 01\n", 8, "the solution does not match"),
    ("non-colour", "a.non", "width 2\nheight 1\nrows\n1a,1b\ncolumns\n1a\n1b\n", 4, "the puzzle has colours"),
    ("non-pynonogram", "a.non", "rows:1 2\ncolumns:1 2\n", 1, "pyNonogram"),
    # .g
    ("g-no-groups", "a.g", "just text\n", 1, "no line starts with ':'"),
    ("g-one-group", "a.g", "t\n: rows\n1\n", 2, "not followed by a ':' line"),
    ("g-non-numeric", "a.g", "t\n: rows\n1\n1 ?\n: columns\n1\n1\n", 4, "row 2: '?' is not a number"),
    ("g-does-not-fit", "a.g", "t\n: rows\n1\n: columns\n1 1\n:\n", 5, "column 1: clue 1 1 needs 3 cells"),
    ("g-triddler", "a.g", "#t\n: a\n1\n: b\n1\n", 1, "triddler"),
    # Tatham Pattern
    ("sgt-wrong-count", "a.sgt", "2x2:1/1/1\n", 1, "3 clues, but 2x2 needs 2 column and 2 row clues"),
    ("sgt-non-numeric", "a.sgt", "\n2x2:1/a/1/1\n", 2, "column 2: 'a' is not a number"),
    ("sgt-seed", "a.sgt", "5x5#12345\n", 1, "random seed"),
    ("sgt-does-not-fit", "a.sgt", "2x2:3/1/1/1\n", 1, "column 1: clue 3 needs 3 cells"),
    ("sgt-save-length", "a.sav", "SAVEFILE:41:Simon Tatham's Portable Puzzle Collection\nGAME    :7:Patter\n",
     2, "the value has 6 characters, the line says 7"),
    ("sgt-save-truncated", "a.sav", "SAVEFILE:41:Simon Tatham's Portable Puzzle Collection\nGAME    :7:Pattern\n"
     "PARAMS  :3:2x2\nDESC    :5:1/1/1\n", 4, "3 clues, but 2x2 needs"),
    # text pictures
    ("picture-ragged", "a.pic", "#.#\n##\n", 2, "this row has 2 cells, the first row has 3"),
    ("picture-bad-char", "a.pic", "#.#\n#?#\n", 2, "'?' is neither black ('#', 'X', 'x', '1'), a colour (a letter, "
     "a digit, '@*%&+=$') nor white ('.', '0', '-', '_')"),
    ("picture-blank-inside", "a.pic", "#.#\n\n#.#\n", 2, "blank line inside the picture"),
    # PBM
    ("pbm-truncated", "a.pbm", b"P4\n16 2\n\xff\xff\xff", 2, "the raster holds 3 bytes, 16x2 needs 4"),
    ("pbm-non-numeric", "a.pbm", b"P1\n# c\nx 2\n", 3, "width 'x' is not a positive number"),
    ("pbm-bad-digit", "a.pbm", b"P1\n2 2\n1 0\n0 2\n", 4, "raster: '2' is not 0 or 1"),
    ("pbm-short-plain", "a.pbm", b"P1\n2 2\n1 0\n0\n", 4, "the raster has 3 pixels, 2x2 needs 4"),
    ("pbm-magic", "a.pbm", b"P2\n2 2\n", 1, "not a PBM image"),
    # webpbn XML
    ("xml-bomb", "a.xml", BOMB, 3, "entity declarations are refused"),
    ("xml-external-entity", "a.xml", EXTERNAL, 2, "entity declarations are refused"),
    ("xml-truncated", "a.xml", XML_OK_START, 5, "not well-formed XML"),
    ("xml-non-numeric", "a.xml", XML_OK_START + '<clues type="rows">\n<line><count>one</count></line>\n</clues></puzzle></puzzleset>',
     6, "row 1: count 'one' is not a number"),
    ("xml-missing-rows", "a.xml", XML_OK_START + "</puzzle></puzzleset>", 1, "the puzzle has no <clues type='rows'>"),
    ("xml-does-not-fit", "a.xml", XML_OK_START + '<clues type="rows">\n<line><count>2</count></line>\n</clues></puzzle></puzzleset>',
     6, "row 1: clue 2 needs 2 cells"),
    ("xml-undefined-entity", "a.xml", "<puzzleset>\n<puzzle>&nosuch;</puzzle></puzzleset>", 2, "undefined entity"),
    # the foundation formats
    ("gecode-truncated", "a.gecode", "{2, 2, 1,1, 1,1,\n 1,1}", 2, "the array ends after"),
    ("gecode-non-numeric", "a.gecode", "{2, 2,\n x}", 2, "'x' is not a number"),
    ("spec-does-not-fit", "a.yaml", "rows:\n- [1]\n- [3]\ncols:\n- [1]\n- [1]\n", 3, "needs 3 cells"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_malformed_file_gives_one_clear_line(case, tmp_path, run_cli):
    _, name, content, line, fragment = case
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    status, out, err = run_cli("info", path)
    assert status == 2
    assert out == ""
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith(f"nonoqubo: error: {path}:{line}:"), err
    assert fragment in err, err


def test_library_raises_format_error_naming_the_source():
    with pytest.raises(FormatError, match=r"^mine\.nin:3: row 2: 'x' is not a number$"):
        clues.loads("2 2\n1\nx\n1\n1\n", "nin", source="mine.nin")


def test_bomb_is_refused_before_expansion():
    with pytest.raises(FormatError) as info:
        clues.loads(BOMB, "xml", source="bomb.xml")
    assert "lol" in str(info.value) and "\n" not in str(info.value)


def test_convert_leaves_no_file_when_the_output_cannot_hold_the_puzzle(tmp_path, run_cli):
    source = tmp_path / "a.nin"
    source.write_text("1 1\n1\n1\n")
    target = tmp_path / "b.pbm"
    status, _, err = run_cli("convert", source, target)
    assert status == 2
    assert err.startswith(f"nonoqubo: error: {target}: the pbm format is a picture of the answer")
    assert not target.exists() and list(tmp_path.iterdir()) == [source]
