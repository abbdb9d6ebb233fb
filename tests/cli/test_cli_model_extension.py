"""An extension that names a model format is authoritative: that reader, or its error.

``printf '0\\n1\\n' > m.qubo`` is a damaged qbsolv file, not a 1 x 2 picture.
"""

from __future__ import annotations

import json

import pytest

from nonoqubo import exports

MODEL_EXTENSIONS = sorted({e for m in exports.formats() for e in m.EXTENSIONS} - {"json"})


@pytest.mark.parametrize("ext", MODEL_EXTENSIONS)
def test_info_refuses_a_damaged_model_with_its_formats_error(ext, tmp_path, run_cli):
    path = tmp_path / f"m.{ext}"
    path.write_bytes(b"0\n1\n")
    status, out, err = run_cli("info", path)
    assert (status, out) == (2, "")
    assert err.startswith(f"nonoqubo: error: {path}") and len(err.splitlines()) == 1
    assert "puzzle" not in err.split(":", 2)[-1].split()[:1]


@pytest.mark.parametrize("ext", ["coo", "qubo", "lp", "npz"])
def test_decode_refuses_a_damaged_model_instead_of_judging_against_a_picture(ext, tmp_path, run_cli):
    path = tmp_path / f"m.{ext}"
    path.write_bytes(b"0\n1\n")
    samples = tmp_path / "s.json"
    samples.write_text(json.dumps([[0, 1]]))
    status, out, err = run_cli("decode", path, samples)
    assert (status, out) == (2, "")
    assert err.startswith(f"nonoqubo: error: {path}") and len(err.splitlines()) == 1
    assert "sample" not in err
