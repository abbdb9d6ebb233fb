"""A spy on dwave-samplers' simulated-annealing kernel, the one ``sa`` calls (issue 52 item 3).

``sa`` hands ``dwave.samplers.sa.simulated_annealing.simulated_annealing`` the model's arrays and schedule
(:func:`nonoqubo.solvers.dwave.run_sa`) instead of calling ``SimulatedAnnealingSampler.sample``; tests that
check what reaches the sampler look at that call.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def spy_on_sa_kernel(monkeypatch: Any, calls: list[dict[str, Any]], *, run: bool = True) -> None:
    """Record every kernel call as ``{"num_reads", "sweeps_per_beta", "betas", "seed", "initial_states"}``
    (the states as 0/1); with *run* False the kernel is not run (the call raises)."""
    from dwave.samplers.sa import simulated_annealing as module

    real = module.simulated_annealing

    def spy(num_reads, ldata, irow, icol, qdata, per_beta, betas, seed, states, *rest):
        calls.append({"num_reads": num_reads, "sweeps_per_beta": per_beta, "betas": np.asarray(betas), "seed": seed,
                      "initial_states": (np.asarray(states) + 1) // 2})
        if not run:
            raise AssertionError("the kernel was called")
        return real(num_reads, ldata, irow, icol, qdata, per_beta, betas, seed, states, *rest)

    monkeypatch.setattr(module, "simulated_annealing", spy)
