"""Test fixtures: the logo and an in-process CLI runner (shared helpers are in ``tests/support``)."""

from __future__ import annotations

import contextlib
import io

import pytest

from nonoqubo.model.puzzle import Puzzle
from tests.support import shared_puzzle

@pytest.fixture(scope="session")
def logo() -> Puzzle:
    """The 15x15 QUBO++ logo of the case study."""
    return shared_puzzle("qbpp-logo")


@pytest.fixture
def run_cli():
    """Run ``nonoqubo ARGS`` in-process; returns (status, stdout, stderr)."""
    from nonoqubo.cli import main

    def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        old_stdin = None
        if stdin is not None:
            import sys

            old_stdin = sys.stdin
            sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()))
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    status = main([str(a) for a in argv])
                except SystemExit as exc:  # argparse errors and --help
                    status = exc.code if isinstance(exc.code, int) else 2
        finally:
            if old_stdin is not None:
                import sys

                sys.stdin = old_stdin
        return status, out.getvalue(), err.getvalue()

    return run
