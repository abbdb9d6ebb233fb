"""``nonoqubo run PLAN`` locally (issue 41): the same run files and numbers as a loop of ``solve``, resumable,
surviving a killed run and a killed worker, refusing bad plans in one line.

The Dask cluster's tests are in ``test_run_dask.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nonoqubo.campaign.plan import option_names, read_plan, scan
from nonoqubo.campaign.runner import ModelCache, execute, run_plan
from nonoqubo.errors import NonoquboError
from nonoqubo.solvers.tempering import DEFAULT_PA_REPLICAS, DEFAULT_PT_REPLICAS

from tests.support import ROOT

NAMES = [f"random-5x5-d0.5-s7-000{i}" for i in (1, 2, 3)]
PLAN = """\
suite: suite
seeds: [1, 2]
settings:
  sa: {sampler: sa, reads: 6, sweeps: [50, 200]}
  tabu: {sampler: tabu, reads: 3, time-limit: 0.005}
"""


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    from tests.support import run_cli

    root = tmp_path_factory.mktemp("run")
    status, _, err = run_cli("suite", "--random", "5x5:0.5:3:7", "-o", root / "suite", "-f", "bqm", "-j", 1, "-q")
    assert status == 0, err
    return root / "suite"


def campaign(tmp_path: Path, suite: Path, plan: str = PLAN) -> Path:
    """A plan file beside a copy of the suite."""
    shutil.copytree(suite, tmp_path / "suite")
    path = tmp_path / "plan.yaml"
    path.write_text(plan)
    return path


def samples_of(path: Path) -> dict:
    """What a run file says that a rerun must say again: its samples and its record, timing and date aside."""
    doc = json.loads(path.read_text())
    record = doc["info"]["nonoqubo"]
    for key in ("date", "timing", "machine"):
        record.pop(key)
    record["sampler_reported"].pop("timing", None)
    record["sampler_reported"].pop("timing_total", None)
    return {"sample_data": doc["sample_data"], "vectors": doc["vectors"], "record": record,
            "labels": doc["variable_labels"]}


def test_the_plan_expands_its_axes_and_seeds(tmp_path, suite):
    plan = read_plan(campaign(tmp_path, suite))
    assert list(plan.settings) == ["sa-sweeps=50", "sa-sweeps=200", "tabu"] and plan.seeds == [1, 2]
    tasks = plan.tasks()
    assert len(tasks) == 3 * 3 * 2 and [t.model for t in tasks[:6]] == [NAMES[0]] * 6  # model by model
    assert tasks[0].output == str(tmp_path / "runs" / "sa-sweeps=50" / f"{NAMES[0]}.seed1.json")
    assert plan.log == str(tmp_path / "runs.log")


def test_run_writes_what_a_loop_of_solve_writes_and_evaluate_agrees(tmp_path, suite, run_cli):
    plan = campaign(tmp_path, suite)
    status, out, err = run_cli("run", plan, "-j", 2, "-q")
    assert status == 0, out + err
    loop = tmp_path / "loop"
    for name in NAMES:
        for setting, options in (("sa-sweeps=50", ["--sweeps", "50", "--reads", "6"]),
                                 ("sa-sweeps=200", ["--sweeps", "200", "--reads", "6"]),
                                 ("tabu", ["--sampler", "tabu", "--reads", "3", "--time-limit", "0.005"])):
            for seed in (1, 2):
                target = loop / setting / f"{name}.seed{seed}.json"
                target.parent.mkdir(parents=True, exist_ok=True)
                status, _, err = run_cli("solve", tmp_path / "suite" / f"{name}.bqm", *options, "--seed", seed,
                                         "-q", "-o", target)
                assert status in (0, 1), err
                ran = tmp_path / "runs" / setting / f"{name}.seed{seed}.json"
                if setting.startswith("sa"):  # tabu's time limit makes its samples depend on the machine's speed
                    assert samples_of(ran) == samples_of(target), ran
                else:
                    assert samples_of(ran)["record"] == samples_of(target)["record"]
    figures = {}
    for folder in ("runs", "loop"):
        status, out, err = run_cli("evaluate", tmp_path / "suite", tmp_path / folder, "-q", "-j", 1, "--json")
        assert status == 0, err
        figures[folder] = {(g["model"], g["setting"]): {k: g["raw"][k] for k in ("samples", "valid", "energy_min")}
                           for g in json.loads(out)["groups"] if not g["setting"].startswith("tabu")}
    assert figures["runs"] == figures["loop"] and len(figures["runs"]) == 6


def test_a_worker_reads_each_model_once(tmp_path, suite):
    plan = read_plan(campaign(tmp_path, suite))
    cache = ModelCache()
    results = [execute(task, cache=cache) for task in plan.tasks()]
    assert all(r.error is None for r in results) and cache.reads == len(NAMES)


def test_dry_run_counts_and_writes_nothing(tmp_path, suite, run_cli):
    plan = campaign(tmp_path, suite)
    status, out, _ = run_cli("run", plan, "--dry-run")
    assert status == 0
    assert out.splitlines()[0].endswith("18 tasks (3 models x 3 settings x 2 seeds): 0 done, 18 to do; runs in "
                                        f"{tmp_path / 'runs'}")
    assert "nothing was written" in out and not (tmp_path / "runs").exists() and not (tmp_path / "runs.log").exists()
    status, out, _ = run_cli("run", plan, "--dry-run", "--json")
    report = json.loads(out)
    variables = sum(json.loads((tmp_path / "suite" / "index.json").read_text())["puzzles"][k]["variables"]
                    for k in range(3))
    row = {r["setting"]: r for r in report["settings_work"]}
    assert row["sa-sweeps=200"]["spin_updates"] == 2 * 6 * 200 * variables
    assert row["tabu"]["search_seconds"] == pytest.approx(2 * 3 * 3 * 0.005)


def test_dry_run_counts_every_state_a_read_sweeps(tmp_path, suite, run_cli):
    """sa's restarts and pt's and pa's replicas each sweep the model --sweeps times (default replicas too);
    a presolved setting counts the variables its own presolve leaves, as the index gives them."""
    plan = campaign(tmp_path, suite, """\
