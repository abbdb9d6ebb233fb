"""`evaluate --submission`: QOBLIB's own misc/check_submission.py (vendored unmodified) passes on a real
small class + SA runs with --strict-problem-match and --fail-on-checker and the class's checker; the
columns say what the runs did; bad input is one line, exit 2, nothing written."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nonoqubo.campaign import qoblib_check
from nonoqubo.campaign.qoblib_submission import COLUMNS, instance_of
from tests.support import run_cli

VENDORED = Path(__file__).resolve().parents[1] / "data" / "qoblib" / "check_submission.py"
NAMES = [f"random-5x5-d0.5-s4-000{i}" for i in (1, 2, 3)]
CHECKER_CMD = ("python {submission_root}/../../check/check_nonogram.py "
               "{submission_root}/../../instances/{instance}.non {solution}")


@pytest.fixture(scope="module")
def campaign(tmp_path_factory) -> tuple[Path, Path]:
    """A class of three 5x5 puzzles (.qs.xz models) and 40 SA reads of each, solved from the instance files."""
    root = tmp_path_factory.mktemp("submission")
    cls = root / "10-nonogram"
    status, _, err = run_cli("suite", "--layout", "qoblib", "--random", "5x5:0.5:3:4", "--compress", "xz", "-o", cls)
    assert status == 0, err
    runs = root / "runs" / "sa-40"
    runs.mkdir(parents=True)
    for name in NAMES:
        status, _, err = run_cli("solve", cls / "instances" / f"{name}.non", "--sampler", "sa", "--reads", 40,
                                 "--seed", 3, "-o", runs / f"{name}.json")
        assert status == 0, err
    return cls, runs


def _vendored(submission: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(VENDORED), "--strict-problem-match", "--fail-on-checker",
                           "--checker-cmd", CHECKER_CMD, *extra, str(submission)],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ""})


@pytest.fixture(scope="module")
def submitted(campaign) -> Path:
    cls, runs = campaign
    out = cls / "submissions" / "20261202_SA_Tester"
    status, _, err = run_cli("evaluate", cls, runs, "-q", "-j", 1, "--submission", out,
                             "--submitter", "T. Tester (Test Lab)", "--reference", "tests/campaign")
    assert status == 0, err
    return out


def test_qoblibs_own_checker_passes_the_submission(submitted):
    done = _vendored(submitted)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Summary: 3/3 instances passed, 0 failed." in done.stdout
    assert done.stdout.count("_solution.pbm: OK") == 3


def test_qoblibs_checker_fails_a_solution_that_is_no_solution(submitted, tmp_path):
    """The class's checker is really run: spoil one picture (in a copy) and the vendored script fails it."""
    import shutil

    copy = submitted.parent / "copy-spoiled"
    shutil.copytree(submitted, copy)
    try:
        pbm = copy / NAMES[0] / f"{NAMES[0]}_solution.pbm"
        grid = qoblib_check.parse_picture(pbm.read_text())
        grid[0] = [1 - c for c in grid[0]]
        pbm.write_text("P1\n5 5\n" + "\n".join(" ".join(map(str, r)) for r in grid) + "\n")
        done = _vendored(copy)
        assert done.returncode == 1 and f"[{NAMES[0]}] FAILED" in done.stdout
    finally:
        shutil.rmtree(copy)


