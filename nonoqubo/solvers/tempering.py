"""Parallel tempering (``pt``) and population annealing (``pa``): many coupled copies of one anneal.

Both samplers keep, for every read, ``replicas`` copies ("replicas") of the model's state and move
all of them with the same Metropolis sweeps, written in NumPy and vectorised over every replica of
every read at once:

* **the sweep.** The model's interaction graph is coloured first (:func:`colour_classes`: no two
  variables of one colour share a term), and the variables are reordered so that each colour is one
  contiguous block.  A sweep visits the colours in turn; within a colour every variable of every
  replica is proposed a flip at once (its energy change is its bias plus the sparse product of its
  couplings with the state, one ``scipy.sparse`` product per colour), and each flip is accepted with
  Metropolis' probability ``min(1, exp(-beta * dE))``.  Variables of one colour do not interact, so
  this is an exact Metropolis sweep (a chromatic, or "checkerboard", sweep) and the energies are kept
  exactly by adding the accepted changes.  There is a Python loop per colour, never per variable.
* **parallel tempering** (``pt``; Swendsen and Wang 1986, Hukushima and Nemoto 1996): the replicas of a
  read sit on a geometric ladder of fixed inverse temperatures from ``LO`` to ``HI``
  (``--beta-range``); after every sweep, neighbouring rungs (the even pairs, then the odd pairs on
  the next sweep) swap their states with probability ``min(1, exp((b_j - b_i) (E_j - E_i)))``.  A
  state stuck in a valley at the cold end can climb the ladder, melt, and come back down elsewhere.
  ``--sweeps`` is the number of sweeps of every replica.
* **population annealing** (``pa``; Hukushima and Iba 2003, Machta 2010): the ``replicas`` of a read
  are a population annealed together along a geometric schedule of ``sweeps / sweeps-per-beta``
  inverse temperatures from ``LO`` to ``HI``; each step to a colder ``beta`` first resamples the
  population in proportion to ``exp(-(beta' - beta) E)`` (systematic resampling, the population's size
  kept), which clones the low-energy states and drops the high ones, then sweeps it
  ``sweeps-per-beta`` times at the new ``beta``.

A read's sample is the lowest-energy state any of its replicas visited (both are searches for the
ground state here, not samplers of the Boltzmann distribution).  The default beta range is the one
dwave-samplers' ``sa`` takes from the model's biases: the hottest ``ln 2 / (largest change one flip can
make)``, the coldest ``ln 100 / (smallest nonzero coefficient)``.  The random numbers come from one
``numpy.random.Generator`` seeded with ``--seed``, so the same seed gives the same samples (for the
same ``--reads``: all reads are drawn together).  ``--initial-states`` starts every replica of read
``r`` from state ``r``.  Each read's time is its share of the wall time of the batch it ran in.

Why not dwave-hybrid's reference workflows (``hybrid.reference.pt``, ``hybrid.reference.pa``)?  They
install and run with this dimod, but take no seed (each replica's ``FixedTemperatureSampler`` and the
swap step draw fresh randomness, and ``hybrid.Map`` runs the replicas in threads), so a run cannot be
repeated, and they call dwave-samplers once per replica per exchange; ``benchmarks/README.md`` has
the measurement.

Examples:
    >>> from nonoqubo.model.build import build
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> q = build(Puzzle.from_picture(["#.", "##"]))
    >>> batch = run_pt(q, SampleOptions(reads=3, seed=1, sweeps=50), lambda done, energy: None)
    >>> len(batch), int(q.energy(batch.bits).min())
    (3, 0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..errors import MissingDependency, SolverError
from ..model.qubo import Qubo
from ..samples import SampleBatch, samples_from
from .base import READ_SECONDS, SAMPLER_INFO, SampleOptions, Tick

__all__ = ["DEFAULT_PA_REPLICAS", "DEFAULT_PT_REPLICAS", "DEFAULT_SWEEPS", "MEMORY_LIMIT", "PA_SWEEPS_PER_BETA",
           "check_model", "check_pa", "check_pa_model", "check_pt", "check_pt_model", "colour_classes",
           "default_beta_range", "pa_replicas", "pt_replicas", "run_pa", "run_pt"]

#: sweeps of every replica when ``--sweeps`` is not given (as ``sa``'s)
DEFAULT_SWEEPS = 1000
#: ``pt``'s rungs when ``--replicas`` is not given
DEFAULT_PT_REPLICAS = 8
#: ``pa``'s population when ``--replicas`` is not given
DEFAULT_PA_REPLICAS = 32
#: ``pa``'s sweeps at each beta when ``--sweeps-per-beta`` is not given
PA_SWEEPS_PER_BETA = 10
#: at most this many replicas (all reads together) are swept at once, and no more than fit in
#: :data:`MEMORY_LIMIT`; more reads run in batches, drawn from the same generator
BATCH_ROWS = 4096


def pt_replicas(options: SampleOptions) -> int:
    """``pt``'s rungs: ``--replicas``, default :data:`DEFAULT_PT_REPLICAS`."""
    return options.replicas or DEFAULT_PT_REPLICAS


