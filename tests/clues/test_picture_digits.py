"""A 0/1 picture with a stray digit: a colour puzzle by the grammar, said in a note; refused in a spaced 0/1 grid."""

from __future__ import annotations

import warnings

import pytest

from nonoqubo.clues import picture
from nonoqubo.errors import FormatError, Note


def test_a_stray_digit_among_0s_and_1s_makes_a_colour_puzzle_and_says_where():
    with pytest.warns(Note, match=r"a\.dat:4: column 3: '2' among 0s and 1s makes this picture a colour puzzle"):
        puzzle = picture.loads("\n0110\n1111\n0120\n", source="a.dat")
    assert puzzle.is_colour and puzzle.num_colours == 2


@pytest.mark.parametrize("text", ["0110\n1001\n", "rrg\n.gg\n", "##..\n.#2.\n", "2233\n3322\n"])
def test_no_note_where_nothing_is_stray(text):
    with warnings.catch_warnings():
        warnings.simplefilter("error", Note)
        picture.loads(text, source="b.txt")


@pytest.mark.parametrize("sep", ["\t", " "])
def test_a_spaced_0_1_grid_takes_only_0_and_1(sep):
    rows = [sep.join("011"), sep.join("121")]
    with pytest.raises(FormatError, match=r"^c\.txt:2: column 2: '2' in a grid of 0s and 1s separated"):
        picture.loads("\n".join(rows) + "\n", source="c.txt")
    assert picture.loads(sep.join("011") + "\n" + sep.join("101") + "\n").rows == ((2,), (1, 1))


def test_the_cli_prints_the_note_once_as_one_line(tmp_path, run_cli):
    path = tmp_path / "stray.dat"
    path.write_text("0110\n1111\n0120\n")
    status, stdout, stderr = run_cli("info", path, "--from", "picture")
    assert status == 0 and "colours" in stdout
    assert stderr.count("nonoqubo: note:") == 1 and len(stderr.strip().splitlines()) == 1, stderr
    assert f"{path}:3: column 3: '2'" in stderr
