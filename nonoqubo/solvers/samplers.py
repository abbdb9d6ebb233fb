"""The sampler table and the one place that checks a sampler's options.

This module owns :data:`SAMPLER_TABLE` (each entry: the name ``--sampler`` takes, a summary for
``solve --help``, the options it takes beyond ``reads`` and ``seed``, and its run function from
:mod:`~nonoqubo.solvers.dwave`, :mod:`~nonoqubo.solvers.qbpp`, :mod:`~nonoqubo.solvers.openjij`,
:mod:`~nonoqubo.solvers.tempering`, :mod:`~nonoqubo.solvers.cpsat` or :mod:`~nonoqubo.solvers.qpu`)
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

from .._util.stream import is_file_like
from ..errors import MissingDependency, SolverError
from ..model.qubo import Qubo
from ..qpu.physical import parse_chain_strength
from ..samples import SampleBatch
from . import cpsat, dwave, linemoves, openjij, qbpp, qpu, tempering
from .base import KNOBS, SEED_LIMIT, SampleOptions, Tick
from .initial import WORDS
from .schedule import SCHEDULE_TYPES, parse_beta_range, read_betas

__all__ = ["FLAGS", "QPU_ACCESS", "SAMPLERS", "SAMPLER_TABLE", "SAMPLER_TIMING", "TIMINGS", "WALL_CLOCK", "SampleOptions",
           "SamplerSpec", "check_options", "known_sampler", "sampler_spec"]

#: what times a sampler's runs (:attr:`SamplerSpec.timing`; a run record's ``time_source`` says which one did)
SAMPLER_TIMING, WALL_CLOCK, QPU_ACCESS = "sampler timing", "wall clock", "QPU access time"
TIMINGS = (SAMPLER_TIMING, WALL_CLOCK, QPU_ACCESS)


@dataclass(frozen=True)
class SamplerSpec:
    """One entry of :data:`SAMPLER_TABLE`.

    Attributes:
        name: what ``--sampler`` takes.
        summary: one line for ``solve --help``.
        takes: the options it takes beyond ``reads`` and ``seed`` (``"sweeps"``, ``"time_limit"``,
            ``"schedule"``, ``"workers"``, ``"count"``, ``"qpu"``: ``--topology``, ``--embedding``,
            ``--chain-strength``; and the knobs of :data:`~nonoqubo.solvers.base.KNOBS`:
            ``"beta_range"``, ``"beta_schedule"``, ``"beta_schedule_file"``, ``"sweeps_per_beta"``,
            ``"restarts"``, ``"tenure"``, ``"initial_states"``, ``"replicas"``, ``"target_energy"``).
        run: ``run(qubo, options, tick) -> SampleBatch``; calls ``tick`` after every read.
        refuses: options of a family it takes that it still refuses, each with the reason
            (``dwave``: ``--topology``, the QPU's own graph is used).
        needs: options of which at least one must be given (``mock-dwave``: a topology or an
            embedding to take one from), and *needs_says*, how the message names them.
        check_model: ``check_model(qubo, options)``, what the sampler cannot take of *this* model, checked
            before anything is sampled (:func:`nonoqubo.solvers.sampling.prepare`): ``tabu``'s
            tenure below the number of variables; the QPU samplers' embedding file for this model, and
            ``mock-dwave``'s parameters against its solver's properties.
        check: ``check(options)``, the sampler's own rule for its options beyond the shared ones, run last
            by :func:`check_options` (``openjij-sa``: its knobs must make an OpenJij schedule; ``mock-dwave``:
            its QPU parameters against the properties of the QPU it imitates).
        deterministic: it gives the same samples for every seed (``exact``: every state; ``cpsat``: the
            solutions), so a campaign counts it as a deterministic algorithm (QOBLIB's "Algorithm Type").
        qpu: it samples through a minor embedding on a QPU's working graph (``dwave``) or a mock of one
            (``mock-dwave``): without an embedding file it searches one first (minutes, on a large model).
        timing: what times its runs (:data:`TIMINGS`): ``"sampler timing"``, the sampler's own
            per-read times; ``"wall clock"``; ``"QPU access time"``, the QPU's ``qpu_access_time`` (only
            ``dwave``: the mock's QPU timing is estimated, never measured, so its runs are timed by the
            wall clock and never count as QPU time).
        reads_counted: ``--reads`` is the number of samples (``exact`` gives every state once, whatever it is).
        ground_truth: it solves the puzzle itself, exactly, not its QUBO (``cpsat``: it proves there is no
            solution, counts solutions, and is the sampler a whole collection of puzzles is solved with).
        starts_per_read: ``starts_per_read(options)``, how many anneals one read runs, each from its own warm-start
            state (``sa``: ``--restarts``); None: one (:func:`nonoqubo.solvers.initial.initial_states`).
        states_per_read: ``states_per_read(options)``, how many states one read sweeps ``--sweeps`` times
            (``sa``: its restarts; ``pt`` and ``pa``: their replicas); None: one.  ``run --dry-run``
            reckons a plan's work (spin updates) with it.
        work_bounded: its work (:meth:`spin_updates`) is bounded per run, by
            :data:`~nonoqubo.solvers.options.MOST_SPIN_UPDATES`, checked by
            :meth:`~nonoqubo.solvers.request.SolveRequest.check_work` (``pt``, ``pa``); else each count's
            own bound only.
    """

    name: str
    summary: str
    takes: frozenset[str]
    run: Callable[[Qubo, SampleOptions, Tick], SampleBatch]
    refuses: Mapping[str, str] = field(default_factory=dict)
    needs: frozenset[str] = frozenset()
    needs_says: str = ""
    check_model: Callable[[Qubo, SampleOptions], None] | None = None
    check: Callable[[SampleOptions], None] | None = None
    deterministic: bool = False
    qpu: bool = False
    timing: str = WALL_CLOCK
    reads_counted: bool = True
    ground_truth: bool = False
    starts_per_read: Callable[[SampleOptions], int] | None = None
    states_per_read: Callable[[SampleOptions], int] | None = None
    work_bounded: bool = False

    def __post_init__(self) -> None:
        if self.timing not in TIMINGS:
            raise ValueError(f"sampler {self.name}: timing {self.timing!r} is not one of {TIMINGS}")

    @property
    def qpu_timed(self) -> bool:
        """Its runs' time is QPU time (a real QPU's ``qpu_access_time``)."""
        return self.timing == QPU_ACCESS

    def spin_updates(self, options: SampleOptions, variables: int, default_sweeps: int) -> int:
        """Reads x sweeps x states swept per read x *variables*: the work of a sweeping sampler's run."""
        states = self.states_per_read(options) if self.states_per_read is not None else 1
        return options.reads * (options.sweeps or default_sweeps) * states * variables

    def progress_total(self, options: SampleOptions) -> int:
        """How many ticks a run of *options* makes (a progress display's total)."""
        return options.reads if self.reads_counted else 1


