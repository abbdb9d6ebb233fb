"""Colour puzzles through the whole pipeline: files in, models out, answers back, errors.

Readers and writers (spec, webpbn XML, Olšák .g, text picture), refusals of
black-and-white-only formats, every QUBO and constrained export round trip
with the palette in its metadata, a real sampler, decode / check / SVG in
colour, and one clear line (exit 2) for every malformed colour file.
"""

from __future__ import annotations

import io
import json
import sys

import jsonschema
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import ROOT, SHARED
from nonoqubo import clues, exports
from nonoqubo.clues import ppm
from nonoqubo.model.build import build
from nonoqubo.logic.check import check, parse_grid
from nonoqubo.model.constrained import build_constrained
from nonoqubo.answers.decode import decode
from nonoqubo.model.encoding import Layout
from nonoqubo.errors import FormatError, PuzzleError
from nonoqubo.model.palette import Palette
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.answers.render import svg_picture, text_picture
from nonoqubo.solvers.sampling import solve

COLOUR_DIR = SHARED / "colour"
ORIGINALS = SHARED / "originals"
COLOUR_FORMATS = [m.NAME for m in clues.formats() if m.COLOUR]
BW_ONLY = [m.NAME for m in clues.formats() if not m.COLOUR]


def colour_puzzle(name: str) -> Puzzle:
    return clues.load(COLOUR_DIR / f"{name}.json")


def small() -> Puzzle:
    """A 5x4 colour puzzle with touching blocks of different colours."""
    return Puzzle.from_picture(["rrg.b", ".gg.b", "r.bbb", "rg..."], palette=Palette.of(["red", "green", "blue"]),
                               name="small")


def same_puzzle(a: Puzzle, b: Puzzle) -> bool:
    return (a.rows, a.cols, a.row_colours, a.col_colours, a.palette.names) == \
        (b.rows, b.cols, b.row_colours, b.col_colours, b.palette.names)


# -- clue formats ------------------------------------------------------------------------------
def test_colour_formats_are_the_expected_ones():
    assert COLOUR_FORMATS == ["spec", "xml", "g", "picture", "ppm", "png"]


@pytest.mark.parametrize("fmt", COLOUR_FORMATS)
@pytest.mark.parametrize("name", ["loom-look-sharp", "olsak-rose", "small"])
def test_colour_round_trip(fmt, name):
    puzzle = small() if name == "small" else colour_puzzle(name)
    mod = clues.get_format(fmt)
    back = mod.loads(clues.dumps(puzzle, fmt))
    if fmt == "picture":  # colours named by their picture characters
        assert (back.rows, back.cols) == (puzzle.rows, puzzle.cols)
        assert back.solution == puzzle.solution
        return
    if fmt in ("ppm", "png"):  # colours named by their RGB, in order of first appearance
        assert (back.rows, back.cols) == (puzzle.rows, puzzle.cols)
        assert np.array_equal(ppm.pixels_of(back, fmt), ppm.pixels_of(puzzle, fmt))
        return
    assert same_puzzle(back, puzzle)
    if mod.SOLUTION:
        assert back.solution == puzzle.solution


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid=st.integers(1, 6).flatmap(lambda h: st.integers(1, 6).flatmap(
    lambda w: st.lists(st.lists(st.integers(0, 3), min_size=w, max_size=w), min_size=h, max_size=h))),
    fmt=st.sampled_from(COLOUR_FORMATS))
def test_random_colour_pictures_survive_every_colour_format(grid, fmt):
    """Touching colours, empty lines, one colour only, no colour at all: every colour format keeps them."""
    puzzle = Puzzle.from_picture(np.array(grid), palette=Palette.of(["red", "green", "blue"]), name="random")
    back = clues.loads(clues.dumps(puzzle, fmt), fmt)
    assert (back.rows, back.cols) == (puzzle.rows, puzzle.cols)
    names = [back.palette.names[c] for clue in back.row_colours for c in clue]
    mapping = dict(zip(names, [puzzle.palette.names[c] for clue in puzzle.row_colours for c in clue]))
    assert len(set(mapping.values())) == len(mapping)  # colours kept apart (renamed at most)
    assert back.solution_grid() is None or back.mismatched_lines(back.solution_grid()) == []


