"""Issue 51 item 4: a task past its time limit is a *failed run* that ``evaluate`` sees, not a missing one.

The runner writes, at the task's run-file path, a run file of no samples whose record (version 3) says
``failed`` (reason, seconds, limit); ``plan.scan`` counts it done (under a limit as short) and ``evaluate``
counts it per group as a failed run, its seconds in the group's time, never a success.  With ``-j N`` a
worker still inside one read past limit + :data:`~nonoqubo.campaign.runner.KILL_GRACE` is killed (the
sampler's tick, the only place the limit is looked at in-process, never comes inside a read).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from nonoqubo.campaign.evaluate import evaluate, records
from nonoqubo.campaign.plan import read_plan, scan
from nonoqubo.campaign.runner import failed_run_text
from nonoqubo.errors import RecordError
from nonoqubo.records import GroupRecord, RunFailure, RunRecord

from tests.campaign.test_run import campaign, suite  # noqa: F401  (the module's suite fixture)
from tests.support import ROOT

#: one read of this many sweeps takes minutes: only a kill stops it before it ends
STUCK = """\
suite: suite
seeds: [1]
settings:
  stuck: {sampler: sa, reads: 2, sweeps: 100000000}
  quick: {sampler: sa, reads: 4, sweeps: 50}
"""


def _nonoqubo(*args: object, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nonoqubo", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


def test_a_task_stuck_inside_one_read_is_killed_recorded_and_counted_by_evaluate(tmp_path, suite):  # noqa: F811
    plan = campaign(tmp_path, suite, STUCK)
    start = time.monotonic()
    done = _nonoqubo("run", plan, "-j", 2, "--task-time-limit", 2, "--json")
    took = time.monotonic() - start
    assert done.returncode == 1, done.stderr
    assert took < 30, f"a stuck read was not cut: {took:.1f} s"
    doc = json.loads(done.stdout)
    rows = {r["setting"]: r for r in doc["settings"]}
    assert (rows["stuck"]["failed"], rows["quick"]["ran"], rows["quick"]["failed"]) == (3, 3, 0)  # the campaign went on
    assert all("inside a read and its worker was killed" in f["reason"] for f in doc["failed"])
    files = sorted((tmp_path / "runs" / "stuck").glob("*.json"))
    assert len(files) == 3
    for path in files:
        record = RunRecord.from_dict(json.loads(path.read_text())["info"]["nonoqubo"], str(path))
        assert record.failed is not None and record.failed.limit == 2 and 2 < record.failed.seconds < 20
        assert record.sampler == "sa" and record.parameters["sweeps"] == 100000000
    # the same limit again: the failed runs are done (rerunning would fail the same way), nothing runs
    again = _nonoqubo("run", read_plan(plan).path, "-j", 2, "--task-time-limit", 2, "--json")
    assert json.loads(again.stdout)["ran"] == 0 and again.returncode == 0, again.stderr
    # evaluate sees them: a failed run per stuck group, no samples, no success, no time per run
    groups = evaluate(str(tmp_path / "suite"), [str(tmp_path / "runs")], jobs=1)
    by = {(g.model, g.setting): g for g in groups}
    stuck = [g for (_, s), g in by.items() if s == "stuck"]
    assert len(stuck) == 3 and all(g.failed_runs == 1 and g.raw.samples == 0 and g.files == 0 for g in stuck)
    for rec in records(stuck):
        assert rec["failed_runs"] == 1 and rec["raw"]["p"] == 0 and rec["raw"]["tts99"] is None
        assert GroupRecord.from_dict(rec, "e.json").failed_runs == 1
    assert all(g.failed_runs == 0 and g.raw.samples == 4 for (_, s), g in by.items() if s == "quick")
    table = _nonoqubo("evaluate", tmp_path / "suite", tmp_path / "runs", "-j", 1)
    assert table.returncode == 0, table.stderr
    assert "failed runs" in table.stdout.splitlines()[0]
    csv = _nonoqubo("evaluate", tmp_path / "suite", tmp_path / "runs", "-j", 1, "--csv", tmp_path / "e.csv", "-q")
    assert csv.returncode == 0, csv.stderr
    head, *rows_csv = (tmp_path / "e.csv").read_text().splitlines()
    at = head.split(",").index("failed_runs")
    assert sorted(r.split(",")[at] for r in rows_csv) == ["0"] * 3 + ["1"] * 3


def test_a_longer_limit_gives_a_failed_run_its_chance_again(tmp_path, suite):  # noqa: F811
    plan = read_plan(campaign(tmp_path, suite, STUCK.replace("seeds: [1]", "seeds: [1]\ntask-time-limit: 2")))
    task = next(t for t in plan.tasks() if t.setting == "stuck")
    (tmp_path / "runs" / "stuck").mkdir(parents=True)
    with open(task.output, "w") as fh:
        fh.write(failed_run_text(task, "time limit", 2.5, 2.0))
    assert task in scan(plan).done  # its identity is whole: done under the same limit
    longer = read_plan(plan.path)
    longer.task_time_limit = 5.0
    found = scan(longer)
    assert task in found.todo and not found.conflicts  # a longer limit: to do again, its file written over
    longer.task_time_limit = None
    assert task in scan(longer).todo  # no limit at all: to do


def test_a_failed_runs_seconds_are_charged_to_its_groups_time(tmp_path, suite, run_cli):  # noqa: F811
    """TTS99 stays honest: the seconds a timed-out run spent without a success enter the group's time per read."""
    plan_path = campaign(tmp_path, suite, "suite: suite\nseeds: [1, 2]\nsettings:\n  sa: {sampler: sa, reads: 4, sweeps: 50}\n")
    status, _, err = run_cli("run", plan_path, "-j", 1, "-q")
    assert status == 0, err
    plan = read_plan(plan_path)
    model = plan.models[0].name
    before = {g.model: g for g in evaluate(str(tmp_path / "suite"), [str(tmp_path / "runs")], jobs=1)}[model]
    task = next(t for t in plan.tasks() if t.model == model and t.seed == 2)
    kept = json.loads(open(task.output).read())["info"]["nonoqubo"]["timing"]["seconds_per_run"]
    with open(task.output, "w") as fh:  # seed 2 timed out instead: 0.5 s spent, no samples
        fh.write(failed_run_text(task, "time limit: past 0.4 s", 0.5, 0.4))
    after = {g.model: g for g in evaluate(str(tmp_path / "suite"), [str(tmp_path / "runs")], jobs=1)}[model]
    assert (after.files, after.failed_runs, after.raw.samples) == (1, 1, 4)
    first = (before.seconds * 8 - kept * 4) / 4  # the seconds per read of seed 1 alone
    assert after.seconds == pytest.approx((first * 4 + 0.5) / 4)
    assert after.figures()["tts99"] == pytest.approx(after.seconds * after.figures()["r99"])


