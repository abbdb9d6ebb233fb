"""SA on the physical problem (the mock QPU route) against SA on the logical model.

Run: ``python benchmarks/bench_physical.py [--sizes 5 6 8 10] [--reads 200] [--sweeps 1000]
[--topology pegasus:16] [--strengths uniform-torque scaled bound]``.  For each random puzzle (seeded,
half the cells black) it samples, side by side in one run:

* **logical**: dwave-samplers' simulated annealing on the QUBO (``solve --sampler sa``);
* **physical**: ``solve --sampler mock-dwave``: dwave-system's ``FixedEmbeddingComposite`` over its
  ``MockDWaveSampler`` on the topology, the same simulated annealing (same reads and sweeps) on
  the embedded problem, unembedded by majority vote, once per chain strength (``bound``: 1.01 x
  the sufficient chain strength of :func:`nonoqubo.qpu.physical.chain_strength_bound`).

and prints a markdown table: the model's variables, the embedding's qubits and longest chain,
the chain strength (logical units), the success probability p (share of valid samples, with the
95 % Wilson interval), the median logical energy of the samples that are not solutions, the mean fraction of broken chains and the share of samples with every
chain intact, and the wall-clock seconds of each sampling (the embedding, found once per model
with minorminer and cached, is not counted).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's nonoqubo

from nonoqubo.campaign.evaluate import wilson  # noqa: E402
from nonoqubo.model.puzzle import Puzzle  # noqa: E402
from nonoqubo.pipeline import Models  # noqa: E402
from nonoqubo.qpu import cache  # noqa: E402
from nonoqubo.qpu.physical import chain_strength_bound  # noqa: E402
from nonoqubo.qpu.topology import parse_topology  # noqa: E402
from nonoqubo.solvers.sampling import solve  # noqa: E402


def random_puzzle(size: int, seed: int) -> Puzzle:
    rng = np.random.default_rng(seed)
    cells = rng.random((size, size)) < 0.5
    return Puzzle.from_picture(["".join("#" if c else "." for c in row) for row in cells], name=f"random-{size}x{size}")


def p_text(valid: int, reads: int) -> str:
    lo, hi = wilson(valid, reads)
    return f"{valid / reads:.3f} [{lo:.2f}, {hi:.2f}]"


def residual(result) -> str:
    """The median logical energy of the invalid samples (majority-vote unembedded for the physical route)."""
    energy = result.analysis.energy
    wrong = energy[energy > 0]
    return f"{float(np.median(wrong)):g}" if wrong.size else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 6, 8, 10])
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--sweeps", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--topology", default="pegasus:16")
    parser.add_argument("--strengths", nargs="+", default=["uniform-torque", "scaled", "bound"])
    args = parser.parse_args()
    topology = parse_topology(args.topology)
    print(f"topology {topology.spec}: {topology.num_qubits} qubits; {args.reads} reads x {args.sweeps} sweeps, "
          f"seed {args.seed}\n")
    print("| puzzle | variables | qubits | longest chain | route | chain strength | p [95% CI] "
          "| energy of the others (median) | broken chains (mean) | samples with every chain intact | sampling s |")
    print("|---|---:|---:|---:|---|---:|---|---:|---:|---:|---:|")
    for size in args.sizes:
        puzzle = random_puzzle(size, 100 + size)
        qubo = Models.build(puzzle).qubo
        found = cache.embed(qubo, topology, seed=args.seed, tries=1)  # the key solve uses: cached for it
        if found.embedding is None:
            print(f"| {puzzle.name} | {qubo.num_vars} | - | - | physical | - | no embedding on {topology.spec} | | | |")
            continue
        figures = found.embedding.figures
        start = time.perf_counter()
        logical = solve(puzzle, "sa", reads=args.reads, seed=args.seed, sweeps=args.sweeps)
        seconds = time.perf_counter() - start
        print(f"| {puzzle.name} | {qubo.num_vars} | | | logical SA | | {p_text(logical.num_valid, args.reads)} "
              f"| {residual(logical)} | | | {seconds:.2f} |", flush=True)
        for strength in args.strengths:
            value = f"{chain_strength_bound(qubo) * 1.01:.6g}" if strength == "bound" else strength
            start = time.perf_counter()
            physical = solve(puzzle, "mock-dwave", reads=args.reads, seed=args.seed, sweeps=args.sweeps,
                             qpu={"topology": args.topology, "chain_strength": value})
            seconds = time.perf_counter() - start
            breaks = physical.batch.extra["sampleset_vectors"]["chain_break_fraction"]
            used = physical.batch.extra["sampleset_info"]["nonoqubo_qpu"]["chain_strength"]["value"]
            print(f"| {puzzle.name} | {qubo.num_vars} | {figures['qubits']} | {figures['longest_chain']} "
                  f"| physical SA ({strength}) | {used:.3g} | {p_text(physical.num_valid, args.reads)} "
                  f"| {residual(physical)} | {breaks.mean():.2%} | {(breaks == 0).mean():.1%} | {seconds:.2f} |", flush=True)


if __name__ == "__main__":
    main()
