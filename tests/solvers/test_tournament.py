"""Tournament answer files: check and decode every puzzle by number; cpsat solves a whole collection."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from nonoqubo.solvers.tournament import check_answers
from nonoqubo.clues import taai
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.samples import tournament
from nonoqubo.samples import read_raw


def collection(count: int = 4, size: int = 5, seed: int = 3) -> tuple[list[Puzzle], list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    grids = [(rng.random((size, size)) < 0.5).astype(np.int64) for _ in range(count)]
    return [Puzzle.from_picture(["".join("#" if v else "." for v in row) for row in g]) for g in grids], grids


@pytest.fixture
def files(tmp_path):
    """(questions path, answers path, the grids) of a 4-puzzle 5x5 collection and its right answers."""
    puzzles, grids = collection()
    questions = tmp_path / "q.taai"
    questions.write_text("".join(taai.dumps(p).replace("$1", f"${k}", 1) for k, p in enumerate(puzzles, start=1)))
    answers = tmp_path / "a.txt"
    answers.write_text(tournament.dumps(dict(enumerate(grids, start=1))))
    return questions, answers, grids


def test_right_answers_check_valid_in_any_order(files, run_cli):
    questions, answers, grids = files
    answers.write_text(tournament.dumps({k: grids[k - 1] for k in (3, 1, 4, 2)}))
    status, out, _ = run_cli("check", questions, answers)
    assert (status, out.strip()) == (0, "total: 4 of 4 puzzles solved")


def test_one_line_per_failing_puzzle_then_the_total(files, run_cli):
    questions, answers, grids = files
    wrong = grids[1].copy()
    wrong[0] = 1 - wrong[0]
    answers.write_text(tournament.dumps({1: grids[0], 2: wrong, 4: grids[3][:4]}))
    status, out, _ = run_cli("check", questions, answers)
    lines = out.strip().split("\n")
    assert status == 1
    assert lines[0].startswith(f"{answers}:7: $2: INVALID: ") and "row 1" in lines[0]
    assert lines[1] == f"{answers}: $3: no answer (the question file {questions} asks it)"
    assert lines[2] == f"{answers}:13: $4: the answer has 4 rows of 5 cells; the puzzle is 5 rows of 5"
    assert lines[3] == "total: 1 of 4 puzzles solved; 1 missing, 1 wrong, 1 wrong size"


def test_an_extra_and_a_second_header_are_located_problems_and_every_puzzle_is_checked(files, run_cli):
    questions, answers, grids = files
    text = tournament.dumps(dict(enumerate(grids, start=1)))
    answers.write_text(text + "$9\n" + "1\t0\t0\t0\t0\n" * 5 + "$2\n" + "0\t0\t0\t0\t0\n" * 5)
    status, out, _ = run_cli("check", questions, answers)
    lines = out.strip().split("\n")
    assert status == 2
    assert f"{answers}:31: a second header $2 (the first is at line 7); only the first is checked" in lines
    assert f"{answers}:25: $9: no such puzzle in {questions} (it holds 4: $1..$4)" in lines
    assert lines[-1] == "total: 4 of 4 puzzles solved; 2 problems in the files"


def test_crlf_mixed_with_lf_is_one_located_problem(files, run_cli):
    questions, answers, grids = files
    text = tournament.dumps(dict(enumerate(grids, start=1))).replace("\n", "\r\n")
    lines = text.split("\r\n")
    answers.write_bytes(("\r\n".join(lines[:8]) + "\n" + "\r\n".join(lines[8:])).encode())
    status, out, _ = run_cli("check", questions, answers)
    assert status == 2
    assert out.split("\n")[0] == (f"{answers}:8: this line ends in LF, the lines before it in CRLF: the file mixes "
                                  "line endings (every answer is still read)")
    assert out.strip().split("\n")[-1] == "total: 4 of 4 puzzles solved; 1 problem in the files"
    answers.write_bytes(text.encode())  # CRLF throughout (TCGA 2023's files) is fine
    assert run_cli("check", questions, answers)[0] == 0


def test_a_broken_answer_fails_its_puzzle_only(files, run_cli):
    questions, answers, grids = files
    text = tournament.dumps(dict(enumerate(grids, start=1))).split("\n")
    text[2] = text[2].replace("0", "2", 1).replace("1", "2", 1)
    answers.write_text("\n".join(text))
    status, out, _ = run_cli("check", questions, answers)
    assert status == 1
    assert out.split("\n")[0] == f"{answers}:3: $1, row 2: '2' is not a cell (0 or 1)"
    assert out.strip().endswith("total: 3 of 4 puzzles solved; 1 broken")


def test_a_question_file_cut_short_is_located_and_the_others_are_checked(files, run_cli):
    questions, answers, _ = files
    lines = questions.read_text().split("\n")
    questions.write_text("\n".join(lines[:-4]) + "\n")
    status, out, _ = run_cli("check", questions, answers)
    assert status == 2
    assert out.split("\n")[0].startswith(f"{questions}:34: puzzle $4 is cut short: 7 clue lines, expected 10")
    assert out.strip().endswith("total: 3 of 4 puzzles solved; 1 unreadable")


SCHEMA = Path(__file__).resolve().parents[2] / "nonoqubo" / "schemas" / "report.schema.json"


def validate(doc: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(doc, json.loads(SCHEMA.read_text()))


def test_json_lists_every_failure(files, run_cli):
    questions, answers, grids = files
    answers.write_text(tournament.dumps({1: grids[0], 2: grids[1]}))
    status, out, _ = run_cli("check", questions, answers, "--json")
    doc = json.loads(out)
    validate(doc)
    assert status == 1 and doc["kind"] == "tournament-check" and doc["solved"] == 2 and doc["exit_status"] == 1
    assert [(f["number"], f["status"]) for f in doc["failures"]] == [(3, "missing"), (4, "missing")]


def test_decode_checks_a_collection_as_check_does(files, run_cli):
    questions, answers, grids = files
    answers.write_text(tournament.dumps({1: grids[0], 2: grids[1], 3: grids[2]}))
    status, out, _ = run_cli("decode", questions, answers)
    assert status == 1 and out.strip().split("\n")[-1] == "total: 3 of 4 puzzles solved; 1 missing"


def test_against_one_puzzle_the_answers_are_samples(files, run_cli):
    questions, answers, grids = files
    raw, _ = read_raw(str(answers))
    assert [g.tolist() for g in raw.grids] == [g.tolist() for g in grids]
    one = questions.parent / "one.taai"
    one.write_text(taai.dumps(Puzzle.from_picture(["".join("#" if v else "." for v in r) for r in grids[0]])))
    single = questions.parent / "one.txt"
    single.write_text(tournament.dumps({1: grids[0]}))
    status, out, _ = run_cli("decode", one, single)
    assert status == 0 and "VALID" in out


def test_options_of_one_puzzle_are_refused_with_a_collection(files, run_cli):
    questions, answers, _ = files
    status, _, err = run_cli("check", questions, answers, "--image", "x.svg")
    assert status == 2 and len(err.strip().split("\n")) == 1 and "--image: a tournament answer file" in err


def test_the_reader_never_raises_and_loads_names_the_first_problem():
    found = tournament.read_answers("junk\n$1\n1\n$x\n$1\n0\n", source="a.txt")
    assert found.problems == ["a.txt:1: 'junk' before the first header ($1)", "a.txt:4: '$x' is not an answer header "
                              "($ and a number)", "a.txt:5: a second header $1 (the first is at line 2); only the "
                              "first is checked"]
    assert found.answers[1].grid.tolist() == [[1]]
    with pytest.raises(Exception, match=r"a.txt:1: 'junk' before the first header"):
        tournament.loads("junk\n$1\n1\n", source="a.txt")
    assert tournament.detect(b"\xef\xbb\xbf$1\r\n0\t1\r\n") and not tournament.detect(b"$1\n2\t1\n")


def test_a_tournament_question_file_is_not_taken_for_answers(files):
    questions, answers, _ = files
    assert not tournament.detect(questions.read_bytes()) and tournament.detect(answers.read_bytes())
    assert not tournament.detect(b"$1\n1\n1 1\n0\n1\n")  # clues of 0/1 digits, of different lengths


pytest.importorskip("ortools.sat.python.cp_model", reason="the cp extra (ortools) is not installed")


def test_solve_writes_answers_that_check_valid(files, run_cli):
    questions, _, _ = files
    out_file = questions.parent / "mine.txt"
    status, out, _ = run_cli("solve", questions, "--sampler", "cpsat", "--tournament-answers", out_file, "--workers", "1")
    assert status == 0 and out.strip().startswith("total: 4 of 4 puzzles solved; ")
    result = check_answers(questions, out_file)
    assert result.exit_status == 0 and result.solved == 4
    assert out_file.read_text().startswith("$1\n") and "\t" in out_file.read_text()


def test_solve_on_a_collection_without_answers_file_and_with_json(files, run_cli):
    questions, _, _ = files
    status, out, _ = run_cli("solve", questions, "--sampler", "cpsat", "--json", "--workers", "1")
    doc = json.loads(out)
    validate(doc)
    assert status == 0 and doc["kind"] == "tournament-solve" and doc["solved"] == 4 and len(doc["times"]) == 4


def test_a_time_limit_in_a_collection_is_exit_3(tmp_path, run_cli):
    from nonoqubo.generation.families import Member, make

    big = make(Member(50, 50, 0.5, 0, 1))
    questions = tmp_path / "q.taai"
    questions.write_text(taai.dumps(big) + taai.dumps(big).replace("$1", "$2"))
    status, out, _ = run_cli("solve", questions, "--sampler", "cpsat", "--time-limit", "0.001",
                             "--tournament-answers", tmp_path / "a.txt")
    assert status == 3
    assert f"{questions}: $1: the time limit (0.001 s) came before a solution" in out
    assert (tmp_path / "a.txt").read_text() == ""


def test_tournament_answers_need_cpsat(files, run_cli):
    questions, _, _ = files
    status, _, err = run_cli("solve", questions, "--tournament-answers", questions.parent / "x.txt")
    assert status == 2 and "only --sampler cpsat solves a whole collection" in err


def test_solves_collection_says_when_solve_means_every_puzzle(files):
    from nonoqubo.solvers.tournament import solves_collection

    questions, answers, _ = files
    assert solves_collection(questions, sampler="cpsat")
    assert not solves_collection(questions, sampler="cpsat", one_puzzle=True)  # --index or --name
    assert not solves_collection(questions, sampler="sa")
    assert solves_collection(questions, sampler="cpsat", one_puzzle=True, answers_out=answers)
    single = questions.parent / "one.taai"
    single.write_text(taai.dumps(collection(1)[0][0]))
    assert not solves_collection(single, sampler="cpsat")


def test_solve_all_plans_its_total_before_the_first_search(files):
    from nonoqubo.solvers.tournament import solve_all

    questions, _, _ = files
    seen: list[tuple[str, int]] = []
    outcome = solve_all(questions, workers=1, plan=lambda total: seen.append(("plan", total)),
                        tick=lambda done: seen.append(("tick", done)))
    assert outcome.solved == 4
    assert seen == [("plan", 4), ("tick", 1), ("tick", 2), ("tick", 3), ("tick", 4)]
