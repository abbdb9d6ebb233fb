"""qbsolv ``.qubo`` text (D-Wave qbsolv, deprecated 2021, still a common interchange format).

Grammar (``dwavesystems/qbsolv`` README, "format-start-marker")::

    c <comment>                                  'c' in column 1, anywhere
    p qubo 0 <maxNodes> <nNodes> <nCouplers>     the program line; topology always 0 (qbsolv#73)
    <i> <i> <w>                                  nNodes diagonal lines (linear biases)
    <i> <j> <w>                                  nCouplers lines, i < j

0-based; the upper triangle, each pair once, full coefficient, minimised:
``E = offset + sum_i w_ii x_i + sum_{i<j} w_ij x_i x_j``.  ``maxNodes`` is
the number of variables, ``nNodes`` the number of diagonal lines written
(only nonzero ones, as the bundled instances do).  The format has no offset
field; nonoqubo writes it, the clues and the label rule in ``c`` lines
(``c offset=120``).  BINARY only.

Examples:
    >>> from nonoqubo.model.qubo import Qubo
    >>> q = Qubo.from_terms(["a", "b", "c"], [-1, 1, 0], [(0, 1, 2), (1, 2, -3)], offset=4)
    >>> print("".join(l + "\\n" for l in dumps(q).splitlines() if not l.startswith("c")), end="")
    p qubo 0 3 2 2
    0 0 -1
    1 1 1
    0 1 2
    1 2 -3
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

NAME = "qbsolv"
TITLE = "qbsolv .qubo: 'p qubo 0 maxNodes nNodes nCouplers', diagonal lines then couplers, 0-based (offset in 'c' lines)"
EXTENSIONS = ("qubo",)
ORDER = 50
OFFSET = "excluded"

CONV = _coords.Convention(NAME, "c", diagonal_first=True)


def _head(qubo: Qubo, t: _coords.Terms) -> str:
    return (_header.comment_lines(t.meta, CONV.prefix)
            + f"p qubo 0 {qubo.num_vars} {t.num_diagonal} {t.count - t.num_diagonal}\n")


dumps, dump = _writer.matrix_writer(CONV, _head)


def loads(data: str | bytes, *, source: str = "<qubo>") -> Qubo:
    """The :class:`Qubo` of a ``.qubo`` text written by nonoqubo.

    Raises:
        FormatError: no or a malformed program line, counts that do not match,
            bad term lines, or no nonoqubo metadata.
    """
    text = decode(data, source, what="QUBO text file")
    comments, line_no, body = _text.split_comments(text, CONV.marker)
    program, pos = _text.next_line(body, 0)
    parts = program.split()
    if len(parts) != 6 or parts[:2] != ["p", "qubo"]:
        raise FormatError(located(source, line_no, f"expected 'p qubo 0 maxNodes nNodes nCouplers', found {program[:60]!r}"))
    max_nodes, n_nodes, n_couplers = (integer(x, source, line_no, "program line") for x in parts[3:])
    rest = body[pos:]
    more = [ln for ln in rest.split("\n") if ln.startswith(CONV.marker)] if "\nc" in "\n" + rest else []
    meta = _header.parse_comments(comments + more, CONV.marker, source)
    _coords.need_meta(meta, source)
    max_nodes = _coords.variables(meta, len(text), source, line_no, max_nodes)
    i, j, v = _coords.read_terms(rest, line_no + 1, CONV, max_nodes, source)
    diag = int((i == j).sum())
    if diag != n_nodes or i.size - diag != n_couplers:
        raise FormatError(located(source, line_no, f"the program line announces {n_nodes} diagonal and {n_couplers} "
                                  f"coupler lines but the file has {diag} and {i.size - diag}"))
    return _coords.to_model(meta, i, j, v, max_nodes, meta.get("offset", 0), source)



def detect(head: bytes) -> bool:
    """A nonoqubo ``c`` header naming this format."""
    return _header.names_format(head, CONV.prefix, NAME)