def test_the_failed_field_is_version_3_and_checked():
    doc = {"version": 3, "sampler": "sa", "failed": {"reason": "time limit", "seconds": 2.5, "limit": 2}}
    assert RunRecord.from_dict(doc, "r.json").failed == RunFailure("time limit", 2.5, 2.0)
    assert RunRecord.from_dict(RunRecord.from_dict(doc, "r").to_dict(), "r").failed == RunFailure("time limit", 2.5, 2)
    assert RunRecord.from_dict({"version": 2, "sampler": "sa"}, "r.json").failed is None  # older records read as ever
    with pytest.raises(RecordError, match="r.json: run record: failed: absent from a version 2 record"):
        RunRecord.from_dict({**doc, "version": 2}, "r.json")
    with pytest.raises(RecordError, match="failed: seconds: a number of seconds"):
        RunRecord.from_dict({**doc, "failed": {"reason": "x", "seconds": -1}}, "r.json")
    with pytest.raises(RecordError, match="failed: limit: a positive number"):
        RunRecord.from_dict({**doc, "failed": {"reason": "x", "seconds": 1, "limit": True}}, "r.json")


def test_the_schemas_take_a_failed_run_and_a_groups_failed_runs():
    pytest.importorskip("jsonschema")
    from tests.support.record_schemas import validator

    run = validator("run-record")
    assert run.is_valid({"version": 3, "sampler": "sa", "failed": {"reason": "t", "seconds": 1.0, "limit": 1}})
    assert not run.is_valid({"version": 3, "sampler": "sa", "failed": {"seconds": 1.0}})
    group = validator("evaluation").schema["$defs"]["group"]["properties"]
    assert group["failed_runs"]["type"] == "integer"


#: many short reads: the sampler's tick comes often, so the limit stops it there (no kill needed)
TICKING = """\
suite: suite
seeds: [1]
task-time-limit: 0.3
settings:
  slow: {sampler: sa, reads: 100000, sweeps: 2000}
"""


def _failed_files(runs) -> list:
    return [RunRecord.from_dict(json.loads(p.read_text())["info"]["nonoqubo"], str(p)).failed
            for p in sorted(runs.glob("*.json"))]


def test_in_process_the_tick_stops_a_task_and_leaves_a_failed_run_file(tmp_path, suite, run_cli):  # noqa: F811
    plan = campaign(tmp_path, suite, TICKING)
    status, out, err = run_cli("run", plan, "-j", 1, "--json")
    assert status == 1, err
    failed = _failed_files(tmp_path / "runs" / "slow")
    assert len(failed) == 3 and all(f is not None and "was stopped after" in f.reason and f.limit == 0.3
                                    for f in failed)


def test_on_dask_the_tick_stops_a_task_and_leaves_a_failed_run_file(tmp_path, suite, run_cli):  # noqa: F811
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    plan = campaign(tmp_path, suite, TICKING)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=40) as cluster:
        status, out, err = run_cli("run", plan, "--scheduler", cluster.scheduler_address, "-q")
    assert status == 1, out + err
    failed = _failed_files(tmp_path / "runs" / "slow")
    assert len(failed) == 3 and all(f is not None and f.limit == 0.3 for f in failed)
    assert len(scan(read_plan(plan)).done) == 3
