"""What the tests share: the repository's paths, the puzzle collection, and a way to hide packages.

``tests/conftest.py`` turns these into fixtures (``logo``, ``run_cli``); the
modules beside this one are the heavier helpers: ``fuzzing`` (the mutation
fuzzer), ``golden`` (the byte-identical output guard), ``qbpp_reference`` (the
QUBO++ model built in a process of its own), ``solver_runs`` (how each real
solver is run on an exported model) and ``wcag`` (the contrast ratio the report
and picture tests check colours with).
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from nonoqubo.clues import spec
from nonoqubo.model.puzzle import Puzzle

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
#: the puzzle collection kept in the repository (sources and licences in its README.md)
SHARED = DATA / "puzzles"


@lru_cache(maxsize=None)
def shared_puzzles() -> list[tuple[str, Puzzle, dict]]:
    """Every ``tests/data/puzzles/json/*.json`` as (name, Puzzle, raw document), smallest first."""
    out = []
    for path in sorted((SHARED / "json").glob("*.json")):
        doc = json.loads(path.read_text())
        out.append((path.stem, spec.from_dict(doc, source=str(path)), doc))
    out.sort(key=lambda item: item[1].width * item[1].height)
    return out


def shared_puzzle(name: str) -> Puzzle:
    """One shared puzzle by file stem."""
    for stem, puzzle, _ in shared_puzzles():
        if stem == name:
            return puzzle
    raise KeyError(name)


def hide_packages(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    """Make ``import NAME`` (and its submodules) fail, as if the packages were not installed."""
    import builtins

    real_import = builtins.__import__

    def guarded(name, globals=None, locals=None, fromlist=(), level=0):
        # only absolute imports: nonoqubo's own `from .openjij import ...` is not the package
        if level == 0 and any(name == n or name.startswith(n + ".") for n in names):
            raise ImportError(name)
        return real_import(name, globals, locals, fromlist, level)

    monkeypatch.setattr(builtins, "__import__", guarded)


def run_cli(*argv: object, stdin: str | None = None) -> tuple[int, str, str]:
    """Run ``nonoqubo ARGV`` in this process, *stdin* as its standard input; (status, stdout, stderr).

    ``tests/conftest.py``'s ``run_cli`` fixture hands out this function; module-scoped fixtures,
    which cannot take it, call it directly.
    """
    from nonoqubo.cli import main

    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main([str(a) for a in argv])
            except SystemExit as exc:  # argparse errors and --help
                status = exc.code if isinstance(exc.code, int) else 2
    finally:
        sys.stdin = old_stdin
    return status, out.getvalue(), err.getvalue()
