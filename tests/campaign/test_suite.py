"""`nonoqubo suite`: the index against `build` and `info`, resume, failures, generated families."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
from pathlib import Path

import dimod
import dimod.serialization.coo
import numpy as np
import pytest

from tests.support import SHARED
from nonoqubo import clues
from nonoqubo.errors import NonoquboError
from nonoqubo.generation.families import make, parse_family
from nonoqubo.logic.linesolve import line_solve
from nonoqubo.campaign.suite import ground_state, plan, run_suite

ORIGINALS = SHARED / "originals"
#: one file per clue format (game_ids.txt holds two puzzles), all small
MIXED = ["non/1.non", "nin/note.nin", "g/veze.g", "webpbn-xml/atrus.xml", "sgt/game_ids.txt",
         "cwd/webpbn1_SYNTHETIC.cwd"]
PUZZLES = len(MIXED) + 2  # and the logo


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    folder = tmp_path / "puzzles"
    for rel in MIXED:
        (folder / Path(rel).parent.name).mkdir(parents=True, exist_ok=True)
        shutil.copy(ORIGINALS / rel, folder / Path(rel).parent.name / Path(rel).name)
    shutil.copy(SHARED / "json" / "qbpp-logo.json", folder / "qbpp-logo.json")
    (folder / "README.txt").write_text("not a puzzle: skipped in folders\n")
    return folder


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_suite_index_equals_build_and_info(mixed: Path, tmp_path: Path, run_cli) -> None:
    out = tmp_path / "suite"
    result = run_suite([str(mixed)], out, formats=["qbsolv", "bqm-json"], presolve=True, jobs=2)
    assert result.failed == 0 and result.built == PUZZLES
    doc = json.loads((out / "index.json").read_text())
    names = [e["name"] for e in doc["puzzles"]]
    assert "game_ids-1" in names and "game_ids-2" in names and "README" not in names
    for entry in doc["puzzles"]:
        path, _, index = entry["source"].partition("#")
        extra = ["--index", index] if index else []
        status, text, _ = run_cli("info", path, "--json", "--presolve", *extra)
        assert status == 0
        info = json.loads(text)
        for key in ("width", "height", "variables", "terms", "linear_terms", "quadratic_terms", "offset"):
            assert entry[key] == info[key], (entry["name"], key)
        pre = info["presolve"]
        assert entry["line_solvable"] == pre["line_solvable"]
        assert entry["variables_after_presolve"] == pre["variables_after_presolve"]
        assert entry["terms_after_presolve"] == pre["terms_after_presolve"]
        assert entry["ground_energy"] == 0
        assert {(f["format"], f["variant"]) for f in entry["files"]} == {
            ("qbsolv", "full"), ("qbsolv", "presolved"), ("bqm-json", "full"), ("bqm-json", "presolved")}
        for f in entry["files"]:
            mine = tmp_path / f"mine-{f['variant']}.{'qubo' if f['format'] == 'qbsolv' else 'bqm.json'}"
            flags = ["--presolve"] if f["variant"] == "presolved" else []
            assert run_cli("build", path, "-o", mine, "-q", *flags, *extra)[0] == 0
            assert sha(mine) == f["sha256"] == sha(out / f["path"]), (entry["name"], f["path"])
            assert f["bytes"] == mine.stat().st_size
    rows = list(csv.DictReader((out / "index.csv").open()))
    assert len(rows) == 4 * len(names)
    assert {r["sha256"] for r in rows} == {f["sha256"] for e in doc["puzzles"] for f in e["files"]}


def test_ground_state_follows_each_format_convention(tmp_path: Path) -> None:
    """The index's ground state is what a real reader of the file makes of a solution."""
    out = tmp_path / "s"
    run_suite([str(SHARED / "json" / "qbpp-logo.json")], out, formats=["coo", "bqm-json", "mqlib"], jobs=1)
    entry = json.loads((out / "index.json").read_text())["puzzles"][0]
    puzzle = clues.load(SHARED / "json" / "qbpp-logo.json")
    from nonoqubo.model.encoding import Layout

    x = Layout.of(puzzle).encode(puzzle.solution_grid())
    files = {f["format"]: f for f in entry["files"]}
    with open(out / files["coo"]["path"]) as fh:  # dimod's own COO reader: no offset
        bqm = dimod.serialization.coo.load(fh, vartype=dimod.BINARY)
    assert bqm.energy({i: int(x[i]) for i in bqm.variables}) == files["coo"]["ground_state"] == -entry["offset"]
    doc = json.loads((out / files["bqm-json"]["path"]).read_text())
    assert files["bqm-json"]["ground_state"] == 0 and doc["offset"] == entry["offset"]
    # MQLib: maximise x'Qx with Q symmetric, read as the format defines (i j q lines after 'n m')
    lines = [ln.split() for ln in (out / files["mqlib"]["path"]).read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    value = 0.0
    for i, j, q in lines[1:]:
        i, j, q = int(i) - 1, int(j) - 1, float(q)
        value += q * x[i] * x[j] * (1 if i == j else 2)
    assert value == files["mqlib"]["ground_state"] == entry["offset"]
    assert ground_state("lp", "constrained", 5)[0] == 0


def test_resume_skips_finished_files(mixed: Path, tmp_path: Path) -> None:
    out = tmp_path / "suite"
    first = run_suite([str(mixed)], out, formats=["coo"], jobs=1)
    stamps = {p.name: p.stat().st_mtime_ns for p in out.glob("*.coo")}
    again = run_suite([str(mixed)], out, formats=["coo"], jobs=2)
    assert (again.built, again.skipped, again.failed) == (0, first.built, 0)
    assert {p.name: p.stat().st_mtime_ns for p in out.glob("*.coo")} == stamps
    # a damaged file and a missing file are rebuilt, the rest is left alone
    damaged, missing = out / "note.coo", out / "veze.coo"
    good = damaged.read_bytes()
    damaged.write_bytes(good + b"\n")
    missing.unlink()
    third = run_suite([str(mixed)], out, formats=["coo"], jobs=1)
    assert (third.built, third.skipped) == (2, first.built - 2)
    assert damaged.read_bytes() == good and missing.exists()
    # other options are another suite: everything is rebuilt
    assert run_suite([str(mixed)], out, formats=["coo"], presolve=True, jobs=1).built == first.built


def test_a_stopped_run_resumes(mixed: Path, tmp_path: Path) -> None:
    out = tmp_path / "suite"
    seen = []

    def stop_after_two(n: int) -> None:
        seen.append(n)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_suite([str(mixed)], out, formats=["coo"], jobs=1, progress=stop_after_two)
    assert len(json.loads((out / "index.json").read_text())["puzzles"]) == 2
    rest = run_suite([str(mixed)], out, formats=["coo"], jobs=1)
    assert (rest.skipped, rest.built, rest.failed) == (2, PUZZLES - 2, 0)


def test_a_failing_puzzle_is_recorded_and_the_rest_built(mixed: Path, tmp_path: Path, run_cli) -> None:
    (mixed / "bad.non").write_text("width 2\nheight 2\nrows\n3\n1\ncolumns\n1\n1\n")
    (mixed / "broken.xml").write_text("<puzzleset><puzzle>\n")
    out = tmp_path / "suite"
    status, _, err = run_cli("suite", mixed, "-o", out, "-f", "qbsolv", "-j", "2")
    assert status == 1
    entries = {e["name"]: e for e in json.loads((out / "index.json").read_text())["puzzles"]}
    assert entries["bad"]["status"] == "error" and "bad.non" in entries["bad"]["error"]
    assert "row 1" in entries["bad"]["error"]
    assert entries["broken"]["status"] == "error" and "broken.xml" in entries["broken"]["error"]
    ok = [e for e in entries.values() if e["status"] == "ok"]
    assert len(ok) == PUZZLES
    assert all((out / e["files"][0]["path"]).exists() for e in ok)
    assert not list(out.glob("bad.*")) and not list(out.glob(".*tmp"))
    failed = [ln for ln in err.splitlines() if ln.startswith("nonoqubo: failed:")]
    assert len(failed) == 2 and "Traceback" not in err
    rows = list(csv.DictReader((out / "index.csv").open()))
    assert [r["status"] for r in rows if r["name"] == "bad"] == ["error"]


def test_generated_families_are_reproducible_and_unique_when_asked(tmp_path: Path) -> None:
    fam = parse_family("6x4,5x5:0.55:4:3", unique="line")
    members = fam.members()
    assert len(members) == 8 and members[0].name == "random-6x4-d0.55-s3-0001"
    for m in members:
        p = make(m)
        assert (p.width, p.height) == (m.width, m.height)
        assert make(m) == p  # the same picture every time, in any process
        assert line_solve(p).solved
    loose = [make(m) for m in parse_family("12x12:0.5:6:3").members()]
    assert len({p.solution for p in loose}) == 6
    densities = [np.mean([row.count("#") for row in p.solution]) / 12 for p in loose]
    assert 0.3 < float(np.mean(densities)) < 0.7
    res = run_suite([], tmp_path / "g", formats=["npz"], families=[fam], jobs=2)
    assert res.built == 8 and all(e["line_solvable"] for e in res.entries)


@pytest.mark.parametrize("text", ["5x5:0.5", "5y5:0.5:3", "5x5:1.5:3", "5x5:0.5:0", "5x5:0.5:3:-1"])
def test_bad_family_is_one_line_exit_2(text: str, tmp_path: Path, run_cli) -> None:
    with pytest.raises(NonoquboError):
        parse_family(text)
    status, out, err = run_cli("suite", "--random", text, "-o", tmp_path / "x")
    assert status == 2 and err.count("\n") == 1 and "--random" in err and not out


def test_plan_names_are_distinct_and_globs_expand(tmp_path: Path) -> None:
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        shutil.copy(ORIGINALS / "nin" / "note.nin", tmp_path / sub / "note.nin")
    tasks = plan([str(tmp_path / "*" / "*.nin")])
    assert [t.name for t in tasks] == ["note", "note-2"]
    with pytest.raises(NonoquboError, match="no file matches"):
        plan([str(tmp_path / "*.zzz")])
    assert os.path.basename(tasks[1].path) == "note.nin"


def test_an_output_folder_inside_the_input_folder_is_not_read(mixed: Path) -> None:
    out = mixed / "models"
    first = run_suite([str(mixed)], out, formats=["qubo-json"], jobs=1)
    again = run_suite([str(mixed)], out, formats=["qubo-json"], jobs=1)
    assert (first.built, first.failed) == (PUZZLES, 0)
    assert (again.skipped, again.failed, len(again.entries)) == (PUZZLES, 0, PUZZLES)
