"""``--presolve [line|probe]`` on build, info, solve and suite; the hardness label of info --truth and the
suite index; ``suite --unique=hard``; the ``presolve`` metadata of a probed file, read back."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.support import SHARED
from nonoqubo import exports
from nonoqubo.model.puzzle import Puzzle

DIFFICULT = SHARED / "json" / "gecode-difficult.json"  # line logic settles 0 of 225 cells, probing 12
STALLS = [".##.", ".##.", "#..#"]  # line logic 4 of 12 cells, probing all


@pytest.fixture
def stalls(tmp_path):
    path = tmp_path / "stalls.json"
    path.write_text(json.dumps(Puzzle.from_picture(STALLS, name="stalls").to_dict()))
    return path


def test_old_command_lines_keep_working(run_cli, stalls, tmp_path):
    status, out, _ = run_cli("info", "--presolve", stalls)  # the word after a bare --presolve is the puzzle
    assert status == 0 and "line logic:  4 of 12 cells settled" in out and "probing" not in out
    status, _, err = run_cli("build", stalls, "--presolve", "-o", tmp_path / "s.qubo")
    assert status == 0 and "presolved: 12 -> 10 variables" in err
    assert "presolve=" not in (tmp_path / "s.qubo").read_text()  # line logic's files as they always were
    emb = tmp_path / "s.emb.json"  # embed's --presolve is a plain switch: the -o after it stays an option
    status, out, err = run_cli("embed", stalls, "--presolve", "-o", emb, "-t", "chimera:2", "--no-cache")
    assert status == 0 and emb.exists() and "presolved" in out, err


def test_build_presolve_probe_writes_the_residual_model_and_says_so(run_cli, stalls, tmp_path):
    out = tmp_path / "s.qubo.json"
    status, _, err = run_cli("build", stalls, "--presolve", "probe", "-o", out)
    assert status == 0
    assert "presolved: 12 -> 0 variables" in err
    assert "probing:     4 -> 12 of 12 cells settled (solved), 1 round," in err
    assert "note: probing solved the puzzle" in err
    model = exports.load(str(out))
    assert model.presolve == "probe" and model.num_vars == 0 and len(model.fixed) == 12
    status, text, _ = run_cli("info", out)
    assert status == 0 and "12 variables fixed by probing" in text
    status, text, _ = run_cli("decode", out)
    assert status == 0 and "VALID" in text


@pytest.mark.parametrize("fmt", [m.NAME for m in exports.formats("qubo")])
def test_every_qubo_format_carries_the_presolve_back(run_cli, tmp_path, fmt):
    out = tmp_path / f"d.{exports.get_format(fmt).EXTENSIONS[0]}"
    assert run_cli("build", DIFFICULT, "--presolve=probe", "-o", out)[0] == 0
    model = exports.load(str(out))
    assert model.presolve == "probe" and model.num_vars == 479
    again = tmp_path / f"line.{exports.get_format(fmt).EXTENSIONS[0]}"
    assert run_cli("build", DIFFICULT, "--presolve", "line", "-o", again)[0] == 0
    assert exports.load(str(again)).presolve is None and exports.load(str(again)).num_vars == 499


def test_info_presolve_probe_json_reports_rounds_probes_and_time(run_cli):
    status, out, _ = run_cli("info", DIFFICULT, "--presolve", "probe", "--json")
    pre = json.loads(out)["presolve"]
    assert status == 0
    assert pre["presolve"] == "probe" and pre["line_settled_cells"] == 0 and pre["settled_cells"] == 12
    assert pre["probe_solvable"] is False and pre["line_solvable"] is False
    assert pre["probe_rounds"] >= 2 and pre["probe_probes"] > 0 and pre["probe_contradictions"] > 0
    assert pre["variables_after_presolve"] == 479 and pre["presolve_seconds"] > 0


def test_a_bad_presolve_name_is_one_line_exit_2(run_cli, stalls):
    status, _, err = run_cli("info", stalls, "--presolve=guess")
    assert status == 2 and "--presolve" in err and "line, probe" in err and "Traceback" not in err


def test_probing_proves_no_solution_in_one_line(run_cli, tmp_path):
    path = tmp_path / "none.json"
    path.write_text(json.dumps({"rows": [[1, 1], [2], [1, 1], [1]], "cols": [[1, 1], [1, 1], [1, 1], [1]]}))
    status, _, err = run_cli("build", path, "--presolve", "probe", "-o", tmp_path / "x.qubo")
    assert status == 2 and "probing proves it" in err and "Traceback" not in err
    assert not (tmp_path / "x.qubo").exists()


def test_solve_presolve_probe_samples_only_what_is_left(run_cli, stalls):
    status, out, _ = run_cli("solve", stalls, "--presolve", "probe", "--json", "--reads", "2", "--seed", "1")
    doc = json.loads(out)
    assert status == 0 and (doc["variables"], doc["fixed"], doc["num_valid"]) == (0, 12, 1)
    status, out, _ = run_cli("solve", stalls, "--presolve", "--json", "--reads", "2", "--seed", "1")
    assert status == 0 and (json.loads(out)["variables"], json.loads(out)["fixed"]) == (10, 2)


def test_info_truth_gives_the_hardness_label(run_cli, stalls):
    pytest.importorskip("ortools")
    status, out, _ = run_cli("info", stalls, "--truth", "--json")
    found = json.loads(out)["truth"]
    assert status == 0 and found["unique"] is True
    assert (found["hardness"], found["variables"], found["variables_after_line"], found["variables_after_probe"]) == (
        "probe-solvable", 12, 10, 0)
    status, out, _ = run_cli("info", DIFFICULT, "--truth")
    assert status == 0 and "hardness:    needs-search (variables 499 -> 499 after line logic -> 479 after probing)" \
        in out


def test_suite_presolve_probe_writes_residuals_and_indexes_hardness(run_cli, stalls, tmp_path):
    out = tmp_path / "suite"
    status, _, err = run_cli("suite", stalls, DIFFICULT, "--presolve", "probe", "-o", out, "-f", "qbsolv", "-j", "1",
                             "-q")
    assert status == 0, err
    index = {e["name"]: e for e in json.loads((out / "index.json").read_text())["puzzles"]}
    assert index["stalls"]["hardness"] == "probe-solvable" and index["stalls"]["variables_after_presolve"] == 0
    hard = index["gecode-difficult"]
    assert (hard["hardness"], hard["variables_after_line"], hard["variables_after_probe"]) == ("needs-search", 499, 479)
    assert exports.load(str(out / "gecode-difficult.presolved.qubo")).num_vars == 479
    assert "hardness" in (out / "index.csv").read_text().splitlines()[0]


def test_suite_unique_names_the_hard_rule(run_cli, tmp_path):
    from nonoqubo.generation.families import parse_family

    assert "not probe-solvable by one-cell probing" in parse_family("9x9:0.5:1", unique="hard").members()[0].source
    status, _, err = run_cli("suite", "--random", "6x6:0.5:1", "--unique=hardest", "-o", tmp_path / "s")
    assert status == 2 and "'hard'" in err


def test_probe_in_numpy_grid_matches_the_picture(stalls):
    from nonoqubo.logic.probe import probe_solve

    assert np.array_equal(probe_solve(Puzzle.from_picture(STALLS)).grid, Puzzle.from_picture(STALLS).solution_grid())


def test_suite_unique_hard_keeps_exactly_the_real_hard_core(run_cli, tmp_path):
    """tests/data/puzzles/hard/mixed.nin: line-solvable, gecode-difficult (a hard core), probe-solvable,
    not unique (see its README.txt); --unique=hard keeps the second only, with its label."""
    pytest.importorskip("ortools")
    mixed = SHARED / "hard" / "mixed.nin"
    out = tmp_path / "cores"
    status, _, err = run_cli("suite", mixed, "--unique=hard", "-o", out, "-j", "1")
    assert status == 0, err
    assert "4 puzzles: 1 built, 0 up to date, 0 failed, 3 not kept (--unique)," in err
    index = json.loads((out / "index.json").read_text())["puzzles"]
    assert [(e["name"], e["status"]) for e in index] == [("mixed-1", "not-kept"), ("mixed-2", "ok"),
                                                        ("mixed-3", "not-kept"), ("mixed-4", "not-kept")]
    assert [e.get("reason") for e in index] == [
        "not a hard core: probing settles it (--unique=hard)", None,
        "not a hard core: probing settles it (--unique=hard)",
        "not unique (CP-SAT finds a second solution) (--unique=hard)"]
    core = index[1]
    assert (core["hardness"], core["variables_after_line"], core["variables_after_probe"]) == ("needs-search", 499, 479)
    assert sorted(p.name for p in out.iterdir()) == ["index.csv", "index.json", "mixed-2.clues.json",
                                                     "mixed-2.qubo.json"]
    rows = (out / "index.csv").read_text().splitlines()
    assert "hardness" in rows[0] and "not a hard core" in rows[1] and ",needs-search," in rows[2]
    status, text, _ = run_cli("info", out / "mixed-2.clues.json", "--truth")
    assert status == 0 and "solutions:   1 (unique; CP-SAT, counted up to 2)" in text
    assert "hardness:    needs-search (variables 499 -> 499 after line logic -> 479 after probing)" in text
    assert run_cli("suite", mixed, "--unique=hard", "-o", out, "-j", "1", "-q")[0] == 0  # resumes: kept as it was
    again = json.loads((out / "index.json").read_text())["puzzles"]
    assert [e["status"] for e in again] == ["not-kept", "ok", "not-kept", "not-kept"]


def test_suite_unique_line_and_cpsat_apply_to_files_too(run_cli, tmp_path):
    pytest.importorskip("ortools")
    mixed = SHARED / "hard" / "mixed.nin"
    for rule, kept in (("line", ["mixed-1"]), ("cpsat", ["mixed-1", "mixed-2", "mixed-3"])):
        out = tmp_path / rule
        assert run_cli("suite", mixed, f"--unique={rule}", "-o", out, "-j", "1", "-q")[0] == 0
        index = json.loads((out / "index.json").read_text())["puzzles"]
        assert [e["name"] for e in index if e["status"] == "ok"] == kept
