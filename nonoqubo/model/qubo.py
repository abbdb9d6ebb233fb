"""The QUBO as a plain value: labels, integer biases and an offset, as NumPy arrays.

Canonical energy (every export converts from this, and nothing else)::

    E(x) = offset + sum_i linear[i] * x_i + sum_t quad[t] * x[row[t]] * x[col[t]]

with ``row[t] < col[t]``: the upper triangle, each pair once, full
coefficient.  Pairs are sorted by ``(row, col)``, merged, and none is zero.
``linear`` is int64; ``row``/``col`` are int32 or int64 and ``quad`` any signed
integer type (the builder stores int32 indices and int8 biases, 9 bytes a pair
instead of 24; :meth:`from_terms` gives int64, :meth:`fix` int64 indices and the
biases' own type).  Every sum is taken in int64, so energies are exact.

A :class:`Qubo` may carry the :class:`~nonoqubo.model.puzzle.Puzzle` it encodes (so
exported files are self-describing) and the variables fixed before export
(``fixed``, label -> 0/1), so a sample of a reduced model can be completed.  It
carries its ``encoding`` (an :class:`~nonoqubo.model.encodings.Encoding`, equal to
its name; a name given is looked up in :mod:`nonoqubo.model.encodings`) and the penalty ``weights`` it was
built with (:class:`~nonoqubo.model.weights.Weights`); both survive :meth:`fix`
and every export.

Examples:
    >>> q = Qubo.from_terms(["a", "b"], [1, -2], [(0, 1, 3)], offset=5)
    >>> q.energy([[0, 0], [1, 1], [0, 1]]).tolist()
    [5, 7, 3]
    >>> q.fix({"a": 1}).energy([[1]]).tolist()
    [7]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..errors import MissingDependency, NoSolution, SampleError
from .encodings import DEFAULT, Encoding, EncodingLike, encoding_named
from .puzzle import Puzzle
from .weights import DEFAULT_WEIGHTS, Weights

if TYPE_CHECKING:
    import dimod

__all__ = ["IsingArrays", "Qubo"]

INT = np.int64
#: samples times terms handled at once by energy(); bounds its memory (~0.5 GB)
_ENERGY_CHUNK = 1 << 25


class IsingArrays(NamedTuple):
    """The same model over spins ``s = 2x - 1``: ``offset + h.s + sum J s_i s_j``."""

    h: np.ndarray
    row: np.ndarray
    col: np.ndarray
    J: np.ndarray
    offset: float


@dataclass(frozen=True, eq=False)
class Qubo:
    """A QUBO in canonical form (see the module docstring).

    Use :meth:`from_terms` to make one from arbitrary (unsorted, duplicated,
    lower-triangle) terms; the constructor trusts its arrays.
    """

    labels: Sequence[str]
    linear: np.ndarray
    row: np.ndarray
    col: np.ndarray
    quad: np.ndarray
    offset: int = 0
    puzzle: Puzzle | None = None
    fixed: Mapping[str, int] = field(default_factory=dict)
    encoding: Encoding = DEFAULT
    weights: Weights = DEFAULT_WEIGHTS
    #: the presolve that fixed ``fixed`` when it was not line logic alone (``"probe"``), else None
    presolve: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.encoding, Encoding):  # a name (or None): the registry's object
            object.__setattr__(self, "encoding", encoding_named(self.encoding))

    # -- construction --------------------------------------------------------------------
    @classmethod
    def from_terms(
        cls,
        labels: Sequence[str],
        linear: Sequence[int] | np.ndarray,
        quadratic: Iterable[tuple[int, int, int]] | tuple[np.ndarray, np.ndarray, np.ndarray] = (),
        offset: int = 0,
        *,
        puzzle: Puzzle | None = None,
        fixed: Mapping[str, int] | None = None,
        encoding: EncodingLike = DEFAULT,
        weights: Weights = DEFAULT_WEIGHTS,
        presolve: str | None = None,
    ) -> Qubo:
        """Canonicalise arbitrary terms: ``i > j`` pairs are swapped, ``i == j``
        pairs fold into the linear part (``x*x = x``), duplicates add up, zeros go.

        Args:
            labels: one label per variable.
            linear: one bias per variable.
            quadratic: ``(i, j, bias)`` triples, or three arrays ``(rows, cols, biases)``.
            offset: the constant.
        """
        n = len(labels)
        lin = np.array(linear, dtype=INT).reshape(-1)
        if lin.size != n:
            raise ValueError(f"{n} labels but {lin.size} linear biases")
        if isinstance(quadratic, tuple) and len(quadratic) == 3 and all(
            isinstance(a, np.ndarray) for a in quadratic
        ):
            i, j, b = (np.asarray(a, dtype=INT).reshape(-1) for a in quadratic)
        else:
            triples = np.array(list(quadratic), dtype=INT).reshape(-1, 3)
            i, j, b = triples[:, 0], triples[:, 1], triples[:, 2]
        if i.size and (min(i.min(), j.min()) < 0 or max(i.max(), j.max()) >= n):
            raise ValueError(f"a quadratic term refers to a variable outside 0..{n - 1}")
        diag = i == j
        if diag.any():
            lin = lin + _sum_by(i[diag], b[diag], n)
        i, j, b = i[~diag], j[~diag], b[~diag]
        lo, hi = np.minimum(i, j), np.maximum(i, j)
        r, c, v = merge_pairs(lo, hi, b, n)
        return cls(list(labels), lin, r, c, v, int(offset), puzzle, dict(fixed or {}), encoding_named(encoding), weights,
                   presolve)

    # -- figures -------------------------------------------------------------------------
    @property
    def num_vars(self) -> int:
        return len(self.labels)

    @property
    def num_linear(self) -> int:
        """Nonzero linear biases."""
        return int(np.count_nonzero(self.linear))

    @property
    def num_quadratic(self) -> int:
        return int(self.quad.size)

    @property
    def num_terms(self) -> int:
        """Nonzero linear plus quadratic terms (the offset not counted)."""
        return self.num_linear + self.num_quadratic

    def degrees(self) -> np.ndarray:
        """Number of quadratic partners of each variable."""
        return np.bincount(self.row, minlength=self.num_vars) + np.bincount(self.col, minlength=self.num_vars)

    def coefficient_range(self) -> tuple[int, int]:
        """Smallest and largest nonzero bias (linear or quadratic); (0, 0) when none."""
        parts = [a[a != 0] for a in (self.linear, self.quad)]
        allv = np.concatenate(parts)
        return (int(allv.min()), int(allv.max())) if allv.size else (0, 0)

    @cached_property
    def index(self) -> dict[str, int]:
        """label -> variable index."""
        return dict(zip(self.labels, range(len(self.labels))))

    # -- evaluation ----------------------------------------------------------------------
    def energy(self, samples: np.ndarray | Sequence[Sequence[int]] | Sequence[int]) -> np.ndarray:
        """Exact energies of one sample ``(N,)`` or many ``(S, N)``, vectorised.

        Returns:
            int64 array of shape ``(S,)`` (``(1,)`` for a single sample).

        Raises:
            SampleError: wrong length, or values other than 0 and 1.
        """
        x = np.asarray(samples)
        if x.ndim == 1:
            x = x[None, :]
        if x.ndim != 2 or x.shape[1] != self.num_vars:
            raise SampleError(
                f"a sample must have {self.num_vars} values (one per variable), got shape {x.shape}"
            )
        if x.size and not np.isin(x, (0, 1)).all():
            raise SampleError("sample values must be 0 or 1 (convert spins with (1 + s) // 2)")
        x = x.astype(np.int8, copy=False)
        out = np.full(x.shape[0], self.offset, dtype=INT)
        out += x.astype(INT) @ self.linear if self.num_vars else 0
        m = self.quad.size
        if m:
            row, col, groups = self._pairs_by_bias
            step = max(1, _ENERGY_CHUNK // m)
            for s0 in range(0, x.shape[0], step):
                xs = x[s0 : s0 + step]
                both = xs[:, row] & xs[:, col]  # int8: 1 where the pair is on
                if groups is None:
                    out[s0 : s0 + step] += both.astype(INT) @ self.quad
                    continue
                # few distinct biases (the builder has about ten): count the pairs
                # that are on per bias, with int64 sums of int8 slices
                for bias, lo, hi in groups:
                    out[s0 : s0 + step] += bias * np.sum(both[:, lo:hi], axis=1, dtype=INT)
        return out

    @cached_property
    def _pairs_by_bias(self) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int, int]] | None]:
        """Pairs reordered so that equal biases are contiguous, with their ``(bias, start, end)``.

        ``None`` instead of the groups when there are too many distinct biases
        for grouping to pay; the pairs are then in their canonical order.
        """
        values = np.unique(self.quad)
        if values.size > 64:
            return self.row, self.col, None
        order = np.argsort(self.quad, kind="stable")
        sorted_bias = self.quad[order]
        starts = np.searchsorted(sorted_bias, values, side="left")
        ends = np.searchsorted(sorted_bias, values, side="right")
        groups = [(int(v), int(a), int(b)) for v, a, b in zip(values, starts, ends)]
        return self.row[order], self.col[order], groups

    # -- transformations -----------------------------------------------------------------
    @property
    def no_solution(self) -> str | None:
        """Why the puzzle has no solution, when the model alone proves it; else None.

        A model with no variables has one assignment, the empty one, and its energy is the offset.
        A solution of a puzzle's model has energy 0, so a puzzle's model with no variables and an
        offset that is not 0 says the puzzle has none (rows ``[2], []`` and columns ``[], [2]``: every
        block is placed, and two cells disagree).  ``build``, ``info`` and ``solve`` ask this (a model
        without clues is anyone's: None).

        Examples:
            >>> Qubo.from_terms([], [], offset=2, puzzle=Puzzle(rows=[[2], []], cols=[[], [2]])).no_solution
            'its model has no variables and its one assignment has energy 2, not 0'
        """
        if self.num_vars or not self.offset or self.puzzle is None:
            return None
        return f"its model has no variables and its one assignment has energy {self.offset:g}, not 0"

    def check_solvable(self, source: str | None = None) -> None:
        """Raise :class:`~nonoqubo.errors.NoSolution` (naming *source*, a file or the puzzle's name, when there
        is one) when :attr:`no_solution` says why."""
        if (why := self.no_solution) is not None:
            raise NoSolution(f"{source + ': ' if source else ''}the puzzle has no solution: {why}")

    def fix(self, assignments: Mapping[str, int]) -> Qubo:
        """Substitute fixed values for some variables and drop them.

        A quadratic term with one fixed variable moves into the other's linear
        bias; with both fixed, into the offset.  Labels, order and the puzzle are
        kept; the new model's ``fixed`` records every fixed variable so far.

        Raises:
            SampleError: an unknown label or a value other than 0/1.
        """
        names = list(assignments)
        index = self.index
        pos = np.fromiter((index.get(k, -1) for k in names), INT, len(names))
        if (pos < 0).any():
            bad = names[int(np.argmax(pos < 0))]
            raise SampleError(f"cannot fix {bad!r}: no such variable in the model")
        vals = np.fromiter((v if v in (0, 1) else -1 for v in assignments.values()), INT, len(names))
        if (vals < 0).any():
            bad = names[int(np.argmax(vals < 0))]
            raise SampleError(f"cannot fix {bad!r} to {assignments[bad]!r}: values are 0 or 1")
        return self._fix_arrays(pos, vals)

    def _fix_arrays(self, pos: np.ndarray, vals: np.ndarray) -> Qubo:
        """:meth:`fix` on index/value arrays (validated by the caller)."""
        n = self.num_vars
        value = np.full(n, -1, dtype=np.int8)  # -1 free, else the fixed value
        value[pos] = vals
        is_fixed = value >= 0
        keep = np.flatnonzero(~is_fixed)
        offset = int(self.offset) + int(self.linear[value == 1].sum())
        lin = self.linear.copy()
        # each pair's state as one int8 code 3 * state(row) + state(col), with state 0 (fixed
        # to 0), 1 (fixed to 1) or 2 (free); canonical rows are sorted, so their states are a repeat
        state = np.where(is_fixed, value, 2).astype(np.int8)
        triple = state * np.int8(3)
        if self.row.size and bool(np.all(self.row[1:] >= self.row[:-1])):
            code = np.repeat(triple, _run_counts(self.row, n))
        else:  # a model built by hand, out of order
            code = triple[self.row]
        code += state[self.col]
        # both fixed to 1: the pair's bias joins the offset; pairs with a 0 vanish
        offset += int(self.quad[code == 4].sum())
        # one side fixed to 1, the other free: the bias joins the free one's linear bias
        one_free = code == 5
        lin += _sum_by(self.col[one_free], self.quad[one_free], n)
        one_free = code == 7
        lin += _sum_by(self.row[one_free], self.quad[one_free], n)
        del one_free
        free = code == 8
        del code
        new_index = np.full(n, -1, dtype=INT)
        new_index[keep] = np.arange(keep.size, dtype=INT)
        fixed_at = np.flatnonzero(is_fixed)  # recorded in variable order
        if keep.size == 0:  # everything fixed (a line-solvable puzzle): no gathers of labels
            fixed: Mapping[str, int] = _Fixed(self.fixed, self.labels, value)
            labels = np.empty(0, dtype=object)
        else:
            labels = np.empty(n, dtype=object)
            labels[:] = self.labels
            fixed = _Fixed(self.fixed, labels[fixed_at].tolist(), value[fixed_at])
        return Qubo(
            labels=labels[keep].tolist(),
            linear=lin[keep],
            row=new_index[self.row[free]],
            col=new_index[self.col[free]],
            quad=self.quad[free],
            offset=offset,
            puzzle=self.puzzle,
            fixed=fixed,
            encoding=self.encoding,
            weights=self.weights,
            presolve=self.presolve,
        )

    def to_ising(self) -> IsingArrays:
        """The same model over spins, through ``x = (1 + s) / 2``.

        ``b x_i x_j = b/4 (1 + s_i + s_j + s_i s_j)`` and ``a x_i = a/2 (1 + s_i)``,
        so biases become multiples of 1/4 (exact in float64).
        """
        n = self.num_vars
        quarter = self.quad.astype(np.float64) / 4.0
        h = self.linear.astype(np.float64) / 2.0
        h += np.bincount(self.row, weights=quarter, minlength=n) + np.bincount(self.col, weights=quarter, minlength=n)
        offset = float(self.offset) + float(self.linear.sum()) / 2.0 + float(self.quad.sum()) / 4.0
        return IsingArrays(h, self.row.copy(), self.col.copy(), quarter, offset)

    def to_bqm(self, vartype: str = "BINARY") -> dimod.BinaryQuadraticModel:
        """A dimod BQM (``vartype`` ``"BINARY"`` or ``"SPIN"``), labels kept.

        Built with ``BinaryQuadraticModel.from_numpy_vectors``, the fast way in.
        """
        try:
            import dimod
        except ImportError:  # pragma: no cover - dimod is a runtime dependency
            raise MissingDependency("dimod", "dimod", "a dimod BQM") from None
        if vartype.upper() == "SPIN":
            ising = self.to_ising()
            return dimod.BinaryQuadraticModel.from_numpy_vectors(
                ising.h, (ising.row, ising.col, ising.J), ising.offset, dimod.SPIN,
                variable_order=list(self.labels),
            )
        return dimod.BinaryQuadraticModel.from_numpy_vectors(
            self.linear, (self.row, self.col, self.quad), int(self.offset), dimod.BINARY,
            variable_order=list(self.labels),
        )

    # -- comparison ----------------------------------------------------------------------
    def same_model(self, other: Qubo) -> bool:
        """True when both have the same labels in the same order and the same terms."""
        return (
            list(self.labels) == list(other.labels)
            and int(self.offset) == int(other.offset)
            and np.array_equal(self.linear, other.linear)
            and np.array_equal(self.row, other.row)
            and np.array_equal(self.col, other.col)
            and np.array_equal(self.quad, other.quad)
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Qubo):
            return NotImplemented
        return self.same_model(other) and dict(self.fixed) == dict(other.fixed) and (
            self.encoding == other.encoding and tuple(self.weights) == tuple(other.weights)) and (
            self.puzzle is None or other.puzzle is None or self.puzzle == other.puzzle
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        extra = "" if self.encoding is DEFAULT else f", {self.encoding}"
        extra += "" if tuple(self.weights) == tuple(DEFAULT_WEIGHTS) else f", weights {self.weights}"
        return (
            f"<Qubo {self.num_vars} variables, {self.num_linear} linear + "
            f"{self.num_quadratic} quadratic terms, offset {self.offset}{extra}>"
        )


class _Fixed(Mapping[str, int]):
    """``{label: value}`` of the fixed variables, made into a dict on first use.

    Hashing a million labels into a dict takes longer than fixing them
    (0.3-0.4 s for the cauldron's 1.37 M), and most callers only count them.
    *base* (the model's earlier fixings) comes first, then *labels* in order.
    """

    __slots__ = ("_base", "_labels", "_values", "_dict")

    def __init__(self, base: Mapping[str, int], labels: Sequence[str], values: np.ndarray) -> None:
        self._base, self._labels, self._values = base, labels, values
        self._dict: dict[str, int] | None = None

    def _get(self) -> dict[str, int]:
        if self._dict is None:
            out = dict(self._base)
            out.update(zip(self._labels, self._values.tolist()))
            self._dict, self._base, self._labels, self._values = out, {}, (), np.empty(0, np.int8)
        return self._dict

    def __getitem__(self, label: str) -> int:
        return self._get()[label]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:  # the labels are new (not in base): they are the model's variables
        return len(self._dict) if self._dict is not None else len(self._base) + len(self._values)

    def __repr__(self) -> str:
        return repr(self._get())

    def __reduce__(self) -> tuple[Any, ...]:
        return dict, (self._get(),)


def _run_counts(sorted_index: np.ndarray, n: int) -> np.ndarray:
    """How often each of ``0 .. n-1`` occurs in a sorted index array, from its run starts
    (``np.bincount`` would first copy an int32 array to int64)."""
    starts = np.flatnonzero(sorted_index[1:] != sorted_index[:-1]) + 1
    starts = np.concatenate(([0], starts))
    counts = np.zeros(n, INT)
    counts[sorted_index[starts]] = np.diff(np.append(starts, sorted_index.size))
    return counts


def _sum_by(index: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """Exact int64 sum of *values* grouped by *index* into an array of length *n*.

    ``np.bincount`` (float64 weights) is exact while every partial sum stays
    below 2**53, which is checked; otherwise ``np.add.at`` in int64.
    """
    if not index.size:
        return np.zeros(n, dtype=INT)
    if int(np.abs(values).max()) * index.size < (1 << 53):
        return np.bincount(index, weights=values, minlength=n).astype(INT)
    out = np.zeros(n, dtype=INT)
    np.add.at(out, index, values.astype(INT, copy=False))
    return out


def merge_pairs(
    row: np.ndarray, col: np.ndarray, bias: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sort ``(row, col)`` pairs, add up duplicates and drop zero sums.

    Vectorised.  Each pair becomes one int64 key ``row << c | col`` (shifts and
    masks, no division).  When the biases span a small range, as the builder's
    do, the bias is packed into the low bits of the same key and the keys are
    sorted with ``np.sort``, several times faster than an ``argsort`` of 50
    million keys; otherwise an ``argsort`` of the pair keys is used.  Equal
    keys are summed through a cumulative sum.
    """
    if row.size == 0:
        return row.astype(INT), col.astype(INT), bias.astype(INT)
    cbits = max(int(n) - 1, 1).bit_length()
    lo_b, hi_b = int(bias.min()), int(bias.max())
    bbits = max(1, (hi_b - lo_b).bit_length())
    if 2 * cbits + bbits <= 62:
        key = row.astype(INT)
        key <<= cbits
        key |= col
        key <<= bbits
        key |= (bias.astype(INT) - lo_b)
        key.sort()
        b = key & ((1 << bbits) - 1)
        b += lo_b
        key >>= bbits
    elif 2 * cbits <= 62:
        key = row.astype(INT)
        key <<= cbits
        key |= col
        order = np.argsort(key)
        key = key[order]
        b = bias.astype(INT, copy=False)[order]
        del order
    else:  # pragma: no cover - over 2**31 variables
        raise ValueError(f"{n} variables is more than nonoqubo can index")
    key, b = _sum_runs(key, b, may_hold_zeros=bool((bias == 0).any()))
    return key >> cbits, key & ((1 << cbits) - 1), b


def _sum_runs(key: np.ndarray, b: np.ndarray, may_hold_zeros: bool) -> tuple[np.ndarray, np.ndarray]:
    """Merge runs of equal (sorted) keys by adding their biases; drop zero sums.

    Only the repeated positions are touched (no sort, no pass per run): a
    position that repeats the one before belongs to the run that starts just
    before its chain of consecutive repeats.  The arrays are compacted once,
    only when something must go.
    """
    later = np.flatnonzero(key[1:] == key[:-1]) + 1  # positions that repeat the one before
    drop = [later]
    if later.size:
        new_chain = np.empty(later.size, bool)
        new_chain[0] = True
        new_chain[1:] = later[1:] != later[:-1] + 1
        chain = np.cumsum(new_chain) - 1
        owners = later[new_chain] - 1  # the first position of every run
        sums = np.bincount(chain, weights=b[later], minlength=owners.size).astype(INT)
        b[owners] += sums
        drop.append(owners[b[owners] == 0])
    if may_hold_zeros:
        drop.append(np.flatnonzero(b == 0))
    gone = np.concatenate(drop)
    if gone.size:
        keep = np.ones(key.size, bool)
        keep[gone] = False
        key, b = key[keep], b[keep]
    return key, b
