"""MQLib text (Dunning, Gupta and Silberholz; ``MQLib/MQLib`` ``bin/README.md``).

Grammar::

    # <comment>
    <n> <m>                      variables, entry lines
    <a> <b> <w>                  1-based; Q_ab = Q_ba = w; (a, b) or (b, a), not both

Semantics: MQLib **maximises** ``x'Qx`` with ``Q`` symmetric, so a diagonal
line contributes ``w x_a`` and an off-diagonal line ``2 w x_a x_b``.  To hand
it nonoqubo's minimisation, every value is negated and off-diagonals are
halved (as QUBOTools writes MQLib): ``w_aa = -a_a`` and ``w_ab = -b_ab / 2``
(``a < b``, row-major).  Maximising ``x'Qx`` then minimises ``E``, and
``E = offset - x'Qx``.  No offset field: it is in the ``#`` metadata lines
(``# offset=...``, the offset of ``E``, not negated).  BINARY only.

Examples:
    >>> from nonoqubo.model.qubo import Qubo
    >>> q = Qubo.from_terms(["a", "b", "c"], [-1, 1, 0], [(0, 1, 2), (1, 2, -3)], offset=4)
    >>> print("".join(l + "\\n" for l in dumps(q).splitlines() if not l.startswith("#")), end="")
    3 4
    1 1 1
    1 2 -1
    2 2 -1
    2 3 1.5
    >>> loads(dumps(q)) == q
    True
"""

from __future__ import annotations


from ..model.qubo import Qubo
from ._defaults import ALIASES, BINARY, HEURISTIC, ISING, KIND, LEGACY_ENCODING, WRITE_BYTES_PER_TERM
from . import _coords, _header, _writer

NAME = "mqlib"
TITLE = "MQLib: 'n m', 1-based, maximised x'Qx (Q symmetric): written negated, off-diagonals halved"
EXTENSIONS = ("mqlib",)
ORDER = 70
OFFSET = "negated"

CONV = _coords.Convention(NAME, "#", base=1, half=True, negate=True)


def _head(qubo: Qubo, t: _coords.Terms) -> str:
    return (_header.comment_lines(t.meta, CONV.prefix) + "# maximise x'Qx (Q symmetric); energy = offset - x'Qx\n"
            + f"{qubo.num_vars} {t.count}\n")


dumps, dump = _writer.matrix_writer(CONV, _head)


def loads(data: str | bytes, *, source: str = "<mqlib>") -> Qubo:
    """The :class:`Qubo` of an MQLib text written by nonoqubo.

    Raises:
        FormatError: a missing size line, counts that do not match, bad lines, no metadata.
    """
    return _coords.read_sized(data, CONV, source)[2]



def detect(head: bytes) -> bool:
    """A nonoqubo header naming this format."""
    return _header.names_format(head, CONV.prefix, NAME)