def test_the_summary_has_qoblibs_27_columns_and_the_runs_figures(campaign, submitted):
    cls, runs = campaign
    status, out, _ = run_cli("evaluate", cls, runs, "-q", "-j", 1, "--json")
    groups = {g["model"]: g for g in json.loads(out)["groups"]}
    index = {e["name"]: e for e in json.loads((cls / "index.json").read_text())["puzzles"]}
    for name in NAMES:
        with open(submitted / name / f"{name}_summary.csv", newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            rows = list(reader)
        assert tuple(reader.fieldnames or ()) == COLUMNS and len(COLUMNS) == 27 and len(rows) == 1
        row, raw = rows[0], groups[name]["raw"]
        assert (row["Problem"], row["Submitter"], row["Reference"]) == (name, "T. Tester (Test Lab)", "tests/campaign")
        assert int(row["# Runs"]) == raw["samples"] == 40
        assert int(row["# Feasible Runs"]) == int(row["# Successful Runs"]) == raw["valid"]
        assert float(row["Best Objective Value"]) == raw["energy_min"]
        assert (row["Optimality Bound"], row["Success Threshold"], row["Algorithm Type"]) == ("0", "0", "stochastic")
        assert int(row["# Decision Variables"]) == int(row["# Binary Variables"]) == index[name]["variables"]
        assert int(row["# Non-Zero Coefficients"]) == index[name]["terms"]
        assert (row["# Integer Variables"], row["# Continuous Variables"]) == ("0", "0")
        assert float(row["CPU Runtime"]) == pytest.approx(raw["seconds_per_run"], rel=1e-5)
        assert row["Total Runtime"] == row["CPU Runtime"] and row["QPU Runtime"] == row["GPU Runtime"] == "N/A"
        assert "sampler timing" in row["Remarks"] and '"reads": 40' in row["Workflow"]
        assert row["Date"][:2] == "20" and len(row["Date"]) == 10
        series = json.loads((submitted / name / f"{name}_objective_time_series.json").read_text())
        assert len(series) == 40 and all(len(run) == 1 and set(run[0]) == {"Time", "Incumbent"} for run in series)
        assert min(run[0]["Incumbent"] for run in series) == raw["energy_min"]
        best = qoblib_check.parse_picture((submitted / name / f"{name}_solution.pbm").read_text())
        assert ["".join("#" if c else "." for c in r) for r in best] == raw["best_picture"]


def test_instance_names_of_model_files_lose_their_format_extension():
    assert instance_of("heart.qs", False) == "heart"
    assert instance_of("heart.presolved.qubo.json", False) == "heart"
    assert instance_of("heart.one-hot", True) == "heart.one-hot"


def test_bad_input_is_one_line_exit_2_and_nothing_written(campaign, tmp_path):
    cls, runs = campaign
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "keep").write_text("x")
    other = tmp_path / "other" / "sa-10"
    other.mkdir(parents=True)
    for name in NAMES[:1]:  # a second setting for one instance
        for folder in (other,):
            run_cli("solve", cls / "instances" / f"{name}.non", "--sampler", "sa", "--reads", 5, "--seed", 1,
                    "-o", folder / f"{name}.json")
    bare = tmp_path / "bare" / "hand"  # a SampleSet with no run record (made by hand, or by another program)
    bare.mkdir(parents=True)
    import dimod

    recorded = dimod.SampleSet.from_serializable(json.loads((runs / f"{NAMES[0]}.json").read_text()))
    (bare / f"{NAMES[0]}.json").write_text(json.dumps(
        dimod.SampleSet(recorded.record, recorded.variables, {}, recorded.vartype).to_serializable()))
    named = tmp_path / "named"
    named.mkdir()
    (named / "my heart.non").write_text((cls / "instances" / f"{NAMES[0]}.non").read_text())
    cases = [
        ([cls, runs, "--submission", tmp_path / "a"], "--submitter"),
        ([cls, runs, "--submission", tmp_path / "b", "--submitter", "  "], "--submitter"),
        ([cls, runs, "--submitter", "X"], "--submission"),
        ([cls, runs, "--submission", busy, "--submitter", "X"], "not empty"),
        ([named / "my heart.non", runs / f"{NAMES[0]}.json", "--submission", tmp_path / "c", "--submitter", "X"],
         "file-name-safe"),
        ([cls, runs, tmp_path / "other", "--submission", tmp_path / "d", "--submitter", "X"], "settings"),
        ([cls, tmp_path / "bare", "--submission", tmp_path / "e", "--submitter", "X"], "records no run"),
    ]
    for argv, words in cases:
        status, out, err = run_cli("evaluate", *argv, "-q", "-j", 1)
        assert status == 2 and words in err and len(err.strip().splitlines()) == 1, (argv, err)
    assert sorted(os.listdir(tmp_path)) == ["bare", "busy", "named", "other"] and os.listdir(busy) == ["keep"]
    assert not [p for p in cls.parent.iterdir() if p.name.startswith(".")]
