"""Test fixtures: the logo and an in-process CLI runner (shared helpers are in ``tests/support``).

And the guard of the ``slow`` marker: with ``NONOQUBO_CHECK_SLOW=1`` a test whose call
takes longer than ``NONOQUBO_SLOW_SECONDS`` (10) without ``@pytest.mark.slow`` fails,
naming its time, so ``-m "not slow"`` stays the quick run it claims to be::

    NONOQUBO_CHECK_SLOW=1 python -m pytest -q

Only the call is timed (a module fixture's setup lands on whichever test comes first).
"""

from __future__ import annotations

import os

import pytest

from nonoqubo.model.puzzle import Puzzle
from tests.support import run_cli as support_run_cli, shared_puzzle


@pytest.fixture(scope="session")
def logo() -> Puzzle:
    """The 15x15 QUBO++ logo of the case study."""
    return shared_puzzle("qbpp-logo")


@pytest.fixture
def run_cli():
    """Run ``nonoqubo ARGS`` in-process; returns (status, stdout, stderr) (:func:`tests.support.run_cli`)."""
    return support_run_cli


SLOW_LIMIT = pytest.StashKey["float | None"]()


def slow_limit() -> float | None:
    """Seconds a test without the slow marker may take, or None when the guard is off (read from the environment)."""
    if os.environ.get("NONOQUBO_CHECK_SLOW", "") in ("", "0"):
        return None
    return float(os.environ.get("NONOQUBO_SLOW_SECONDS", "10"))


def pytest_configure(config):
    """Read the guard's limit once, when the session starts (a test changing the environment cannot move it)."""
    config.stash[SLOW_LIMIT] = slow_limit()
    from tests.support.record_schemas import install

    install()  # every run record, suite index and group record a test writes is held to its schema
    config.pluginmanager.import_plugin("tests.support.skips")  # every skip says how to get what it lacks


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Fail a passing call that overran the session's :func:`slow_limit` and is not marked slow."""
    outcome = yield
    report = outcome.get_result()
    limit = item.config.stash.get(SLOW_LIMIT, None)
    if (limit is not None and report.when == "call" and report.passed
            and report.duration > limit and item.get_closest_marker("slow") is None):
        report.outcome = "failed"
        report.longrepr = (f"{item.nodeid} took {report.duration:.1f} s (more than {limit:g} s) "
                           f"without @pytest.mark.slow: mark it, or make it faster")
