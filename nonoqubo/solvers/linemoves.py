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
record keeps the time to target and the budget, as ``pt``'s and ``pa``'s).  ``--sweeps-per-beta N`` holds
each of ``--sweeps / N`` betas for ``N`` sweeps.

With ``--replicas K`` (``K > 1``) a read is population annealing with line moves
(:func:`nonoqubo.solvers.heatbath.lines_pa_read`): ``K`` such states, each from its own random
placements, resampled in proportion to ``exp(-(beta' - beta) E)`` before each new beta (systematic
resampling, as ``pa``'s), each then swept ``--sweeps-per-beta`` times (default 1) with its own stream; a
read costs ``K`` anneals, and its sample is the lowest energy any replica had after a sweep.

Why: a single flip inside a line breaks its wall or its order (a penalty of the weights' size), so at
the cold end a flip sampler cannot slide a block; a line move slides all of a line's blocks at once
and pays only the cells that change.  A line of at most :data:`DP_FROM` placements has them enumerated
once, at set-up, as a matrix of shifts, and a move sums every placement's energy; a longer one is moved by
dynamic programming over its blocks (:func:`nonoqubo.solvers.heatbath.move_dp`: its energy is a chain of
terms within a block and between neighbouring blocks, and the terms between blocks further apart, which add
up to a function of each block alone wherever the blocks keep their order, are folded into the blocks'),
drawn exactly as well and enumerating nothing.  A line that can be moved neither way (more than
:data:`PLACEMENT_CAP` placements and terms that do not fold) is refused in one line (``C(d + m, m)``
placements for ``m`` blocks of margin ``d``).  A presolved model (``--presolve
line|probe``) works too: its fixed variables bound each block's shift, and a line's placements are
those the fixings allow, written through the model's own variables.  Other encodings are refused by
name.  Its work per sweep is the enumerated lines' placements times their blocks, and the others' blocks times
their shifts squared, not the variables.

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

import numpy as np

from ..errors import SolverError
from ..model.encoding import Layout
from ..model.encodings import DOMAIN_WALL
from ..model.qubo import Qubo
from ..samples import SampleBatch, samples_from
from .base import READ_SECONDS, SAMPLER_INFO, SampleOptions, Tick
from .tempering import NO_TARGET, KernelModel, compiled_kernels, geometric, numba_version, target_record

__all__ = ["DEFAULT_BETA_RANGE", "DEFAULT_SWEEPS", "DP_FROM", "PLACEMENT_CAP", "Lines", "check_model", "line_replicas", "placements_of",
           "run_lines"]

#: the most placements of one line that are enumerated; a line with more is refused
PLACEMENT_CAP = 200_000
#: a line of more placements than this is moved by dynamic programming over its blocks, not from its enumerated
#: placements, when its quadratic terms allow it (:func:`_dp_tables`; no cap then).  Measured on members 0002 and
#: 0005 of the 20x20 hard-core family, line-presolved, best of three 1,000-sweep reads: never (0.15 s, 0.42 s),
#: from 1,000 (0.13 s, 0.27 s), from 300 (0.12 s, 0.24 s), every line (0.135 s, 0.28 s)
DP_FROM = 300
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


def _counted(bounds: list[_LineBounds], ready: np.ndarray) -> list[int]:
    """Each line's number of placements; a line with none is refused, and one over :data:`PLACEMENT_CAP` unless
    it can be moved by dynamic programming (*ready*, :func:`_dp_tables`)."""
    counts = []
    for line, able in zip(bounds, ready):
        count = line.count()
        if count > PLACEMENT_CAP and not able:
            raise SolverError(f"--sampler lines: {line.name} has {count:,} placements of its blocks; at most "
                              f"{PLACEMENT_CAP:,} a line are enumerated (a presolve, --presolve line, fixes some)")
        if count == 0:
            raise SolverError(f"--sampler lines: no placement of {line.name}'s blocks agrees with the model's "
                              "fixed variables")
        counts.append(count)
    return counts


def line_replicas(options: SampleOptions) -> int:
    """``lines``' population: ``--replicas``, default 1 (one annealed state; more: population annealing)."""
    return options.replicas or 1


def check_model(qubo: Qubo, options: SampleOptions) -> None:
    """What ``lines`` cannot take of *qubo*: another encoding, no puzzle, a line of too many placements."""
    bounds = _bounds(qubo)
    _counted(bounds, _dp_tables(qubo, bounds)[-1])


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
        placements: each line's number of placements (enumerated or not).
        dp: per line, 1 when it is moved by dynamic programming over its blocks
            (:func:`nonoqubo.solvers.heatbath.move_dp`) rather than from its enumerated placements: a line of more
            than :data:`DP_FROM` placements whose quadratic terms allow it (it has none enumerated).
        lo, hi, self_e, pair_ptr, pair_e: the dynamic programme's tables (:func:`_dp_tables`), per block.
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
    dp: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    self_e: np.ndarray
    pair_ptr: np.ndarray
    pair_e: np.ndarray

    @property
    def count(self) -> int:
        """Lines (with a free variable)."""
        return len(self.names)

    @classmethod
    def of(cls, qubo: Qubo) -> Lines:
        """Enumerate *qubo*'s lines' placements (refused as :func:`check_model` says)."""
        bounds = _bounds(qubo)
        lo, hi, self_e, pair_ptr, pair_e, ready = _dp_tables(qubo, bounds)
        counts = _counted(bounds, ready)
        dp = np.array([able and count > DP_FROM for able, count in zip(ready, counts)], np.uint8)
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
            placed = np.zeros((0, len(line.slots)), _INT) if dp[l] else line.enumerate()
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
            place_ptr.append(place_ptr[-1] + len(placed))
            shift_ptr.append(shift_ptr[-1] + placed.size)

        def flat(parts: list[np.ndarray]) -> np.ndarray:
            return np.concatenate(parts).astype(_INT) if parts else np.zeros(0, _INT)

        return cls([b.name for b in bounds], np.array(var_ptr, _INT), flat(line_vars), var_line,
                   np.array(block_ptr, _INT), np.array(slot_ptr, _INT), flat(slots), np.array(place_ptr, _INT),
                   np.array(shift_ptr, _INT), _narrow(flat(shifts)), flat(intra),
                   np.array([min(c, 2**62) for c in counts], _INT), dp, lo, hi, self_e, pair_ptr, pair_e)

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The kernel's arguments after the model's CSR: ``var_line`` .. ``intra``."""
        return (self.var_line, self.var_ptr, self.line_vars, self.block_ptr, self.slot_ptr, self.slots,
                self.place_ptr, self.shift_ptr, self.shifts, self.intra)

    def dp_arrays(self) -> tuple[np.ndarray, ...]:
        """The kernel's arguments of the dynamic programme: ``dp`` .. ``pair_e``."""
        return self.dp, self.lo, self.hi, self.self_e, self.pair_ptr, self.pair_e

    def first_shifts(self) -> np.ndarray:
        """Every block's least shift its line allows (its bounds' running maximum): a placement of every line."""
        out = self.lo.copy()
        for l in range(self.count):
            first, last = int(self.block_ptr[l]), int(self.block_ptr[l + 1])
            out[first:last] = np.maximum.accumulate(self.lo[first:last])
        return out

    def place(self, state: np.ndarray, placement: np.ndarray, shifts: np.ndarray) -> None:
        """Write placement ``placement[l]`` (an index into the line's own placements) of every enumerated line, and
        the blocks' *shifts* of every line moved by dynamic programming, into *state*."""
        for l in range(self.count):
            if self.dp[l]:
                for b in range(int(self.block_ptr[l]), int(self.block_ptr[l + 1])):
                    wall = self.slots[self.slot_ptr[b]: self.slot_ptr[b + 1]]
                    for p in np.flatnonzero(wall >= 0):
                        state[self.line_vars[self.var_ptr[l] + wall[p]]] = 1 if p < shifts[b] else 0
            else:
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


def _narrow(shifts: np.ndarray) -> np.ndarray:
    """The shifts as int8 when they fit (every 20x20 or 25x25 line), else wider: the kernel reads them once per
    placement and block each move, and a byte each keeps a hard core's (150,000 of them) in the cache."""
    most = int(shifts.max()) if shifts.size else 0
    kind = np.int8 if most < 2**7 else np.int16 if most < 2**15 else np.int64
    return shifts.astype(kind)


def run_lines(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
    """``--sampler lines``: one compiled read (:func:`nonoqubo.solvers.heatbath.lines_read`) per read, each timed alone.

    Read by read, the run's Generator (``--seed``) draws every line's starting placement and seeds the
    kernel's stream, so the same seed gives the same samples and a read does not depend on the reads after it.
    """
    kernel = compiled_kernels("the 'lines' sampler", "heatbath")
    began = time.perf_counter()
    lines = Lines.of(qubo)
    setup_seconds = time.perf_counter() - began
    csr = KernelModel.of(qubo).csr()
    lo, hi = opts.beta_range if opts.beta_range is not None else DEFAULT_BETA_RANGE
    sweeps = opts.sweeps or DEFAULT_SWEEPS
    per_beta = opts.sweeps_per_beta or 1
    replicas = line_replicas(opts)
    count = sweeps // per_beta
    betas = geometric(float(lo), float(hi), count)
    n = qubo.num_vars
    target = NO_TARGET if opts.target_energy is None else int(opts.target_energy)

    first = lines.first_shifts()

    def read(states: np.ndarray, starts: np.ndarray, streams: np.ndarray, schedule: np.ndarray) -> tuple[int, np.ndarray, int]:
        current = lines.place_ptr[:-1][None, :] + starts
        shift_now = np.repeat(first[None, :], replicas, axis=0)
        best = np.zeros(n, dtype=np.int8)
        best_energy = np.array([np.iinfo(np.int64).max])
        energy = qubo.energy(states).astype(np.int64)
        if replicas == 1:
            done = kernel.lines_read(*csr, *lines.arrays(), *lines.dp_arrays(), np.repeat(schedule, per_beta),
                                     states[0], current[0], shift_now[0], int(energy[0]), streams, target, best,
                                     best_energy, True)
        else:
            done = kernel.lines_pa_read(*csr, *lines.arrays(), *lines.dp_arrays(), schedule, per_beta, states,
                                        current, shift_now, energy, streams, target, best, best_energy)
        return int(done), best, int(best_energy[0])

    def starting(rng: np.random.Generator | None) -> tuple[np.ndarray, np.ndarray]:
        """Each replica's placements: drawn for the enumerated lines, the least for the others (the kernel draws
        theirs)."""
        states = np.zeros((replicas, n), dtype=np.int8)
        starts = np.zeros((replicas, lines.count), _INT)
        for k in range(replicas):
            if rng is not None:
                starts[k] = (rng.random(lines.count) * lines.placements).astype(_INT)
            starts[k][lines.dp.astype(bool)] = 0
            lines.place(states[k], starts[k], first)
        return states, starts

    rng = np.random.default_rng(opts.seed)
    load_began = time.perf_counter()
    read(*starting(None), np.zeros(replicas + 1, dtype=np.uint64), betas[:0])  # compile, or load numba's cache
    load_seconds = time.perf_counter() - load_began
    bits = np.zeros((opts.reads, n), dtype=np.int8)
    energies = np.zeros(opts.reads, dtype=np.int64)
    seconds: list[float] = []
    sweeps_run: list[int] = []
    for r in range(opts.reads):
        states, starts = starting(rng)
        streams = rng.bit_generator.random_raw(1 if replicas == 1 else replicas + 1).astype(np.uint64)
        began = time.perf_counter()
        done, best, best_energy = read(states, starts, streams, betas)
        seconds.append(time.perf_counter() - began)
        sweeps_run.append(done)
        bits[r], energies[r] = best, best_energy
        tick(r + 1, float(best_energy))
    batch = replace(samples_from(bits, qubo.labels, spin=False, source="lines sampler"), energies=energies)
    batch.extra[READ_SECONDS] = seconds
    batch.extra[SAMPLER_INFO] = {
        "beta_range": [float(lo), float(hi)], "sweeps": sweeps, "betas": len(betas), "replicas": replicas,
        "lines": lines.count,
        "placements": int(lines.placements.sum()), "most_placements": int(lines.placements.max(initial=0)),
        "dp_lines": int(lines.dp.sum()),
        "setup_seconds": round(setup_seconds, 4), "kernel": f"numba {numba_version()}",
        "kernel_load_seconds": round(load_seconds, 4),
        "read": "the lowest energy any replica had after a sweep; a sweep is a heat-bath move of every line, in a "
                "random order"}
    if opts.target_energy is not None:
        batch.extra[SAMPLER_INFO].update(target_record(opts.target_energy, energies, seconds, sweeps_run, sweeps))
    return batch


def placements_of(margin: int, blocks: int) -> int:
    """``C(d + m, m)``: the placements of *blocks* blocks in a line of *margin* ``d`` (no variable fixed)."""
    return math.comb(margin + blocks, blocks)


def _dp_tables(qubo: Qubo, bounds: list[_LineBounds]) -> tuple[np.ndarray, ...]:
    """The tables of :func:`nonoqubo.solvers.heatbath.move_dp`: ``lo``, ``hi`` (each block's shift bounds),
    ``self_e`` (per block, its own quadratic terms for every shift, at ``slot_ptr[b] + b``), ``pair_ptr`` and
    ``pair_e`` (per block, its terms with the next block of its line for every pair of shifts), and ``ready``
    (per line: every quadratic term inside it is within a block or between neighbouring blocks)."""
    n = qubo.num_vars
    block_of, p_of = np.full(n, -1, _INT), np.full(n, -1, _INT)
    lo, hi, widths, line_of_block = [], [], [], []
    b = 0
    for l, line in enumerate(bounds):
        for k, s in enumerate(line.slots):
            free = np.flatnonzero(s >= 0)
            block_of[s[free]] = b
            p_of[s[free]] = free
            lo.append(int(line.lo[k]))
            hi.append(int(line.hi[k]))
            widths.append(s.size + 1)
            line_of_block.append(l)
            b += 1
    blocks = b
    self_e = [np.zeros(w, _INT) for w in widths]
    pair_e = [np.zeros((w, widths[b + 1]), _INT) if b + 1 < blocks and line_of_block[b + 1] == line_of_block[b]
              else np.zeros((0, 0), _INT) for b, w in enumerate(widths)]
    ready = np.ones(len(bounds), bool)
    far: dict[tuple[int, int], np.ndarray] = {}
    row, col = np.asarray(qubo.row, _INT), np.asarray(qubo.col, _INT)
    quad = np.asarray(qubo.quad, _INT)
    inside = (block_of[row] >= 0) & (block_of[col] >= 0)
    inside &= np.asarray(line_of_block, _INT)[np.maximum(block_of[row], 0)] == np.asarray(
        line_of_block, _INT)[np.maximum(block_of[col], 0)]
    for i, j, w in zip(row[inside].tolist(), col[inside].tolist(), quad[inside].tolist()):
        bi, bj, pi, pj = int(block_of[i]), int(block_of[j]), int(p_of[i]), int(p_of[j])
        if bi > bj:
            bi, bj, pi, pj = bj, bi, pj, pi
        if bi == bj:
            self_e[bi][max(pi, pj) + 1:] += w  # both ones: the shift passes both
        elif bj == bi + 1:
            pair_e[bi][pi + 1:, pj + 1:] += w
        else:
            far.setdefault((bi, bj), np.zeros((widths[bi], widths[bj]), _INT))[pi + 1:, pj + 1:] += w
    for (a, c), f in far.items():  # blocks apart: the terms add up to g(s_a) + h(s_c) wherever s_a <= s_c
        g, h = f[:, hi[c]] - f[lo[a], hi[c]], f[lo[a], :]
        shifts_a, shifts_c = np.arange(widths[a])[:, None], np.arange(widths[c])[None, :]
        where = ((shifts_a >= lo[a]) & (shifts_a <= hi[a]) & (shifts_c >= lo[c]) & (shifts_c <= hi[c])
                 & (shifts_a <= shifts_c))
        if (f - g[:, None] - h[None, :])[where].any():
            ready[line_of_block[a]] = False
            continue
        self_e[a] += g
        self_e[c] += h
    pair_ptr = np.zeros(blocks + 1, _INT)
    np.cumsum([t.size for t in pair_e], out=pair_ptr[1:])
    flat_self = np.concatenate(self_e) if self_e else np.zeros(0, _INT)
    flat_pair = np.concatenate([t.reshape(-1) for t in pair_e]) if pair_e else np.zeros(0, _INT)
    return np.array(lo, _INT), np.array(hi, _INT), flat_self.astype(_INT), pair_ptr, flat_pair.astype(_INT), ready
