"""A fresh clone stands alone: the README's two Quick start commands work in a copy of the repository
with no ``../shared`` beside it (their Python equivalents: ``python -m`` from the clone, no pip install)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT

README = ROOT / "README.md"
#: how code that reads a folder beside the repository would name it
OUTSIDE = re.compile(r"""["']\.\./shared|/work/shared|/\s*["']shared["']""")


def _blocks(markdown: str) -> list[list[str]]:
    """The lines of every fenced code block."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for line in markdown.splitlines():
        if line.startswith("```"):
            if current is None:
                current = []
            else:
                blocks.append(current)
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True, timeout=60).stdout


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """``git clone`` of this repository (its committed HEAD) into an empty temporary folder."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout")
    dest = tmp_path_factory.mktemp("fresh") / "nonoqubo"
    _git("clone", "--quiet", str(ROOT), str(dest), cwd=ROOT)
    assert not (dest.parent / "shared").exists()
    return dest


def _run(clone: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "NONOQUBO"))}
    env["PYTHONPATH"] = str(clone)
    return subprocess.run([sys.executable, *args], cwd=clone, env=env, capture_output=True, text=True,
                          timeout=300)


def test_the_clone_imports_its_own_package_and_reads_nothing_outside(clone):
    proc = _run(clone, "-c", "import nonoqubo; print(nonoqubo.__file__)")
    assert Path(proc.stdout.strip()).is_relative_to(clone), proc.stderr
    for path in clone.rglob("*"):
        if path.is_file() and ".git" not in path.parts and path.suffix in (".py", ".toml", ".cfg", ".ini", ""):
            if path.name != Path(__file__).name:
                assert not OUTSIDE.search(path.read_text(errors="replace")), path


def test_readme_first_command_prints_what_the_readme_shows(clone):
    readme = README.read_text()
    m = re.search(r"nonoqubo build (\S+) -o (\S+) && head -n (\d+) (\S+)", readme)
    assert m, "the Quick start builds the example and shows its head"
    src, out, count, shown = m.groups()
    assert out == shown
    proc = _run(clone, "-m", "nonoqubo", "build", src, "-o", out)
    assert proc.returncode == 0, proc.stderr
    head = (clone / out).read_text().splitlines()[: int(count)]
    # the README's block of what the command prints: the summary lines, then the file's head
    lines = next(b for b in _blocks(readme) if head[0] in b)
    start = lines.index(head[0])
    assert lines[start:] == head
    never_same = re.compile(r" in \d+\.\d+ s$")  # the build time
    assert [never_same.sub("", ln) for ln in proc.stderr.splitlines()] == \
        [never_same.sub("", ln) for ln in lines[:start] if not ln.startswith("$ ")]  # the block shows its command


@pytest.mark.slow  # runs the README's test command in the clone: 20 s
def test_readme_test_command_finds_its_data_in_the_clone(clone):
    readme = README.read_text()
    assert "python -m pip install -e \".[dev]\" && python -m pytest" in readme
    # the whole suite is collected (every parametrisation reads tests/data) and the tests that read
    # every original file and every puzzle of the collection run: one process, a few seconds
    proc = _run(clone, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow", "tests",
                "-k", "original_is_read or 19_specs or every_shared_json_is_a_valid_spec")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "[100%]" in proc.stdout
