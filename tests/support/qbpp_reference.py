"""The QUBO++ case study's model, built by pyqbpp itself: the independent reference.

Run as a script, one puzzle per process (pyqbpp's unlicensed limit of 100
variables counts cumulatively per process, and past it the interpreter aborts):

    echo '{"rows": [[1]], "cols": [[1]]}' | python tests/support/qbpp_reference.py
    echo '{"rows": [[[1, "r"]]], "cols": [[[1, "r"]]]}' | python tests/support/qbpp_reference.py

A clue is a list of block lengths (black and white) or of ``[length, colour]``
blocks (colour, issue 14); a plain length is a block of the one colour
"black".  It prints the expanded, binary-simplified expression as JSON:
``{"constant": c, "terms": [[coeff, [label, ...]], ...]}``.

The model follows the case study, generalised to colours from the issue text
and nothing of nonoqubo's code (with one colour it is the case study's, term
for term: every gap is 1 and there is one cell constraint per cell): leftmost starts
``e_0 = 0``, ``e_k = e_{k-1} + r_{k-1} + g_k`` (``g_k = 1`` when ``c_k = c_{k-1}``,
else 0), margin ``d = n - (e_{m-1} + r_{m-1})``; per line a domain-wall array
``y{i}`` / ``z{j}`` of shape (blocks, d); wall shape and block order as
``qbpp.cons`` penalties; for every cell and every colour ``c`` used anywhere,
``qbpp.cons(R_c - C_c == 0)`` with ``R_c`` the row's coverage of the cell by its
blocks of colour ``c``; then ``qbpp.expand_cons`` and ``simplify_as_binary``.
"""

from __future__ import annotations

import json
import sys


def reference(rows: list[list], cols: list[list]) -> dict:
    import pyqbpp as qbpp

    def blocks(clue: list) -> list[list]:
        return [list(b) if isinstance(b, list) else [b, "black"] for b in clue if b != 0]

    rows, cols = [blocks(c) for c in rows], [blocks(c) for c in cols]
    height, width = len(rows), len(cols)
    colours = sorted({c for clue in rows + cols for _, c in clue})

    def line_model(name: str, clue: list[list], n: int):
        """(penalty, {colour: coverage(j) for each cell}) of one line."""
        m = len(clue)
        starts = []
        e = 0
        for k, (r, c) in enumerate(clue):
            if k:
                e += clue[k - 1][0] + (1 if c == clue[k - 1][1] else 0)
            starts.append(e)
        d = n - (starts[-1] + clue[-1][0]) if m else 0
        w = qbpp.var(name, shape=(m, d)) if m and d > 0 else None

        def strip(k: int, q: int):
            if q < 0:
                return 1
            if q >= d:
                return 0
            return w[k][q]

        penalty = 0
        for k in range(m):
            for p in range(d - 1):
                penalty = penalty + qbpp.cons((1 - w[k][p]) * w[k][p + 1])
        for k in range(m - 1):
            for p in range(d):
                penalty = penalty + qbpp.cons(w[k][p] * (1 - w[k + 1][p]))
        cover = {}
        for colour in colours:
            cells = []
            for j in range(n):
                value = 0
                for k, (r, c) in enumerate(clue):
                    if c == colour:
                        value = value + strip(k, j - starts[k] - r) - strip(k, j - starts[k])
                cells.append(value)
            cover[colour] = cells
        return penalty, cover

    f = 0
    row_cover = []
    for i, clue in enumerate(rows):
        pen, cover = line_model(f"y{i}", clue, width)
        f = f + pen
        row_cover.append(cover)
    col_cover = []
    for j, clue in enumerate(cols):
        pen, cover = line_model(f"z{j}", clue, height)
        f = f + pen
        col_cover.append(cover)
    for i in range(height):
        for j in range(width):
            for colour in colours:
                diff = row_cover[i][colour][j] - col_cover[j][colour][i]
                f = f + qbpp.cons(qbpp.Expr(diff) == 0)
    g = qbpp.expand_cons(qbpp.Expr(f))
    g = qbpp.simplify_as_binary(g)
    terms = []
    for t in range(g.term_count()):
        term = g.term(t)
        terms.append([int(term.coeff), [str(term.var(v)) for v in range(term.degree)]])
    return {"constant": int(g.constant), "terms": terms}


if __name__ == "__main__":
    doc = json.load(sys.stdin)
    json.dump(reference(doc["rows"], doc["cols"]), sys.stdout)
