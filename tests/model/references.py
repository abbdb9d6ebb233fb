"""Independent constructions of both encodings' penalty families, with dimod's symbolic arithmetic.

Nothing here calls nonoqubo's builders or geometries: the lines, blocks, left-aligned starts (with
the colour model's gap rule: one empty cell between consecutive blocks of one colour, none
between blocks of different colours), margins and labels are worked out from the clues, and the
penalties are expanded by ``dimod.Binary`` arithmetic.  Each function returns the three families
``{"shape": bqm, "order": bqm, "cell": bqm}``; the model is their weighted sum.
"""

from __future__ import annotations

from typing import Any

import dimod

from nonoqubo.model.puzzle import Puzzle


def lines(puzzle: Puzzle) -> list[dict[str, Any]]:
    """Every line: its letter index, whether a row, its length and its blocks ``(start, length, colour)``."""
    out = []
    for is_row, clues, colours, length in ((True, puzzle.rows, puzzle.row_colours, puzzle.width),
                                           (False, puzzle.cols, puzzle.col_colours, puzzle.height)):
        for index, (clue, cols) in enumerate(zip(clues, colours)):
            blocks, pos = [], 0
            for k, (r, c) in enumerate(zip(clue, cols)):
                if k and cols[k - 1] == c:
                    pos += 1  # the gap between blocks of one colour
                blocks.append((pos, r, c))
                pos += r
            margin = length - pos if blocks else 0
            out.append({"row": is_row, "index": index, "blocks": blocks, "margin": margin})
    return out


def cell_of(line: dict[str, Any], pos: int) -> tuple[int, int]:
    return (line["index"], pos) if line["row"] else (pos, line["index"])


def _cells(puzzle: Puzzle, coverage: dict) -> dimod.BinaryQuadraticModel:
    """``sum over cells and colours (row coverage - column coverage)^2``."""
    bqm = dimod.BinaryQuadraticModel("BINARY")
    for (i, j, c), (row, col) in coverage.items():
        diff = row - col
        bqm += diff * diff
    return bqm


def _cover(coverage: dict, cell: tuple[int, int], colour: int, is_row: bool, term: Any) -> None:
    entry = coverage.setdefault((*cell, colour), [0, 0])
    entry[0 if is_row else 1] = entry[0 if is_row else 1] + term


def onehot_families(puzzle: Puzzle) -> tuple[list[str], dict[str, dimod.BinaryQuadraticModel]]:
    """Labels (in the issue's order) and the one-hot families, built from the clues."""
    labels: list[str] = []
    shape = dimod.BinaryQuadraticModel("BINARY")
    order = dimod.BinaryQuadraticModel("BINARY")
    coverage: dict = {}
    for line in lines(puzzle):
        d = line["margin"]
        letter = "r" if line["row"] else "c"
        names = [[f"{letter}{line['index']}[{k}][{s}]" for s in range(d + 1)] if d else []
                 for k in range(len(line["blocks"]))]
        for k, (e, r, c) in enumerate(line["blocks"]):
            labels.extend(names[k])
            x = [dimod.Binary(v) for v in names[k]]
            if d:
                one = 1 - sum(x)
                shape += one * one
                if k + 1 < len(line["blocks"]):
                    nxt = [dimod.Binary(v) for v in names[k + 1]]
                    for s in range(d + 1):
                        for s2 in range(s):
                            order += x[s] * nxt[s2]
            for s in range(d + 1):
                for t in range(r):
                    _cover(coverage, cell_of(line, e + s + t), c, line["row"], x[s] if d else 1)
    for v in labels:
        shape.add_variable(v, 0)
    return labels, {"shape": shape, "order": order, "cell": _cells(puzzle, coverage)}


def domain_wall_families(puzzle: Puzzle) -> tuple[list[str], dict[str, dimod.BinaryQuadraticModel]]:
    """Labels and the domain-wall families (QUBO++'s model), built from the clues."""
    labels: list[str] = []
    shape = dimod.BinaryQuadraticModel("BINARY")
    order = dimod.BinaryQuadraticModel("BINARY")
    coverage: dict = {}
    for line in lines(puzzle):
        d = line["margin"]
        letter = "y" if line["row"] else "z"
        names = [[f"{letter}{line['index']}[{k}][{p}]" for p in range(d)] for k in range(len(line["blocks"]))]
        for k, (e, r, c) in enumerate(line["blocks"]):
            labels.extend(names[k])
            w = [dimod.Binary(v) for v in names[k]]
            for p in range(d - 1):
                shape += (1 - w[p]) * w[p + 1]
            if k + 1 < len(line["blocks"]):
                for p in range(d):
                    order += w[p] * (1 - dimod.Binary(names[k + 1][p]))
            # block k covers e + shift .. e + shift + r - 1; shift = sum_p w[p], so cell j is covered by
            # [j >= e + shift] - [j >= e + r + shift] = 1{j in aligned} + w[j - e - r] - w[j - e]
            for j in range(e, e + r + d):
                term: Any = 1 if e <= j < e + r else 0
                if 0 <= j - e - r < d:
                    term = term + w[j - e - r]
                if 0 <= j - e < d:
                    term = term - w[j - e]
                _cover(coverage, cell_of(line, j), c, line["row"], term)
    for v in labels:
        shape.add_variable(v, 0)
    return labels, {"shape": shape, "order": order, "cell": _cells(puzzle, coverage)}


FAMILIES = {"domain-wall": domain_wall_families, "one-hot": onehot_families}


def weighted(families: dict[str, dimod.BinaryQuadraticModel], weights: tuple[int, int, int]) -> dimod.BinaryQuadraticModel:
    """``A * shape + B * order + C * cell``."""
    a, b, c = weights
    return a * families["shape"] + b * families["order"] + c * families["cell"]