@pytest.mark.parametrize("fmt", BW_ONLY)
def test_black_and_white_formats_refuse_colour(fmt):
    with pytest.raises(PuzzleError, match=rf"the {fmt} format holds black-and-white puzzles only and this "
                                           r"puzzle has 3 colours \(red, green, blue\); write it as one of: "
                                           r"spec, xml, g, picture, ppm, png"):
        clues.dumps(small(), fmt)


def test_a_one_colour_palette_goes_to_black_and_white_formats():
    red = Puzzle([[(2, "red")]], [[(1, "red")], [(1, "red")]], palette=Palette.of([("red", "f00")]))
    assert clues.loads(clues.dumps(red, "non"), "non").rows == ((2,),)


def test_spec_files_validate_against_the_schema():
    schema = json.loads((ROOT / "schemas" / "puzzle.schema.json").read_text())
    for path in sorted(COLOUR_DIR.glob("*.json")):
        jsonschema.validate(json.loads(path.read_text()), schema)
    jsonschema.validate(small().to_dict(), schema)
    compact = {"colours": ["red", {"name": "blue", "rgb": "#00f"}], "rows": ["1r 1blue"], "cols": [[[1, "red"]], "1b"]}
    jsonschema.validate(compact, schema)
    p = clues.loads(json.dumps(compact), "spec")
    assert p.row_colours == ((1, 2),) and p.palette.colours[1].rgb == "0000ff"


def test_xml_reads_and_writes_the_colour_goal():
    p = small()
    text = clues.dumps(p, "xml")
    assert '<count color="green">1</count>' in text and 'defaultcolor="red"' in text
    assert clues.loads(text, "xml").solution == p.solution


def test_xml_goal_in_the_file_s_own_characters():
    """number-loom's palette (background ' ', colours 'a', 'b') in a goal image, as webpbn exports it."""
    known = colour_puzzle("loom-look-sharp")
    text = (ORIGINALS / "webpbn-xml-colour/look_sharp.xml").read_text()
    image = "".join(f"|{row.replace('.', ' ')}|\n" for row in known.solution)  # our chars are the file's a, b
    text = text.replace("</puzzle>", f'<solution type="goal"><image>\n{image}</image></solution>\n</puzzle>')
    p = clues.loads(text, "xml")
    assert p.solution == known.solution and p.is_solution(p.solution_grid())
    broken = text.replace("|" + known.solution[0].replace(".", " ") + "|", "|" + "z" * 15 + "|")
    with pytest.raises(FormatError, match=r":\d+: solution image: 'z' has no colour in the <color> table"):
        clues.loads(broken, "xml")


def test_g_writes_a_colour_section():
    text = clues.dumps(small(), "g")
    assert "#d\n   0:  white  white\n   r:r  red  red\n" in text
    assert "\n2r 1g 1b\n" in text


def test_colour_text_picture():
    p = clues.loads("rrg\n.gg\n", "picture")
    assert p.palette.names == ("white", "r", "g") and p.is_colour
    assert clues.dumps(p, "picture") == "rrg\n.gg\n"


