"""Text and SVG pictures: marks, size, key, title and description, contrast (parsed from the SVG itself)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from defusedxml import ElementTree

from nonoqubo.answers.decode import decode
from nonoqubo.answers.render import CELL, WRONG, column_values, svg_picture, text_picture
from nonoqubo.model.encoding import Layout
from nonoqubo.model.palette import Palette
from nonoqubo.model.puzzle import Puzzle
from tests.support.wcag import contrast

SVG = "{http://www.w3.org/2000/svg}"

BW_PUZZLE = Puzzle.from_picture(["#....", "..##.", ".#.#.", "###..", "....#"], name="five")
#: the rows' view: rows 1 and 4 moved along their line (their clues still hold), the columns as solved
BW_ROWS = [".#...", "..##.", ".#.#.", ".###.", "....#"]

def colour_puzzle() -> Puzzle:
    """A 5x4 colour puzzle with a light colour (yellow: black text on it) and dark ones (white text)."""
    return Puzzle.from_picture(["rry.n", ".yy.n", "r.nnn", "ry..."],
                               palette=Palette.of(["red", "yellow", ("navy", "000080")]), name="small")


COLOUR_ROWS = ["rry.n", "yy..n", "r.nnn", "..ry."]


def split_views(puzzle: Puzzle, rows_picture: list[str]):
    """A sample whose rows say *rows_picture* and whose columns say the solution (both with intact walls)."""
    layout = Layout.of(puzzle)
    solution, moved, h = puzzle.solution_grid(), puzzle.palette.grid(rows_picture), puzzle.height
    shifts = np.zeros(layout.num_blocks, np.int64)
    for line in range(layout.num_lines):
        cells = moved[line] if line < h else solution[:, line - h]
        starts = [k for k in range(len(cells)) if cells[k] and (k == 0 or cells[k - 1] != cells[k])]
        lo, hi = int(layout.line_first_block[line]), int(layout.line_first_block[line + 1])
        shifts[lo:hi] = np.array(starts, np.int64) - layout.block_start[lo:hi]
    return decode(puzzle, (layout.var_p < shifts[layout.var_block]).astype(np.int8))[0]


def draw(puzzle: Puzzle, report, title: str | None = "INVALID") -> str:
    h = puzzle.height
    return svg_picture(puzzle, report.grid, conflicts=report.conflicts,
                       failing_rows=[t for t in report.failing_line_index if t < h],
                       failing_cols=[t - h for t in report.failing_line_index if t >= h],
                       title=title, column_grid=column_values(report))


# -- a painter that finds what each text or mark lies on (the contrast: tests.support.wcag) -------
def elements(svg: str) -> list:
    """Every drawn element in paint order."""
    return [e for e in ElementTree.fromstring(svg).iter() if e.tag[len(SVG):] in ("rect", "text", "line", "polygon")]


def painted(items: list, upto: int, x: float, y: float) -> str:
    """The colour at (x, y) after painting *items[:upto]* (rect fills and rect strokes; lines and text are thin)."""
    colour = "#ffffff"
    for e in items[:upto]:
        if e.tag != f"{SVG}rect":
            continue
        x0, y0, w, h = (float(e.get(k)) for k in ("x", "y", "width", "height"))
        fill = e.get("fill")
        if fill and fill != "none" and x0 <= x <= x0 + w and y0 <= y <= y0 + h:
            colour = fill
        sw = float(e.get("stroke-width") or 0)
        if e.get("stroke") and sw >= 2:  # a casing or ring wide enough to be a backdrop
            inside_outer = x0 - sw / 2 <= x <= x0 + w + sw / 2 and y0 - sw / 2 <= y <= y0 + h + sw / 2
            inside_inner = x0 + sw / 2 < x < x0 + w - sw / 2 and y0 + sw / 2 < y < y0 + h - sw / 2
            if inside_outer and not inside_inner:
                colour = e.get("stroke")
    return colour


def pairs(svg: str) -> list[tuple[str, str, str]]:
    """(what, colour, the colour under it) for every text, and every mark's stroke or fill."""
    items = elements(svg)
    out = []
    for k, e in enumerate(items):
        tag = e.tag[len(SVG):]
        cls = e.get("class") or ""
        if tag == "text":
            x, y = float(e.get("x")), float(e.get("y"))
            anchor = e.get("text-anchor") or "start"
            x += {"start": 2, "middle": 0, "end": -2}[anchor]
            out.append((f"text {e.text!r}", e.get("fill"), painted(items, k, x, y - 3)))
        elif "mark" in cls.split():
            if tag == "rect":
                x0, y0, w = float(e.get("x")), float(e.get("y")), float(e.get("width"))
                out.append((cls, e.get("stroke"), painted(items, k, x0 + w / 2, y0)))
            elif tag == "line":
                x, y = (float(e.get("x1")) + float(e.get("x2"))) / 2, float(e.get("y1"))
                out.append((cls, e.get("stroke"), painted(items, k, x, y)))
            else:
                pts = [tuple(map(float, p.split(","))) for p in e.get("points").split()]
                cx, cy = sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3
                out.append((cls, e.get("fill"), painted(items, k, cx, cy)))
    return out


