"""The parser's own messages (:mod:`nonoqubo.cli._parser`): a misspelt option named with its likely meaning,
the usage in one line, and a plan file read as a puzzle said to be a plan (issue 53)."""

from __future__ import annotations

import pytest

from tests.support import ROOT

LOGO = ROOT / "examples" / "qbpp-logo.yaml"


def test_a_misspelt_option_is_named_with_the_one_it_resembles(run_cli, tmp_path):
    """``--ouput`` was reported as "-o/--output is required"; now "did you mean --output?" comes first."""
    status, out, err = run_cli("build", LOGO, "--ouput", tmp_path / "x.qubo")
    assert (status, out) == (2, "")
    assert err.splitlines()[-1] == "nonoqubo build: error: unrecognized argument --ouput: did you mean --output?"
    assert not (tmp_path / "x.qubo").exists()


def test_an_abbreviation_argparse_accepts_is_not_called_a_misspelling(run_cli, tmp_path):
    status, _, err = run_cli("build", LOGO, "--out", tmp_path / "x.qubo", "-q")
    assert status == 0, err
    assert (tmp_path / "x.qubo").is_file()


def test_an_option_like_no_other_is_unrecognized_as_before(run_cli):
    status, _, err = run_cli("decode", "a", "b", "--no-such-option")
    assert status == 2 and err.splitlines()[-1] == "nonoqubo decode: error: unrecognized arguments: --no-such-option"


@pytest.mark.parametrize("args", [["--sampler", "bogus"], ["--reads"], []])
def test_an_error_of_the_command_line_is_two_lines_not_the_whole_usage(run_cli, args):
    """A bad ``--sampler`` printed 26 lines of usage before the error; now one line of usage, then the error."""
    status, out, err = run_cli("solve", *(args or []), *([LOGO] if args else []))
    lines = err.splitlines()
    assert (status, out) == (2, "") and len(lines) == 2, err
    assert lines[0] == "usage: nonoqubo solve [options] PUZZLE (nonoqubo solve --help lists the options)"
    assert lines[1].startswith("nonoqubo solve: error: ")


def test_a_plan_given_as_a_puzzle_is_said_to_be_a_plan(run_cli):
    plan = ROOT / "examples" / "campaign-plan.yaml"
    for command in (["info"], ["build", "-o", "x.qubo"]):
        status, out, err = run_cli(command[0], plan, *command[1:])
        assert (status, out) == (2, "")
        assert err == (f"nonoqubo: error: {plan}: this is a campaign plan (it has 'settings' and no 'rows'), "
                       f"not a puzzle: 'nonoqubo run {plan}' runs it\n")


def test_progress_option_is_defined_once_and_taken_by_the_commands_that_show_progress(run_cli):
    from nonoqubo.cli import make_parser
    from nonoqubo.cli._common import PROGRESS_COMMANDS

    parser = make_parser()
    commands = parser._defaults["_commands"]
    for name in commands.table:
        options = commands.load(name)._option_string_actions
        assert ("--progress" in options and "--no-progress" in options) == (name in PROGRESS_COMMANDS), name
    status, _, err = run_cli("check", "--progress", "x", "y")
    assert status == 2 and "unrecognized arguments: --progress" in err
