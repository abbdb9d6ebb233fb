"""``pt`` and ``pa`` against a compiled reference kernel, side by side, per spin-update attempt (issue 52).

Run: ``python benchmarks/bench_samplers.py [--sweeps 1000] [--reads 3] [--rounds 3] [--beta-range 1,20]
[--no-first-call]``.

The models: the QUBO++ logo (``examples/qbpp-logo.yaml``, 437 variables) and a 20x20 hard core's
line-presolved model (``tests/data/puzzles/hard/random-20x20-d0.5-s1-0002.non``, member 0002 of
``suite --random 20x20:0.5:6:1 --unique=hard --min-open 100``: 608 variables after ``--presolve``).

The reference is this file's own kernel, written for speed and nothing else: numba, one thread, CSR
adjacency, int32 local fields and int64 energies, the replicas of a read as the fast axis of the
state (SIMD lanes): for each variable, a branch-free pass proposes a flip in every lane (energy
change, a SplitMix64 draw per lane, Metropolis' acceptance read from an integer table), then a
second pass applies the accepted ones.  Its ``pt`` and ``pa`` are the same algorithms as nonoqubo's
(a ladder with neighbour exchanges after every sweep; a population resampled at each beta), with
the lowest energy kept after every sweep; no target, no warm start, no records.

Each round runs, on each model and for each sampler, ``--reads`` reads of nonoqubo's ``pt``/``pa``
(``nonoqubo.solvers.sampling.sample``; time: the record's ``read_seconds``, one kernel call a read)
and as many reads of the reference (timed around each call), interleaved; a figure is the median
over rounds of the mean per read, divided by sweeps x replicas x variables.  ``sa``
(dwave-samplers, its ``sampling_ns`` per read) is measured in the same rounds for scale.  With the
first call (default on), two fresh processes with an empty numba cache directory time a one-read run:
the first compiles the kernels, the second loads them from the cache.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from numba import njit

from nonoqubo.clues import load
from nonoqubo.pipeline import Models
from nonoqubo.solvers.sampling import RUN, sample
from nonoqubo.solvers.metropolis import splitmix64 as _draw64  # the same SplitMix64 streams
from nonoqubo.solvers.tempering import KernelModel

ROOT = Path(__file__).resolve().parents[1]
LOGO = ROOT / "examples" / "qbpp-logo.yaml"
CORE = ROOT / "tests" / "data" / "puzzles" / "hard" / "random-20x20-d0.5-s1-0002.non"

_TOP = np.uint64(32)


@njit(cache=True, inline="always")
def _draw(streams, k):
    return _draw64(streams, k) >> _TOP


@njit(cache=True)
def ref_start(indptr, indices, weights, linear, state):
    """The lanes' local fields and energies, and the work arrays of a sweep."""
    n, lanes = state.shape
    field = np.empty((n, lanes), dtype=np.int32)
    energy = np.empty(lanes, dtype=np.int64)
    ref_fields(indptr, indices, weights, linear, state, field, energy)
    return field, energy, np.empty(lanes, dtype=np.bool_), np.empty(lanes, dtype=np.int64)


@njit(cache=True)
def ref_fields(indptr, indices, weights, linear, state, field, energy):
    n, lanes = state.shape
    for i in range(n):
        for l in range(lanes):
            field[i, l] = linear[i]
        for k in range(indptr[i], indptr[i + 1]):
            for l in range(lanes):
                field[i, l] += weights[k] * state[indices[k], l]
    for l in range(lanes):
        total = 0
        for i in range(n):
            total += state[i, l] * (np.int64(field[i, l]) + linear[i])
        energy[l] = total // 2


