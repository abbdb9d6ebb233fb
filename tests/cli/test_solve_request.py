"""``solve``'s options on the command line (issue 40 items 1 and 4): added from the one option table
(:data:`nonoqubo.solvers.options.OPTIONS`), each once, and read into the same request a sweep, a plan and
Python keywords make."""

from __future__ import annotations

import argparse

from nonoqubo.cli._request import add_request_options, given_options, request_of_args
from nonoqubo.solvers.options import OPTIONS
from nonoqubo.solvers.request import SolveRequest


def _cli_request(*argv: str) -> SolveRequest:
    """The request ``nonoqubo solve P ARGV`` makes, through the real ``solve`` parser."""
    from nonoqubo.cli import make_parser

    args = make_parser().parse_args(["solve", "p.non", *argv])
    return request_of_args(args)


def test_the_command_line_a_sweep_a_plan_and_python_make_one_request():
    cli = _cli_request("--reads", "20", "--seed", "3", "--beta-range", "0.5,10", "--sweeps", "200",
                       "--presolve", "probe", "--restarts", "2")
    sweep = SolveRequest.from_options({"reads": "20", "seed": "3", "beta-range": "0.5,10", "sweeps": "200",
                                       "presolve": "probe", "restarts": "2"})
    plan = SolveRequest.from_options({"sampler": "sa", "reads": 20, "seed": 3, "beta-range": "0.5,10",
                                      "sweeps": 200, "presolve": "probe", "restarts": 2})
    python = SolveRequest.of("sa", reads=20, seed=3, beta_range=(0.5, 10), sweeps=200, presolve="probe", restarts=2)
    assert cli == sweep == plan == python
    assert cli.parameters() == python.parameters()


def test_qpu_and_openjij_options_land_in_their_dicts_the_same_way():
    cli = _cli_request("--sampler", "mock-dwave", "--topology", "chimera:2", "--annealing-time", "5",
                       "--no-auto-scale")
    plan = SolveRequest.from_options({"sampler": "mock-dwave", "topology": "chimera:2", "annealing-time": 5,
                                      "auto-scale": False})
    assert cli == plan and dict(cli.options.qpu) == {"topology": "chimera:2", "annealing_time": 5.0,
                                                      "auto_scale": False}
    sqa = SolveRequest.from_options({"sampler": "openjij-sqa", "trotter": "3", "gamma": 2})
    assert dict(sqa.options.schedule) == {"trotter": 3, "gamma": 2.0}


def test_every_solve_option_of_the_table_is_on_the_command_line_once():
    from nonoqubo.cli import make_parser

    parser = make_parser()
    solve = parser.parse_args(["solve", "p.non"])._commands.load("solve")
    flags = [flag for action in solve._actions for flag in action.option_strings]
    for entry in OPTIONS.values():
        assert flags.count(entry.flag) == 1, entry.flag
    args = solve.parse_args(["p.non"])
    assert set(given_options(args)) == set(OPTIONS)  # each option read back from the command line


def test_the_request_options_of_the_command_line_come_from_the_table():
    parser = argparse.ArgumentParser()
    add_request_options(parser, ["sampling"])
    args = parser.parse_args(["--reads", "5"])
    assert args.reads == 5 and args.sampler == "sa" and args.seed is None
