"""The compiled Metropolis kernels of ``pt`` and ``pa`` (numba): one read per call, the replicas side by side.

This module imports numba at its top; :mod:`nonoqubo.solvers.tempering` imports it only when a ``pt``
or ``pa`` run starts (and says how to install numba when it is missing).  The kernels are compiled
on their first call and cached on disk (``cache=True``: numba's cache beside this file, or its user
cache directory when that is not writable), so a later process loads them instead of compiling.

The layout, for a model of ``n`` variables and ``K`` replicas of one read:

* the couplings as CSR adjacency, both directions (``indptr``, ``indices``, ``weights``: row ``i``
  lists every ``j`` with ``J_ij != 0``), integer weights;
* ``state[i, l]`` (int8, 0/1) and the *local field* ``field[i, l] = h_i + sum_j J_ij x_j`` of every
  variable of every replica (int32 or int64), replicas the fast axis: replica ``l`` is a lane;
* ``energy[l]`` (int64), exact: flipping ``x_i`` changes the energy by ``field[i, l]`` (0 -> 1) or
  ``-field[i, l]`` (1 -> 0); an accepted flip adds that to the energy and ``+-J_ij`` to its
  neighbours' fields, so nothing is recomputed.

A sweep visits the variables in order and, for each, proposes a flip in every lane.  Metropolis'
acceptance ``min(1, exp(-beta dE))`` of an integer ``dE`` is read from a table: ``table[row, d] =
floor(exp(-beta d) 2**32)`` (``2**32`` for ``d <= 0``: always), against the top 32 bits of a 64-bit
draw, so ``P(accept)`` is exact to ``2**-32``; a model whose changes reach past :data:`TABLE_LIMIT`
computes the exponential instead.  A proposal that does not raise the energy is accepted without a
draw, and one whose acceptance is below ``2**-32`` (``d >= cut``) is refused without one: at the cold
end of a ladder most proposals are one or the other.  (A branch-free pass over the lanes, a draw for
every proposal, then the accepted flips, measured slower here: ``benchmarks/bench_samplers.py`` keeps
it as its reference kernel.)

The random numbers are SplitMix64 (Steele, Lea and Flood 2014; the generator that seeds
xoshiro), one stream per lane and one more for the exchanges and the resampling, each seeded from
the run's ``numpy.random.Generator``: the same seed gives the same samples.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["TABLE_LIMIT", "acceptance_table", "pa_read", "pt_read", "splitmix64", "systematic_sources"]

#: the longest acceptance table (entries per beta); past it the exponential is computed per proposal
TABLE_LIMIT = 1 << 16
#: ``exp(-x) * 2**32 < 1`` for ``x`` above this: a change ``d`` with ``beta d`` above it is never accepted
_NEVER = 32 * math.log(2)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_TOP = np.uint64(32)


def acceptance_table(betas: np.ndarray, reach: int) -> np.ndarray:
    """``table[k, d]``: Metropolis' acceptance of a change ``d`` at ``betas[k]``, times ``2**32`` (uint64).

    Its length covers every change up to *reach* (the largest a flip can make), but stops where
    ``exp(-beta d)`` falls below ``2**-32`` at the hottest beta (every later entry would be 0), and at
    :data:`TABLE_LIMIT`; an empty table (length 0) means: compute the exponential.
    """
    betas = np.asarray(betas, dtype=np.float64)
    length = min(int(reach), int(math.ceil(_NEVER / float(betas.min())))) + 1 if betas.size else 1
    if length > TABLE_LIMIT:
        return np.zeros((len(betas), 0), dtype=np.uint64)
    d = np.arange(length, dtype=np.float64)
    scaled = np.floor(np.exp(-np.outer(betas, d)) * 2.0**32)
    table = np.minimum(scaled, 2.0**32).astype(np.uint64)
    table[:, 0] = np.uint64(1 << 32)
    return table


@njit(cache=True, inline="always")
def splitmix64(streams, k):
    """The next 64-bit draw of stream *k* (SplitMix64; every compiled sampler's generator: ``pt``, ``pa``,
    ``lines``)."""
    z = streams[k] + _GOLDEN
    streams[k] = z
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _fields(indptr, indices, weights, linear, state, field, energy, offset):
    """Every lane's local fields and energy from its state."""
    n, lanes = state.shape
    for i in range(n):
        for l in range(lanes):
            field[i, l] = linear[i]
        for k in range(indptr[i], indptr[i + 1]):
            j, w = indices[k], weights[k]
            for l in range(lanes):
                field[i, l] += w * state[j, l]
    for l in range(lanes):
        total = 0
        for i in range(n):
            if state[i, l]:
                total += field[i, l] + linear[i]
        energy[l] = offset + total // 2  # sum_i x_i (h_i + field_i) = 2 (linear + quadratic part)


