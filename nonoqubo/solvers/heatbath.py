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

That is Gibbs sampling with a whole line as the block: it leaves ``exp(-beta E)`` invariant and never
leaves the states whose every line is valid.  The random numbers are SplitMix64 streams (Steele, Lea and
Flood 2014), seeded from the run's ``numpy.random.Generator``: the same seed gives the same samples.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["WEIGHT_CUT", "lines_read", "move"]

#: a placement whose weight is below ``exp(-WEIGHT_CUT)`` of the best one's is never drawn (about 10^-30)
WEIGHT_CUT = 69.0
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, inline="always")
def _draw(streams, k):
    """The next 64-bit draw of stream *k* (SplitMix64)."""
    z = streams[k] + _GOLDEN
    streams[k] = z
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _uniform(streams, k):
    """A draw in ``[0, 1)`` with 53 bits."""
    return np.float64(_draw(streams, k) >> np.uint64(11)) * _UNIT


@njit(cache=True)
def weight_table(beta):
    """``exp(-beta d)`` for ``d = 0, 1, ...`` until it falls below ``exp(-WEIGHT_CUT)``."""
    length = int(math.ceil(WEIGHT_CUT / beta)) + 1
    table = np.empty(length, dtype=np.float64)
    for d in range(length):
        table[d] = math.exp(-beta * d)
    return table


@njit(cache=True)
def move(line, indptr, indices, weights, linear, var_line, var_ptr, line_vars, block_ptr, slot_ptr, slots,
         place_ptr, shift_ptr, shifts, intra, table, state, current, streams, ext, cum, energies, chosen):
    """One heat-bath move of *line*: its placement redrawn from ``exp(-beta E) / Z`` (beta in *table*).

    *ext*, *cum* and *energies* are scratch (at least the line's variables, its blocks' slots plus one each,
    and its placements); ``chosen[0]`` receives the placement drawn.  Returns the energy change.
    """
    first_var, last_var = var_ptr[line], var_ptr[line + 1]
    for t in range(first_var, last_var):
        i = line_vars[t]
        f = np.int64(linear[i])
        for k in range(indptr[i], indptr[i + 1]):
            j = indices[k]
            if var_line[j] != line and state[j]:
                f += weights[k]
        ext[t - first_var] = f
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
    for a in range(count):
        e = intra[first + a]
        row = base + a * m
        c = 0
        for b in range(m):
            e += cum[c + shifts[row + b]]
            c += slot_ptr[first_block + b + 1] - slot_ptr[first_block + b] + 1
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
def lines_read(indptr, indices, weights, linear, var_line, var_ptr, line_vars, block_ptr, slot_ptr, slots,
               place_ptr, shift_ptr, shifts, intra, betas, state, current, energy, streams, target, best,
               best_energy, shuffle):
    """One read: ``betas.size`` sweeps, sweep ``s`` at ``betas[s]``, each a heat-bath move of every line.

    *state* (the model's variables, int8) must hold placement ``current[l]`` of every line ``l`` and have
    energy *energy*.  With *shuffle* each sweep visits the lines in an order drawn from stream 0, else in
    their order.  *best* and ``best_energy[0]`` receive the lowest-energy state after any sweep, or the
    first at *target* (the read then stops after that move).  Returns the sweeps run (the one that reached
    *target* counted whole).
    """
    lines = var_ptr.size - 1
    most_vars, most_slots, most_places = 1, 1, 1
    for line in range(lines):
        most_vars = max(most_vars, var_ptr[line + 1] - var_ptr[line])
        most_places = max(most_places, place_ptr[line + 1] - place_ptr[line])
        most_slots = max(most_slots, slot_ptr[block_ptr[line + 1]] - slot_ptr[block_ptr[line]]
                         + block_ptr[line + 1] - block_ptr[line])
    ext = np.empty(most_vars, dtype=np.int64)
    cum = np.empty(most_slots, dtype=np.int64)
    energies = np.empty(most_places, dtype=np.int64)
    chosen = np.empty(1, dtype=np.int64)
    order = np.arange(lines)
    if energy < best_energy[0]:
        best_energy[0] = energy
        best[:] = state
    if energy <= target:
        return 0
    for sweep in range(betas.size):
        table = weight_table(betas[sweep])
        if shuffle:
            for k in range(lines - 1, 0, -1):  # Fisher-Yates
                j = int(_uniform(streams, 0) * (k + 1))
                order[k], order[j] = order[j], order[k]
        for k in range(lines):
            energy += move(order[k], indptr, indices, weights, linear, var_line, var_ptr, line_vars, block_ptr,
                           slot_ptr, slots, place_ptr, shift_ptr, shifts, intra, table, state, current, streams,
                           ext, cum, energies, chosen)
            if energy <= target:
                best_energy[0] = energy
                best[:] = state
                return sweep + 1
        if energy < best_energy[0]:
            best_energy[0] = energy
            best[:] = state
    return betas.size
