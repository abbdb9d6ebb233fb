"""What ``--sampler mock-dwave`` does with a QPU's parameters: simulated annealing on the qubits, timed by a model.

dwave-system's ``MockDWaveSampler`` hands every problem, with every keyword, to a substitute
sampler.  :class:`QpuEmulator` is that substitute: dwave-samplers' simulated annealing on the
*physical* problem, with the QPU's parameters translated into what SA has:

* **anneal length** (``annealing_time``, or an ``anneal_schedule``'s last t; default the solver's
  ``default_annealing_time``, 20 µs): ``SWEEPS_PER_MICROSECOND`` (50) sweeps per µs, so the default
  20 µs is dwave-samplers' default 1,000 sweeps; ``--sweeps`` overrides it.
* **anneal_schedule** s(t): SA's inverse temperature follows it, ``beta(t) = beta_hot *
  (beta_cold / beta_hot) ** s(t)`` over dwave-samplers' default beta range of the problem, one
  sweep per step (a pause is a stretch of sweeps at one temperature; a reverse anneal heats the
  initial state back to ``s`` and cools it again).
* **initial_state** (reverse anneal) is SA's initial state; ``reinitialize_state=False`` runs the
  reads one after another, each from the last one's answer (as a QPU does).
* **answer_mode** ``histogram`` aggregates identical answers; **auto_scale**,
  **readout_thermalization** and **programming_thermalization** do not change SA (its beta range
  follows the problem's scale; it has no thermal bath) and enter only the timing model
  (:func:`estimated_timing`).

Classical SA is not a QPU: the mock predicts what the chains, the chain strength, the ranges and the
unembedding do, and how the anneal *length* trades against success for a thermal annealer; it
does not predict quantum tunnelling, the QPU's noise (integrated control errors, which spin-reversal
transforms average out: SA is gauge-symmetric, so they change nothing here) or its temperature.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["MOCK_TIMING", "QpuEmulator", "SWEEPS_PER_MICROSECOND", "anneal_length", "estimated_timing",
           "sweeps_for"]

#: SA sweeps per µs of anneal: 20 µs (a QPU's default) is dwave-samplers' default 1,000 sweeps
SWEEPS_PER_MICROSECOND = 50
#: dwave-system's mock figures (µs) the timing model starts from: programming (with the default
#: 1,000 µs programming thermalization), readout and delay per sample
MOCK_TIMING = {"qpu_programming_time": 8468.2, "qpu_readout_time_per_sample": 41.54,
               "qpu_delay_time_per_sample": 20.54}


def anneal_length(params: Mapping[str, Any], properties: Mapping[str, Any]) -> float:
    """The µs of one anneal: the schedule's last t, else ``annealing_time``, else the solver's default."""
    if params.get("anneal_schedule"):
        return float(params["anneal_schedule"][-1][0])
    if params.get("annealing_time") is not None:
        return float(params["annealing_time"])
    return float(properties.get("default_annealing_time", 20.0))


def sweeps_for(length: float) -> int:
    """SA sweeps of an anneal of *length* µs (:data:`SWEEPS_PER_MICROSECOND`, at least 1)."""
    return max(1, int(round(length * SWEEPS_PER_MICROSECOND)))


def estimated_timing(params: Mapping[str, Any], properties: Mapping[str, Any], reads: int,
                     problems: int = 1) -> dict[str, Any]:
    """D-Wave's timing breakdown (µs) of *problems* QPU problems of *reads* reads each, as a model.

    ``qpu_access_time = qpu_programming_time + qpu_sampling_time`` per problem, and
    ``qpu_sampling_time = reads * (anneal + readout + delay)`` (D-Wave's "QPU timing" structure),
    with dwave-system's mock figures (:data:`MOCK_TIMING`) for programming, readout and delay, the
    delay lengthened by ``readout_thermalization`` and programming by ``programming_thermalization``
    beyond its default.  An estimate of what a QPU would bill, not a measurement.
    """
    anneal = anneal_length(params, properties)
    programming = MOCK_TIMING["qpu_programming_time"] + float(params.get(
        "programming_thermalization", properties.get("default_programming_thermalization", 1000.0))) - float(
        properties.get("default_programming_thermalization", 1000.0))
    readout = MOCK_TIMING["qpu_readout_time_per_sample"]
    delay = MOCK_TIMING["qpu_delay_time_per_sample"] + float(params.get(
        "readout_thermalization", properties.get("default_readout_thermalization", 0.0)))
    sampling = reads * (anneal + readout + delay)
    return {"qpu_anneal_time_per_sample": anneal, "qpu_readout_time_per_sample": readout,
            "qpu_delay_time_per_sample": delay, "qpu_sampling_time": sampling * problems,
            "qpu_programming_time": programming * problems,
            "qpu_access_time": (programming + sampling) * problems, "problems": problems, "estimated": True}


def _beta_schedule(schedule: Sequence[Sequence[float]], sweeps: int, hot: float, cold: float) -> np.ndarray:
    """One beta per sweep following s(t) of *schedule* (geometric between *hot* and *cold*)."""
    t = np.asarray([p[0] for p in schedule], np.float64)
    s = np.asarray([p[1] for p in schedule], np.float64)
    at = (np.arange(sweeps) + 0.5) / sweeps * t[-1]
    return hot * (cold / hot) ** np.interp(at, t, s)


class QpuEmulator:
    """The substitute sampler of ``MockDWaveSampler``: SA with the QPU's parameters translated (module docstring).

    Args:
        properties: the solver's properties (:func:`nonoqubo.qpu.parameters.solver_properties`).
        sweeps: ``--sweeps`` (overrides the anneal length), or None.
        seed: SA's seed, or None.
    """

    parameters: dict[str, list[str]] = {}
    properties: dict[str, Any] = {}

    def __init__(self, properties: Mapping[str, Any], sweeps: int | None = None, seed: int | None = None):
        self.solver_properties = dict(properties)
        self.sweeps = sweeps
        self.seed = seed
        self.translated: dict[str, Any] = {}

    def sample(self, bqm: Any, **kwargs: Any) -> Any:
        """Sample *bqm* (on qubits) as the QPU parameters in *kwargs* say; returns a dimod SampleSet."""
        import dimod
        from dwave.samplers import SimulatedAnnealingSampler
        from dwave.samplers.sa.sampler import default_beta_range

        reads = int(kwargs.get("num_reads", 1))
        length = anneal_length(kwargs, self.solver_properties)
        sweeps = self.sweeps or sweeps_for(length)
        sa: dict[str, Any] = {"num_sweeps": sweeps}
        if self.seed is not None:
            sa["seed"] = self.seed
        schedule = kwargs.get("anneal_schedule")
        if schedule:
            hot, cold = default_beta_range(bqm)
            sa.update(beta_schedule_type="custom", beta_schedule=_beta_schedule(schedule, sweeps, hot, cold))
            del sa["num_sweeps"]
        self.translated = {"num_sweeps": sweeps, "anneal_us": length, "sweeps_per_us": SWEEPS_PER_MICROSECOND,
                           "beta_schedule": "custom, from anneal_schedule" if schedule else "dwave-samplers' default"}
        sampler = SimulatedAnnealingSampler()
        initial = kwargs.get("initial_state")
        if initial is None:
            result = sampler.sample(bqm, num_reads=reads, **sa)
        else:
            order = list(bqm.variables)
            state = np.asarray([[initial[v] for v in order]], np.int8)
            if kwargs.get("reinitialize_state", True):
                result = sampler.sample(bqm, num_reads=reads, initial_states=(np.repeat(state, reads, 0), order), **sa)
            else:  # each read starts where the last one ended
                parts = []
                for read in range(reads):
                    if self.seed is not None:
                        sa["seed"] = (self.seed + read) % 2**32
                    part = sampler.sample(bqm, num_reads=1, initial_states=(state, order), **sa)
                    parts.append(part)
                    state = part.record.sample[:1].astype(np.int8)
                result = dimod.concatenate(parts)
        return result
