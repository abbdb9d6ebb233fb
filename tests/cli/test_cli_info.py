"""`nonoqubo info` and the CLI's error contract."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support import ROOT, SHARED


def test_info_on_the_embedded_logo(run_cli):
    status, out, err = run_cli("info", ROOT / "examples" / "qbpp-logo.yaml")
    assert status == 0, err
    assert "15 x 15" in out
    assert "437 (198 row + 239 column)" in out
    assert "2756 (" in out
    assert "offset:      120" in out


def test_info_json(run_cli):
    status, out, _ = run_cli("info", ROOT / "examples" / "qbpp-logo.yaml", "--json")
    doc = json.loads(out)
    assert status == 0
    assert doc["variables"] == 437 and doc["terms"] == 2756 and doc["offset"] == 120
    assert doc["linear_terms"] + doc["quadratic_terms"] == 2756
    assert doc["max_degree"] > 0 and doc["coefficient_min"] < 0 < doc["coefficient_max"]


def test_info_reads_gecode_from_stdin(run_cli):
    status, out, _ = run_cli("info", "-", "--from", "gecode", stdin="{2, 2, 1,1, 1,1, 1,1, 1,1}")
    assert status == 0 and "2 x 2" in out


def test_bad_input_is_one_line_status_2_no_traceback(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("rows:\n  - [1]\n  - [9]\ncols: [[1], [1]]\n")
    proc = subprocess.run([sys.executable, "-m", "nonoqubo", "info", str(bad)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr
    assert f"{bad}:3: row 2: clue 9 needs 9 cells" in proc.stderr


def test_missing_file_is_status_2(run_cli, tmp_path):
    status, _, err = run_cli("info", tmp_path / "nope.yaml")
    assert status == 2
    assert "nope.yaml" in err and "No such file" in err


def test_help_teaches(run_cli):
    status, out, _ = run_cli("--help")
    assert status == 0
    assert "info" in out and "examples:" in out
    status, out, _ = run_cli("info", "--help")
    assert status == 0 and "examples:" in out


QUBO_FORMATS = ["qubo-json", "bqm", "bqm-json", "coo", "csv", "qbsolv", "qs", "mqlib", "mtx", "qplib", "npz"]
CONSTRAINED_FORMATS = ["cqm", "lp", "mps"]


@pytest.mark.parametrize("fmt", QUBO_FORMATS + CONSTRAINED_FORMATS)
@pytest.mark.parametrize("presolve", [False, True], ids=["full", "presolved"])
def test_info_reads_every_export_format(run_cli, tmp_path, fmt, presolve):
    from nonoqubo import exports

    mod = exports.get_format(fmt)
    out_path = tmp_path / f"m.{mod.EXTENSIONS[0]}"
    puzzle = SHARED / "json" / "gecode-non-unique.json"  # line logic settles part of it
    extra = ["--presolve"] if presolve else []
    if fmt in CONSTRAINED_FORMATS:
        extra.append("--constrained")
    status, _, err = run_cli("build", puzzle, "-o", out_path, "-f", fmt, "-q", *extra)
    assert status == 0, err
    status, out, err = run_cli("info", out_path, "--json")
    assert status == 0, err
    info = json.loads(out)
    assert (info["name"], info["width"], info["height"]) == ("non_unique", 11, 15)
    status, full, _ = run_cli("info", puzzle, "--json", *(["--presolve"] if presolve else []))
    full = json.loads(full)
    if fmt in CONSTRAINED_FORMATS:
        assert info["kind"] == "constrained" and info["constraints"] > 0
    expect = full["presolve"] if presolve else full
    suffix = "_after_presolve" if presolve else ""
    assert info["variables"] == expect["variables" + suffix]
    if fmt in QUBO_FORMATS:
        assert info["terms"] == expect["terms" + suffix]
        assert info["offset"] == expect["offset" + suffix]
    if presolve:
        assert info["fixed_variables"] == full["presolve"]["fixed_variables"] > 0
    else:
        assert info["fixed_variables"] == 0
    status, text, _ = run_cli("info", out_path)
    assert status == 0 and "model of puzzle 'non_unique', 11 x 15" in text
    assert ("variables fixed by line logic" in text) == presolve
