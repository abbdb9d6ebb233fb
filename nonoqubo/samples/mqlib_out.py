"""MQLib's answer, as printed by ``MQLib -fQ model.mqlib -h HEURISTIC -r SECONDS -ps``.

Grammar (``bin/main.cpp`` of MQLib, Dunning, Gupta and Silberholz 2018)::

    <seed>,<heuristic>,"<file>",<objective>,<seconds>,[<t>:<v>;<t>:<v>;...]
    <blank line>
    Solution:
    <x_1> <x_2> ... <x_n>            0/1 separated by spaces, variable 1 first

The first line is a CSV summary (the bracket lists the objective's history);
``-ps`` adds the solution.  Without ``-ps`` there is no solution to read (an
error says to add it).  Several runs printed into one file are several
samples, in file order.

Sign: MQLib **maximises** ``x'Qx``; nonoqubo writes the ``.mqlib`` file
negated (:mod:`nonoqubo.exports.mqlib`), so the QUBO energy is
``offset - objective``: at a solution the objective equals the offset (120 for
the QUBO++ logo).  The reader reports ``-objective`` as the energy, marked as
lacking the offset, and ``decode`` adds the model's offset: the reported energy
is the QUBO energy.  The values are the model's variables in nonoqubo's
variable order.  A model with no variables stops MQLib ("Illegal dimension: 0"):
decode such a model with no samples.

Examples:
    >>> raw = loads('5,BURER2002,"m.mqlib",3,0.01,[0:1e-06]\\n\\nSolution:\\n1 0 1 \\n', source="x")
    >>> raw.values.tolist(), raw.energies.tolist(), raw.offset_excluded
    ([[1, 0, 1]], [-3.0], True)
"""

from __future__ import annotations

import re

import numpy as np

from .._util.text import head_text
from ..errors import FormatError, SampleError, located
from ._defaults import BINARY, EXTENSIONS, HEURISTIC, KIND, LEGACY_ENCODING
from ._raw import RawSamples

__all__ = ["detect", "loads"]

NAME = "mqlib"
TITLE = "MQLib output with -ps (CSV summary line, 'Solution:', the 0/1 vector)"
ALIASES = ("mqlib-out", "mqlib-answer")
ORDER = 25

#: seed, heuristic, "file", objective, seconds, [history]
_SUMMARY = re.compile(r'^[ \t]*\d+,([A-Za-z0-9_]+),"[^"\n]*",([^,\n]+),[^,\n]+,\[[^\n]*\][ \t]*\r?$', re.MULTILINE)
_VALUES = re.compile(r"[-+]?\d+")


def detect(head: bytes) -> bool:
    """The CSV summary line MQLib prints first."""
    text = head_text(head)
    return bool(_SUMMARY.match(text.lstrip()[:1_000_000]))


def loads(text: str, *, source: str) -> RawSamples:
    """Read every run's solution.

    Raises:
        FormatError: no summary line, an objective that is not a number, a run
            printed without ``-ps``, or a value that is not an integer.
        SampleError: the runs' solutions differ in length.
    """
    runs = list(_SUMMARY.finditer(text))
    if not runs:
        raise FormatError(located(source, 1, "no MQLib summary line ('seed,HEURISTIC,\"file\",objective,"
                                  "seconds,[...]'): not MQLib output"))
    rows: list[np.ndarray] = []
    objectives: list[float] = []
    for k, run in enumerate(runs):
        lineno = text.count("\n", 0, run.start()) + 1
        try:
            objectives.append(float(run.group(2)))
        except ValueError:
            raise FormatError(located(source, lineno, f"objective {run.group(2)!r} is not a number")) from None
        end = runs[k + 1].start() if k + 1 < len(runs) else len(text)
        body = text[run.end():end]
        mark = body.find("Solution:")
        if mark < 0:
            raise FormatError(located(source, lineno, "MQLib printed no solution for this run; run it with -ps "
                                      "(print solution)"))
        tokens = body[mark + len("Solution:"):].split()
        if not all(_VALUES.fullmatch(t) for t in tokens[:1] + tokens[-1:]) or not tokens:
            raise FormatError(located(source, lineno + body.count("\n", 0, mark) + 1,
                                      "expected the solution's values (0/1) after 'Solution:'"))
        try:
            rows.append(np.array(tokens, dtype=np.int64))
        except (ValueError, OverflowError):  # a letter, or a number past int64 (or 4,300 digits)
            bad = next((t for t in tokens if not _VALUES.fullmatch(t) or len(t.lstrip("+-")) > 18), tokens[0])
            raise FormatError(located(source, lineno + body.count("\n", 0, mark) + 1,
                                      f"{bad[:40]!r} is not a 0/1 value")) from None
    if len({r.size for r in rows}) > 1:
        raise SampleError(f"{source}: the runs' solutions have different lengths "
                          f"({', '.join(str(r.size) for r in rows)}): runs of different models?")
    return RawSamples(values=np.stack(rows), energies=-np.asarray(objectives), vartype="BINARY",
                      offset_excluded=True)
