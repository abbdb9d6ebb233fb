"""Campaigns at scale: a plan's tasks run in long-lived workers, locally or on a Dask cluster, resumably.

``nonoqubo run PLAN`` (:func:`run_plan`) takes a checked :class:`~nonoqubo.campaign.plan.Plan` and runs
every task whose run file is not there yet:

* **one code path.** A task is solved by :func:`execute`: the model file read as ``solve`` reads it
  (:func:`~nonoqubo.solvers.sampling.read_for_solve`), the task's request prepared and run as
  ``solve`` prepares and runs it (:func:`~nonoqubo.solvers.sampling.prepare`, ``Prepared.run``), the
  run file made as ``solve -o`` makes it (:func:`~nonoqubo.solvers.sampling.sampleset_json`).  So a
  task's file is the one ``nonoqubo solve MODEL <its options> --seed S -o FILE`` writes, and
  ``evaluate`` gives the same numbers.
* **long-lived workers.**  ``jobs`` worker processes (``-j N``; 1: this process) or the workers of an
  existing Dask cluster (``scheduler``: ``tcp://host:8786`` or a scheduler file) each keep the models
  they have read (:class:`ModelCache`), so a model is read and built once per worker, not once per task;
  the tasks come model by model.
* **no shared file system.**  A worker returns the run file's text and this process writes it
  (atomically: :func:`~nonoqubo._util.atomic.atomic_write`); a Dask worker is sent each model file's
  bytes once (scattered to every worker).  Only the files a setting names (a warm start, a schedule,
  an embedding) must be at the same path on every worker.
* **resumable.**  A task whose run file is there and records its run is done
  (:func:`~nonoqubo.campaign.plan.scan`); after a crash, Ctrl-C or SIGKILL, running the plan again does
  only the rest, and a temporary file a killed run left is removed.  A run file that records another
  run is a conflict: the plan is refused before anything runs (its runs are the user's; nothing is
  overwritten).
* **fault tolerant.**  A task that fails (a broken model file, an option the model cannot take) is
  logged with its reason and the others finish; a worker process that dies (killed, out of memory)
  is replaced and its tasks run again, up to :data:`ATTEMPTS` times; on Dask the scheduler moves a dead
  worker's tasks to the others, and a task whose data went with it is sent again.
* **a time limit per task** (``task-time-limit``): a task past it is stopped at the sampler's next read (its
  progress tick), or inside a read by killing the process that samples it :data:`KILL_GRACE` s later: its local
  worker (``-j N``, and ``-j 1`` too, which then runs its tasks in one worker process: :func:`_kill_late`), or on
  Dask the child process the worker's task samples in (:func:`~nonoqubo._util.workers.watched`); it fails, and
  its run file is a *failed run file* (:func:`failed_run_text`: no samples, the record's ``failed``), which
  ``scan`` counts done and ``evaluate`` counts as a failed run.

The campaign log (:attr:`Plan.log <nonoqubo.campaign.plan.Plan.log>`, ``runs.log`` beside ``runs/``)
gets one line per event: the start (tasks, done, to do, where), each task done (its seconds, valid
samples, best energy) or failed (its reason), the end.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import os
import re
import threading
import time
import traceback
import uuid
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, ContextManager, TextIO

from .._util.atomic import TEMP_MARK, atomic_write
from .._util.lock import hold
from .._util.workers import Overran, pool, terminate_as_interrupt, watched
from .._version import __version__
from ..errors import MissingDependency, NonoquboError, Note, Terminated, TimeLimit
from ..pipeline import Models, Step
from ..solvers.base import Tick
from ..solvers.sampling import Prepared, checked_models, prepare, read_for_solve, sampleset_json
from .._util.jobs import workers
from ._options import run_seconds
from .plan import Plan, Scan, Task, scan, work

__all__ = ["ATTEMPTS", "JOBS_PER_CPU", "ModelCache", "capped_jobs", "scheduler_address", "ModelData", "Outcome",
           "SettingTally", "TaskResult", "batches", "dry_run", "dry_run_lines", "execute", "execute_batch",
           "run_in_process", "run_plan"]

#: how many times a task is started before a worker death it is part of fails it
ATTEMPTS = 3
#: local workers at most per CPU (``-j`` above is capped: more processes than cores only share them)
JOBS_PER_CPU = 4
#: models a worker keeps read and built (the least recently used is dropped)
CACHE_MODELS = 64


@dataclass(frozen=True)
class ModelData:
    """A model file's bytes, sent to a worker that may not see this machine's files."""

    name: str
    data: bytes
    digest: str

    @classmethod
    def of(cls, path: str) -> ModelData:
        data = Path(path).read_bytes()
        return cls(path, data, hashlib.sha256(data).hexdigest())


@dataclass
class TaskResult:
    """What a worker returns: the run file's text, or why the task failed; and what the log says of it."""

    key: str
    output: str
    text: str | None = None
    error: str | None = None
    detail: str | None = None
    seconds: float = 0.0
    samples: int = 0
    valid: int = 0
    best_energy: int | None = None
    worker: str = ""
    #: the task ran past its time limit: ``text`` is its failed run file (:func:`failed_run_text`)
    timed_out: bool = False


