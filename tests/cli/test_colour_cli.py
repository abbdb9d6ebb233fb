"""What the command line tells about colour puzzles: formats that hold them, the palette, the legend."""

from __future__ import annotations

import json

from tests.support import SHARED

ACORN = SHARED / "originals" / "g-colour" / "acorn.g"


def test_formats_marks_the_clue_formats_that_hold_colour(run_cli):
    doc = json.loads(run_cli("formats", "--json")[1])
    colour = {f["name"] for f in doc["clue_formats"] if f["colour"]}
    assert {"spec", "xml", "g", "picture", "ppm"} <= colour
    assert not colour & {"non", "nin", "mk", "cwd", "sgt", "pbm", "gecode"}
    text = run_cli("formats")[1]
    assert "c = colour puzzles too" in text
    assert any(line.split()[:2] == ["g", "c"] for line in text.splitlines())


def test_info_names_the_colours(run_cli):
    status, out, _ = run_cli("info", ACORN)
    assert status == 0
    assert "colours:     4 on white: . white (ffffff), y yellow, o orange, b brown, r red" in out.splitlines()
    doc = json.loads(run_cli("info", ACORN, "--json")[1])
    assert [c["name"] for c in doc["colours"]] == ["yellow", "orange", "brown", "red"]
    assert doc["background"]["name"] == "white"


def test_info_on_black_and_white_has_no_colour_line(run_cli):
    out = run_cli("info", SHARED / "json" / "qbpp-logo.json")[1]
    assert "colours:" not in out


def test_decoded_colour_picture_has_its_legend(run_cli):
    status, out, _ = run_cli("solve", ACORN, "--presolve", "--seed", "1")
    assert status == 0
    assert "(colours: . white (ffffff), y yellow, o orange, b brown, r red)" in out.splitlines()
