"""``solve --sweep``: one solve per setting of a grid, run in this process by the campaign runner.

The grid is :mod:`nonoqubo.solvers.grid`'s (its grammar and the one expander a campaign plan's
settings use too).  Each setting becomes a task of the runner (:func:`sweep_tasks`:
``OUTPUT/SETTING/NAME.json``), and :func:`run_sweep` runs them through it
(:func:`nonoqubo.campaign.runner.run_in_process`): the puzzle read once by the caller, its models
built once per presolve and shared (:class:`~nonoqubo.campaign.runner.ModelCache`), every setting
prepared before the first samples, each run file the one ``solve -o`` writes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ContextManager

from .._util.atomic import atomic_write
from .._util.names import file_stem
from ..errors import Contradiction, MissingDependency, NonoquboError, NoSolution, SolverError
from ..pipeline import Step
from ..records import file_digest
from ..solvers.base import Tick
from ..solvers.grid import expand, parse_sweep
from ..solvers.options import SWEEPABLE
from ..solvers.request import SolveRequest
from .plan import Task
from .runner import ModelCache, TaskResult, run_in_process

__all__ = ["Watch", "run_file_name", "run_sweep", "sweep_tasks"]


def run_file_name(path: str) -> str:
    """The run file's name in each setting's folder: PUZZLE's file name without its format endings, ``.json``.

    ``random-10x10-0.5-s1-0001.one-hot.qubo.json`` -> ``random-10x10-0.5-s1-0001.one-hot.json``, so
    a suite's ``evaluate`` finds its puzzle by the name's start.
    """
    return file_stem(path) + ".json"


def sweep_tasks(source: str, given: Mapping[str, Any], specs: Sequence[str], output: str) -> list[Task]:
    """Every setting of the sweep *specs* over the options *given* (``{option name: value}``, as
    :func:`nonoqubo.cli._request.given_options` reads them) as a task of the runner, writing
    ``OUTPUT/SETTING/NAME.json``; every request checked before anything is read.

    Raises:
        SolverError: a bad sweep, or a setting whose options ``solve`` refuses (``--sweep SETTING: ...``).
    """
    tasks = []
    digest = file_digest(source) if os.path.isfile(source) else None  # as solve -o records it
    for name, setting in expand(parse_sweep(specs, SWEEPABLE)):
        try:
            request = SolveRequest.from_options({**given, **setting}).check()
        except NonoquboError as exc:
            raise SolverError(f"--sweep {name}: {exc}") from None
        tasks.append(Task(model=file_stem(source), source=source, setting=name, request=request,
                          output=os.path.join(output, name, run_file_name(source)), digest=digest))
    return tasks


Watch = Callable[[Task], ContextManager[tuple[Tick | None, Step | None]]]


def run_sweep(tasks: Sequence[Task], puzzle: Any, *, watch: Watch | None = None,
              each: Callable[[Task, TaskResult], None] | None = None) -> list[TaskResult]:
    """Run the sweep's *tasks* (:func:`sweep_tasks`) on *puzzle* (read once by the caller, as
    :func:`~nonoqubo.solvers.sampling.read_for_solve` reads it) in this process, through the campaign runner;
    write each run file; their results in order.

    Every setting is prepared before the first samples (its model built, once per presolve, its warm start and
    QPU options checked against it), so a bad setting stops the sweep before anything is written.

    Args:
        watch: each task's progress display around its run (``tick``, ``step``).
        each: called with each task and its result once its run file is written.

    Raises:
        SolverError: a setting the model cannot take (``--sweep SETTING: ...``), before any sampling.
        MissingDependency, Contradiction, NoSolution, FormatError: not a setting's fault (a missing package, the
            puzzle's verdict, a model file that is not its clues' QUBO: refused before the first setting), as
            they are.
        NonoquboError: a failure while sampling, which stops the sweep.
    """
    cache = ModelCache(read=lambda task: puzzle)
    for task in tasks:
        try:
            cache.ready(task)
        except (MissingDependency, Contradiction, NoSolution):
            raise  # the puzzle's verdict, named by the caller; or a missing package
        except NonoquboError as exc:
            if not cache.reads:  # the model itself, checked before the first setting (its clues' QUBO or not)
                raise
            raise SolverError(f"--sweep {task.setting}: {exc}") from None
    by_output = {task.output: task for task in tasks}
    results: list[TaskResult] = []

    def deliver(result: TaskResult) -> None:
        os.makedirs(os.path.dirname(result.output), exist_ok=True)
        with atomic_write(result.output) as fh:
            fh.write(result.text or "")
        results.append(result)
        if each is not None:
            each(by_output[result.output], result)

    run_in_process(tasks, deliver, cache=cache, watch=watch, raises=True)
    return results