suite: suite
seeds: 1
settings:
  sa: {sampler: sa, reads: 2, sweeps: 10, restarts: 3}
  pt: {sampler: pt, reads: 2, sweeps: 10, replicas: [4, 6]}
  pt-default: {sampler: pt, reads: 2, sweeps: 10}
  pa-default: {sampler: pa, reads: 2, sweeps: 10}
  sa-probed: {sampler: sa, reads: 2, sweeps: 10, presolve: probe}
  sa-lined: {sampler: sa, reads: 2, sweeps: 10, presolve: line}
""")
    index_path = tmp_path / "suite" / "index.json"
    index = json.loads(index_path.read_text())
    for k, entry in enumerate(index["puzzles"]):  # what 'suite --truth' records: each presolve's count
        entry.update(variables_after_line=10 + k, variables_after_probe=k)
    index_path.write_text(json.dumps(index))
    status, out, err = run_cli("run", plan, "--dry-run", "--json")
    assert status == 0, err
    entries = index["puzzles"]
    variables = sum(e["variables"] for e in entries)
    row = {r["setting"]: r["spin_updates"] for r in json.loads(out)["settings_work"]}
    assert row["sa"] == 2 * 10 * 3 * variables
    assert (row["pt-replicas=4"], row["pt-replicas=6"]) == (2 * 10 * 4 * variables, 2 * 10 * 6 * variables)
    assert row["pt-default"] == 2 * 10 * DEFAULT_PT_REPLICAS * variables
    assert row["pa-default"] == 2 * 10 * DEFAULT_PA_REPLICAS * variables
    assert (row["sa-probed"], row["sa-lined"]) == (2 * 10 * (0 + 1 + 2), 2 * 10 * (10 + 11 + 12))


def test_a_second_run_does_only_what_is_missing(tmp_path, suite, run_cli):
    plan = campaign(tmp_path, suite)
    assert run_cli("run", plan, "-j", 1, "-q")[0] == 0
    kept = tmp_path / "runs" / "tabu" / f"{NAMES[1]}.seed2.json"
    stamp = kept.stat().st_mtime_ns
    (tmp_path / "runs" / "sa-sweeps=50" / f"{NAMES[0]}.seed1.json").unlink()
    status, out, _ = run_cli("run", plan, "-j", 1)
    assert status == 0 and "18 tasks: 17 done before, 1 run, 0 failed" in out
    assert kept.stat().st_mtime_ns == stamp
    assert "start nonoqubo" in (tmp_path / "runs.log").read_text()


def test_a_run_file_of_another_run_stops_the_plan_before_anything_runs(tmp_path, suite, run_cli):
    plan = campaign(tmp_path, suite)
    assert run_cli("run", plan, "-j", 1, "-q")[0] == 0
    plan.write_text(PLAN.replace("reads: 6", "reads: 7"))
    before = sorted(p.stat().st_mtime_ns for p in (tmp_path / "runs").rglob("*.json"))
    status, _, err = run_cli("run", plan, "-j", 1)
    assert status == 2 and "(reads 6 in the file, 7 in the plan)" in err and err.count("\n") == 1
    assert sorted(p.stat().st_mtime_ns for p in (tmp_path / "runs").rglob("*.json")) == before


def test_a_broken_model_fails_its_tasks_and_the_others_finish(tmp_path, suite, run_cli):
    plan = campaign(tmp_path, suite)
    (tmp_path / "suite" / f"{NAMES[1]}.bqm").write_bytes(b"not a model")
    index = tmp_path / "suite" / "index.json"  # the index agrees (a swapped file is refused: test_run_identity)
    doc = json.loads(index.read_text())
    for entry in doc["puzzles"]:
        for f in entry.get("files", []):
            if f["path"] == f"{NAMES[1]}.bqm":
                f["sha256"] = hashlib.sha256(b"not a model").hexdigest()
    index.write_text(json.dumps(doc))
    status, out, err = run_cli("run", plan, "-j", 2)
    assert status == 1
    assert "18 tasks: 0 done before, 12 run, 6 failed" in out
    assert f"failed: sa-sweeps=50/{NAMES[1]}.seed1: " in out and "Traceback" not in out + err
    log = (tmp_path / "runs.log").read_text()
    assert log.count("Z failed ") == 6 and log.count("Z done ") == 12


@pytest.mark.parametrize("plan_text, message", [
    ("suite: suite\nsettings: {sa: {sampler: sa}}\nworkers: 2\n", "unknown key 'workers'"),
    ("settings: {sa: {sampler: sa}}\n", "suite: missing"),
    ("suite: nowhere\nsettings: {sa: {sampler: sa}}\n", "suite: "),
    ("suite: suite\nsettings: {sa: {sampler: sa, sweep: 10}}\n", "settings.sa: 'sweep' is not an option of solve; "
                                                                 "did you mean sweeps?"),
    ("suite: suite\nsettings: {sa: {sampler: sa, reads: many}}\n", "settings.sa: reads: 'many' is not a whole number"),
    ("suite: suite\nsettings: {sa: {sampler: sa, reads: 0}}\n", "settings.sa: --reads must be at least 1, not 0"),
    ("suite: suite\nsettings: {t: {sampler: tabu, sweeps: [10, 20]}}\n",
     "settings.t-sweeps=10: --sweeps does not apply to the tabu sampler"),
    ("suite: suite\nsettings: {sa: {sampler: sa, seed: 3}}\n", "settings.sa: seed is the plan's"),
    ("suite: suite\nsettings: {sa: {sampler: sa, beta_range: '1,2'}}\n", "write it 'beta-range'"),
    ("suite: suite\nseeds: [1, 1]\nsettings: {sa: {sampler: sa}}\n", "seeds: 1 is given twice"),
    ("suite: suite\nseeds: -2\nsettings: {sa: {sampler: sa}}\n", "seeds: N means seeds 1..N"),
    ("suite: suite\nsettings: {sa: {sampler: annealer}}\n", "settings.sa: sampler: 'annealer' is not one of"),
    ("suite: suite\nmodels: 'other-*'\nsettings: {sa: {sampler: sa}}\n", "models: 'other-*' matches no model"),
    ("suite: suite\nmodels: {colour: true}\nsettings: {sa: {sampler: sa}}\n", "models: 'colour' is not a field"),
    ("suite: suite\nsettings: {a/b: {sampler: sa}}\n", "'a/b' is not a setting name"),
    ("suite: suite\nsettings: [sa]\n", "settings: a mapping of setting names"),
    ("suite: suite\nsettings: {sa: {sampler: sa\n", "plan.yaml:3:1: invalid YAML"),
])
def test_a_bad_plan_is_one_line_naming_the_file_and_the_key_and_nothing_is_written(tmp_path, suite, run_cli,
                                                                                  plan_text, message):
    plan = campaign(tmp_path, suite, plan_text)
    status, out, err = run_cli("run", plan, "-j", 1)
    assert status == 2 and out == ""
    assert err.startswith(f"nonoqubo: error: {plan}") and message in err and err.count("\n") == 1, err
    assert not (tmp_path / "runs").exists() and not (tmp_path / "runs.log").exists()


def test_a_json_plan_with_a_syntax_error_names_its_line(tmp_path, suite, run_cli):
    plan = campaign(tmp_path, suite)
    bad = tmp_path / "plan.json"
    bad.write_text('{"suite": "suite",\n "settings": {"sa": {"sampler": "sa",}}}\n')
    status, _, err = run_cli("run", bad)
    assert status == 2 and f"{bad}:2:38: invalid JSON" in err
    assert plan.exists()


def test_the_schema_takes_the_plans_nonoqubo_takes_and_names_every_option():
    jsonschema = pytest.importorskip("jsonschema")
    import yaml

    schema = json.loads((ROOT / "schemas" / "plan.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$defs"]["setting"]["propertyNames"]["enum"] == option_names()
    validator = jsonschema.Draft202012Validator(schema)
    assert not list(validator.iter_errors(yaml.safe_load(PLAN)))
    examples = [yaml.safe_load(p.read_text()) for p in sorted((ROOT / "examples").glob("*plan*.yaml"))]
    assert examples and all(not list(validator.iter_errors(e)) for e in examples)
    for bad in ({"suite": "s", "settings": {"sa": {"sweep": 1}}}, {"settings": {"sa": {}}},
                {"suite": "s", "settings": {"sa": {"reads": [[1]]}}}, {"suite": "s", "settings": {}, "x": 1}):
        assert list(validator.iter_errors(bad)), bad


def _spawn(plan: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "nonoqubo", "run", str(plan), "-q", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for(condition, seconds: float = 120.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.05)


SLOW_PLAN = """\
suite: suite
seeds: 6
settings:
  sa: {sampler: sa, reads: 10, sweeps: 4000}
