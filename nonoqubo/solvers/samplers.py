"""The sampler table and the one place that checks a sampler's options.

This module owns :data:`SAMPLER_TABLE` (each entry: the name ``--sampler`` takes, a summary for
``solve --help``, the options it takes beyond ``reads`` and ``seed``, and its run function from
:mod:`~nonoqubo.solvers.dwave`, :mod:`~nonoqubo.solvers.qbpp`, :mod:`~nonoqubo.solvers.openjij`,
:mod:`~nonoqubo.solvers.cpsat` or :mod:`~nonoqubo.solvers.qpu`)
and :func:`check_options`, which refuses a bad value or an option the chosen sampler does not
take before anything runs.  What a sampler takes, refuses or needs is read from its entry, never
from its name, so a new sampler is one more entry.

Examples:
    >>> check_options(SampleOptions(reads=0), "sa")
    Traceback (most recent call last):
    nonoqubo.errors.SolverError: --reads must be at least 1, not 0
    >>> SAMPLERS[:3]
    ('sa', 'tabu', 'exact')
"""

from __future__ import annotations

import math
from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass, field, fields

from ..errors import SolverError
from ..model.qubo import Qubo
from ..samples import SampleBatch
from . import cpsat, dwave, openjij, qbpp, qpu
from .base import SEED_LIMIT, SampleOptions, Tick

__all__ = ["SAMPLERS", "SAMPLER_TABLE", "SampleOptions", "SamplerSpec", "check_options", "sampler_spec"]


@dataclass(frozen=True)
class SamplerSpec:
    """One entry of :data:`SAMPLER_TABLE`.

    Attributes:
        name: what ``--sampler`` takes.
        summary: one line for ``solve --help``.
        takes: the options it takes beyond ``reads`` and ``seed`` (``"sweeps"``, ``"time_limit"``,
            ``"schedule"``, ``"workers"``, ``"count"``, ``"qpu"``: ``--topology``, ``--embedding``,
            ``--chain-strength``).
        run: ``run(qubo, options, tick) -> SampleBatch``; calls ``tick`` after every read.
        refuses: options of a family it takes that it still refuses, each with the reason
            (``dwave``: ``--topology``, the QPU's own graph is used).
        needs: options of which at least one must be given (``mock-dwave``: a topology or an
            embedding to take one from), and *needs_says*, how the message names them.
    """

    name: str
    summary: str
    takes: frozenset[str]
    run: Callable[[Qubo, SampleOptions, Tick], SampleBatch]
    refuses: Mapping[str, str] = field(default_factory=dict)
    needs: frozenset[str] = frozenset()
    needs_says: str = ""


#: the local samplers, in the order `solve --help` lists them; a new sampler is one entry
SAMPLER_TABLE: dict[str, SamplerSpec] = {
    spec.name: spec for spec in (
        SamplerSpec("sa", "simulated annealing (dwave-samplers; the default)", frozenset({"sweeps"}),
                    dwave.annealer("sa", "SimulatedAnnealingSampler", {"sweeps": lambda v: ("num_sweeps", v)})),
        SamplerSpec("tabu", "tabu search (dwave-samplers)", frozenset({"time_limit"}),
                    dwave.annealer("tabu", "TabuSampler",
                                   {"time_limit": lambda v: ("timeout", max(1, round(v * 1000)))})),
        SamplerSpec("exact", f"every assignment (dimod.ExactSolver); at most {dwave.EXACT_LIMIT} variables",
                    frozenset(), dwave.run_exact),
        SamplerSpec("qbpp", f"QUBO++ EasySolver (pyqbpp); at most {qbpp.QBPP_LIMIT} variables without a licence",
                    frozenset({"time_limit"}), qbpp.run),
        SamplerSpec("openjij-sa", "OpenJij simulated annealing (openjij; --beta-min, --beta-max)",
                    frozenset({"sweeps", "schedule"}), openjij.runner("openjij-sa")),
        SamplerSpec("openjij-sqa", "OpenJij simulated quantum annealing (openjij; --beta, --gamma, --trotter)",
                    frozenset({"sweeps", "schedule"}), openjij.runner("openjij-sqa")),
        SamplerSpec("cpsat", "CP-SAT (ortools): the puzzle solved exactly, a Boolean per cell and an automaton "
                             "per line; --count N enumerates and counts solutions",
                    frozenset({"time_limit", "workers", "count"}), cpsat.run),
        SamplerSpec("mock-dwave", "the QPU workflow offline: FixedEmbeddingComposite over dwave-system's "
                                  "MockDWaveSampler on --topology T, simulated annealing on the qubits",
                    frozenset({"sweeps", "qpu"}), qpu.run_mock, needs=frozenset({"topology", "embedding", "solver"}),
                    needs_says="--topology T (e.g. pegasus:16, zephyr:12,4, chimera:16, Advantage_system4.1, or a "
                               "QPU's properties JSON), --solver NAME or --embedding EMB.json, whose topology it "
                               "takes"),
        SamplerSpec("dwave", "a D-Wave QPU (DWaveSampler(), as the Ocean configuration names it) through "
                             "FixedEmbeddingComposite", frozenset({"qpu"}), qpu.run_dwave,
                    refuses={"topology": "the QPU's own working graph is used (an --embedding must be for that "
                                         "graph)"}),
    )
}
SAMPLERS = tuple(SAMPLER_TABLE)


