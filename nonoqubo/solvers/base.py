"""What every sampler module shares: the options a sampler is asked to run with, and the model as a BQM.

This module owns :class:`SampleOptions` (the values; :func:`nonoqubo.solvers.samplers.check_options`
is the one place that checks them), the progress callback type :data:`Tick`, the seed range
:data:`SEED_LIMIT`, and :func:`index_bqm`, the dimod BQM every dimod-based sampler samples.

It also owns what a run function may say about its own timing, in the batch's ``extra``
(:func:`nonoqubo.solvers.sampling.sample` reads it and times the call itself): under
:data:`READ_SECONDS` the seconds of every read *as the sampler measured them* (dwave-samplers'
``info["timing"]["sampling_ns"]``, OpenJij's ``list_exec_times``), under :data:`SAMPLER_INFO`
what else the sampler reported (its schedule, its raw timing), made JSON-safe by
:func:`~nonoqubo._util.plain.json_safe`; and :func:`machine`, the machine a run is recorded on.
It imports no other sampler module, so :mod:`~nonoqubo.solvers.dwave`, :mod:`~nonoqubo.solvers.qbpp`
and :mod:`~nonoqubo.solvers.openjij` all build on it and none on another.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ContextManager

import numpy as np

from .._util.plain import json_safe
from ..model.qubo import Qubo

__all__ = ["KNOBS", "READ_SECONDS", "SAMPLER_INFO", "SEED_LIMIT", "SampleOptions", "Tick", "index_bqm", "json_safe", "machine"]

#: seeds are unsigned 32-bit integers (dwave-samplers, QUBO++)
SEED_LIMIT = 2**32

#: the sampler-specific fields of :class:`SampleOptions` beyond the first eight (the "knobs"), in the
#: order ``solve --help`` and the run record list them; each is an entry of a sampler's ``takes``
KNOBS = ("beta_range", "beta_schedule", "beta_schedule_file", "sweeps_per_beta", "restarts", "tenure",
         "initial_states", "replicas", "target_energy")

#: ``tick(reads_done, energy_of_that_read)``: called after every read
Tick = Callable[[int, float], None]

#: ``batch.extra`` key: the seconds of every read as the sampler itself measured them (a list)
READ_SECONDS = "read_seconds"
#: ``batch.extra`` key: what the sampler reported besides the samples (a JSON-safe dict)
SAMPLER_INFO = "sampler_info"


@dataclass(frozen=True)
class SampleOptions:
    """What a sampler is asked to do; :func:`~nonoqubo.solvers.samplers.check_options` refuses bad values.

    Attributes:
        reads: number of samples.
        seed: random seed (read ``r`` uses ``seed + r``), for repeatable runs.
        sweeps: annealing sweeps per read (``sa``).
        time_limit: seconds per read (``tabu``, ``qbpp``).
        schedule: the OpenJij samplers' schedule options (``beta_min``, ``beta_max``;
            ``beta``, ``gamma``, ``trotter``); None values count as not given.
        workers: search workers (``cpsat``).
        count: enumerate up to this many solutions and say how many there are (``cpsat``).
        qpu: the QPU samplers' options (``mock-dwave``, ``dwave``): ``topology``, ``embedding``
            (a file) and ``chain_strength``; None values count as not given.
        beta_range: ``(LO, HI)``, the first and last inverse temperature (``sa``; default the
            sampler's, from the model's biases): :mod:`nonoqubo.solvers.schedule`.
        beta_schedule: ``"linear"``, ``"geometric"`` (the default) or ``"custom"`` (``sa``).
        beta_schedule_file: the betas of a ``custom`` schedule, one per line or a JSON list.
        sweeps_per_beta: sweeps at each beta (``sa``; default 1).
        restarts: ``sa``: independent anneals per read, the read keeping the lowest-energy one
            (default 1); ``tabu``: its ``num_restarts``, the most restarts within ``time_limit``.
        tenure: ``tabu``: the tabu list's length (default ``min(20, N / 4)``).
        initial_states: ``"line"`` or a samples or picture file (``sa``, ``tabu``): the
            warm start, resolved into :attr:`states` by :func:`nonoqubo.solvers.sampling.sample`
            through :func:`nonoqubo.solvers.initial.initial_states`.
        replicas: ``pt``: the rungs of its temperature ladder (default 8); ``pa``: its population (default
            32): the copies of the state every read moves together (:mod:`nonoqubo.solvers.tempering`);
            ``lines``: its population (default 1: no resampling; :mod:`nonoqubo.solvers.linemoves`).
        target_energy: ``pt``, ``pa``, ``lines``: a read ends at its first state of at most this energy (its time is
            then its time to target; the run record keeps the budget beside it).
        states: the ``(reads, N)`` warm-start states themselves (not recorded; the run file
            records ``initial_states``).
        step: ``step(message)``, a context manager around a long step before the sampling itself (the QPU
            samplers' embedding search: a status line); not an option, not recorded.
    """

    reads: int = 10
    seed: int | None = None
    sweeps: int | None = None
    time_limit: float | None = None
    schedule: Mapping[str, Any] | None = None
    workers: int | None = None
    count: int | None = None
    qpu: Mapping[str, Any] | None = None
    beta_range: tuple[float, float] | None = None
    beta_schedule: str | None = None
    beta_schedule_file: str | None = None
    sweeps_per_beta: int | None = None
    restarts: int | None = None
    tenure: int | None = None
    initial_states: str | None = None
    replicas: int | None = None
    target_energy: int | None = None
    states: np.ndarray | None = field(default=None, compare=False, repr=False)
    step: Callable[[str], ContextManager[Any]] | None = field(default=None, compare=False, repr=False)

    def seed_of(self, read: int) -> int | None:
        """The seed of read number *read* (0-based)."""
        return None if self.seed is None else (self.seed + read) % SEED_LIMIT


def index_bqm(qubo: Qubo) -> Any:
    """*qubo* as a dimod BQM labelled ``0 .. N-1`` in the model's variable order.

    :meth:`Qubo.to_bqm` relabelled by position: the same biases, and the integer labels the
    samplers are fastest with (dwave-samplers' SA and tabu also draw other samples for the
    same seed from a BQM with string labels); :func:`nonoqubo.samples.samples_from` maps
    the samples back by position.
    """
    bqm = qubo.to_bqm()
    bqm.relabel_variables_as_integers(inplace=True)
    return bqm


def machine() -> dict[str, Any]:
    """The machine a run is recorded on: platform, processor, Python, CPU count (and the CPUs usable here)."""
    try:
        usable: int | None = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on macOS / Windows
        usable = None
    return {"platform": platform.platform(), "machine": platform.machine(),
            "processor": _cpu_model() or platform.processor() or None, "python": platform.python_version(),
            "cpu_count": os.cpu_count(), "cpus_usable": usable}


def _cpu_model() -> str | None:
    """The CPU's model name from ``/proc/cpuinfo`` (Linux), else None."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip() or None
    except OSError:
        return None
    return None
