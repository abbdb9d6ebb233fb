"""Every command the README and the docs' first pages show runs, and prints what the page shows.

A page shows a command as a ``$ `` line of a ```` ```console ```` block, followed by the lines of
output it shows (a page may show only some of them); README's Quick start also shows its two
``bash`` lines (``a && b && c``).  :func:`page_commands` reads them in order and
:func:`run_page` runs them one after another in a fresh folder (``examples/`` and ``tests/``
linked in, ``nonoqubo`` the working tree's), as a user who copies them would, and checks that
every output line shown is in the command's output (timings, ``0.01 s``, read as any time).

What a test must not run is mapped, and the mapping checked instead:

* the virtual environment, the install and ``python -m pytest``: ``.ci/run`` runs exactly those
  lines in a fresh clone (the suite cannot install over itself or run itself);
* the docs build: :func:`test_the_docs_build_with_warnings_as_errors` runs that exact command.

Placeholders (:data:`PLACEHOLDERS`) name files of the repository: Gecode's ``nonogram.cpp``.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support import ROOT

PAGES = {
    "README.md": ROOT / "README.md",
    "getting-started": ROOT / "docs" / "getting-started.md",
    "logo-walkthrough": ROOT / "docs" / "guides" / "logo-walkthrough.md",
}
#: a word of a shown command -> the repository file it stands for
PLACEHOLDERS = {"nonogram.cpp": "tests/data/puzzles/originals/gecode/nonogram.cpp"}
#: commands .ci/run runs (in a fresh clone); a test checks that it does, and does not run them
CI_RUNS = ('python -m pip install -e ".[dev]"', "python -m pytest")
ENVIRONMENT = ("python3 -m venv .venv", ". .venv/bin/activate")
DOCS_BUILD = "python -m sphinx -W --keep-going -q -b html docs docs/_build/html"
TIME = re.compile(r"\d+(?:\.\d+)? s\b")


@dataclass
class Shown:
    """One command a page shows, and the output lines it shows under it."""

    command: str
    output: list[str] = field(default_factory=list)


def page_commands(text: str) -> list[Shown]:
    """The commands of *text*'s ``console`` blocks (``$ `` lines) and of a Quick start ``bash`` block, in order."""
    shown: list[Shown] = []
    for lang, body in re.findall(r"^```(console|bash)\n(.*?)^```", text, re.M | re.S):
        if lang == "bash":
            if "## Quick start" not in text[:text.index(body)] or "## A short tour" in text[:text.index(body)]:
                continue
            for line in body.splitlines():
                if line.strip() and not line.startswith("#"):
                    shown += [Shown(part.strip()) for part in line.split(" && ")]
            continue
        for line in body.splitlines():
            if line.startswith("$ "):
                shown.append(Shown(line[2:].strip()))
            elif shown and line.strip():
                shown[-1].output.append(line)
    return shown


def mapped(command: str) -> str | None:
    """Why *command* is not run here (who runs it instead), or None when it runs."""
    if command in CI_RUNS:
        return ".ci/run"
    if command in ENVIRONMENT:
        return "the environment"
    if command == DOCS_BUILD:
        return "test_the_docs_build_with_warnings_as_errors"
    return None


def _folder(tmp: Path) -> dict[str, str]:
    (tmp / "examples").symlink_to(ROOT / "examples")
    (tmp / "tests").symlink_to(ROOT / "tests")
    bin_dir = tmp / ".bin"
    bin_dir.mkdir()
    shim = bin_dir / "nonoqubo"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m nonoqubo "$@"\n')
    shim.chmod(0o755)
    return dict(os.environ, PYTHONPATH=str(ROOT), PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
                NONOQUBO_CACHE=str(tmp / ".cache"), COLUMNS="200")


def _normal(line: str) -> str:
    return TIME.sub("T s", line.rstrip())


