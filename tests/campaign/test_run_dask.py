"""``nonoqubo run PLAN --scheduler`` on a Dask cluster the test starts itself (issue 41): the same run files as
a local run, and a campaign that completes when one of the cluster's workers is killed mid-task.

Each test ends only the processes it started.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nonoqubo.campaign.plan import read_plan, scan

from tests.campaign.test_run import NAMES, campaign, samples_of
from tests.support import ROOT, hide_packages

distributed = pytest.importorskip("distributed", reason="the 'distributed' extra (dask) is not installed")

PLAN = """\
suite: suite
seeds: [1, 2]
settings:
  sa: {sampler: sa, reads: 6, sweeps: [50, 200]}
  sa-probe: {sampler: sa, reads: 4, sweeps: 100, presolve: probe}
"""
SLOW_PLAN = """\
suite: suite
seeds: 8
settings:
  sa: {sampler: sa, reads: 10, sweeps: 4000}
"""


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    from tests.support import run_cli

    root = tmp_path_factory.mktemp("dask")
    status, _, err = run_cli("suite", "--random", "5x5:0.5:3:7", "-o", root / "suite", "-f", "bqm", "-j", 1, "-q")
    assert status == 0, err
    return root / "suite"


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of two single-threaded worker processes."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=40) as made:
        yield made


def test_a_dask_cluster_writes_the_run_files_a_local_run_writes(tmp_path, suite, cluster, run_cli):
    plan = campaign(tmp_path / "dask", suite, PLAN)
    status, out, err = run_cli("run", plan, "--scheduler", cluster.scheduler_address)
    assert status == 0, out + err
    assert "18 tasks: 0 done before, 18 run, 0 failed" in out and "Dask cluster" in out
    local = campaign(tmp_path / "local", suite, PLAN)
    assert run_cli("run", local, "-j", 1, "-q")[0] == 0
    files = sorted((tmp_path / "local" / "runs").rglob("*.json"))
    assert len(files) == 3 * 3 * 2
    for path in files:
        other = tmp_path / "dask" / "runs" / path.relative_to(tmp_path / "local" / "runs")
        assert samples_of(other) == samples_of(path), other
    status, out, _ = run_cli("run", plan, "--scheduler", cluster.scheduler_address)  # resumed: nothing to do
    assert status == 0 and "18 tasks: 18 done before, 0 run, 0 failed" in out


def _start(*argv: str, log: Path) -> subprocess.Popen:
    return subprocess.Popen(list(argv), stdout=open(log, "w"), stderr=subprocess.STDOUT, cwd=ROOT,
                            start_new_session=True)


def _wait_for(condition, seconds: float = 120.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.05)


def test_a_worker_killed_mid_campaign_its_tasks_run_elsewhere(tmp_path, suite):
    """`dask scheduler` and two `dask worker` processes (no nanny: a killed worker stays dead)."""
    dask = shutil.which("dask", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    if dask is None:
        pytest.skip("the dask command (the 'distributed' extra) is not on PATH")
    started: list[subprocess.Popen] = []
    scheduler_file = tmp_path / "scheduler.json"
    try:
        started.append(_start(dask, "scheduler", "--scheduler-file", str(scheduler_file), "--port", "0",
                              "--dashboard-address", ":0", "--no-show", log=tmp_path / "scheduler.log"))
        _wait_for(scheduler_file.exists)
        for k in range(2):
            started.append(_start(dask, "worker", "--scheduler-file", str(scheduler_file), "--nthreads", "1",
                                  "--no-nanny", "--no-dashboard", "--name", f"w{k}", log=tmp_path / f"w{k}.log"))
        from distributed import Client

        with Client(scheduler_file=str(scheduler_file), timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        plan = campaign(tmp_path / "dask", suite, SLOW_PLAN)
        runs = tmp_path / "dask" / "runs" / "sa"
        proc = subprocess.Popen([sys.executable, "-m", "nonoqubo", "run", str(plan), "-q", "--scheduler",
                                 str(scheduler_file)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        _wait_for(lambda: len(list(runs.glob("*.json"))) >= 2 or proc.poll() is not None)
        assert proc.poll() is None, "the campaign ended before a worker could be killed"
        os.kill(started[1].pid, signal.SIGKILL)  # worker w0, in the middle of a task
        started[1].wait()
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, out + err
        assert len(list(runs.glob("*.json"))) == 3 * 8 and not scan(read_plan(plan)).todo
        local = campaign(tmp_path / "local", suite, SLOW_PLAN)
        done = subprocess.run([sys.executable, "-m", "nonoqubo", "run", str(local), "-q", "-j", "1"], cwd=ROOT,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        for name in NAMES:
            for seed in range(1, 9):
                a = runs / f"{name}.seed{seed}.json"
                assert samples_of(a) == samples_of(tmp_path / "local" / "runs" / "sa" / a.name)
        log = (tmp_path / "dask" / "runs.log").read_text()
        assert log.count("Z done ") == 24 and " failed " not in log.replace("0 failed", "")
    finally:
        for p in reversed(started):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)


def test_an_unreachable_scheduler_is_one_line(tmp_path, suite, run_cli):
    plan = campaign(tmp_path, suite, PLAN)
    status, out, err = run_cli("run", plan, "--scheduler", "tcp://127.0.0.1:9")
    assert status == 2 and "--scheduler tcp://127.0.0.1:9: cannot reach the Dask scheduler" in err
    assert err.count("\n") == 1 and not (tmp_path / "runs").exists()


def test_without_distributed_the_hint_names_the_extra(tmp_path, suite, run_cli, monkeypatch):
    plan = campaign(tmp_path, suite, PLAN)
    hide_packages(monkeypatch, "distributed")
    status, _, err = run_cli("run", plan, "--scheduler", "tcp://127.0.0.1:9")
    assert status == 2 and 'pip install "nonoqubo[distributed]"' in err, err


def test_scheduler_and_jobs_are_one_or_the_other(tmp_path, suite, run_cli):
    plan = campaign(tmp_path, suite, PLAN)
    status, _, err = run_cli("run", plan, "--scheduler", "tcp://127.0.0.1:9", "-j", 2)
    assert status == 2 and "not allowed with argument" in err


def test_q_silences_dask_and_batches_give_the_same_files_in_a_subprocess(tmp_path, suite, cluster):
    """Issue 51 items 6-7: under -q a cluster run prints nothing at all (Dask's log and warnings included);
    tasks sent in batches still give every run file, each whole."""
    plan = campaign(tmp_path, suite, PLAN.replace("seeds: [1, 2]", "seeds: 6"))
    done = subprocess.run([sys.executable, "-m", "nonoqubo", "run", str(plan), "-q", "--scheduler",
                           cluster.scheduler_address], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == "", done.stderr
    assert len(list((tmp_path / "runs").rglob("*.json"))) == 3 * 3 * 6
    assert scan(read_plan(plan)).todo == []


def test_batches_are_of_one_model_and_leave_every_worker_several():
    from nonoqubo.campaign.runner import BATCH, batches

    plan_tasks = [type("T", (), {"source": f"m{k // 100}", "key": str(k)})() for k in range(300)]
    made = batches(plan_tasks, 2)
    assert [t.key for b in made for t in b] == [str(k) for k in range(300)]
    assert all(len({t.source for t in b}) == 1 for b in made)
    assert max(len(b) for b in made) <= min(BATCH, 300 // 8) and len(made) >= 8
    assert len(batches(plan_tasks[:5], 2)) == 5  # few tasks: one each


def _lost(*args, **kwargs):
    raise RuntimeError("the batch's data was lost")


def test_a_batch_the_cluster_fails_is_sent_again_task_by_task_then_failed(tmp_path, suite, monkeypatch):
    """The results come back with as_completed(with_results=True): a batch that errs on the cluster (not a task's
    failure: execute never raises) is sent again one task at a time, each up to ATTEMPTS times, then failed with
    the cluster's reason; nothing is written for it.  Its models are scattered again (they may have gone)."""
    from distributed import Client, LocalCluster

    from nonoqubo.campaign import runner

    plan = campaign(tmp_path, suite, "suite: suite\nseeds: 4\nsettings:\n  sa: {sampler: sa, reads: 2, sweeps: 20}\n")
    sent: list[int] = []
    monkeypatch.setattr(runner, "execute_batch", _lost)  # in-process workers: the patched function runs there
    real_scatter = Client.scatter

    def counting(self, data, *args, **kwargs):
        sent.append(len(data))
        return real_scatter(self, data, *args, **kwargs)

    monkeypatch.setattr(Client, "scatter", counting)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://", dashboard_address=None,
                      silence_logs=40) as local:
        outcome = runner.run_plan(read_plan(plan), scheduler=local.scheduler_address, quiet=True)
    assert outcome.ran == 0 and len(outcome.failed) == 3 * 4
    assert all(reason == "the Dask cluster could not run it (RuntimeError: the batch's data was lost)"
               for _, reason in outcome.failed), outcome.failed[:2]
    assert sent[0] == 3  # every model in the first scatter, then again after the failures
    assert len(sent) > 1
    assert not list((tmp_path / "runs").rglob("*.json"))
