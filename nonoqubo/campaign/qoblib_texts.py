"""The README files of a QOBLIB nonogram class (:mod:`nonoqubo.campaign.qoblib`).

QOBLIB's CONTRIBUTING and its classes (``07-independentset`` ...) give every folder a
README: the class (problem, models, contents, how to check and submit), the instance
format, each model's formulation, the solutions with their status, the checker.  These
are the texts of a nonogram class; :func:`readmes` fills in its instances.

Examples:
    >>> texts = readmes([("heart", 5, 5, 30, "line logic", "1", "heart.non")], "none")
    >>> sorted(texts)[:3]
    ['README.md', 'check/README.md', 'instances/README.md']
    >>> "| heart | 5x5 | 30 | 0 | line logic | 1 |" in texts["solutions/README.md"]
    True
"""

from __future__ import annotations

from collections.abc import Sequence

from .._version import __version__

__all__ = ["readmes"]

#: one instance: name, width, height, QUBO variables, where its solution comes from, its solution count (or
#: None), its source (the clue file, or the random family and member)
Row = tuple[str, int, int, int, str, "str | None", str]

_CLASS = """\
# Nonograms (paint by numbers)

A problem class of nonogram puzzles in the layout of QOBLIB, the Quantum Optimization
Benchmarking Library (github.com/ZIB-AOPT/QOBLIB), written by nonoqubo {version}
(`nonoqubo suite --layout qoblib`).

## Problem Description

A nonogram is a grid of W x H cells and one clue per row and per column: the lengths of
the runs of black cells in that line, in order, separated by at least one white cell.
Find a colouring of the cells, black or white, whose every row and column has exactly the
runs of its clue.  Deciding whether a nonogram has a solution is NP-complete.

This is a satisfaction problem: the QUBO below has energy 0 exactly at a solution and
more than 0 everywhere else, so the optimal objective value is 0 and every instance with a
solution has optimality bound 0.

## Directory Contents

- **instances/**: the clues, one `.non` file per instance ({count} instances)
- **models/binary_unconstrained/**: the QUBO, `.qs` files (ZIMPL's qbowrite format){compressed}
- **models/binary_linear/**: the same rules as a 0-1 linear program, `.lp` files{compressed}
- **solutions/**: a known solution per instance, as a PBM picture, where one is known
- **check/**: `check_nonogram.py`, the solution checker (Python 3, standard library only)
- **submissions/**: results, one folder per approach (see below)
- `index.json`, `index.csv`: nonoqubo's index of the class (sizes, files, SHA-256), which
  `nonoqubo evaluate` reads

## Checking a solution

```
python check/check_nonogram.py instances/NAME.non SOLUTION.pbm
```

exits 0 when the picture satisfies every clue, 1 when it does not (the failing lines are
printed) and 2 on an error (a file that cannot be read).

## Submitting results

Solve the models (`nonoqubo solve models/binary_unconstrained/qs_files/NAME.qs --sampler sa
--reads 100 -o runs/NAME.json`, or any QUBO solver and `nonoqubo decode`), then

```
nonoqubo evaluate . runs/ --submission submissions/YYYYMMDD_Method_Submitter --submitter "Name (Affiliation)"
python misc/check_submission.py --strict-problem-match --fail-on-checker \\
    --checker-cmd "python {{submission_root}}/../../check/check_nonogram.py {{submission_root}}/../../instances/{{instance}}.non {{solution}}" \\
    submissions/YYYYMMDD_Method_Submitter
```

(`misc/check_submission.py` is QOBLIB's own.)  Each instance folder then holds
`NAME_summary.csv` (QOBLIB's 27 columns), `NAME_solution.pbm` (the best sample's picture)
and `NAME_objective_time_series.json`.
"""

_INSTANCES = """\
# Instances

## Instance Format

Steve Simpson's `.non` text: `width W` and `height H`, then `rows` and H clue lines, then
`columns` and W clue lines.  A clue line lists the run lengths of its line, separated by
commas; an empty line (or `0`) is a line with no black cell.  Other lines (`title`,
`catalogue`) are metadata.  The files hold no solution (no `goal` line).

```
width 2
height 2

rows
2
1

columns
1
2
```

## Instance Sources

| Instance | Size | Source |
| --- | --- | --- |
{rows}
"""

