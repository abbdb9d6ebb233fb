"""Every skip says how to get what it lacks (:mod:`tests.support.skips`, issue 53): run on a small test
folder of skips, the summary names the install command of each missing program or package."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support import ROOT
from tests.support.skips import HINTS, with_hint


def test_a_skip_names_how_to_get_what_it_lacks(tmp_path):
    (tmp_path / "test_module.py").write_text('import pytest\npytest.importorskip("no_such_package_53")\n')
    (tmp_path / "test_calls.py").write_text(
        "import pytest\n\ndef test_qbsolv():\n    pytest.skip('qbsolv is not installed')\n\n"
        "@pytest.mark.skipif(True, reason='MQLib is not on PATH')\ndef test_mqlib():\n    pass\n\n"
        "def test_other():\n    pytest.skip('root writes into a read-only folder')\n")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "tests.support.skips", "-p",
                           "no:cacheprovider", str(tmp_path)], cwd=tmp_path, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300)
    lines = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(lines) == 4, done.stdout
    text = "\n".join(lines)
    assert "No module named 'no_such_package_53': python -m pip install -e \".[dev]\" installs it" in text
    assert "qbsolv is not installed: bash third_party/solvers/build.sh DIR and put DIR on PATH" in text
    assert "MQLib is not on PATH: bash third_party/solvers/build.sh DIR" in text
    assert text.endswith("root writes into a read-only folder")  # nothing missing: nothing to get


def test_a_reason_that_says_how_already_is_kept():
    reason = "minizinc with Gecode is not installed (Debian: apt-get install minizinc flatzinc)"
    assert with_hint(reason) == reason
    assert all(with_hint(f"{word} is not installed").startswith(f"{word} is not installed: ") for word in HINTS)
