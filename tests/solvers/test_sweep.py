"""``solve --sweep`` (issue 31 item 3): one run file per setting, in a folder named by the setting,
which ``evaluate`` shows side by side; a bad sweep is one line, exit 2, before anything runs."""

from __future__ import annotations

import json

import pytest

from nonoqubo.campaign.evaluate import evaluate, records
from nonoqubo.errors import SolverError
from nonoqubo.solvers.sweep import parse_sweep, setting_name, settings
from tests.support import SHARED

LOGO = SHARED / "json" / "qbpp-logo.json"


def test_a_grid_of_two_options_is_their_product():
    grid = parse_sweep(["beta-range=0.1,10:1,10", "--restarts=1:2"], {"beta-range", "restarts"})
    assert [setting_name(s) for s in settings(grid)] == [
        "beta-range=0.1,10_restarts=1", "beta-range=0.1,10_restarts=2",
        "beta-range=1,10_restarts=1", "beta-range=1,10_restarts=2"]


def test_a_sweep_file_in_yaml_or_json(tmp_path):
    yaml_file = tmp_path / "grid.yaml"
    yaml_file.write_text("beta-range: ['0.5,10', '1,10']\nsweeps: [100, 1000]\n")
    assert parse_sweep([str(yaml_file)], {"beta-range", "sweeps"}) == {"beta-range": ["0.5,10", "1,10"],
                                                                      "sweeps": ["100", "1000"]}
    json_file = tmp_path / "grid.json"
    json_file.write_text('{"presolve": [true, false]}')
    assert parse_sweep([str(json_file)], {"presolve"}) == {"presolve": ["true", "false"]}
    json_file.write_text('{"presolve": [true, ')
    with pytest.raises(SolverError, match="not valid JSON"):
        parse_sweep([str(json_file)], {"presolve"})


@pytest.mark.parametrize("specs, message", [
    (["beta=1:2"], "no sweepable option 'beta'"),
    (["sweeps=1:2", "sweeps=3"], "swept twice"),
    (["sweeps=1::2"], "empty value"),
    (["nonsense"], "OPTION=V1:V2"),
])
def test_bad_sweeps(specs, message):
    with pytest.raises(SolverError, match=message):
        parse_sweep(specs, {"sweeps"})


def test_a_file_value_is_named_by_its_file_name():
    assert setting_name({"initial-states": "/some/where/run.json"}) == "initial-states=run.json"


def test_cli_sweep_writes_one_run_per_setting_that_evaluate_compares(run_cli, tmp_path):
    pytest.importorskip("dwave.samplers")
    out = tmp_path / "runs"
    status, stdout, err = run_cli("solve", LOGO, "--reads", "3", "--seed", "1", "--sweeps", "100", "-q",
                                  "--sweep", "beta-range=0.1,10:1,10", "--sweep", "sampler=sa:tabu", "-o", out)
    # tabu takes no --sweeps: the sweep is refused as a whole before anything runs
    assert status == 2 and "--sweep beta-range=0.1,10_sampler=tabu: --sweeps does not apply" in err
    assert not out.exists()
    status, stdout, err = run_cli("solve", LOGO, "--reads", "3", "--seed", "1", "--sweeps", "100", "-q",
                                  "--sweep", "beta-range=0.1,10:1,10", "-o", out)
    assert status in (0, 1), err
    folders = sorted(p.name for p in out.iterdir())
    assert folders == ["beta-range=0.1,10", "beta-range=1,10"]
    for name in folders:
        params = json.loads((out / name / "qbpp-logo.json").read_text())["info"]["nonoqubo"]["parameters"]
        assert params["beta_range"] == name.split("=")[1] and params["sweeps"] == 100
        assert f"{name}: " in stdout
    groups = evaluate(str(LOGO), [str(out)])
    rows = records(groups)
    assert sorted(r["setting"] for r in rows) == folders
    assert {r["run"]["parameters"]["beta_range"] for r in rows} == {"0.1,10", "1,10"}


def test_cli_sweep_needs_a_folder_and_known_options(run_cli, tmp_path):
    status, _, err = run_cli("solve", LOGO, "-q", "--sweep", "reads=1:2")
    assert status == 2 and "give -o DIR" in err
    status, _, err = run_cli("solve", LOGO, "-q", "--sweep", "colour=1:2", "-o", tmp_path / "runs")
    assert status == 2 and "no sweepable option 'colour'" in err and err.count("\n") == 1
    assert not (tmp_path / "runs").exists()


def test_cli_sweep_json_summary(run_cli, tmp_path):
    pytest.importorskip("dwave.samplers")
    status, stdout, err = run_cli("solve", LOGO, "--reads", "2", "--seed", "3", "--sweeps", "50", "-q", "--json",
                                  "--sweep", "restarts=1:2", "-o", tmp_path / "runs")
    assert status in (0, 1), err
    summary = json.loads(stdout)["sweep"]
    assert [s["setting"] for s in summary] == ["restarts=1", "restarts=2"]
    assert all(s["num_samples"] == 2 for s in summary)