# -- malformed colour files: one line, exit 2 ------------------------------------------------
XML_HEAD = '<?xml version="1.0"?>\n<puzzleset>\n<puzzle>\n'
BAD = [
    ("xml-unknown-colour", "a.xml", XML_HEAD + '<color name="white" char=".">fff</color>\n<color name="red" char="r">f00</color>\n'
     '<clues type="rows">\n<line><count color="blue">1</count></line>\n</clues>\n'
     '<clues type="columns"><line><count color="red">1</count></line></clues></puzzle></puzzleset>', 7,
     "row 1, block 1: colour 'blue' is not a declared <color> (white, red)"),
    ("xml-no-palette", "a.xml", XML_HEAD + '<clues type="rows">\n<line><count color="red">1</count></line>\n</clues>\n'
     '<clues type="columns"><line><count color="red">1</count></line></clues></puzzle></puzzleset>', 5,
     "row 1, block 1: colour 'red' is used but the puzzle declares no <color> palette"),
    ("xml-background", "a.xml", XML_HEAD + '<color name="white" char=".">fff</color>\n<clues type="rows">\n'
     '<line><count color="white">1</count></line>\n</clues>\n</puzzle></puzzleset>', 6,
     "row 1, block 1: the background colour 'white' cannot colour a block"),
    ("g-unknown-letter", "a.g", "#d\n r:r red\n: rows\n1r\n1q\n: columns\n1r\n", 5,
     "row 2: colour letter 'q' is not declared in the #d section"),
    ("g-no-palette", "a.g", "t\n: rows\n1r\n: columns\n1r\n", 3,
     "row 1: colour letter 'r' is used but the file has no #d colour section"),
    ("g-no-default", "a.g", "#d\n r:r red\n: rows\n1\n: columns\n1r\n", 4,
     "row 1: block 1 has no colour letter and the #d section declares no default colour (1)"),
    ("g-background", "a.g", "#d\n w:w white\n r:r red\n: rows\n1w\n: columns\n1r\n", 2,
     "colour 'w' is the background colour 'white'"),
    ("spec-unknown-colour", "a.yaml", "colours: [red]\nrows:\n- [[1, red]]\n- [[1, blue]]\ncols: [[[2, red]]]\n", 4,
     "row 2, block 1: unknown colour 'blue' (the palette has 'red')"),
    ("spec-no-palette", "a.yaml", "rows:\n- [[1, red]]\ncols:\n- [[1, red]]\n", 2,
     "row 1, block 1: colour 'red' is used but the spec has no 'colours' palette"),
    ("spec-background", "a.yaml", "colours: [red]\nrows:\n- [1]\n- '1white'\ncols: ['1 1']\n", 4,
     "row 2, block 1: the background colour 'white' cannot colour a block"),
    ("picture-bad-char", "a.pic", "rg\nr?\n", 2, "'?' is neither black ('#', 'X', 'x', '1'), a colour"),
]
BAD_IMAGES = [
    ("ppm-short", "a.ppm", b"P6\n2 2\n255\n\x00\x00\x00", "the raster has 3 bytes, 2x2 pixels need 12"),
    ("ppm-maxval", "a.ppm", b"P3\n1 1\n15\n16 0 0\n", "a sample exceeds maxval 15"),
    ("ppm-header", "a.ppm", b"P6\n2\n", "the PPM header ends before its height"),
    ("png-broken", "a.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 20, "cannot decode the PNG image"),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_malformed_colour_file_gives_one_line_and_exit_2(case, tmp_path, run_cli):
    _, name, text, line, message = case
    path = tmp_path / name
    path.write_text(text)
    out = tmp_path / "out.qubo.json"
    status, stdout, err = run_cli("build", path, "-o", out, *(["--from", "picture"] if name.endswith(".pic") else []))
    assert status == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"nonoqubo: error: {path}:{line}: "), err
    assert message in err
    assert not out.exists()


@pytest.mark.parametrize("case", BAD_IMAGES, ids=[c[0] for c in BAD_IMAGES])
def test_malformed_image_gives_one_line_and_exit_2(case, tmp_path, run_cli):
    _, name, data, message = case
    path = tmp_path / name
    path.write_bytes(data)
    status, _, err = run_cli("build", path, "-o", tmp_path / "out.qubo.json")
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"nonoqubo: error: {path}: ") and message in err, err


def test_images_black_and_white_and_transparent():
    from PIL import Image

    bw = clues.loads(b"P3\n2 1\n1\n0 0 0 1 1 1\n", "ppm")
    assert bw.palette == Puzzle.from_picture(["#."]).palette and bw.rows == ((1,),)
    rgba = np.zeros((1, 3, 4), np.uint8)
    rgba[0, 0] = (255, 0, 0, 255)  # red, then two transparent pixels (white)
    buf = io.BytesIO()
    Image.fromarray(rgba, "RGBA").save(buf, format="PNG")
    p = clues.loads(buf.getvalue(), "png")
    assert p.palette.names == ("white", "ff0000") and p.solution == ("f..",)


def test_png_without_pillow_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(ImportError, match=r'pip install "nonoqubo\[image\]"'):
        clues.dumps(small(), "png")


# -- exports ---------------------------------------------------------------------------------
@pytest.mark.parametrize("mod", exports.formats("qubo"), ids=lambda m: m.NAME)
def test_every_qubo_export_carries_the_palette(mod, tmp_path):
    puzzle = colour_puzzle("loom-missing")
    q = build(puzzle)
    path = tmp_path / f"m.{mod.EXTENSIONS[0]}"
    exports.dump(q, path, mod.NAME)
    back = exports.load(path)
    assert same_puzzle(back.puzzle, puzzle)
    assert back.labels == q.labels and back.offset == q.offset
    x = Layout.of(puzzle).encode(puzzle.solution_grid())
    assert int(back.energy(x)[0]) == 0
    report = decode(back, x)[0]
    assert report.valid and report.picture == puzzle.solution


