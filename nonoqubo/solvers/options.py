"""The options of a solve, each defined once: its name, its value's grammar, where it goes, its help.

A solve is asked with *options*: ``reads``, ``sweeps``, ``beta-range``, ``topology``, ... .  They
reach nonoqubo three ways, all spelled the same, ``solve``'s long options without the dashes:

* on the command line, ``nonoqubo solve P --beta-range 0.5,10`` (``cli/solve`` adds one argparse
  option per entry of :data:`OPTIONS`, with the entry's type, metavar and help);
* in a sweep, ``solve --sweep beta-range=0.5,10:1,10`` (text values);
* in a campaign plan's settings, ``sa: {sampler: sa, beta-range: "0.5,10", sweeps: [1000, 10000]}``
  (YAML or JSON values: numbers, text, true/false).

:func:`parse_value` reads one value of an option as any of those give it (the text ``"100"`` or
the number ``100``), and refuses a bad one in one line naming the option.  Where a value goes is
the entry's :attr:`SolveOption.key`: a field of :class:`~nonoqubo.solvers.base.SampleOptions`
(``reads``, ``beta_range``...), a key of its OpenJij ``schedule`` or its ``qpu`` dict
(``schedule.beta``, ``qpu.topology``), or a field of the request itself (``sampler``,
``presolve``, ``encoding``, ``weights``): :class:`~nonoqubo.solvers.request.SolveRequest` is made
from them.  Whether a *sampler* takes an option is not decided here but by the sampler table
(:func:`~nonoqubo.solvers.samplers.check_options`).

Examples:
    >>> parse_value("reads", "100"), parse_value("beta-range", "0.5,10"), parse_value("auto-scale", "false")
    (100, '0.5,10', False)
    >>> OPTIONS["time-limit"].key, OPTIONS["beta"].key, OPTIONS["topology"].key
    ('time_limit', 'schedule.beta', 'qpu.topology')
    >>> parse_value("reads", "many")
    Traceback (most recent call last):
    nonoqubo.errors.SolverError: reads: 'many' is not a whole number
    >>> parse_value("sweep", 3)
    Traceback (most recent call last):
    nonoqubo.errors.SolverError: 'sweep' is not an option of solve; did you mean sweeps?
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import SolverError
from ..logic.presolve import PRESOLVES
from ..qpu.parameters import ANSWER_MODES

__all__ = ["CLI_GROUPS", "KIND_TYPES", "MOST_SPIN_UPDATES", "OPTIONS", "SWEEPABLE", "SolveOption", "bounded_values", "check_bounds", "option_named", "parse_value",
           "split_given"]

#: the kinds of value an option takes
KINDS = ("whole", "number", "text", "switch", "presolve", "choice")


@dataclass(frozen=True)
class SolveOption:
    """One option of a solve.

    Attributes:
        name: ``solve``'s long option without the dashes (``beta-range``); a plan's key.
        key: where its value goes: a request field (``sampler``, ``presolve``, ``encoding``, ``weights``), a
            field of :class:`~nonoqubo.solvers.base.SampleOptions` (``reads``), or ``schedule.NAME`` /
            ``qpu.NAME``, a key of its OpenJij schedule or QPU dict.
        kind: ``whole`` (an integer), ``number`` (a finite real), ``text``, ``switch`` (true or false),
            ``presolve`` (false, true, ``line`` or ``probe``), ``choice`` (one of *choices*).
        metavar, help: how ``solve --help`` shows it.
        group: its ``solve --help`` group (:data:`CLI_GROUPS`), or ``""`` for an option a shared group of
            several commands defines (``presolve``, ``encoding``, ``weights``: ``cli/_common``).
        choices: the values of a ``choice``.
        sweepable: ``solve --sweep`` may vary it (the model's encoding and weights, and how many solutions
            to count, are not settings of one puzzle's sweep).
        default: its value when not given (None: the sampler's default).
        negatable: a ``switch`` shown as ``--X/--no-X`` (``auto-scale``), else a plain ``--X``.
        two_words: a first word after which the value takes one more on the command line
            (``beta-schedule``'s ``custom``: ``--beta-schedule custom FILE``); the value is the two words
            joined by a space, as a sweep or a plan spells it (``cli/_parser.TwoWords``).
        most: the largest value a count or a time may take (None: no bound here; the seed's is its
            own, the QPU's times are the solver's ranges).  A number past it would not run in a day or
            fit in memory (``--sweeps 10000000000`` is a 74.5 GiB beta schedule); the request's check
            refuses it in one line (:func:`check_bounds`) and ``--help`` says it (:attr:`help_text`).
    """

    name: str
    key: str
    kind: str
    metavar: str | None
    help: str
    group: str = "sampling"
    choices: tuple[str, ...] = ()
    sweepable: bool = True
    default: Any = None
    negatable: bool = False
    two_words: str = ""
    most: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"option {self.name}: kind {self.kind!r} is not one of {KINDS}")

    @property
    def flag(self) -> str:
        """``--beta-range``."""
        return f"--{self.name}"

    @property
    def help_text(self) -> str:
        """:attr:`help` with the bound, as ``--help`` shows it: ``...; at most 1,000,000``."""
        return self.help if self.most is None else f"{self.help}; at most {self.most:,}"


#: the groups of ``solve --help``, in order: key -> title
CLI_GROUPS = {
    "sampling": "",
    "anneal": "annealing, tempering and tabu knobs (sa, tabu, pt, pa, lines; openjij-sa, openjij-sqa where OpenJij has them)",
    "openjij": "OpenJij schedules (openjij-sa, openjij-sqa)",
    "qpu": "QPU samplers (mock-dwave, dwave)",
    "search": "embedding search (mock-dwave, dwave, without --embedding)",
}

#: the bounds of the counts and times (:attr:`SolveOption.most`): past them a run would not end in a day or
#: would not fit in memory (a million reads of a 25x25 puzzle's 1,900 variables is 1.9 GB of samples; 10^8
#: sweeps a read is minutes on the smallest model, and its beta schedule 800 MB)
MOST_READS = 1_000_000
MOST_SWEEPS = 100_000_000
MOST_RESTARTS = 1_000_000
MOST_TROTTER = 10_000
MOST_THREADS = 1024
#: a day, in seconds (``--time-limit``)
MOST_SECONDS = 86_400
#: the most spin updates one run of ``pt`` or ``pa`` may ask (:attr:`~nonoqubo.solvers.samplers.SamplerSpec.work_bounded`):
#: reads x replicas x sweeps x variables, the work ``run --dry-run`` counts.  Each count has its bound, but
#: their product did not (``--replicas 1000000`` alone on a 17-variable puzzle: 1.7e11 updates, hours of the
#: NumPy kernels, measured at 3e7 updates a second on one core); 1e11 is about an hour of them
MOST_SPIN_UPDATES = 10**11

_CHAIN_STRENGTH = ("in the logical model's units (a broken chain coupler costs 2X): a positive number, or 'uniform-torque' (Ocean's default, "
                   "uniform_torque_compensation with prefactor 1.414; the default), 'uniform-torque:PREFACTOR' "
                   "(another prefactor) or 'scaled' (the largest |h| or |J| of the logical Ising model)")

_ENTRIES = (
    SolveOption("sampler", "sampler", "choice", None, "the local solver (default: sa)", default="sa"),
    SolveOption("reads", "reads", "whole", "N", "number of samples, at least 1 (default: 10)", default=10,
                most=MOST_READS),
    SolveOption("seed", "seed", "whole", "S", "random seed 0..4294967295, for repeatable runs (read r uses S + r)"),
    SolveOption("sweeps", "sweeps", "whole", "N",
                "annealing sweeps per read, at least 1 (sa, openjij-sa, openjij-sqa; pt, pa: of every replica; lines: "
                "moves of every line; default 1000)", most=MOST_SWEEPS),
    SolveOption("time-limit", "time_limit", "number", "SECONDS",
                "seconds per read, more than 0 (tabu, qbpp; qbpp default 1); cpsat: the whole search",
                most=MOST_SECONDS),
    SolveOption("workers", "workers", "whole", "N",
                "cpsat: search workers, at least 1 (default: CP-SAT's, every core; --count uses one)",
                sweepable=False, most=MOST_THREADS),
    SolveOption("count", "count", "whole", "N",
                "cpsat: enumerate up to N solutions and say how many there are (exact when fewer than N exist; "
                "--count 2 decides uniqueness)", sweepable=False, most=MOST_READS),
    SolveOption("presolve", "presolve", "presolve", "line|probe",
                "fix the variables the presolve decides before sampling (as 'build --presolve')", group=""),
    SolveOption("encoding", "encoding", "text", "NAME", "the encoding of the block shifts", group="",
                sweepable=False),
    SolveOption("weights", "weights", "text", "shape=A,order=B,cell=C", "positive integer penalty weights",
                group="", sweepable=False),
    # the annealing knobs (SampleOptions' KNOBS)
    SolveOption("beta-range", "beta_range", "text", "LO,HI",
                "sa, openjij-sa, pt, pa, lines: first and last inverse temperature, 0 < LO < HI (default: the sampler's range "
                "from the model's biases, about 0.02,23 here; 0.5,10 often does better; lines: 0.3,10)", group="anneal"),
    SolveOption("beta-schedule", "beta_schedule", "text", "KIND",
                "sa, openjij-sa: how beta runs from LO to HI: linear, geometric (the default), or custom FILE (the "
                "betas, one per line or a JSON list, never decreasing; no --sweeps or --beta-range then); "
                "openjij-sa's linear needs --beta-range", group="anneal", two_words="custom"),
    SolveOption("sweeps-per-beta", "sweeps_per_beta", "whole", "N",
                "sa, openjij-sa, pa, lines: sweeps held at each beta (default 1, pa 10; --sweeps must be a multiple of it; "
                "openjij-sa needs --beta-range with it)", group="anneal", most=MOST_SWEEPS),
    SolveOption("restarts", "restarts", "whole", "R",
                "sa: R independent anneals per read, the read keeping the best (its time is all R); tabu: the "
                "most restarts of one read (TabuSampler's num_restarts)", group="anneal", most=MOST_RESTARTS),
    SolveOption("tenure", "tenure", "whole", "N",
                "tabu: the tabu list's length, 0 <= N < variables (default min(20, variables/4))", group="anneal"),
    SolveOption("initial-states", "initial_states", "text", "line|probe|FILE",
                "sa, tabu, pt, pa, openjij-sa, openjij-sqa, and the QPU samplers' reverse anneal: warm start: 'line' "
                "(line logic's fixings, random values elsewhere, from --seed), 'probe' (probing's fixings, the "
                "same), or a samples file decode reads, or a picture (#/.) of the answer; read r starts from state r "
                "mod K; sa with --restarts R draws reads x R states, each restart its own (SQA keeps a start only "
                "with an --sqa-schedule that starts near s=1)", group="anneal"),
    SolveOption("replicas", "replicas", "whole", "K",
                "pt: the rungs of its temperature ladder, at least 2 (default 8); pa: its population, at least 1 "
                "(default 32); lines: a population of K states annealed with population annealing's resampling (default 1, no "
                "resampling); every replica is swept --sweeps times, so a read costs K anneals", group="anneal",
                most=MOST_RESTARTS),
    SolveOption("target-energy", "target_energy", "whole", "E",
                "pt, pa, lines: a read ends at its first state of energy E or less (0: a solution), as QUBO++'s "
                "target_energy; the run record keeps each read's time to target and the whole read's budget, "
                "and evaluate's TTS99 counts a read that ends early at its time, the others at theirs",
                group="anneal"),
    # OpenJij's schedule options (SampleOptions.schedule)
    SolveOption("beta-min", "schedule.beta_min", "number", "B",
                "openjij-sa: first inverse temperature (or give --beta-range LO,HI)", group="openjij"),
    SolveOption("beta-max", "schedule.beta_max", "number", "B",
                "openjij-sa: last inverse temperature (or give --beta-range LO,HI)", group="openjij"),
    SolveOption("beta", "schedule.beta", "number", "B", "openjij-sqa: inverse temperature (default 5)",
                group="openjij"),
    SolveOption("gamma", "schedule.gamma", "number", "G",
                "openjij-sqa: initial transverse field, lowered to 0 (default 1)", group="openjij"),
    SolveOption("trotter", "schedule.trotter", "whole", "N", "openjij-sqa: Trotter slices (default 4)",
                group="openjij", most=MOST_TROTTER),
    SolveOption("sqa-schedule", "schedule.sqa_schedule", "text", "FILE",
                "openjij-sqa: the whole schedule, rows 's sweeps' or 's beta sweeps' (s from 0, all transverse "
                "field, to 1, none; never decreasing); no --sweeps then", group="openjij"),
    # the QPU samplers' options (SampleOptions.qpu)
    SolveOption("topology", "qpu.topology", "text", "T",
                "mock-dwave: the QPU graph (a properties JSON: its ranges the parameters are checked "
                "against); default the --solver's graph, else the --embedding's", group="qpu"),
    SolveOption("embedding", "qpu.embedding", "text", "EMB.json",
                "the chains to use (for the presolved model with --presolve); default found by minorminer and "
                "cached (as 'nonoqubo embed' caches)", group="qpu"),
    SolveOption("chain-strength", "qpu.chain_strength", "text", "X", _CHAIN_STRENGTH, group="qpu"),
    SolveOption("chain-strengths", "qpu.chain_strengths", "text", "FILE.json",
                "per-chain strengths, {\"<variable label>\": strength} in logical units; the variables it does "
                "not name keep --chain-strength's", group="qpu"),
    SolveOption("solver", "qpu.solver", "text", "NAME",
                "dwave: the QPU to use (DWaveSampler(solver=NAME)); mock-dwave: the QPU to imitate (its graph, "
                "when there is no --topology)", group="qpu"),
    SolveOption("annealing-time", "qpu.annealing_time", "number", "US",
                "microseconds per anneal, within the solver's annealing_time_range (Advantage: 0.5 to 2000; "
                "default 20); mock-dwave: 50 SA sweeps per microsecond", group="qpu"),
    SolveOption("anneal-schedule", "qpu.anneal_schedule", "text", "SCHEDULE",
                "t,s points ('0,0 10,0.5 30,0.5 40,1') or a file of them: forward from s=0, or reverse from s=1 "
                "(with --initial-states); ends at s=1, t increasing, at most max_anneal_schedule_points (12)",
                group="qpu"),
    SolveOption("reinitialize-state", "qpu.reinitialize_state", "switch", None,
                "reverse annealing: start every read from the initial state (the QPU's default), or each from "
                "the previous read's answer", group="qpu", negatable=True),
    SolveOption("num-spin-reversal-transforms", "qpu.num_spin_reversal_transforms", "whole", "N",
                "gauge transforms; the reads are split evenly among N problems (--reads a multiple of N)",
                group="qpu", most=MOST_READS),
    SolveOption("readout-thermalization", "qpu.readout_thermalization", "number", "US",
                "microseconds waited after each read (the solver's readout_thermalization_range)", group="qpu"),
    SolveOption("programming-thermalization", "qpu.programming_thermalization", "number", "US",
                "microseconds waited after programming (the solver's programming_thermalization_range)",
                group="qpu"),
    SolveOption("auto-scale", "qpu.auto_scale", "switch", None,
                "the QPU scales h and J into h_range and j_range (the default); --no-auto-scale: nonoqubo scales "
                "them, chains into extended_j_range, every qubit's couplings into per_qubit_coupling_range",
                group="qpu", negatable=True),
    SolveOption("answer-mode", "qpu.answer_mode", "choice", None,
                "raw: every read (the default); histogram: distinct answers with their counts", group="qpu",
                choices=ANSWER_MODES),
    # minorminer's search knobs (SampleOptions.qpu, for a search without --embedding)
    SolveOption("chainlength-patience", "qpu.chainlength_patience", "whole", "N",
                "minorminer: rounds without a shorter chain before it stops improving (its default 10)",
                group="search", sweepable=False, most=MOST_RESTARTS),
    SolveOption("threads", "qpu.threads", "whole", "N", "minorminer: threads of one search (default 1)",
                group="search", sweepable=False, most=MOST_THREADS),
    SolveOption("clique", "qpu.clique", "switch", None,
                "a clique embedding (minorminer.busclique): chains for a complete graph on the model's variables, "
                "in one quick deterministic pass; Pegasus and Zephyr only; longer chains than a search's",
                group="search", sweepable=False),
)

#: every option of a solve, by name
OPTIONS: dict[str, SolveOption] = {entry.name: entry for entry in _ENTRIES}
#: the options ``solve --sweep`` may vary
SWEEPABLE = tuple(name for name, entry in OPTIONS.items() if entry.sweepable)

_TRUE, _FALSE = ("true", "yes", "1", "on"), ("false", "no", "0", "off")


def option_named(name: str) -> SolveOption:
    """The option *name* (``beta-range``; ``beta_range`` and ``--beta-range`` are read as it too).

    Raises:
        SolverError: no such option (one line, with the nearest name).
    """
    key = str(name).strip().lstrip("-").replace("_", "-")
    if key in OPTIONS:
        return OPTIONS[key]
    near = difflib.get_close_matches(key, list(OPTIONS), n=1)
    hint = f"; did you mean {near[0]}?" if near else f"; the options are {', '.join(OPTIONS)}"
    raise SolverError(f"{str(name)!r} is not an option of solve{hint}")


#: the Python type of a ``whole`` and a ``number`` option's text (``solve``'s argparse ``type=``): the one
#: reading of such a value, whether argparse or a sweep or a plan hands it over; its own rules (at least 1,
#: finite and positive...) are the request's check
KIND_TYPES: dict[str, Callable[[str], Any]] = {"whole": int, "number": float}


def parse_value(name: str, value: Any) -> Any:
    """The value of option *name* as a request takes it, from text (the command line, a sweep) or from a
    YAML/JSON value (a plan): ``"100"`` and ``100`` are both 100 for ``reads``.

    A ``switch`` takes true/false (yes/no, 1/0, on/off); ``presolve`` false, true, ``line`` or ``probe``
    (true is ``line``); a ``text`` option takes text or a number (``chain-strength: 2``).  The value's own
    rules (a range ``0 < LO < HI``, a file that exists) are the request's check
    (:meth:`~nonoqubo.solvers.request.SolveRequest.check`).

    Raises:
        SolverError: an unknown option, or a value of the wrong kind: one line naming the option.
    """
    entry = option_named(name)
    kind = entry.kind

    def bad(what: str) -> SolverError:
        return SolverError(f"{entry.name}: {value!r} is not {what}")

    if isinstance(value, (dict, list, tuple, set)) or value is None:
        raise bad("a value (a number, true/false or text)")
    if kind == "switch" or kind == "presolve":
        word = str(value).strip().lower() if not isinstance(value, bool) else ("true" if value else "false")
        if word in _TRUE:
            return "line" if kind == "presolve" else True
        if word in _FALSE:
            return None if kind == "presolve" else False
        if kind == "presolve" and word in PRESOLVES:
            return word
        raise bad("true or false" if kind == "switch" else f"false, true, {' or '.join(PRESOLVES)}")
    if isinstance(value, bool):
        raise bad("a number" if kind in ("whole", "number") else "text")
    if kind == "whole":
        try:
            return value if isinstance(value, int) else KIND_TYPES["whole"](str(value).strip())
        except ValueError:
            raise bad("a whole number") from None
    if kind == "number":
        try:
            return float(value) if isinstance(value, (int, float)) else KIND_TYPES["number"](str(value).strip())
        except ValueError:
            raise bad("a number") from None
    text = str(value)
    if kind == "choice":
        choices = entry.choices or _dynamic_choices(entry)
        if text not in choices:
            raise SolverError(f"{entry.name}: {text!r} is not one of {', '.join(choices)}")
    return text


def _dynamic_choices(entry: SolveOption) -> tuple[str, ...]:
    """The choices the table cannot list without importing what owns them (the samplers)."""
    if entry.name == "sampler":
        from .samplers import SAMPLERS

        return SAMPLERS
    return ()


def split_given(values: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """*values* (option name -> parsed value, None: not given) sorted by where they go: ``{"request": {...},
    "options": {...}, "schedule": {...}, "qpu": {...}}``, each keyed by its field or key name."""
    out: dict[str, dict[str, Any]] = {"request": {}, "options": {}, "schedule": {}, "qpu": {}}
    for name, value in values.items():
        key = option_named(name).key
        where, _, field = key.rpartition(".")
        if where:
            out[where][field] = value
        elif field in ("sampler", "presolve", "encoding", "weights"):
            out["request"][field] = value
        else:
            out["options"][field] = value
    return out


def bounded_values(options: Any) -> dict[str, Any]:
    """The values of the options with a bound (:attr:`SolveOption.most`) in *options* (a
    :class:`~nonoqubo.solvers.base.SampleOptions`: its fields, its ``schedule`` and ``qpu`` dicts), by name."""
    out: dict[str, Any] = {}
    for name, entry in OPTIONS.items():
        if entry.most is None:
            continue
        where, _, key = entry.key.rpartition(".")
        out[name] = getattr(options, key, None) if not where else (getattr(options, where, None) or {}).get(key)
    return out


def check_bounds(values: Mapping[str, Any]) -> None:
    """Refuse a count or a time past its option's bound (:attr:`SolveOption.most`), in one line that says it.

    *values* are option name -> value (None: not given), as :func:`split_given` takes them; a value that
    is not a number is another check's to refuse.

    Raises:
        SolverError: ``--sweeps must be at most 100,000,000, not 10,000,000,000``.

    Examples:
        >>> check_bounds({"reads": 100, "sweeps": None})
        >>> check_bounds({"sweeps": 10**10})
        Traceback (most recent call last):
        nonoqubo.errors.SolverError: --sweeps must be at most 100,000,000, not 10,000,000,000
    """
    for name, value in values.items():
        entry = OPTIONS.get(name)
        if entry is None or entry.most is None or isinstance(value, bool) or not isinstance(value, (int, float)) \
                or (isinstance(value, float) and not math.isfinite(value)):  # inf, nan: the option's check refuses
            continue
        if value > entry.most:
            digits = len(str(int(value)))
            shown = f"{value:g}" if isinstance(value, float) else f"{value:,}" if digits <= 30 else \
                f"a number of {digits:,} digits"
            raise SolverError(f"{entry.flag} must be at most {entry.most:,}, not {shown}")