@njit(cache=True)
def _sweep(indptr, indices, weights, state, field, energy, rows, table, cut, betas, streams, target):
    """One Metropolis sweep of every lane; lane ``l`` at ``betas[rows[l]]`` (``table[rows[l]]``).

    A proposal that lowers the energy or keeps it is accepted without a draw; one that raises it by
    ``d >= cut[row]`` (acceptance below ``2**-32``) is refused without a draw; any other draws once.
    Returns the first lane whose energy reached *target* (the sweep stops there), else -1.
    """
    n, lanes = state.shape
    length = table.shape[1]
    for i in range(n):
        first, last = indptr[i], indptr[i + 1]
        for l in range(lanes):
            x = state[i, l]
            f = np.int64(field[i, l])
            d = -f if x else f
            if d > 0:
                row = rows[l]
                if d >= cut[row]:
                    continue
                u = splitmix64(streams, l) >> _TOP
                if d < length:
                    threshold = table[row, d]
                else:  # no table (a model of very large changes): the exponential itself
                    threshold = np.uint64(math.exp(-betas[row] * d) * 4294967296.0)
                if u >= threshold:
                    continue
            sign = 1 - 2 * np.int64(x)
            state[i, l] = 1 - x
            energy[l] += d
            for k in range(first, last):
                field[indices[k], l] += weights[k] * sign
            if energy[l] <= target:
                return l
    return -1


@njit(cache=True)
def _keep_best(state, energy, best, best_energy):
    """Copy the lowest-energy lane into *best* when it beats ``best_energy[0]``."""
    low = 0
    for l in range(1, energy.size):
        if energy[l] < energy[low]:
            low = l
    if energy[low] < best_energy[0]:
        best_energy[0] = energy[low]
        best[:] = state[:, low]


@njit(cache=True)
def pt_read(indptr, indices, weights, linear, offset, betas, table, sweeps, state, streams, target, best,
            best_energy):
    """One read of parallel tempering: ``state`` (n x K) on the ladder ``betas`` (K, coldest last).

    Each sweep is followed by exchanges of neighbouring rungs (the even pairs, then the odd pairs on
    the next sweep), each accepted with ``min(1, exp((b_j - b_i)(E_j - E_i)))`` from stream ``K``;
    the rungs move between lanes, the states stay.  *best* and ``best_energy[0]`` receive the
    lowest-energy state seen after any sweep, or the first at *target* (the read then stops).
    Returns the sweeps run (the one that reached *target* counted whole).
    """
    n, lanes = state.shape
    field = np.empty((n, lanes), dtype=weights.dtype)
    energy = np.empty(lanes, dtype=np.int64)
    _fields(indptr, indices, weights, linear, state, field, energy, offset)
    rung_of = np.arange(lanes)  # lane -> its rung
    lane_at = np.arange(lanes)  # rung -> the lane on it
    cut = _cutoffs(betas, table)
    _keep_best(state, energy, best, best_energy)
    if best_energy[0] <= target:
        return 0
    for s in range(sweeps):
        hit = _sweep(indptr, indices, weights, state, field, energy, rung_of, table, cut, betas, streams, target)
        if hit >= 0:
            best_energy[0] = energy[hit]
            best[:] = state[:, hit]
            return s + 1
        for r in range(s % 2, lanes - 1, 2):
            a, b = lane_at[r], lane_at[r + 1]
            gain = (betas[r + 1] - betas[r]) * (energy[b] - energy[a])
            if gain >= 0 or (splitmix64(streams, lanes) >> _TOP) < math.exp(gain) * 4294967296.0:
                lane_at[r], lane_at[r + 1] = b, a
                rung_of[a], rung_of[b] = r + 1, r
        _keep_best(state, energy, best, best_energy)
    return sweeps


