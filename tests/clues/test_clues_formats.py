"""Clue formats: the real files under tests/data/puzzles/originals, round trips, writers, sniffing."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.support import SHARED, shared_puzzle, shared_puzzles
from nonoqubo import clues
from nonoqubo.clues import gecode, non, pbm, webpbn
from nonoqubo.errors import FormatError
from nonoqubo.model.puzzle import Puzzle

ORIGINALS = SHARED / "originals"

#: original file -> (shared JSON holding the same puzzle or None, (width, height), options)
EXPECTED = {
    "cwd/webpbn1_SYNTHETIC.cwd": ("gecode-webpbn1", (5, 10), {}),
    "g/kolo.g": ("olsak-kolo", (20, 20), {}),
    "gecode/nonogram.cpp": ("gecode-castle", (60, 35), {"index": 8}),
    "g/veze.g": ("olsak-veze", (4, 4), {}),
    "mk/cplusplus.mk": ("olsak-cplusplus", (25, 25), {}),
    "nin/data000.nin": ("jwilk-data000", (10, 10), {}),
    "nin/data142.nin": ("jwilk-data142", (25, 20), {}),
    "nin/note.nin": ("dejoue-note-nin", (6, 6), {}),
    "non/1.non": ("mikix-webpbn-1", (5, 10), {}),
    "non/spade.non": (None, (23, 23), {}),
    "non/webpbn-06574-forever.non": ("dejoue-webpbn-06574-forever", (25, 25), {}),
    "pbm/moss-60x60-bw-1.pbm": ("dejoue-raw-moss-60x60-bw-1", (60, 60), {}),
    "sgt/game_ids.txt": ("sgt-pattern-10x10", (10, 10), {}),
    "sgt/sgt_10x10_0.sav": ("sgt-pattern-10x10", (10, 10), {}),
    "sgt/sgt_5x5_0.sav": ("sgt-pattern-5x5", (5, 5), {}),
    "webpbn-xml/atrus.xml": ("loom-atrus", (10, 10), {}),
    "taai/taai2011-first3.taai": (None, (25, 25), {"index": 3}),
    "taai/tcga2023-first2-crlf.taai": (None, (25, 25), {"index": 2}),
    "rand30/rand0001": (None, (30, 30), {}),  # the survey's random 30x30 grids: 0/1 pictures
    "rand30/rand0002": (None, (30, 30), {}),
}
#: colour puzzles: file -> ((width, height), block colour names)
COLOUR = {
    "g-colour/acorn.g": ((50, 35), ("yellow", "orange", "brown", "red")),
    "g-colour/oko.g": ((40, 30), ("blue", "black")),
    "g-colour/rose.g": ((39, 28), ("z", "g", "t", "s", "r", "f", "c")),
    "webpbn-xml-colour/listen_left_and_right.xml": ((20, 20), ("black", "aB30101")),
    "webpbn-xml-colour/look_sharp.xml": ((15, 20), ("a00CDFF", "b1600FF")),
    "webpbn-xml-colour/missing.xml": ((20, 15), ("b4D4D39", "a2764FF")),
    "webpbn-xml-colour/not_invented_yet_1.xml": ((40, 15), ("bF42020", "black")),
}
#: the format each original must be read as (by extension or content)
FORMAT_OF = {"cwd": "cwd", "g": "g", "gecode": "gecode", "g-colour": "g", "mk": "mk", "nin": "nin", "non": "non", "pbm": "pbm",
             "rand30": "picture", "sgt": "sgt", "taai": "taai", "webpbn-xml": "xml", "webpbn-xml-colour": "xml"}
SOLUTION_FORMATS = [m.NAME for m in clues.formats() if m.SOLUTION]
ALL_FORMATS = [m.NAME for m in clues.formats()]
#: formats that hold square puzzles only (the tournament files have no size line)
SQUARE_ONLY = {"taai"}


def _writable(fmt: str, puzzle: Puzzle) -> bool:
    return fmt not in SQUARE_ONLY or puzzle.width == puzzle.height


def _original_files() -> list[str]:
    return sorted(str(p.relative_to(ORIGINALS)) for p in ORIGINALS.rglob("*")
                  if p.is_file() and p.name != "README.txt")


def test_every_original_is_listed():
    assert set(_original_files()) == set(EXPECTED) | set(COLOUR)


@pytest.mark.parametrize("rel", sorted(EXPECTED))
def test_original_is_read_with_the_right_clues(rel):
    twin, size, options = EXPECTED[rel]
    path = ORIGINALS / rel
    assert clues.format_for(path, path.read_bytes()).NAME == FORMAT_OF[rel.split("/")[0]]
    puzzle = clues.load(path, **options)
    assert (puzzle.width, puzzle.height) == size
    if twin is not None:
        ref = shared_puzzle(twin)
        assert puzzle.rows == ref.rows
        assert puzzle.cols == ref.cols


@pytest.mark.parametrize("rel", sorted(COLOUR))
def test_colour_originals_are_read(rel):
    size, names = COLOUR[rel]
    path = ORIGINALS / rel
    assert clues.format_for(path, path.read_bytes()).NAME == FORMAT_OF[rel.split("/")[0]]
    puzzle = clues.load(path)
    assert (puzzle.width, puzzle.height) == size
    assert puzzle.palette.names[1:] == names and puzzle.is_colour
    assert {c for clue in (*puzzle.row_colours, *puzzle.col_colours) for c in clue} == set(range(1, len(names) + 1))


def test_goal_solutions_of_originals():
    dancer = clues.load(ORIGINALS / "non/1.non")
    assert dancer.solution == shared_puzzle("mikix-webpbn-1").solution
    assert dancer.name == "Dancer"
    assert dancer.meta == {"catalogue": "webpbn.com #1", "author": "Jan Wolter",
                           "copyright": "© 2004 Jan Wolter", "license": "CC-BY-3.0"}
    forever = clues.load(ORIGINALS / "non/webpbn-06574-forever.non")
    assert forever.meta["copyright"] == "© Copyright 2009 by Gator"  # &copy; decoded
    assert clues.load(ORIGINALS / "non/spade.non").solution is not None
    moss = clues.load(ORIGINALS / "pbm/moss-60x60-bw-1.pbm")
    assert moss.solution is not None and moss.is_solution(moss.solution)
    atrus = clues.load(ORIGINALS / "webpbn-xml/atrus.xml")
    assert atrus.name == "Atrus" and atrus.meta["author"] == "Paul Stansifer"


def test_game_ids_index_picks_the_second():
    puzzle = clues.load(ORIGINALS / "sgt/game_ids.txt", index=2)
    ref = shared_puzzle("sgt-pattern-5x5")
    assert (puzzle.rows, puzzle.cols) == (ref.rows, ref.cols)
    with pytest.raises(FormatError, match=r"holds 2 game IDs; --index 3 is out of range"):
        clues.load(ORIGINALS / "sgt/game_ids.txt", index=3)


def test_options_a_format_does_not_take():
    with pytest.raises(TypeError, match="unexpected options"):
        clues.load(ORIGINALS / "non/1.non", index=1)


# -- round trips ---------------------------------------------------------------------
@pytest.mark.parametrize("fmt", [pytest.param(f, marks=pytest.mark.slow) if f == "spec" else f  # spec: 7.5 s
                                 for f in ALL_FORMATS])
def test_round_trip_every_shared_puzzle(fmt):
    mod = clues.get_format(fmt)
    for name, puzzle, _ in shared_puzzles():
        if not _writable(fmt, puzzle):
            continue
        back = mod.loads(mod.dumps(puzzle), source=name)
        assert (back.rows, back.cols) == (puzzle.rows, puzzle.cols), name
        if mod.SOLUTION:
            assert back.solution == puzzle.solution, name


@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_dumped_text_is_recognised_by_its_content(fmt):
    found = [p for _, p, _ in shared_puzzles() if _writable(fmt, p)][:12]
    assert found
    for puzzle in found:
        assert clues.format_for(None, clues.dumps(puzzle, fmt)).NAME == clues.get_format(fmt).NAME


def _grids():
    return st.integers(1, 7).flatmap(lambda h: st.integers(1, 7).flatmap(
        lambda w: st.lists(st.lists(st.booleans(), min_size=w, max_size=w), min_size=h, max_size=h)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid=_grids(), fmt=st.sampled_from(ALL_FORMATS))
def test_round_trip_random_pictures(grid, fmt):
    """Empty lines, one-cell lines, all-black and all-white grids survive every format."""
    puzzle = Puzzle.from_picture(np.array(grid, dtype=bool), name="random")
    assume(_writable(fmt, puzzle))
    mod = clues.get_format(fmt)
    back = mod.loads(mod.dumps(puzzle))
    assert (back.rows, back.cols) == (puzzle.rows, puzzle.cols)
    if mod.SOLUTION:
        assert back.solution == puzzle.solution


CHAIN = ["spec", "xml", "non", "picture", "pbm", "ppm", "png", "gecode", "nin", "taai", "mk", "g", "cwd", "sgt", "spec"]
EXT = {"spec": "yaml", "xml": "xml", "non": "non", "picture": "pic", "pbm": "pbm", "ppm": "ppm", "png": "png",
       "gecode": "gecode", "nin": "nin", "taai": "taai", "mk": "mk", "g": "g", "cwd": "cwd", "sgt": "sgt"}


@pytest.mark.parametrize("name", ["mikix-webpbn-1", "olsak-cplusplus", "loom-atrus", "gecode-non-unique"])
def test_conversion_chain_through_all_formats(name, tmp_path, run_cli):
    assert set(CHAIN) == {m.NAME for m in clues.formats()}
    start = shared_puzzle(name)
    current = tmp_path / f"0.{EXT['spec']}"
    clues.dump(start, current)
    chain = [f for f in CHAIN if _writable(f, start)]  # the square ones go through taai too
    for step, fmt in enumerate(chain[1:], start=1):
        target = tmp_path / f"{step}.{EXT[fmt]}"
        status, _, err = run_cli("convert", current, target)
        assert status == 0, err
        current = target
    end = clues.load(current)
    assert (end.rows, end.cols) == (start.rows, start.cols)


def test_solution_and_metadata_travel(tmp_path, run_cli):
    start = clues.load(ORIGINALS / "non/1.non")
    current = ORIGINALS / "non/1.non"
    for step, fmt in enumerate(["xml", "spec", "non", "xml"]):
        target = tmp_path / f"{step}.{EXT[fmt]}"
        assert run_cli("convert", current, target)[0] == 0
        current = target
    end = clues.load(current)
    assert end.solution == start.solution
    assert end.name == "Dancer"
    assert end.meta["author"] == "Jan Wolter" and end.meta["copyright"] == "© 2004 Jan Wolter"


# -- writers ---------------------------------------------------------------------------
def test_gecode_writer_gives_back_every_gecode_spec():
    docs = [(name, doc) for name, _, doc in shared_puzzles() if "gecode_spec" in doc]
    assert len(docs) == 19
    for name, doc in docs:
        written = gecode.dumps(gecode.from_array(doc["gecode_spec"], name=name))
        assert gecode.to_array(gecode.loads(written)) == doc["gecode_spec"], name
        numbers = [int(n) for n in re.findall(r"-?\d+", re.sub(r"//[^\n]*", "", written))]
        assert numbers == doc["gecode_spec"], name


def test_non_and_xml_carry_the_goal():
    dancer = shared_puzzle("mikix-webpbn-1")
    goal = "".join(dancer.solution).replace("#", "1").replace(".", "0")
    assert f'goal "{goal}"' in non.dumps(dancer)
    text = webpbn.dumps(dancer)
    assert '<solution type="goal">' in text and "|.XX..|" in text
    bare = Puzzle(dancer.rows, dancer.cols)
    assert "goal" not in non.dumps(bare) and "<solution" not in webpbn.dumps(bare)


def test_pbm_plain_and_raw_agree():
    moss = clues.load(ORIGINALS / "pbm/moss-60x60-bw-1.pbm")
    plain = pbm.dumps(moss, plain=True)
    assert plain.startswith(b"P1\n")
    assert pbm.loads(plain) == pbm.loads(pbm.dumps(moss)) == moss


def test_readers_forgive_real_file_quirks():
    text = "\ufeff3 2  \r\n3\r\n1 1\r\n2\r\n1\r\n2\r\n\r\n\r\n"
    assert clues.loads(text, "nin") == Puzzle([[3], [1, 1]], [[2], [1], [2]])
    latin1 = "title \"Fran\xe7ois\"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n".encode("latin-1")
    assert clues.loads(latin1, "non").name == "François"
    blank_is_empty = "width 2\nheight 2\nrows\n2\n\ncolumns\n1\n1\n"
    assert clues.loads(blank_is_empty, "non").rows == ((2,), ())
    webpbn_export = ('<?xml version="1.0"?>\n<!DOCTYPE pbn SYSTEM "http://webpbn.com/pbn-0.3.dtd">\n'
                     "<puzzleset><puzzle><copyright>&copy; 2004 &eacute;</copyright>"
                     '<clues type="columns"><line><count>1</count></line></clues>'
                     '<clues type="rows"><line><count>1</count></line></clues></puzzle></puzzleset>')
    assert clues.loads(webpbn_export, "xml").meta["copyright"] == "© 2004 é"


def test_webpbn_puzzleset_index(tmp_path):
    one = webpbn.dumps(Puzzle([[1]], [[1]], name="one"))
    two = webpbn.dumps(Puzzle([[1], []], [[1]], name="two"))
    body = one.split("<puzzleset>")[1].split("</puzzleset>")[0] + two.split("<puzzleset>")[1].split("</puzzleset>")[0]
    path = tmp_path / "set.xml"
    path.write_text(f"<puzzleset>{body}</puzzleset>")
    assert clues.load(path).name == "one"
    assert clues.load(path, index=2).name == "two"
    with pytest.raises(FormatError, match=r"set\.xml: the file holds 2 puzzles; --index 3"):
        clues.load(path, index=3)


def test_webpbn_solution_image_through_the_colour_table():
    xml = """<puzzleset><puzzle type="grid" defaultcolor="white">
<color name="black" char="#">000000</color><color name="white" char=" ">FFFFFF</color>
<clues type="columns"><line><count color="black">1</count></line><line/></clues>
<clues type="rows"><line><count color="black">1</count></line><line/></clues>
<solution type="saved"><image>|  |\n|  |</image></solution>
<solution type="goal"><image>
|# |
|  |
</image></solution></puzzle></puzzleset>"""
    assert webpbn.loads(xml).solution == ("#.", "..")
    with pytest.raises(FormatError, match=r"^<string>:8: solution image: '\?' has no colour in the <color> table$"):
        webpbn.loads(xml.replace("|# |", "|#?|"))
    with pytest.raises(FormatError, match=r"^<string>:7: the solution does not match the clues"):
        webpbn.loads(xml.replace("|# |", "| #|"))
