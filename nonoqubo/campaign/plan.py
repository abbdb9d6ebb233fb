"""A campaign plan: which models of a suite to solve, with which settings, at which seeds (``nonoqubo run``).

A plan is a YAML or JSON file (its JSON Schema: ``schemas/plan.schema.json``)::

    suite: suite            # a folder `nonoqubo suite` wrote (its index.json), relative to the plan
    runs: runs              # where run files go (default: runs/ beside the plan)
    seeds: [1, 2]           # every setting runs once per seed (an integer N means 1..N)
    settings:               # name -> options of `nonoqubo solve`, long names without dashes
      sa: {sampler: sa, reads: 100, sweeps: [1000, 10000]}        # a list is an axis
      sa-hot: {sampler: sa, reads: 100, sweeps: 1000, beta-range: "0.1,5"}
      tabu: {sampler: tabu, reads: 20, time-limit: 0.05}
    models: "random-25x25-*"   # optional: which models of the suite

The grammar, key by key:

* ``suite`` (required): a folder with a suite's ``index.json``.  Its *models* are the entries
  ``evaluate`` scores a suite by: an entry's full model file (``NAME``) and, when the suite wrote
  one, its presolved model file (``NAME.presolved``); an entry with no QUBO file is solved from its
  clue file.  A setting that names ``encoding`` or ``weights`` builds each model from the entry's
  clue file instead (as ``solve NAME.clues.json --encoding E`` does).
* ``runs``: the folder of the run files, ``RUNS/EXPANSION/MODEL.seedS.json`` (default ``runs``).
* ``seeds``: a list of whole numbers (each 0 .. 2**32 - 1), or ``N`` for ``1 .. N`` (default 1).
* ``settings`` (required): a mapping of names (letters, digits and ``._+=,-``) to options of a solve
  (:data:`nonoqubo.solvers.options.OPTIONS`: ``sampler``, ``reads``, ``sweeps``, ``beta-range``,
  ``topology``, ``presolve``, ...).  A value that is a list is an axis: a setting with lists expands
  to their Cartesian product, each *expansion* named ``NAME-OPTION=VALUE`` (axes joined by ``_``),
  a setting without lists is one expansion named ``NAME``.  ``seed`` is not a setting's option (the
  plan's ``seeds`` are).  A file an option names (a warm start, a schedule, an embedding) is
  relative to the plan.
* ``task-time-limit``: seconds a task may take (``run --task-time-limit`` overrides it); a task past
  it is stopped by its worker at the sampler's next read and fails with that reason.
* ``models``: which models, by name or glob (``"random-5x5-*"``, ``"*.presolved"``), a list of them,
  or a mapping of index fields to the value (or list of values) they must have
  (``{width: 25, line_solvable: false}``); default every model.

A *task* is one model × one expansion × one seed: :class:`Task`, whose request is the expansion's
:class:`~nonoqubo.solvers.request.SolveRequest` at that seed, so its run file is the one
``nonoqubo solve MODEL <the options> --seed S -o FILE`` writes.  :func:`read_plan` checks the whole
plan before any task runs, each option exactly as ``solve`` checks it: an unknown key, a bad value
or a missing suite is one line naming the plan file and the key.  :func:`scan` tells, per task,
whether its run file is there and records its run (done), is missing (to do), or records another
run (a conflict: the plan changed under existing runs).

Examples:
    >>> expansions("sa", {"sampler": "sa", "sweeps": [100, 1000], "beta-range": ["0.5,10", "1,10"]})[1][0]
    'sa-sweeps=100_beta-range=1,10'
    >>> expansions("tabu", {"sampler": "tabu", "reads": 5})
    [('tabu', {'sampler': 'tabu', 'reads': 5})]
"""

from __future__ import annotations

import fnmatch
import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._util.stream import read_regular
from ..errors import NonoquboError, SolverError, StreamError
from ..model.encodings import DEFAULT
from ..model.weights import DEFAULT_WEIGHTS, Weights
from ..records import RunIdentity, RunRecord, SuiteIndex, SuiteModel, check_digests, quoted
from ..samples import searched_text, the_record
from ..solvers.base import SEED_LIMIT
from ..solvers.options import OPTIONS, option_named
from ..solvers.request import SolveRequest
from ..solvers.grid import expand
from ._options import run_seconds
from ..solvers.samplers import missing_package

__all__ = ["CONFLICT_POLICIES", "KEYS", "Model", "Plan", "Scan", "Task", "expansions", "option_names",
           "read_plan", "scan", "work"]

