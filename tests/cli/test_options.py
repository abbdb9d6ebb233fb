"""Every option is defined once, with one meaning (:mod:`nonoqubo.cli._options`).

Two checks: every command's parser is parsed for option strings that two commands define with
another destination, type, default or action (or another meaning: a shared option's help begins
with the table's meaning, a helper's shares its words), and the source of ``cli/`` is scanned for an
option string written in two ``add_argument`` calls.  ``--seed`` is a solve's random seed only: the
old ``--seed`` of ``embed`` and ``decode`` is a hidden alias that says the new name.
"""

from __future__ import annotations

import argparse
import ast
import re
from collections import defaultdict
from os.path import commonprefix

import pytest

from nonoqubo.cli import COMMANDS, make_parser
from nonoqubo.cli._options import CLI_OPTIONS, Deprecated
from tests.support import ROOT

CLI = ROOT / "nonoqubo" / "cli"


def _parsers() -> dict[str, argparse.ArgumentParser]:
    commands = make_parser().get_default("_commands")
    return {command.name: commands.load(command.name) for command in COMMANDS}


def _definitions() -> dict[str, list[tuple[str, argparse.Action]]]:
    """option string -> [(command, its action)] over every command (``-h`` and hidden aliases left out)."""
    found: dict[str, list[tuple[str, argparse.Action]]] = defaultdict(list)
    for command, parser in _parsers().items():
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, Deprecated)):
                continue
            for flag in action.option_strings:
                found[flag].append((command, action))
    return found


def _shape(action: argparse.Action) -> tuple:
    """What an option is, whatever a command's usage (a repeated option appends the same values)."""
    kind = type(action).__name__.replace("_AppendAction", "_StoreAction")
    return (action.dest, kind, action.type, action.default, action.const, action.nargs, tuple(action.choices or ()))


def _meaning_of(flag: str) -> str | None:
    return next((option.meaning for option in CLI_OPTIONS.values() if flag in option.flags), None)


def test_an_option_string_has_one_definition_in_every_command():
    shared = {flag: seen for flag, seen in _definitions().items() if len(seen) > 1}
    assert {"--quiet", "--json", "--output", "--jobs", "--embedding", "--topology"} <= set(shared)
    for flag, seen in shared.items():
        shapes = {_shape(action) for _, action in seen}
        assert len(shapes) == 1, f"{flag} is defined differently in {[c for c, _ in seen]}: {shapes}"
        helps = [str(action.help) for _, action in seen]
        meaning = _meaning_of(flag)
        if meaning is not None:  # one of the table's: its help begins with the one meaning
            bad = [c for (c, _), h in zip(seen, helps)
                   if h != meaning and not h.startswith((f"{meaning}: ", f"{meaning} ("))]
            assert not bad, f"{flag} in {bad} does not begin with its meaning {meaning!r}"
        else:  # a helper's: the same words, the command's own before or after them
            common = max(len(commonprefix(helps)), len(commonprefix([h[::-1] for h in helps])))
            assert common >= 30 or len(set(helps)) == 1, f"{flag} has {len(set(helps))} meanings: {helps}"


def test_a_shared_option_is_added_through_the_table_only():
    """No ``add_argument`` of cli/ but the table's names a table option; no option string in two calls."""
    table_flags = {flag for option in CLI_OPTIONS.values() for flag in option.flags}
    written: dict[str, list[str]] = defaultdict(list)
    for path in sorted(CLI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_argument":
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith("-"):
                        written[arg.value].append(f"{path.name}:{node.lineno}")
    assert not {flag: where for flag, where in written.items() if flag in table_flags}
    assert not {flag: where for flag, where in written.items() if len(where) > 1}


def test_seed_is_a_solves_random_seed_only():
    seen = _definitions()
    assert [command for command, _ in seen["--seed"]] == ["solve"]
    assert {action.dest for _, action in seen["--embed-seed"]} == {"embed_seed"}
    assert [command for command, _ in seen["--chain-break-seed"]] == ["decode"]


@pytest.mark.parametrize("command, argv, dest", [
    ("embed", ["embed", "p.non", "-t", "chimera:2", "-o", "e.json", "--seed", "4"], "embed_seed"),
    ("decode", ["decode", "m.json", "s.json", "--seed", "4"], "chain_break_seed"),
])
def test_the_old_seed_still_works_and_says_its_new_name(capsys, command, argv, dest):
    args = make_parser().parse_args(argv)
    assert getattr(args, dest) == 4
    err = capsys.readouterr().err
    new = "--embed-seed" if command == "embed" else "--chain-break-seed"
    assert f"--seed is deprecated here, say {new}" in err and len(err.strip().splitlines()) == 1, err
    usage = make_parser().get_default("_commands").load(command).format_usage()  # the options --help lists
    assert new in usage and not re.search(r"--seed\b", usage), usage


def test_the_help_teaches_meaning_then_detail(capsys):
    with pytest.raises(SystemExit):
        make_parser().parse_args(["suite", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "-q, --quiet print less: no progress bar and no summary" in shown
    assert "-j N, --jobs N worker processes, at least 1 and at most 1,024 (default: every CPU)" in shown