_QUBO = """\
# Binary Unconstrained Formulation

The QUBO of each instance in nonoqubo's domain-wall encoding (penalty weights shape 1,
order 1, cell 1).  Every block k of a line has the binary variables w[k][p] of a domain wall:
w[k][p] = 1 when the block is shifted right of its leftmost place by more than p.

$$
\\min \\; E(x) = c + \\sum_i a_i x_i + \\sum_{{i<j}} b_{{ij}} x_i x_j, \\qquad x \\in \\{{0,1\\}}^n
$$

is the sum of three penalties, each 0 exactly when its rule holds: a *wall* penalty
w[k][p+1] (1 - w[k][p]) per wall position (no 1 after a 0), an *order* penalty w[k][p] (1 -
w[k+1][p]) (block k+1 moves at least as far as block k), and a *cell* penalty (row colour of
cell (i, j) - column colour of cell (i, j))^2 per cell.  So E(x) >= 0, and E(x) = 0 exactly
when x encodes a picture that satisfies every clue.

## Files

`qs_files/NAME.qs` in ZIMPL's qbowrite format: `# ObjectiveOffset c`, comment lines (nonoqubo's
metadata: the clues and the labels, which `nonoqubo decode` reads), the line `n m`, then m
lines `i j q` (1-based, i <= j) of a symmetric Q with E = c + x'Qx, so that an off-diagonal
line holds half the pair coefficient.  `qs_files/metrics.csv` and its README give per file
num_variables, density (non-zero entries over n(n+1)/2), min_coeff and max_coeff.
"""

_LP = """\
# Binary Linear Formulation

The same rules as linear constraints over the same binary variables (labels `y3_1_2`: row 3,
block 1, wall position 2; `z` for columns), with a zero objective: any feasible point is a
solution.

| constraint | meaning |
| --- | --- |
| `cell_i_j`: row colour(i, j) - column colour(i, j) = 0 | the row and the column agree on the cell |
| `wall_y3_k1_p2`: w[k][p] - w[k][p+1] >= 0 | no 1 after a 0 in a wall |
| `order_y3_k1_p2`: w[k+1][p] - w[k][p] >= 0 | block k+1 moves at least as far as block k |

`lp_files/NAME.lp` is CPLEX LP text (`nonoqubo decode NAME.lp SOLUTION.sol` reads a solver's
answer back); `lp_files/metrics.csv` gives QOBLIB's LP columns (variables by type,
constraints, density = non-zeros / (variables x constraints), coefficient range).
"""

_SOLUTIONS = """\
# Solutions

## Format

`NAME.opt.pbm`: the solution picture as a plain PBM (`P1`, width and height, then one row
of 0/1 per picture row, 1 = black), which image viewers open and `check/check_nonogram.py`
checks.  Its QUBO energy is 0, the optimum (every energy is >= 0), hence `.opt`.

## Results

| Instance | Size | QUBO variables | Best Objective | Solution from | Solutions (CP-SAT) |
| :--- | ---: | ---: | ---: | :--- | ---: |
{rows}

"Solutions (CP-SAT)" is the number of solutions CP-SAT counted (`>= 2`: it stopped at its
limit; empty: not counted, `suite --truth` counts them).
"""

_CHECK = """\
# Nonogram Solution Checker

`check_nonogram.py` verifies that a picture solves a nonogram instance.  It needs Python 3.8
or newer and nothing else.

```
python check_nonogram.py ../instances/NAME.non SOLUTION
```

SOLUTION is a plain PBM (`P1`) or rows of `#`/`.` (also `1`/`0`).  Exit status: **0** every
row and column has the runs of its clue, **1** it does not (each failing line is printed, as
is a picture of the wrong size), **2** an error (a file that cannot be read, or is not an
instance or a picture).  It does not judge optimality: every solution is optimal.
"""

_SUBMISSIONS = """\
# Submissions

One folder per approach, `YYYYMMDD_Method_Submitter`, with one sub-folder per instance
holding `NAME_summary.csv`, `NAME_solution.pbm` and `NAME_objective_time_series.json`
(`nonoqubo evaluate .. RUNS --submission DIR --submitter NAME` writes them; see the class
README for QOBLIB's `check_submission.py`).
"""


def readmes(rows: Sequence[Row], compress: str) -> dict[str, str]:
    """Every README of the class, by path: the class, instances, both models, solutions, check, submissions."""
    compressed = ", xz-compressed" if compress == "xz" else ""
    sources = "\n".join(f"| {r[0]} | {r[1]}x{r[2]} | {r[6]} |" for r in rows)
    results = "\n".join(
        f"| {name} | {w}x{h} | {n} | {'0' if _solved(how) else '-'} | {how} | {count or ''} |"
        for name, w, h, n, how, count, _ in rows)
    return {
        "README.md": _CLASS.format(version=__version__, count=len(rows), compressed=compressed),
        "instances/README.md": _INSTANCES.format(rows=sources),
        "models/binary_unconstrained/README.md": _QUBO.format(),
        "models/binary_linear/README.md": _LP,
        "solutions/README.md": _SOLUTIONS.format(rows=results),
        "check/README.md": _CHECK,
        "submissions/README.md": _SUBMISSIONS,
    }


def _solved(how: str) -> bool:
    return not how.startswith(("unknown", "none"))
