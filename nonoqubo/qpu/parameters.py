"""A QPU's own parameters: what a D-Wave solver accepts, checked against its properties before anything runs.

This module owns the solver parameters ``solve --sampler dwave`` and ``mock-dwave`` send with a
problem (D-Wave's "QPU Solver Parameters"), the solver properties they are checked against
(D-Wave's "QPU Solver Properties"), and the names people type for a QPU.

**Properties.**  :data:`DEFAULT_PROPERTIES` are those of an Advantage system as dwave-system's
``MockDWaveSampler`` declares them (``annealing_time_range`` [0.5, 2000] µs, at most 12 anneal
schedule points, ``extended_j_range`` [-2, 1], ``per_qubit_coupling_range`` [-18, 15], the
thermalization ranges [0, 10000] µs...).  A QPU properties file (``--topology FILE.json``:
``DWaveSampler().properties`` saved with ``json.dump``) overrides every key it has
(:attr:`~nonoqubo.qpu.topology.Topology.properties`); ``--sampler dwave`` checks against the live
solver's own properties.

**Parameters** (the keys of :attr:`nonoqubo.solvers.base.SampleOptions.qpu` this module reads;
:func:`solver_parameters` turns them into ``DWaveSampler.sample`` keywords):

=================================  ===============================================================
``annealing_time``                 µs per anneal, within ``annealing_time_range``
``anneal_schedule``                ``[[t, s], ...]``: 2 to ``max_anneal_schedule_points`` points, t
                                   strictly increasing and at most the largest annealing time, s in
                                   [0, 1] ending at 1; forward (s starts at 0, never decreases) or
                                   reverse (s starts at 1: needs initial states); no slope steeper
                                   than ``1 / min(annealing_time_range)``.  Not with ``annealing_time``.
``initial_states``                 reverse annealing's starting states (a 0/1 matrix in the model's
                                   variable order, one row; the logical state, spread over the chains)
``reinitialize_state``             reverse annealing: start every read from the initial state (True)
                                   or from the previous read's answer (False)
``num_spin_reversal_transforms``   gauge transforms (dwave-preprocessing's composite): the reads
                                   are split evenly among them (``--reads`` a multiple of it)
``readout_thermalization``         µs waited after each read, within ``readout_thermalization_range``
``programming_thermalization``     µs waited after programming, within its range
``auto_scale``                     True (the default): the QPU scales h, J into ``h_range``,
                                   ``j_range``; False: nonoqubo scales them (:mod:`.ranges`)
``answer_mode``                    ``raw`` (every read) or ``histogram`` (distinct answers, counted)
``solver``                         the solver name (``Advantage_system4.1``...)
=================================  ===============================================================

Examples:
    >>> parse_schedule("0,0 10,0.5 20,1")
    [[0.0, 0.0], [10.0, 0.5], [20.0, 1.0]]
    >>> check_schedule([[0, 0], [10, 0.6], [8, 1]], DEFAULT_PROPERTIES)
    Traceback (most recent call last):
    nonoqubo.errors.QpuParameterError: --anneal-schedule: t must increase at every point; point 3 (t=8) comes after t=10
    >>> topology_of_solver("Advantage2_system1.6")
    'zephyr:12,4'
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from .._util.guard import json_loads
from .._util.stream import is_file_like, read_bytes
from ..errors import FormatError, QpuParameterError, TopologyError

__all__ = ["ANSWER_MODES", "DEFAULT_PROPERTIES", "PROPERTY_RANGES", "SOLVER_NAMES", "check_schedule",
           "is_reverse", "parse_schedule", "schedule_duration", "solver_parameters", "solver_properties",
           "topology_of_solver"]

#: an Advantage system's properties, as dwave-system's MockDWaveSampler declares them
DEFAULT_PROPERTIES: dict[str, Any] = {
    "annealing_time_range": [0.5, 2000.0],
    "default_annealing_time": 20.0,
    "max_anneal_schedule_points": 12,
    "default_programming_thermalization": 1000.0,
    "default_readout_thermalization": 0.0,
    "programming_thermalization_range": [0.0, 10000.0],
    "readout_thermalization_range": [0.0, 10000.0],
    "h_range": [-4.0, 4.0],
    "j_range": [-1.0, 1.0],
    "extended_j_range": [-2.0, 1.0],
    "per_qubit_coupling_range": [-18.0, 15.0],
    "num_reads_range": [1, 10000],
}
#: the range properties a properties file may give, and what each must satisfy
PROPERTY_RANGES = {
    "annealing_time_range": "0 < LO < HI", "programming_thermalization_range": "0 <= LO <= HI",
    "readout_thermalization_range": "0 <= LO <= HI", "extended_j_range": "LO < 0 < HI",
    "per_qubit_coupling_range": "LO < 0 < HI", "num_reads_range": "1 <= LO <= HI",
}
#: what ``--answer-mode`` takes
ANSWER_MODES = ("raw", "histogram")

#: solver names people type -> the ideal graph of that QPU generation (real QPUs miss a few qubits:
#: a properties file gives the working graph).  Advantage: Pegasus P16 (5,640 qubits, about 5,600
#: working); Advantage2: Zephyr Z(12,4) (4,800 qubits, about 4,400 working); its prototypes
#: Z(4,4) (576) and Z(6,4) (1,248); the 2000Q: Chimera C16 (2,048).
SOLVER_NAMES: tuple[tuple[str, str, str], ...] = (
    (r"advantage2_prototype1(\.\d+)?", "zephyr:4,4", "Advantage2_prototype1.1"),
    (r"advantage2_prototype2(\.\d+)?", "zephyr:6,4", "Advantage2_prototype2.6"),
    (r"advantage2(_system\d+(\.\d+)?)?", "zephyr:12,4", "Advantage2_system1.6, advantage2"),
    (r"advantage(_system\d+(\.\d+)?)?", "pegasus:16", "Advantage_system4.1, advantage"),
    (r"(dw_)?2000q(_\w+)?", "chimera:16,16,4", "DW_2000Q_6, 2000q"),
)


def topology_of_solver(name: str) -> str | None:
    """The topology spec of a QPU named *name* (case-insensitive), or None for a name that is none.

    Examples:
        >>> topology_of_solver("Advantage_system6.4"), topology_of_solver("advantage2")
        ('pegasus:16', 'zephyr:12,4')
        >>> topology_of_solver("Advantage3") is None
        True
    """
    text = str(name).strip().lower()
    for pattern, spec, _ in SOLVER_NAMES:
        if re.fullmatch(pattern, text):
            return spec
    return None


def known_solver_names() -> str:
    """The names :func:`topology_of_solver` knows, for a message."""
    return "; ".join(f"{examples} -> {spec}" for _, spec, examples in SOLVER_NAMES)


# -- properties ------------------------------------------------------------------------------------
def solver_properties(overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """:data:`DEFAULT_PROPERTIES` with *overrides* (a properties file's, or a live solver's) on top."""
    out = dict(DEFAULT_PROPERTIES)
    out.update({k: v for k, v in (overrides or {}).items() if v is not None})
    return out


def read_properties(doc: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The solver properties of a properties file *doc* that parameters are checked against (checked).

    Raises:
        TopologyError: a range that is not two numbers in order, or a bad point count (one line
            naming *where* and the key).
    """
    out: dict[str, Any] = {}
    for key, rule in PROPERTY_RANGES.items():
        if key not in doc:
            continue
        value = doc[key]
        ok = (isinstance(value, list) and len(value) == 2
              and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value))
        if ok:
            lo, hi = float(value[0]), float(value[1])
            ok = {"0 < LO < HI": 0 < lo < hi, "0 <= LO <= HI": 0 <= lo <= hi, "LO < 0 < HI": lo < 0 < hi,
                  "1 <= LO <= HI": 1 <= lo <= hi}[rule]
        if not ok:
            raise TopologyError(f"{where}: {key!r} must be [LO, HI] with {rule}, not {str(value)[:60]}")
        out[key] = [float(value[0]), float(value[1])]
    for key in ("max_anneal_schedule_points",):
        if key in doc:
            value = doc[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 2:
                raise TopologyError(f"{where}: {key!r} must be a whole number of at least 2, not {str(value)[:60]}")
            out[key] = int(value)
    for key in ("default_annealing_time", "default_programming_thermalization", "default_readout_thermalization"):
        if key in doc:
            value = doc[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
                raise TopologyError(f"{where}: {key!r} must be a number of microseconds, not {str(value)[:60]}")
            out[key] = float(value)
    for key in ("chip_id",):
        if isinstance(doc.get(key), str):
            out[key] = doc[key]
    return out


# -- the anneal schedule ---------------------------------------------------------------------------
def parse_schedule(text: str | list[Any], option: str = "--anneal-schedule") -> list[list[float]]:
    """An anneal schedule from *text*: ``t,s`` pairs (``"0,0 10,0.5 20,1"``, or separated by ``;``),
    or a file: JSON ``[[t, s], ...]`` or one ``t s`` (or ``t,s``) pair a line (``#`` comments).

    Only the form is checked here (pairs of finite numbers); :func:`check_schedule` checks it against
    a solver's properties.

    Raises:
        QpuParameterError: not pairs of numbers, or a file that cannot be read (one line).
    """
    where = option
    if isinstance(text, list):
        pairs: Any = text
    else:
        raw = str(text).strip()
        if is_file_like(raw):  # a regular file, or a FIFO or <(...) read once, as a stream
            where = f"{option} {raw}"
            try:
                data = read_bytes(raw, where, limit=1 << 20)
            except OSError as exc:
                raise QpuParameterError(f"{where}: cannot read it ({exc.strerror or exc})") from None
            if data.lstrip().startswith(b"["):
                try:
                    pairs = json_loads(data, raw)
                except FormatError as exc:
                    raise QpuParameterError(f"{option}: {exc}") from None
            else:
                lines = data.decode("utf-8", "replace").splitlines()
                pairs = [line.split("#", 1)[0].replace(",", " ").split() for line in lines]
                pairs = [p for p in pairs if p]
        elif re.fullmatch(r"[\s\d.,;eE+-]*", raw) and raw:
            pairs = [chunk.split(",") for chunk in re.split(r"[;\s]+", raw) if chunk]
        else:
            raise QpuParameterError(f"{option} {raw[:60]!r}: neither t,s pairs (e.g. '0,0 10,0.5 20,1') nor a "
                                    "schedule file")
    if not isinstance(pairs, list):
        raise QpuParameterError(f"{where}: a schedule is a list of [t, s] pairs")
    out: list[list[float]] = []
    for k, pair in enumerate(pairs, 1):
        try:
            if isinstance(pair, (str, bytes)) or len(pair) != 2:
                raise ValueError
            t, s = (float(v) for v in pair)
        except (TypeError, ValueError):
            raise QpuParameterError(f"{where}: point {k} ({str(pair)[:40]}) is not a pair t,s of numbers") from None
        if not (math.isfinite(t) and math.isfinite(s)):
            raise QpuParameterError(f"{where}: point {k} ({t:g},{s:g}) is not finite")
        out.append([t, s])
    return out


def is_reverse(schedule: list[list[float]]) -> bool:
    """Whether *schedule* is a reverse anneal (it starts at s = 1)."""
    return bool(schedule) and schedule[0][1] == 1.0


def schedule_duration(schedule: list[list[float]]) -> float:
    """The length of *schedule* in µs (its last t)."""
    return float(schedule[-1][0])


def check_schedule(schedule: list[list[float]], properties: Mapping[str, Any],
                   option: str = "--anneal-schedule") -> None:
    """Refuse, in one line, a schedule a QPU with *properties* refuses (the rules: the module docstring)."""
    most = int(properties.get("max_anneal_schedule_points", 12))
    lo_time, hi_time = (float(v) for v in properties["annealing_time_range"])
    if not 2 <= len(schedule) <= most:
        raise QpuParameterError(f"{option}: {len(schedule)} points; this solver takes 2 to {most} "
                                "(max_anneal_schedule_points)")
    if schedule[0][0] != 0:
        raise QpuParameterError(f"{option}: the first point must be at t=0, not t={schedule[0][0]:g}")
    for k, ((t0, _), (t1, _)) in enumerate(zip(schedule, schedule[1:]), 2):
        if not t1 > t0:
            raise QpuParameterError(f"{option}: t must increase at every point; point {k} (t={t1:g}) comes "
                                    f"after t={t0:g}")
    for k, (_, s) in enumerate(schedule, 1):
        if not 0 <= s <= 1:
            raise QpuParameterError(f"{option}: point {k} has s={s:g}; the anneal fraction s lies in [0, 1]")
    if schedule[-1][0] > hi_time:
        raise QpuParameterError(f"{option}: it lasts {schedule[-1][0]:g} µs, longer than this solver's "
                                f"longest anneal, {hi_time:g} µs (annealing_time_range [{lo_time:g}, {hi_time:g}])")
    if schedule[-1][1] != 1:
        raise QpuParameterError(f"{option}: the last point must be at s=1, not s={schedule[-1][1]:g}")
    start = schedule[0][1]
    if start == 0:
        for k, ((_, s0), (_, s1)) in enumerate(zip(schedule, schedule[1:]), 2):
            if s1 < s0:
                raise QpuParameterError(f"{option}: a forward anneal (s starts at 0) may not decrease s; point {k} "
                                        f"goes from s={s0:g} down to s={s1:g} (start at s=1 for a reverse anneal)")
    elif start != 1:
        raise QpuParameterError(f"{option}: the first point must be at s=0 (forward anneal) or s=1 (reverse "
                                f"anneal), not s={start:g}")
    steepest = 1.0 / lo_time
    for k, ((t0, s0), (t1, s1)) in enumerate(zip(schedule, schedule[1:]), 2):
        slope = abs(s1 - s0) / (t1 - t0)
        if round(slope, 10) > steepest:
            raise QpuParameterError(f"{option}: the segment to point {k} changes s by {slope:.4g} per µs; this "
                                    f"solver's fastest is {steepest:g} per µs (1 / {lo_time:g} µs, the shortest "
                                    "annealing time)")


# -- every parameter -------------------------------------------------------------------------------
def _number(value: Any, option: str, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise QpuParameterError(f"{option}: {value!r} is not a number of {what}")
    return float(value)


def _within(value: float, properties: Mapping[str, Any], key: str, option: str, unit: str = " µs") -> None:
    lo, hi = (float(v) for v in properties[key])
    if not lo <= value <= hi:
        raise QpuParameterError(f"{option} {value:g}: this solver takes {lo:g} to {hi:g}{unit} ({key})")


def solver_parameters(qpu: Mapping[str, Any], properties: Mapping[str, Any], reads: int) -> dict[str, Any]:
    """The ``DWaveSampler.sample`` keywords of the QPU options *qpu*, checked against *properties*.

    The keys read are those of the module docstring's table; absent or None keys are not sent (the
    solver's defaults apply).  ``num_spin_reversal_transforms`` and ``initial_states`` are not
    solver keywords: the caller applies them (a composite, the chains); they are checked here.

    Raises:
        QpuParameterError: one line naming the option and the property that forbids its value.
    """
    out: dict[str, Any] = {}
    lo_reads, hi_reads = (int(v) for v in properties.get("num_reads_range", [1, 10000]))
    if not lo_reads <= reads <= hi_reads:
        raise QpuParameterError(f"--reads {reads}: this solver takes {lo_reads} to {hi_reads} reads a problem "
                                "(num_reads_range)")
    if qpu.get("annealing_time") is not None:
        if qpu.get("anneal_schedule") is not None:
            raise QpuParameterError("--annealing-time and --anneal-schedule both set the anneal: give one "
                                    "(a schedule's last t is its annealing time)")
        value = _number(qpu["annealing_time"], "--annealing-time", "microseconds")
        _within(value, properties, "annealing_time_range", "--annealing-time")
        out["annealing_time"] = value
    initial = qpu.get("initial_states")
    if qpu.get("anneal_schedule") is not None:
        schedule = parse_schedule(qpu["anneal_schedule"])
        check_schedule(schedule, properties)
        if is_reverse(schedule) and initial is None:
            raise QpuParameterError("--anneal-schedule starts at s=1, a reverse anneal: it needs the state to "
                                    "start from (--initial-states)")
        out["anneal_schedule"] = schedule
    if initial is not None and not is_reverse(out.get("anneal_schedule") or []):
        raise QpuParameterError("--initial-states on a QPU is a reverse anneal: give an --anneal-schedule that "
                                "starts at s=1 (e.g. '0,1 5,0.45 15,0.45 20,1')")
    if qpu.get("reinitialize_state") is not None:
        if initial is None:
            raise QpuParameterError("--reinitialize-state/--no-reinitialize-state applies to a reverse anneal "
                                    "(--initial-states with a schedule starting at s=1)")
        out["reinitialize_state"] = bool(qpu["reinitialize_state"])
    srt = qpu.get("num_spin_reversal_transforms")
    if srt is not None:
        if isinstance(srt, bool) or not isinstance(srt, int) or srt < 0:
            raise QpuParameterError(f"--num-spin-reversal-transforms {srt}: give a whole number of at least 0")
        if srt > 1 and reads % srt:
            raise QpuParameterError(f"--num-spin-reversal-transforms {srt}: the {reads} reads are split evenly "
                                    f"among the transforms; give --reads a multiple of {srt}")
        if srt and initial is not None:
            raise QpuParameterError("--num-spin-reversal-transforms with --initial-states: the transform "
                                    "composite does not flip the initial state (dwave-preprocessing), so the "
                                    "reverse anneal would start elsewhere; use one or the other")
    for key, option in (("readout_thermalization", "--readout-thermalization"),
                        ("programming_thermalization", "--programming-thermalization")):
        if qpu.get(key) is not None:
            value = _number(qpu[key], option, "microseconds")
            _within(value, properties, f"{key}_range", option)
            out[key] = value
    if qpu.get("auto_scale") is not None:
        out["auto_scale"] = bool(qpu["auto_scale"])
    if qpu.get("answer_mode") is not None:
        if qpu["answer_mode"] not in ANSWER_MODES:
            raise QpuParameterError(f"--answer-mode {qpu['answer_mode']!r}: choose one of {', '.join(ANSWER_MODES)}")
        out["answer_mode"] = qpu["answer_mode"]
    return out
