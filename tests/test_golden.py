"""Every file the command line writes for the golden puzzle set is byte-identical to the committed hashes.

The hashes (``tests/data/golden/hashes.json``) were written by ``python tests/support/golden.py``
before the package was restructured; a change that alters any QUBO, constrained,
clue or decode output fails here, naming the files.  When a change of output is
intended, regenerate them with that command and say so in the commit.
"""

from __future__ import annotations

import json

import pytest

from tests.support import golden


@pytest.mark.slow
def test_every_output_matches_its_committed_hash(tmp_path):
    expected = json.loads(golden.HASHES.read_text())
    got = golden.generate(tmp_path)
    assert set(got) == set(expected), "the golden set's list of files changed"
    changed = sorted(name for name in expected if got[name] != expected[name])
    assert not changed, f"{len(changed)} outputs differ from their committed hashes: {changed[:20]}"
