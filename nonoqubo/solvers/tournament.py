"""Whole tournament collections: a question file's answers checked, and every puzzle solved by CP-SAT.

A computer-tournament set (TAAI, TCGA, ICGA) is a question file of 1,000 puzzles
(:mod:`nonoqubo.clues.taai`) and an answer file of as many pictures
(:mod:`nonoqubo.samples.tournament`).  Any multi-puzzle clue file (webpbn puzzle
sets, Tatham game-ID lists, Gecode's specs) can stand for the questions: they
are read in one pass (:func:`nonoqubo.clues.read_all`) and numbered as the
file numbers them (``--index``).

* :func:`check_answers` matches every answer to its question by number and
  checks its picture against the clues (``nonoqubo check QUESTIONS ANSWERS``,
  and ``decode``): one verdict line per failing puzzle, a total line, and the
  located problems of either file.  The other puzzles are always checked.
* :func:`solve_all` solves every puzzle with CP-SAT and writes the answer file
  (``nonoqubo solve QUESTIONS --sampler cpsat --tournament-answers OUT``);
  :func:`solves_collection` says when ``solve`` means that.

Both return an outcome whose :attr:`exit_status` is the command's:

====  =========================================================================
0     every puzzle solved (checked valid), and no problem in either file
1     a puzzle is not solved: a wrong picture, no answer, a wrong size, a broken
      answer (check); CP-SAT proved a puzzle has no solution (solve)
2     bad input: a problem of the file as a whole (an extra or second header, a
      file mixing CRLF and LF, text before ``$1``) or a question that cannot be
      read (a question file cut short); every other puzzle is still checked
3     (solve) the time limit stopped a puzzle's search before a solution
====  =========================================================================

Examples:
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> questions, answers = os.path.join(folder, "q.taai"), os.path.join(folder, "a.txt")
    >>> _ = open(questions, "w").write("$1\\n1\\n1\\n2\\n0\\n$2\\n1\\n0\\n1\\n0\\n")
    >>> _ = open(answers, "w").write("$2\\n1\\t0\\n0\\t0\\n$1\\n0\\t0\\n1\\t1\\n")
    >>> result = check_answers(questions, answers)
    >>> print("\\n".join(result.lines()).replace(folder + os.sep, ""))
    a.txt:4: $1: INVALID: 2 lines do not match their clue (row 1, row 2)
    total: 1 of 2 puzzles solved; 1 wrong
    >>> result.exit_status
    1
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import clues
from .._util.atomic import atomic_write
from .._util.text import decode
from ..errors import NonoquboError, NoSolution, TimeLimit
from ..logic.check import check
from ..model.puzzle import Puzzle
from ..samples import tournament as answer_format
from ..solvers.samplers import SAMPLER_TABLE, known_sampler

__all__ = ["SAMPLER", "TIME_LIMIT_STATUS", "PuzzleOutcome", "TournamentOutcome", "check_answers", "is_answer_file",
           "is_multi_puzzle", "solve_all", "solves_collection"]

#: the exit status of a search the time limit stopped (``solve``): not 1 (an answer), not 2 (bad input)
TIME_LIMIT_STATUS = 3
#: the sampler that solves a whole collection: the table's ground truth, which solves puzzles, not QUBOs
#: (:func:`solve_all` is its search, one per puzzle)
SAMPLER = next(spec.name for spec in SAMPLER_TABLE.values() if spec.ground_truth)
#: failing lines a verdict names before "..."
_SHOW = 6


@dataclass(frozen=True)
class PuzzleOutcome:
    """What became of one puzzle.

    Attributes:
        number: its number in the question file (``$N``; Gecode's specs from 0).
        status: ``solved``, ``wrong``, ``missing`` (no answer), ``wrong size``, ``broken`` (an answer
            that is no grid), ``unreadable`` (the question), ``no solution``, ``time limit``, ``colour``.
        message: the one located line a failing puzzle prints ("" when solved).
        seconds: the solver's time on it (solve; 0 for check).
    """

    number: int
    status: str
    message: str = ""
    seconds: float = 0.0

    @property
    def solved(self) -> bool:
        return self.status == "solved"


@dataclass
class TournamentOutcome:
    """The verdict on a whole collection: per puzzle, the file problems, the total."""

    kind: str  # "tournament-check" or "tournament-solve"
    questions: str
    answers: str | None
    puzzles: list[PuzzleOutcome] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def solved(self) -> int:
        return sum(p.solved for p in self.puzzles)

    @property
    def failures(self) -> list[PuzzleOutcome]:
        return [p for p in self.puzzles if not p.solved]

    @property
    def exit_status(self) -> int:
        """0 all solved, 1 a puzzle not solved, 2 bad input, 3 (solve) a time limit; see the module docstring."""
        statuses = {p.status for p in self.puzzles}
        if self.problems or "unreadable" in statuses:
            return 2
        if "time limit" in statuses:
            return TIME_LIMIT_STATUS
        return 1 if self.failures else 0

    def total_line(self) -> str:
        """``total: 998 of 1000 puzzles solved; 1 wrong, 1 missing; 1 problem in the files``."""
        counts = Counter(p.status for p in self.failures)
        parts = [f"{n} {status}" for status, n in sorted(counts.items())]
        line = f"total: {self.solved} of {len(self.puzzles)} puzzles solved"
        if parts:
            line += "; " + ", ".join(parts)
        if self.problems:
            line += f"; {len(self.problems)} problem{'s' * (len(self.problems) != 1)} in the files"
        if self.kind == "tournament-solve":
            line += f"; {self.seconds:.1f} s"
        return line

    def lines(self) -> list[str]:
        """The problems, one verdict line per failing puzzle (by number), then the total."""
        return [*self.problems, *(p.message for p in self.failures), self.total_line()]

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON (``--json``)."""
        return {
            "kind": self.kind, "questions": self.questions, "answers": self.answers,
            "puzzles": len(self.puzzles), "solved": self.solved, "exit_status": self.exit_status,
            "seconds": round(self.seconds, 3),
            "counts": dict(sorted(Counter(p.status for p in self.puzzles).items())),
            "failures": [{"number": p.number, "status": p.status, "message": p.message} for p in self.failures],
            "problems": list(self.problems),
            "times": [round(p.seconds, 4) for p in self.puzzles] if self.kind == "tournament-solve" else None,
        }


def is_answer_file(path: str | os.PathLike[str] | None) -> bool:
    """True when *path* is a file whose content is a tournament answer file (``$N``, rows of 0/1)."""
    if path is None or os.fspath(path) == "-" or not os.path.isfile(path):
        return False
    with open(path, "rb") as fh:
        return answer_format.detect(fh.read(1 << 16))


def is_multi_puzzle(path: str | os.PathLike[str], format: str | None = None) -> bool:
    """True when the clue file *path* holds more than one puzzle (a tournament's question file)."""
    return os.path.isfile(path) and len(clues.members(path, format)) > 1


def solves_collection(questions: str | os.PathLike[str], *, sampler: str, format: str | None = None,
                      one_puzzle: bool = False, answers_out: str | os.PathLike[str] | None = None) -> bool:
    """Whether ``solve`` on *questions* means every puzzle of it (:func:`solve_all`).

    It does when an answer file *answers_out* is asked for, or when *sampler* is :data:`SAMPLER` and
    *questions* is a file of several puzzles of which none is chosen (*one_puzzle*: ``--index`` or
    ``--name`` was given).  Standard input (``-``) is one puzzle.

    Examples:
        >>> solves_collection("-", sampler="cpsat"), solves_collection("-", sampler="cpsat", answers_out="a.txt")
        (False, True)
        >>> solves_collection("q.taai", sampler="sa", answers_out="a.txt")
        Traceback (most recent call last):
        ...
        nonoqubo.errors.NonoquboError: --tournament-answers: only --sampler cpsat solves a whole collection (not sa); add --sampler cpsat

    Raises:
        NonoquboError: *answers_out* with another sampler than :data:`SAMPLER`.
    """
    spec = known_sampler(sampler)
    solves_puzzles = spec is not None and spec.ground_truth
    if answers_out is not None:
        if not solves_puzzles:
            raise NonoquboError(f"--tournament-answers: only --sampler {SAMPLER} solves a whole collection "
                                f"(not {sampler}); add --sampler {SAMPLER}")
        return True
    return (solves_puzzles and not one_puzzle and os.fspath(questions) != "-"
            and is_multi_puzzle(questions, format))


def _questions(path: str, format: str | None) -> list[tuple[int, Puzzle | None, str | None]]:
    """``(number, puzzle, error)`` of every puzzle of the question file, read once.

    Raises:
        FormatError: the file is broken as a whole (no puzzle can be told from the next).
    """
    return [(1 if r.index is None else r.index, r.puzzle, None if r.error is None else str(r.error))
            for r in clues.read_all(path, format)]


def _verdict(number: int, puzzle: Puzzle, answer: answer_format.Answer, source: str) -> PuzzleOutcome:
    where = f"{source}:{answer.line}: ${number}"
    if answer.grid is None:
        return PuzzleOutcome(number, "broken", answer.error or f"{where}: not a grid")
    rows, cells = answer.grid.shape
    if (rows, cells) != (puzzle.height, puzzle.width):
        return PuzzleOutcome(number, "wrong size", f"{where}: the answer has {rows} rows of {cells} cells; the "
                                                   f"puzzle is {puzzle.height} rows of {puzzle.width}")
    result = check(puzzle, answer.grid)
    if result.valid:
        return PuzzleOutcome(number, "solved")
    names = [f.line for f in result.failures]
    shown = ", ".join(names[:_SHOW]) + (", ..." if len(names) > _SHOW else "")
    n = len(names)
    return PuzzleOutcome(number, "wrong", f"{where}: INVALID: {n} line{'s' * (n != 1)} "
                                          f"do{'es' * (n == 1)} not match their clue ({shown})")


def check_answers(questions: str | os.PathLike[str], answers: str | os.PathLike[str], *,
                  format: str | None = None, answers_text: str | None = None) -> TournamentOutcome:
    """Check every answer of the file *answers* against its question (by number) in *questions*.

    Args:
        format: the question file's clue format (sniffed when None).
        answers_text: the answer file's text when already read (standard input); else *answers* is read.

    Raises:
        FormatError: the question file is broken as a whole (its headers), or empty.
        OSError: a file cannot be read.
    """
    qsource, asource = os.fspath(questions), os.fspath(answers)
    start = time.perf_counter()
    asked = _questions(qsource, format)
    if answers_text is None:  # its line endings as they are: a file mixing CRLF and LF is told
        answers_text = decode(Path(asource).read_bytes(), asource, what="tournament answer file", legacy="latin-1")
    text = answers_text
    found = answer_format.read_answers(text, source=asource)
    outcome = TournamentOutcome("tournament-check", qsource, asource, problems=list(found.problems))
    numbers = {number for number, _, _ in asked}
    for number, puzzle, error in asked:
        answer = found.answers.get(number)
        if puzzle is None:
            outcome.puzzles.append(PuzzleOutcome(number, "unreadable", error or f"{qsource}: ${number}: unreadable"))
        elif answer is None:
            outcome.puzzles.append(PuzzleOutcome(number, "missing", f"{asource}: ${number}: no answer (the question "
                                                                    f"file {qsource} asks it)"))
        else:
            outcome.puzzles.append(_verdict(number, puzzle, answer, asource))
    low, high = min(numbers), max(numbers)
    for number, answer in found.answers.items():
        if number not in numbers:
            outcome.problems.append(f"{asource}:{answer.line}: ${number}: no such puzzle in {qsource} "
                                    f"(it holds {len(numbers)}: ${low}..${high})")
    outcome.seconds = time.perf_counter() - start
    return outcome


def solve_all(questions: str | os.PathLike[str], *, format: str | None = None, time_limit: float | None = None,
              workers: int | None = None, answers_out: str | os.PathLike[str] | None = None,
              tick: Callable[[int], None] | None = None, plan: Callable[[int], None] | None = None) -> TournamentOutcome:
    """Solve every puzzle of *questions* with CP-SAT (one search each) and write the answers to *answers_out*.

    A puzzle whose search the time limit stops, or that has no solution, has no answer in the file
    (a tournament's judge counts it unsolved); a colour puzzle is left out (the answers are 0/1).

    Args:
        time_limit: seconds for each puzzle's search (CP-SAT's ``max_time_in_seconds``); None: no limit.
        workers: CP-SAT's search workers (default: CP-SAT's, every core).
        answers_out: the answer file to write (atomically, when every puzzle is done); None: none.
        tick: called with the count of puzzles done after each.
        plan: called once with the number of puzzles, when the file is read and before the first search
            (a progress bar's total).

    Raises:
        MissingDependency: ortools is not installed (checked before anything is read).
        FormatError: the question file is broken as a whole.
    """
    from ..solvers.cpsat import require, solutions

    require()
    qsource = os.fspath(questions)
    asked = _questions(qsource, format)
    outcome = TournamentOutcome("tournament-solve", qsource, None if answers_out is None else os.fspath(answers_out))
    grids: dict[int, np.ndarray] = {}
    if plan is not None:
        plan(len(asked))
    start = time.perf_counter()
    for done, (number, puzzle, error) in enumerate(asked, start=1):
        outcome.puzzles.append(_solve_one(number, puzzle, error, qsource, grids, time_limit, workers, solutions))
        if tick is not None:
            tick(done)
    outcome.seconds = time.perf_counter() - start
    if answers_out is not None:
        with atomic_write(answers_out) as fh:
            fh.write(answer_format.dumps(grids))
    return outcome


def _solve_one(number: int, puzzle: Puzzle | None, error: str | None, source: str, grids: dict[int, np.ndarray],
               time_limit: float | None, workers: int | None, solutions: Any) -> PuzzleOutcome:
    """One puzzle's search; its grid goes into *grids* when it is found."""
    if puzzle is None:
        return PuzzleOutcome(number, "unreadable", error or f"{source}: ${number}: unreadable")
    if puzzle.is_colour:
        return PuzzleOutcome(number, "colour", f"{source}: ${number}: a colour puzzle; a tournament answer "
                                               "holds 0/1 pictures only (left out)")
    start = time.perf_counter()
    try:
        found, _ = solutions(puzzle, limit=1, time_limit=time_limit, workers=workers)
    except NoSolution:
        return PuzzleOutcome(number, "no solution", f"{source}: ${number}: CP-SAT proved that the puzzle has no "
                                                    "solution", time.perf_counter() - start)
    except TimeLimit:
        return PuzzleOutcome(number, "time limit", f"{source}: ${number}: the time limit ({time_limit:g} s) came "
                                                   "before a solution", time.perf_counter() - start)
    grids[number] = found[0]
    return PuzzleOutcome(number, "solved", "", time.perf_counter() - start)

