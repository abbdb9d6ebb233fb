"""Test fixtures: the logo and an in-process CLI runner (shared helpers are in ``tests/support``)."""

from __future__ import annotations

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
