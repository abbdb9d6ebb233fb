"""The grid of ``solve --sweep`` and of a plan's settings: its grammar, and the one expander (issue 31 item 3,
issue 50 item 5)."""

from __future__ import annotations

import pytest

from nonoqubo.campaign.plan import expansions
from nonoqubo.errors import SolverError
from nonoqubo.solvers.grid import expand, parse_sweep, setting_name


def test_a_grid_of_two_options_is_their_product():
    grid = parse_sweep(["beta-range=0.1,10:1,10", "--restarts=1:2"], {"beta-range", "restarts"})
    assert [name for name, _ in expand(grid)] == [
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
    (["sweeps=1:2:1"], "has the value 1 twice"),
    (["nonsense"], "OPTION=V1:V2"),
])
def test_bad_sweeps(specs, message):
    with pytest.raises(SolverError, match=message):
        parse_sweep(specs, {"sweeps"})


def test_a_file_value_is_named_by_its_file_name():
    assert setting_name({"initial-states": "/some/where/run.json"}) == "initial-states=run.json"


def test_a_plan_expands_its_settings_by_the_same_grid():
    """One expander: a plan's setting with lists is the sweep's grid, named after the setting."""
    axes = {"sweeps": [100, 1000], "presolve": [True, False]}
    grid = expand(axes)
    assert [name for name, _ in grid] == ["sweeps=100_presolve=true", "sweeps=100_presolve=false",
                                          "sweeps=1000_presolve=true", "sweeps=1000_presolve=false"]
    planned = expansions("sa", {"sampler": "sa", **axes})
    assert [(name, values) for name, values in planned] == [
        (f"sa-{name}", {"sampler": "sa", **values}) for name, values in grid]
