"""A task is done only when its run file records the same model, request and seed (issue 50, item 2).

A changed setting (weights, encoding), a run file of another model in a task's place, a model file
swapped after the suite wrote it, an index name that leaves the runs folder: each stops ``run`` in
one line (exit 2), naming both sides and the way out (``--rerun-conflicts``, ``--keep-conflicts``),
and nothing is written.  Every one of these tests fails on the code before the records package.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from nonoqubo import exports

from nonoqubo.campaign.plan import read_plan, scan

NAMES = [f"random-4x4-d0.5-s3-000{i}" for i in (1, 2)]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    from tests.support import run_cli

    root = tmp_path_factory.mktemp("identity")
    status, _, err = run_cli("suite", "--random", "4x4:0.5:2:3", "-o", root / "suite", "-f", "bqm", "-j", 1, "-q")
    assert status == 0, err
    return root / "suite"


def _plan(tmp_path: Path, suite: Path, settings: str = "sa: {sampler: sa, reads: 2, sweeps: 20}") -> Path:
    if not (tmp_path / "suite").exists():
        shutil.copytree(suite, tmp_path / "suite")
    path = tmp_path / "plan.yaml"
    path.write_text(f"suite: suite\nseeds: [1]\nsettings:\n  {settings}\n")
    return path


def _mtimes(folder: Path) -> list[int]:
    return sorted(p.stat().st_mtime_ns for p in folder.rglob("*.json"))


@pytest.mark.parametrize("first, second, what", [
    ("sa: {sampler: sa, reads: 2, sweeps: 20, weights: 'shape=1,order=1,cell=1'}",
     "sa: {sampler: sa, reads: 2, sweeps: 20, weights: 'shape=2,order=1,cell=1'}", "weights"),
    ("sa: {sampler: sa, reads: 2, sweeps: 20, encoding: domain-wall}",
     "sa: {sampler: sa, reads: 2, sweeps: 20, encoding: one-hot}", "encoding"),
])
def test_a_setting_that_changes_the_model_does_not_count_the_old_runs_as_done(tmp_path, built, run_cli,
                                                                             first, second, what):
    plan = _plan(tmp_path, built, first)
    assert run_cli("run", plan, "-j", 1, "-q")[0] == 0
    plan.write_text(plan.read_text().replace(first, second))
    before = _mtimes(tmp_path / "runs")
    status, out, err = run_cli("run", plan, "-j", 1)
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert f"({what} " in err and "in the file" in err and "in the plan" in err and "--rerun-conflicts" in err
    assert _mtimes(tmp_path / "runs") == before


def test_a_run_file_of_another_model_in_a_tasks_place_is_a_conflict(tmp_path, built, run_cli):
    plan = _plan(tmp_path, built)
    assert run_cli("run", plan, "-j", 1, "-q")[0] == 0
    runs = tmp_path / "runs" / "sa"
    a, b = (runs / f"{n}.seed1.json" for n in NAMES)
    a.write_bytes(b.read_bytes())  # the other model's run, same request and seed
    status, _, err = run_cli("run", plan, "-j", 1)
    assert status == 2 and "model sha256" in err and str(a) in err and err.count("\n") == 1


def test_rerun_conflicts_runs_them_again_and_keep_conflicts_leaves_them(tmp_path, built, run_cli):
    plan = _plan(tmp_path, built)
    assert run_cli("run", plan, "-j", 1, "-q")[0] == 0
    runs = tmp_path / "runs" / "sa"
    a, b = (runs / f"{n}.seed1.json" for n in NAMES)
    a.write_bytes(b.read_bytes())
    status, out, err = run_cli("run", plan, "-j", 1, "--keep-conflicts", "--json")
    assert status == 0, err
    assert json.loads(out)["ran"] == 0 and a.read_bytes() == b.read_bytes()  # left as it was
    assert json.loads(out)["kept_conflicts"] == [str(a)]
    found = scan(read_plan(plan))
    assert len(found.conflicts) == 1 and not found.resolved("keep").conflicts
    assert len(found.resolved("keep").kept) == 1 and len(found.resolved("rerun").todo) == 1
    status, out, err = run_cli("run", plan, "-j", 1, "--rerun-conflicts", "--json")
    assert status == 0, err
    assert json.loads(out)["ran"] == 1 and a.read_bytes() != b.read_bytes()
    found = scan(read_plan(plan))
    assert len(found.done) == 2 and not found.conflicts


def test_the_conflict_options_are_in_help(run_cli):
    status, out, _ = run_cli("run", "--help")
    assert status == 0 and "--rerun-conflicts" in out and "--keep-conflicts" in out


def test_a_swapped_model_file_is_refused(tmp_path, built, run_cli):
    plan = _plan(tmp_path, built)
    suite = tmp_path / "suite"
    (suite / f"{NAMES[0]}.bqm").write_bytes((suite / f"{NAMES[1]}.bqm").read_bytes())
    status, _, err = run_cli("run", plan, "-j", 1)
    assert status == 2 and err.count("\n") == 1 and "sha256" in err and f"{NAMES[0]}.bqm" in err
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("name", ["../../../x", "/tmp/elsewhere", "a/b", "nul\x00name", ".."])
def test_an_index_name_that_leaves_the_runs_folder_is_refused(tmp_path, built, run_cli, name):
    plan = _plan(tmp_path, built)
    index = tmp_path / "suite" / "index.json"
    doc = json.loads(index.read_text())
    doc["puzzles"][0]["name"] = name
    index.write_text(json.dumps(doc))
    status, _, err = run_cli("run", plan, "-j", 1)
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err and "name" in err
    assert not (tmp_path / "runs").exists() and not (tmp_path / "x").exists()


def test_a_run_file_of_a_version_1_record_is_read_and_counted_as_another_model(tmp_path, built, run_cli):
    """A run file written before the record had its own version (``"version": "0.1.0"``, no digest) is read:
    its model is unknown, so it is a conflict (never done), and --rerun-conflicts writes it anew."""
    plan = _plan(tmp_path, built)
    assert run_cli("run", plan, "-j", 1, "-q")[0] == 0
    path = tmp_path / "runs" / "sa" / f"{NAMES[0]}.seed1.json"
    doc = json.loads(path.read_text())
    record = doc["info"]["nonoqubo"]
    record["version"] = record.pop("nonoqubo")
    record["model"].pop("digest")
    path.write_text(json.dumps(doc))
    status, _, err = run_cli("run", plan, "-j", 1)
    assert status == 2 and "model sha256 none in the file" in err
    assert run_cli("evaluate", tmp_path / "suite", tmp_path / "runs", "-q", "-j", 1)[0] == 0


@pytest.mark.parametrize("fmt", [m.NAME for m in exports.formats()] + ["qubo-json,lp", "lp,bqm"])
def test_run_then_evaluate_works_on_a_suite_of_any_format(tmp_path, run_cli, fmt):
    """Issue 50's "done when": a suite of every export format (the registry's, each alone, and a QUBO file beside
    a constrained one in either order) runs and evaluates; a format ``solve`` cannot sample is solved from the
    entry's clue file."""
    formats = [word for f in fmt.split(",") for word in ("-f", f)]
    status, _, err = run_cli("suite", "--random", "4x4:0.5:1:3", "-o", tmp_path / "suite", *formats, "-j", 1, "-q")
    assert status == 0, err
    plan = tmp_path / "plan.yaml"
    plan.write_text("suite: suite\nseeds: [1]\nsettings:\n  sa: {sampler: sa, reads: 2, sweeps: 20}\n")
    status, _, err = run_cli("run", plan, "-j", 1, "-q")
    assert status == 0, err
    status, out, err = run_cli("evaluate", tmp_path / "suite", tmp_path / "runs", "-q", "-j", 1, "--json")
    assert status == 0, err
    assert [g["model"] for g in json.loads(out)["groups"]] == ["random-4x4-d0.5-s3-0001"]


@pytest.mark.parametrize("change", [
    lambda text: text.replace('"machine": {', '"machine": {"d": ' + "[" * 100_000 + "]" * 100_000 + ", ", 1),
    lambda text: text.replace('"presolve": false', '"presolve": 1', 1),
    lambda text: text.replace('"sampler": "sa"', '"sampler": "' + "s" * 10_000_000 + '"', 1),
])
def test_a_hostile_run_file_in_a_tasks_place_stops_run_in_one_short_line(tmp_path, built, run_cli, change):
    """Issue 54 classes 7, 8, 9 under ``run`` (and ``--dry-run``): the scan refuses the record, names the file."""
    plan = _plan(tmp_path, built)
    assert run_cli("run", plan, "-j", 1, "-q")[0] == 0
    path = tmp_path / "runs" / "sa" / f"{NAMES[0]}.seed1.json"
    path.write_text(change(path.read_text()))
    for extra in ((), ("--dry-run",)):
        status, out, err = run_cli("run", plan, "-j", 1, *extra)
        assert status == 2 and "Traceback" not in err and len(out) + len(err) < 5000 and str(path) in out + err
