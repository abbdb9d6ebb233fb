"""The compiled heat-bath line move of ``lines`` (numba): one read per call.

:mod:`nonoqubo.solvers.linemoves` sets a model up (its lines' placements, enumerated once) and imports this
module only when a ``lines`` run starts; the kernels are compiled on their first call and cached on disk
(``cache=True``), as :mod:`nonoqubo.solvers.metropolis`'s are.

A *line* is a row or column of the domain-wall model with its blocks' variables; a *placement* is one
valid choice of its blocks' shifts (non-decreasing, within the bounds its fixed variables leave), and
sets the line's variable ``w[k][p]`` to 1 exactly when ``p < shift_k``.  A move on line ``l``, given the
state ``x`` of every other line:

1. the *external field* of each free variable ``i`` of the line, ``ext_i = h_i + sum_j J_ij x_j`` over its
   neighbours ``j`` outside the line (the CSR adjacency, both directions);
2. per block, the prefix sums ``cum_b[s] = sum_{p < s} ext_{w[b][p]}`` (a fixed slot adds 0);
3. every placement's energy ``E_a = intra_a + sum_b cum_b[shift_{a,b}]``, where ``intra_a`` (set up once)
   is the line's own quadratic terms on that placement: ``E(x) = const + E_a`` exactly, the constant
   not depending on the line;
4. a placement drawn with probability ``exp(-beta E_a) / Z`` (inverse CDF; the weight of an integer
   ``E_a - min E`` read from a table per beta, 0 when it is below ``e^-69`` (about ``10^-30``) of the
   best placement's), written into ``x``; the read's energy moves by ``E_new - E_old``.

A line of many placements is moved by :func:`move_dp` instead, which enumerates nothing: the same energy
written as a chain over the blocks (each block's prefix sums plus its own terms, and a table of the terms
between neighbouring blocks), a forward pass of log-sum-exp over the shifts, and the shifts drawn
backwards, the last block first; it draws from the same distribution.

That is Gibbs sampling with a whole line as the block: it leaves ``exp(-beta E)`` invariant and never
leaves the states whose every line is valid.  The random numbers are SplitMix64 streams (Steele, Lea and
Flood 2014), seeded from the run's ``numpy.random.Generator``: the same seed gives the same samples.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .metropolis import splitmix64, systematic_sources

__all__ = ["WEIGHT_CUT", "lines_pa_read", "lines_read", "move", "move_dp", "weight_table"]

#: a placement whose weight is below ``exp(-WEIGHT_CUT)`` of the best one's is never drawn (about 10^-30)
WEIGHT_CUT = 69.0
_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, inline="always")
def _uniform(streams, k):
    """A draw in ``[0, 1)`` with 53 bits."""
    return np.float64(splitmix64(streams, k) >> np.uint64(11)) * _UNIT


@njit(cache=True)
def weight_table(beta):
    """``exp(-beta d)`` for ``d = 0, 1, ...`` until it falls below ``exp(-WEIGHT_CUT)``."""
    length = int(math.ceil(WEIGHT_CUT / beta)) + 1
    table = np.empty(length, dtype=np.float64)
    for d in range(length):
        table[d] = math.exp(-beta * d)
    return table


@njit(cache=True, inline="always")
def _external_fields(line, indptr, indices, weights, linear, var_line, var_ptr, line_vars, state, ext):
    """``ext[t]``: the field on the line's ``t``-th variable from its linear term and the crossing lines' variables
    that are 1 (the couplings inside the line are the placement's own energy, added by the caller)."""
    first_var, last_var = var_ptr[line], var_ptr[line + 1]
    for t in range(first_var, last_var):
        i = line_vars[t]
        f = np.int64(linear[i])
        for k in range(indptr[i], indptr[i + 1]):
            j = indices[k]
            if var_line[j] != line and state[j]:
                f += weights[k]
        ext[t - first_var] = f


@njit(cache=True)
def move(line, indptr, indices, weights, linear, var_line, var_ptr, line_vars, block_ptr, slot_ptr, slots,
         place_ptr, shift_ptr, shifts, intra, table, state, current, streams, ext, cum, offsets, energies, chosen):
    """One heat-bath move of *line*: its placement redrawn from ``exp(-beta E) / Z`` (beta in *table*).

    *ext*, *cum*, *offsets* and *energies* are scratch (at least the line's variables, its blocks' slots plus one
    each, its blocks, and its placements); ``chosen[0]`` receives the placement drawn.  Returns the energy change.
    """
    _external_fields(line, indptr, indices, weights, linear, var_line, var_ptr, line_vars, state, ext)
    first_var = var_ptr[line]
    first_block, last_block = block_ptr[line], block_ptr[line + 1]
    m = last_block - first_block
    c = 0
    for b in range(first_block, last_block):
        total = np.int64(0)
        cum[c] = 0
        c += 1
        for q in range(slot_ptr[b], slot_ptr[b + 1]):
            if slots[q] >= 0:
                total += ext[slots[q]]
            cum[c] = total
            c += 1
    first, last = place_ptr[line], place_ptr[line + 1]
    count = last - first
    base = shift_ptr[line]
    low = np.iinfo(np.int64).max
    c = 0
    for b in range(m):
        offsets[b] = c
        c += slot_ptr[first_block + b + 1] - slot_ptr[first_block + b] + 1
    for a in range(count):
        e = intra[first + a]
        row = base + a * m
        for b in range(m):
            e += cum[offsets[b] + shifts[row + b]]
        energies[a] = e
        if e < low:
            low = e
    length = table.size
    total_weight = 0.0
    for a in range(count):
        d = energies[a] - low
        if d < length:
            total_weight += table[d]
    point = _uniform(streams, 0) * total_weight
    acc = 0.0
    pick = -1
    for a in range(count):
        d = energies[a] - low
        if d < length:
            acc += table[d]
            pick = a
            if acc > point:
                break
    old = current[line]
    change = energies[pick] - energies[old - first]
    if pick + first != old:
        row = base + pick * m
        for b in range(m):
            s = shifts[row + b]
            p = 0
            for q in range(slot_ptr[first_block + b], slot_ptr[first_block + b + 1]):
                if slots[q] >= 0:
                    state[line_vars[first_var + slots[q]]] = 1 if p < s else 0
                p += 1
        current[line] = first + pick
    chosen[0] = pick
    return change


@njit(cache=True)
def _scratch(var_ptr, block_ptr, slot_ptr, place_ptr):
    """The scratch arrays of :func:`move` and :func:`move_dp`, sized for the largest line: ``ext`` (its variables),
    ``cum`` and ``offsets`` (its blocks' slots plus one each), ``energies`` (its placements), ``chosen``, and the
    dynamic programme's ``logw`` and ``picked``."""
    most_vars, most_slots, most_places = 1, 1, 1
    for line in range(var_ptr.size - 1):
        most_vars = max(most_vars, var_ptr[line + 1] - var_ptr[line])
        most_places = max(most_places, place_ptr[line + 1] - place_ptr[line])
        most_slots = max(most_slots, slot_ptr[block_ptr[line + 1]] - slot_ptr[block_ptr[line]]
                         + block_ptr[line + 1] - block_ptr[line])
    return (np.empty(most_vars, dtype=np.int64), np.empty(most_slots, dtype=np.int64),
            np.empty(most_slots, dtype=np.int64), np.empty(most_places, dtype=np.int64), np.empty(1, dtype=np.int64),
            np.empty(most_slots, dtype=np.float64), np.empty(most_slots, dtype=np.int64))


@njit(cache=True)
def lines_read(indptr, indices, weights, linear, var_line, var_ptr, line_vars, block_ptr, slot_ptr, slots,
               place_ptr, shift_ptr, shifts, intra, dp, lo, hi, self_e, pair_ptr, pair_e, betas, state, current,
               shift_now, energy, streams, target, best, best_energy, shuffle):
    """One read: ``betas.size`` sweeps, sweep ``s`` at ``betas[s]``, each a heat-bath move of every line.

    *state* (the model's variables, int8) must hold placement ``current[l]`` of every line ``l`` moved by
    enumeration and shifts ``shift_now`` of every line moved by dynamic programming (``dp[l]``: :func:`move_dp`,
    with *lo* .. *pair_e*), and have energy *energy*; the read first redraws the latter uniformly (a move at
    beta 0).  With *shuffle* each sweep visits the lines in an order drawn from stream 0, else in
    their order.  *best* and ``best_energy[0]`` receive the lowest-energy state after any sweep, or the
    first at *target* (the read then stops after that move).  Returns the sweeps run (the one that reached
    *target* counted whole).
    """
    lines = var_ptr.size - 1
    ext, cum, offsets, energies, chosen, logw, picked = _scratch(var_ptr, block_ptr, slot_ptr, place_ptr)
    order = np.arange(lines)
    for line in range(lines):
        if dp[line]:
            energy += move_dp(line, indptr, indices, weights, linear, var_line, var_ptr, line_vars, block_ptr,
                              slot_ptr, slots, lo, hi, self_e, pair_ptr, pair_e, 0.0, state, shift_now, streams,
                              ext, cum, offsets, logw, picked)
    if energy < best_energy[0]:
        best_energy[0] = energy
        best[:] = state
    if energy <= target:
        return 0
    for sweep in range(betas.size):
        beta = betas[sweep]
        table = weight_table(beta)
        if shuffle:
            for k in range(lines - 1, 0, -1):  # Fisher-Yates
                j = int(_uniform(streams, 0) * (k + 1))
                order[k], order[j] = order[j], order[k]
        for k in range(lines):
            line = order[k]
            if dp[line]:
                energy += move_dp(line, indptr, indices, weights, linear, var_line, var_ptr, line_vars, block_ptr,
                                  slot_ptr, slots, lo, hi, self_e, pair_ptr, pair_e, beta, state, shift_now,
                                  streams, ext, cum, offsets, logw, picked)
            else:
                energy += move(line, indptr, indices, weights, linear, var_line, var_ptr, line_vars, block_ptr,
                               slot_ptr, slots, place_ptr, shift_ptr, shifts, intra, table, state, current, streams,
                               ext, cum, offsets, energies, chosen)
            if energy <= target:
                best_energy[0] = energy
                best[:] = state
                return sweep + 1
        if energy < best_energy[0]:
            best_energy[0] = energy
            best[:] = state
    return betas.size


@njit(cache=True)
def lines_pa_read(indptr, indices, weights, linear, var_line, var_ptr, line_vars, block_ptr, slot_ptr, slots,
                  place_ptr, shift_ptr, shifts, intra, dp, lo, hi, self_e, pair_ptr, pair_e, betas, per_beta, state,
                  current, shift_now, energy, streams, target, best, best_energy):
    """One read of population annealing with line moves: the population ``state`` (K x n, a replica a row; its
    placements ``current``, K x lines; its energies ``energy``) down the schedule ``betas``.

    Before each beta but the first the population is resampled in proportion to ``exp(-(beta' - beta) E)``
    (systematic resampling, one draw of stream 0: the size kept), then swept *per_beta* times at the new
    beta, each replica's sweep visiting the lines in its own order (stream ``1 + k`` of replica ``k``); the
    lines moved by dynamic programming (``dp``) keep each replica's shifts in its row of ``shift_now``, and are
    first redrawn uniformly, as :func:`lines_read` does.
    *best*, ``best_energy`` and the return value (the sweeps of one replica run) as :func:`lines_read`'s.
    """
    replicas = state.shape[0]
    lines = var_ptr.size - 1
    ext, cum, offsets, energies, chosen, logw, picked = _scratch(var_ptr, block_ptr, slot_ptr, place_ptr)
    order = np.arange(lines)
    for k in range(replicas):
        for line in range(lines):
            if dp[line]:
                energy[k] += move_dp(line, indptr, indices, weights, linear, var_line, var_ptr, line_vars, block_ptr,
                                     slot_ptr, slots, lo, hi, self_e, pair_ptr, pair_e, 0.0, state[k], shift_now[k],
                                     streams[1 + k:2 + k], ext, cum, offsets, logw, picked)
    spare_state = np.empty_like(state)
    spare_current = np.empty_like(current)
    spare_shift = np.empty_like(shift_now)
    spare_energy = np.empty_like(energy)
    weight = np.empty(replicas, dtype=np.float64)
    source = np.empty(replicas, dtype=np.int64)
    low = 0
    for k in range(1, replicas):
        if energy[k] < energy[low]:
            low = k
    if energy[low] < best_energy[0]:
        best_energy[0] = energy[low]
        best[:] = state[low]
    if best_energy[0] <= target:
        return 0
    done = 0
    for step in range(betas.size):
        beta = betas[step]
        if step:
            systematic_sources(energy, beta - betas[step - 1], _uniform(streams, 0), weight, source)
            for k in range(replicas):
                spare_state[k] = state[source[k]]
                spare_current[k] = current[source[k]]
                spare_shift[k] = shift_now[source[k]]
                spare_energy[k] = energy[source[k]]
            state, spare_state = spare_state, state
            current, spare_current = spare_current, current
            shift_now, spare_shift = spare_shift, shift_now
            energy, spare_energy = spare_energy, energy
        table = weight_table(beta)
        for _ in range(per_beta):
            done += 1
            for k in range(replicas):
                for i in range(lines - 1, 0, -1):
                    j = int(_uniform(streams, 1 + k) * (i + 1))
                    order[i], order[j] = order[j], order[i]
                row = state[k]
                placed = current[k]
                for i in range(lines):
                    line = order[i]
                    if dp[line]:
                        energy[k] += move_dp(line, indptr, indices, weights, linear, var_line, var_ptr, line_vars,
                                             block_ptr, slot_ptr, slots, lo, hi, self_e, pair_ptr, pair_e, beta, row,
                                             shift_now[k], streams[1 + k:2 + k], ext, cum, offsets, logw, picked)
                    else:
                        energy[k] += move(line, indptr, indices, weights, linear, var_line, var_ptr, line_vars,
                                          block_ptr, slot_ptr, slots, place_ptr, shift_ptr, shifts, intra, table, row,
                                          placed, streams[1 + k:2 + k], ext, cum, offsets, energies, chosen)
                    if energy[k] <= target:
                        best_energy[0] = energy[k]
                        best[:] = row
                        return done
                if energy[k] < best_energy[0]:
                    best_energy[0] = energy[k]
                    best[:] = row
    return done


@njit(cache=True)
def move_dp(line, indptr, indices, weights, linear, var_line, var_ptr, line_vars, block_ptr, slot_ptr, slots,
            lo, hi, self_e, pair_ptr, pair_e, beta, state, shift_now, streams, ext, cum, offsets, logw, picked):
    """:func:`move` by dynamic programming over the line's blocks, no placement enumerated.

    The line's energy given the rest is ``sum_k u_k(s_k) + sum_k v_k(s_k, s_(k+1))``: ``u_k(s)`` block ``k``'s
    external fields' prefix sum plus its own quadratic terms (``self_e``), ``v_k`` the terms between block ``k``
    and the next (``pair_e``, a ``(d + 1) x (d + 1)`` table); shifts in ``[lo_k, hi_k]``, never decreasing.
    A forward pass (log-sum-exp) gives each block's weight of every shift summed over the blocks before it;
    the shifts are then drawn backwards, the last block first, so the placement is drawn exactly from
    ``exp(-beta E) / Z``.  ``shift_now`` holds every block's shift and is kept; returns the energy change.
    """
    _external_fields(line, indptr, indices, weights, linear, var_line, var_ptr, line_vars, state, ext)
    first_var = var_ptr[line]
    first_block, last_block = block_ptr[line], block_ptr[line + 1]
    m = last_block - first_block
    c = 0
    for k in range(m):
        b = first_block + k
        offsets[k] = c
        total = np.int64(0)
        base = slot_ptr[b] + b
        cum[c] = self_e[base]
        c += 1
        p = 1
        for q in range(slot_ptr[b], slot_ptr[b + 1]):
            if slots[q] >= 0:
                total += ext[slots[q]]
            cum[c] = total + self_e[base + p]
            c += 1
            p += 1
    offsets[m] = c
    none = -np.inf
    for k in range(m):
        b = first_block + k
        o = offsets[k]
        for s in range(offsets[k + 1] - o):
            logw[o + s] = none
        for s2 in range(lo[b], hi[b] + 1):
            if k == 0:
                logw[o + s2] = -beta * cum[o + s2]
                continue
            a = b - 1
            oa = offsets[k - 1]
            width = offsets[k + 1] - o
            top = min(hi[a], s2)
            most = none
            for s in range(lo[a], top + 1):
                if logw[oa + s] > none:
                    x = logw[oa + s] - beta * pair_e[pair_ptr[a] + s * width + s2]
                    if x > most:
                        most = x
            if most == none:
                continue
            acc = 0.0
            for s in range(lo[a], top + 1):
                if logw[oa + s] > none:
                    acc += math.exp(logw[oa + s] - beta * pair_e[pair_ptr[a] + s * width + s2] - most)
            logw[o + s2] = -beta * cum[o + s2] + most + math.log(acc)
    for k in range(m - 1, -1, -1):
        b = first_block + k
        o = offsets[k]
        top = hi[b]
        width = 0
        if k < m - 1:
            top = min(top, picked[k + 1])
            width = offsets[k + 2] - offsets[k + 1]
        most = none
        for s in range(lo[b], top + 1):
            x = logw[o + s]
            if k < m - 1:
                x -= beta * pair_e[pair_ptr[b] + s * width + picked[k + 1]]
            if x > most:
                most = x
        acc = 0.0
        for s in range(lo[b], top + 1):
            x = logw[o + s]
            if k < m - 1:
                x -= beta * pair_e[pair_ptr[b] + s * width + picked[k + 1]]
            if x > none:
                acc += math.exp(x - most)
        point = _uniform(streams, 0) * acc
        run = 0.0
        pick = lo[b]
        for s in range(lo[b], top + 1):
            x = logw[o + s]
            if k < m - 1:
                x -= beta * pair_e[pair_ptr[b] + s * width + picked[k + 1]]
            if x > none:
                run += math.exp(x - most)
                pick = s
                if run > point:
                    break
        picked[k] = pick
    change = np.int64(0)
    for k in range(m):
        b = first_block + k
        old, new = shift_now[b], picked[k]
        change += cum[offsets[k] + new] - cum[offsets[k] + old]
        if k < m - 1:
            width = offsets[k + 2] - offsets[k + 1]
            change += pair_e[pair_ptr[b] + new * width + picked[k + 1]] - pair_e[pair_ptr[b] + old * width
                                                                                 + shift_now[b + 1]]
    for k in range(m):
        b = first_block + k
        new = picked[k]
        if new != shift_now[b]:
            p = 0
            for q in range(slot_ptr[b], slot_ptr[b + 1]):
                if slots[q] >= 0:
                    state[line_vars[first_var + slots[q]]] = 1 if p < new else 0
                p += 1
    for k in range(m):
        shift_now[first_block + k] = picked[k]
    return change