class _Entry:
    """One model a worker has read: its models per presolve and the decoders made for them."""

    def __init__(self, read: Any, models: Models, checker: Any) -> None:
        self.read, self.base, self.checker = read, models, checker
        self.by_method: dict[str, Models] = {}
        self.decoders: dict[tuple[str, bool], Any] = {}
        self.lock = threading.Lock()


class ModelCache:
    """The models a worker keeps between tasks, by file (and its bytes' digest) and encoding and weights.

    *read*: how a task's file is read (default as ``solve`` reads it); ``solve --sweep`` hands the puzzle
    it read already (``--from``, ``--index``, standard input).
    """

    def __init__(self, size: int = CACHE_MODELS, read: Callable[[Task], Any] | None = None) -> None:
        self.size = size
        self._entries: collections.OrderedDict[tuple[str, ...], _Entry] = collections.OrderedDict()
        self._lock = threading.Lock()
        self._read = read
        self._ready: dict[str, Prepared] = {}
        self.reads = 0  # models read (and built) so far: a test's and the log's count

    def forked(self) -> None:
        """New locks in a forked child (another thread of its parent may have held one at the fork)."""
        self._lock = threading.Lock()
        for entry in self._entries.values():
            entry.lock = threading.Lock()

    def ready(self, task: Task) -> None:
        """Prepare *task* now and keep it for its run (``solve --sweep`` prepares every setting before the first
        samples: a bad one stops the sweep before anything is written).

        Raises:
            NonoquboError: what :func:`~nonoqubo.solvers.sampling.prepare` refuses.
        """
        self._ready[task.key] = self.prepared(task)

    def prepared(self, task: Task, data: ModelData | None = None) -> Prepared:
        """The task's request prepared on its model (read and built the first time), as ``solve`` prepares it."""
        kept = self._ready.pop(task.key, None)
        if kept is not None:
            return kept
        request = task.request
        key = (task.source, data.digest if data else "",
               request.encoding.name if request.encoding else "", str(request.weights or ""))
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
        if entry is None:
            read = self._read(task) if self._read else read_for_solve(local_copy(data) if data else task.source,
                                                                      request, command="run")
            models, checker = checked_models(read, request, task.source)
            entry = _Entry(read, models, checker)
            with self._lock:
                self.reads += 1
                self._entries[key] = entry
                while len(self._entries) > self.size:
                    self._entries.popitem(last=False)
        with entry.lock:  # a presolve is made once, and two threads of one Dask worker do not race to it
            method = request.presolve or "line"
            shared = entry.by_method.setdefault(method, Models(entry.base.puzzle, entry.base.qubo,
                                                               entry.base.build_seconds, presolve_method=method))
            earlier = entry.decoders.get((method, bool(request.presolve)))
            if earlier is None and not request.presolve:
                earlier = entry.checker
            ready = prepare(entry.read, request, source=task.source, models=shared, decoder=earlier, digest=task.digest)
            entry.decoders[(method, bool(request.presolve))] = ready.decoder
        return ready


#: the models of this worker process (a Dask worker's threads share them)
_CACHE = ModelCache()


def local_copy(data: ModelData) -> str:
    """The model file *data* sent, written once into this machine's temporary folder under its own name (so it
    is read by the rules ``solve`` reads a file by, its name's extension included); its path."""
    import tempfile

    folder = Path(tempfile.gettempdir()) / "nonoqubo-run-models" / data.digest[:32]
    path = folder / os.path.basename(data.name)
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        with atomic_write(path, binary=True) as fh:
            fh.write(data.data)
    return str(path)


def execute(task: Task, data: ModelData | None = None, cache: ModelCache | None = None,
            limit: float | None = None, *, tick: Tick | None = None, step: Step | None = None,
            raises: bool = False) -> TaskResult:
    """Run one task (the module docstring): its run file's text, or its failure; never raises (but with *raises*).

    *data*: the model file's bytes (a Dask worker's), else the file is read at ``task.source``.  *limit*: the
    task's time limit in seconds (the plan's ``task-time-limit``), counted from when sampling starts (reading
    and building a model, which a worker does once for many tasks, is not the task's): past it the sampler
    is stopped at its next read (its progress tick) and the task fails with that reason.  *tick*, *step*:
    the progress of its reads and of a long step before them (``Prepared.run``'s).
    """
    start = time.perf_counter()
    out = TaskResult(task.key, task.output, worker=f"{os.uname().nodename}:{os.getpid()}")
    deadline: _Deadline | None = None
    try:
        ready = (cache or _CACHE).prepared(task, data)
        if limit is not None:
            deadline = _Deadline(time.perf_counter(), limit, tick)
            _started(task.key, deadline.start)
        result = ready.run(tick if deadline is None else deadline, step)
        out.text = sampleset_json(result)
        out.samples, out.valid = len(result.analysis), result.num_valid
        out.best_energy = int(result.analysis.energy.min())
    except (NonoquboError, OSError) as exc:
        if deadline is not None and deadline.fired and isinstance(exc, TimeLimit) and not raises:
            out.error, out.timed_out = str(exc), True
            out.text = failed_run_text(task, out.error, time.perf_counter() - deadline.start, limit)
        if raises:
            raise
        out.error = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if isinstance(exc, OSError) and exc.filename and str(exc.filename) not in out.error:
            out.error = f"{exc.filename}: {exc.strerror or exc}"
    except Exception as exc:  # a defect: the task fails with its reason, the traceback goes to the log
        if raises:
            raise
        out.error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else 'no message'}"
        out.detail = traceback.format_exc()
    finally:
        if deadline is not None:
            _started(task.key, None)
    if data is not None and out.error:  # the file as the user named it, not the worker's copy
        out.error = out.error.replace(local_copy(data), task.source)
    out.seconds = time.perf_counter() - start
    return out