@njit(cache=True)
def systematic_sources(energy, gain, start, weight, source):
    """Systematic resampling of a population (``pa``'s, ``lines --replicas``'): ``source[k]``, the member whose
    copy becomes member ``k``, drawn in proportion to ``exp(-gain (E - min E))`` (*gain*: the step of beta) with
    one uniform *start* in ``[0, 1)``; the population's size is kept.  *weight* is scratch (the cumulative
    weights, the lowest energy's weight 1)."""
    size = energy.size
    least = energy.min()
    total = 0.0
    for k in range(size):
        total += math.exp(-gain * (energy[k] - least))
        weight[k] = total
    j = 0
    for k in range(size):
        point = (start + k) / size * total
        while j < size - 1 and weight[j] <= point:
            j += 1
        source[k] = j


@njit(cache=True)
def pa_read(indptr, indices, weights, linear, offset, betas, per_beta, reach, state, streams, target, best,
            best_energy):
    """One read of population annealing: the population ``state`` (n x K) down the schedule ``betas``.

    Before each beta but the first the population is resampled in proportion to
    ``exp(-(beta' - beta) E)`` (systematic resampling, one draw of stream ``K``: the size kept),
    then swept *per_beta* times at the new beta.  *best*, ``best_energy`` and the return value as
    :func:`pt_read`'s.
    """
    n, lanes = state.shape
    field = np.empty((n, lanes), dtype=weights.dtype)
    energy = np.empty(lanes, dtype=np.int64)
    _fields(indptr, indices, weights, linear, state, field, energy, offset)
    spare_state = np.empty_like(state)
    spare_field = np.empty_like(field)
    spare_energy = np.empty_like(energy)
    rows = np.zeros(lanes, dtype=np.int64)
    weight = np.empty(lanes, dtype=np.float64)
    source = np.empty(lanes, dtype=np.int64)
    one = np.empty(1, dtype=np.float64)
    _keep_best(state, energy, best, best_energy)
    if best_energy[0] <= target:
        return 0
    done = 0
    for step in range(betas.size):
        beta = betas[step]
        if step:
            start = (splitmix64(streams, lanes) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
            systematic_sources(energy, beta - betas[step - 1], start, weight, source)
            for i in range(n):
                for l in range(lanes):
                    spare_state[i, l] = state[i, source[l]]
                    spare_field[i, l] = field[i, source[l]]
            for l in range(lanes):
                spare_energy[l] = energy[source[l]]
            state, spare_state = spare_state, state
            field, spare_field = spare_field, field
            energy, spare_energy = spare_energy, energy
        one[0] = beta
        table = _table_row(beta, reach)
        cut = _cutoffs(one, table)
        for _ in range(per_beta):
            hit = _sweep(indptr, indices, weights, state, field, energy, rows, table, cut, one, streams, target)
            done += 1
            if hit >= 0:
                best_energy[0] = energy[hit]
                best[:] = state[:, hit]
                return done
            _keep_best(state, energy, best, best_energy)
    return done


@njit(cache=True)
def _table_row(beta, reach):
    """:func:`acceptance_table` of one beta, compiled (``pa`` makes one per beta)."""
    length = min(reach, int(math.ceil(_NEVER / beta))) + 1
    if length > TABLE_LIMIT:
        return np.zeros((1, 0), dtype=np.uint64)
    table = np.empty((1, length), dtype=np.uint64)
    table[0, 0] = np.uint64(4294967296)
    for d in range(1, length):
        table[0, d] = np.uint64(min(math.floor(math.exp(-beta * d) * 4294967296.0), 4294967296.0))
    return table


@njit(cache=True)
def _cutoffs(betas, table):
    """Per beta, the least change whose acceptance is below ``2**-32`` (where its table row turns 0)."""
    cut = np.empty(betas.size, dtype=np.int64)
    length = table.shape[1]
    for r in range(betas.size):
        if length == 0:
            cut[r] = int(math.ceil(_NEVER / betas[r])) + 1
            continue
        c = length
        for d in range(1, length):
            if table[r, d] == 0:
                c = d
                break
        cut[r] = c
    return cut
