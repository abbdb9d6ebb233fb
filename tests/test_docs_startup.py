"""Start-up stays light: ``--version``, ``--help`` and a plain ``info`` import none of the heavy libraries.

Each command runs in a fresh interpreter (as a user's shell runs it) that prints, after the
command, the top-level names of every module it imported.  None of :data:`HEAVY` may be among
them: they cost 0.1 to 1.5 s each to import and only some commands need them (the figures, CP-SAT,
the annealer road, OMMX, OpenJij, the docs).  The notebook pictures (``_repr_svg_``) and the
report's registration (``nonoqubo._util.notebook``) must keep it so.

``--version`` and ``--help`` go further: they import no command module (the command table of
:mod:`nonoqubo.cli` lists them), and no module of :data:`WORK` (the campaigns, the samplers, the
annealer road), and ``nonoqubo CMD`` imports CMD's module and no other command's.  The timings side
by side with ``python -c "import numpy, dimod, yaml"`` are ``benchmarks/bench_startup.py``'s.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.support import ROOT

#: top-level packages a start-up must not import (matplotlib, CP-SAT, minorminer, Ocean's system
#: and networkx, OMMX, OpenJij, SciPy, Sphinx, Pillow, IPython, QUBO++)
HEAVY = ("matplotlib", "ortools", "minorminer", "dwave.system", "dwave_networkx", "networkx", "ommx", "openjij",
         "scipy", "sphinx", "PIL", "IPython", "pyqbpp", "nbclient", "playwright")

#: the packages of nonoqubo that ``--version`` and ``--help`` must not import
WORK = ("nonoqubo.campaign", "nonoqubo.solvers", "nonoqubo.qpu")

PROBE = r"""
import json, sys
sys.argv = ["nonoqubo"] + json.loads(sys.argv[1])
from nonoqubo.cli import main
try:
    main()
except SystemExit:
    pass
sys.stdout.flush()
print("\n@@MODULES@@" + json.dumps(sorted(sys.modules)))
"""

COMMANDS = {
    "version": ["--version"],
    "help": ["--help"],
    "info": ["info", str(ROOT / "examples" / "qbpp-logo.yaml")],
}


def imported_by(args: list[str]) -> set[str]:
    """Every module a fresh interpreter has imported after running ``nonoqubo ARGS``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=120)
    assert "@@MODULES@@" in out.stdout, out.stderr
    return set(json.loads(out.stdout.rsplit("@@MODULES@@", 1)[1]))


def heavy_in(modules: set[str]) -> list[str]:
    """The :data:`HEAVY` names (a package or a dotted sub-package) found among *modules*."""
    return sorted(h for h in HEAVY if any(m == h or m.startswith(h + ".") for m in modules))


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_start_up_imports_nothing_heavy(name):
    modules = imported_by(COMMANDS[name])
    assert "nonoqubo" in modules
    assert not heavy_in(modules), f"nonoqubo {' '.join(COMMANDS[name])} imports {heavy_in(modules)}"


def command_modules(modules: set[str]) -> list[str]:
    """The command modules of :mod:`nonoqubo.cli` (not its ``_`` helpers) among *modules*."""
    from nonoqubo.cli import COMMANDS

    commands = {f"nonoqubo.cli.{c.module}" for c in COMMANDS}
    return sorted(m for m in modules if m in commands)


def work_in(modules: set[str]) -> list[str]:
    """The modules of :data:`WORK` among *modules*."""
    return sorted(m for m in modules if any(m == w or m.startswith(w + ".") for w in WORK))


@pytest.mark.parametrize("name", ["version", "help"])
def test_version_and_help_import_no_command_and_no_work_module(name):
    modules = imported_by(COMMANDS[name])
    assert not command_modules(modules), f"nonoqubo {COMMANDS[name][0]} imports {command_modules(modules)}"
    assert not work_in(modules), f"nonoqubo {COMMANDS[name][0]} imports {work_in(modules)}"
    assert not heavy_in(modules) and "numpy" not in modules, sorted(m for m in modules if "." not in m)


