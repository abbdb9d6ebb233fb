"""Reference MiniZinc models of a puzzle, written independently of :mod:`nonoqubo.exports.minizinc`.

The test (``tests/exports/test_minizinc.py``) and the benchmark (``benchmarks/bench_minizinc.py``)
compare the export with them in Gecode:

* :func:`plain_model`: the textbook model, ``var 1..C+1`` cells and one ``regular`` constraint per
  line (MiniZinc's alphabet is 1-based), nothing else;
* :func:`offset_model`: the formulation the export had before, cells ``var 0..C`` read through
  ``x0[i, j] + 1`` (MiniZinc flattens each ``+ 1`` into a second variable and a linear equation).
"""

from __future__ import annotations

from nonoqubo.model.automaton import line_automaton
from nonoqubo.model.puzzle import Puzzle


def _regulars(puzzle: Puzzle, cell: str) -> list[str]:
    """One ``regular`` constraint per row and column over ``cell.format(i, j)`` (1-based)."""
    lines = [(puzzle.rows[i], puzzle.row_colours[i], [cell.format(i + 1, j + 1) for j in range(puzzle.width)])
             for i in range(puzzle.height)]
    lines += [(puzzle.cols[j], puzzle.col_colours[j], [cell.format(i + 1, j + 1) for i in range(puzzle.height)])
              for j in range(puzzle.width)]
    out = []
    for clue, colours, cells in lines:
        a = line_automaton(clue, colours, puzzle.num_colours)
        table = "|".join(", ".join(map(str, row)) for row in a.table())
        out.append(f"constraint regular([{', '.join(cells)}], {a.states}, {a.symbols}, [|{table}|], {a.start}, "
                   f"{{{', '.join(map(str, a.finals))}}});")
    return out


def plain_model(puzzle: Puzzle) -> str:
    """The textbook model: ``var 1..C+1`` cells, a regular constraint per line, ``solve satisfy``."""
    head = ['include "regular.mzn";',
            f"array[1..{puzzle.height}, 1..{puzzle.width}] of var 1..{puzzle.num_colours + 1}: x;"]
    return "\n".join(head + _regulars(puzzle, "x[{0}, {1}]") + ["solve satisfy;"]) + "\n"


def offset_model(puzzle: Puzzle) -> str:
    """The earlier formulation: ``var 0..C`` cells read through ``x0[i, j] + 1``."""
    head = ['include "regular.mzn";',
            f"array[1..{puzzle.height}, 1..{puzzle.width}] of var 0..{puzzle.num_colours}: x0;"]
    return "\n".join(head + _regulars(puzzle, "x0[{0}, {1}] + 1") + ["solve satisfy;"]) + "\n"