def pa_replicas(options: SampleOptions) -> int:
    """``pa``'s population: ``--replicas``, default :data:`DEFAULT_PA_REPLICAS`."""
    return options.replicas or DEFAULT_PA_REPLICAS


def check_pt(options: SampleOptions) -> None:
    """``pt``'s own rule: a ladder of at least two rungs (``--replicas`` at least 2)."""
    if options.replicas is not None and options.replicas < 2:
        raise SolverError(f"--replicas must be at least 2 for --sampler pt (a ladder of temperatures), "
                          f"not {options.replicas}")


def check_pa(options: SampleOptions) -> None:
    """``pa``'s own rule: ``--sweeps-per-beta`` (default 10) no more than ``--sweeps`` (one beta at least)."""
    sweeps = options.sweeps or DEFAULT_SWEEPS
    per_beta = options.sweeps_per_beta or PA_SWEEPS_PER_BETA
    if per_beta > sweeps or sweeps % per_beta:
        raise SolverError(f"--sweeps ({sweeps}) must be a multiple of --sweeps-per-beta ({per_beta}"
                          f"{', the default of pa' if options.sweeps_per_beta is None else ''})")


#: the working memory the replicas of one batch may take, in bytes (:func:`check_model`)
MEMORY_LIMIT = 2**30
#: bytes per variable per replica: the float32 state, its exponential draws, and a colour's temporaries
BYTES_PER_SLOT = 24


def check_model(qubo: Qubo, options: SampleOptions, replicas_of: Callable[[SampleOptions], int]) -> None:
    """``--replicas`` whose state for *qubo* does not fit in :data:`MEMORY_LIMIT` (one read's replicas at least);
    *replicas_of* is the sampler's rule for them (:func:`pt_replicas`, :func:`pa_replicas`)."""
    replicas = replicas_of(options)
    most = MEMORY_LIMIT // max(1, BYTES_PER_SLOT * qubo.num_vars)
    if replicas > most:
        raise SolverError(f"--replicas {replicas}: the replicas of one read of this model ({qubo.num_vars} "
                          f"variables) would take {replicas * BYTES_PER_SLOT * qubo.num_vars / 2**30:.1f} GiB; "
                          f"at most {most} fit in {MEMORY_LIMIT // 2**30} GiB")


def check_pt_model(qubo: Qubo, options: SampleOptions) -> None:
    """``pt``'s model check (:func:`check_model`)."""
    check_model(qubo, options, pt_replicas)


def check_pa_model(qubo: Qubo, options: SampleOptions) -> None:
    """``pa``'s model check (:func:`check_model`)."""
    check_model(qubo, options, pa_replicas)