#: the local samplers, in the order `solve --help` lists them; a new sampler is one entry
SAMPLER_TABLE: dict[str, SamplerSpec] = {
    spec.name: spec for spec in (
        SamplerSpec("sa", "simulated annealing (dwave-samplers; the default; --beta-range, --beta-schedule, "
                          "--sweeps-per-beta, --restarts, --initial-states)",
                    frozenset({"sweeps", "beta_range", "beta_schedule", "beta_schedule_file", "sweeps_per_beta",
                               "restarts", "initial_states"}),
                    dwave.run_sa,
                    timing=SAMPLER_TIMING, starts_per_read=dwave.anneals_per_read,
                    states_per_read=dwave.anneals_per_read),
        SamplerSpec("tabu", "tabu search (dwave-samplers; --time-limit, --tenure, --restarts, --initial-states)",
                    frozenset({"time_limit", "tenure", "restarts", "initial_states"}),
                    dwave.annealer("tabu", "TabuSampler", dwave.tabu_arguments), check_model=dwave.check_tenure),
        SamplerSpec("exact", f"every assignment (dimod.ExactSolver); at most {dwave.EXACT_LIMIT} variables",
                    frozenset(), dwave.run_exact, deterministic=True, reads_counted=False),
        SamplerSpec("qbpp", f"QUBO++ EasySolver (pyqbpp); at most {qbpp.QBPP_LIMIT} variables without a licence",
                    frozenset({"time_limit"}), qbpp.run),
        SamplerSpec("openjij-sa", "OpenJij simulated annealing (openjij; --beta-range or --beta-min, --beta-max, "
                                  "--beta-schedule, --sweeps-per-beta, --initial-states)",
                    frozenset({"sweeps", "schedule", "beta_range", "beta_schedule", "beta_schedule_file",
                               "sweeps_per_beta", "initial_states"}), openjij.runner("openjij-sa", knobs=True),
                    check=openjij.check_knobs, timing=SAMPLER_TIMING),
        SamplerSpec("openjij-sqa", "OpenJij simulated quantum annealing (openjij; --beta, --gamma, --trotter, "
                                   "--sqa-schedule, --initial-states; slow: see the SQA note below)",
                    frozenset({"sweeps", "schedule", "initial_states"}), openjij.runner("openjij-sqa"),
                    timing=SAMPLER_TIMING),
        SamplerSpec("pt", "parallel tempering (compiled, numba; --replicas rungs on a geometric ladder of --beta-range, "
                          "neighbours exchanged after every sweep; --sweeps per replica; --initial-states, --target-energy)",
                    frozenset({"sweeps", "beta_range", "replicas", "initial_states", "target_energy"}), tempering.run_pt,
                    check=tempering.check_pt, check_model=tempering.check_pt_model, timing=SAMPLER_TIMING,
                    states_per_read=tempering.pt_replicas, work_bounded=True),
        SamplerSpec("pa", "population annealing (compiled, numba; a population of --replicas resampled at each of "
                          "--sweeps/--sweeps-per-beta betas of --beta-range; --initial-states, --target-energy)",
                    frozenset({"sweeps", "beta_range", "sweeps_per_beta", "replicas", "initial_states",
                               "target_energy"}), tempering.run_pa, check=tempering.check_pa, check_model=tempering.check_pa_model,
                    timing=SAMPLER_TIMING, states_per_read=tempering.pa_replicas, work_bounded=True),
        SamplerSpec("lines", "heat-bath line moves (compiled, numba; domain-wall only): each sweep redraws every row's "
                             "and column's block placement from its exact distribution given the crossing lines, "
                             "annealed over --beta-range (default 0.3,10); --sweeps, --sweeps-per-beta, --target-energy; "
                             "--replicas K > 1: population annealing of K states",
                    frozenset({"sweeps", "beta_range", "sweeps_per_beta", "replicas", "target_energy"}),
                    linemoves.run_lines, check_model=linemoves.check_model, timing=SAMPLER_TIMING,
                    states_per_read=linemoves.line_replicas),
        SamplerSpec("cpsat", "CP-SAT (ortools): the puzzle solved exactly, a Boolean per cell and an automaton "
                             "per line; --count N enumerates and counts solutions",
                    frozenset({"time_limit", "workers", "count"}), cpsat.run, deterministic=True,
                    ground_truth=True),
        SamplerSpec("mock-dwave", "the QPU workflow offline: FixedEmbeddingComposite over dwave-system's "
                                  "MockDWaveSampler on --topology T, simulated annealing on the qubits",
                    frozenset({"sweeps", "qpu", "initial_states"}), qpu.run_mock, needs=frozenset({"topology", "embedding", "solver"}),
                    needs_says="--topology T (e.g. pegasus:16, zephyr:12,4, chimera:16, Advantage_system4.1, or a "
                               "QPU's properties JSON), --solver NAME or --embedding EMB.json, whose topology it "
                               "takes", check_model=qpu.check_mock_model, check=qpu.check_mock, qpu=True),
        SamplerSpec("dwave", "a D-Wave QPU (DWaveSampler(), as the Ocean configuration names it) through "
                             "FixedEmbeddingComposite", frozenset({"qpu", "initial_states"}), qpu.run_dwave,
                    refuses={"topology": "the QPU's own working graph is used (an --embedding must be for that "
                                         "graph)"}, check_model=qpu.check_dwave_model, qpu=True,
                    timing=QPU_ACCESS),
    )
}
SAMPLERS = tuple(SAMPLER_TABLE)

