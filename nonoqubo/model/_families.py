"""The pieces every encoding's geometry is made of: slot entries, penalty families, the view signs.

Private to :mod:`nonoqubo.model`: :mod:`~nonoqubo.model.geometry` (the domain wall, the
:class:`~nonoqubo.model.geometry.Geometry` protocol), :mod:`~nonoqubo.model.onehot` and every
other encoding's geometry use them, and the geometry module re-exports them; the encodings'
size counters share :data:`EXACT_VARIABLES`, and their builders :func:`quad_dtype` (the bias type)
and :func:`pair_arrays` (the result's pair arrays, sized from every variable's partner count).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Protocol, runtime_checkable

import numpy as np

INT = np.int64
#: the sign of a row view's entry in ``row coverage - column coverage``
ROW_SIGN = 1
#: the sign of a column view's entry
COLUMN_SIGN = -1
#: variables up to which an encoding's size counter (``count_terms``, :mod:`nonoqubo.model.estimate`)
#: is exact (about 40 bytes a variable, briefly); past it, a cruder bound from each line's blocks and
#: margin, in O(lines)
EXACT_VARIABLES = 30_000_000


def quad_dtype(bound: int) -> type:
    """The smallest signed integer type that holds every bias up to *bound* in magnitude."""
    for dt in (np.int8, np.int16, np.int32):
        if bound <= np.iinfo(dt).max:
            return dt
    return np.int64


def pair_arrays(count: np.ndarray, bias_type: type) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(start, row, col, quad)`` for a builder that writes its pairs in final ``(row, col)`` order.

    *count* is every variable's number of partners of higher index; variable ``u``'s pairs go
    to ``start[u] .. start[u + 1] - 1``, ``row`` is filled (``u`` repeated), ``col`` (int32) and
    ``quad`` (*bias_type*) are left for the builder to fill.

    Examples:
        >>> start, row, col, quad = pair_arrays(np.array([2, 0, 1]), np.int8)
        >>> start.tolist(), row.tolist(), col.size, quad.dtype.name
        ([0, 2, 2, 3], [0, 0, 2], 3, 'int8')
    """
    n = count.size
    start = np.zeros(n + 1, INT)
    np.cumsum(count, out=start[1:])
    m = int(start[-1])
    row = np.repeat(np.arange(n, dtype=np.int32), count)
    return start, row, np.empty(m, np.int32), np.empty(m, bias_type)


class SlotEntries(NamedTuple):
    """The linear part of one view's coverage: entry ``t`` adds ``coef[t] * x[var[t]]`` to ``slot[t]``.

    Attributes:
        var: the variable of each entry (int64, full-layout variable index).
        slot: its slot in the view, ``(i * W + j) * C + (c - 1)`` (int64).
        coef: its coefficient (int8).
    """

    var: np.ndarray
    slot: np.ndarray
    coef: np.ndarray


@runtime_checkable
class Family(Protocol):
    """One kind of penalty term of an encoding (the decoder reports each violated term).

    Term ``t`` concerns block ``block[t]`` at ``position[t]`` (the index a
    report shows, ``p`` of ``w[k][p]``) and names the variables ``first[t]``
    and ``second[t]``.  The four arrays are read-only properties, so a frozen
    dataclass's fields satisfy them.
    """

    @property
    def first(self) -> np.ndarray: ...
    @property
    def second(self) -> np.ndarray: ...
    @property
    def block(self) -> np.ndarray: ...
    @property
    def position(self) -> np.ndarray: ...

    def violations(self, xt: np.ndarray) -> np.ndarray:
        """``(terms, S)`` penalty of every term for samples given as ``(num_vars, S)`` columns.

        Booleans when every term costs 0 or 1 (the sum over terms is the
        family's energy either way).
        """
        ...


@dataclass(frozen=True)
class PairFamily:
    """Terms of two variables, each costing 1 when ``(x[first], x[second]) == pattern``.

    The patterns in use: ``(0, 1)`` is ``(1 - x_a) x_b``, ``(1, 0)`` is
    ``x_a (1 - x_b)``, ``(1, 1)`` is ``x_a x_b``.

    Examples:
        >>> f = PairFamily(np.array([0]), np.array([1]), np.array([0]), np.array([0]), (0, 1))
        >>> f.violations(np.array([[0, 0, 1, 1], [0, 1, 0, 1]], np.int8)).tolist()
        [[False, True, False, False]]
    """

    first: np.ndarray
    second: np.ndarray
    block: np.ndarray
    position: np.ndarray
    pattern: tuple[int, int]

    def __len__(self) -> int:
        return int(self.first.size)

    def violations(self, xt: np.ndarray) -> np.ndarray:
        """``(terms, S)`` booleans: where each term's pair takes :attr:`pattern`."""
        a, b = xt[self.first], xt[self.second]
        if self.pattern == (0, 1):
            return b > a
        if self.pattern == (1, 0):
            return a > b
        if self.pattern == (1, 1):
            return (a != 0) & (b != 0)
        return (a == self.pattern[0]) & (b == self.pattern[1])
