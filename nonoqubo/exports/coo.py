"""COO text, as read by ``dimod.serialization.coo.load``: one ``i j bias`` line per term.

Grammar (dimod 0.12 ``dimod/serialization/coo.py``)::

    # vartype=BINARY                 comment lines start with '#'
    <i> <j> <bias>                   0-based, i <= j; i == j is the linear bias of i

Energy: ``E = offset + sum over lines of bias * x_i * x_j`` (``x_i * x_i = x_i``),
the upper triangle, each pair once, full coefficient, in row-major order.
dimod's COO has no field for the offset (dimod#767) and loses a variable whose
bias is zero and that has no partner, so the offset, the variable count and
the clues ride in the ``#`` header (see :mod:`nonoqubo.exports._header`); the
``# vartype=...`` line is the one dimod's reader looks for.  Integers are
written as integers and Ising biases as short decimals (``-0.25``), never in
scientific notation, which dimod's line pattern would silently skip.

Examples:
    >>> from nonoqubo.model.qubo import Qubo
    >>> q = Qubo.from_terms(["a", "b", "c"], [-1, 1, 0], [(0, 1, 2), (1, 2, -3)], offset=4)
    >>> text = dumps(q)
    >>> print("".join(l + "\\n" for l in text.splitlines() if not l.startswith("#")), end="")
    0 0 -1
    0 1 2
    1 1 1
    1 2 -3
    >>> loads(text) == q
    True
"""

from __future__ import annotations


from .._util.text import decode
from ..model.qubo import Qubo
from ._defaults import ALIASES, BINARY, HEURISTIC, KIND, LEGACY_ENCODING, WRITE_BYTES_PER_TERM
from . import _coords, _header, _text, _writer

NAME = "coo"
TITLE = "COO text 'i j bias', 0-based upper triangle, as read by dimod.serialization.coo (offset in '# offset=')"
EXTENSIONS = ("coo",)
ISING = True
ORDER = 40
OFFSET = "excluded"

CONV = _coords.Convention(NAME, "#")


def _chunks(qubo: Qubo, ising: bool):
    terms = _coords.terms_of(qubo, CONV, ising=ising)
    yield _header.comment_lines(terms.meta, CONV.prefix), 0
    yield from terms.chunks()


dumps, dump = _writer.text_writer(NAME, _chunks)


def loads(data: str | bytes, *, source: str = "<coo>") -> Qubo:
    """The :class:`Qubo` of a COO text written by nonoqubo.

    Raises:
        FormatError: malformed lines, or no nonoqubo metadata comments.
    """
    text = decode(data, source, what="QUBO text file")
    comments, first, body = _text.split_comments(text, CONV.marker)
    meta = _header.parse_comments(comments, CONV.marker, source)
    _coords.need_meta(meta, source)
    n = _coords.variables(meta, len(text), source)
    i, j, v = _coords.read_terms(body, first, CONV, n, source)
    return _coords.to_model(meta, i, j, v, n, meta.get("offset", 0), source)



def detect(head: bytes) -> bool:
    """A nonoqubo header naming this format."""
    return _header.names_format(head, CONV.prefix, NAME)
