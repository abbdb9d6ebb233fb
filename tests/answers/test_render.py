"""Text and SVG pictures."""

from __future__ import annotations

import numpy as np
from defusedxml import ElementTree

from nonoqubo.answers.decode import decode
from nonoqubo.model.encoding import Layout
from nonoqubo.answers.render import WRONG, svg_picture, text_picture

SVG = "{http://www.w3.org/2000/svg}"


def test_text_picture_marks():
    grid = np.array([[1, 0, 1], [0, 0, 1]], bool)
    conflicts = np.array([[1, 1, 0], [0, 0, 0]], bool)
    assert text_picture(grid) == ["#.#", "..#"]
    assert text_picture(grid, conflicts=conflicts, failing_rows=[1], failing_cols=[0, 2]) == [
        "Xo#", "..#  <", "^ ^",
    ]


def test_svg_is_well_formed_and_marks_what_is_wrong(logo):
    x = Layout.of(logo).encode(logo.solution_grid())
    x[[10, 20, 300]] ^= 1
    report = decode(logo, x)[0]
    h = logo.height
    svg = svg_picture(logo, report.grid, conflicts=report.conflicts,
                      failing_rows=[t for t in report.failing_line_index if t < h],
                      failing_cols=[t - h for t in report.failing_line_index if t >= h],
                      title="invalid")
    root = ElementTree.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    texts = [t for t in root.iter(f"{SVG}text")]
    # one text per row clue, one per column clue number, plus the title
    assert len(texts) == h + sum(max(len(c), 1) for c in logo.cols) + 1
    red_texts = [t for t in texts if t.get("fill") == WRONG]
    assert len(red_texts) >= len(report.failing_lines)
    black_cells = [r for r in root.iter(f"{SVG}rect") if r.get("fill") in ("#222222", WRONG) and r.get("width") == "18"]
    assert len(black_cells) == int(report.grid.sum())
    red_cells = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == WRONG or r.get("stroke") == WRONG]
    assert len(red_cells) == int(report.conflicts.sum())


def test_svg_of_a_solution_has_no_red(logo):
    svg = svg_picture(logo, logo.solution_grid(), title="ok")
    assert WRONG not in svg
    ElementTree.fromstring(svg)
