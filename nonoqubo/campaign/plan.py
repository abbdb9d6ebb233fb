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
import itertools
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import NonoquboError
from ..solvers.base import SEED_LIMIT
from ..solvers.options import OPTIONS, option_named
from ..solvers.request import SolveRequest
from ..solvers.sweep import setting_name

__all__ = ["KEYS", "Model", "Plan", "Scan", "Task", "expansions", "option_names", "read_plan", "scan", "work"]

#: the keys a plan has
KEYS = ("suite", "runs", "seeds", "settings", "models")
#: a plan or a settings table larger than this is refused (a typo, not an experiment)
MAX_TASKS = 10_000_000
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+=,-]{0,99}$")
#: the options whose value may name a file, resolved against the plan's folder
FILE_OPTIONS = ("initial-states", "sqa-schedule", "embedding", "chain-strengths", "topology", "anneal-schedule",
                "beta-schedule")
#: the options a setting may not give (the plan says them)
NOT_SETTINGS = ("seed",)


@dataclass(frozen=True)
class Model:
    """One model of the suite a plan names.

    Attributes:
        name: ``NAME`` (the full model) or ``NAME.presolved``, as ``evaluate`` names it.
        path: the model file a task solves (absolute), or the clue file when the entry has no QUBO file.
        clues: the entry's clue file (absolute), or None.
        variables: the variables of the model file (for ``--dry-run``'s work).
        entry: the suite's index entry.
    """

    name: str
    path: str
    clues: str | None
    variables: int
    entry: Mapping[str, Any]


@dataclass(frozen=True)
class Task:
    """One run of a plan: a model, an expansion of a setting, a seed; and the run file it writes.

    Attributes:
        model: the model's name.
        source: the file solved (the model file, or the clue file).
        setting: the expansion's name (the run file's folder).
        request: the expansion's request at the task's seed.
        output: the run file (absolute).
    """

    model: str
    source: str
    setting: str
    request: SolveRequest
    output: str

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

    def tasks(self) -> list[Task]:
        """Every task, model by model (so a worker meets one model's tasks together), then setting, then seed."""
        out = []
        for model in self.models:
            for name, request in self.settings.items():
                source = model.clues if _builds(self.options[name]) and model.clues else model.path
                for seed in self.seeds:
                    out.append(Task(model.name, source, name, request.with_seed(seed),
                                    os.path.join(self.runs, name, f"{model.name}.seed{seed}.json")))
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
    ``NAME-OPTION=VALUE_OPTION=VALUE`` (or ``NAME`` without lists)."""
    axes = [k for k, v in options.items() if isinstance(v, list)]
    if not axes:
        return [(name, dict(options))]
    out = []
    for combo in itertools.product(*(options[k] for k in axes)):
        values = dict(options)
        values.update(zip(axes, combo))
        shown = {k: _shown(v) for k, v in zip(axes, combo)}
        out.append((f"{name}-{setting_name(shown)}", values))
    return out


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _read(path: str) -> Any:
    """The plan document (YAML or JSON; YAML read with ``safe_load``)."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise NonoquboError(f"{path}: no such plan file") from None
    except IsADirectoryError:
        raise NonoquboError(f"{path}: a folder, not a plan file (YAML or JSON)") from None
    except UnicodeDecodeError:
        raise NonoquboError(f"{path}: not a text file (a plan is YAML or JSON)") from None
    except OSError as exc:
        raise NonoquboError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if path.lower().endswith(".json"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise NonoquboError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else path
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise NonoquboError(f"{where}: not valid YAML ({problem})") from None


def _seeds(value: Any, where: str) -> list[int]:
    if value is None:
        return [1]
    if isinstance(value, int) and not isinstance(value, bool):
        if not 1 <= value <= 100_000:
            raise NonoquboError(f"{where}: seeds: N means seeds 1..N, from 1 to 100000, not {value}")
        return list(range(1, value + 1))
    if not isinstance(value, list) or not value:
        raise NonoquboError(f"{where}: seeds: a list of whole numbers, or N for 1..N, not {value!r}")
    for seed in value:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
            raise NonoquboError(f"{where}: seeds: {seed!r} is not a whole number from 0 to {SEED_LIMIT - 1}")
    twice = next((s for i, s in enumerate(value) if s in value[:i]), None)
    if twice is not None:
        raise NonoquboError(f"{where}: seeds: {twice} is given twice (its runs would be one run file)")
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


def _settings(value: Any, where: str, base: str) -> tuple[dict[str, SolveRequest], dict[str, dict[str, Any]]]:
    if not isinstance(value, Mapping) or not value:
        raise NonoquboError(f"{where}: settings: a mapping of setting names to options of solve "
                            "(e.g. sa: {sampler: sa, reads: 100})")
    requests: dict[str, SolveRequest] = {}
    given: dict[str, dict[str, Any]] = {}
    for name, options in value.items():
        name = str(name)
        if not _NAME.match(name):
            raise NonoquboError(f"{where}: settings: {name!r} is not a setting name (letters, digits and ._+=,-, "
                                "at most 100: it names a folder)")
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise NonoquboError(f"{where}: settings.{name}: a mapping of options of solve, not {options!r}")
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
                                        f"not {v!r}")
                twice = next((x for i, x in enumerate(v) if x in v[:i]), None)
                if twice is not None:
                    raise NonoquboError(f"{where}: settings.{name}: {entry.name}: {twice!r} is given twice")
                checked[entry.name] = [_resolved(entry.name, x, base) for x in v]
            else:
                checked[entry.name] = _resolved(entry.name, v, base)
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
            given[expansion] = values
    return requests, given