def colour_classes(row: np.ndarray, col: np.ndarray, n: int, seed: int = 0) -> np.ndarray:
    """A colour per variable (``0 .. C-1``) such that no term ``(row[k], col[k])`` joins two of one colour.

    Luby's rounds, vectorised: in each round the uncoloured variables whose random priority beats
    every uncoloured neighbour's take the round's colour.  The priorities come from *seed*, so a
    model is always coloured the same way.
    """
    colour = np.full(n, -1, dtype=np.int64)
    a = np.concatenate([row, col]).astype(np.int64)
    b = np.concatenate([col, row]).astype(np.int64)
    keep = a != b
    a, b = a[keep], b[keep]
    priority = np.random.default_rng(seed).permutation(n)
    current = 0
    while (open_ := colour < 0).any():
        live = open_[a] & open_[b]  # edges between uncoloured variables
        best = np.full(n, -1, dtype=np.int64)
        np.maximum.at(best, a[live], priority[b[live]])
        chosen = open_ & (priority > best)
        colour[chosen] = current
        current += 1
    return colour


def default_beta_range(qubo: Qubo) -> tuple[float, float]:
    """dwave-samplers' rule for a default range: hottest ``ln 2 / max flip change``, coldest ``ln 100 / min |coefficient|``."""
    n = qubo.num_vars
    reach = np.abs(np.asarray(qubo.linear, dtype=np.float64)).copy()
    quad = np.abs(np.asarray(qubo.quad, dtype=np.float64))
    np.add.at(reach, np.asarray(qubo.row, dtype=np.int64), quad)
    np.add.at(reach, np.asarray(qubo.col, dtype=np.int64), quad)
    coefficients = np.concatenate([np.abs(np.asarray(qubo.linear, dtype=np.float64)), quad])
    nonzero = coefficients[coefficients > 0]
    if n == 0 or nonzero.size == 0:
        return 0.1, 1.0
    hot, cold = math.log(2) / float(reach.max()), math.log(100) / float(nonzero.min())
    return (hot, cold) if hot < cold else (cold / 10, cold)


@dataclass
class _Model:
    """The model reordered by colour: ``coupling[a:b]`` the rows of colour ``k`` for ``(a, b) = blocks[k]``."""

    order: np.ndarray  # position in the reordered model -> the model's variable
    linear: np.ndarray
    coupling: Any  # scipy.sparse.csr_matrix, symmetric, zero diagonal
    blocks: list[tuple[int, int]]
    offset: float
    rows: list[Any] = field(default_factory=list)  # coupling[a:b] of every block, sliced once

    def __post_init__(self) -> None:
        self.rows = [self.coupling[a:b] for a, b in self.blocks]

    @classmethod
    def of(cls, qubo: Qubo, purpose: str) -> _Model:
        try:
            from scipy import sparse
        except ImportError:
            raise MissingDependency("scipy", "tempering", purpose) from None
        n = qubo.num_vars
        row, col = np.asarray(qubo.row, dtype=np.int64), np.asarray(qubo.col, dtype=np.int64)
        quad = np.asarray(qubo.quad, dtype=np.float64)
        linear = np.asarray(qubo.linear, dtype=np.float64).copy()
        diagonal = row == col  # x*x = x: a diagonal term is linear
        np.add.at(linear, row[diagonal], quad[diagonal])
        row, col, quad = row[~diagonal], col[~diagonal], quad[~diagonal]
        colour = colour_classes(row, col, n)
        order = np.argsort(colour, kind="stable")
        where = np.empty(n, dtype=np.int64)
        where[order] = np.arange(n)
        r, c = where[row], where[col]
        coupling = sparse.csr_matrix((np.concatenate([quad, quad]), (np.concatenate([r, c]), np.concatenate([c, r]))),
                                     shape=(n, n))
        counts = np.bincount(colour, minlength=int(colour.max()) + 1) if n else np.zeros(0, dtype=np.int64)
        ends = np.cumsum(counts)
        blocks = [(int(e - k), int(e)) for e, k in zip(ends, counts) if k]
        return cls(order, linear[order].astype(np.float32), coupling.astype(np.float32), blocks, float(qubo.offset))

    def energies(self, state: np.ndarray) -> np.ndarray:
        """The energy of every column of *state* (variables x replicas), offset included."""
        wide = state.astype(np.float64)
        return (self.linear.astype(np.float64) @ wide
                + 0.5 * np.einsum("ij,ij->j", wide, self.coupling.astype(np.float64) @ wide) + self.offset)