#: the package (its import name, the name pip knows, the extra that brings it) each sampler needs beyond the
#: core; asked by :func:`missing_package` before a campaign runs (``nonoqubo run``'s plan check)
PACKAGES: dict[str, tuple[str, str, str]] = {
    "sa": ("dwave.samplers", "dwave-samplers", "solvers"), "tabu": ("dwave.samplers", "dwave-samplers", "solvers"),
    "qbpp": ("pyqbpp", "pyqbpp", "qbpp"),
    "openjij-sa": ("openjij", "openjij", "openjij"), "openjij-sqa": ("openjij", "openjij", "openjij"),
    "lines": ("numba", "numba", "tempering"), "cpsat": ("ortools", "ortools", "cp"), "mock-dwave": ("dwave.system", "dwave-system", "dwave"),
    "dwave": ("dwave.system", "dwave-system", "dwave"),
}


def missing_package(sampler: str) -> MissingDependency | None:
    """The error of *sampler*'s package when it is not installed (found by ``importlib.util.find_spec``, nothing
    imported), else None.

    Examples:
        >>> missing_package("pt") is None
        True
    """
    import importlib.util

    if sampler not in PACKAGES:
        return None
    module, package, extra = PACKAGES[sampler]
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package that is missing (dwave for dwave.system)
        found = False
    return None if found else MissingDependency(package, extra, f"the '{sampler}' sampler")


