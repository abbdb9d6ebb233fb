r"""The answer (solution) files of the computer nonogram tournaments (TAAI, TCGA, ICGA).

Grammar (one item a line)::

    $1                  the header of the answer to question $1 (its number in the question file)
    0<TAB>1<TAB>1 ...   the rows of the picture, top to bottom: one 0 (white) or 1 (black) a cell,
    ...                 separated by tabs (or spaces)
    $2                  the next answer, and so on (1,000 answers of 25 rows in a tournament's file)

This is the shape of the tournament solution files (zxkyjimmy/NonogramRecord
``solution/*.txt``, read to check it, not copied) and of what the record solvers
print.  Answers are matched to the questions by their number, not their position,
so a file may leave puzzles out or hold them in any order.  Blank lines are skipped;
a BOM is dropped; line endings may be LF or CRLF, but not both in one file.

:func:`read_answers` reads every answer and keeps going past a broken one: each
answer is a grid or its located error (a cell that is not 0 or 1, rows of
different lengths, a header with no rows), and what belongs to no one answer (text
before the first header, a second header of the same number, a file mixing CRLF and
LF) is a located *problem*.  Checking the answers against a question file is
:func:`nonoqubo.solvers.tournament.check_answers` (``nonoqubo check``).

As a sample format (``decode PUZZLE ANSWERS``) every answer of the file is one
sample, a picture, encoded through the puzzle's layout; the first broken answer or
problem is the error.

Examples:
    >>> found = read_answers("$1\n1\t0\n0\t1\n$2\n1\t2\n", source="a.txt")
    >>> found.answers[1].grid.tolist(), found.answers[2].error
    ([[1, 0], [0, 1]], "a.txt:5: $2, row 1: '2' is not a cell (0 or 1)")
    >>> dumps({1: [[1, 0], [0, 1]]})
    '$1\n1\t0\n0\t1\n'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from .._util.text import head_text
from ..errors import FormatError, located
from ._defaults import ALIASES, BINARY, EXTENSIONS, HEURISTIC, KIND, LEGACY_ENCODING
from ._raw import RawSamples

__all__ = ["Answer", "AnswerFile", "detect", "dumps", "loads", "read_answers"]

NAME = "tournament"
TITLE = "computer tournament answers ($N header, then rows of tab-separated 0/1; many puzzles)"
ORDER = 16

_HEADER = re.compile(r"\$(\d{1,9})")


@dataclass(frozen=True)
class Answer:
    """One ``$N`` answer of the file.

    Attributes:
        number: N, the number of the question it answers.
        line: the header's line (1-based).
        grid: the picture, ``(rows, cells)`` of 0/1 (None when the answer is broken).
        error: why it is broken, one located line (None when it is a grid).
    """

    number: int
    line: int
    grid: np.ndarray | None
    error: str | None = None


@dataclass
class AnswerFile:
    """Every answer of a file, by number, and the located problems that belong to no one answer."""

    source: str
    answers: dict[int, Answer] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def detect(head: bytes) -> bool:
    """True when the first line that is not blank is a ``$N`` header and what follows the headers is rows of
    cells: one character a token, nearly all 0 or 1.

    The ``$N`` headers say the format; a question file (the same headers over clue lines) is told
    apart by its lines.  An answer row holds a ``0`` beside other cells (a white cell), a clue line
    never does (a clue 0 stands alone, for an empty line), and a clue of 10 or more has two
    characters.  So a file is answers when the first answer's tokens are single characters, nearly
    all 0 or 1, and its rows have one length (the tournaments' own files) or any row of the head has
    a ``0`` among other cells: a short or long row in the first answer is then that answer's located
    error, not a sign of another format.

    Examples:
        >>> detect(b"$1\\n0\\t1\\n1\\t1\\n$2\\n"), detect(b"$1\\n1\\n1 1\\n0\\n$2\\n")
        (True, False)
        >>> detect(b"$1\\n0\\t1\\n1\\t1\\t0\\n$2\\n1\\t0\\n0\\t0\\n")  # a long row in answer 1
        True
    """
    lines = [line.strip() for line in head_text(head).lstrip("\ufeff").splitlines() if line.strip()]
    if len(lines) < 2 or not _HEADER.fullmatch(lines[0]):
        return False
    rows = [line.split() for line in lines[1:] if not line.startswith("$")]
    first = []
    for line in lines[1:]:
        if line.startswith("$"):
            break
        first.append(line.split())
    cells = [t for row in first for t in row]
    if not cells or any(len(t) != 1 for t in cells):
        return False
    if sum(t in "01" for t in cells) < 0.9 * len(cells):  # a stray digit is the answer's error, not another format
        return False
    return len({len(row) for row in first}) == 1 or any(len(row) > 1 and "0" in row for row in rows)


def _mixed_endings(raw: list[str], source: str) -> str | None:
    """The problem of a file whose lines end in both CRLF and LF (the first line that differs), else None."""
    ended = raw[:-1]  # the last piece has no line ending
    if not ended:
        return None
    first_crlf = ended[0].endswith("\r")
    for no, line in enumerate(ended, start=1):
        if line.endswith("\r") != first_crlf:
            this, that = ("CRLF", "LF") if not first_crlf else ("LF", "CRLF")
            return located(source, no, f"this line ends in {this}, the lines before it in {that}: the file mixes "
                                       "line endings (every answer is still read)")
    return None


def read_answers(text: str, *, source: str = "<answers>") -> AnswerFile:
    """Every answer of a tournament answer file, past any broken one (see the module docstring).

    Never raises for bad content: a broken answer keeps its located ``error``, and a problem that is
    no one answer's is in ``problems``.
    """
    raw = text.lstrip("\ufeff").split("\n")
    found = AnswerFile(source)
    mixed = _mixed_endings(raw, source)
    if mixed:
        found.problems.append(mixed)
    header: tuple[int, int] | None = None  # (number, line) of the answer being read
    rows: list[tuple[int, str]] = []

    def close() -> None:
        if header is None:
            return
        number, line = header
        answer = _answer(number, line, rows, source)
        if number in found.answers:
            found.problems.append(located(source, line, f"a second header ${number} (the first is at line "
                                                        f"{found.answers[number].line}); only the first is checked"))
        else:
            found.answers[number] = answer

    for no, line in enumerate(raw, start=1):
        line = line.strip()
        if not line:
            continue
        if line.startswith("$"):
            close()
            m = _HEADER.fullmatch(line)
            if m is None:
                found.problems.append(located(source, no, f"{line[:40]!r} is not an answer header ($ and a number)"))
                header, rows = None, []
            else:
                header, rows = (int(m.group(1)), no), []
        elif header is None:
            if not found.answers and not any("before the first" in p for p in found.problems):
                found.problems.append(located(source, no, f"{line[:40]!r} before the first header ($1)"))
        else:
            rows.append((no, line))
    close()
    if not found.answers and not found.problems:
        found.problems.append(f"{source}: no answer found (expected '$1' and rows of 0/1)")
    return found


def _answer(number: int, line: int, rows: list[tuple[int, str]], source: str) -> Answer:
    """The grid under header *number* (line *line*), or its located error."""
    if not rows:
        return Answer(number, line, None, located(source, line, f"${number} has no rows"))
    cells: list[list[int]] = []
    for r, (no, text) in enumerate(rows, start=1):
        tokens = text.split()
        bad = next((t for t in tokens if t not in ("0", "1")), None)
        if bad is not None:
            return Answer(number, line, None, located(source, no, f"${number}, row {r}: {bad[:20]!r} is not a cell (0 or 1)"))
        if cells and len(tokens) != len(cells[0]):
            return Answer(number, line, None, located(
                source, no, f"${number}, row {r} has {len(tokens)} cells, row 1 has {len(cells[0])}"))
        cells.append([int(t) for t in tokens])
    return Answer(number, line, np.array(cells, dtype=np.int64))


def loads(text: str, *, source: str = "<answers>") -> RawSamples:
    """Every answer of the file as one picture sample each, in file order.

    Raises:
        FormatError: the file's first problem or broken answer (one located line).
    """
    found = read_answers(text, source=source)
    broken = found.problems + [a.error for a in found.answers.values() if a.error]
    if broken:
        raise FormatError(broken[0])
    return RawSamples(grids=[a.grid for a in found.answers.values()])


def dumps(grids: Mapping[int, Sequence[Sequence[int]] | np.ndarray]) -> str:
    """An answer file: ``$N`` and the rows of tab-separated 0/1 for each number, in increasing order.

    Cells that are not 0 are written 1 (a colour index is black).
    """
    lines: list[str] = []
    for number in sorted(grids):
        lines.append(f"${number}")
        lines.extend("\t".join("1" if int(v) else "0" for v in row) for row in grids[number])
    return "\n".join(lines) + ("\n" if lines else "")

