"""QUBO++ (pyqbpp) EasySolver as a local sampler, run in a child process.

This module owns the ``qbpp`` sampler: :func:`run` (the parent side) and :func:`worker` (the
child, ``python -m nonoqubo.solvers.qbpp --qbpp-worker``, a JSON job on standard input, one
``NONOQUBO-RESULT`` line on standard output).  pyqbpp without a licence allows
:data:`QBPP_LIMIT` variables per process, counted cumulatively, and *aborts the interpreter*
past that: hence the child process, and a larger model is refused before anything starts.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from typing import Any

import numpy as np

from ..errors import MissingDependency, SolverError
from ..model.qubo import Qubo
from ..samples import SampleBatch, samples_from
from .base import SampleOptions, Tick

__all__ = ["QBPP_LIMIT", "run", "worker"]

#: pyqbpp's unlicensed variable limit (per process, cumulative)
QBPP_LIMIT = 100
#: the prefix of the child's one line of result
RESULT = "NONOQUBO-RESULT "


def run(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
    """One child process per read, read ``r`` with seed ``seed + r``."""
    n = qubo.num_vars
    if importlib.util.find_spec("pyqbpp") is None:
        raise MissingDependency("pyqbpp", "qbpp", "the 'qbpp' sampler (QUBO++ EasySolver)")
    if n > QBPP_LIMIT:
        raise SolverError(
            f"pyqbpp without a licence takes at most {QBPP_LIMIT} variables and this model has {n}; "
            "use --sampler sa or tabu"
        )
    job = {
        "n": n,
        "linear": qubo.linear.tolist(),
        "quadratic": np.stack((qubo.row, qubo.col, qubo.quad), axis=1).tolist(),
        "offset": int(qubo.offset),
        "seed": None,
        "time_limit": 1.0 if opts.time_limit is None else float(opts.time_limit),
    }
    bits, energies = [], []
    for r in range(opts.reads):
        job["seed"] = opts.seed_of(r)
        proc = subprocess.run(
            [sys.executable, "-m", "nonoqubo.solvers.qbpp", "--qbpp-worker"],
            input=json.dumps(job), capture_output=True, text=True, timeout=120 + 2 * job["time_limit"],
        )
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(RESULT)]
        if proc.returncode != 0 or not lines:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
            raise SolverError(f"pyqbpp EasySolver failed (exit {proc.returncode}): {tail[0]}")
        out = json.loads(lines[-1][len(RESULT):])
        bits.append(out["bits"])
        energies.append(out["energy"])
        tick(r + 1, float(out["energy"]))
    batch = samples_from(np.array(bits, dtype=np.int8), qubo.labels, spin=False, source="qbpp EasySolver")
    batch.energies = np.array(energies, dtype=np.float64)
    return batch


def worker() -> None:  # pragma: no cover - runs in a child process
    """Child process: read a job on stdin, run EasySolver, print the bits."""
    import pyqbpp as qbpp

    job = json.load(sys.stdin)
    n = job["n"]
    x = qbpp.var("x", shape=n)
    f: Any = job["offset"]
    for i, a in enumerate(job["linear"]):
        if a:
            f = f + a * x[i]
    for i, j, b in job["quadratic"]:
        f = f + b * x[i] * x[j]
    f = qbpp.simplify_as_binary(qbpp.Expr(f))
    params: dict[str, Any] = {"time_limit": job["time_limit"], "target_energy": 0}
    if job.get("seed") is not None:
        params["seed"] = int(job["seed"])
    sol = qbpp.EasySolver(f).search(**params)
    bits = [int(sol.get(x[i])) for i in range(n)]
    print(RESULT + json.dumps({"bits": bits, "energy": int(sol.energy)}), flush=True)


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:] == ["--qbpp-worker"]:
        worker()
    else:
        print("usage: python -m nonoqubo.solvers.qbpp --qbpp-worker < job.json", file=sys.stderr)
        sys.exit(2)
