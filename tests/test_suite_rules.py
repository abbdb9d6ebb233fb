"""Rules of the test suite itself: tests that can fail, and a slow marker that stays true.

* No test module skips on ``pytest.importorskip("nonoqubo...")``: an import error of our own
  code must fail the suite, not vanish as a skip (third-party extras may still be skipped).
* No ``@settings`` without ``@given``: Hypothesis settings on a plain test change nothing.
* The conftest guard (``NONOQUBO_CHECK_SLOW=1``) fails an unmarked test that overruns its
  limit, and leaves a marked one alone.

The first two read the test files' syntax trees (strings in comments or docstrings do not count).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
pytest_plugins = ["pytester"]


@functools.cache
def _test_trees() -> list[tuple[Path, ast.AST]]:
    """Every Python file under tests/ but this one, parsed once."""
    return [(p, ast.parse(p.read_text())) for p in sorted(TESTS.rglob("*.py")) if p.name != "test_suite_rules.py"]


def _call_name(node: ast.AST) -> str:
    """``pytest.importorskip`` for a call or decorator node (its dotted function name)."""
    func = node.func if isinstance(node, ast.Call) else node
    return ast.unparse(func)


def _own_importorskips(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and _call_name(node).endswith("importorskip") and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                and node.args[0].value.split(".")[0] in ("nonoqubo", "tests")):
            found.append((node.lineno, node.args[0].value))
    return found


def _settings_without_given(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names = [_call_name(d).rsplit(".", 1)[-1] for d in node.decorator_list]
            if "settings" in names and "given" not in names:
                found.append((node.lineno, node.name))
    return found


def test_no_test_skips_on_importing_our_own_modules():
    offenders = [f"{p.relative_to(TESTS.parent)}:{line}: importorskip({name!r})"
                 for p, tree in _test_trees() for line, name in _own_importorskips(tree)]
    assert not offenders, "import our own modules plainly:\n" + "\n".join(offenders)


def test_no_hypothesis_settings_without_given():
    offenders = [f"{p.relative_to(TESTS.parent)}:{line}: {name}"
                 for p, tree in _test_trees() for line, name in _settings_without_given(tree)]
    assert not offenders, "@settings without @given:\n" + "\n".join(offenders)


def test_the_rules_see_what_they_must():
    """The two scanners find the defects they exist for (and pass third-party skips)."""
    bad = ast.parse('import pytest\nm = pytest.importorskip("nonoqubo.exports")\n'
                    'np = pytest.importorskip("numpy")\n'
                    "@settings(max_examples=5)\ndef test_a(): pass\n"
                    "@given(st.integers())\n@settings(max_examples=5)\ndef test_b(x): pass\n")
    assert _own_importorskips(bad) == [(2, "nonoqubo.exports")]
    assert _settings_without_given(bad) == [(5, "test_a")]


@pytest.mark.slow  # an inner pytest session: 3-6 s
def test_the_slow_guard_fails_an_unmarked_long_test(pytester, monkeypatch):
    """One inner run: the unmarked sleeper fails, the marked one and the quick one pass."""
    monkeypatch.setenv("NONOQUBO_CHECK_SLOW", "1")
    monkeypatch.setenv("NONOQUBO_SLOW_SECONDS", "0.05")
    pytester.makeconftest("from tests.conftest import pytest_configure, pytest_runtest_makereport  # noqa: F401\n")
    pytester.makepyfile(test_sleepers="""
        import time
        import pytest

        def test_unmarked():
            time.sleep(0.2)

        @pytest.mark.slow
        def test_marked():
            time.sleep(0.2)

        def test_quick():
            pass
    """)
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:doctest")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*test_unmarked took * s (more than 0.05 s) without @pytest.mark.slow*"])


@pytest.mark.parametrize("quiet", [[], ["-q"]], ids=["python -m pytest", "python -m pytest -q"])
def test_the_test_command_prints_its_pass_count(quiet, tmp_path):
    """``python -m pytest`` and ``python -m pytest -q`` (as people habitually type it) both end with
    the count of tests passed: pyproject's ``addopts`` must not make ``-q`` a ``-qq``.  Run on a
    one-test file under the repository's own pytest configuration (its ``pyproject.toml``)."""
    import re
    import shutil
    import subprocess
    import sys

    shutil.copy(TESTS.parent / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "test_one.py").write_text("def test_one():\n    assert True\n")
    done = subprocess.run([sys.executable, "-m", "pytest", *quiet, "-p", "no:cacheprovider", "test_one.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:]
    assert re.search(r"^=* ?1 passed in [\d.]+s", done.stdout.splitlines()[-1]), done.stdout[-500:]
