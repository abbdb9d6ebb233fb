"""The habits the suite keeps: ``mypy nonoqubo`` and ``ruff check`` report nothing.

Both read their settings from pyproject.toml ([tool.mypy], [tool.ruff]); the
rule set and the reasons for it are written there.  Each test runs the
program as a subprocess from the repository root and fails with the
program's own report, so the message names every file and line to fix.  A
test is skipped only when its program is not installed (``pip install -e
".[dev]"`` installs both).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from tests.support import ROOT


def _run(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (pip install -e '.[dev]' installs it)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout, not an installed copy
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.slow  # about 15 s from a cold cache
def test_mypy_finds_no_error_in_the_package():
    done = _run("mypy", "nonoqubo", "--no-error-summary", "--cache-dir", os.devnull)
    assert done.returncode == 0, f"mypy nonoqubo:\n{done.stdout}{done.stderr}"


def test_ruff_finds_no_defect():
    done = _run("ruff", "check", "--no-cache", "--output-format", "concise", "nonoqubo", "tests", "benchmarks")
    assert done.returncode == 0, f"ruff check nonoqubo tests benchmarks:\n{done.stdout}{done.stderr}"