def size(svg: str) -> tuple[float, float]:
    root = ElementTree.fromstring(svg)
    return float(root.get("width")), float(root.get("height"))


# -- text ------------------------------------------------------------------------------------
def test_text_picture_marks():
    grid = np.array([[1, 0, 1], [0, 0, 1]], bool)
    conflicts = np.array([[1, 1, 0], [0, 0, 0]], bool)
    assert text_picture(grid) == ["#.#", "..#"]
    assert text_picture(grid, conflicts=conflicts, failing_rows=[1], failing_cols=[0, 2]) == [
        "Xo#", "..#  <", "^ ^",
    ]


# -- SVG -------------------------------------------------------------------------------------
def test_svg_is_well_formed_with_title_desc_and_marks(logo):
    x = Layout.of(logo).encode(logo.solution_grid())
    x[[10, 20, 300]] ^= 1
    report = decode(logo, x)[0]
    svg = draw(logo, report, "logo: INVALID")
    root = ElementTree.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    first = [e.tag[len(SVG):] for e in root][:2]
    assert first == ["title", "desc"]
    assert root.find(f"{SVG}title").text == "logo: INVALID"
    desc = root.find(f"{SVG}desc").text
    assert f"{int(report.conflicts.sum())} cells where the row and the column disagree" in desc
    assert "15 rows by 15 columns" in desc
    conflicts = root.findall(f"{SVG}g[@class='conflict']")  # the grid's (the key has one more)
    assert len(conflicts) == int(report.conflicts.sum())
    triangles = [e for e in root.iter(f"{SVG}polygon") if "failing" in (e.get("class") or "")]
    assert len(triangles) == len(report.failing_lines) + 1  # one per failing line, one in the key
    bold = [t for t in root.iter(f"{SVG}text") if t.get("font-weight") == "bold" and t.get("class") != "caption"]
    failing_numbers = sum(max(1, len(logo.cols[t - 15])) if t >= 15 else 1 for t in report.failing_line_index)
    assert len(bold) == failing_numbers + 1  # the failing clues, and the key's heading


@pytest.mark.parametrize("puzzle, rows", [(BW_PUZZLE, BW_ROWS), (colour_puzzle(), COLOUR_ROWS)],
                         ids=["black-and-white", "colour"])
