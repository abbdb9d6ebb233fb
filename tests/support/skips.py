"""Every skip says how to get what it lacks (a pytest plugin, registered by ``tests/conftest.py``).

A test skipped for a missing program or package ("qbsolv is not installed", pytest's own "could
not import 'openjij'") gets the way to install it appended to its reason, from :data:`HINTS` (a
program the suite drives) or :data:`PACKAGES` (any Python package: the ``dev`` extra has them all).
A reason that says how already (``pip install``, ``apt-get``, ``build.sh``, a ``NONOQUBO_``
variable) is left as it is; so is a skip for another cause (no ``/dev/full`` on this system).

Examples:
    >>> with_hint("qbsolv is not installed")
    'qbsolv is not installed: bash third_party/solvers/build.sh DIR and put DIR on PATH (or set NONOQUBO_QBSOLV)'
    >>> with_hint("could not import 'openjij': No module named 'openjij'")
    'could not import \\'openjij\\': No module named \\'openjij\\': python -m pip install -e ".[dev]" installs it'
    >>> with_hint("this system has no /dev/full")
    'this system has no /dev/full'
"""

from __future__ import annotations

import re

import pytest

#: programs the tests drive, by a word of the skip reason (case-insensitive), and how to get each
HINTS = {
    "qbsolv": "bash third_party/solvers/build.sh DIR and put DIR on PATH (or set NONOQUBO_QBSOLV)",
    "mqlib": "bash third_party/solvers/build.sh DIR and put DIR on PATH (or set NONOQUBO_MQLIB)",
    "minizinc": "Debian: apt-get install minizinc flatzinc (MiniZinc with Gecode's fzn-gecode)",
    "glpk": "Debian: apt-get install glpk-utils (glpsol)",
    "glpsol": "Debian: apt-get install glpk-utils (glpsol)",
    "chromium": "Debian: apt-get install chromium, or set NONOQUBO_CHROMIUM to a Chromium executable",
    "cbc": 'python -m pip install -e ".[dev]" (pulp brings a CBC binary)',
    "dask": 'python -m pip install -e ".[dev]" (the distributed extra brings the dask command)',
    "gurobi": 'python -m pip install -e ".[dev]" (gurobipy, with its size-limited licence)',
    "qiskit": "python -m pip install ommx-qiskit-opt-mapper-adapter qiskit-optimization (not in any extra)",
    "amplify": "python -m pip install amplify (not in any extra)",
}
#: how to get any Python package the tests import
PACKAGES = 'python -m pip install -e ".[dev]" installs it'
#: a reason that says how to get what it lacks already
SAYS_HOW = re.compile(r"pip install|apt-get|build\.sh|NONOQUBO_\w+|installs it|brings it", re.I)
#: a reason that is about something missing
MISSING = re.compile(r"not installed|could not import|no module named|not on PATH|not found|no \w+ executable", re.I)


def with_hint(reason: str) -> str:
    """*reason* with the way to get what it lacks appended (unchanged when it says how, or lacks nothing)."""
    if SAYS_HOW.search(reason) or not MISSING.search(reason):
        return reason
    for word, hint in HINTS.items():
        if re.search(rf"\b{re.escape(word)}", reason, re.I):
            return f"{reason}: {hint}"
    return f"{reason}: {PACKAGES}"


def _hinted(report: pytest.TestReport | pytest.CollectReport) -> None:
    if report.skipped and isinstance(report.longrepr, tuple) and len(report.longrepr) == 3:
        path, line, reason = report.longrepr
        report.longrepr = (path, line, with_hint(str(reason)))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):  # type: ignore[no-untyped-def]
    """A test's skip (``pytest.skip``, ``skipif``, ``importorskip`` in the test) with its hint."""
    outcome = yield
    _hinted(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):  # type: ignore[no-untyped-def]
    """A module's skip (``importorskip`` at its top) with its hint."""
    outcome = yield
    _hinted(outcome.get_result())
