"""``nonoqubo run PLAN``: a campaign plan's tasks in long-lived workers, locally or on a Dask cluster.

The plan is read and checked by :func:`nonoqubo.campaign.plan.read_plan`, the runs folder scanned by
:func:`~nonoqubo.campaign.plan.scan`, and the tasks run by :func:`nonoqubo.campaign.runner.run_plan`;
this module parses, shows progress and prints.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from .._util.atomic import check_not_inputs
from .._util.jobs import workers
from ..campaign.plan import read_plan, scan
from ..campaign.runner import dry_run, dry_run_lines, run_plan
from ._options import add
from ._common import progress_stage

ORDER = 62

HELP = "run a campaign plan (models x settings x seeds) in long-lived workers, locally or on a Dask cluster"
DESCRIPTION = """\
Run every task of PLAN, a YAML or JSON file (schemas/plan.schema.json): each
model of a suite, with each setting, at each seed.  A task writes exactly the
run file 'nonoqubo solve MODEL <its options> --seed S -o FILE' writes, into
RUNS/SETTING/MODEL.seedS.json, so 'nonoqubo evaluate SUITE RUNS' gives the
same numbers as a loop of 'solve' calls, without paying the start-up of one
process per task: long-lived workers keep each model they read.

  suite: suite            # a folder 'nonoqubo suite' wrote, relative to the plan
  runs: runs              # where run files go (default: runs/ beside the plan)
  seeds: [1, 2]           # every setting once per seed (an integer N: 1..N)
  settings:               # name -> options of 'nonoqubo solve', without dashes
    sa: {sampler: sa, reads: 100, sweeps: [1000, 10000]}     # a list is an axis
    sa-hot: {sampler: sa, reads: 100, sweeps: 1000, beta-range: "0.1,5"}
    tabu: {sampler: tabu, reads: 20, time-limit: 0.05}
  models: "random-25x25-*"   # optional: names, globs, or {index field: value}
  task-time-limit: 60     # optional: seconds a task's sampling may take

Lists expand as a Cartesian product (sa above is sa-sweeps=1000 and
sa-sweeps=10000).  The whole plan is checked before any task runs, every
option exactly as 'solve' checks it: an unknown key or a bad value, a key
given twice, a plan of more than 1,000,000 tasks (10,000 expansions, 100,000
seeds), a sampler whose package is missing, is one line naming the plan file
and the key (exit status 2), and nothing is written.  A task past the
task-time-limit (or --task-time-limit) is stopped by its worker and fails (even
inside one long read: its process is killed 1 s past the limit, with -j 1 and on
Dask too); the others go on.  The summary gives, per setting, the tasks skipped, run and
failed and p valid (the share of valid pictures among the samples run now).

Resumable: a task whose run file is there and records its run is done, so
running the plan again after a crash, Ctrl-C or a killed process does only
what is missing (a killed run's temporary files are removed).  A run is its
task's only when its record names the same model (the model file's sha256,
encoding, weights, presolve), the same options and the same seed.  A run
file that records another run (the plan or the suite changed) stops the plan
before anything runs, naming both; --rerun-conflicts runs such tasks again
(their files replaced), --keep-conflicts leaves the files and counts their
tasks as not done.  A model file whose sha256 is not the one the suite's
index records, or an index name that would leave the runs folder, is refused.  A task that fails (a broken model file, an option the model cannot
take) is logged with its reason and the others finish; a worker that dies is
replaced and its tasks run again.  The campaign log is RUNS.log, beside the
runs folder.  While a run works, RUNS.lock (beside it too) names it: a second
run on the same runs folder is refused, naming the first (pid, host, since);
the lock of a run that was killed is taken over.  SIGTERM (scancel, timeout,
docker stop) stops a run as Ctrl-C does, and the workers of a killed run end
with it, even after SIGKILL.

Workers: -j N local processes (default: every CPU; -j 1 runs in this
process).  --scheduler sends the tasks to an existing Dask cluster, by its
address (tcp://host:8786) or its scheduler file (the 'distributed' extra:
pip install "nonoqubo[distributed]"; start one with 'dask scheduler' and
'dask worker ADDRESS --nthreads 1', or dask-jobqueue on SLURM/PBS/SGE).  The
workers need no shared file system: they are sent the model files and
return the run files, which this process writes; the files a setting names
(a warm start, a schedule, an embedding) must be at the same path on them.

