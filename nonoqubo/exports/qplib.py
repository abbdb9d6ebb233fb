"""QPLIB text, binary unconstrained (Furini et al., Math. Prog. Comp. 2019, Appendix B of the supplement).

Grammar of the problem type ``QBN`` (quadratic objective, binary variables,
no constraints: the type the QPLIB site gives its unconstrained binary
instances, e.g. QPLIB_3506, 3565, 3642); text after ``#`` on a line is a comment::

    <name>                                   one word; nonoqubo adds '# nonoqubo {metadata}'
    QBN
    minimize
    <n> # number of variables
    <q> # number of quadratic terms in objective
    <h> <k> <v>                              q lines, 1-based, lower triangle h >= k
    <d> # default value for linear coefficients in objective
    <l> # number of non-default linear coefficients in objective
    <i> <b_i>                                l lines
    <c> # objective constant
    1.0E+20 # value for infinity
    0 # default primal start
    0 # number of non-default primal starts
    0 # default variable-bound dual start
    0 # number of non-default variable-bound dual starts
    0 # number of non-default variable names
    0 # number of non-default constraint names

Objective: ``1/2 sum v x_h x_k + b'x + c`` over the listed entries: every
entry, on the diagonal or off it, counts with the factor ½.  This is how the
real readers evaluate QPLIB's own instances against their published
solutions: pyqplib's ``obj_val``, OMMX's ``load_qplib`` since ommx#1207/#1209
(checked against QPLIB_0018 and QPLIB_0681) and the QUBOLib/JuliaQUBO reader.
So nonoqubo writes the linear biases in the linear section (no diagonal
entries), each pair coefficient **doubled** (``2 b_hk``, so that ½ of it is
``b_hk``) and the offset as the objective constant.  No variable names: pyqplib
refuses a file with names ("Non-standard variable / constraint names") and the
QUBOLib reader asserts there are none, so the labels travel in nonoqubo's JSON
metadata on the name line (with the clues and fixed variables; whole comment
lines are not part of the format and some readers reject them).  Reading,
``QBB`` (the type the QUBOLib reader asserts) is accepted too, and a file
written by earlier nonoqubo versions (names listed, pairs not doubled) is
still read as it was meant.  BINARY only.

Examples:
    >>> from nonoqubo.model.qubo import Qubo
    >>> q = Qubo.from_terms(["a", "b", "c"], [-1, 1, 0], [(0, 1, 2), (1, 2, -3)], offset=4)
    >>> lines = dumps(q).splitlines()
    >>> lines[1:9]
    ['QBN', 'minimize', '3 # number of variables', '2 # number of quadratic terms in objective', '2 1 4', '3 2 -6', '0 # default value for linear coefficients in objective', '2 # number of non-default linear coefficients in objective']
    >>> loads(dumps(q)) == q
    True
"""

from __future__ import annotations

import json
import re
from typing import IO, Any

import numpy as np

from .._util.guard import claimed, finite, integer, json_loads
from ..errors import FormatError, located
from ..model.qubo import Qubo
from ._defaults import ALIASES, BINARY, HEURISTIC, ISING, KIND, LEGACY_ENCODING, OFFSET, WRITE_BYTES_PER_TERM
from . import _header, _text

NAME = "qplib"
TITLE = "QPLIB QBN (binary, unconstrained): 1/2 of each lower-triangle entry, linear part, constant (labels in its metadata)"
EXTENSIONS = ("qplib",)
ORDER = 90

META_TAG = "# nonoqubo "


def _chunks(qubo: Qubo):
    meta = _header.describe(qubo, NAME)  # the labels go in the metadata: real readers refuse names
    name = "nonoqubo"
    if qubo.puzzle is not None and qubo.puzzle.name:
        name = re.sub(r"[^A-Za-z0-9_.+-]+", "_", qubo.puzzle.name).strip("_") or name
    d = np.flatnonzero(qubo.linear)
    yield f"{name} {META_TAG}{json.dumps(meta, separators=(',', ':'))}\nQBN\nminimize\n", 0
    yield f"{qubo.num_vars} # number of variables\n{qubo.num_quadratic} # number of quadratic terms in objective\n", 0
    yield from _text.data_chunks([qubo.col + 1, qubo.row + 1, 2 * qubo.quad.astype(np.int64)])  # 1/2 of every entry counts
    yield (f"0 # default value for linear coefficients in objective\n"
           f"{d.size} # number of non-default linear coefficients in objective\n"), 0
    yield _text.format_lines([d + 1, qubo.linear[d]]), int(d.size)
    yield (f"{int(qubo.offset)} # objective constant\n1.0E+20 # value for infinity\n"
           "0 # default primal start\n0 # number of non-default primal starts\n"
           "0 # default variable-bound dual start\n0 # number of non-default variable-bound dual starts\n"
           "0 # number of non-default variable names\n0 # number of non-default constraint names\n"), 0


def dumps(qubo: Qubo, *, ising: bool = False) -> str:
    """The QPLIB text of *qubo*."""
    return _text.join(_chunks(qubo))


def dump(qubo: Qubo, fp: IO[Any], *, ising: bool = False, progress: bool = False) -> None:
    """Write the QPLIB text of *qubo* to *fp*."""
    _text.emit(fp, _chunks(qubo), total=qubo.num_terms, desc=f"writing {NAME}", progress=progress)


