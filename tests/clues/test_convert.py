"""``nonoqubo convert`` and the other commands reading every clue format."""

from __future__ import annotations

import pytest

from tests.support import SHARED, shared_puzzle
from nonoqubo import clues

ORIGINALS = SHARED / "originals"
EXT = {"spec": "yaml", "gecode": "gecode", "xml": "xml", "non": "non", "nin": "nin", "mk": "mk", "g": "g",
       "cwd": "cwd", "sgt": "sgt", "taai": "taai", "picture": "pic", "pbm": "pbm", "ppm": "ppm", "png": "png"}


def test_every_format_has_a_file_ending_for_convert():
    assert set(EXT) == {m.NAME for m in clues.formats()}
    for fmt, ext in EXT.items():
        assert clues.format_for(f"x.{ext}").NAME == clues.get_format(fmt).NAME


@pytest.mark.parametrize("fmt", sorted(EXT))
def test_info_reads_every_format(fmt, tmp_path, run_cli):
    if fmt == "taai":
        pytest.skip("taai holds square puzzles only and the logo is not: tests/clues/test_taai.py runs info on one")
    logo = shared_puzzle("qbpp-logo")
    path = tmp_path / f"logo.{EXT[fmt]}"
    clues.dump(logo, path)
    status, out, err = run_cli("info", path, "--json")
    assert status == 0, err
    assert '"variables": 437' in out and '"terms": 2756' in out


@pytest.mark.parametrize("fmt", sorted(EXT))
def test_build_reads_every_format(fmt, tmp_path, run_cli):
    path = tmp_path / f"dancer.{EXT[fmt]}"
    clues.dump(shared_puzzle("loom-atrus" if fmt == "taai" else "gecode-webpbn1"), path)  # taai: square only
    status, _, err = run_cli("build", path, "-o", tmp_path / "out.json")
    assert status == 0, err
    assert (tmp_path / "out.json").exists()


def test_convert_to_standard_output_with_to(run_cli):
    status, out, err = run_cli("convert", ORIGINALS / "nin/note.nin", "-", "--to", "sgt")
    assert status == 0, err
    note = shared_puzzle("dejoue-note-nin")
    assert out == clues.dumps(note, "sgt")
    assert err == ""


def test_convert_reads_standard_input_with_from(run_cli, tmp_path):
    target = tmp_path / "out.nin"
    status, _, err = run_cli("convert", "-", target, "--from", "sgt", stdin="5x5:3/1.1/4/3/1/2/1.1.1/4/2/2\n")
    assert status == 0, err
    assert target.read_text().startswith("5 5\n2\n1 1 1\n")


def test_convert_with_explicit_formats_and_index(tmp_path, run_cli):
    target = tmp_path / "second.txt"
    status, _, err = run_cli("convert", ORIGINALS / "sgt/game_ids.txt", target, "--index", "2", "--to", "mk")
    assert status == 0, err
    back = clues.load(target, "mk")
    ref = shared_puzzle("sgt-pattern-5x5")
    assert (back.rows, back.cols) == (ref.rows, ref.cols)


def test_convert_notes_a_dropped_solution(tmp_path, run_cli):
    status, _, err = run_cli("convert", ORIGINALS / "non/1.non", tmp_path / "d.nin")
    assert status == 0
    size = (tmp_path / "d.nin").stat().st_size
    assert err == ("nonoqubo: note: the nin format has no place for the known solution; it was left out\n"
                   f"wrote {tmp_path / 'd.nin'} (nin clues, {size:,} bytes)\n")
    assert run_cli("convert", "-q", ORIGINALS / "non/1.non", tmp_path / "e.nin")[2] == ""
    status, _, err = run_cli("convert", ORIGINALS / "non/1.non", tmp_path / "d.pbm")
    assert (status, err) == (0, f"wrote {tmp_path / 'd.pbm'} (pbm clues, {(tmp_path / 'd.pbm').stat().st_size:,} bytes)\n")
    assert clues.load(tmp_path / "d.pbm").solution == clues.load(ORIGINALS / "non/1.non").solution


def test_convert_refuses_what_it_cannot_tell(tmp_path, run_cli):
    status, _, err = run_cli("convert", ORIGINALS / "nin/note.nin", tmp_path / "out.unknown")
    assert status == 2
    assert err == (f"nonoqubo: error: {tmp_path / 'out.unknown'}: the file ending does not tell the format; "
                   f"it needs --to FORMAT (one of: {', '.join(m.NAME for m in clues.formats())})\n")
    status, _, err = run_cli("convert", ORIGINALS / "nin/note.nin", "-")
    assert status == 2 and "writing to standard output needs --to FORMAT" in err
    status, _, err = run_cli("convert", ORIGINALS / "non/1.non", tmp_path / "x.nin", "--index", "2")
    assert status == 2 and "--index applies only to formats that hold several puzzles" in err
    assert not (tmp_path / "x.nin").exists()
    status, _, err = run_cli("convert", ORIGINALS / "nin/note.nin", tmp_path / "x.nin", "--index", "2")
    assert status == 2 and err.endswith("note.nin: the file holds 1 puzzles; --index 2 is out of range 1..1\n")
    assert not (tmp_path / "x.nin").exists()


def test_convert_refuses_colour_puzzles_to_black_and_white_formats(tmp_path, run_cli):
    status, _, err = run_cli("convert", ORIGINALS / "g-colour/oko.g", tmp_path / "oko.non")
    assert status == 2
    assert err == (f"nonoqubo: error: {tmp_path / 'oko.non'}: the non format holds black-and-white puzzles only "
                   "and this puzzle has 2 colours (blue, black); write it as one of: spec, xml, g, picture, ppm, png\n")
    assert not (tmp_path / "oko.non").exists()


@pytest.mark.parametrize("fmt", ["xml", "non"])
def test_structured_metadata_is_written_as_plain_text_never_a_repr(fmt):
    from nonoqubo.model.puzzle import Puzzle

    puzzle = Puzzle(rows=[[1]], cols=[[1]], name="dot",
                    meta={"author": ["Ann", "Bob"], "copyright": {"year": 2004}, "license": "CC0"})
    text = clues.dumps(puzzle, fmt)
    assert "['Ann'" not in text and "{'year'" not in text
    assert "Ann, Bob" in text and '{"year":2004}' in text.replace("&quot;", '"')
    again = clues.loads(text, fmt)
    assert again.meta["author"] == "Ann, Bob"
