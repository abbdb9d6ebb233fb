"""The QUBO++ case study's model, built by pyqbpp itself: the independent reference.

Run as a script, one puzzle per process (pyqbpp's unlicensed limit of 100
variables counts cumulatively per process, and past it the interpreter aborts):

    echo '{"rows": [[1]], "cols": [[1]]}' | python tests/qbpp_reference.py

It prints the expanded, binary-simplified expression as JSON:
``{"constant": c, "terms": [[coeff, [label, ...]], ...]}``.

The model follows the case study: per line, a domain-wall variable array
``y{i}`` / ``z{j}`` of shape (blocks, margin); wall shape and block order as
``qbpp.cons`` penalties; one ``qbpp.cons(row colour - column colour == 0)`` per
cell; then ``qbpp.expand_cons`` and ``simplify_as_binary``.
"""

from __future__ import annotations

import json
import sys


def reference(rows: list[list[int]], cols: list[list[int]]) -> dict:
    import pyqbpp as qbpp

    height, width = len(rows), len(cols)

    def line_model(name: str, clue: list[int], n: int):
        """(penalty, colour(j) for each cell) of one line."""
        m = len(clue)
        d = n - sum(clue) - (m - 1) if m else 0
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
        starts = []
        e = 0
        for r in clue:
            starts.append(e)
            e += r + 1
        colours = []
        for j in range(n):
            colour = 0
            for k in range(m):
                colour = colour + strip(k, j - starts[k] - clue[k]) - strip(k, j - starts[k])
            colours.append(colour)
        return penalty, colours

    f = 0
    row_colour = []
    for i, clue in enumerate(rows):
        pen, colours = line_model(f"y{i}", clue, width)
        f = f + pen
        row_colour.append(colours)
    col_colour = []
    for j, clue in enumerate(cols):
        pen, colours = line_model(f"z{j}", clue, height)
        f = f + pen
        col_colour.append(colours)
    for i in range(height):
        for j in range(width):
            diff = row_colour[i][j] - col_colour[j][i]
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