class _Deadline:
    """A sampler's progress tick that stops it (:class:`~nonoqubo.errors.TimeLimit`) once *limit* seconds passed
    since *start*; before that it hands the tick on to *then* (a progress display's), if any.  *fired*: it
    stopped the sampler (the task's failure is its time limit, recorded in a failed run file)."""

    def __init__(self, start: float, limit: float, then: Tick | None = None) -> None:
        self.start, self.limit, self.then, self.fired = start, limit, then, False

    def __call__(self, done: int, energy: float) -> None:
        if time.perf_counter() - self.start > self.limit:
            self.fired = True
            raise TimeLimit(f"time limit: the task ran past its limit of {self.limit:g} s (task-time-limit) and "
                            f"was stopped after {done} reads")
        if self.then is not None:
            self.then(done, energy)


def failed_run_text(task: Task, reason: str, seconds: float, limit: float | None) -> str:
    """The run file of *task* stopped by its time limit: a SampleSet of no samples whose record is the task's run
    (its identity whole: :meth:`~nonoqubo.records.RunRecord.identity`) with ``failed`` saying why
    (:class:`~nonoqubo.records.RunFailure`).  ``scan`` counts it done, ``evaluate`` a failed run of its group."""
    import json

    import dimod
    import numpy as np

    from .._util.plain import json_safe
    from ..records import RunFailure, RunModel, RunRecord
    from ..solvers.base import machine

    record = RunRecord(task.request.sampler, task.request.parameters(),
                       RunModel(task.encoding, task.weights, digest=task.digest, source=task.source),
                       {"seconds_per_run": None, "wall_seconds": seconds}, machine(), {},
                       datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), __version__,
                       failed=RunFailure(reason, seconds, limit))
    empty = dimod.SampleSet.from_samples((np.zeros((0, 0), dtype=np.int8), []), dimod.BINARY,
                                         energy=np.zeros(0, dtype=np.int64), info={"source": task.source})
    document = empty.to_serializable()
    document["info"]["nonoqubo"] = json_safe(record.to_dict())
    return json.dumps(document)


#: where a worker process says which task it samples and since when (with a time limit: a local worker's queue's
#: ``put``, a Dask task's child's mark; None elsewhere)
_STARTS: Callable[[tuple[int, str, float | None]], None] | None = None


def _started(key: str, since: float | None) -> None:
    """Tell the process that watches this one that it samples *key* since *since* (None: it stopped), if one does."""
    if _STARTS is not None:
        with contextlib.suppress(Exception):
            _STARTS((os.getpid(), key, since))


def _overran(task: Task, seconds: float, limit: float, what: str) -> TaskResult:
    """The result of *task* whose *what* (its worker, its process) was killed *seconds* into it, past *limit*."""
    reason = (f"time limit: the task ran past its limit of {limit:g} s (task-time-limit) inside a read and its "
              f"{what} was killed after {seconds:.1f} s")
    return TaskResult(task.key, task.output, error=reason, seconds=seconds, timed_out=True,
                      text=failed_run_text(task, reason, seconds, limit))


@dataclass
class SettingTally:
    """One setting's row of the summary: its tasks, those done before (skipped), run and failed now, and the
    samples of the runs made now and how many of them are valid pictures (the headline success probability)."""

    tasks: int = 0
    skipped: int = 0
    ran: int = 0
    failed: int = 0
    samples: int = 0
    valid: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"tasks": self.tasks, "skipped": self.skipped, "ran": self.ran, "failed": self.failed,
                "samples": self.samples, "valid": self.valid,
                "p_valid": self.valid / self.samples if self.samples else None}


