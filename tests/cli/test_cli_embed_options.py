"""The minorminer search options are one definition, with one name each, in embed, info and suite.

``--embed-seed``, ``--embed-tries`` and ``--embed-timeout`` (:func:`nonoqubo.cli._common.add_embed_search_arguments`)
have the same help, defaults and limits everywhere; ``embed`` also takes its older names ``--tries`` and
``--timeout``, as the same options (and ``--seed``, a deprecated alias that says ``--embed-seed``); a
refusal names the option as it was typed.
"""

from __future__ import annotations

import argparse

import pytest

from nonoqubo.cli import make_parser
from tests.support import ROOT

LOGO = ROOT / "examples" / "qbpp-logo.yaml"


def parsed(*argv: str) -> argparse.Namespace:
    args, unknown = make_parser().parse_known_args(list(argv))
    assert not unknown, unknown
    return args


SEARCH = ("--embed-seed", "--embed-tries", "--embed-timeout")


def _actions(command: str) -> dict[str, argparse.Action]:
    parser = make_parser().get_default("_commands").load(command)
    return {flag: action for action in parser._actions for flag in action.option_strings}


def test_the_search_options_are_one_definition_in_every_command():
    seen = {command: _actions(command) for command in ("embed", "info", "suite")}
    for flag in SEARCH:
        shown = {(a.dest, a.type, a.default, a.help, a.metavar) for a in (seen[c][flag] for c in seen)}
        assert len(shown) == 1, f"{flag} differs between embed, info and suite: {shown}"
    embed = seen["embed"]
    for short, long in (("--tries", "--embed-tries"), ("--timeout", "--embed-timeout")):
        assert embed[short] is embed[long]  # embed's old names are the same option
        assert short not in seen["info"] and short not in seen["suite"]
    assert embed["--seed"].help == argparse.SUPPRESS and embed["--seed"].dest == "embed_seed"  # the old name, hidden


@pytest.mark.parametrize("argv", [("--seed", "3", "--tries", "2", "--timeout", "5"),
                                  ("--embed-seed", "3", "--embed-tries", "2", "--embed-timeout", "5")])
def test_embed_takes_both_names(argv, capsys):
    args = parsed("embed", "p.non", "-t", "chimera:2", "-o", "e.json", *argv)
    assert (args.embed_seed, args.embed_tries, args.embed_timeout) == (3, 2, 5.0)
    said = capsys.readouterr().err
    assert ("--seed is deprecated here, say --embed-seed" in said) == (argv[0] == "--seed"), said


@pytest.mark.parametrize("argv, said", [
    (("embed", "-o", "e.json", "--embed-seed", "-1"), "--embed-seed -1: give a whole number from 0 to 4294967295"),
    (("embed", "-o", "e.json", "--tries", "1001"), "--tries 1001: give a whole number from 1 to 1000"),
    (("info", "--embed-tries", "1001"), "--embed-tries 1001: give a whole number from 1 to 1000"),
    (("embed", "-o", "e.json", "--timeout", "86401"), "--timeout 86401: give a positive number of seconds, at most 86400"),
    (("info", "--embed-timeout", "86401"), "--embed-timeout 86401: give a positive number of seconds, at most 86400"),
])
def test_the_same_limits_everywhere_named_as_typed(run_cli, argv, said):
    command, *rest = argv
    status, out, err = run_cli(command, LOGO, "--topology", "chimera:2", *rest)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1 and said in err, err