def run_page(page: Path, tmp: Path) -> list[str]:
    """Run every command *page* shows, in order, in *tmp*; the problems found (empty when all is well)."""
    env = _folder(tmp)
    problems = []
    for shown in page_commands(page.read_text()):
        if mapped(shown.command):
            continue
        words = [PLACEHOLDERS.get(w, w) for w in shlex.split(shown.command)]
        command = " ".join(shlex.quote(w) if w not in (">", "|") else w for w in words)
        if shown.command.startswith("for "):
            command = shown.command
        done = subprocess.run(["bash", "-c", command], cwd=tmp, env=env, capture_output=True, text=True,
                              timeout=900)
        output = {_normal(line) for line in (done.stdout + "\n" + done.stderr).splitlines()}
        if done.returncode != 0:
            problems.append(f"{shown.command}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
        missing = [line for line in shown.output if _normal(line) not in output]
        if missing:
            problems.append(f"{shown.command}: does not print {missing[:3]}")
    return problems


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_command_a_page_shows_runs(name, tmp_path):
    problems = run_page(PAGES[name], tmp_path)
    assert not problems, f"{name}:\n" + "\n".join(problems)


def test_the_pages_show_commands_and_outputs():
    """The reader finds the commands (and the shown output) the pages hold; the test above runs them."""
    readme = page_commands(PAGES["README.md"].read_text())
    commands = [s.command for s in readme]
    assert commands[:3] == ['python -m pip install -e ".[dev]"', "nonoqubo build examples/qbpp-logo.yaml -o logo.qubo",
                            "head -n 18 logo.qubo"]
    assert "python -m pytest" in commands
    build = next(s for s in readme if s.command == "nonoqubo build examples/qbpp-logo.yaml -o logo.qubo" and s.output)
    assert build.output[0].startswith("built 'QUBO++ logo' 15x15: 437 variables, 2756 terms")
    start = [s.command for s in page_commands(PAGES["getting-started"].read_text())]
    assert start[:3] == list(ENVIRONMENT) + [CI_RUNS[0]] and DOCS_BUILD in start


def test_what_is_not_run_here_is_run_by_ci():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    for command in CI_RUNS + (DOCS_BUILD,):
        assert command in ci, f".ci/run does not run {command!r}"
    for page in PAGES.values():
        for shown in page_commands(page.read_text()):
            if shown.command.startswith(("python -m pip", "pip ", "python -m pytest", "python -m sphinx")):
                assert mapped(shown.command), f"{page.name}: {shown.command!r} would run unmapped"


def test_a_wrong_output_is_caught(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```console\n$ nonoqubo info examples/qbpp-logo.yaml\nvariables:   999\n```\n")
    work = tmp_path / "work"
    work.mkdir()
    problems = run_page(page, work)
    assert len(problems) == 1 and "variables:   999" in problems[0]


@pytest.mark.slow
def test_the_docs_build_with_warnings_as_errors(tmp_path):
    out = tmp_path / "html"
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "docs", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    formats = (out / "formats.html").read_text()
    from nonoqubo import clues, exports, samples

    for module in [*clues.formats(), *exports.formats(), *samples.formats().values()]:
        assert module.__name__ in formats, f"the formats page has no row for {module.__name__}"
    assert "437" in (out / "model.html").read_text()
    assert (out / "guides" / "logo-walkthrough.html").is_file()
    campaign = (out / "campaigns-reports.html").read_text()
    assert "campaign-p-vs-size.svg" in campaign and (out / "_images" / "campaign-p-vs-size.svg").is_file()


@pytest.mark.slow
def test_solve_help_names_a_file_the_suite_example_writes(tmp_path):
    """solve --help's suite example writes the model file its next example samples."""
    from nonoqubo.cli.solve import DESCRIPTION

    lines = [line.strip() for line in DESCRIPTION.splitlines()]
    suite = next(line for line in lines if line.startswith("nonoqubo suite "))
    model = next(w for line in lines if line.startswith("nonoqubo solve ab/") for w in line.split() if w.startswith("ab/"))
    env = _folder(tmp_path)
    done = subprocess.run(["bash", "-c", suite + " -j 1"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / model).is_file(), sorted(p.name for p in (tmp_path / "ab").iterdir())[:5]