@njit(cache=True)
def ref_sweep(indptr, indices, weights, state, field, energy, base, table, length, streams, accept, delta):
    """Propose in every lane without a branch, then apply the accepted flips."""
    n, lanes = state.shape
    for i in range(n):
        flips = 0
        for l in range(lanes):
            x = np.int64(state[i, l])
            d = np.int64(field[i, l]) * (1 - 2 * x)
            u = _draw(streams, l)
            clipped = min(max(d, 0), length - 1)
            ok = u < table[base[l] + clipped]
            accept[l] = ok
            delta[l] = d
            flips += ok
        if flips:
            for l in range(lanes):
                if accept[l]:
                    sign = 1 - 2 * np.int64(state[i, l])
                    state[i, l] ^= 1
                    energy[l] += delta[l]
                    for k in range(indptr[i], indptr[i + 1]):
                        field[indices[k], l] += weights[k] * sign


@njit(cache=True)
def _table(betas, reach):
    table = np.empty(betas.size * (reach + 1), dtype=np.uint64)
    for r in range(betas.size):
        table[r * (reach + 1)] = np.uint64(4294967296)
        for d in range(1, reach + 1):
            table[r * (reach + 1) + d] = np.uint64(math.floor(math.exp(-betas[r] * d) * 4294967296.0))
    return table


@njit(cache=True)
def ref_pt(indptr, indices, weights, linear, betas, reach, sweeps, state, streams):
    lanes = state.shape[1]
    field, energy, accept, delta = ref_start(indptr, indices, weights, linear, state)
    table = _table(betas, reach)
    lane_at = np.arange(lanes)
    base = np.arange(lanes) * (reach + 1)
    best = energy.min()
    for s in range(sweeps):
        ref_sweep(indptr, indices, weights, state, field, energy, base, table, reach + 1, streams, accept, delta)
        for r in range(s % 2, lanes - 1, 2):
            a, b = lane_at[r], lane_at[r + 1]
            gain = (betas[r + 1] - betas[r]) * (energy[b] - energy[a])
            if gain >= 0 or _draw(streams, lanes) < math.exp(gain) * 4294967296.0:
                lane_at[r], lane_at[r + 1] = b, a
                base[a], base[b] = (r + 1) * (reach + 1), r * (reach + 1)
        best = min(best, energy.min())
    return best


@njit(cache=True)
def ref_pa(indptr, indices, weights, linear, betas, per_beta, reach, state, streams):
    lanes = state.shape[1]
    field, energy, accept, delta = ref_start(indptr, indices, weights, linear, state)
    base = np.zeros(lanes, dtype=np.int64)
    cumulative = np.empty(lanes)
    source = np.empty(lanes, dtype=np.int64)
    best = energy.min()
    for step in range(betas.size):
        if step:
            low = energy.min()
            total = 0.0
            for l in range(lanes):
                total += math.exp(-(betas[step] - betas[step - 1]) * (energy[l] - low))
                cumulative[l] = total
            start = _draw(streams, lanes) / 4294967296.0
            k = 0
            for l in range(lanes):
                point = (start + l) / lanes * total
                while k < lanes - 1 and cumulative[k] <= point:
                    k += 1
                source[l] = k
            state = state[:, source].copy()
            field = field[:, source].copy()
            energy = energy[source].copy()
        table = _table(betas[step:step + 1], reach)
        for _ in range(per_beta):
            ref_sweep(indptr, indices, weights, state, field, energy, base, table, reach + 1, streams, accept, delta)
            best = min(best, energy.min())
    return best


def models() -> dict[str, object]:
    logo = Models.build(load(LOGO)).qubo
    core = Models.build(load(CORE), presolve="line").presolve()
    return {f"QUBO++ logo ({logo.num_vars})": logo, f"20x20 hard core 0002, line-presolved ({core.num_vars})": core}


def reference_read(kind: str, model: KernelModel, n: int, betas: np.ndarray, sweeps: int, replicas: int, per_beta: int,
                   rng: np.random.Generator) -> float:
    state = rng.integers(0, 2, size=(n, replicas), dtype=np.int8)
    streams = rng.bit_generator.random_raw(replicas + 1).astype(np.uint64)
    weights, linear = model.weights.astype(np.int32), model.linear.astype(np.int32)
    began = time.perf_counter()
    if kind == "pt":
        ref_pt(model.indptr, model.indices, weights, linear, betas, model.reach, sweeps, state, streams)
    else:
        ref_pa(model.indptr, model.indices, weights, linear, betas, per_beta, model.reach, state, streams)
    return time.perf_counter() - began