#: the keys a plan has
KEYS = ("suite", "runs", "seeds", "settings", "models", "task-time-limit")
#: a plan larger than this is refused (a typo, not an experiment), counted as a product before anything expands
MAX_TASKS = 1_000_000
#: expansions of all settings at most (each is a folder of run files)
MAX_EXPANSIONS = 10_000
#: seeds at most (``seeds: N`` or a list)
MAX_SEEDS = 100_000
#: a plan file's bytes at most (100,000 seeds listed take 600 kB; PyYAML reads 1 MB in seconds)
MAX_PLAN_BYTES = 1_000_000
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+=,-]{0,99}$")
#: the options whose value may name a file, resolved against the plan's folder
FILE_OPTIONS = ("initial-states", "sqa-schedule", "embedding", "chain-strengths", "topology", "anneal-schedule",
                "beta-schedule")
#: the options a setting may not give (the plan says them)
NOT_SETTINGS = ("seed",)


#: one model of the suite a plan names (:class:`~nonoqubo.records.SuiteModel`, from the index's one list)
Model = SuiteModel


@dataclass(frozen=True)
class Task:
    """One run of a plan: a model, an expansion of a setting, a seed; and the run file it writes.

    Attributes:
        model: the model's name.
        source: the file solved (the model file, or the clue file).
        setting: the expansion's name (the run file's folder).
        request: the expansion's request at the task's seed.
        output: the run file (absolute).
        digest: the sha256 the suite's index records of *source*.
        encoding, weights: the model's (the model file's own, or the request's for a clue file).
    """

    model: str
    source: str
    setting: str
    request: SolveRequest
    output: str
    digest: str | None = None
    encoding: str = DEFAULT.name
    weights: Weights = DEFAULT_WEIGHTS

    @property
    def identity(self) -> RunIdentity:
        """What the task's run file must record, whole (:meth:`SolveRequest.identity`)."""
        return self.request.identity(self.digest, self.encoding, self.weights)

    @property
    def seed(self) -> int | None:
        return self.request.options.seed

    @property
    def key(self) -> str:
        """``SETTING/MODEL.seedS``: the task's name in logs and messages."""
        return f"{self.setting}/{self.model}.seed{self.seed}"


@dataclass
class Plan:
    """A checked plan: its file, suite, runs folder, seeds, expansions and models (the module docstring)."""

    path: str
    suite: str
    runs: str
    seeds: list[int]
    settings: dict[str, SolveRequest]
    options: dict[str, dict[str, Any]]
    models: list[Model]
    #: seconds a task may take (``task-time-limit``), or None
    task_time_limit: float | None = None

    def tasks(self) -> list[Task]:
        """Every task, model by model (so a worker meets one model's tasks together), then setting, then seed."""
        out = []
        for model in self.models:
            for name, request in self.settings.items():
                builds = _builds(self.options[name])
                asked = request.encoding.name if request.encoding else None
                encoding, weights = model.model_options(asked, request.weights, builds)
                source, digest = (model.clues, model.clue_digest) if builds and model.clues else \
                    (model.path, model.digest)
                for seed in self.seeds:
                    out.append(Task(model.name, source, name, request.with_seed(seed),
                                    os.path.join(self.runs, name, f"{model.name}.seed{seed}.json"),
                                    digest, encoding, weights))
        return out

    @property
    def log(self) -> str:
        """The campaign log, beside the runs folder (``runs.log`` for ``runs/``)."""
        return os.path.normpath(self.runs) + ".log"

    @property
    def lock(self) -> str:
        """The runs folder's lock while a run works in it, beside the runs folder (``runs.lock``)."""
        return os.path.normpath(self.runs) + ".lock"


def _builds(options: Mapping[str, Any]) -> bool:
    """A setting that says how to build the model (its encoding or weights) is run on the clue file."""
    return options.get("encoding") is not None or options.get("weights") is not None


