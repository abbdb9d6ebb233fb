r"""MiniZinc model of the puzzle itself (``build PUZZLE -o model.mzn``), for CP solvers such as Gecode.

Not a QUBO: the file describes the nonogram as the Gecode chapter on nonograms
models it, one variable per cell, ``symbol`` (``1..2``: 1 white, 2 black; in
colour ``1..C+1``, 1 the background), and one ``regular`` constraint per row
and column over those variables,
the automaton of the clue (:func:`nonoqubo.model.automaton.line_automaton`:
``0* 1^a 0+ 1^b ... 0*``; in colour, blocks of different colours may touch).
It is the ground truth beside the QUBO: ``minizinc --solver gecode model.mzn``
solves it exactly, ``-a`` enumerates every solution.

* Fast in Gecode: the cells are the alphabet ``regular`` reads, so the solver
  gets exactly one integer variable per cell and nothing else.  The picture the
  answers print, ``grid`` (``symbol - 1``: 0 white or the background), is
  computed in MiniZinc's output model only.  Declaring cells ``var 0..C`` and
  reading them through ``grid[i, j] + 1`` (the writer's earlier form) makes
  MiniZinc flatten every ``+ 1`` into a second variable and a linear equation,
  and Gecode's default branching then takes up to 38x the nodes
  (``benchmarks/bench_minizinc.py``; ``tests/exports/test_minizinc.py``
  checks the nodes equal those of the textbook model).  No search annotation:
  Gecode's own default branching beat every ``int_search`` tried (``input_order``
  or ``first_fail``, ``indomain_max`` or ``indomain_min``) on the hard shared
  puzzles: 249 nodes against 4,500-5,523 on gecode-difficult, 1,295 against
  29,224-32,635 on webpbn 6574.
* Self-contained: only MiniZinc's ``regular.mzn`` is included; the clues are
  written twice, as comments before their constraint and in nonoqubo's
  metadata comments (``% rows=...``, :mod:`nonoqubo.exports._header`), which
  also name the QUBO the answers are decoded against (its labels and fixed
  variables).
* The ``output`` item prints ``nonoqubo picture HxW legend .#`` and the picture,
  one row a line, in the palette's characters; ``--output-mode json`` prints
  ``{"grid": [[...]]}`` (colour indices) instead.  Both, as MiniZinc prints
  them, are answers ``nonoqubo decode model.mzn answer.txt`` reads
  (:mod:`nonoqubo.samples.minizinc`); the picture is encoded through the
  layout into the QUBO's variables.
* :func:`loads` rebuilds the QUBO of the clues the file carries (with its fixed
  variables), so decode, info and check treat the file like any export.

Examples:
    >>> from nonoqubo.model.build import build
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> q = build(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> text = dumps(q)
    >>> print(text.splitlines()[0][:30])
    % nonoqubo 0.1.0 minizinc: non
    >>> [ln for ln in text.splitlines() if ln.startswith("constraint")][0]
    'constraint regular([symbol[1, j] | j in 1..width], 3, 2, [|1, 2|3, 0|3, 0|], 1, {2, 3});'
    >>> loads(text, source="x.mzn").same_model(q)
    True
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO, Any

from ..errors import FormatError, UnsupportedFormat, located
from ..model.automaton import Automaton, line_automaton
from ..model.qubo import Qubo
from ._defaults import ALIASES, HEURISTIC, LEGACY_ENCODING, WRITE_BYTES_PER_TERM
from . import _metadata
from ._header import comment_lines, describe, names_format, parse_comments, read_encoding, rule_labels

__all__ = ["detect", "dump", "dumps", "loads"]

NAME = "minizinc"
TITLE = "MiniZinc model of the puzzle (a cell variable, a regular constraint per line), for Gecode and CP solvers"
EXTENSIONS = ("mzn",)
BINARY = False
#: it describes the puzzle (the QUBO it hands in is what its answers decode against)
KIND = "puzzle"
ISING = False
#: no energy at all: a satisfaction model (every solution is a ground state of the QUBO)
OFFSET = "carried"
ORDER = 120

PREFIX = "% "
#: the first line the output item prints before each picture
PICTURE = "nonoqubo picture"
_SIZE = re.compile(r"^int: (height|width) = (\d+);$", re.MULTILINE)


def _string(text: str) -> str:
    """A MiniZinc string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _constraint(cells: str, auto: Automaton) -> str:
    table = "|".join(", ".join(map(str, row)) for row in auto.table())
    finals = ", ".join(map(str, auto.finals))
    return f"constraint regular({cells}, {auto.states}, {auto.symbols}, [|{table}|], {auto.start}, {{{finals}}});\n"