def known_sampler(name: object) -> SamplerSpec | None:
    """The table entry of *name* when it is a sampler of the table, else None (a run file's sampler from
    another tool or version).

    Examples:
        >>> known_sampler("mock-dwave").qpu, known_sampler("mock-dwave").qpu_timed, known_sampler("qpu")
        (True, False, None)
    """
    return SAMPLER_TABLE.get(name) if isinstance(name, str) else None


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
    rather than ignored.  The knobs: a beta range ``0 < LO < HI``, a custom schedule's file read
    and checked never decreasing (and then no ``--sweeps`` or ``--beta-range``), ``--sweeps`` a
    multiple of ``--sweeps-per-beta``, ``--restarts`` at least 1, ``--tenure`` at least 0, an
    ``--initial-states`` file that exists (its states are matched to the model by
    :func:`nonoqubo.solvers.sampling.sample`, before sampling).  (The values of the OpenJij schedule options are OpenJij's to check:
    :mod:`nonoqubo.solvers.openjij`.)
    """
    spec = sampler_spec(sampler)
    reads, seed, sweeps, time_limit = options.reads, options.seed, options.sweeps, options.time_limit
    knobs = {name: getattr(options, name) for name in KNOBS}
    if isinstance(reads, bool) or not isinstance(reads, int) or reads < 1:
        raise SolverError(f"--reads must be at least 1, not {reads}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT):
        raise SolverError(f"--seed must be a whole number from 0 to {SEED_LIMIT - 1}, not {seed}")
    for option, value in {"sweeps": sweeps, "time_limit": time_limit, "workers": options.workers,
                          "count": options.count, **knobs}.items():
        if value is not None and option not in spec.takes:
            flag = FLAGS.get(option, "--" + option.replace("_", "-"))
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
    if given_schedule:  # OpenJij's values (and an --sqa-schedule file) before anything is read or built
        openjij.check_schedule(sampler, options.schedule, sweeps)
    for option, why in spec.refuses.items():
        if _given(options, option):
            raise SolverError(f"--{option.replace('_', '-')} does not apply to --sampler {sampler}: {why}")
    if spec.needs and not any(_given(options, option) for option in spec.needs):
        raise SolverError(f"--sampler {sampler} needs {spec.needs_says}")
    if (chain_strength := (options.qpu or {}).get("chain_strength")) is not None:
        parse_chain_strength(chain_strength)
    if sweeps is not None and (isinstance(sweeps, bool) or not isinstance(sweeps, int) or sweeps < 1):
        raise SolverError(f"--sweeps must be a whole number of at least 1, not {sweeps}")
    for option, value in {"workers": options.workers, "count": options.count}.items():
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise SolverError(f"--{option} must be a whole number of at least 1, not {value}")
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise SolverError(f"--time-limit must be a positive number of seconds, not {time_limit}")
    _check_knobs(options)
    if spec.check is not None:
        spec.check(options)


#: how ``solve`` spells a knob (a field of :class:`SampleOptions`) when it is not ``--`` + its name
FLAGS = {"beta_schedule_file": "--beta-schedule custom FILE"}


def _whole(value: object, flag: str, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise SolverError(f"{flag} must be a whole number of at least {least}, not {value}")


def _check_knobs(options: SampleOptions) -> None:
    """The values of the annealing knobs (each sampler's ``takes`` was checked before)."""
    if options.beta_range is not None:
        parse_beta_range(options.beta_range)
    kind, betas = options.beta_schedule, options.beta_schedule_file
    if kind is not None and kind not in SCHEDULE_TYPES:
        raise SolverError(f"--beta-schedule takes linear, geometric or custom FILE, not {kind!r}")
    if kind == "custom":
        if betas is None:
            raise SolverError("--beta-schedule custom needs a FILE of betas (one per line, or a JSON list)")
        if options.sweeps is not None or options.beta_range is not None:
            raise SolverError("--beta-schedule custom FILE is the whole schedule: leave out "
                              f"{'--sweeps' if options.sweeps is not None else '--beta-range'} (the sweeps are "
                              "the file's betas times --sweeps-per-beta)")
        read_betas(betas)
    elif betas is not None:
        raise SolverError(f"a file of betas goes with --beta-schedule custom, not with {kind or 'no'} schedule")
    if options.sweeps_per_beta is not None:
        _whole(options.sweeps_per_beta, "--sweeps-per-beta", 1)
        total = dwave.SA_DEFAULT_SWEEPS if options.sweeps is None else options.sweeps
        if kind != "custom" and total % options.sweeps_per_beta:
            raise SolverError(f"--sweeps ({total}{', the default' if options.sweeps is None else ''}) must be a "
                              f"multiple of --sweeps-per-beta ({options.sweeps_per_beta})")
    if options.restarts is not None:
        _whole(options.restarts, "--restarts", 1)
    if options.tenure is not None:
        _whole(options.tenure, "--tenure", 0)
    if options.replicas is not None:
        _whole(options.replicas, "--replicas", 1)
    target = options.target_energy
    if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
        raise SolverError(f"--target-energy must be a whole number (the model's energies are integers), not {target}")
    given = options.initial_states
    if given is not None and given not in WORDS and not is_file_like(given):  # a FIFO or <(...) is a file too
        raise SolverError(f"--initial-states {given}: no such file (give a samples file, a picture, 'line' or "
                          "'probe')")


def _given(options: SampleOptions, option: str) -> bool:
    """Whether *option* (a field of :class:`SampleOptions`, or a key of its ``qpu`` or ``schedule``) is set."""
    if option in {f.name for f in fields(SampleOptions)}:
        return getattr(options, option) is not None
    return bool((options.qpu or {}).get(option) or (options.schedule or {}).get(option) is not None)