def test_conflict_cells_show_the_rows_value_as_fill_and_the_columns_as_a_square(puzzle, rows):
    report = split_views(puzzle, rows)
    row_view, col_view = puzzle.palette.grid(rows), puzzle.solution_grid().astype(np.int64)
    assert report.grid.tolist() == row_view.tolist()
    expected = row_view != col_view
    assert report.conflicts.tolist() == expected.tolist() and expected.any()
    svg = draw(puzzle, report)
    root = ElementTree.fromstring(svg)
    fills = {}
    cells = root.find(f".//{SVG}g[@class='cells']")
    for r in cells:
        fills[(float(r.get("x")), float(r.get("y")))] = r.get("fill")
    x0 = min(x for x, _ in fills)
    y0 = min(y for _, y in fills)
    colour_of = {}  # colour index -> the fill the key shows beside its name (or "filled"/"empty")
    key = root.find(f".//{SVG}g[@class='key']")
    key_items = list(key)
    for k, e in enumerate(key_items):
        if e.tag == f"{SVG}text" and k > 0 and key_items[k - 1].tag == f"{SVG}rect":
            name = e.text.replace(" (background)", "")
            index = 1 if name == "filled cell" else 0 if name == "empty cell" else puzzle.palette.names.index(name)
            colour_of[index] = key_items[k - 1].get("fill")
    assert set(colour_of) == set(range(len(puzzle.palette)))
    seen = set()
    for group in root.findall(f"{SVG}g[@class='conflict']"):
        ring = next(e for e in group if e.get("class") == "mark ring")
        square = next(e for e in group if e.get("class") == "mark column-value")
        j = int((float(ring.get("x")) - x0) // CELL)
        i = int((float(ring.get("y")) - y0) // CELL)
        seen.add((i, j))
        assert fills[(x0 + j * CELL, y0 + i * CELL)] == colour_of[int(row_view[i, j])], (i, j)
        assert square.get("fill") == colour_of[int(col_view[i, j])], (i, j)
    assert seen == {(int(i), int(j)) for i, j in zip(*np.nonzero(expected))}
    texts = " ".join(t.text for t in key.iter(f"{SVG}text"))
    assert "row's value" in texts and "column's" in texts and "does not match its clue" in texts


def test_width_follows_the_grid_and_the_clues_only():
    base = ["#." * 8 + "#", "#" * 17, "." * 17]
    wide = [row + "#...#" if k < 2 else row + "....." for k, row in enumerate(base)]
    a, b = Puzzle.from_picture(base), Puzzle.from_picture(wide)
    assert max(len(" ".join(map(str, r))) for r in a.rows) < max(len(" ".join(map(str, r))) for r in b.rows)
    wa, ha = size(svg_picture(a, a.solution_grid()))
    # neither the title, nor conflicts, nor failing lines change the width
    g = a.solution_grid().copy()
    g[0, 0] ^= 1
    marked = svg_picture(a, g, conflicts=g != a.solution_grid(), failing_rows=[0], failing_cols=[0],
                         title="a very long caption " * 10)
    assert size(marked)[0] == wa
    # a longer clue widens by its text; five more columns widen by five cells
    wb, _ = size(svg_picture(b, b.solution_grid()))
    assert wb > wa + 5 * CELL
    same_clues = Puzzle.from_picture([row + "....." for row in base])
    assert size(svg_picture(same_clues, same_clues.solution_grid()))[0] == wa + 5 * CELL
    # five more empty rows (clue "0") add five cells of height and nothing to the width
    taller = Puzzle.from_picture(base + ["." * 17] * 5)
    wt, ht = size(svg_picture(taller, taller.solution_grid()))
    assert (wt, ht) == (wa, ha + 5 * CELL)


def test_the_logo_canvas_fits_its_grid(logo):
    width, _ = size(svg_picture(logo, logo.solution_grid(), title="QUBO++ logo: INVALID, energy 12 = 4 (broken walls) "
                                                                 "+ 0 (block order) + 8 (cells)"))
    longest = max(len(" ".join(map(str, r))) for r in logo.rows)
    assert width <= 15 * CELL + longest * 11 * 0.62 * 1.08 + 40  # clues + grid + margins: no 759 px canvas


@pytest.mark.parametrize("puzzle, rows", [(BW_PUZZLE, BW_ROWS), (colour_puzzle(), COLOUR_ROWS)],
                         ids=["black-and-white", "colour"])
def test_every_text_and_mark_contrasts_at_least_4_5_to_1(puzzle, rows):
    report = split_views(puzzle, rows)
    assert report.failing_lines and report.conflicts.any()
    for svg in (draw(puzzle, report), svg_picture(puzzle, puzzle.solution_grid(), title="VALID")):
        found = pairs(svg)
        kinds = {what.split()[0] if what.startswith("text") else what for what, _, _ in found}
        assert "text" in kinds
        for what, ink, under in found:
            assert re.fullmatch(r"#[0-9a-f]{6}", ink) and re.fullmatch(r"#[0-9a-f]{6}", under), (what, ink, under)
            assert contrast(ink, under) >= 4.5, (what, ink, under, round(contrast(ink, under), 2))
    kinds = {what for what, _, _ in pairs(draw(puzzle, report))}
    assert {"mark ring", "mark column-value", "mark failing", "mark underline"} <= kinds


def test_colour_clues_keep_their_colours_when_failing():
    puzzle = colour_puzzle()
    report = split_views(puzzle, COLOUR_ROWS)
    root = ElementTree.fromstring(draw(puzzle, report))
    chips = [e.get("fill") for e in root.iter(f"{SVG}rect") if e.get("class") == "chip"]
    clue_numbers = sum(len(c) for c in puzzle.rows) + sum(len(c) for c in puzzle.cols)
    assert len(chips) == clue_numbers  # every clue number on a chip of its colour, failing ones too
    assert set(chips) == {"#ff0000", "#ffff00", "#000080"}
    assert WRONG not in chips


def test_a_solution_has_no_marks_and_its_key_only_the_colours(logo):
    svg = svg_picture(logo, logo.solution_grid(), title="ok")
    assert WRONG not in svg
    root = ElementTree.fromstring(svg)
    assert not root.findall(f".//{SVG}g[@class='conflict']")
    key = " ".join(t.text for t in root.find(f".//{SVG}g[@class='key']").iter(f"{SVG}text"))
    assert key == "Key filled cell empty cell"
    assert "Every line matches its clue" in root.find(f"{SVG}desc").text


def test_decode_image_from_the_command_line(run_cli, tmp_path, logo):
    from tests.support import SHARED

    x = Layout.of(logo).encode(logo.solution_grid())
    x[[10, 20, 300]] ^= 1
    samples = tmp_path / "s.txt"
    samples.write_text("".join(map(str, x)) + "\n")
    image = tmp_path / "logo.svg"
    status, _, err = run_cli("decode", SHARED / "json" / "qbpp-logo.json", samples, "--image", image)
    assert status == 1, err
    root = ElementTree.fromstring(image.read_text())
    assert root.find(f"{SVG}title").text.startswith(f"{logo.name}: INVALID")
    assert len(root.findall(f"{SVG}g[@class='conflict']")) == int(decode(logo, x)[0].conflicts.sum())
    assert all(sq.get("fill") for sq in root.iter(f"{SVG}rect") if sq.get("class") == "mark column-value")
