"""``lines``: annealing by heat-bath line moves, a whole row or column redrawn at a time (issue 52 item 4).

In the domain-wall model a line's variables encode its blocks' shifts, and any *placement* of its
blocks (shifts that never let a block pass the next one: ``s_0 <= s_1 <= ...``, each within its wall)
satisfies the line's own constraints.  The energy of such a state is the cell conflicts between rows
and columns alone.  ``lines`` moves only between such states: a *move* picks a line and redraws its
whole placement from its exact conditional distribution given every other line,
``P(a) = exp(-beta E(a | rest)) / Z`` (Gibbs sampling with the line as its block; the kernel,
:mod:`nonoqubo.solvers.heatbath`, says how the placements' energies are found from the model's CSR
couplings).  A *sweep* moves every line once, in an order drawn anew each sweep; a read anneals
``--sweeps`` sweeps along a geometric schedule of ``--beta-range`` (default :data:`DEFAULT_BETA_RANGE`:
a placement's energy changes by whole cell conflicts, so the range is the model's, not a flip's), from
a placement of every line drawn uniformly.  A read's sample is the lowest-energy state after a sweep,
or with ``--target-energy E`` its first state of energy ``E`` or less (the read stops there; the
record keeps the time to target and the budget, as ``pt``'s and ``pa``'s).

Why: a single flip inside a line breaks its wall or its order (a penalty of the weights' size), so at
the cold end a flip sampler cannot slide a block; a line move slides all of a line's blocks at once
and pays only the cells that change.  Each line's placements are enumerated once, at set-up, as a
matrix of shifts (at most :data:`PLACEMENT_CAP` a line; a line with more is refused in one line:
count them with ``C(d + m, m)`` for ``m`` blocks of margin ``d``).  A presolved model (``--presolve
line|probe``) works too: its fixed variables bound each block's shift, and a line's placements are
those the fixings allow, written through the model's own variables.  Other encodings are refused by
name.  Its work per sweep is the sum of the lines' placements times their blocks, not the variables.

Examples:
    >>> from nonoqubo.model.build import build
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> q = build(Puzzle.from_picture(["#.#", ".##", "#.."]))
    >>> lines = Lines.of(q)
    >>> lines.count, lines.placements.tolist()
    (4, [2, 3, 3, 2])
    >>> batch = run_lines(q, SampleOptions(reads=2, seed=1, sweeps=20), lambda done, energy: None)
    >>> batch.energies.tolist(), bool((batch.energies == q.energy(batch.bits)).all())
    ([0, 0], True)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..errors import MissingDependency, SolverError
from ..model.encoding import Layout
from ..model.encodings import DOMAIN_WALL
from ..model.qubo import Qubo
from ..samples import SampleBatch, samples_from
from .base import READ_SECONDS, SAMPLER_INFO, SampleOptions, Tick
from .tempering import target_record

__all__ = ["DEFAULT_BETA_RANGE", "DEFAULT_SWEEPS", "PLACEMENT_CAP", "Lines", "check_model", "run_lines"]

#: the most placements of one line that are enumerated; a line with more is refused
PLACEMENT_CAP = 200_000
#: sweeps per read when ``--sweeps`` is not given
DEFAULT_SWEEPS = 1000
#: the inverse temperatures of the schedule when ``--beta-range`` is not given: a cell conflict (energy 1
#: at the default weights) is taken at odds of 3:4 at the start and 1:22,000 at the end
DEFAULT_BETA_RANGE = (0.3, 10.0)

_INT = np.int64


@dataclass(frozen=True)
class _LineBounds:
    """One line's blocks: the model variable of each wall slot (-1 fixed), and each block's shift bounds."""

    name: str
    slots: list[np.ndarray]  # per block, per p: the model variable of w[k][p], or -1 when fixed
    lo: np.ndarray
    hi: np.ndarray

    def count(self) -> int:
        """How many placements the bounds allow (shifts non-decreasing), by dynamic programming over blocks."""
        ways: dict[int, int] = {}
        for k in range(self.lo.size):
            lo, hi = int(self.lo[k]), int(self.hi[k])
            if k == 0:
                ways = {s: 1 for s in range(lo, hi + 1)}
                continue
            running, below = 0, {}
            for s in range(0, hi + 1):
                running += ways.get(s, 0)
                if s >= lo:
                    below[s] = running
            ways = below
        return sum(ways.values())

    def enumerate(self) -> np.ndarray:
        """Every placement, one row of shifts each (non-decreasing, within the bounds)."""
        partial = np.arange(self.lo[0], self.hi[0] + 1, dtype=_INT)[:, None]
        for k in range(1, self.lo.size):
            pieces = []
            for s in range(int(self.lo[k]), int(self.hi[k]) + 1):
                keep = partial[partial[:, -1] <= s]
                pieces.append(np.column_stack([keep, np.full(len(keep), s, dtype=_INT)]))
            partial = np.concatenate(pieces) if pieces else np.zeros((0, k + 1), dtype=_INT)
        return partial


def _bounds(qubo: Qubo) -> list[_LineBounds]:
    """Every line with a free variable, its blocks' slots and shift bounds; refuses what ``lines`` cannot take."""
    if qubo.encoding != DOMAIN_WALL:
        raise SolverError(f"--sampler lines moves the domain-wall encoding's lines; this model is in the "
                          f"{qubo.encoding} encoding (build it with --encoding {DOMAIN_WALL})")
    if qubo.puzzle is None:
        raise SolverError("--sampler lines needs the model's puzzle (its clues), and this model carries none")
    layout = Layout.of(qubo.puzzle)
    index, fixed = qubo.index, qubo.fixed
    full = layout.labels()
    model_of = np.fromiter((index.get(label, -1) for label in full), _INT, len(full))
    value_of = np.fromiter((int(fixed.get(label, -1)) for label in full), _INT, len(full))
    if np.count_nonzero(model_of >= 0) != qubo.num_vars:
        raise SolverError("--sampler lines: the model has variables that are not its puzzle's domain-wall variables")
    open_ = np.flatnonzero((model_of < 0) & (value_of < 0))
    if open_.size:
        raise SolverError(f"--sampler lines: the puzzle's variable {full[int(open_[0])]} is neither in the model "
                          "nor fixed")
    out = []
    for line in range(layout.num_lines):
        first, last = int(layout.line_first_block[line]), int(layout.line_first_block[line + 1])
        if first == last:
            continue
        slots, lo, hi = [], np.zeros(last - first, _INT), np.zeros(last - first, _INT)
        for k, b in enumerate(range(first, last)):
            where = np.arange(layout.block_first_var[b], layout.block_first_var[b + 1])
            values = value_of[where]
            ones, zeros = np.flatnonzero(values == 1), np.flatnonzero(values == 0)
            lo[k] = ones.max() + 1 if ones.size else 0
            hi[k] = zeros.min() if zeros.size else where.size
            slots.append(np.where(model_of[where] >= 0, model_of[where], -1))
        if any(s.size and (s >= 0).any() for s in slots):
            out.append(_LineBounds(layout.line_name(line), slots, lo, hi))
    return out


