"""MatrixMarket coordinate text (NIST), ``general`` symmetry, holding the upper-triangular QUBO.

Grammar (MatrixMarket exchange format, NIST 1996)::

    %%MatrixMarket matrix coordinate real general
    % <comment>
    <rows> <cols> <entries>
    <i> <j> <value>              1-based

nonoqubo stores the QUBO matrix ``U`` as it is: ``U_ii`` the linear bias,
``U_ij`` (``i < j``) the full pair coefficient, nothing below the diagonal,
so ``E = offset + x'Ux``.  (With ``symmetric`` the file would hold one
triangle and readers would mirror it, which would need halved
off-diagonals; ``general`` avoids that trap.)  The offset, clues and label
rule are in ``%`` comment lines.  ``scipy.io.mmread`` reads the file.
BINARY only.

Examples:
    >>> from nonoqubo.model.qubo import Qubo
    >>> q = Qubo.from_terms(["a", "b", "c"], [-1, 1, 0], [(0, 1, 2), (1, 2, -3)], offset=4)
    >>> print("".join(l + "\\n" for l in dumps(q).splitlines() if not l.startswith("% ")), end="")
    %%MatrixMarket matrix coordinate real general
    3 3 4
    1 1 -1
    1 2 2
    2 2 1
    2 3 -3
    >>> loads(dumps(q)) == q
    True
"""

from __future__ import annotations


from .._util.guard import integer
from .._util.text import decode
from ..errors import FormatError, located
from ..model.qubo import Qubo
from ._defaults import ALIASES, BINARY, HEURISTIC, ISING, KIND, LEGACY_ENCODING, WRITE_BYTES_PER_TERM
from . import _coords, _header, _text, _writer

NAME = "mtx"
TITLE = "MatrixMarket coordinate real general: the upper-triangular QUBO matrix, 1-based (offset in '%' lines)"
EXTENSIONS = ("mtx",)
ORDER = 80
OFFSET = "excluded"

BANNER = "%%MatrixMarket matrix coordinate real general"
CONV = _coords.Convention(NAME, "%", base=1)


def _head(qubo: Qubo, t: _coords.Terms) -> str:
    return (BANNER + "\n" + _header.comment_lines(t.meta, CONV.prefix)
            + "% energy = offset + x'Ux, U upper triangular (diagonal = linear biases)\n"
            + f"{qubo.num_vars} {qubo.num_vars} {t.count}\n")


dumps, dump = _writer.matrix_writer(CONV, _head)


def loads(data: str | bytes, *, source: str = "<mtx>") -> Qubo:
    """The :class:`Qubo` of a MatrixMarket text written by nonoqubo.

    Raises:
        FormatError: not a coordinate general matrix, a bad size line, counts
            that do not match, bad entry lines, no metadata.
    """
    text = decode(data, source, what="QUBO text file")
    banner = text.split("\n", 1)[0].split()
    if len(banner) != 5 or banner[0].lower() != "%%matrixmarket" or [b.lower() for b in banner[1:3]] != ["matrix", "coordinate"]:
        raise FormatError(located(source, 1, "expected '%%MatrixMarket matrix coordinate <field> general'"))
    if banner[4].lower() != "general" or banner[3].lower() not in ("real", "integer"):
        raise FormatError(located(source, 1, f"nonoqubo reads 'real general' or 'integer general' matrices, not {' '.join(banner[3:])!r}"))
    comments, line_no, body = _text.split_comments(text, CONV.marker)
    meta = _header.parse_comments(comments, CONV.marker, source)
    _coords.need_meta(meta, source)
    size, pos = _text.next_line(body, 0)
    parts = size.split()
    if len(parts) != 3:
        raise FormatError(located(source, line_no, f"expected the size line 'rows cols entries', found {size[:60]!r}"))
    rows, cols, nnz = (integer(x, source, line_no, "size line") for x in parts)
    rows = _coords.variables(meta, len(text), source, line_no, rows)
    if rows != cols:
        raise FormatError(located(source, line_no, f"a QUBO matrix is square, this one is {rows} x {cols}"))
    i, j, v = _coords.read_terms(body[pos:], line_no + 1, CONV, rows, source)
    if i.size != nnz:
        raise FormatError(located(source, line_no, f"the size line announces {nnz} entries but the file has {i.size}"))
    return _coords.to_model(meta, i, j, v, rows, meta.get("offset", 0), source)



def detect(head: bytes) -> bool:
    """A MatrixMarket banner followed by a nonoqubo header."""
    lines = head.split(b"\n", 2)
    return lines[0].lower().startswith(b"%%matrixmarket") and len(lines) > 1 and \
        _header.names_format(lines[1], CONV.prefix, NAME)
