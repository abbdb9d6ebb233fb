"""Quiet means quiet: no third-party banner reaches the terminal (file descriptors 1 and 2 captured)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support import ROOT, SHARED

LOGO = SHARED / "json" / "qbpp-logo.json"


def _run(*args: str) -> subprocess.CompletedProcess:
    # a child process: HiGHS writes its banner from C, past Python's sys.stdout / sys.stderr
    return subprocess.run([sys.executable, "-m", "nonoqubo", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("quiet", [True, False], ids=["-q", "default"])
def test_no_highs_banner_on_mps_build_info_and_decode(tmp_path, quiet):
    pytest.importorskip("highspy")
    mps = tmp_path / "logo.mps"
    proc = _run("build", str(LOGO), "-o", str(mps), "--constrained", *(["-q"] if quiet else []))
    assert proc.returncode == 0, proc.stderr
    assert "HiGHS" not in proc.stdout + proc.stderr
    if quiet:
        assert proc.stdout == proc.stderr == ""
    info = _run("info", str(mps))
    assert info.returncode == 0 and "HiGHS" not in info.stdout + info.stderr and info.stderr == ""
    samples = tmp_path / "zeros.txt"
    samples.write_text("0" * 437 + "\n")
    dec = _run("decode", str(mps), str(samples))
    assert dec.returncode == 1, dec.stderr
    assert "HiGHS" not in dec.stdout + dec.stderr and dec.stderr == ""


def test_mps_to_standard_output_is_only_mps():
    pytest.importorskip("highspy")
    proc = _run("build", str(LOGO), "-o", "-", "-f", "mps", "--constrained", "-q")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("* nonoqubo constrained model") and proc.stderr == ""