exit status: 0 every task done, 1 some task failed (the others ran), 2 a bad
plan, run files that record other runs or a runs folder another run holds,
130 interrupted by Ctrl-C, 143 stopped by SIGTERM (run it again).

examples:
  nonoqubo suite --random 5x5:0.5:10:1 -o suite -f bqm
  nonoqubo run plan.yaml --dry-run
  nonoqubo run plan.yaml -j 2
  nonoqubo run plan.yaml --scheduler tcp://10.0.0.5:8786
  nonoqubo run plan.yaml --scheduler ~/scheduler.json
  nonoqubo evaluate suite runs --report report.html
"""


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser("run", help=HELP, description=DESCRIPTION,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("plan", metavar="PLAN", help="the campaign plan (YAML or JSON)")
    where = parser.add_mutually_exclusive_group()
    add(where, "jobs", "(local ones; default: every CPU; 1: in this process)")
    where.add_argument("--scheduler", metavar="ADDRESS|FILE",
                       help="run on an existing Dask cluster: its scheduler's address (tcp://host:8786) or "
                            "scheduler file (the 'distributed' extra)")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the tasks in all, done and to do, and the work they stand for (reads x sweeps "
                             "x variables); write nothing")
    conflicts = parser.add_mutually_exclusive_group()
    conflicts.add_argument("--rerun-conflicts", dest="conflicts", action="store_const", const="rerun",
                           help="run again every task whose run file records another run (another model file, "
                                "encoding, weights, presolve, option or seed), replacing that file")
    conflicts.add_argument("--keep-conflicts", dest="conflicts", action="store_const", const="keep",
                           help="leave such run files as they are and count their tasks as not done")
    parser.add_argument("--task-time-limit", type=float, default=None, metavar="SECONDS",
                        help="stop a task past this many seconds (at the sampler's next read; inside one read "
                             "its process is killed 1 s later: -j 1 then runs its tasks in one worker process, a "
                             "Dask task samples in a child process) and count it failed: its run "
                             "file records the failure, evaluate counts it as a failed run; the campaign goes on "
                             "(default: the plan's task-time-limit)")
    add(parser, "json", "the summary (or the dry run)")
    add(parser, "quiet", "no progress display and no summary; errors only")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    workers(args.jobs)  # -j's bound, before the plan is read: one line, exit 2
    plan = read_plan(args.plan)  # the whole plan checked first: one line, exit 2, nothing written
    # the campaign log RUNS.log is appended to: never the plan itself (a plan x.log with runs: x), nor a suite file
    check_not_inputs([("the log of runs:", plan.log)], [args.plan, plan.suite])
    if args.task_time_limit is not None:  # the limit a failed run file is weighed against (plan.scan)
        plan = dataclasses.replace(plan, task_time_limit=args.task_time_limit)
    found = scan(plan).resolved(args.conflicts)  # a conflict stops the run unless an option settles it
    if args.dry_run:
        report = dry_run(plan, found)
        if found.conflicts:
            report["conflicts"] = [{"file": t.output, "why": why} for t, why in found.conflicts]
        if found.kept:
            report["kept_conflicts"] = [t.output for t in found.kept]
        if args.json:
            print(json.dumps(report, indent=1))
        else:
            print("\n".join(dry_run_lines(report)))
            for task, why in found.conflicts[:10]:
                print(f"conflict: {task.output}: {why}")
        return 2 if found.conflicts else 0
    with progress_stage(args)(len(found.todo), "tasks", unit=" tasks", after=2.0) as tick:
        def progress(done: int, failed: int) -> None:
            tick(1)
            if failed and tick.bar is not None:
                tick.bar.set_postfix_str(f"{failed} failed", refresh=False)

        outcome = run_plan(plan, jobs=args.jobs, scheduler=args.scheduler, progress=progress, found=found,
                           stream=None if args.quiet else sys.stderr, quiet=args.quiet,
                           task_time_limit=args.task_time_limit)
    kept = [t.output for t in found.kept]  # --keep-conflicts: left as they are, not done
    if args.json:
        print(json.dumps({**outcome.to_dict(), **({"kept_conflicts": kept} if kept else {})}, indent=1))
    elif not args.quiet or outcome.failed:
        print("\n".join(outcome.lines()
                        + ([f"kept {len(kept)} run files that record other runs (not done): {kept[0]}"
                            + (" ..." if len(kept) > 1 else "")] if kept else [])))
    return outcome.exit_status