"""


def test_run_killed_and_run_again_redoes_no_finished_run(tmp_path, suite):
    plan = campaign(tmp_path, suite, SLOW_PLAN)
    runs = tmp_path / "runs" / "sa"
    proc = _spawn(plan, "-j", "1")
    _wait_for(lambda: len(list(runs.glob("*.json"))) >= 3 or proc.poll() is not None)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    first = {p.name: p.stat().st_mtime_ns for p in runs.glob("*.json")}
    assert 3 <= len(first) < 18, "the run was not killed in the middle"
    for path in runs.glob("*.json"):  # every file there is whole: atomic writes
        assert json.loads(path.read_text())["info"]["nonoqubo"]["sampler"] == "sa"
    found = scan(read_plan(plan))
    assert len(found.done) == len(first) and not found.conflicts
    done = subprocess.run([sys.executable, "-m", "nonoqubo", "run", str(plan), "-j", "1"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"18 tasks: {len(first)} done before, {18 - len(first)} run, 0 failed" in done.stdout
    assert {p.name: p.stat().st_mtime_ns for p in runs.glob("*.json") if p.name in first} == first
    assert not [p for p in runs.iterdir() if ".nonoqubo-tmp-" in p.name]


def test_a_killed_local_worker_is_replaced_and_the_campaign_completes(tmp_path, suite):
    psutil = pytest.importorskip("psutil")
    plan = campaign(tmp_path, suite, SLOW_PLAN)
    runs = tmp_path / "runs" / "sa"
    proc = _spawn(plan, "-j", "2")
    parent = psutil.Process(proc.pid)
    _wait_for(lambda: len(parent.children()) >= 2 and len(list(runs.glob("*.json"))) >= 2 or proc.poll() is not None)
    victim = parent.children()[0]
    os.kill(victim.pid, signal.SIGKILL)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, out + err
    assert len(list(runs.glob("*.json"))) == 18
    assert scan(read_plan(plan)).todo == []


def test_run_plan_refuses_a_conflict_in_the_library_too(tmp_path, suite):
    plan_path = campaign(tmp_path, suite)
    plan = read_plan(plan_path)
    task = plan.tasks()[0]
    Path(task.output).parent.mkdir(parents=True)
    Path(task.output).write_text("{}")
    with pytest.raises(NonoquboError, match="is not a run file nonoqubo wrote"):
        run_plan(plan, jobs=1)


def test_a_second_run_on_the_same_runs_folder_refuses_naming_the_first(tmp_path, suite):
    """Issue 51 item 2: two runs at once never both run a task; the second says who holds the folder."""
    plan = campaign(tmp_path, suite, SLOW_PLAN)
    first = _spawn(plan, "-j", "1")
    _wait_for(lambda: (tmp_path / "runs.lock").exists() or first.poll() is not None)
    before = {p.name for p in (tmp_path / "runs").rglob("*.json")}
    second = subprocess.run([sys.executable, "-m", "nonoqubo", "run", str(plan), "-j", "1"], cwd=ROOT,
                            capture_output=True, text=True)
    assert second.returncode == 2 and second.stdout == ""
    assert second.stderr.count("\n") == 1 and f"runs.lock: {tmp_path / 'runs'} is in use by another run (pid " \
        f"{first.pid} on {os.uname().nodename}, since 20" in second.stderr, second.stderr
    first.send_signal(signal.SIGTERM)
    first.communicate(timeout=60)
    assert not (tmp_path / "runs.lock").exists()
    log = (tmp_path / "runs.log").read_text()
    assert log.count("start nonoqubo") == 1  # the second wrote nothing, ran nothing
    assert {p.name for p in (tmp_path / "runs").rglob("*.json")} >= before


def test_a_stale_lock_of_a_killed_run_is_taken_over(tmp_path, suite, run_cli):
    plan = campaign(tmp_path, suite)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # a pid that ran on this host and is gone
    (tmp_path / "runs.lock").write_text(json.dumps({"pid": dead.pid, "host": os.uname().nodename,
                                                     "since": "2026-01-01T00:00:00Z", "token": "x"}))
    status, out, err = run_cli("run", plan, "-j", 1)
    assert status == 0, err
    assert "18 run, 0 failed" in out and not (tmp_path / "runs.lock").exists()


def test_a_lock_of_another_host_is_refused_with_how_to_clear_it(tmp_path, suite, run_cli):
    plan = campaign(tmp_path, suite)
    lock = tmp_path / "runs.lock"
    lock.write_text(json.dumps({"pid": 1, "host": "node-017", "since": "2026-01-01T00:00:00Z", "token": "y"}))
    status, out, err = run_cli("run", plan, "-j", 1)
    assert status == 2 and err.count("\n") == 1
    assert "(pid 1 on node-017, since 2026-01-01T00:00:00Z)" in err and f"remove {lock}" in err
    assert lock.exists() and not (tmp_path / "runs").exists()


def test_two_takers_of_one_stale_lock_never_both_hold_it(tmp_path):
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from nonoqubo._util.lock import hold

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    path = str(tmp_path / "runs.lock")
    for _ in range(20):
        Path(path).write_text(json.dumps({"pid": dead.pid, "host": os.uname().nodename, "since": "s", "token": "z"}))
        barrier, guard, holding, most = threading.Barrier(4), threading.Lock(), [0], [0]

        def take(_: int) -> bool:
            barrier.wait()
            try:
                with hold(path, "runs"):
                    with guard:
                        holding[0] += 1
                        most[0] = max(most[0], holding[0])
                    time.sleep(0.02)
                    with guard:
                        holding[0] -= 1
                    return True
            except NonoquboError:
                return False

        with ThreadPoolExecutor(4) as threads:
            winners = list(threads.map(take, range(4)))
        assert sum(winners) >= 1 and most[0] == 1, (winners, most)
        assert not os.path.exists(path) and not os.path.exists(path + ".takeover")


# -- issue 51 item 3: every bad plan is one line, exit 2, nothing written, and fast ------------------------------
HUGE = [
    # duplicate keys, naming the key and both lines
    ("suite: suite\nsettings:\n  sa: {sampler: sa, reads: 2}\n  sa: {sampler: sa, reads: 3}\n",
     "plan.yaml:4:3: key 'sa' is given twice (lines 3 and 4)"),
    ("suite: suite\nseeds: [1]\nsettings: {sa: {sampler: sa}}\nseeds: [2]\n", "key 'seeds' is given twice (lines 2 and 4)"),
    # a product of 10^9 tasks, refused before expanding
    ("suite: suite\nseeds: 1000\nsettings:\n  sa: {sampler: sa, reads: [" + ", ".join(map(str, range(1, 1001)))
     + "], sweeps: [" + ", ".join(map(str, range(1, 1001))) + "]}\n", "expand to 1,000,000 expansions x 1,000 seeds"),
    # a 10^6-value axis
    ("suite: suite\nsettings:\n  sa: {sampler: sa, sweeps: [" + ", ".join(map(str, range(1, 1_000_001))) + "]}\n",
     "larger than 1 MB: not a plan"),
    ("{\"suite\": \"suite\", \"settings\": {\"sa\": {\"sampler\": \"sa\", \"sweeps\": ["
     + ", ".join(map(str, range(1, 100_001))) + "]}}}", "an axis of 100,000 values"),
    # a 100,001-seed list (100,000 distinct seeds x 30 settings is over the task cap)
    (json.dumps({"suite": "suite", "seeds": list(range(100_001)), "settings": {"sa": {"sampler": "sa"}}}),
     "seeds: 100,001 seeds; at most 100,000"),
    (json.dumps({"suite": "suite", "seeds": list(range(100_000)), "settings": {"sa": {"sampler": "sa",
                                                                                    "reads": list(range(1, 31))}}}),
     "expand to 30 expansions x 100,000 seeds = 3,000,000 tasks per model or more"),
    # nesting and numbers over the bounds
    ("suite: suite\nsettings: {sa: {sampler: sa, reads: " + "[" * 5000 + "]" * 5000 + "}}\n",
     "nesting deeper than 100 levels"),
    ("suite: suite\nsettings: {sa: {sampler: sa, reads: " + "9" * 5000 + "}}\n", "a number of 5000 digits is too large"),
    # NUL characters, raw or escaped
    ("suite: suite\nsettings: {sa: {sampler: sa}}\nmodels: \"random\\0x\"\n", "a NUL character"),
    ("suite: suite\nsettings: {sa: {sampler: sa}}\nmodels: 'random\0x'\n", "plan.yaml:3: a NUL character"),
]


@pytest.mark.parametrize("plan_text, message", HUGE, ids=[
    "dup-setting", "dup-seeds", "product-1e9", "axis-1e6", "axis-1e5", "seeds-100001", "seeds-x-axis", "deep", "digits",
    "nul-escaped", "nul-raw"])
def test_a_huge_or_ambiguous_plan_is_refused_fast_in_one_line(tmp_path, suite, run_cli, plan_text, message):
    plan = campaign(tmp_path, suite, plan_text)
    if plan_text.startswith("{"):  # a big plan in JSON: read in milliseconds where PyYAML takes seconds
        plan = plan.rename(plan.with_suffix(".json"))
    start = time.perf_counter()
    status, out, err = run_cli("run", plan, "-j", 1)
    assert time.perf_counter() - start < 20, "not refused fast"
    assert status == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, err[:500]
    assert err.startswith(f"nonoqubo: error: {plan}") and message in err, err[:500]
    assert not (tmp_path / "runs").exists() and not (tmp_path / "runs.log").exists()


def test_duplicate_keys_in_a_json_plan_name_both_lines(tmp_path, suite, run_cli):
    campaign(tmp_path, suite)
    plan = tmp_path / "plan.json"
    plan.write_text('{"suite": "suite",\n "settings": {"sa": {"sampler": "sa",\n   "reads": 2,\n   "reads": 3}}}\n')
    status, _, err = run_cli("run", plan)
    assert status == 2 and f"{plan}:4: key 'reads' is given twice (lines 3 and 4)" in err


@pytest.mark.parametrize("sampler, module, extra", [("cpsat", "ortools", "cp"), ("pt", "numba", "tempering"),
                                                     ("lines", "numba", "tempering"),
                                                     ("pa", "numba", "tempering")])
def test_a_sampler_whose_package_is_missing_is_refused_before_anything_runs(tmp_path, suite, run_cli, monkeypatch,
                                                                          sampler, module, extra):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == module else real(name, *a))
    plan = campaign(tmp_path, suite, f"suite: suite\nsettings:\n  chosen: {{sampler: {sampler}}}\n")
    status, _, err = run_cli("run", plan)
    assert status == 2 and err.count("\n") == 1
    assert f"settings.chosen: the '{sampler}' sampler needs the '{module}' package" in err
    assert f"nonoqubo[{extra}]" in err
    assert not (tmp_path / "runs").exists()


def test_the_log_is_never_written_onto_the_plan_file(tmp_path, suite, run_cli):
    campaign(tmp_path, suite)
    plan = tmp_path / "plan.log"
    text = "suite: suite\nruns: plan\nsettings: {sa: {sampler: sa, reads: 2}}\n"
    plan.write_text(text)
    status, _, err = run_cli("run", plan)
    assert status == 2 and "the campaign log beside" in err and "the plan file itself" in err
    assert plan.read_text() == text and not (tmp_path / "plan").exists()


def test_j_over_the_tasks_is_capped_and_said(tmp_path, suite, run_cli):
    plan = campaign(tmp_path, suite, "suite: suite\nsettings: {sa: {sampler: sa, reads: 2, sweeps: 10}}\n")
    status, out, err = run_cli("run", plan, "-j", 1_000)  # past 1,024 -j is refused (tests/cli/test_hostile_edges4.py)
    assert status == 0, err
    assert "nonoqubo: note: -j 1,000 capped at 3 (3 tasks to do)" in err and "(3 local workers)" in out


@pytest.mark.parametrize("scheduler, message", [
    ("8786", "not a scheduler's address (tcp://HOST:PORT"),
    ("tls://127.0.0.1:8786", "a tls:// scheduler needs certificates"),
    ("tcp://127.0.0.1:99999", "not a scheduler's address"),
    ("garbage", "not a scheduler file"),
])
def test_a_bad_scheduler_is_one_line_and_nothing_is_written(tmp_path, suite, run_cli, scheduler, message):
    plan = campaign(tmp_path, suite)
    if scheduler == "garbage":
        scheduler = str(tmp_path / "scheduler.json")
        Path(scheduler).write_bytes(b"\x00\xff not json {{{")
    status, out, err = run_cli("run", plan, "--scheduler", scheduler)
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err, err
    assert not (tmp_path / "runs").exists() and not (tmp_path / "runs.log").exists()
    assert not (tmp_path / "runs.lock").exists()


def test_a_scheduler_given_as_a_number_is_one_line():
    from nonoqubo.campaign.runner import scheduler_address

    with pytest.raises(NonoquboError, match="not a number"):
        scheduler_address(8786)


@pytest.mark.parametrize("change, message", [
    (lambda e: e.update(files="many"), "puzzles[0]: files: a list, not 'many'"),
    (lambda e: e.update(name="../../etc/x"), "puzzles[0]: name: a file name (no folder, no '..', no NUL)"),
    (lambda e: e.update(name="a\0b"), "puzzles[0]: name: a file name (no folder, no '..', no NUL)"),
    (lambda e: e["files"][0].update(variables="lots"), "puzzles[0]: files[0]: variables: a whole number"),
    (lambda e: e["files"][0].update(path=17), "puzzles[0]: files[0]: path: text, not 17"),
])
def test_a_suite_index_with_wrong_typed_fields_is_one_line(tmp_path, suite, run_cli, change, message):
    plan = campaign(tmp_path, suite, "suite: suite\nsettings: {sa: {sampler: sa}}\n")
    index_path = tmp_path / "suite" / "index.json"
    index = json.loads(index_path.read_text())
    change(index["puzzles"][0])
    index_path.write_text(json.dumps(index))
    status, out, err = run_cli("run", plan)
    assert status == 2 and err.count("\n") == 1 and message in err and "index.json: " in err, err
    assert not (tmp_path / "runs").exists()


def test_the_summary_counts_each_setting_and_gives_its_success_probability(tmp_path, suite, run_cli):
    """Issue 51 item 5: tasks run, skipped and failed per setting, p valid; --json for it."""
    plan = campaign(tmp_path, suite)
    broken = tmp_path / "suite" / f"{NAMES[1]}.bqm"
    broken.write_bytes(b"not a model")  # and the index says so, so its tasks run and fail (not a swapped file)
    index_path = tmp_path / "suite" / "index.json"
    index = json.loads(index_path.read_text())
    for entry in index["puzzles"]:
        for f in entry["files"]:
            if f["path"] == broken.name:
                f["sha256"] = hashlib.sha256(broken.read_bytes()).hexdigest()
    index_path.write_text(json.dumps(index))
    assert run_cli("run", plan, "-j", 1, "-q")[0] == 1
    (tmp_path / "runs" / "tabu" / f"{NAMES[0]}.seed1.json").unlink()
    status, out, _ = run_cli("run", plan, "-j", 1, "--json")
    doc = json.loads(out)
    rows = {r["setting"]: r for r in doc["settings"]}
    assert list(rows) == ["sa-sweeps=50", "sa-sweeps=200", "tabu"]
    assert (rows["tabu"]["tasks"], rows["tabu"]["skipped"], rows["tabu"]["ran"], rows["tabu"]["failed"]) == (6, 3, 1, 2)
    assert rows["sa-sweeps=50"]["ran"] == 0 and rows["sa-sweeps=50"]["p_valid"] is None
    assert rows["tabu"]["samples"] == 3 and 0 <= rows["tabu"]["valid"] <= 3  # the one tabu run of 3 reads
    assert rows["tabu"]["p_valid"] == rows["tabu"]["valid"] / 3
    status, out, _ = run_cli("run", plan, "-j", 1)
    table = out.splitlines()[1:5]
    assert table[0].split() == ["setting", "tasks", "skipped", "run", "failed", "p", "valid"]
    assert table[3].split()[:5] == ["tabu", "6", "4", "0", "2"]


def test_a_task_past_its_time_limit_is_stopped_and_fails_and_the_campaign_goes_on(tmp_path, suite, run_cli):
    """Issue 51 item 4: the plan's task-time-limit (and --task-time-limit over it), enforced by the worker."""
    plan = campaign(tmp_path, suite, """\
suite: suite
task-time-limit: 0.3
settings:
  slow: {sampler: sa, reads: 1000, sweeps: 20000}
  quick: {sampler: sa, reads: 2, sweeps: 10}
""")
    start = time.perf_counter()
    status, out, err = run_cli("run", plan, "-j", 2, "--json")
    assert status == 1, err
    assert time.perf_counter() - start < 60  # 3 slow tasks of minutes each, each stopped at 0.3 s
    doc = json.loads(out)
    rows = {r["setting"]: r for r in doc["settings"]}
    assert (rows["slow"]["failed"], rows["quick"]["ran"]) == (3, 3)
    assert all("ran past its limit of 0.3 s (task-time-limit)" in f["reason"] for f in doc["failed"])
    failed = sorted((tmp_path / "runs" / "slow").glob("*.json"))  # each a failed run file (test_run_limits.py)
    assert len(failed) == 3 and all(json.loads(f.read_text())["info"]["nonoqubo"]["failed"]["limit"] == 0.3
                                    for f in failed)
    log = (tmp_path / "runs.log").read_text()
    assert log.count("Z failed slow/") == 3 and "time limit: the task ran past its limit" in log
    status, _, err = run_cli("run", plan, "-j", 1, "--task-time-limit", "-1")
    assert status == 2 and "--task-time-limit must be a positive number of seconds" in err


@pytest.mark.parametrize("value", ["0", "-1", "forever", "[1]"])
def test_a_bad_task_time_limit_in_the_plan_is_one_line(tmp_path, suite, run_cli, value):
    plan = campaign(tmp_path, suite, f"suite: suite\ntask-time-limit: {value}\nsettings: {{sa: {{sampler: sa}}}}\n")
    status, _, err = run_cli("run", plan)
    assert status == 2 and "task-time-limit must be a positive number of seconds" in err and err.count("\n") == 1