@dataclass
class Outcome:
    """What :func:`run_plan` did."""

    plan: str
    total: int
    done_before: int
    ran: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False
    terminated: bool = False
    runs: str = ""
    log: str = ""
    where: str = ""
    #: per expansion: its tasks, done before (skipped), run, failed, and the samples and valid ones of the runs
    settings: dict[str, SettingTally] = field(default_factory=dict)

    def tally(self, result: TaskResult) -> None:
        """Count *result* in its setting's row."""
        row = self.settings.setdefault(result.key.partition("/")[0], SettingTally())
        if result.error is None:
            row.ran += 1
            row.samples += result.samples
            row.valid += result.valid
        else:
            row.failed += 1

    def table(self) -> list[str]:
        """The summary's table: a row per setting (``p valid`` is over the samples run now)."""
        width = max([len("setting")] + [len(name) for name in self.settings])
        lines = [f"{'setting':<{width}}  {'tasks':>7}  {'skipped':>7}  {'run':>7}  {'failed':>7}  {'p valid':>7}"]
        for name, row in self.settings.items():
            p = f"{row.valid / row.samples:.3f}" if row.samples else "-"
            lines.append(f"{name:<{width}}  {row.tasks:>7,}  {row.skipped:>7,}  {row.ran:>7,}  {row.failed:>7,}  "
                         f"{p:>7}")
        return lines

    @property
    def exit_status(self) -> int:
        """0 every task done, 1 some failed (the others ran), 130 interrupted (Ctrl-C), 143 stopped by SIGTERM."""
        return 143 if self.terminated else 130 if self.interrupted else 1 if self.failed else 0

    def lines(self) -> list[str]:
        """The summary ``run`` prints."""
        head = (f"{self.plan}: {self.total} tasks: {self.done_before} done before, {self.ran} run, "
                f"{len(self.failed)} failed, in {self.seconds:.1f} s ({self.where})")
        lines = [head, *self.table()]
        for key, reason in self.failed[:10]:
            lines.append(f"failed: {key}: {reason}")
        if len(self.failed) > 10:
            lines.append(f"... {len(self.failed) - 10} more failures in {self.log}")
        if self.interrupted:
            lines.append(f"interrupted: {self.done_before + self.ran} of {self.total} tasks done; run the plan "
                         "again to do the rest")
        lines.append(f"runs: {self.runs}; log: {self.log}")
        return lines

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "run", "plan": self.plan, "tasks": self.total, "done_before": self.done_before,
                "ran": self.ran, "failed": [{"task": k, "reason": r} for k, r in self.failed],
                "seconds": self.seconds, "interrupted": self.interrupted, "terminated": self.terminated,
                "runs": self.runs, "log": self.log, "workers": self.where, "exit_status": self.exit_status,
                "settings": [{"setting": name, **row.to_dict()} for name, row in self.settings.items()]}


class _Log:
    """The campaign log: one line per event, appended, flushed at once (a killed run keeps its lines)."""

    def __init__(self, path: str) -> None:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.fh: TextIO = open(path, "a", encoding="utf-8")

    def __call__(self, text: str) -> None:
        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        for line in text.rstrip("\n").splitlines():
            self.fh.write(f"{stamp} {line}\n")
        self.fh.flush()

    def close(self) -> None:
        self.fh.close()


def _remove_leftovers(tasks: Sequence[Task]) -> int:
    """Remove the temporary files a killed run left beside the run files of *tasks*; how many."""
    by_folder: dict[str, set[str]] = collections.defaultdict(set)
    for task in tasks:
        by_folder[os.path.dirname(task.output)].add(os.path.basename(task.output))
    removed = 0
    for folder, names in by_folder.items():
        try:
            listed = os.listdir(folder)
        except OSError:
            continue
        for item in listed:
            base, mark, _ = item.partition(TEMP_MARK)
            if mark and base in names:
                try:
                    os.remove(os.path.join(folder, item))
                    removed += 1
                except OSError:
                    pass
    return removed


def dry_run(plan: Plan, found: Scan) -> dict[str, Any]:
    """What ``run --dry-run`` reports: the tasks in all, done and to do, and per setting the work to do."""
    per = work(plan, found.todo)
    done = collections.Counter(t.setting for t in found.done)
    total = collections.Counter(t.setting for t in (*found.done, *found.todo))
    rows = [{"setting": name, "tasks": total[name], "done": done[name], "to_do": total[name] - done[name],
             "reads": per.get(name, {}).get("reads", 0), "spin_updates": per.get(name, {}).get("spin_updates", 0),
             "search_seconds": per.get(name, {}).get("search_seconds", 0.0)} for name in plan.settings]
    return {"kind": "run --dry-run", "plan": plan.path, "tasks": len(found.done) + len(found.todo),
            "models": len(plan.models), "settings": len(plan.settings), "seeds": len(plan.seeds),
            "done": len(found.done), "to_do": len(found.todo), "runs": plan.runs, "settings_work": rows,
            "spin_updates": sum(r["spin_updates"] for r in rows),
            "search_seconds": sum(r["search_seconds"] for r in rows)}


def dry_run_lines(report: dict[str, Any]) -> list[str]:
    """:func:`dry_run`'s report as the text ``run --dry-run`` prints."""
    lines = [f"{report['plan']}: {report['tasks']} tasks ({report['models']} models x {report['settings']} settings "
             f"x {report['seeds']} seeds): {report['done']} done, {report['to_do']} to do; runs in {report['runs']}"]
    width = max([len("setting")] + [len(r["setting"]) for r in report["settings_work"]])
    lines.append(f"{'setting':<{width}}  {'tasks':>7}  {'done':>7}  {'to do':>7}  {'reads':>10}  "
                 f"{'spin updates':>16}  {'search s':>9}")
    for r in report["settings_work"]:
        lines.append(f"{r['setting']:<{width}}  {r['tasks']:>7,}  {r['done']:>7,}  {r['to_do']:>7,}  "
                     f"{r['reads']:>10,}  {r['spin_updates']:>16,}  {r['search_seconds']:>9.4g}")
    lines.append(f"work to do: {report['spin_updates']:,} spin updates (reads x sweeps x variables, x restarts or "
                 f"replicas) and {report['search_seconds']:.4g} s of time-limited search; nothing was written")
    return lines


