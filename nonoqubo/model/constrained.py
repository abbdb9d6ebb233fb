"""The constrained form of the model: a 0-1 integer linear program (for CQM and MIP solvers).

The QUBO (:mod:`nonoqubo.model.build`) adds penalties for broken rules; the
*constrained* form states the same rules as linear constraints over the same
binary variables ``w[k][p]`` (labels ``y{i}[k][p]``, ``z{j}[k][p]``), with a
zero objective: any feasible point is a solution.

========================  =========================================  ==========================
name                      constraint                                 meaning
========================  =========================================  ==========================
``cell_{i}_{j}``          row colour(i, j) - column colour(i, j) = 0  row and column agree
``wall_y{i}_k{k}_p{p}``   ``w[k][p] - w[k][p+1] >= 0``                 no 1 after a 0 in a wall
``order_y{i}_k{k}_p{p}``  ``w[k+1][p] - w[k][p] >= 0``                 block k+1 moves as far as k
========================  =========================================  ==========================

(``z{j}`` in place of ``y{i}`` for columns; all indices 0-based, as in the
labels.)  A colour puzzle has one cell row per cell and block colour ``c``,
named ``cell_{i}_{j}_c{c}`` (``c`` 1-based, the palette's order): the row's
coverage of the cell in colour ``c`` equals the column's (see
:mod:`nonoqubo.model.build`).  The colour of cell ``j`` of a line is ``L(j) + sum_k (w[k][j - e_k -
r_k] - w[k][j - e_k])`` (see :mod:`nonoqubo.model.build`): the constant part
``L_row(i, j) - L_col(i, j)`` moves to the right-hand side, so the cell row
reads ``sum coef * x = L_col(i, j) - L_row(i, j)`` with every coefficient
``+1`` or ``-1``.  A cell whose two lines have no variables is a constant: it is
left out when it holds and makes the puzzle infeasible when it does not.

The QUBO's energy is zero exactly when every constraint holds (its three
penalty kinds are the squares / products of these same rows), which the tests
check on random assignments.

*Fixing* (presolve): ``build_constrained(puzzle, fixed)`` substitutes the
fixed values, moves them to the right-hand side, drops every row that then
holds for every binary assignment of its remaining variables, and raises
:class:`~nonoqubo.errors.PuzzleError` when one can no longer hold.

The model is a plain value (no file I/O): the constraint matrix in compressed
sparse row form (``indptr``, ``indices``, ``coefs``), ``sense`` codes (see
:data:`SENSES`), integer ``rhs``, and the parts of each constraint's name.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> m = build_constrained(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> m.labels
    ['y0[0][0]', 'y1[0][0]', 'z0[0][0]', 'z1[0][0]']
    >>> m.names
    ['cell_0_0', 'cell_0_1', 'cell_1_0', 'cell_1_1']
    >>> m.row_terms(0), m.sense_of(0), int(m.rhs[0])
    ([(-1, 'y0[0][0]'), (1, 'z0[0][0]')], '==', 0)
    >>> m.constraint_violations([[1, 0, 1, 0], [1, 1, 1, 1]])
    [[], ['cell_0_1', 'cell_1_0']]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from .encoding import Completion, Layout, flat_name
from .geometry import COLUMN_SIGN, ROW_SIGN, DomainWall
from ..errors import MissingDependency, PuzzleError, SampleError
from .puzzle import Puzzle

if TYPE_CHECKING:
    import dimod

__all__ = ["SENSES", "ConstrainedModel", "build_constrained"]

INT = np.int64
#: sense codes used in :attr:`ConstrainedModel.sense`
SENSES = ("==", "<=", ">=")
EQ, LE, GE = 0, 1, 2
#: constraint kinds in :attr:`ConstrainedModel.kind`
KINDS = ("cell", "wall", "order")
CELL, WALL, ORDER = 0, 1, 2
#: samples x nonzeros evaluated at once by :meth:`ConstrainedModel.violation_mask`
_CHUNK = 1 << 24


@dataclass(frozen=True, eq=False)
class ConstrainedModel:
    """The 0-1 linear program of a puzzle (see the module docstring).

    Attributes:
        puzzle: the puzzle encoded.
        labels: the model's variables (QUBO++ labels), in layout order, fixed ones left out.
        fixed: label -> 0/1 of the variables fixed before building.
        var_index: position of each of ``labels`` in the full layout order.
        indptr, indices, coefs: the constraint matrix (CSR, int64); ``indices`` refer to ``labels``.
        sense: one code per constraint, an index into :data:`SENSES`.
        rhs: integer right-hand sides.
        kind: ``0`` cell, ``1`` wall, ``2`` order (index into :data:`KINDS`).
        where: ``(C, 3)`` name parts: ``(i, j, c - 1)`` for a cell (colour c), ``(line, k, p)`` otherwise.
        presolve: ``"probe"`` when probing fixed ``fixed`` (the files' ``presolve`` metadata, as
            :attr:`Qubo.presolve <nonoqubo.model.qubo.Qubo.presolve>`); None for line logic or none.
    """

    puzzle: Puzzle
    labels: list[str]
    fixed: Mapping[str, int]
    var_index: np.ndarray
    indptr: np.ndarray
    indices: np.ndarray
    coefs: np.ndarray
    sense: np.ndarray
    rhs: np.ndarray
    kind: np.ndarray
    where: np.ndarray
    _layout: Layout = field(repr=False, compare=False)
    presolve: str | None = None

    # -- figures --------------------------------------------------------------------------
    @property
    def num_vars(self) -> int:
        return len(self.labels)

    @property
    def num_constraints(self) -> int:
        return int(self.rhs.size)

    @property
    def num_nonzeros(self) -> int:
        return int(self.coefs.size)

    @property
    def layout(self) -> Layout:
        """The full layout (every variable, fixed or not)."""
        return self._layout

    def counts(self) -> dict[str, int]:
        """Constraints of each kind, e.g. ``{"cell": 225, "wall": 80, "order": 41}``."""
        per = np.bincount(self.kind, minlength=len(KINDS))
        return {k: int(c) for k, c in zip(KINDS, per)}

    # -- names ----------------------------------------------------------------------------
    @cached_property
    def names(self) -> list[str]:
        """The name of every constraint (``cell_3_4``, ``wall_y3_k1_p2``, ``order_z5_k0_p4``)."""
        return _names(self.layout.height, self.kind, self.where, self.layout.num_colours)

    @cached_property
    def flat_labels(self) -> list[str]:
        """The LP/MPS-safe variable names (``y3[1][2]`` -> ``y3_1_2``, see :func:`~nonoqubo.model.encoding.flat_name`)."""
        # three C-level replaces per label equal flat_name's parse (tested), 5x faster
        return [label.replace("][", "_").replace("[", "_").replace("]", "") for label in self.labels]

    def sense_of(self, c: int) -> str:
        """``"=="``, ``"<="`` or ``">="`` of constraint *c*."""
        return SENSES[int(self.sense[c])]

    def row_terms(self, c: int) -> list[tuple[int, str]]:
        """``(coefficient, label)`` of constraint *c*, in variable order."""
        lo, hi = int(self.indptr[c]), int(self.indptr[c + 1])
        return [(int(a), self.labels[v]) for a, v in zip(self.coefs[lo:hi], self.indices[lo:hi])]

    # -- evaluation -----------------------------------------------------------------------
    def _full(self, full_assignment: np.ndarray | Sequence[Sequence[int]]) -> np.ndarray:
        x = np.asarray(full_assignment)
        if x.ndim == 1:
            x = x[None, :]
        n = self.layout.num_vars
        if x.ndim != 2 or x.shape[1] != n:
            raise SampleError(f"a full assignment has {n} values (one per layout variable), got shape {x.shape}")
        return x

    def activities(self, full_assignment: np.ndarray | Sequence[Sequence[int]]) -> np.ndarray:
        """Left-hand side of every constraint, ``(S, C)`` int64, for full-layout samples.

        With scipy installed this is one sparse product per chunk of samples
        (about 10x faster: 1,000 samples of gecode-castle in 0.1 s); without it,
        a NumPy gather and ``add.reduceat`` over the rows.  Both are exact: int32
        holds any activity below 2**31 (checked), else int64 is used.
        """
        x = self._full(full_assignment)
        s, c = x.shape[0], self.num_constraints
        out = np.zeros((s, c), INT)
        if c == 0 or self.coefs.size == 0:
            return out
        cols = self.var_index[self.indices]
        bound = int(_row_sums(np.abs(self.coefs), self.indptr).max())
        dtype = np.int32 if bound < 2**31 else INT
        try:
            import scipy.sparse as sp
        except ImportError:
            sp = None
        if sp is not None:
            matrix = sp.csr_matrix((self.coefs.astype(dtype), cols, self.indptr), shape=(c, x.shape[1]))
            step = max(1, _CHUNK // max(1, x.shape[1]))
            for lo in range(0, s, step):  # chunks of samples bound the memory
                out[lo:lo + step] = np.asarray(x[lo:lo + step].astype(dtype) @ matrix.T)
            return out
        coefs = self.coefs.astype(dtype)[None, :]
        step = max(1, _CHUNK // max(1, self.coefs.size))
        for lo in range(0, s, step):
            terms = x[lo:lo + step, cols].astype(dtype) * coefs
            out[lo:lo + step] = np.add.reduceat(terms, self.indptr[:-1], axis=1)
        return out

    def violation_mask(self, full_assignment: np.ndarray | Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
        """Which constraints each sample breaks, vectorised.

        Args:
            full_assignment: ``(S, N)`` 0/1 values in the FULL layout order
                (``Layout.of(puzzle).labels()``), fixed variables included.

        Returns:
            ``(constraints, fixed)``: ``(S, C)`` booleans, one per constraint, and
            ``(S, F)`` booleans, True where a sample disagrees with a fixed
            variable (in :attr:`fixed` order).
        """
        x = self._full(full_assignment)
        act = self.activities(x)
        rhs = self.rhs[None, :]
        sense = self.sense[None, :]
        bad = np.where(sense == EQ, act != rhs, np.where(sense == LE, act > rhs, act < rhs))
        fixed_cols, fixed_vals = self._fixed_arrays
        return bad, x[:, fixed_cols] != fixed_vals[None, :]

    @cached_property
    def _fixed_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        index = {label: i for i, label in enumerate(self.layout.labels())}
        cols = np.fromiter((index[label] for label in self.fixed), INT, len(self.fixed))
        vals = np.fromiter(self.fixed.values(), INT, len(self.fixed))
        return cols, vals

    def constraint_violations(self, full_assignment: np.ndarray | Sequence[Sequence[int]]) -> list[list[str]]:
        """Names of the constraints each sample violates.

        A sample that disagrees with a fixed variable also gets ``fixed_<name>``
        (``fixed_y3_1_2``) for it: the fixed rows were dropped from the model,
        so this keeps "no violation" equivalent to "a solution".

        Args:
            full_assignment: ``(S, N)`` (or ``(N,)``) 0/1 values in the FULL layout order.

        Returns:
            One list of names per sample, constraints in model order, then fixed variables.

        Raises:
            SampleError: the assignment does not have one value per layout variable.
        """
        bad, bad_fixed = self.violation_mask(full_assignment)
        names = np.array(self.names, dtype=object)
        fixed_names = np.array([f"fixed_{flat_name(label)}" for label in self.fixed], dtype=object)
        return [names[bad[s]].tolist() + fixed_names[bad_fixed[s]].tolist() for s in range(bad.shape[0])]

    def full_assignment(self, reduced: np.ndarray | Sequence[Sequence[int]]) -> np.ndarray:
        """``(S, N)`` full-layout samples from ``(S, len(labels))`` ones, fixed values filled in."""
        r = np.atleast_2d(np.asarray(reduced, dtype=np.int8))
        if r.shape[1] != self.num_vars:
            raise SampleError(f"a sample of this model has {self.num_vars} values, got {r.shape[1]}")
        return self._completion.fill(r, copy=True)

    @cached_property
    def _completion(self) -> Completion:
        cols, vals = self._fixed_arrays
        return Completion.at(self.layout.num_vars, self.var_index, cols, vals)

    # -- dimod ----------------------------------------------------------------------------
    def to_cqm(self) -> dimod.ConstrainedQuadraticModel:
        """The model as a dimod CQM: binary variables with the QUBO++ labels, zero objective.

        Constraints carry the names of :attr:`names`, in model order, added with
        ``add_constraint_from_iterable`` (measured on gecode-castle, 21,225
        constraints: 0.36 s; a ``BinaryQuadraticModel`` per constraint through
        ``add_constraint_from_model`` took 4.3 s, and ``dimod.lp.loads`` of the LP
        text 0.36 s but with LP-safe labels).

        Raises:
            MissingDependency: dimod is not installed.
        """
        try:
            import dimod
        except ImportError:  # pragma: no cover - dimod is a core dependency
            raise MissingDependency("dimod", "dimod", "a CQM") from None
        cqm = dimod.ConstrainedQuadraticModel()
        labels = self.labels
        cqm.add_variables("BINARY", labels)
        idx = self.indices.tolist()
        coef = self.coefs.tolist()
        ptr = self.indptr.tolist()
        rhs = self.rhs.tolist()
        add = cqm.add_constraint_from_iterable
        for c, name in enumerate(self.names):
            lo, hi = ptr[c], ptr[c + 1]
            terms = [(labels[v], a) for v, a in zip(idx[lo:hi], coef[lo:hi])]
            add(terms, SENSES[self.sense[c]], rhs[c], label=name)
        return cqm

    def same_model(self, other: ConstrainedModel) -> bool:
        """Same puzzle clues, fixings, labels and constraints (names included)."""
        return (
            self.puzzle.rows == other.puzzle.rows
            and self.puzzle.cols == other.puzzle.cols
            and self.puzzle.row_colours == other.puzzle.row_colours
            and self.puzzle.col_colours == other.puzzle.col_colours
            and dict(self.fixed) == dict(other.fixed)
            and list(self.labels) == list(other.labels)
            and all(
                np.array_equal(getattr(self, a), getattr(other, a))
                for a in ("indptr", "indices", "coefs", "sense", "rhs", "kind", "where")
            )
        )


def _fixed_values(layout: Layout, fixed: Mapping[str, int] | None) -> np.ndarray:
    """-1 for a free variable, else its fixed value (full layout order)."""
    value = np.full(layout.num_vars, -1, INT)
    if not fixed:
        return value
    index = {label: i for i, label in enumerate(layout.labels())}
    for label, v in fixed.items():
        i = index.get(label)
        if i is None:
            raise SampleError(f"cannot fix {label!r}: no such variable in the model")
        if isinstance(v, bool) or v not in (0, 1):
            raise SampleError(f"cannot fix {label!r} to {v!r}: values are 0 or 1")
        value[i] = int(v)
    return value


def build_constrained(puzzle: Puzzle, fixed: Mapping[str, int] | None = None, *,
                      presolve: str | None = None) -> ConstrainedModel:
    """The constrained (0-1 ILP) model of *puzzle*, vectorised over variables.

    Args:
        puzzle: the nonogram.
        fixed: label -> 0/1 for variables fixed beforehand (presolve); they are
            substituted and left out of the model.
        presolve: ``"probe"`` when probing made *fixed* (carried as :attr:`ConstrainedModel.presolve`).

    Returns:
        The model; constraints are cells (row-major), then walls, then block
        orders, each group in variable order.

    Raises:
        SampleError: a fixed label that is not a variable, or a value not 0/1.
        PuzzleError: a constraint that can no longer hold (the clues, with the
            fixings, have no solution); the message names it.

    Examples:
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> p = Puzzle(rows=[[1], [1]], cols=[[1], [1]])
        >>> m = build_constrained(p, fixed={"y0[0][0]": 1})
        >>> m.labels, m.num_constraints
        (['y1[0][0]', 'z0[0][0]', 'z1[0][0]'], 4)
        >>> m.row_terms(0), int(m.rhs[0])
        ([(1, 'z0[0][0]')], 1)
    """
    lay = Layout.of(puzzle)
    geo = DomainWall(lay)
    h, w = lay.height, lay.width
    nc = lay.num_colours
    slots = np.arange(h * w * nc, dtype=INT)
    cells = slots // nc

    # -- cell rows: row coverage - column coverage = 0, entries sorted by (slot, variable);
    # a slot is a (cell, colour) pair, cell * C + colour (a cell in black and white)
    row_ent, col_ent = geo.slot_entries(rows=True), geo.slot_entries(rows=False)
    ent_cell = np.concatenate((row_ent.slot, col_ent.slot))
    ent_var = np.concatenate((row_ent.var, col_ent.var))
    ent_coef = np.concatenate((ROW_SIGN * row_ent.coef.astype(INT), COLUMN_SIGN * col_ent.coef.astype(INT)))
    order = np.lexsort((ent_var, ent_cell))
    ent_cell, ent_var, ent_coef = ent_cell[order], ent_var[order], ent_coef[order]
    c0 = geo.left_aligned(rows=True).astype(INT) - geo.left_aligned(rows=False).astype(INT)
    cell_len = np.bincount(ent_cell, minlength=h * w * nc)

    # -- wall rows: w[k][p] - w[k][p+1] >= 0; order rows: w[k+1][p] - w[k][p] >= 0
    wall, order_pairs = geo.shape, geo.order

    pair_len = np.full(len(wall) + len(order_pairs), 2, INT)
    row_len = np.concatenate((cell_len, pair_len))
    indices = np.concatenate((ent_var, np.column_stack((wall.first, wall.second)).ravel(),
                              np.column_stack((order_pairs.first, order_pairs.second)).ravel()))
    coefs = np.concatenate((ent_coef, np.tile(np.array([1, -1], INT), len(wall)),
                            np.tile(np.array([-1, 1], INT), len(order_pairs))))
    rhs = np.concatenate((-c0, np.zeros(pair_len.size, INT)))
    sense = np.concatenate((np.full(slots.size, EQ, np.int8), np.full(pair_len.size, GE, np.int8)))
    kind = np.concatenate((np.full(slots.size, CELL, np.int8), np.full(len(wall), WALL, np.int8),
                           np.full(len(order_pairs), ORDER, np.int8)))
    where = np.concatenate((
        np.column_stack((cells // w, cells % w, slots % nc)),
        *(np.column_stack((lay.block_line[f.block], lay.block_k[f.block], f.position)) for f in (wall, order_pairs)),
    )).astype(INT)

    # -- substitute fixed values, then drop rows that always hold / reject rows that cannot
    value = _fixed_values(lay, fixed)
    ent_fixed = value[indices] >= 0
    if ent_fixed.any():
        fixed_row = np.repeat(np.arange(row_len.size, dtype=INT), row_len)[ent_fixed]
        moved = coefs[ent_fixed] * value[indices[ent_fixed]]
        fixed_len = np.bincount(fixed_row, minlength=rhs.size)
        rhs = rhs - _row_sums(moved, _indptr(fixed_len))
        row_len = row_len - fixed_len
        indices, coefs = indices[~ent_fixed], coefs[~ent_fixed]
    indptr = _indptr(row_len)
    lo_act = _row_sums(np.minimum(coefs, 0), indptr)
    hi_act = _row_sums(np.maximum(coefs, 0), indptr)
    impossible = np.where(sense == EQ, (rhs < lo_act) | (rhs > hi_act),
                          np.where(sense == LE, lo_act > rhs, hi_act < rhs))
    if impossible.any():
        bad = np.flatnonzero(impossible)
        probe = _names(h, kind[bad[:5]], where[bad[:5]], nc)
        why = "with the fixed values" if fixed else "for any values of the variables"
        raise PuzzleError(
            f"the puzzle has no solution: {bad.size} constraint(s) cannot hold {why}, "
            f"e.g. {', '.join(probe)}"
        )
    always = np.where(sense == EQ, (lo_act == rhs) & (hi_act == rhs),
                      np.where(sense == LE, hi_act <= rhs, lo_act >= rhs))
    keep_row = ~always
    ent_keep = np.repeat(keep_row, row_len)
    indices, coefs = indices[ent_keep], coefs[ent_keep]
    indptr = _indptr(row_len[keep_row])
    rhs, sense, kind, where = rhs[keep_row], sense[keep_row], kind[keep_row], where[keep_row]

    free = value < 0
    var_index = np.flatnonzero(free).astype(INT)
    new_var = np.cumsum(free) - 1
    all_labels = lay.labels()
    fixed_out = {all_labels[i]: int(value[i]) for i in np.flatnonzero(~free)}
    return ConstrainedModel(
        puzzle=puzzle,
        labels=[all_labels[i] for i in var_index],
        fixed=fixed_out,
        var_index=var_index,
        indptr=indptr,
        indices=new_var[indices].astype(INT),
        coefs=coefs.astype(INT),
        sense=sense,
        rhs=rhs.astype(INT),
        kind=kind,
        where=where,
        _layout=lay,
        presolve=presolve if fixed_out else None,
    )


def _indptr(row_len: np.ndarray) -> np.ndarray:
    """CSR row pointers from row lengths."""
    out = np.zeros(row_len.size + 1, INT)
    np.cumsum(row_len, out=out[1:])
    return out


def _row_sums(values: np.ndarray, indptr: np.ndarray) -> np.ndarray:
    """Exact int64 sum of *values* over each CSR row (empty rows give 0)."""
    cs = np.zeros(values.size + 1, INT)
    np.cumsum(values, out=cs[1:])
    return cs[indptr[1:]] - cs[indptr[:-1]]


def _names(height: int, kind: np.ndarray, where: np.ndarray, colours: int = 1) -> list[str]:
    """Constraint names from their kinds and name parts (see the module docstring)."""
    out: list[str] = []
    for k, (a, b, c) in zip(kind.tolist(), where.tolist()):
        if k == CELL:
            out.append(f"cell_{a}_{b}" if colours == 1 else f"cell_{a}_{b}_c{c + 1}")
        else:
            line = f"y{a}" if a < height else f"z{a - height}"
            out.append(f"{KINDS[k]}_{line}_k{b}_p{c}")
    return out
