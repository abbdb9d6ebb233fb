"""Every spelling users and the docs use reads as it always did, through argparse and the options' own rules.

A negative range bound is a value (``--h-range -4,4``: argparse's own rule from 3.13, on every
Python); ``--presolve [line|probe]`` and ``suite --unique`` take the next word only when it is
theirs, so a bare switch before the puzzle keeps the puzzle; ``--beta-schedule custom FILE`` is
two words, any other kind one.
"""

from __future__ import annotations

import argparse

import pytest

from nonoqubo.cli import make_parser
from nonoqubo.cli._parser import Parser


def parsed(*argv: str) -> argparse.Namespace:
    """The namespace of ``nonoqubo ARGV`` (nothing run); no word left over."""
    args, unknown = make_parser().parse_known_args(list(argv))
    assert not unknown, unknown
    return args


@pytest.mark.parametrize("option, value", [("--h-range", "-4,4"), ("--j-range", "-1,1"), ("--h-range", "-.5,.5"),
                                           ("--j-range", "-1e-1,1")])
def test_a_negative_range_is_a_value(option, value):
    args = parsed("build", "p.non", option, value, "-o", "p.json")
    assert getattr(args, option[2:].replace("-", "_")) == value and args.puzzle == "p.non"


def test_a_negative_beta_range_is_refused_in_one_line_by_the_library(run_cli, logo_file):
    status, out, err = run_cli("solve", logo_file, "--beta-range", "-1,2", "--reads", "1")
    assert status == 2 and out == ""
    assert err.strip().splitlines() == ["nonoqubo: error: --beta-range: LO and HI must be finite and above 0, "
                                        "not -1.0,2.0"]


def test_a_negative_number_in_exponent_form_is_a_value_too(run_cli, logo_file):
    """``-1e3`` (not a number argparse 3.11 knew) reaches the library, which names the option."""
    status, out, err = run_cli("info", logo_file, "--topology", "chimera:2", "--embed-timeout", "-1e3")
    assert status == 2 and out == "" and err.strip().splitlines() == [
        "nonoqubo: error: --embed-timeout -1000: give a positive number of seconds, at most 86400 (a day)"]


def test_an_option_is_still_an_option():
    """The negative-number rule takes no option for a value: ``-q`` after ``--h-range`` is refused as before."""
    with pytest.raises(SystemExit):
        make_parser().parse_known_args(["build", "p.non", "-o", "p.json", "--h-range", "-q"])


@pytest.mark.parametrize("argv, schedule", [
    (("solve", "p.non", "--beta-schedule", "custom", "b.txt"), "custom b.txt"),
    (("solve", "--beta-schedule", "custom", "b.txt", "p.non"), "custom b.txt"),
    (("solve", "--beta-schedule", "linear", "p.non"), "linear"),
    (("solve", "p.non", "--beta-schedule", "geometric"), "geometric"),
    (("solve", "p.non", "--beta-schedule", "custom", "-q"), "custom"),
])
def test_beta_schedule_is_one_word_or_custom_file(argv, schedule):
    args = parsed(*argv)
    assert args.beta_schedule == schedule and args.puzzle == "p.non"


@pytest.mark.parametrize("argv, method, puzzle", [
    (("info", "--presolve", "p.non"), "line", "p.non"),
    (("info", "p.non", "--presolve"), "line", "p.non"),
    (("info", "p.non", "--presolve", "probe"), "probe", "p.non"),
    (("info", "--presolve", "probe", "p.non"), "probe", "p.non"),
    (("info", "p.non", "--presolve=probe"), "probe", "p.non"),
    (("info", "p.non", "--presolve", "line"), "line", "p.non"),
    (("build", "p.non", "--presolve", "-o", "out.qubo"), "line", "p.non"),
    (("solve", "--presolve", "p.non", "--seed", "1"), "line", "p.non"),
    (("info", "--presolve", "--", "probe"), "line", "probe"),  # after --, every word is positional
])
def test_presolve_takes_only_its_own_words(argv, method, puzzle):
    args = parsed(*argv)
    assert args.presolve is True and args.presolve_method == method and args.puzzle == puzzle


def test_no_presolve_is_false_and_line():
    args = parsed("build", "p.non", "-o", "out.qubo")
    assert args.presolve is False and args.presolve_method == "line" and args.output == ["out.qubo"]


def test_a_bad_presolve_is_refused_before_any_work(run_cli, logo_file):
    status, out, err = run_cli("info", logo_file, "--presolve=guess")
    assert status == 2 and out == "" and "--presolve: must be one of line, probe, not 'guess'" in err


@pytest.mark.parametrize("argv, unique, puzzles", [
    (("suite", "--unique", "puzzles/", "-o", "D"), "cpsat", ["puzzles/"]),
    (("suite", "--unique", "line", "puzzles/", "-o", "D"), "line", ["puzzles/"]),
    (("suite", "puzzles/", "--unique=hard", "-o", "D"), "hard", ["puzzles/"]),
    (("suite", "--random", "4x4:0.5:1", "--unique", "-o", "D"), "cpsat", []),
])
def test_suite_unique_takes_only_a_rule(argv, unique, puzzles):
    args = parsed(*argv)
    assert args.unique == unique and args.puzzles == puzzles


def test_a_mistyped_unique_rule_is_one_line(run_cli, tmp_path):
    status, _, err = run_cli("suite", "--random", "4x4:0.5:1", "--unique", "lines", "-o", tmp_path / "x")
    assert status == 2 and err.strip() == "nonoqubo: error: --unique must be 'cpsat', 'line' or 'hard', not 'lines'"
    assert not (tmp_path / "x").exists()


def test_the_joining_leaves_other_words_alone():
    parser = Parser(prog="t")
    parser.add_argument("--name")
    assert parser.joined(["--name", "--presolve", "x", "--", "-4,4"]) == ["--name", "--presolve", "x", "--", "-4,4"]


@pytest.fixture
def logo_file():
    from tests.support import ROOT

    return ROOT / "examples" / "qbpp-logo.yaml"