def sampler_spec(name: str) -> SamplerSpec:
    """The table entry of sampler *name*."""
    try:
        return SAMPLER_TABLE[name]
    except KeyError:
        raise SolverError(f"unknown sampler {name!r}; choose one of {', '.join(SAMPLERS)}") from None


def check_options(options: SampleOptions, sampler: str) -> None:
    """Raise :class:`SolverError` (one line, naming the option) for a value *sampler* cannot take.

    ``reads`` at least 1, ``seed`` in ``0 .. 2**32 - 1``, ``sweeps`` a positive whole number,
    ``time_limit`` a positive number of seconds; an option the sampler does not take is refused
    rather than ignored.  (The values of the OpenJij schedule options are OpenJij's to check:
    :mod:`nonoqubo.solvers.openjij`.)
    """
    spec = sampler_spec(sampler)
    reads, seed, sweeps, time_limit = options.reads, options.seed, options.sweeps, options.time_limit
    if isinstance(reads, bool) or not isinstance(reads, int) or reads < 1:
        raise SolverError(f"--reads must be at least 1, not {reads}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT):
        raise SolverError(f"--seed must be a whole number from 0 to {SEED_LIMIT - 1}, not {seed}")
    for option, value in {"sweeps": sweeps, "time_limit": time_limit, "workers": options.workers,
                          "count": options.count}.items():
        if value is not None and option not in spec.takes:
            flag = "--" + option.replace("_", "-")
            able = ", ".join(s.name for s in SAMPLER_TABLE.values() if option in s.takes) or "none"
            raise SolverError(f"{flag} does not apply to the {sampler} sampler (it applies to: {able})")
    given_schedule = sorted(k for k, v in (options.schedule or {}).items() if v is not None)
    if given_schedule and "schedule" not in spec.takes:
        able = ", ".join(s.name for s in SAMPLER_TABLE.values() if "schedule" in s.takes)
        raise SolverError(f"--{given_schedule[0].replace('_', '-')} is an option of the "
                          f"OpenJij samplers ({able}), not of {sampler}")
    given_qpu = [key for key, value in (options.qpu or {}).items() if value is not None and key in qpu.QPU_OPTIONS]
    if given_qpu and "qpu" not in spec.takes:
        able = ", ".join(s.name for s in SAMPLER_TABLE.values() if "qpu" in s.takes)
        raise SolverError(f"{qpu.QPU_OPTIONS.get(given_qpu[0], given_qpu[0])} applies only to the QPU samplers "
                          f"({able}), not to {sampler}")
    for option, why in spec.refuses.items():
        if _given(options, option):
            raise SolverError(f"--{option.replace('_', '-')} does not apply to --sampler {sampler}: {why}")
    if spec.needs and not any(_given(options, option) for option in spec.needs):
        raise SolverError(f"--sampler {sampler} needs {spec.needs_says}")
    if (chain_strength := (options.qpu or {}).get("chain_strength")) is not None:
        from ..qpu.physical import parse_chain_strength

        parse_chain_strength(chain_strength)
    if sweeps is not None and (isinstance(sweeps, bool) or not isinstance(sweeps, int) or sweeps < 1):
        raise SolverError(f"--sweeps must be a whole number of at least 1, not {sweeps}")
    for option, value in {"workers": options.workers, "count": options.count}.items():
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise SolverError(f"--{option} must be a whole number of at least 1, not {value}")
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise SolverError(f"--time-limit must be a positive number of seconds, not {time_limit}")


def _given(options: SampleOptions, option: str) -> bool:
    """Whether *option* (a field of :class:`SampleOptions`, or a key of its ``qpu`` or ``schedule``) is set."""
    if option in {f.name for f in fields(SampleOptions)}:
        return getattr(options, option) is not None
    return bool((options.qpu or {}).get(option) or (options.schedule or {}).get(option) is not None)