class _Chain:
    """The replicas of a batch of reads: the state (variables x replicas, float 0/1), energies, best so far."""

    def __init__(self, model: _Model, reads: int, replicas: int, rng: np.random.Generator,
                 start: np.ndarray | None) -> None:
        n = len(model.order)
        self.model, self.reads, self.replicas, self.rng = model, reads, replicas, rng
        if start is None:
            self.state = rng.integers(0, 2, size=(n, reads * replicas)).astype(np.float32)
        else:  # every replica of read r from start[r] (the model's order -> the colour order)
            self.state = np.repeat(start[:, model.order].T.astype(np.float32), replicas, axis=1)
        self.energy = model.energies(self.state)
        self.best_energy = np.full(reads, np.inf)
        self.best = np.zeros((n, reads))
        self.keep_best()

    def sweep(self, beta: np.ndarray) -> None:
        """One Metropolis sweep of every replica; *beta* its inverse temperature (one per column).

        A flip of energy change ``dE`` is accepted when ``beta * dE <= X`` with ``X`` a standard
        exponential draw (``-ln U``): the same event as ``U < exp(-beta dE)``, without an ``exp`` per
        proposal; every draw of the sweep is made in one call.
        """
        model, state = self.model, self.state
        draws = self.rng.standard_exponential(state.shape, dtype=np.float32)
        for (a, b), rows in zip(model.blocks, model.rows):
            x = state[a:b]
            local = rows @ state
            local += model.linear[a:b, None]
            delta = (1 - 2 * x) * local
            accept = delta * beta <= draws[a:b]
            state[a:b] = np.where(accept, 1 - x, x)
            self.energy += np.where(accept, delta, 0).sum(axis=0, dtype=np.float64)

    def keep_best(self) -> None:
        """Remember each read's lowest-energy state so far."""
        energy = self.energy.reshape(self.reads, self.replicas)
        k = energy.argmin(axis=1)
        low = energy[np.arange(self.reads), k]
        better = np.flatnonzero(low < self.best_energy)
        if better.size:
            self.best_energy[better] = low[better]
            self.best[:, better] = self.state[:, better * self.replicas + k[better]]

    def take(self, index: np.ndarray) -> None:
        """Replace the replicas by the columns *index* (a swap or a resampling)."""
        self.state = self.state[:, index]
        self.energy = self.energy[index]


def _pt_batch(chain: _Chain, betas: np.ndarray, sweeps: int) -> None:
    """*sweeps* sweeps of a ladder, the neighbours' exchanges after each (even pairs, then odd)."""
    reads, k = chain.reads, chain.replicas
    beta = np.tile(betas, reads).astype(np.float32)
    base = np.arange(reads * k).reshape(reads, k)
    for s in range(sweeps):
        chain.sweep(beta)
        first = np.arange(s % 2, k - 1, 2)
        if first.size:
            lo, hi = base[:, first].ravel(), base[:, first + 1].ravel()
            gain = (beta[hi] - beta[lo]) * (chain.energy[hi] - chain.energy[lo])
            swap = chain.rng.random(gain.shape) < np.exp(np.minimum(gain, 0))
            index = np.arange(reads * k)
            index[lo[swap]], index[hi[swap]] = hi[swap], lo[swap]
            chain.take(index)
        chain.keep_best()


