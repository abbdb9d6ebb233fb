"""Issue 51 item 4, everywhere: a task stuck inside one read (a C loop that holds the GIL, where the sampler's
tick never comes) is cut a second past its time limit at ``-j 1`` and on Dask too, as with ``-j N``.

``-j 1`` with a limit runs its tasks in one worker process the command kills past limit + ``KILL_GRACE``;
a Dask task samples in a child process (``_util.workers.watched``) that the task kills.  Each ends with the
failed run file ``evaluate`` counts as a failed run.  Real processes throughout: the command, its worker,
the cluster this test starts and stops.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from nonoqubo._util.workers import Overran, watched
from nonoqubo.campaign.evaluate import evaluate
from nonoqubo.records import RunRecord

from tests.campaign.test_run import campaign, suite  # noqa: F401  (the module's suite fixture)
from tests.support import ROOT

#: one read of 10^8 sweeps takes minutes: only a kill ends it before that
STUCK = """\
suite: suite
seeds: [1]
settings:
  stuck: {sampler: sa, reads: 1, sweeps: 100000000}
  quick: {sampler: sa, reads: 4, sweeps: 50}
"""


def _run(*args: object) -> tuple[subprocess.CompletedProcess, float]:
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "nonoqubo", "run", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    return done, time.monotonic() - start


def _check_failed_runs(tmp_path, done: subprocess.CompletedProcess, killed: str) -> None:
    assert done.returncode == 1, done.stdout + done.stderr
    doc = json.loads(done.stdout)
    rows = {r["setting"]: r for r in doc["settings"]}
    assert (rows["stuck"]["failed"], rows["quick"]["ran"], rows["quick"]["failed"]) == (3, 3, 0)
    assert all(f"inside a read and its {killed} was killed" in f["reason"] for f in doc["failed"]), doc["failed"]
    files = sorted((tmp_path / "runs" / "stuck").glob("*.json"))
    assert len(files) == 3
    for path in files:
        record = RunRecord.from_dict(json.loads(path.read_text())["info"]["nonoqubo"], str(path))
        assert record.failed is not None and record.failed.limit == 2 and 2 < record.failed.seconds < 10
    groups = evaluate(str(tmp_path / "suite"), [str(tmp_path / "runs")], jobs=1)
    stuck = [g for g in groups if g.setting == "stuck"]
    assert len(stuck) == 3 and all(g.failed_runs == 1 and g.raw.samples == 0 for g in stuck)


def test_at_j1_a_read_past_the_limit_is_cut_and_its_failed_run_file_written(tmp_path, suite):  # noqa: F811
    plan = campaign(tmp_path, suite, STUCK)
    done, took = _run(plan, "-j", 1, "--task-time-limit", 2, "--json")
    # three stuck tasks one after another, each killed 1 s past its 2 s (a read is minutes), plus the start-up
    assert took < 3 * 3 + 20, f"a stuck read was not cut at -j 1: {took:.1f} s"
    _check_failed_runs(tmp_path, done, "worker")


def test_on_dask_a_read_past_the_limit_is_cut_and_its_failed_run_file_written(tmp_path, suite):  # noqa: F811
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    plan = campaign(tmp_path, suite, STUCK)
    # two threads per worker: the child is forked from a threaded process, and two stuck tasks may run at once
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=True, dashboard_address=None,
                      silence_logs=40) as cluster:
        done, took = _run(plan, "--scheduler", cluster.scheduler_address, "--task-time-limit", 2, "--json", "-q")
        workers = [w.pid for w in cluster.workers.values() if getattr(w, "pid", None)]
        time.sleep(0.5)
        assert workers, "the cluster's worker processes were not found"
        children = subprocess.run(["ps", "-o", "pid=", "--ppid", ",".join(map(str, workers))], capture_output=True,
                                  text=True).stdout.split()
    assert took < 3 * 3 + 30, f"a stuck read was not cut on Dask: {took:.1f} s"
    assert not children, f"a sampling child outlived its task: {children}"
    _check_failed_runs(tmp_path, done, "process")


# -- the watch itself ----------------------------------------------------------------------------------------

def _sleepy(item: float, mark) -> float:
    mark(time.perf_counter())
    time.sleep(item)  # a stand-in for a read that never looks at the clock
    return item


def test_watched_kills_the_call_past_its_limit_and_goes_on_in_a_new_child():
    start = time.monotonic()
    got = watched(_sleepy, [0.0, 30.0, 0.1, 0.0], limit=0.5, grace=0.5)
    assert time.monotonic() - start < 10
    assert got[0] == 0.0 and got[2:] == [0.1, 0.0]
    assert isinstance(got[1], Overran) and 1.0 <= got[1].seconds < 5


def test_watched_counts_only_from_the_mark():
    def slow_start(item: float, mark) -> str:
        time.sleep(item)  # reading a model: not the task's time
        mark(time.perf_counter())
        return "sampled"

    assert watched(slow_start, [1.5], limit=0.2, grace=0.2) == ["sampled"]


def test_watched_says_when_its_child_dies_otherwise():
    def dies(item: int, mark) -> int:
        os.kill(os.getpid(), signal.SIGKILL)
        return item

    with pytest.raises(ChildProcessError, match="before it gave a result"):
        watched(dies, [1], limit=5)
