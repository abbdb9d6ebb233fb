"""What every sampler module shares: the options a sampler is asked to run with, and the model as a BQM.

This module owns :class:`SampleOptions` (the values; :func:`nonoqubo.solvers.samplers.check_options`
is the one place that checks them), the progress callback type :data:`Tick`, the seed range
:data:`SEED_LIMIT`, and :func:`index_bqm`, the dimod BQM every dimod-based sampler samples.
It imports no other sampler module, so :mod:`~nonoqubo.solvers.dwave`, :mod:`~nonoqubo.solvers.qbpp`
and :mod:`~nonoqubo.solvers.openjij` all build on it and none on another.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..model.qubo import Qubo

__all__ = ["SEED_LIMIT", "SampleOptions", "Tick", "index_bqm"]

#: seeds are unsigned 32-bit integers (dwave-samplers, QUBO++)
SEED_LIMIT = 2**32

#: ``tick(reads_done, energy_of_that_read)``: called after every read
Tick = Callable[[int, float], None]


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
    """

    reads: int = 10
    seed: int | None = None
    sweeps: int | None = None
    time_limit: float | None = None
    schedule: Mapping[str, Any] | None = None
    workers: int | None = None
    count: int | None = None
    qpu: Mapping[str, Any] | None = None

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
