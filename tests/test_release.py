"""Ready to release: the sdist and the wheel build, pass ``twine check``, and the wheel works alone.

The package is built from a copy of the working tree's tracked files (so that nothing is written
into the repository), with ``python -m build`` as a release would; ``twine check --strict``
reads both archives' metadata (README.md as the long description must render).  The wheel is then
installed into a bare virtual environment (no nonoqubo checkout on its path, its dependencies from
the package index) and runs README's Quick start build in a folder outside the clone: it must
print what README shows and write the file README shows the head of.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT



def _tracked_copy(where: Path) -> Path:
    """The working tree's tracked files (as a fresh clone has them, with today's edits) copied into *where*."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            target = where / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return where


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    for module, why in (("build", "python -m build"), ("twine", "twine check")):
        if shutil.which(module) is None and subprocess.run([sys.executable, "-c", f"import {module}"]).returncode:
            pytest.skip(f"{module} is not installed ({why}): python -m pip install -e \".[dev]\" brings it")
    tree = _tracked_copy(tmp_path_factory.mktemp("tree"))
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(tree)], capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return out


@pytest.mark.slow
def test_the_sdist_and_the_wheel_build_and_pass_twine_check(dist) -> None:
    names = sorted(p.name for p in dist.iterdir())
    assert len(names) == 2 and names[0].endswith("-py3-none-any.whl") and names[1].endswith(".tar.gz"), names
    done = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, sorted(dist.iterdir()))],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.count("PASSED") == 2, done.stdout + done.stderr


def _readme_lines(command: str) -> list[str]:
    """What README's Quick start shows *command* (a ``$`` line) print."""
    text = (ROOT / "README.md").read_text()
    block = text[text.index(command + "\n"):]
    return block.split("\n$ ", 1)[0].split("```", 1)[0].splitlines()[1:]


@pytest.mark.slow
def test_the_wheel_alone_runs_the_quick_start_build_outside_the_clone(dist, tmp_path) -> None:
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", str(bare)], check=True, timeout=300)
    python = bare / "bin" / "python"
    wheel = next(dist.glob("*.whl"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], capture_output=True, text=True,
                          env=env, timeout=900)
    if done.returncode and re.search(r"No matching distribution|Could not find a version|connection", done.stderr, re.I):
        pytest.skip(f"the package index is out of reach for the wheel's dependencies: {done.stderr.strip()[-200:]}")
    assert done.returncode == 0, done.stderr[-3000:]
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "examples").mkdir()
    shutil.copy(ROOT / "examples" / "qbpp-logo.yaml", outside / "examples" / "qbpp-logo.yaml")
    run = subprocess.run([str(bare / "bin" / "nonoqubo"), "build", "examples/qbpp-logo.yaml", "-o", "logo.qubo"],
                         cwd=outside, capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    where = subprocess.run([str(python), "-c", "import nonoqubo; print(nonoqubo.__file__)"], cwd=outside,
                           capture_output=True, text=True, env=env, check=True).stdout
    assert str(bare) in where and str(ROOT) not in where
    shown = [re.sub(r"in \d+\.\d+ s", "in T s", line)
             for line in _readme_lines("$ nonoqubo build examples/qbpp-logo.yaml -o logo.qubo")]
    printed = [re.sub(r"in \d+\.\d+ s", "in T s", line) for line in (run.stderr + run.stdout).splitlines()]
    assert printed == shown[:len(printed)] and len(printed) >= 2, (printed, shown)
    head = (outside / "logo.qubo").read_text().splitlines()[:18]
    assert head == _readme_lines("$ head -n 18 logo.qubo")


def test_the_version_is_one_everywhere_and_the_changelog_has_it() -> None:
    import yaml

    tomllib = pytest.importorskip("tomllib", reason="tomllib comes with Python 3.11+; run the tests on 3.11 or later")

    from nonoqubo._version import __version__

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["version"] == __version__
    assert {"Homepage", "Repository", "Issues", "Changelog"} <= set(project["urls"])
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["cff-version"] == "1.2.0" and str(citation["version"]) == __version__
    assert citation["authors"] and citation["title"] and citation["license"] == project["license"]
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert re.search(rf"^## \[{re.escape(__version__)}\]", changelog, re.M), "CHANGELOG.md has no section for it"
    assert "## [Unreleased]" in changelog
