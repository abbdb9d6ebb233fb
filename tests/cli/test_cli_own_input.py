"""A command never writes over its own input, by whatever path the output names it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.support import ROOT

LOGO = ROOT / "examples" / "qbpp-logo.yaml"


@pytest.mark.parametrize("how", ["same name", "another path", "symbolic link", "hard link"])
@pytest.mark.parametrize("command", ["convert", "build"])
def test_the_input_is_never_the_output(command, how, tmp_path, run_cli):
    source = tmp_path / "a.yaml"
    shutil.copy(LOGO, source)
    before = source.read_bytes()
    target = {"same name": source, "another path": tmp_path / "sub" / ".." / "a.yaml",
              "symbolic link": tmp_path / "l.yaml", "hard link": tmp_path / "h.yaml"}[how]
    (tmp_path / "sub").mkdir()
    if how == "symbolic link":
        os.symlink(source, target)
    elif how == "hard link":
        os.link(source, target)
    argv = ["convert", source, target] if command == "convert" else ["build", source, "-o", target, "-f", "coo"]
    status, out, err = run_cli(*argv)
    assert (status, out) == (2, "")
    assert err == f"nonoqubo: error: cannot write {target}: it is the input file {source}; name another output\n"
    assert source.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({"a.yaml", "sub", Path(target).name})