def _pa_batch(chain: _Chain, betas: np.ndarray, per_beta: int) -> None:
    """The population walked down the schedule: resample to each colder beta, then sweep at it."""
    reads, k = chain.reads, chain.replicas
    offsets = np.repeat(np.arange(reads), k)
    previous = None
    for b in betas:
        if previous is not None:
            log_weight = (-(b - previous) * chain.energy).reshape(reads, k)
            weight = np.exp(log_weight - log_weight.max(axis=1, keepdims=True))
            cumulative = np.cumsum(weight, axis=1)
            cumulative /= cumulative[:, -1:]
            points = (chain.rng.random((reads, 1)) + np.arange(k)) / k
            index = np.searchsorted((cumulative + np.arange(reads)[:, None]).ravel(),
                                    (points + np.arange(reads)[:, None]).ravel(), side="right")
            chain.take(np.clip(index, offsets * k, offsets * k + k - 1))  # within its read, whatever the rounding
        beta = np.full(reads * k, b, dtype=np.float32)
        for _ in range(per_beta):
            chain.sweep(beta)
        chain.keep_best()
        previous = b


def _runner(name: str, replicas_of: Callable[[SampleOptions], int],
            walk: Callable[[_Chain, np.ndarray, SampleOptions], None],
            ladder: Callable[[float, float, SampleOptions, int], np.ndarray]):
    """The run function of ``pt`` or ``pa``: the reads in batches of at most :data:`BATCH_ROWS` replicas."""

    def run(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
        model = _Model.of(qubo, f"the '{name}' sampler")
        replicas = replicas_of(opts)
        lo, hi = opts.beta_range if opts.beta_range is not None else default_beta_range(qubo)
        betas = ladder(float(lo), float(hi), opts, replicas)
        rng = np.random.default_rng(opts.seed)
        rows = min(BATCH_ROWS, MEMORY_LIMIT // (BYTES_PER_SLOT * max(1, qubo.num_vars)))
        per_batch = max(1, rows // replicas)
        bits = np.zeros((opts.reads, qubo.num_vars), dtype=np.int8)
        energies = np.zeros(opts.reads)
        seconds: list[float] = []
        for first in range(0, opts.reads, per_batch):
            reads = min(per_batch, opts.reads - first)
            began = time.perf_counter()
            start = None if opts.states is None else opts.states[first:first + reads]
            chain = _Chain(model, reads, replicas, rng, start)
            walk(chain, betas, opts)
            bits[first:first + reads, model.order] = chain.best.T.astype(np.int8)
            energies[first:first + reads] = chain.best_energy
            seconds += [(time.perf_counter() - began) / reads] * reads
            for r in range(reads):
                tick(first + r + 1, float(chain.best_energy[r]))
        batch = replace(samples_from(bits, qubo.labels, spin=False, source=f"{name} sampler"), energies=energies)
        batch.extra[READ_SECONDS] = seconds
        batch.extra[SAMPLER_INFO] = {"beta_range": [float(lo), float(hi)], "betas": len(betas),
                                     "replicas": replicas, "sweeps": opts.sweeps or DEFAULT_SWEEPS,
                                     "colours": len(model.blocks), "read": "the lowest energy any replica visited"}
        return batch

    return run


def _geometric(lo: float, hi: float, count: int) -> np.ndarray:
    return np.geomspace(lo, hi, count) if count > 1 else np.array([hi])


run_pt = _runner("pt", pt_replicas,
                 lambda chain, betas, opts: _pt_batch(chain, betas, opts.sweeps or DEFAULT_SWEEPS),
                 lambda lo, hi, opts, k: _geometric(lo, hi, k))
run_pa = _runner("pa", pa_replicas,
                 lambda chain, betas, opts: _pa_batch(chain, betas, opts.sweeps_per_beta or PA_SWEEPS_PER_BETA),
                 lambda lo, hi, opts, k: _geometric(
                     lo, hi, (opts.sweeps or DEFAULT_SWEEPS) // (opts.sweeps_per_beta or PA_SWEEPS_PER_BETA)))