def _chunks(qubo: Qubo) -> Iterator[str]:
    puzzle = qubo.puzzle
    if puzzle is None:
        raise UnsupportedFormat("the minizinc format describes the puzzle: this model carries no clues")
    h, w, colours = puzzle.height, puzzle.width, puzzle.num_colours
    yield comment_lines(describe(qubo, NAME), PREFIX)
    values = "0 white, 1 black" if not puzzle.is_colour else f"0 the background, 1..{colours} the colours"
    yield (f"{PREFIX}This is the puzzle as a constraint model (not the QUBO): one variable per cell ({values})\n"
           f"{PREFIX}and one regular constraint (the clue's automaton) per row and column.\n"
           f"{PREFIX}solve: minizinc --solver gecode model.mzn > answer.txt (-a: every solution; every\n"
           f"{PREFIX}output mode reads back: -s, --output-time, --output-mode json|dzn, --json-stream);\n"
           f"{PREFIX}then: nonoqubo decode model.mzn answer.txt\n")
    if puzzle.is_colour:
        yield f"{PREFIX}colours: {puzzle.palette.legend()}\n"
    yield 'include "regular.mzn";\n\n'
    yield f"int: height = {h};\nint: width = {w};\nint: colours = {colours};\n\n"
    yield (f"{PREFIX}symbol[i, j]: the cell's value + 1 (1 {'the background' if puzzle.is_colour else 'white'}, "
           f"2..colours + 1 {'the colours' if puzzle.is_colour else 'black'}), the alphabet\n"
           f"{PREFIX}regular reads: the only decision variables, one per cell.\n")
    yield "array[1..height, 1..width] of var 1..colours + 1: symbol :: no_output;\n\n"
    for i, (clue, cc) in enumerate(zip(puzzle.rows, puzzle.row_colours)):  # type: ignore[arg-type]
        yield f"{PREFIX}row {i + 1}: {puzzle.clue_text(i) or '(empty)'}\n"
        yield _constraint(f"[symbol[{i + 1}, j] | j in 1..width]", line_automaton(clue, cc, colours))
    for j, (clue, cc) in enumerate(zip(puzzle.cols, puzzle.col_colours)):  # type: ignore[arg-type]
        yield f"{PREFIX}column {j + 1}: {puzzle.clue_text(h + j) or '(empty)'}\n"
        yield _constraint(f"[symbol[i, {j + 1}] | i in 1..height]", line_automaton(clue, cc, colours))
    chars = "".join(puzzle.palette.chars)
    legend = ", ".join(_string(c) for c in puzzle.palette.chars)
    yield "\nsolve satisfy;\n\n"
    yield (f"{PREFIX}grid[i, j]: the cell's value (0 {'the background' if puzzle.is_colour else 'white'}, "
           f"1..colours {'the colours' if puzzle.is_colour else 'black'}), what the answer\n"
           f"{PREFIX}prints; computed in the output only, never a variable of the solver.\n")
    yield ("array[1..height, 1..width] of var 0..colours: grid :: output =\n"
           "  array2d(1..height, 1..width, [symbol[i, j] - 1 | i in 1..height, j in 1..width]);\n")
    yield f"array[0..colours] of string: legend = array1d(0..colours, [{legend}]);\n"
    yield (f"output [{_string(f'{PICTURE} {h}x{w} legend {chars}')} ++ \"\\n\"] ++\n"
           "  [legend[fix(grid[i, j])] ++ if j == width then \"\\n\" else \"\" endif | i in 1..height, j in 1..width];\n")


def dumps(model: Qubo, *, ising: bool = False) -> str:
    """The MiniZinc model of *model*'s puzzle, with the metadata of *model* (the QUBO its answers decode to)."""
    if ising:
        raise UnsupportedFormat("the minizinc format describes the puzzle; it has no Ising form")
    return "".join(_chunks(model))


def dump(model: Qubo, fp: IO[Any], *, ising: bool = False, progress: bool = False) -> None:
    """Write :func:`dumps` to a text (or binary) file object."""
    text = dumps(model, ising=ising)
    fp.write(text.encode("utf-8") if "b" in getattr(fp, "mode", "") else text)


def loads(data: str, *, source: str = "<mzn>") -> Qubo:
    """The QUBO a nonoqubo MiniZinc model answers for: built from the clues of its metadata, fixings applied.

    Raises:
        FormatError: no nonoqubo metadata, clues that are not valid, or a model whose
            grid size or QUBO figures differ from those of its clues.
    """
    from ..model.build import build

    meta = parse_comments((ln for ln in data.splitlines() if ln.startswith("%")), "%", source)
    if meta.get("format") != NAME or "rows" not in meta or "cols" not in meta:
        raise FormatError(located(source, None, "no nonoqubo metadata (% rows=, % cols=); "
                                  "was this MiniZinc model written by nonoqubo?"))
    clues = _metadata.read(meta, source)
    puzzle, fixed = clues.puzzle, clues.fixed
    assert puzzle is not None  # rows and cols are there
    sizes = dict(_SIZE.findall(data))
    if sizes != {"height": str(puzzle.height), "width": str(puzzle.width)}:
        raise FormatError(located(source, None, f"the model's grid ({sizes.get('height')}x{sizes.get('width')}) "
                                  f"is not the {puzzle.height}x{puzzle.width} of its clues"))
    encoding, weights = read_encoding(meta, source)
    qubo = build(puzzle, encoding=encoding, weights=weights)
    if fixed:
        known = set(rule_labels(puzzle, {}, encoding))
        unknown = next((k for k in fixed if k not in known), None)
        if unknown is not None:
            raise FormatError(located(source, None, f"fixed variable {unknown!r} is not a variable of the clues"))
        qubo = qubo.fix(fixed)
    labels = clues.labels or "layout"
    if labels != "layout" and (not isinstance(labels, list) or [str(x) for x in labels] != list(qubo.labels)):
        raise FormatError(located(source, None, "the metadata's labels are not those of its clues"))
    if meta.get("variables", qubo.num_vars) != qubo.num_vars:
        raise FormatError(located(source, None, f"the metadata says {meta.get('variables')} variables; "
                                  f"the QUBO of its clues has {qubo.num_vars}"))
    return qubo


def detect(head: bytes) -> bool:
    """A nonoqubo MiniZinc model starts with its ``% nonoqubo ... minizinc:`` line."""
    return names_format(head, PREFIX, NAME)