def _counted(bounds: list[_LineBounds]) -> list[int]:
    """Each line's number of placements; a line over :data:`PLACEMENT_CAP` or with none is refused."""
    counts = []
    for line in bounds:
        count = line.count()
        if count > PLACEMENT_CAP:
            raise SolverError(f"--sampler lines: {line.name} has {count:,} placements of its blocks; at most "
                              f"{PLACEMENT_CAP:,} a line are enumerated (a presolve, --presolve line, fixes some)")
        if count == 0:
            raise SolverError(f"--sampler lines: no placement of {line.name}'s blocks agrees with the model's "
                              "fixed variables")
        counts.append(count)
    return counts


def check_model(qubo: Qubo, options: SampleOptions) -> None:
    """What ``lines`` cannot take of *qubo*: another encoding, no puzzle, a line of too many placements."""
    _counted(_bounds(qubo))


@dataclass(frozen=True)
class Lines:
    """A model's lines as :func:`nonoqubo.solvers.heatbath.lines_read` takes them (flat arrays, CSR-like).

    Attributes:
        names: each line's name (``row 3``), in the kernel's order (rows, then columns, those with a free variable).
        var_ptr, line_vars: line ``l``'s free (model) variables are ``line_vars[var_ptr[l]:var_ptr[l + 1]]``.
        var_line: the line of every model variable.
        block_ptr: line ``l``'s blocks are ``block_ptr[l] .. block_ptr[l + 1] - 1``.
        slot_ptr, slots: block ``b``'s wall, ``slots[slot_ptr[b] + p]``: the position of ``w[b][p]`` in its
            line's ``line_vars``, or -1 when it is fixed.
        place_ptr, shift_ptr, shifts: line ``l``'s placements are ``place_ptr[l] .. place_ptr[l + 1] - 1``;
            placement ``place_ptr[l] + a`` has the shifts ``shifts[shift_ptr[l] + a m : shift_ptr[l] + (a + 1) m]``
            (``m`` its blocks).
        intra: each placement's energy from the quadratic terms inside its line.
        placements: each line's number of placements.
    """

    names: list[str]
    var_ptr: np.ndarray
    line_vars: np.ndarray
    var_line: np.ndarray
    block_ptr: np.ndarray
    slot_ptr: np.ndarray
    slots: np.ndarray
    place_ptr: np.ndarray
    shift_ptr: np.ndarray
    shifts: np.ndarray
    intra: np.ndarray
    placements: np.ndarray

    @property
    def count(self) -> int:
        """Lines (with a free variable)."""
        return len(self.names)

    @classmethod
    def of(cls, qubo: Qubo) -> Lines:
        """Enumerate *qubo*'s lines' placements (refused as :func:`check_model` says)."""
        bounds = _bounds(qubo)
        counts = _counted(bounds)
        n = qubo.num_vars
        var_line = np.full(n, -1, _INT)
        var_ptr, block_ptr, slot_ptr, place_ptr, shift_ptr = [0], [0], [0], [0], [0]
        line_vars: list[np.ndarray] = []
        slots: list[np.ndarray] = []
        shifts: list[np.ndarray] = []
        intra: list[np.ndarray] = []
        row, col = np.asarray(qubo.row, _INT), np.asarray(qubo.col, _INT)
        quad = np.asarray(qubo.quad, _INT)
        for l, line in enumerate(bounds):
            free = np.concatenate([s[s >= 0] for s in line.slots])
            var_line[free] = l
            local = np.full(n, -1, _INT)  # only free's entries are read
            local[free] = np.arange(free.size)
            line_vars.append(free)
            for s in line.slots:
                slots.append(np.where(s >= 0, local[np.maximum(s, 0)], -1))
                slot_ptr.append(slot_ptr[-1] + s.size)
            placed = line.enumerate()
            bits = np.zeros((len(placed), free.size), _INT)
            for k, s in enumerate(line.slots):
                for p in np.flatnonzero(s >= 0):
                    bits[:, local[s[p]]] = placed[:, k] > p
            inside = (var_line[row] == l) & (var_line[col] == l)
            pairs = np.zeros((free.size, free.size), _INT)
            np.add.at(pairs, (local[row[inside]], local[col[inside]]), quad[inside])
            intra.append(((bits @ pairs) * bits).sum(axis=1))
            shifts.append(placed.reshape(-1))
            var_ptr.append(var_ptr[-1] + free.size)
            block_ptr.append(block_ptr[-1] + len(line.slots))
            place_ptr.append(place_ptr[-1] + counts[l])
            shift_ptr.append(shift_ptr[-1] + placed.size)

        def flat(parts: list[np.ndarray]) -> np.ndarray:
            return np.concatenate(parts).astype(_INT) if parts else np.zeros(0, _INT)

        return cls([b.name for b in bounds], np.array(var_ptr, _INT), flat(line_vars), var_line,
                   np.array(block_ptr, _INT), np.array(slot_ptr, _INT), flat(slots), np.array(place_ptr, _INT),
                   np.array(shift_ptr, _INT), flat(shifts), flat(intra), np.array(counts, _INT))

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The kernel's arguments after the model's CSR: ``var_line`` .. ``intra``."""
        return (self.var_line, self.var_ptr, self.line_vars, self.block_ptr, self.slot_ptr, self.slots,
                self.place_ptr, self.shift_ptr, self.shifts, self.intra)

    def place(self, state: np.ndarray, placement: np.ndarray) -> None:
        """Write placement ``placement[l]`` (an index into the line's own placements) of every line into *state*."""
        for l in range(self.count):
            self.place_line(state, l, int(placement[l]))

    def place_line(self, state: np.ndarray, line: int, a: int) -> None:
        """Write placement *a* of *line* (an index into its own placements) into *state*."""
        m = int(self.block_ptr[line + 1] - self.block_ptr[line])
        shifts = self.shifts[self.shift_ptr[line] + a * m: self.shift_ptr[line] + (a + 1) * m]
        for k in range(m):
            b = int(self.block_ptr[line]) + k
            wall = self.slots[self.slot_ptr[b]: self.slot_ptr[b + 1]]
            for p in np.flatnonzero(wall >= 0):
                state[self.line_vars[self.var_ptr[line] + wall[p]]] = 1 if p < shifts[k] else 0


def _csr(qubo: Qubo) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The couplings as CSR adjacency both ways (``indptr``, ``indices``, ``weights``) and the linear biases."""
    n = qubo.num_vars
    row, col = np.asarray(qubo.row, _INT), np.asarray(qubo.col, _INT)
    quad = np.asarray(qubo.quad, _INT)
    a, b, w = np.concatenate([row, col]), np.concatenate([col, row]), np.concatenate([quad, quad])
    order = np.lexsort((b, a))
    indptr = np.zeros(n + 1, _INT)
    np.cumsum(np.bincount(a, minlength=n), out=indptr[1:])
    return indptr, b[order], w[order], np.asarray(qubo.linear, _INT)


#: the target of a run that has none: no energy reaches it
_NO_TARGET = np.iinfo(np.int64).min


def _kernel() -> Any:
    try:
        import numba  # noqa: F401
    except ImportError:
        raise MissingDependency("numba", "tempering", "the 'lines' sampler") from None
    from . import heatbath

    return heatbath


def run_lines(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
    """``--sampler lines``: one compiled read (:func:`nonoqubo.solvers.heatbath.lines_read`) per read, each timed alone.

    Read by read, the run's Generator (``--seed``) draws every line's starting placement and seeds the
    kernel's stream, so the same seed gives the same samples and a read does not depend on the reads after it.
    """
    kernel = _kernel()
    began = time.perf_counter()
    lines = Lines.of(qubo)
    setup_seconds = time.perf_counter() - began
    csr = _csr(qubo)
    lo, hi = opts.beta_range if opts.beta_range is not None else DEFAULT_BETA_RANGE
    sweeps = opts.sweeps or DEFAULT_SWEEPS
    betas = np.geomspace(float(lo), float(hi), sweeps) if sweeps > 1 else np.array([float(hi)])
    n = qubo.num_vars
    target = _NO_TARGET if opts.target_energy is None else int(opts.target_energy)

    def read(state: np.ndarray, start: np.ndarray, streams: np.ndarray, schedule: np.ndarray) -> tuple[int, np.ndarray, int]:
        current = lines.place_ptr[:-1] + start
        best = np.zeros(n, dtype=np.int8)
        best_energy = np.array([np.iinfo(np.int64).max])
        energy = int(qubo.energy(state)[0])
        done = kernel.lines_read(*csr, *lines.arrays(), schedule, state, current, energy, streams, target, best,
                                 best_energy, True)
        return int(done), best, int(best_energy[0])

    rng = np.random.default_rng(opts.seed)
    load_began = time.perf_counter()
    start = np.zeros(lines.count, _INT)
    warm_state = np.zeros(n, dtype=np.int8)
    lines.place(warm_state, start)
    read(warm_state, start, np.zeros(1, dtype=np.uint64), betas[:0])  # compile, or load numba's cache, untimed
    load_seconds = time.perf_counter() - load_began
    bits = np.zeros((opts.reads, n), dtype=np.int8)
    energies = np.zeros(opts.reads, dtype=np.int64)
    seconds: list[float] = []
    sweeps_run: list[int] = []
    for r in range(opts.reads):
        start = (rng.random(lines.count) * lines.placements).astype(_INT)
        state = np.zeros(n, dtype=np.int8)
        lines.place(state, start)
        streams = rng.bit_generator.random_raw(1).astype(np.uint64)
        began = time.perf_counter()
        done, best, best_energy = read(state, start, streams, betas)
        seconds.append(time.perf_counter() - began)
        sweeps_run.append(done)
        bits[r], energies[r] = best, best_energy
        tick(r + 1, float(best_energy))
    batch = replace(samples_from(bits, qubo.labels, spin=False, source="lines sampler"), energies=energies)
    batch.extra[READ_SECONDS] = seconds
    batch.extra[SAMPLER_INFO] = {
        "beta_range": [float(lo), float(hi)], "sweeps": sweeps, "lines": lines.count,
        "placements": int(lines.placements.sum()), "most_placements": int(lines.placements.max(initial=0)),
        "setup_seconds": round(setup_seconds, 4), "kernel": f"numba {_numba_version()}",
        "kernel_load_seconds": round(load_seconds, 4),
        "read": "the lowest energy after a sweep; a sweep is a heat-bath move of every line, in a random order"}
    if opts.target_energy is not None:
        batch.extra[SAMPLER_INFO].update(target_record(opts.target_energy, energies, seconds, sweeps_run, sweeps))
    return batch


def _numba_version() -> str:
    import numba

    return str(numba.__version__)


def placements_of(margin: int, blocks: int) -> int:
    """``C(d + m, m)``: the placements of *blocks* blocks in a line of *margin* ``d`` (no variable fixed)."""
    return math.comb(margin + blocks, blocks)
