"""QOBLIB ``.qs`` text (Quantum Optimization Benchmarking Library, Koch et al. 2026; ZIMPL ``qbowrite``).

Grammar::

    # ObjectiveOffset <c>        always present, the first line
    # <comment>
    <n> <m>                      variables, entry lines
    <i> <j> <q>                  1-based, i <= j

Semantics: ``E = c + x'Qx`` with ``Q`` symmetric, that is
``E = c + sum_i Q_ii x_i + 2 sum_{i<j} Q_ij x_i x_j``, minimised.  So a
diagonal line holds the full linear bias and **an off-diagonal line holds half
the pair coefficient** (``2 x_0 x_1`` is written ``1 2 1``).  nonoqubo writes
the offset exactly (ZIMPL truncates it with ``(long)``), and its metadata in
further ``#`` lines.  BINARY only.

Examples:
    >>> from nonoqubo.model.qubo import Qubo
    >>> q = Qubo.from_terms(["a", "b", "c"], [-1, 1, 0], [(0, 1, 2), (1, 2, -3)], offset=4)
    >>> lines = dumps(q).splitlines()
    >>> lines[0]
    '# ObjectiveOffset 4'
    >>> print("".join(l + "\\n" for l in lines if not l.startswith("#")), end="")
    3 4
    1 1 -1
    1 2 1
    2 2 1
    2 3 -1.5
    >>> loads(dumps(q)) == q
    True
"""

from __future__ import annotations


from ..errors import FormatError, located
from ..model.qubo import Qubo
from ._defaults import ALIASES, BINARY, HEURISTIC, ISING, KIND, LEGACY_ENCODING, OFFSET, WRITE_BYTES_PER_TERM
from . import _coords, _header, _writer

NAME = "qs"
TITLE = "QOBLIB .qs: '# ObjectiveOffset', 'n m', 1-based i <= j, off-diagonals halved (E = c + x'Qx, Q symmetric)"
EXTENSIONS = ("qs",)
ORDER = 60

CONV = _coords.Convention(NAME, "#", base=1, half=True)


def _head(qubo: Qubo, t: _coords.Terms) -> str:
    return (f"# ObjectiveOffset {t.offset}\n# Vars Non-zeros\n" + _header.comment_lines(t.meta, CONV.prefix)
            + f"{qubo.num_vars} {t.count}\n")


dumps, dump = _writer.matrix_writer(CONV, _head)


def loads(data: str | bytes, *, source: str = "<qs>") -> Qubo:
    """The :class:`Qubo` of a ``.qs`` text written by nonoqubo.

    Raises:
        FormatError: a missing size line, counts that do not match, bad lines, no metadata.
    """
    meta, comments, qubo = _coords.read_sized(data, CONV, source)
    for c in comments:  # the format's own offset line wins over the metadata copy
        parts = c.lstrip("#").split()
        if len(parts) == 2 and parts[0] == "ObjectiveOffset":
            try:
                offset = float(parts[1])
            except ValueError:
                raise FormatError(located(source, 1, f"ObjectiveOffset {parts[1][:40]!r} is not a number")) from None
            if offset != qubo.offset:
                raise FormatError(located(source, 1, f"ObjectiveOffset {parts[1]} differs from the metadata offset {qubo.offset}"))
    return qubo



def detect(head: bytes) -> bool:
    """The QOBLIB first line."""
    return head.lstrip(b"\xef\xbb\xbf").startswith(b"# ObjectiveOffset")