class _Lines:
    """A cursor over the file's lines; blocks of many lines are taken at once."""

    def __init__(self, data: bytes, source: str) -> None:
        self.data, self.pos, self.line, self.source = data, 0, 0, source
        self._newlines: np.ndarray | None = None

    def raw(self) -> str:
        if self.pos >= len(self.data):
            raise FormatError(located(self.source, self.line + 1, "unexpected end of file"))
        stop = self.data.find(b"\n", self.pos)
        stop = len(self.data) if stop < 0 else stop
        text = self.data[self.pos:stop].decode("utf-8", "replace")
        self.pos, self.line = stop + 1, self.line + 1
        return text

    def value(self, what: str, kind: type = int) -> Any:
        text = self.raw().split("#", 1)[0].strip()
        try:
            return kind(text.split()[0])
        except (ValueError, IndexError):
            raise FormatError(located(self.source, self.line, f"expected {what}, found {text[:60]!r}")) from None

    def block(self, count: int) -> tuple[str, int]:
        """The next *count* lines as one string, and the number of its first line."""
        if count < 0:
            raise FormatError(located(self.source, self.line, f"a count of {count} lines is negative"))
        if count == 0:
            return "", self.line + 1
        if self._newlines is None:
            self._newlines = np.flatnonzero(np.frombuffer(self.data, np.uint8) == 10)
        k = int(np.searchsorted(self._newlines, self.pos))
        stop = int(self._newlines[k + count - 1]) + 1 if k + count - 1 < self._newlines.size else len(self.data)
        text = self.data[self.pos:stop].decode("utf-8", "replace")
        first = self.line + 1
        self.pos, self.line = stop, self.line + count
        if "#" in text:
            text = "\n".join(ln.split("#", 1)[0] for ln in text.split("\n"))
        return text, first


def loads(data: str | bytes, *, source: str = "<qplib>") -> Qubo:
    """The :class:`Qubo` of a QPLIB QBN/QBB file written by nonoqubo.

    Raises:
        FormatError: another problem type, a malformed line, or no nonoqubo metadata.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    cur = _Lines(raw, source)
    name_line = cur.raw()
    kind = cur.value("the problem type", str)
    if kind.upper() not in ("QBN", "QBB"):
        raise FormatError(located(source, 2, f"nonoqubo reads binary unconstrained QPLIB (QBN/QBB), not {kind!r}"))
    sense = cur.value("minimize or maximize", str).lower()
    if sense not in ("minimize", "maximize"):
        raise FormatError(located(source, 3, f"expected minimize or maximize, found {sense!r}"))
    n = claimed(cur.value("the number of variables"), len(raw), source, cur.line, "variables")
    text, first = cur.block(cur.value("the number of quadratic terms"))
    q = _text.parse_numbers(text, source, first, 3)
    h, k = _text.as_int(q[:, 0], source, "index") - 1, _text.as_int(q[:, 1], source, "index") - 1
    v = q[:, 2].copy()
    default = cur.value("the default linear coefficient", float)
    text, first = cur.block(cur.value("the number of linear coefficients"))
    lin_table = _text.parse_numbers(text, source, first, 2)
    linear = np.full(n, finite(np.float64(default), source, "the default linear coefficient"))
    where = _text.as_int(lin_table[:, 0], source, "index") - 1
    if where.size and (where.min() < 0 or where.max() >= n):
        raise FormatError(located(source, first, f"a linear coefficient's index is outside 1..{n}"))
    linear[where] = lin_table[:, 1]
    offset = cur.value("the objective constant", float)
    for what in ("the value for infinity", "the default primal start"):
        cur.value(what, str)
    cur.block(cur.value("the number of primal starts"))
    cur.value("the default dual start", str)
    cur.block(cur.value("the number of dual starts"))
    text, first = cur.block(cur.value("the number of variable names"))
    names: dict[int, str] = {}
    for off, line in enumerate(text.split("\n")):
        parts = line.split()
        if parts:
            if len(parts) != 2:
                raise FormatError(located(source, first + off, f"expected 'index name', found {line[:60]!r}"))
            names[integer(parts[0], source, first + off, 'variable name index') - 1] = parts[1]
    if "# nonoqubo " not in name_line:
        raise FormatError(located(source, 1, "no nonoqubo metadata after the problem name"))
    meta = json_loads(name_line.split("# nonoqubo ", 1)[1], source, 1)
    if not isinstance(meta, dict):
        raise FormatError(located(source, 1, "the nonoqubo metadata is not a JSON object"))
    labels = None
    if meta.get("labels") == "listed":
        if len(names) != n:
            raise FormatError(located(source, None, f"{len(names)} variable names for {n} variables"))
        labels = [names[i] for i in range(n)]
    diag = h == k
    linear += np.bincount(h[diag], weights=v[diag], minlength=n) / 2  # every listed entry counts 1/2
    sign = -1.0 if sense == "maximize" else 1.0
    off_diag = ~diag
    # files of earlier nonoqubo versions listed the names and wrote each pair undoubled
    pair = v[off_diag] if names else v[off_diag] / 2
    return _header.to_qubo(meta, sign * linear, h[off_diag], k[off_diag], sign * pair, sign * offset,
                           source, labels)



def detect(head: bytes) -> bool:
    """A nonoqubo name line followed by a QBN/QBB problem type."""
    lines = head.split(b"\n", 2)
    return len(lines) > 1 and b"# nonoqubo " in lines[0] and lines[1].split(b"#")[0].strip() in (b"QBN", b"QBB")