@pytest.mark.parametrize("mod", exports.formats("constrained"), ids=lambda m: m.NAME)
def test_every_constrained_export_carries_the_palette(mod, tmp_path):
    puzzle = colour_puzzle("loom-look-sharp")
    m = build_constrained(puzzle)
    assert 0 < m.counts()["cell"] <= puzzle.width * puzzle.height * 2  # rows that always hold are left out
    path = tmp_path / f"m.{mod.EXTENSIONS[0]}"
    exports.dump(m, path, mod.NAME)
    back = exports.load(path)
    assert same_puzzle(back.puzzle, puzzle) and back.same_model(m)
    x = Layout.of(puzzle).encode(puzzle.solution_grid())
    assert back.constraint_violations(x) == [[]]
    assert "cell_0_0_c1" in back.names


def test_constrained_rows_hold_exactly_when_the_qubo_is_zero():
    puzzle = small()
    q, m = build(puzzle), build_constrained(puzzle)
    rng = np.random.default_rng(3)
    x = rng.integers(0, 2, (300, q.num_vars)).astype(np.int8)
    x[0] = Layout.of(puzzle).encode(puzzle.solution_grid())
    zero = q.energy(x) == 0
    feasible = np.array([not v for v in m.constraint_violations(x)])
    assert zero[0] and np.array_equal(zero, feasible)


# -- answers back ----------------------------------------------------------------------------
def test_simulated_annealing_solves_a_colour_puzzle():
    result = solve(small(), "sa", reads=10, seed=5, sweeps=2000)
    assert result.best.valid and result.best.picture == small().solution


def test_decode_names_colours_and_penalties_add_up():
    puzzle = colour_puzzle("loom-look-sharp")
    q = build(puzzle)
    rng = np.random.default_rng(11)
    x = np.tile(Layout.of(puzzle).encode(puzzle.solution_grid()), (40, 1))
    flips = rng.integers(0, q.num_vars, (40, 3))
    np.bitwise_xor.at(x, (np.arange(40)[:, None], flips), 1)
    energy = q.energy(x)
    reports = decode(puzzle, x)
    assert [r.energy for r in reports] == energy.tolist()
    assert all(r.penalty_total == r.energy for r in reports)
    conflict = next(c for r in reports for c in r.cell_conflicts)
    assert conflict.colour in puzzle.palette.names[1:]
    assert f", {conflict.colour}: row says" in str(conflict)
    wall = next(w for r in reports for w in r.broken_walls)
    assert len(wall.colours) == 1 and f"block {wall.block} ({wall.colours[0]})" in str(wall)
    order = next(o for r in reports for o in r.order_violations)
    assert len(order.colours) == 2 and f"and {order.block + 1} ({order.colours[1]})" in str(order)
    failing = next(f for r in reports for f in r.failing_lines)
    assert failing.clue_colours and all(n in puzzle.palette.names for n in failing.clue_colours)
    schema = json.loads((ROOT / "schemas" / "report.schema.json").read_text())
    for r in reports[:5]:
        jsonschema.validate(r.to_dict(), schema["$defs"]["sample"] | {"$defs": schema["$defs"]})


def test_check_and_pictures_in_colour(tmp_path):
    puzzle = small()
    grid = parse_grid("\n".join(puzzle.solution), palette=puzzle.palette)
    assert check(puzzle, grid).valid
    wrong = grid.copy()
    wrong[0, 0] = 2  # red -> green
    result = check(puzzle, wrong)
    assert not result.valid and str(result.failures[0]) == "row 1: clue 2red 1green 1blue, picture has 1green 1red 1green 1blue"
    assert text_picture(wrong, palette=puzzle.palette)[0] == "grg.b"
    svg = svg_picture(puzzle, wrong, failing_rows=[0])
    assert 'fill="#ff0000"' in svg.lower() or 'fill="red"' in svg


def test_cli_solve_check_and_image_in_colour(tmp_path, run_cli):
    spec = tmp_path / "small.yaml"
    clues.dump(small(), spec)
    status, out, err = run_cli("solve", spec, "--reads", "10", "--seed", "5", "--sweeps", "2000",
                               "--image", tmp_path / "s.svg")
    assert status == 0, err
    assert "rrg.b" in out
    grid = tmp_path / "g.txt"
    grid.write_text("\n".join(small().solution) + "\n")
    status, out, _ = run_cli("check", spec, grid)
    assert status == 0 and out.startswith("VALID")
    assert "<svg" in (tmp_path / "s.svg").read_text()