def expansions(name: str, options: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The expansions of setting *name*: its lists as axes, their Cartesian product, each named
    ``NAME-OPTION=VALUE_OPTION=VALUE`` (or ``NAME`` without lists): the grid's one expander
    (:func:`nonoqubo.solvers.grid.expand`), as ``solve --sweep``'s."""
    axes = {k: v for k, v in options.items() if isinstance(v, list)}
    if not axes:
        return [(name, dict(options))]
    return [(f"{name}-{named}", {**options, **values}) for named, values in expand(axes)]


def _read(path: str) -> Any:
    """The plan document (YAML or JSON; YAML read safely), refused in one line when it is not one a plan can be:
    a key given twice in one mapping (naming the key and both lines), nesting or a number over the bounds
    every reader keeps (:mod:`nonoqubo._util.guard`), a NUL character in any text."""
    from .._util.guard import json_loads, yaml_load

    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_PLAN_BYTES + 1)
    except FileNotFoundError:
        raise NonoquboError(f"{path}: no such plan file") from None
    except IsADirectoryError:
        raise NonoquboError(f"{path}: a folder, not a plan file (YAML or JSON)") from None
    except (OSError, ValueError) as exc:
        raise NonoquboError(f"{path}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    if len(raw) > MAX_PLAN_BYTES:
        raise NonoquboError(f"{path}: larger than {MAX_PLAN_BYTES // 1_000_000} MB: not a plan (a plan names its "
                            "seeds and axes, at most 100,000 seeds and 10,000 expansions; seeds: N means 1..N)")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NonoquboError(f"{path}: not a text file (a plan is YAML or JSON)") from None
    if "\0" in text:
        line = text.count("\n", 0, text.index("\0")) + 1
        raise NonoquboError(f"{path}:{line}: a NUL character: a plan is text, and no name or path may hold one")
    doc = json_loads(text, path, unique_keys=True) if path.lower().endswith(".json") else \
        yaml_load(text, path, unique_keys=True)
    _no_nul(doc, path)
    return doc


def _no_nul(doc: Any, where: str) -> None:
    """Refuse a NUL character in any text of *doc* (written as an escape, ``"\\0"`` or ``"\\u0000"``): it
    would reach a file name.  Each shared (YAML alias) part is looked at once."""
    seen: set[int] = set()
    todo = [doc]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if "\0" in item:
                raise NonoquboError(f"{where}: {quoted(item)}: a NUL character in a text; no name or path may "
                                    "hold one")
        elif isinstance(item, (dict, list)) and id(item) not in seen:
            seen.add(id(item))
            todo.extend([*item.keys(), *item.values()] if isinstance(item, dict) else item)


def _seeds(value: Any, where: str) -> list[int]:
    if value is None:
        return [1]
    if isinstance(value, int) and not isinstance(value, bool):
        if not 1 <= value <= MAX_SEEDS:
            raise NonoquboError(f"{where}: seeds: N means seeds 1..N, from 1 to {MAX_SEEDS}, not {value}")
        return list(range(1, value + 1))
    if not isinstance(value, list) or not value:
        raise NonoquboError(f"{where}: seeds: a list of whole numbers, or N for 1..N, not {quoted(value)}")
    if len(value) > MAX_SEEDS:
        raise NonoquboError(f"{where}: seeds: {len(value):,} seeds; at most {MAX_SEEDS:,}")
    seen: set[int] = set()
    for seed in value:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
            raise NonoquboError(f"{where}: seeds: {quoted(seed)} is not a whole number from 0 to {SEED_LIMIT - 1}")
        if seed in seen:  # a set: linear in the seeds
            raise NonoquboError(f"{where}: seeds: {seed} is given twice (its runs would be one run file)")
        seen.add(seed)
    return list(value)


def _folder(value: Any, key: str, where: str, base: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise NonoquboError(f"{where}: {key}: a folder's path (text), not {value!r}")
    return os.path.normpath(os.path.join(base, os.path.expanduser(value)))


def _resolved(option: str, value: Any, base: str) -> Any:
    """A file an option names, relative to the plan's folder (*base*), as a path from here."""
    if option not in FILE_OPTIONS or not isinstance(value, str) or value == "line":
        return value
    words = value.split(None, 1) if option == "beta-schedule" else [value]
    file = words[-1]
    prefix = "file:" if file.lower().startswith("file:") else ""
    bare = file[len(prefix):]
    if os.path.isabs(bare) or not os.path.exists(os.path.join(base, bare)):
        return value
    words[-1] = prefix + os.path.normpath(os.path.join(base, bare))
    return " ".join(words)


def _settings(value: Any, where: str, base: str, seeds: int = 1
              ) -> tuple[dict[str, SolveRequest], dict[str, dict[str, Any]]]:
    """The settings' expansions, checked; their count is a product of the axes' lengths, bounded (with the
    *seeds*) before anything expands."""
    if not isinstance(value, Mapping) or not value:
        raise NonoquboError(f"{where}: settings: a mapping of setting names to options of solve "
                            "(e.g. sa: {sampler: sa, reads: 100})")
    tables = [(str(name), _options(str(name), options, where, base)) for name, options in value.items()]
    count = 0
    for name, checked in tables:
        count += math.prod(len(v) for v in checked.values() if isinstance(v, list))
        if count > MAX_EXPANSIONS or count * seeds > MAX_TASKS:
            raise NonoquboError(f"{where}: settings.{name}: the settings expand to {count:,} expansions x {seeds:,} "
                                f"seeds = {count * seeds:,} tasks per model or more; at most {MAX_EXPANSIONS:,} "
                                f"expansions and {MAX_TASKS:,} tasks in one plan")
    requests: dict[str, SolveRequest] = {}
    given: dict[str, dict[str, Any]] = {}
    for name, checked in tables:
        for expansion, values in expansions(name, checked):
            if expansion in requests:
                raise NonoquboError(f"{where}: settings: two settings expand to {expansion!r}")
            if not _NAME.match(expansion):
                raise NonoquboError(f"{where}: settings.{name}: the expansion {expansion!r} is too long a folder "
                                    "name; give the setting a shorter name or fewer axes")
            place = f"{where}: settings.{expansion}"
            request = SolveRequest.from_options(values, where=place)
            try:
                requests[expansion] = request.check()
            except NonoquboError as exc:
                raise NonoquboError(f"{place}: {exc}") from None
            missing = missing_package(request.sampler)
            if missing is not None:
                raise NonoquboError(f"{place}: {missing}")
            given[expansion] = values
    return requests, given


def _options(name: str, options: Any, where: str, base: str) -> dict[str, Any]:
    """Setting *name*'s options, each named as solve names it, its axes lists of distinct values (linear time)."""
    if not _NAME.match(name):
        raise NonoquboError(f"{where}: settings: {quoted(name)} is not a setting name (letters, digits and ._+=,-, "
                            "at most 100: it names a folder)")
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise NonoquboError(f"{where}: settings.{name}: a mapping of options of solve, not {quoted(options)}")
    checked: dict[str, Any] = {}
    for option, v in options.items():
        try:
            entry = option_named(str(option))
        except NonoquboError as exc:
            raise NonoquboError(f"{where}: settings.{name}: {exc}") from None
        if str(option) != entry.name:
            raise NonoquboError(f"{where}: settings.{name}: {option!r}: write it {entry.name!r}, as solve's "
                                f"--{entry.name} without the dashes")
        if entry.name in NOT_SETTINGS:
            raise NonoquboError(f"{where}: settings.{name}: {entry.name} is the plan's (seeds: [...]), not a "
                                "setting's")
        if isinstance(v, list):
            if not v or any(isinstance(x, (list, dict)) for x in v):
                raise NonoquboError(f"{where}: settings.{name}: {entry.name}: an axis is a list of values, "
                                    f"not {quoted(v)}")
            if len(v) > MAX_EXPANSIONS:
                raise NonoquboError(f"{where}: settings.{name}: {entry.name}: an axis of {len(v):,} values; at most "
                                    f"{MAX_EXPANSIONS:,} expansions in one plan")
            seen: set[Any] = set()
            for x in v:  # a set: linear in the values (they are scalars, so hashable)
                if x in seen:
                    raise NonoquboError(f"{where}: settings.{name}: {entry.name}: {quoted(x)} is given twice")
                seen.add(x)
            checked[entry.name] = [_resolved(entry.name, x, base) for x in v]
        else:
            checked[entry.name] = _resolved(entry.name, v, base)
    return checked


def _select(models: list[Model], value: Any, where: str) -> list[Model]:
    if value is None:
        return models
    if isinstance(value, str):
        value = [value]
    if isinstance(value, list):
        if not value or not all(isinstance(v, str) and v for v in value):
            raise NonoquboError(f"{where}: models: names or globs (text), not {value!r}")
        chosen = [m for m in models if any(fnmatch.fnmatchcase(m.name, pattern) for pattern in value)]
        missing = [p for p in value if not any(fnmatch.fnmatchcase(m.name, p) for m in models)]
        if missing:
            raise NonoquboError(f"{where}: models: {missing[0]!r} matches no model of the suite")
        return chosen
    if isinstance(value, Mapping) and value:
        def keep(m: Model) -> bool:
            for field, wanted in value.items():
                allowed = wanted if isinstance(wanted, list) else [wanted]
                if m.entry.fields.get(str(field)) not in allowed:
                    return False
            return True

        unknown = [f for f in value if all(str(f) not in m.entry.fields for m in models)]
        if unknown:
            raise NonoquboError(f"{where}: models: {unknown[0]!r} is not a field of the suite's index")
        chosen = [m for m in models if keep(m)]
        if not chosen:
            raise NonoquboError(f"{where}: models: no model of the suite has {dict(value)}")
        return chosen
    raise NonoquboError(f"{where}: models: a name, a glob, a list of them, or a mapping of index fields, "
                        f"not {value!r}")


def _check_beside(where: str, runs: str) -> None:
    """The campaign log and lock beside *runs* must be neither the plan file (``runs: plan`` beside a plan named
    ``plan.log``) nor a folder."""
    for kind, path in (("log", os.path.normpath(runs) + ".log"), ("lock", os.path.normpath(runs) + ".lock")):
        same = os.path.abspath(path) == os.path.abspath(where)
        if not same and os.path.exists(path):
            try:
                same = os.path.samefile(path, where)
            except OSError:
                same = False
        if same:
            raise NonoquboError(f"{where}: runs: the campaign {kind} beside {runs} would be {path}, the plan file "
                                "itself; give the runs folder another name")
        if os.path.isdir(path):
            raise NonoquboError(f"{where}: runs: the campaign {kind} beside {runs} would be {path}, which is a "
                                "folder; give the runs folder another name")


def read_plan(path: str | os.PathLike[str]) -> Plan:
    """The plan in file *path*, checked whole: every key, every setting's options as ``solve`` checks them,
    the suite and its models.  Nothing is written.

    Raises:
        NonoquboError: the first thing wrong, in one line naming the plan file and the key.
    """
    where = os.fspath(path)
    doc = _read(where)
    if not isinstance(doc, Mapping):
        raise NonoquboError(f"{where}: a plan is a mapping of {', '.join(KEYS)}, not {type(doc).__name__}")
    unknown = [k for k in doc if k not in KEYS]
    if unknown:
        raise NonoquboError(f"{where}: unknown key {str(unknown[0])!r}; a plan has {', '.join(KEYS)}")
    for key in ("suite", "settings"):
        if key not in doc:
            raise NonoquboError(f"{where}: {key}: missing (a plan needs suite and settings)")
    base = os.path.dirname(os.path.abspath(where))
    suite = _folder(doc["suite"], "suite", where, base)
    runs = _folder(doc.get("runs", "runs"), "runs", where, base)
    if os.path.exists(runs) and not os.path.isdir(runs):
        raise NonoquboError(f"{where}: runs: {runs} is a file, not a folder")
    _check_beside(where, runs)
    seeds = _seeds(doc.get("seeds"), where)
    settings, options = _settings(doc["settings"], where, base, len(seeds))
    models = _select(SuiteIndex.models_in(suite, f"{where}: suite: "), doc.get("models"), where)
    check_digests(models)
    for name, given in options.items():
        if _builds(given):
            without = [m.name for m in models if m.name.endswith(".presolved") or m.clues is None]
            if without:
                raise NonoquboError(f"{where}: settings.{name}: encoding and weights build a model from its clue "
                                    f"file, and {without[0]} has none (a presolved model file); select full models "
                                    "(models: ...), or give presolve instead")
    total = len(models) * len(settings) * len(seeds)
    if total > MAX_TASKS:
        raise NonoquboError(f"{where}: {total:,} tasks; at most {MAX_TASKS:,} in one plan")
    limit = run_seconds(doc.get("task-time-limit"), f"{where}: task-time-limit")  # run's --task-time-limit's check
    return Plan(where, suite, runs, seeds, settings, options, models, limit)


#: what ``run`` does with a conflict (a run file that records another run): stop (None), run the task again
#: over it (``rerun``), or leave the file and count the task not done (``keep``)
CONFLICT_POLICIES = ("rerun", "keep")


@dataclass
class Scan:
    """What a plan's runs folder holds already: the tasks done (their run files record their runs), the ones
    to do, the conflicts (a run file that records another run, or that cannot be read), the conflicts
    kept (left as they are, not done: :meth:`resolved` with ``keep``) and the ones to run again over their
    files (among the tasks to do: :meth:`resolved` with ``rerun``)."""

    done: list[Task]
    todo: list[Task]
    conflicts: list[tuple[Task, str]]
    kept: list[Task] = field(default_factory=list)
    rerun: list[Task] = field(default_factory=list)

    def resolved(self, policy: str | None) -> Scan:
        """This scan with its conflicts settled by *policy* (:data:`CONFLICT_POLICIES`; None: left as they are)."""
        if policy is None or not self.conflicts:
            return self
        if policy not in CONFLICT_POLICIES:
            raise NonoquboError(f"conflicts: {policy!r} is not one of {', '.join(CONFLICT_POLICIES)}")
        tasks = [t for t, _ in self.conflicts]
        if policy == "rerun":
            return Scan(self.done, self.todo + tasks, [], self.kept, self.rerun + tasks)
        return Scan(self.done, self.todo, [], self.kept + tasks, self.rerun)


def _recorded(path: str) -> RunRecord | None:
    """The run record of the run file *path* (None: the file records no run).

    Raises:
        RecordError, SampleError: a record its format refuses; StreamError: no regular file there;
            OSError: the file cannot be read.
    """
    return the_record(searched_text(read_regular(path)), path)  # a FIFO or a device there: refused, never waited on


def scan(plan: Plan, tasks: Sequence[Task] | None = None) -> Scan:
    """Sort *tasks* (default every task of *plan*) into done, to do and conflicts, by their run files.

    A task is done only when its run file's record has the task's identity, whole (:attr:`Task.identity`: the
    model file's digest, encoding, weights and presolve, the sampler, every parameter, the seed).  A task its
    time limit stopped left a failed run file of its identity (:class:`~nonoqubo.records.RunFailure`): done too
    (running it again under the same limit would fail again), unless the plan's ``task-time-limit`` is now
    longer than the one it ran past (or gone): then it is to do, and its file is written over.
    """
    done, todo, conflicts = [], [], []
    for task in plan.tasks() if tasks is None else tasks:
        if not os.path.lexists(task.output):
            todo.append(task)
            continue
        try:
            record = _recorded(task.output)
        except StreamError:
            raise  # a FIFO or a device at a run file's path: refused in one line, never a conflict to rerun over
        except (NonoquboError, OSError) as exc:
            conflicts.append((task, f"is not a run file nonoqubo can read ({str(exc).splitlines()[0]})"))
            continue
        if record is None:
            conflicts.append((task, "is not a run file nonoqubo wrote (no info[\"nonoqubo\"] record)"))
            continue
        found = record.identity()
        if found == task.identity and record.failed is not None and _longer(plan.task_time_limit, record.failed.limit):
            todo.append(task)  # stopped by a time limit shorter than the plan's now: given its chance again
        elif found == task.identity:
            done.append(task)
        else:
            conflicts.append((task, f"records another run than the plan's {task.key} "
                                    f"({found.difference(task.identity)})"))
    return Scan(done, todo, conflicts)


def _longer(now: float | None, then: float | None) -> bool:
    """Whether the time limit *now* (None: none) gives a task more time than *then*, the one it ran past."""
    return then is not None and (now is None or now > then)


def work(plan: Plan, tasks: Sequence[Task]) -> dict[str, dict[str, Any]]:
    """Per expansion, the work *tasks* stand for: tasks, reads, and reads × sweeps × variables (spin updates)
    where the sampler sweeps, or reads × time limit (seconds) where it searches for a time."""
    from ..solvers.dwave import SA_DEFAULT_SWEEPS

    variables = {m.name: m for m in plan.models}
    out: dict[str, dict[str, Any]] = {}
    for task in tasks:
        opts = task.request.options
        row = out.setdefault(task.setting, {"tasks": 0, "reads": 0, "spin_updates": 0, "search_seconds": 0.0})
        model = variables[task.model]
        size = model.variables
        if task.request.presolve and not model.name.endswith(".presolved"):
            size = model.variables_after(task.request.presolve)
        row["tasks"] += 1
        row["reads"] += opts.reads
        spec = task.request.spec
        if "sweeps" in spec.takes:
            try:  # a task past its sampler's work bound (pt, pa) would be refused when run: said now
                task.request.check_work(size)
            except SolverError as exc:
                raise SolverError(f"{plan.path}: setting {task.setting}, model {task.model}: {exc}") from None
            row["spin_updates"] += spec.spin_updates(opts, size, SA_DEFAULT_SWEEPS)
        elif opts.time_limit is not None:
            row["search_seconds"] += opts.reads * opts.time_limit if spec.reads_counted else opts.time_limit
    return out


def option_names() -> list[str]:
    """The option names a setting may give (every option of solve but the plan's own)."""
    return [name for name in OPTIONS if name not in NOT_SETTINGS]
