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
