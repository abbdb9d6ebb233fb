"""Truth in every suite: solution counts (CP-SAT) against brute force, --unique by proof, evaluate's distinct count."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from tests.support import hide_packages
from tests.support.brute import all_solutions
from nonoqubo import clues, exports
from nonoqubo.logic.linesolve import line_solve
from nonoqubo.model.encoding import Layout
from nonoqubo.model.puzzle import Puzzle

pytest.importorskip("ortools.sat.python.cp_model", reason="the cp extra (ortools) is not installed")

from nonoqubo.generation.families import MAX_UNDECIDED, Member, draw, make  # noqa: E402
from nonoqubo.errors import TimeLimit  # noqa: E402
from nonoqubo.solvers.cpsat import TRUTH_TIME, UNKNOWN, Truth, truth  # noqa: E402

#: a puzzle CP-SAT needs far longer than a millisecond for (seconds, on any machine): its first
#: search, let alone the proof, cannot end within TINY_LIMIT
HARD = Member(50, 50, 0.5, 0, 1)
TINY_LIMIT = 0.001

TINY = {
    "none": Puzzle(rows=[[1, 1], [1], [1]], cols=[[1], [1, 1], [1]]),
    "one": Puzzle(rows=[[1], [2]], cols=[[2], [1]]),
    "two": Puzzle(rows=[[1], [1]], cols=[[1], [1]]),
    "six": Puzzle(rows=[[1], [1], [1]], cols=[[1], [1], [1]]),
}


def _write_tiny(folder: Path) -> None:
    folder.mkdir()
    for name, puzzle in TINY.items():
        clues.dump(puzzle, folder / f"{name}.json")


@pytest.mark.parametrize("name", sorted(TINY))
def test_truth_counts_equal_brute_force(name):
    puzzle = TINY[name]
    n = len(all_solutions(puzzle))
    got = truth(puzzle, limit=10)
    assert (got.solutions, got.exact) == (n, True)
    assert got.line_solvable == bool(n == 1 and line_solve(puzzle).solved)
    capped = truth(puzzle, limit=2)
    assert capped.solutions == min(n, 2) and capped.exact == (n < 2)
    assert capped.unique == (n == 1) and capped.solve_seconds >= 0 and capped.proof_seconds >= 0


def test_suite_truth_records_the_counts_in_json_and_csv(tmp_path, run_cli):
    _write_tiny(tmp_path / "tiny")
    status, _, err = run_cli("suite", tmp_path / "tiny", "-o", tmp_path / "s", "--truth", "--truth-limit", "10",
                             "-j", "1", "-q")
    index = {e["name"]: e for e in json.loads((tmp_path / "s" / "index.json").read_text())["puzzles"]}
    assert index["none"]["status"] == "error"  # line logic (the build's presolve) proves it has none
    for name in ("one", "two", "six"):
        e = index[name]
        assert (e["solutions"], e["solutions_exact"]) == (len(all_solutions(TINY[name])), True), name
        assert e["unique"] == (name == "one") and e["solve_seconds"] >= 0 and e["proof_seconds"] >= 0
    rows = {r["name"]: r for r in csv.DictReader((tmp_path / "s" / "index.csv").open())}
    assert rows["six"]["solutions"] == "6" and rows["two"]["solutions_label"] == "2"
    status, _, _ = run_cli("suite", tmp_path / "tiny", "-o", tmp_path / "c", "--truth", "-j", "1", "-q")
    index = {e["name"]: e for e in json.loads((tmp_path / "c" / "index.json").read_text())["puzzles"]}
    assert (index["six"]["solutions"], index["six"]["solutions_exact"], index["six"]["solutions_label"]) == \
        (2, False, ">= 2")


def test_suite_without_truth_writes_no_truth_columns(tmp_path, run_cli):
    status, _, _ = run_cli("suite", "--random", "4x4:0.5:2:1", "-o", tmp_path / "s", "-j", "1", "-q")
    assert status == 0
    head = (tmp_path / "s" / "index.csv").read_text().splitlines()[0]
    assert "solutions" not in head
    assert all("solutions" not in e for e in json.loads((tmp_path / "s" / "index.json").read_text())["puzzles"])


def test_unique_keeps_a_proven_unique_puzzle_that_line_logic_cannot_solve(tmp_path, run_cli):
    # random 8x8 d=0.5 seed 1: member 2's first CP-SAT-unique picture is not line-solvable
    status, _, err = run_cli("suite", "--random", "8x8:0.5:3:1", "--unique", "--truth", "-o", tmp_path / "p",
                             "-j", "1", "-q")
    assert status == 0, err
    proven = json.loads((tmp_path / "p" / "index.json").read_text())["puzzles"]
    assert all(e["unique"] and e["solutions"] == 1 and e["solutions_exact"] for e in proven)
    hard = [e for e in proven if not e["line_solvable"]]
    assert hard, "expected a unique puzzle line logic cannot solve"
    status, _, err = run_cli("suite", "--random", "8x8:0.5:3:1", "--unique=line", "--truth", "-o", tmp_path / "l",
                             "-j", "1", "-q")
    assert status == 0, err
    line = json.loads((tmp_path / "l" / "index.json").read_text())["puzzles"]
    assert all(e["line_solvable"] and e["unique"] for e in line)
    kept = {e["name"]: e["key"] for e in line}
    for e in hard:  # the same member under --unique=line is another (line-solvable) picture
        assert kept[e["name"]] != e["key"]
    assert "unique (CP-SAT)" in proven[0]["source"] and "line-solvable" in line[0]["source"]


def test_info_truth_json_keys_and_text(run_cli, tmp_path):
    clues.dump(TINY["six"], tmp_path / "six.json")
    status, out, _ = run_cli("info", tmp_path / "six.json", "--truth", "--truth-limit", "10", "--json")
    assert status == 0
    got = json.loads(out)["truth"]
    assert set(got) == {"solutions", "solutions_exact", "solutions_label", "solutions_limit", "unique",
                        "line_solvable", "solve_seconds", "proof_seconds", "timed_out", "hardness", "variables",
                        "variables_after_line", "variables_after_probe", "cells", "settled_by_line",
                        "settled_by_probe", "probe_rounds", "hardness_seconds", "cells_open_after_cell_probing",
                        "cells_open_after_variable_probing"}
    assert got["timed_out"] is False
    assert (got["solutions"], got["solutions_exact"], got["unique"], got["line_solvable"]) == (6, True, False, False)
    status, out, _ = run_cli("info", tmp_path / "six.json", "--truth")
    assert status == 0 and "solutions:   2 (not unique" not in out and ">= 2 (not unique" in out
    status, out, _ = run_cli("info", tmp_path / "six.json", "--json")
    assert status == 0 and "truth" not in json.loads(out)


@pytest.mark.parametrize("argv", [("info", "X", "--truth"), ("suite", "--random", "4x4:0.5:1", "--truth", "-o", "D"),
                                  ("suite", "--random", "4x4:0.5:1", "--unique", "-o", "D")])
def test_without_ortools_one_line_exit_2(argv, monkeypatch, run_cli, tmp_path):
    clues.dump(TINY["one"], tmp_path / "one.json")
    hide_packages(monkeypatch, "ortools")
    argv = [str(tmp_path / "one.json") if a == "X" else str(tmp_path / "d") if a == "D" else a for a in argv]
    status, out, err = run_cli(*argv)
    assert status == 2 and len(err.splitlines()) == 1 and 'nonoqubo[cp]' in err and not out
    assert not (tmp_path / "d").exists()


def test_unique_line_needs_no_ortools(monkeypatch, run_cli, tmp_path):
    hide_packages(monkeypatch, "ortools")
    status, _, err = run_cli("suite", "--random", "4x4:0.5:2:1", "--unique=line", "-o", tmp_path / "d", "-j", "1", "-q")
    assert status == 0, err


def test_evaluate_reports_distinct_solutions_of_the_known_count(tmp_path, run_cli):
    # "six": a 3x3 permutation puzzle with 6 solutions; samples hold 3 of them (one repeated) and a wrong one
    _write_tiny(tmp_path / "tiny")
    status, _, err = run_cli("suite", tmp_path / "tiny" / "six.json", tmp_path / "tiny" / "two.json",
                             "-o", tmp_path / "s", "--truth", "--truth-limit", "10", "-j", "1", "-q")
    assert status == 0, err
    qubo = exports.load(tmp_path / "s" / "six.qubo.json")
    layout = Layout.of(TINY["six"])
    sols = all_solutions(TINY["six"])
    rows = [layout.encode(sols[k]) for k in (0, 1, 1, 4)]
    wrong = rows[0].copy()
    wrong[0] ^= 1
    bits = np.array(rows + [wrong], np.int8)
    assert list(qubo.energy(bits)) [:4] == [0, 0, 0, 0] and qubo.energy(bits)[4] > 0
    runs = tmp_path / "runs" / "sa"
    runs.mkdir(parents=True)
    (runs / "six.txt").write_text("\n".join("".join(map(str, r)) for r in bits) + "\n")
    two = Layout.of(TINY["two"]).encode(all_solutions(TINY["two"])[0])
    (runs / "two.txt").write_text("".join(map(str, two)) + "\n")
    status, out, err = run_cli("evaluate", tmp_path / "s", tmp_path / "runs", "--json", "-j", "1",
                               "--csv", tmp_path / "f.csv")
    assert status == 0, err
    groups = {g["model"]: g["raw"] for g in json.loads(out)["groups"]}
    assert (groups["six"]["distinct_solutions"], groups["six"]["solutions"], groups["six"]["solutions_exact"]) == \
        (3, 6, True)
    assert (groups["two"]["distinct_solutions"], groups["two"]["solutions"]) == (1, 2)
    rows_csv = {r["model"]: r for r in csv.DictReader((tmp_path / "f.csv").open())}
    assert rows_csv["six"]["distinct_solutions"] == "3" and rows_csv["six"]["solutions"] == "6"
    status, out, _ = run_cli("evaluate", tmp_path / "s", tmp_path / "runs", "-j", "1")
    assert status == 0 and "3/6" in out and "1/2" in out
    status, out, _ = run_cli("evaluate", tmp_path / "s" / "six.qubo.json", runs / "six.txt", "--json", "-j", "1")
    raw = json.loads(out)["groups"][0]["raw"]
    assert (raw["distinct_solutions"], raw["solutions"]) == (3, None)


def test_a_puzzle_after_a_bare_unique_is_still_a_puzzle(tmp_path, run_cli):
    clues.dump(TINY["one"], tmp_path / "one.json")
    status, _, err = run_cli("suite", "--unique", tmp_path / "one.json", "-o", tmp_path / "s", "-j", "1", "-q")
    assert status == 0 and (tmp_path / "s" / "one.qubo.json").exists(), err
    status, _, err = run_cli("suite", "--random", "4x4:0.5:1", "--unique=lines", "-o", tmp_path / "x")
    assert status == 2 and "--unique must be 'cpsat', 'line' or 'hard'" in err and not (tmp_path / "x").exists()


@pytest.mark.parametrize("command", ["info", "suite"])
@pytest.mark.parametrize("option, value", [("--truth-limit", "0"), ("--truth-time", "-1"), ("--truth-time", "nan")])
def test_a_bad_truth_limit_is_one_line_before_any_work(command, option, value, tmp_path, run_cli):
    spec = tmp_path / "p.yaml"
    spec.write_text("rows: [[1]]\ncols: [[1]]\n")
    out = tmp_path / "suite"
    extra = ["-o", out] if command == "suite" else []
    status, stdout, stderr = run_cli(command, spec, *extra, "--truth", option, value)
    assert (status, stdout) == (2, "")
    assert stderr.startswith("nonoqubo: error: --truth-limit must be at least 1 and --truth-time positive (not ")
    assert len(stderr.splitlines()) == 1 and not out.exists()


# -- the time limit of the proofs (--truth-time) ----------------------------------------------------
def test_a_count_the_time_limit_stops_is_unknown_never_unique():
    got = truth(make(HARD), limit=2, time_limit=TINY_LIMIT)
    assert got.timed_out and not got.exact and not got.unique
    assert got.label() == UNKNOWN == "unknown (time limit)"
    assert got.to_dict()["solutions_label"] == UNKNOWN and got.to_dict()["timed_out"] is True


@pytest.mark.parametrize("found, limit, label", [(0, 2, UNKNOWN), (1, 2, UNKNOWN), (1, 5, UNKNOWN),
                                                 (2, 5, ">= 2"), (3, 10, ">= 3")])
def test_the_label_of_a_timed_out_count(found, limit, label):
    # after k >= 2 solutions the verdict "not unique" holds whatever the time limit cut off
    got = Truth(found, False, False, 0.0, 0.0, limit, timed_out=True)
    assert got.label() == label and not got.unique


def test_a_count_the_solution_limit_stops_is_not_a_time_out():
    got = truth(TINY["six"], limit=2, time_limit=TRUTH_TIME)
    assert (got.solutions, got.exact, got.timed_out, got.label()) == (2, False, False, ">= 2")
    got = truth(TINY["one"], limit=1)
    assert (got.solutions, got.exact, got.timed_out, got.label()) == (1, False, False, ">= 1")


def test_make_keeps_no_draw_whose_proof_timed_out_and_gives_up_after_a_run_of_them():
    member = Member(HARD.width, HARD.height, HARD.density, HARD.seed, HARD.number, "cpsat")
    with pytest.raises(TimeLimit, match=r"random-50x50-d0\.5-s0-0001: uniqueness unknown \(time limit\): "
                                        rf"CP-SAT did not finish the proof of {MAX_UNDECIDED} draws in a row"):
        make(member, time_limit=TINY_LIMIT)


def test_draw_counts_the_draws_and_keeps_the_first_proven_unique():
    member = Member(8, 8, 0.5, 1, 2, "cpsat")
    drawn = draw(member, time_limit=TRUTH_TIME)
    assert drawn.undecided == 0 and drawn.draws >= 1
    assert truth(drawn.puzzle).unique and drawn.puzzle.rows == make(member).rows
    first = draw(Member(8, 8, 0.5, 1, 2))  # the same stream without the rule: its first picture
    assert (first.draws, first.undecided) == (1, 0)
    assert (drawn.draws == 1) == (first.puzzle.rows == drawn.puzzle.rows)


def test_suite_unique_records_a_timed_out_proof_as_unknown_and_keeps_nothing(tmp_path, run_cli):
    out = tmp_path / "s"
    status, _, err = run_cli("suite", "--random", "50x50:0.5:1", "--unique", "--truth-time", str(TINY_LIMIT),
                             "-o", out, "-j", "1")
    assert status == 1 and "uniqueness unknown (time limit)" in err and "--truth-time" in err
    (entry,) = json.loads((out / "index.json").read_text())["puzzles"]
    assert entry["status"] == "error" and entry["unique"] is False and entry["timed_out"] is True
    assert entry["solutions_label"] == UNKNOWN and "files" not in entry and "undecided_draws" not in entry
    assert not list(out.glob("*.qubo.json"))  # not kept: no model written
    (row,) = csv.DictReader((out / "index.csv").open())
    assert row["solutions_label"] == UNKNOWN and row["unique"] == "False"


def test_suite_truth_records_a_timed_out_count_as_unknown(tmp_path, run_cli):
    out = tmp_path / "s"
    status, _, err = run_cli("suite", "--random", "50x50:0.5:1", "--truth", "--truth-time", str(TINY_LIMIT),
                             "-o", out, "-j", "1", "-q")
    assert status == 0, err  # the model is built; only its truth is unknown
    (entry,) = json.loads((out / "index.json").read_text())["puzzles"]
    assert (entry["status"], entry["unique"], entry["timed_out"], entry["solutions_label"]) == \
        ("ok", False, True, UNKNOWN)
    assert entry["solutions_exact"] is False


def test_info_truth_says_a_timed_out_count_is_undecided(tmp_path, run_cli):
    clues.dump(make(HARD), tmp_path / "hard.json")
    status, out, _ = run_cli("info", tmp_path / "hard.json", "--truth", "--truth-time", str(TINY_LIMIT))
    assert status == 0 and f"solutions:   {UNKNOWN} (undecided: raise --truth-time" in out


def test_the_truth_time_default_is_documented(run_cli):
    for command in ("info", "suite"):
        status, out, _ = run_cli(command, "--help")
        assert status == 0 and f"(default {TRUTH_TIME:g})" in " ".join(out.split())


def _first_proof_times_out(monkeypatch, calls: list[int]) -> None:
    """CP-SAT's count stopped by the time limit on the first draw only; the real count after it."""
    import nonoqubo.solvers.cpsat as cpsat

    real = cpsat.count_solutions

    def count(puzzle, limit, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise TimeLimit("the time limit came before any solution")
        return real(puzzle, limit, **kwargs)

    monkeypatch.setattr(cpsat, "count_solutions", count)


def test_a_draw_whose_proof_timed_out_is_skipped_counted_and_a_later_unique_one_kept(monkeypatch):
    member = Member(6, 6, 0.5, 3, 1, "cpsat")
    calls: list[int] = []
    _first_proof_times_out(monkeypatch, calls)
    drawn = draw(member, time_limit=TRUTH_TIME)
    assert drawn.undecided == 1 and drawn.draws >= 2 and len(calls) == drawn.draws
    assert truth(drawn.puzzle).unique  # the one kept is proven unique by a real count
    monkeypatch.undo()
    first = draw(Member(6, 6, 0.5, 3, 1))  # the same stream: the skipped picture is its first
    assert first.puzzle.rows != drawn.puzzle.rows or first.puzzle.cols != drawn.puzzle.cols


def test_suite_records_the_skipped_draws_of_a_kept_member(monkeypatch, tmp_path, run_cli):
    calls: list[int] = []
    _first_proof_times_out(monkeypatch, calls)
    out = tmp_path / "s"
    status, _, err = run_cli("suite", "--random", "6x6:0.5:1:3", "--unique", "-o", out, "-j", "1", "-q")
    assert status == 0, err
    (entry,) = json.loads((out / "index.json").read_text())["puzzles"]
    assert entry["status"] == "ok" and entry["undecided_draws"] == 1
    assert list(out.glob("*.qubo.json"))  # kept: its model is written