def first_call() -> list[str]:
    """A one-read ``pt`` and ``pa`` run in two fresh processes with an empty numba cache: compile, then load."""
    code = ("import time; t = time.perf_counter(); from nonoqubo.solvers.sampling import sample, RUN; "
            "from nonoqubo.model.build import build; from nonoqubo.model.puzzle import Puzzle; "
            "q = build(Puzzle.from_picture(['#.', '##'])); i = time.perf_counter(); "
            "[sample(q, s, reads=1, seed=1, sweeps=10) for s in ('pt', 'pa')]; "
            "print(f'{i - t:.2f} {time.perf_counter() - i:.2f}')")
    lines = []
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("first run (compiles, empty cache)", "second run (loads from the cache)"):
            out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            imports, runs = out.stdout.split()
            lines.append(f"- {label}: one read each of pt and pa {runs} s (imports before it {imports} s)")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sweeps", type=int, default=1000)
    ap.add_argument("--reads", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--beta-range", default="1,20")
    ap.add_argument("--no-first-call", action="store_true")
    args = ap.parse_args()
    lo, hi = (float(v) for v in args.beta_range.split(","))
    before = os.getloadavg()[0]
    per: dict[tuple[str, str], list[float]] = {}
    settings = {"pt": 8, "pa": 32}
    for name, qubo in models().items():
        model = KernelModel.of(qubo)
        n = qubo.num_vars
        for _ in range(args.rounds):
            rng = np.random.default_rng(1)
            for kind, replicas in settings.items():
                options = {"replicas": replicas, **({"sweeps_per_beta": 10} if kind == "pa" else {})}
                batch = sample(qubo, kind, reads=args.reads, seed=1, sweeps=args.sweeps, beta_range=(lo, hi), **options)
                ours = float(np.mean(batch.extra[RUN]["timing"]["read_seconds"]))
                betas = (np.geomspace(lo, hi, replicas) if kind == "pt"
                         else np.geomspace(lo, hi, args.sweeps // 10))
                reference_read(kind, model, n, betas, 2, replicas, 1, rng)  # compiled (or loaded) before timing
                theirs = float(np.mean([reference_read(kind, model, n, betas, args.sweeps, replicas, 10, rng)
                                        for _ in range(args.reads)]))
                updates = args.sweeps * replicas * n
                per.setdefault((name, kind), []).append(ours / updates)
                per.setdefault((name, f"{kind} reference"), []).append(theirs / updates)
            sa = sample(qubo, "sa", reads=args.reads, seed=1, sweeps=args.sweeps, beta_range=(lo, hi))
            per.setdefault((name, "sa"), []).append(float(np.mean(sa.extra[RUN]["timing"]["read_seconds"]))
                                                     / (args.sweeps * n))
    after = os.getloadavg()[0]
    print("| model | sampler | ns per update | reference (ns) | x the reference |")
    print("|---|---|---:|---:|---:|")
    for name in models():
        for kind in ("pt", "pa", "sa"):
            ours = statistics.median(per[(name, kind)]) * 1e9
            ref_kind = kind if kind != "sa" else "pt"
            ref = statistics.median(per[(name, f"{ref_kind} reference")]) * 1e9
            label = {"pt": "pt (8 rungs)", "pa": "pa (32 replicas)", "sa": "sa (dwave-samplers)"}[kind]
            ref_label = f"{ref:.2f}" + (" (pt's)" if kind == "sa" else "")
            print(f"| {name} | {label} | {ours:.2f} | {ref_label} | {ours / ref:.2f}x |")
    print()
    print(f"- {args.sweeps} sweeps, beta range {lo:g},{hi:g}, {args.reads} reads x {args.rounds} rounds; load average "
          f"{before:.2f} before, {after:.2f} after; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    if not args.no_first_call:
        for line in first_call():
            print(line)


if __name__ == "__main__":
    main()
