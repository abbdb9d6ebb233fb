"""Start-up stays light: ``--version``, ``--help`` and a plain ``info`` import none of the heavy libraries.

Each command runs in a fresh interpreter (as a user's shell runs it) that prints, after the
command, the top-level names of every module it imported.  None of :data:`HEAVY` may be among
them: they cost 0.1 to 1.5 s each to import and only some commands need them (the figures, CP-SAT,
the annealer road, OMMX, OpenJij, the docs).  The notebook pictures (``_repr_svg_``) and the
report's registration (``nonoqubo._util.notebook``) must keep it so.  The timings side by side
with ``python -c "import numpy, dimod, yaml"`` are ``benchmarks/bench_startup.py``'s.
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