def test_a_command_imports_its_own_module_and_no_other_command():
    modules = imported_by(["formats"])
    assert command_modules(modules) == ["nonoqubo.cli.formats"]


def test_the_probes_see_a_command_and_a_work_module():
    """The checks can fail: a command module, or a module of campaign/, solvers/, qpu/, is caught."""
    assert command_modules({"nonoqubo.cli", "nonoqubo.cli._parser", "nonoqubo.cli.solve"}) == ["nonoqubo.cli.solve"]
    assert work_in({"nonoqubo.qpu.topology", "nonoqubo.qpuish", "nonoqubo.model"}) == ["nonoqubo.qpu.topology"]


def test_a_picture_after_a_plain_import_nonoqubo():
    """In a fresh interpreter (a notebook's kernel), ``import nonoqubo`` imports no renderer, and a
    Puzzle's first picture imports it and draws (``nonoqubo._util.notebook.renderers``)."""
    script = ("import sys, nonoqubo\n"
              "p = nonoqubo.Puzzle.from_picture(['#.', '.#'])\n"
              "print('render' if 'nonoqubo.answers.render' in sys.modules else 'none')\n"
              "print(p._repr_svg_()[:4])\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=120)
    assert out.stdout.split() == ["none", "<svg"], out.stderr


def test_the_probe_sees_a_heavy_import():
    """The check can fail: a module list holding matplotlib is caught."""
    assert heavy_in({"nonoqubo", "matplotlib.pyplot"}) == ["matplotlib"]
    assert heavy_in({"dwave.system.samplers"}) == ["dwave.system"]
    assert heavy_in({"dwave.samplers", "dimod"}) == []


def test_info_prints_the_logo_figures():
    """The probe runs the real command (not an import alone): its output is the logo's."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", PROBE, json.dumps(COMMANDS["info"])], capture_output=True,
                         text=True, env=env, cwd=ROOT, timeout=120)
    assert "437" in out.stdout and "2756" in out.stdout.replace(",", "")


#: the commands that judge one puzzle's answer (``decode``) or a grid (``check``): they load no module of
#: ``nonoqubo.campaign`` (whole tournament collections are ``solvers/tournament``'s)
JUDGES = {
    "decode": ["decode", str(ROOT / "examples" / "qbpp-logo.yaml"), str(ROOT / "tests" / "data" / "answers" /
                                                                         "logo.openjij.json")],
    "check": ["check", str(ROOT / "examples" / "qbpp-logo.yaml"), str(ROOT / "examples" / "qbpp-logo.answer.txt")],
}


def campaign_in(modules: set[str]) -> list[str]:
    """The modules of ``nonoqubo.campaign`` among *modules*."""
    return sorted(m for m in modules if m == "nonoqubo.campaign" or m.startswith("nonoqubo.campaign."))


@pytest.mark.parametrize("name", sorted(JUDGES))
def test_decode_and_check_import_no_campaign_module(name):
    modules = imported_by(JUDGES[name])
    assert f"nonoqubo.cli.{name}" in modules and "nonoqubo.logic.check" in modules  # the command ran
    assert not campaign_in(modules), f"nonoqubo {name} imports {campaign_in(modules)}"
    assert campaign_in({"nonoqubo.campaign", "nonoqubo.campaigner", "nonoqubo.campaign.plan"}) == [
        "nonoqubo.campaign", "nonoqubo.campaign.plan"]  # the probe can fail


def test_the_campaign_package_imports_none_of_its_modules():
    """``import nonoqubo.campaign`` loads none of its modules (the notebook renderer is named, not imported)."""
    script = "import sys, nonoqubo.campaign\nprint(sorted(m for m in sys.modules if m.startswith('nonoqubo.campaign')))"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=120)
    assert out.stdout.strip() == "['nonoqubo.campaign']", out.stdout + out.stderr