def _suite_models(suite: str, where: str) -> list[Model]:
    """The models of the suite (the module docstring), in the index's order."""
    from .. import exports
    from .suite import read_index

    if not os.path.isdir(suite):
        raise NonoquboError(f"{where}: suite: {suite}: no such folder (a folder 'nonoqubo suite' wrote)")
    index = read_index(suite)
    if not index:
        raise NonoquboError(f"{where}: suite: {suite} has no index.json of a suite (write one with 'nonoqubo suite')")
    models = []
    for name, entry in index.items():
        if entry.get("status") != "ok":
            continue
        clues = entry.get("clues")
        clue_path = os.path.join(suite, clues["path"]) if isinstance(clues, dict) and clues.get("path") else None
        for variant in ("full", "presolved"):
            files = [f for f in entry.get("files", []) if f.get("variant") == variant
                     and not str(f.get("convention", "")).startswith("feasibility") and _qubo_format(exports, f)]
            if files:
                models.append(Model(name if variant == "full" else f"{name}.presolved",
                                    os.path.join(suite, files[0]["path"]), clue_path,
                                    int(files[0].get("variables") or 0), entry))
            elif variant == "full" and clue_path is not None:
                models.append(Model(name, clue_path, clue_path, int(entry.get("variables") or 0), entry))
    if not models:
        raise NonoquboError(f"{where}: suite: {suite} holds no model that was built (status ok)")
    return models


def _qubo_format(exports: Any, file: Mapping[str, Any]) -> bool:
    """A file of a QUBO format (the ones ``solve`` samples), not a constrained model or a MiniZinc puzzle."""
    try:
        return getattr(exports.get_format(str(file.get("format"))), "KIND", "qubo") == "qubo"
    except NonoquboError:
        return False


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
                if m.entry.get(str(field)) not in allowed:
                    return False
            return True

        unknown = [f for f in value if all(str(f) not in m.entry for m in models)]
        if unknown:
            raise NonoquboError(f"{where}: models: {unknown[0]!r} is not a field of the suite's index")
        chosen = [m for m in models if keep(m)]
        if not chosen:
            raise NonoquboError(f"{where}: models: no model of the suite has {dict(value)}")
        return chosen
    raise NonoquboError(f"{where}: models: a name, a glob, a list of them, or a mapping of index fields, "
                        f"not {value!r}")


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
    seeds = _seeds(doc.get("seeds"), where)
    settings, options = _settings(doc["settings"], where, base)
    models = _select(_suite_models(suite, where), doc.get("models"), where)
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
    return Plan(where, suite, runs, seeds, settings, options, models)


@dataclass
class Scan:
    """What a plan's runs folder holds already: the tasks done (their run files record their runs), the ones
    to do, and the conflicts (a run file that records another run, or that cannot be read)."""

    done: list[Task]
    todo: list[Task]
    conflicts: list[tuple[Task, str]]


def _recorded(path: str) -> dict[str, Any] | None:
    """The run record of the run file *path* (None: the file is not a run file nonoqubo wrote)."""
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError):
        return None
    info = doc.get("info") if isinstance(doc, dict) else None
    record = info.get("nonoqubo") if isinstance(info, dict) else None
    return record if isinstance(record, dict) else None


def scan(plan: Plan, tasks: Sequence[Task] | None = None) -> Scan:
    """Sort *tasks* (default every task of *plan*) into done, to do and conflicts, by their run files."""
    done, todo, conflicts = [], [], []
    for task in plan.tasks() if tasks is None else tasks:
        if not os.path.exists(task.output):
            todo.append(task)
            continue
        record = _recorded(task.output)
        if record is None:
            conflicts.append((task, "is not a run file nonoqubo wrote (no info[\"nonoqubo\"] record)"))
        elif task.request.matches(record):
            done.append(task)
        else:
            conflicts.append((task, f"records another run ({_difference(task.request, record)})"))
    return Scan(done, todo, conflicts)


def _difference(request: SolveRequest, record: Mapping[str, Any]) -> str:
    """The first parameter a run file's record has otherwise than the plan's request."""
    if record.get("sampler") != request.sampler:
        return f"sampler {record.get('sampler')}, the plan's {request.sampler}"
    given = record.get("parameters")
    recorded: Mapping[str, Any] = given if isinstance(given, dict) else {}
    wanted = request.parameters()
    for key in sorted(set(recorded) | set(wanted)):
        if json.dumps(recorded.get(key), sort_keys=True) != json.dumps(wanted.get(key), sort_keys=True):
            return f"{key} {recorded.get(key)!r}, the plan's {wanted.get(key)!r}"
    return "another model"


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
            size = _presolved_size(model.entry, task.request.presolve, size)
        row["tasks"] += 1
        row["reads"] += opts.reads
        spec = task.request.spec
        if "sweeps" in spec.takes:
            row["spin_updates"] += spec.spin_updates(opts, size, SA_DEFAULT_SWEEPS)
        elif opts.time_limit is not None:
            row["search_seconds"] += opts.reads * opts.time_limit if spec.reads_counted else opts.time_limit
    return out


def _presolved_size(entry: Mapping[str, Any], method: str, size: int) -> int:
    """The variables *method*'s presolve leaves, as the suite's index counts them (``variables_after_line``
    or ``_probe``, else the suite's own ``variables_after_presolve``), else *size*."""
    for key in (f"variables_after_{method}", "variables_after_presolve"):
        if entry.get(key) is not None:
            return int(entry[key])
    return size


def option_names() -> list[str]:
    """The option names a setting may give (every option of solve but the plan's own)."""
    return [name for name in OPTIONS if name not in NOT_SETTINGS]
