"""Messages: every error names its file, points to the right command, and help tells the whole truth."""

from __future__ import annotations

import json

import pytest

from tests.support import SHARED
from nonoqubo.errors import MissingDependency
from nonoqubo.model.palette import BLACK_CHARS, WHITE_CHARS

LOGO = SHARED / "json" / "qbpp-logo.json"
P200 = SHARED / "json" / "gecode-p200.json"  # 25x25


def test_check_with_a_wrong_sized_grid_names_the_grid_file(run_cli, tmp_path, logo):
    grid = tmp_path / "logo-grid.txt"
    grid.write_text("\n".join(logo.solution) + "\n")
    status, out, err = run_cli("check", P200, grid)
    assert (status, out) == (2, "")
    assert err == f"nonoqubo: error: {grid}: the grid is 15x15 but the puzzle is 25x25 (width x height)\n"


def test_check_given_a_samples_file_says_to_use_decode(run_cli, tmp_path):
    samples = tmp_path / "samples.json"
    samples.write_text(json.dumps({"type": "SampleSet", "version": {"sampleset_schema": "3.2.0"}}))
    labelmap = tmp_path / "answer.json"
    labelmap.write_text(json.dumps({"y0[0][0]": 1, "z0[0][0]": 0}))
    for path in (samples, labelmap):
        status, _, err = run_cli("check", LOGO, path)
        assert status == 2 and len(err.splitlines()) == 1
        assert err.startswith(f"nonoqubo: error: {path}") and f"nonoqubo decode {LOGO} {path}" in err


def test_check_help_lists_every_accepted_character_and_speaks_of_the_grid(run_cli):
    status, out, _ = run_cli("check", "--help")
    assert status == 0
    for ch in BLACK_CHARS | WHITE_CHARS:
        assert repr(ch) in out
    assert "best sample" not in out and "draw the grid as SVG" in " ".join(out.split())


def test_a_bad_picture_character_lists_every_accepted_one(run_cli, tmp_path):
    grid = tmp_path / "g.txt"
    grid.write_text("#?\n##\n")
    status, _, err = run_cli("check", LOGO, grid)
    assert status == 2 and err.startswith(f"nonoqubo: error: {grid}:1:")
    for ch in (BLACK_CHARS | WHITE_CHARS) - {" "}:
        assert ch in err
    assert "a space" in err


@pytest.mark.parametrize("command", ["decode", "check", "solve"])
def test_image_must_be_svg_and_nothing_is_written_otherwise(run_cli, tmp_path, logo, command):
    png = tmp_path / "out.png"
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(logo.solution) + "\n")
    args = {"decode": [LOGO, grid], "check": [LOGO, grid], "solve": [LOGO, "--reads", "1"]}[command]
    status, out, err = run_cli(command, *args, "--image", png)
    assert (status, out) == (2, "")
    assert err.startswith(f"nonoqubo: error: {png}: --image writes SVG only") and len(err.splitlines()) == 1
    assert not png.exists()


@pytest.mark.parametrize("command,args", [
    ("decode", ["a", "b"]), ("check", ["a", "b"]), ("info", ["a"]), ("build", ["a", "-o", "b"]),
    ("solve", ["a"]), ("convert", ["a", "b"]),
])
def test_a_wrong_option_after_a_sub_command_prints_that_sub_commands_usage(run_cli, command, args):
    status, out, err = run_cli(command, *args, "--no-such-option")
    assert status == 2 and out == ""
    assert err.startswith(f"usage: nonoqubo {command} ")
    assert f"nonoqubo {command}: error: unrecognized arguments: --no-such-option" in err


def test_install_hints_fit_an_installed_package_and_a_clone():
    message = str(MissingDependency("dwave-samplers", "solvers", "the 'sa' sampler"))
    assert 'pip install "nonoqubo[solvers]"' in message and 'pip install -e ".[solvers]"' in message


@pytest.mark.parametrize("option,name", [("-o", "samples.json"), ("--image", "logo.svg")])
def test_solve_refuses_an_output_in_a_missing_folder_before_sampling(run_cli, tmp_path, option, name):
    target = tmp_path / "no-such-folder" / name
    status, out, err = run_cli("solve", LOGO, "--reads", "1", option, target)
    assert (status, out) == (2, "")
    assert err == f"nonoqubo: error: cannot write {target}: No such file or directory\n"
