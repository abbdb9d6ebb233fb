"""`nonoqubo build` and `nonoqubo formats`."""

from __future__ import annotations

import json

from tests.support import SHARED, shared_puzzle

from nonoqubo import exports
from nonoqubo.model.build import build

LOGO = str(SHARED / "json" / "qbpp-logo.json")


def test_build_writes_the_format_of_the_extension(run_cli, tmp_path):
    out = tmp_path / "logo.qubo.json"
    status, stdout, stderr = run_cli("build", LOGO, "-o", out)
    assert status == 0, stderr
    doc = json.loads(out.read_text())
    assert doc["num_variables"] == 437 and doc["num_terms"] == 2756
    assert "437 variables" in stderr and "2756 terms" in stderr and "offset 120" in stderr
    assert f"wrote {out} (qubo-json, {out.stat().st_size:,} bytes)" in stderr
    assert stdout == ""


def test_several_outputs_from_one_build(run_cli, tmp_path):
    outs = [tmp_path / n for n in ("a.bqm", "a.qubo", "a.qs", "a.mtx")]
    status, _, stderr = run_cli("build", LOGO, *[a for o in outs for a in ("-o", o)])
    assert status == 0, stderr
    q = build(shared_puzzle("qbpp-logo"))
    for o in outs:
        assert exports.load(o).same_model(q)


def test_format_flag_once_for_all_or_once_per_output(run_cli, tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    assert run_cli("build", LOGO, "-o", a, "-o", b, "-f", "coo")[0] == 0
    assert exports.get_format("coo").detect(a.read_bytes()[:200]) and b.exists()
    assert run_cli("build", LOGO, "-o", a, "-o", b, "-f", "qs", "-f", "mqlib")[0] == 0
    assert a.read_text().startswith("# ObjectiveOffset") and "mqlib" in b.read_text().split("\n")[0]
    status, _, stderr = run_cli("build", LOGO, "-o", a, "-o", b, "-o", tmp_path / "c", "-f", "qs", "-f", "coo")
    assert status == 2 and "-f was given 2 times for 3 outputs" in stderr


def test_stdout_output(run_cli):
    status, stdout, stderr = run_cli("build", LOGO, "-o", "-", "-f", "coo", "--ising")
    assert status == 0, stderr
    assert "# vartype=SPIN" in stdout
    assert exports.loads(stdout, "coo").same_model(build(shared_puzzle("qbpp-logo")))
    status, _, stderr = run_cli("build", LOGO, "-o", "-")
    assert status == 2 and "needs a format" in stderr


def test_unknown_format_lists_the_known_ones(run_cli, tmp_path):
    status, _, stderr = run_cli("build", LOGO, "-o", tmp_path / "x.out", "-f", "hdf5")
    assert status == 2
    assert "unknown QUBO format 'hdf5'" in stderr and "qbsolv" in stderr and "qplib" in stderr
    assert "Traceback" not in stderr
    status, _, stderr = run_cli("build", LOGO, "-o", tmp_path / "x.out")
    assert status == 2 and "cannot tell the QUBO format" in stderr and "mtx" in stderr
    assert not list(tmp_path.iterdir())


def test_unwritable_path_exit_2_and_no_file_at_all(run_cli, tmp_path):
    good = tmp_path / "good.coo"
    status, _, stderr = run_cli("build", LOGO, "-o", good, "-o", tmp_path / "no" / "such" / "x.qubo")
    assert status == 2
    assert stderr.strip().splitlines()[-1].startswith("nonoqubo: error: cannot write ")
    assert "No such file or directory" in stderr
    assert not good.exists()  # all or nothing: the first file is not left behind either
    assert [p.name for p in tmp_path.iterdir()] == []


def test_ising_with_a_qubo_only_format_is_refused_before_building(run_cli, tmp_path):
    status, _, stderr = run_cli("build", LOGO, "-o", tmp_path / "x.qs", "--ising")
    assert status == 2 and "cannot carry an Ising model" in stderr and "built" not in stderr


def test_quiet_prints_nothing(run_cli, tmp_path):
    status, stdout, stderr = run_cli("build", LOGO, "-o", tmp_path / "x.npz", "--quiet")
    assert (status, stdout, stderr) == (0, "", "")


def test_formats_lists_every_format_with_extensions(run_cli):
    status, stdout, _ = run_cli("formats")
    assert status == 0
    for m in exports.formats():
        line = next(ln for ln in stdout.splitlines() if ln.split()[:1] == [m.NAME])
        assert "." + m.EXTENSIONS[0] in line and m.TITLE in line
    assert "clue formats" in stdout and "spec" in stdout
    doc = json.loads(run_cli("formats", "--json")[1])
    assert {f["name"] for f in doc["qubo_formats"]} == {m.NAME for m in exports.formats()}


def test_presolve_hook_records_fixed_variables(run_cli, tmp_path):
    out = tmp_path / "p.qubo.json"
    status, _, stderr = run_cli("build", LOGO, "-o", out, "--presolve")
    assert status == 0, stderr
    assert "presolved: 437 ->" in stderr
    q = exports.load(out)
    assert q.fixed and q.num_vars + len(q.fixed) == 437


def test_constrained_hook(run_cli, tmp_path):
    out = tmp_path / "m.lp"
    status, _, stderr = run_cli("build", LOGO, "-o", out, "--constrained")
    assert status == 0, stderr
    assert out.exists()
    status, _, stderr = run_cli("build", LOGO, "-o", out, "-o", tmp_path / "x.coo", "--constrained")
    assert status == 2 and "--constrained" in stderr and "coo" in stderr
