"""The exit status is the verdict, also when the reader of standard output goes away."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import numpy as np
import pytest

from tests.support import ROOT, SHARED

LOGO = SHARED / "json" / "qbpp-logo.json"


@pytest.mark.skipif(shutil.which("head") is None or shutil.which("bash") is None, reason="needs bash and head")
def test_decode_into_a_closed_pipe_exits_with_the_verdict_every_time(tmp_path):
    rng = np.random.default_rng(1)
    samples = tmp_path / "bad.json"  # 300 invalid samples: far more text than a pipe holds
    samples.write_text(json.dumps(rng.integers(0, 2, size=(300, 437)).tolist()))
    cmd = (f"'{sys.executable}' -m nonoqubo decode '{LOGO}' '{samples}' --all | head -3 >/dev/null; "
           "exit ${PIPESTATUS[0]}")
    for _ in range(3):
        proc = subprocess.run(["bash", "-c", cmd], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 1, proc.stderr
        assert proc.stderr == ""  # no BrokenPipeError, no "Exception ignored"


GECODE = SHARED / "originals" / "gecode" / "nonogram.cpp"


def _into_a_closed_pipe(*argv: str) -> subprocess.CompletedProcess:
    """Run nonoqubo with standard output a pipe whose reader has already gone."""
    import os

    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-m", "nonoqubo", *argv], cwd=ROOT, stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)


@pytest.mark.parametrize("fmt", ["lp", "ommx", "cqm", "coo"])
def test_a_model_cut_short_by_a_closed_pipe_is_not_reported_as_written(fmt):
    proc = _into_a_closed_pipe("build", str(GECODE), "--name", "heart", "-o", "-", "-f", fmt)
    assert proc.returncode == 141, proc.stderr  # 128 + SIGPIPE, as the shell reports cat
    assert "wrote" not in proc.stderr and "Error" not in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.skipif(shutil.which("head") is None or shutil.which("bash") is None, reason="needs bash and head")
@pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "PYTHONUNBUFFERED"])
@pytest.mark.parametrize("fmt", ["coo", "lp", "cqm", "ommx"])
def test_a_long_model_into_head_stops_quietly(fmt, unbuffered):
    # the castle's LP is 1.3 MB, one write: under PYTHONUNBUFFERED standard output is a raw FileIO,
    # whose write to a pipe that head left returned 64 kB and dropped the rest without an error
    import os

    cmd = (f"'{sys.executable}' -m nonoqubo build '{GECODE}' --name castle -o - -f {fmt} | head -c 100 >/dev/null; "
           "exit ${PIPESTATUS[0]}")
    env = dict(os.environ, PYTHONUNBUFFERED=unbuffered)
    proc = subprocess.run(["bash", "-c", cmd], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 141 and "wrote" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_standard_output_named_twice_is_refused(run_cli):
    status, out, err = run_cli("build", GECODE, "--name", "heart", "-o", "-", "-o", "-", "-f", "coo")
    assert (status, out) == (2, "")
    assert err == "nonoqubo: error: standard output is named twice (-o -): it can take one output\n"
