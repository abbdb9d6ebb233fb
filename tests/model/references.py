"""Independent constructions of both encodings' penalty families, with dimod's symbolic arithmetic.

Nothing here calls nonoqubo's builders or geometries: the lines, blocks, left-aligned starts (with
the colour model's gap rule: one empty cell between consecutive blocks of one colour, none
between blocks of different colours), margins and labels are worked out from the clues, and the
penalties are expanded by ``dimod.Binary`` arithmetic.  Each function returns the three families
``{"shape": bqm, "order": bqm, "cell": bqm}``; the model is their weighted sum.
"""

from __future__ import annotations

import itertools
from typing import Any

import dimod

from nonoqubo.model.automaton import line_automaton
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


def layered(n: int, lengths, colours, num_colours: int) -> tuple[list[list[int]], dict[int, int], object]:
    """The possible states of every cell (reachable from the start, co-reachable to an accept), and each
    state's entry symbol."""
    dfa = line_automaton(lengths, colours, num_colours)
    step = {(q, s): r for q, s, r in dfa.transitions}
    symbol: dict[int, int] = {}
    for _, s, r in dfa.transitions:
        assert symbol.setdefault(r, s) == s  # every state is entered on one symbol only
    forward, states = [], {dfa.start}
    for _ in range(n):
        states = {step[q, s] for q in states for s in range(dfa.symbols) if (q, s) in step}
        forward.append(states)
    backward, states = [None] * n, set(dfa.finals)
    for j in range(n - 1, -1, -1):
        backward[j] = states
        states = {q for q in range(1, dfa.states + 1) for s in range(dfa.symbols) if step.get((q, s)) in states}
    return [sorted(f & b) for f, b in zip(forward, backward)], symbol, dfa


def automaton_families(puzzle: Puzzle) -> tuple[list[str], dict[str, dimod.BinaryQuadraticModel]]:
    """Labels and the line-automaton families, from the layered graph of each clue's automaton
    (:func:`nonoqubo.model.automaton.line_automaton`, worked out state by state, nothing of the geometry)."""
    labels: list[str] = []
    shape, order = dimod.BinaryQuadraticModel("BINARY"), dimod.BinaryQuadraticModel("BINARY")
    coverage: dict[tuple[int, int, int], list] = {}  # (i, j, colour) -> [row form, column form]
    for is_row, cl, cc, n, letter in ((True, puzzle.rows, puzzle.row_colours, puzzle.width, "a"),
                                      (False, puzzle.cols, puzzle.col_colours, puzzle.height, "b")):
        for index, (lengths, colours) in enumerate(zip(cl, cc)):
            possible, symbol, dfa = layered(n, lengths, colours, puzzle.num_colours)
            table = dfa.table()
            constant = all(len(p) == 1 for p in possible)
            names = [{q: f"{letter}{index}[{j}][{q}]" for q in p} for j, p in enumerate(possible)]
            for j, p in enumerate(possible):
                cell = (index, j) if is_row else (j, index)
                for q in p:
                    term = 1 if constant else dimod.Binary(names[j][q])
                    if symbol[q]:
                        slot = coverage.setdefault((*cell, symbol[q]), [0, 0])
                        slot[0 if is_row else 1] += term
                if constant:
                    continue
                labels.extend(names[j][q] for q in p)
                shape += (1 - sum(dimod.Binary(names[j][q]) for q in p)) ** 2
                if j + 1 < n:
                    for q, q2 in itertools.product(p, possible[j + 1]):
                        if table[q - 1][symbol[q2]] != q2:
                            order += dimod.Binary(names[j][q]) * dimod.Binary(names[j + 1][q2])
    cell = dimod.BinaryQuadraticModel("BINARY")
    for row_form, col_form in coverage.values():
        cell += (row_form - col_form) ** 2
    for v in labels:
        shape.add_variable(v, 0)
    return labels, {"shape": shape, "order": order, "cell": cell}


FAMILIES = {"domain-wall": domain_wall_families, "one-hot": onehot_families, "automaton": automaton_families}


def weighted(families: dict[str, dimod.BinaryQuadraticModel], weights: tuple[int, int, int]) -> dimod.BinaryQuadraticModel:
    """``A * shape + B * order + C * cell``."""
    a, b, c = weights
    return a * families["shape"] + b * families["order"] + c * families["cell"]