# -- the executors --------------------------------------------------------------------------------
Deliver = Callable[[TaskResult], None]


def run_in_process(tasks: Sequence[Task], deliver: Deliver, *, cache: ModelCache | None = None,
                   watch: Callable[[Task], ContextManager[tuple[Tick | None, Step | None]]] | None = None,
                   raises: bool = False, limit: float | None = None) -> None:
    """*tasks* one after another in this process, each result handed to *deliver* (``run -j 1``).

    ``solve --sweep`` runs its settings here too: on its own *cache* (the puzzle it read), *watch* giving
    each task's progress display (``tick``, ``step``) around its run, and *raises*: a failure stops it.
    *limit*: each task's time limit (:func:`execute`).
    """
    for task in tasks:
        with watch(task) if watch is not None else contextlib.nullcontext((None, None)) as (tick, step):
            result = execute(task, cache=cache, limit=limit, tick=tick, step=step, raises=raises)
        deliver(result)


def _pool_context() -> Any:
    """The start method of the local workers: fork where there is one (fast: nonoqubo is imported already)."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


#: seconds past its time limit a local worker may go on (in a read, where the limit is not looked at) before it is
#: killed (``run -j N``)
KILL_GRACE = 1.0


def _local(tasks: Sequence[Task], jobs: int, deliver: Deliver, limit: float | None) -> None:
    """*tasks* on *jobs* worker processes that die with this one (:func:`~nonoqubo._util.workers.pool`); a pool a
    dead worker broke is replaced, its tasks started again.

    With a time limit, each worker says which task it samples and since when (:func:`_started`, through a pipe the
    forked workers inherit); a worker still in one task :data:`KILL_GRACE` seconds past its limit (inside a read,
    where the sampler's tick never comes) is killed: that task is timed out (its failed run file written here),
    the pool replaced, and the other tasks it held started again without counting the attempt.
    """
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool

    global _STARTS
    context = _pool_context()
    watch = limit is not None and context.get_start_method() == "fork"
    pending = collections.deque(tasks)
    attempts: collections.Counter[str] = collections.Counter()
    while pending:
        starts = context.SimpleQueue() if watch else None
        _STARTS = None if starts is None else starts.put  # inherited by the workers this pool forks
        running: dict[int, tuple[str, float]] = {}  # worker pid -> (task key, sampling since)
        killed: dict[str, float] = {}  # task key -> seconds it had run when its worker was killed
        try:
            with pool(jobs, context) as executor:
                inflight: dict[Any, Task] = {}
                try:
                    while pending or inflight:
                        while pending and len(inflight) < 2 * jobs:
                            task = pending.popleft()
                            attempts[task.key] += 1
                            inflight[executor.submit(execute, task, None, None, limit)] = task
                        finished, _ = wait(inflight, timeout=0.2 if starts is not None else None,
                                           return_when=FIRST_COMPLETED)
                        if starts is not None and limit is not None:
                            _kill_late(starts, running, killed, limit)
                        for future in finished:
                            result = future.result()  # a dead worker's BrokenProcessPool, its task still in flight
                            del inflight[future]
                            deliver(result)
                except BrokenProcessPool:  # a worker died: every task it may have held is started again (or failed)
                    for future, task in inflight.items():
                        if future.done() and future.exception() is None:
                            deliver(future.result())
                        elif task.key in killed and limit is not None:
                            deliver(_overran(task, killed[task.key], limit, "worker"))
                        elif killed:  # the pool broke because a late task's worker was killed: not this one's fault
                            attempts[task.key] -= 1
                            pending.appendleft(task)
                        elif attempts[task.key] >= ATTEMPTS:
                            deliver(TaskResult(task.key, task.output, error=f"a worker process died {ATTEMPTS} "
                                                                            "times running it (killed, or out of "
                                                                            "memory?)"))
                        else:
                            pending.appendleft(task)
        finally:
            _STARTS = None
            if starts is not None:
                starts.close()


def _kill_late(starts: Any, running: dict[int, tuple[str, float]], killed: dict[str, float], limit: float) -> None:
    """Read what the workers said (:func:`_started`) into *running*, and SIGKILL each worker whose task has run
    :data:`KILL_GRACE` seconds past *limit*; its task goes into *killed* with the seconds it ran."""
    import signal

    while not starts.empty():
        pid, key, since = starts.get()
        if since is None:
            running.pop(pid, None)
        else:
            running[pid] = (key, since)
    now = time.perf_counter()
    for pid, (key, since) in list(running.items()):
        if now - since > limit + KILL_GRACE and key not in killed:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            killed[key] = now - since
            del running[pid]


#: the address forms of a Dask scheduler ``--scheduler`` takes (``tls://`` needs certificates run does not set up)
_ADDRESS = re.compile(r"^(?:(tcp|ws|wss|inproc|ucx|tls)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})$")


def scheduler_address(scheduler: Any) -> str:
    """The Dask scheduler's address that *scheduler* gives: an address itself (``tcp://host:8786``, ``host:8786``),
    or a scheduler file (``dask scheduler --scheduler-file``, JSON with an ``address``), checked.

    Raises:
        NonoquboError: one line: not text, a file that is no scheduler file, an address of another form.
    """
    if not isinstance(scheduler, (str, os.PathLike)):
        raise NonoquboError(f"--scheduler {scheduler!r}: a scheduler's address (tcp://host:8786) or scheduler "
                            "file, not a number")
    given = os.fspath(scheduler)
    where = f"--scheduler {given[:80]!r}"
    if "\0" in given:
        raise NonoquboError(f"{where}: a NUL character; give the scheduler's address or its scheduler file")
    if os.path.isfile(given):
        from .._util.guard import json_loads
        from .._util.stream import read_regular

        try:
            doc = json_loads(read_regular(given, limit=1_000_000), given)
        except OSError as exc:
            raise NonoquboError(f"{where}: cannot read the scheduler file ({exc.strerror or exc})") from None
        except NonoquboError:  # over 1 MB, or not JSON: not a scheduler file
            doc = None
        address = doc.get("address") if isinstance(doc, dict) else None
        if not isinstance(address, str):
            raise NonoquboError(f"{where}: not a scheduler file (JSON with the scheduler's \"address\", as 'dask "
                                "scheduler --scheduler-file FILE' writes)")
        where = f"{where}: its address {address[:80]!r}"
    elif os.path.isdir(given):
        raise NonoquboError(f"{where}: a folder; give the scheduler's address or its scheduler file")
    else:
        address = given
    match = _ADDRESS.match(address.strip())
    if match is None or not 0 < int(match.group(3)) < 65536:
        raise NonoquboError(f"{where}: not a scheduler's address (tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786) "
                            "nor a scheduler file that exists")
    if match.group(1) == "tls":
        raise NonoquboError(f"{where}: a tls:// scheduler needs certificates (a Dask security configuration), "
                            "which nonoqubo run does not set up; give a tcp:// address inside the cluster's network")
    return address.strip()


def _client(scheduler: str, quiet: bool = False) -> Any:
    """A Dask client of the cluster at *scheduler* (an address, or a scheduler file); *quiet*: Dask's warnings
    and log lines below errors silenced."""
    address = scheduler_address(scheduler)
    try:
        from distributed import Client
    except ImportError:
        raise MissingDependency("distributed", "distributed", "nonoqubo run --scheduler") from None
    if quiet:
        import logging

        for name in ("distributed", "dask", "tornado", "bokeh"):
            logging.getLogger(name).setLevel(logging.ERROR)
        warnings.filterwarnings("ignore", module=r"(distributed|dask|tornado|bokeh)(\..*)?$")
    try:
        return Client(address, timeout="20s")
    except Exception as exc:  # any failure to connect (OSError, TimeoutError, a TLS or protocol error): one line
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise NonoquboError(f"--scheduler {scheduler}: cannot reach the Dask scheduler at {address} ({message}); "
                            "give its address (tcp://host:8786) or the scheduler file 'dask scheduler "
                            "--scheduler-file' wrote") from None


def _described(client: Any) -> str:
    return f"Dask cluster {client.scheduler.address}, {len(client.scheduler_info().get('workers', {}))} workers"


def execute_batch(tasks: Sequence[Task], data: ModelData | None = None, limit: float | None = None
                  ) -> list[TaskResult]:
    """:func:`execute` of every task of *tasks* (one model's, whose bytes are *data*), in order: what a Dask worker
    runs, so that one round trip to the scheduler carries several tiny tasks.

    With a time limit the tasks sample in a child process (:func:`~nonoqubo._util.workers.watched`, forked after
    the model is read here, so it is read once per worker still) that is killed :data:`KILL_GRACE` s past the
    limit: a read the sampler's tick never ends is cut, and the task's failed run file returned."""
    if limit is None or not hasattr(os, "fork"):  # no fork (Windows): the sampler's tick alone holds the limit
        return [execute(task, data, None, limit) for task in tasks]
    with contextlib.suppress(Exception):  # the model read and built in this process, for every child to inherit
        _CACHE.prepared(tasks[0], data)

    def marked(task: Task, mark: Callable[[float], None]) -> TaskResult:  # in the child
        global _STARTS
        _CACHE.forked()
        _STARTS = lambda said: None if said[2] is None else mark(said[2])  # noqa: E731
        return execute(task, data, None, limit)

    return [_overran(task, got.seconds, limit, "process") if isinstance(got, Overran) else got
            for task, got in zip(tasks, watched(marked, tasks, limit, KILL_GRACE))]


#: model bytes sent to a Dask cluster in one scatter at most (each scatter is a round trip to every worker)
SCATTER_BYTES = 64 << 20
#: tasks a Dask batch holds at most (one model's; fewer when there are few tasks per worker)
BATCH = 64


def batches(tasks: Sequence[Task], workers: int) -> list[list[Task]]:
    """*tasks* cut into batches of one model each, of at most :data:`BATCH` tasks and small enough that every
    worker gets several (so a slow or dead worker holds back little)."""
    size = max(1, min(BATCH, len(tasks) // max(1, 4 * workers)))
    out: list[list[Task]] = []
    for task in tasks:
        if out and len(out[-1]) < size and out[-1][0].source == task.source:
            out[-1].append(task)
        else:
            out.append([task])
    return out


def _dask(tasks: Sequence[Task], client: Any, deliver: Deliver, limit: float | None) -> None:
    """*tasks* on the workers of the Dask cluster *client* is connected to, in batches (:func:`batches`)."""
    from distributed import as_completed

    data: dict[str, Any] = {}

    def scattered(source: str) -> Any:
        if source not in data:  # the models of the batches to come with it, in one round trip (SCATTER_BYTES at most)
            group: list[ModelData] = []
            size = 0
            for name in dict.fromkeys([source, *(t.source for t in tasks if t.source not in data)]):
                group.append(ModelData.of(name))
                size += len(group[-1].data)
                if size > SCATTER_BYTES:
                    break
            data.update(zip((m.name for m in group), client.scatter(group, broadcast=True, hash=False)))
        return data[source]

    run_id = uuid.uuid4().hex[:8]
    attempts: collections.Counter[str] = collections.Counter()
    by_future: dict[Any, list[Task]] = {}
    sent = 0

    def submit(batch: list[Task]) -> Any:
        nonlocal sent
        sent += 1
        for task in batch:
            attempts[task.key] += 1
        future = client.submit(execute_batch, batch, scattered(batch[0].source), limit, pure=False,
                               key=f"nonoqubo-run-{run_id}-{sent}-{batch[0].key}")
        by_future[future] = batch
        return future

    workers = max(1, len(client.scheduler_info().get("workers", {})))
    # results fetched by the client's own thread as batches end, while this one writes the files of the last
    queue = as_completed([submit(b) for b in batches(tasks, workers)], with_results=True, raise_errors=False)
    for future, results in queue:
        batch = by_future.pop(future)
        if future.status != "finished":  # the cluster's, not a task's (execute never raises): a killed worker, lost data
            exc = results[1] if isinstance(results, tuple) and len(results) == 3 else results
            data.pop(batch[0].source, None)  # its model's bytes may have gone with the worker: send them again
            again = []
            for task in batch:
                if attempts[task.key] >= ATTEMPTS:
                    deliver(TaskResult(task.key, task.output, error=f"the Dask cluster could not run it "
                                                                    f"({type(exc).__name__}: {exc})"))
                else:
                    again.append(task)
            for task in again:  # one by one: a batch that failed is not sent whole again
                queue.add(submit([task]))
        else:
            for result in results:
                deliver(result)
        future.release()


def capped_jobs(jobs: int | None, todo: int) -> int:
    """The local workers to start for *todo* tasks: *jobs* (:func:`~nonoqubo._util.jobs.workers`), at most
    one per task and :data:`JOBS_PER_CPU` per CPU; a cap is said (a ``Note``)."""
    wanted = workers(jobs)
    if not todo:
        return 1  # nothing to run: no worker starts, and there is no cap to speak of
    cpus = os.cpu_count() or 1
    most = max(1, min(todo, JOBS_PER_CPU * cpus))
    if wanted > most:
        if jobs is not None:
            why = f"{todo} tasks to do" if most == todo else f"{JOBS_PER_CPU} per CPU, {cpus} CPUs"
            warnings.warn(Note(f"-j {jobs:,} capped at {most} ({why})"), stacklevel=2)
        return most
    return wanted


def run_plan(plan: Plan, *, jobs: int | None = None, scheduler: str | None = None,
             progress: Callable[[int, int], None] | None = None, found: Scan | None = None,
             stream: TextIO | None = None, quiet: bool = False, task_time_limit: float | None = None) -> Outcome:
    """Run every task of *plan* that is not done (the module docstring).

    Args:
        plan: the checked plan (:func:`~nonoqubo.campaign.plan.read_plan`).
        jobs: local worker processes (None: every CPU; 1: in this process, or with a time limit in one worker
            process that can be killed inside a read); not with *scheduler*.
        scheduler: a Dask scheduler's address or scheduler file: run on that cluster instead.
        progress: called as ``progress(done, failed)`` after every task.
        found: the plan's :func:`~nonoqubo.campaign.plan.scan` (made here when not given).
        stream: where a failure's line goes as it happens (None: nowhere; the log has it).
        quiet: Dask's warnings and log lines below errors silenced (``run -q``).
        task_time_limit: seconds a task may take (default: the plan's ``task-time-limit``); a task past it is
            stopped by its worker and fails with that reason, and the campaign goes on.

    The runs folder is locked meanwhile (``RUNS.lock``, :func:`~nonoqubo._util.lock.hold`): a second run on it
    is refused while this one lives.  SIGTERM stops the run as Ctrl-C does (the tasks done are kept, the
    workers stopped, the log says "interrupted"), with :attr:`Outcome.terminated` set.

    Raises:
        NonoquboError: run files that record other runs (nothing runs), a runs folder another run holds
            (:class:`~nonoqubo.errors.LockHeld`), or a cluster that cannot be reached.
    """
    if scheduler is not None:
        scheduler_address(scheduler)  # a bad address or scheduler file: refused before anything is written
    with terminate_as_interrupt(), hold(plan.lock, plan.runs):
        limit = task_time_limit if task_time_limit is not None else plan.task_time_limit
        return _run_locked(plan, jobs, scheduler, progress, None if found is None else _rescanned(plan, found), stream,
                           quiet, run_seconds(limit, "--task-time-limit"))


def _rescanned(plan: Plan, found: Scan) -> Scan:
    """*found* (made before the lock was taken) with the tasks whose run files appeared since scanned again (not
    those the scan already found and ``--rerun-conflicts`` runs again over their files)."""
    rerun = {t.key for t in found.rerun}
    appeared = [t for t in found.todo if t.key not in rerun and os.path.exists(t.output)]
    if not appeared:
        return found
    again = scan(plan, appeared)
    keys = {t.key for t in appeared}
    return Scan(found.done + again.done, [t for t in found.todo if t.key not in keys] + again.todo,
                found.conflicts + again.conflicts, found.kept, found.rerun)


def _run_locked(plan: Plan, jobs: int | None, scheduler: str | None, progress: Callable[[int, int], None] | None,
                found: Scan | None, stream: TextIO | None, quiet: bool, limit: float | None) -> Outcome:
    found = found if found is not None else scan(plan)
    if found.conflicts:
        task, why = found.conflicts[0]
        more = f" (and {len(found.conflicts) - 1} more)" if len(found.conflicts) > 1 else ""
        raise NonoquboError(f"{task.output}: {why}{more}; the plan would write over it: --rerun-conflicts runs "
                            "such tasks again, --keep-conflicts leaves their files (not done), or give the plan "
                            "another runs folder")
    jobs = capped_jobs(jobs, len(found.todo)) if scheduler is None else None
    client = _client(scheduler, quiet) if scheduler is not None and found.todo else None  # reached before anything is written
    start = time.perf_counter()
    total = len(found.done) + len(found.todo)
    where = f"{jobs} local worker{'s' if jobs != 1 else ''}" if scheduler is None else \
        _described(client) if client is not None else scheduler
    outcome = Outcome(plan.path, total, len(found.done), runs=plan.runs, log=plan.log, where=where,
                      settings={name: SettingTally() for name in plan.settings})
    for task in found.done:
        outcome.settings[task.setting].skipped += 1
    for task in (*found.done, *found.todo):
        outcome.settings[task.setting].tasks += 1
    log = _Log(plan.log)
    removed = _remove_leftovers(found.todo)
    log(f"start nonoqubo {__version__} run {plan.path}: {total} tasks, {len(found.done)} done, "
        f"{len(found.todo)} to do, on {outcome.where}" + (f"; {removed} temporary files of a killed run removed"
                                                          if removed else ""))
    made: set[str] = set()

    def deliver(result: TaskResult) -> None:
        outcome.tally(result)
        if result.text is not None:  # a run's file, or the failed run file of a task past its time limit
            folder = os.path.dirname(result.output)
            if folder not in made:
                os.makedirs(folder, exist_ok=True)
                made.add(folder)
            with atomic_write(result.output) as fh:
                fh.write(result.text)
        if result.error is None and result.text is not None:
            outcome.ran += 1
            log(f"done {result.key} in {result.seconds:.3f} s on {result.worker}: {result.valid} of "
                f"{result.samples} valid, best energy {result.best_energy}")
        else:
            outcome.failed.append((result.key, result.error or "no run file"))
            log(f"failed {result.key}: {result.error}" + (f"\n{result.detail}" if result.detail else "")
                + (f" (its failed run file: {result.output})" if result.timed_out else ""))
            if stream is not None:
                print(f"nonoqubo: failed: {result.key}: {result.error}", file=stream)
        if progress is not None:
            progress(outcome.ran, len(outcome.failed))

    try:
        if not found.todo:
            pass
        elif client is not None:
            _dask(found.todo, client, deliver, limit)
        elif jobs == 1 and limit is None:  # with a limit, one worker process: killed inside a read past it
            run_in_process(found.todo, deliver)
        else:
            _local(found.todo, jobs or 1, deliver, limit)
    except KeyboardInterrupt:
        outcome.interrupted = True
    except Terminated:  # SIGTERM: stopped as Ctrl-C stops it (terminate_as_interrupt)
        outcome.interrupted = outcome.terminated = True
    finally:
        outcome.seconds = time.perf_counter() - start
        counts = f"{outcome.ran} run, {len(outcome.failed)} failed, {outcome.done_before} done before, " \
                 f"in {outcome.seconds:.1f} s"
        if outcome.interrupted:
            log(f"interrupted: {outcome.done_before + outcome.ran} of {total} tasks done "
                f"({'SIGTERM' if outcome.terminated else 'Ctrl-C'}; {counts})")
        else:
            log(f"end: {counts}")
        log.close()
        if client is not None:
            client.close()
    return outcome
