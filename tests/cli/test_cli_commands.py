"""The command table of ``nonoqubo.cli`` is true: every command module is in it, with its own HELP and ORDER.

``nonoqubo --help`` lists the commands from :data:`nonoqubo.cli.COMMANDS` without importing one,
so a command module that is not in the table would be a command no user can run, and a line that
differs from its module would be a help that lies.  These tests fail for either; and the top-level
help says what is true of the encodings (the registry's three) and lists every command.
"""

from __future__ import annotations

import argparse
import ast

import pytest

from nonoqubo.cli import COMMANDS, make_parser
from nonoqubo.cli._parser import Command, Commands
from tests.support import ROOT

CLI = ROOT / "nonoqubo" / "cli"


def _constants(module: str) -> dict[str, object]:
    """The module-level constants ``ORDER`` and ``HELP`` of ``nonoqubo/cli/MODULE.py``, read from its source."""
    tree = ast.parse((CLI / f"{module}.py").read_text())
    out: dict[str, object] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if node.targets[0].id in ("ORDER", "HELP"):
                out[node.targets[0].id] = ast.literal_eval(node.value)
    return out


def _command_files() -> list[str]:
    """Every command module of nonoqubo/cli: a module that is not private and defines ``register``."""
    out = []
    for path in sorted(CLI.glob("*.py")):
        if path.name.startswith("_"):
            continue
        tree = ast.parse(path.read_text())
        if any(isinstance(n, ast.FunctionDef) and n.name == "register" for n in tree.body):
            out.append(path.stem)
    return out


def _commands() -> Commands:
    found = make_parser().get_default("_commands")
    assert isinstance(found, Commands)
    return found


def test_every_command_module_is_in_the_table_and_nothing_else():
    assert sorted(c.module for c in COMMANDS) == _command_files()
    assert len({c.name for c in COMMANDS}) == len(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_a_table_line_is_its_modules_own_help_and_order(command):
    own = _constants(command.module)
    assert own == {"ORDER": command.order, "HELP": command.help}, f"nonoqubo/cli/{command.module}.py"
    assert "\n" not in command.help and command.help


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_a_table_line_loads_the_command_it_names(command):
    parser = _commands().load(command.name)
    assert parser.prog == f"nonoqubo {command.name}"
    assert callable(parser.get_default("run"))


def test_a_module_that_registers_another_command_is_caught():
    """The check can fail: a table line whose module adds a command of another name."""
    sub = argparse.ArgumentParser(prog="t").add_subparsers(action=Commands)
    sub.add_table([Command("nope", "formats", 1, "a line")], "nonoqubo.cli")
    with pytest.raises(LookupError, match="adds no command 'nope'"):
        sub.load("nope")


def test_help_lists_every_command_in_order_with_its_line(run_cli):
    status, out, _ = run_cli("--help")
    assert status == 0
    listed = [line.split()[0] for line in out.splitlines() if line.startswith("    ") and line.split()
              and line.split()[0] in {c.name for c in COMMANDS}]
    assert listed == [c.name for c in sorted(COMMANDS, key=lambda c: (c.order, c.name))]
    flat = " ".join(out.split())
    for c in COMMANDS:
        assert " ".join(c.help.split()) in flat


def test_help_names_the_three_encodings_and_the_default():
    from nonoqubo.cli import DESCRIPTION
    from nonoqubo.model.encodings import DEFAULT, encodings

    names = [e.name for e in encodings()]
    assert len(names) == 3
    for name in names:
        assert f"  {name} " in DESCRIPTION, name
    assert f"{DEFAULT.name}  the default" in DESCRIPTION
    assert "The model is the domain-wall encoding" not in DESCRIPTION


def test_an_unknown_command_names_the_commands(run_cli):
    status, _, err = run_cli("bogus")
    assert status == 2 and "invalid choice: 'bogus'" in err and "'solve'" in err
