"""The MiniZinc export (``build -o model.mzn``) and MiniZinc's answers, solved by the real minizinc + Gecode."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.support import shared_puzzle
from tests.support.brute import all_assignments, all_solutions
from tests.support.minizinc_models import offset_model, plain_model
from tests.support.solver_runs import minizinc_available
from nonoqubo import clues, exports
from nonoqubo.decoding import decode
from nonoqubo.errors import FormatError, NoSolution, SampleError
from nonoqubo.logic.presolve import presolve_qubo
from nonoqubo.model.automaton import line_automaton
from nonoqubo.model.build import build
from nonoqubo.model.puzzle import Puzzle, clue_of_line
from nonoqubo.samples import minizinc as answers

HERE = Path(__file__).resolve().parents[1]
COLOUR = sorted((HERE / "data" / "puzzles" / "colour").glob("*.json"))
LOGO = HERE / "data" / "puzzles" / "json" / "qbpp-logo.json"
#: no solution (brute force finds none), yet the row and column totals agree
INFEASIBLE = Puzzle(rows=[[1, 1], [1], [1]], cols=[[1], [1, 1], [1]])

needs_minizinc = pytest.mark.skipif(not minizinc_available(),
                                    reason="minizinc with Gecode is not installed (Debian: apt-get install minizinc flatzinc)")


#: every way of printing solutions minizinc has, each with the statistics and timing lines that can come with it
OUTPUT_MODES = [(), ("--output-mode", "json"), ("--output-mode", "dzn"), ("-s", "--output-time"),
                 ("--output-mode", "json", "-s", "--output-time"), ("--output-mode", "dzn", "-s", "--output-time"),
                 ("--json-stream",), ("--json-stream", "--output-mode", "json"),
                 ("--json-stream", "--output-mode", "dzn", "-s", "--output-time")]
_STAT = re.compile(r"^%%%mzn-stat: (\w+)=(.*)$", re.MULTILINE)


def _solve(path: Path, *options: str) -> str:
    proc = subprocess.run(["minizinc", "--solver", "gecode", *options, str(path)], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


# -- the automaton ------------------------------------------------------------------------------
@pytest.mark.parametrize("n, clue", [(5, (2, 1)), (4, ()), (6, (1, 1, 1)), (3, (3,))])
def test_the_automaton_accepts_exactly_the_lines_of_its_clue(n, clue):
    auto = line_automaton(clue, [1] * len(clue))
    for cells in all_assignments(n):
        assert auto.accepts(cells.tolist()) == (clue_of_line(cells) == tuple(clue)), cells


def test_blocks_of_different_colours_may_touch_and_the_same_may_not():
    auto = line_automaton([1, 1, 2], [1, 2, 2], num_colours=2)
    assert auto.accepts([1, 2, 0, 2, 2]) and auto.accepts([0, 1, 0, 2, 0, 2, 2])
    assert not auto.accepts([1, 2, 2, 2]) and not auto.accepts([2, 1, 0, 2, 2])


# -- the file -----------------------------------------------------------------------------------
def test_the_file_carries_clues_metadata_and_loads_back_as_the_qubo(tmp_path):
    puzzle = clues.load(LOGO)
    q = build(puzzle)
    path = tmp_path / "logo.mzn"
    assert exports.dump(q, path).NAME == "minizinc"
    text = path.read_text()
    assert text.startswith("% nonoqubo ") and 'include "regular.mzn";' in text and "output [" in text
    assert text.count("constraint regular(") == puzzle.height + puzzle.width
    assert "% row 1: 7\n" in text
    back = exports.load(path)
    assert back.same_model(q) and back.puzzle.rows == puzzle.rows


def test_a_presolved_model_keeps_its_fixings(tmp_path):
    puzzle = shared_puzzle("gecode-webpbn27")
    reduced = presolve_qubo(puzzle)
    path = tmp_path / "p.mzn"
    exports.dump(reduced, path)
    back = exports.load(path)
    assert back.same_model(reduced) and dict(back.fixed) == dict(reduced.fixed)


def test_a_file_without_metadata_or_with_another_grid_is_refused():
    text = exports.dumps(build(clues.load(LOGO)), "minizinc")
    with pytest.raises(FormatError, match="no nonoqubo metadata"):
        exports.loads("int: height = 1;\n", "minizinc", source="x.mzn")
    with pytest.raises(FormatError, match="grid"):
        exports.loads(text.replace("int: height = 15;", "int: height = 14;"), "minizinc", source="x.mzn")


def test_ising_is_refused(tmp_path):
    from nonoqubo.errors import UnsupportedFormat

    with pytest.raises(UnsupportedFormat, match="Ising"):
        exports.dump(build(clues.load(LOGO)), tmp_path / "x.mzn", ising=True)


def test_formats_lists_it(run_cli):
    status, stdout, _ = run_cli("formats")
    assert status == 0 and any(ln.split()[:1] == ["minizinc"] and ".mzn" in ln for ln in stdout.splitlines())


# -- the answers (no minizinc needed) -----------------------------------------------------------
def test_every_solution_printed_is_a_sample_and_statistics_are_skipped():
    text = ("nonoqubo picture 1x2 legend .#\n#.\n----------\n%%%mzn-stat: nodes=1\n"
            "nonoqubo picture 1x2 legend .#\n.#\n----------\n==========\n")
    raw = answers.loads(text, source="a.txt")
    assert [g.tolist() for g in raw.grids] == [[[1, 0]], [[0, 1]]]


@pytest.mark.parametrize("text, error, message", [
    ("=====UNSATISFIABLE=====\n", NoSolution, "no solution"),
    ("=====UNKNOWN=====\n", SampleError, "UNKNOWN"),
    ("nonoqubo picture 1x2 legend .#\n#.\n", FormatError, "closing"),
    ("nonoqubo picture 2x2 legend .#\n#.\n----------\n", FormatError, "rows"),
    ("nonoqubo picture 1x2 legend .#\n#x\n----------\n", FormatError, "legend"),
    ('{"grid": [[1, "a"]]}\n----------\n', FormatError, "integers"),
])
def test_what_is_not_an_answer_says_so(text, error, message):
    with pytest.raises(error, match=message):
        answers.loads(text, source="a.txt")


def test_the_committed_answers_of_the_real_minizinc_decode_valid():
    data = HERE / "data" / "answers"
    for name in ("logo.minizinc.txt", "logo.minizinc.json"):
        [report] = decode(LOGO, data / name)
        assert report.valid and report.energy == 0


def test_a_picture_that_breaks_its_clues_is_reported_invalid(tmp_path, run_cli):
    puzzle = clues.load(LOGO)
    model = tmp_path / "logo.mzn"
    exports.dump(build(puzzle), model)
    rows = list(puzzle.solution)
    rows[0] = "....######....."  # row 1 is 7 cells; its column 11 still wants the cell
    answer = tmp_path / "answer.txt"
    answer.write_text("nonoqubo picture 15x15 legend .#\n" + "\n".join(rows) + "\n----------\n")
    [report] = decode(model, answer)
    assert not report.valid and report.energy > 0 and report.cell_conflicts
    status, stdout, stderr = run_cli("decode", model, answer)
    assert status == 1 and "INVALID" in stdout and not stderr
    answer.write_text("nonoqubo picture 3x3 legend .#\n...\n...\n...\n----------\n")
    status, _, stderr = run_cli("decode", model, answer)
    assert status == 2 and "3x3 picture but the puzzle is 15x15" in stderr


def test_a_cell_that_breaks_both_its_lines_is_refused_not_called_valid(tmp_path, run_cli):
    puzzle = clues.load(LOGO)
    model = tmp_path / "logo.mzn"
    exports.dump(build(puzzle), model)
    rows = [list(r) for r in puzzle.solution]
    assert rows[7][7] == "."
    rows[7][7] = "#"  # a stray black cell: row 8 and column 8 both break their clues there
    answer = tmp_path / "answer.txt"
    answer.write_text("nonoqubo picture 15x15 legend .#\n" + "\n".join(map("".join, rows)) + "\n----------\n")
    status, stdout, stderr = run_cli("decode", model, answer)
    assert status == 2 and not stdout
    assert stderr.strip().splitlines() == [
        f"nonoqubo: error: {answer}: solution 0: the cell in row 8, column 8 breaks the clues of both its row and "
        "its column (1 such cell), so the picture cannot be written in the model's variables; check it with: "
        "nonoqubo check PUZZLE GRID"]


def test_pictures_need_the_clues():
    from nonoqubo.samples import parse_samples

    with pytest.raises(SampleError, match="need the puzzle's clues"):
        parse_samples("nonoqubo picture 1x1 legend .#\n#\n----------\n", ["a"])


# -- the real minizinc and Gecode -----------------------------------------------------------------
@needs_minizinc
@pytest.mark.parametrize("path", [LOGO, HERE / "data" / "puzzles" / "json" / "gecode-castle.json", *COLOUR],
                         ids=lambda p: p.stem)
def test_gecode_solves_the_model_and_its_answer_decodes_valid(path, tmp_path, run_cli):
    model = tmp_path / "model.mzn"
    status, _, stderr = run_cli("build", path, "-o", model, "-q")
    assert status == 0, stderr
    for options in OUTPUT_MODES if path in (LOGO, COLOUR[0]) else OUTPUT_MODES[:2]:
        answer = tmp_path / "answer.out"
        answer.write_text(_solve(model, *options))
        status, stdout, stderr = run_cli("decode", model, answer)
        assert status == 0 and "VALID, energy 0" in stdout, (options, stdout, stderr)


@needs_minizinc
def test_all_solutions_are_every_solution(tmp_path):
    puzzle = Puzzle(rows=[[1], [1], [1]], cols=[[1], [1], [1]])
    model = tmp_path / "m.mzn"
    exports.dump(build(puzzle), model)
    (tmp_path / "all.txt").write_text(_solve(model, "-a"))
    reports = decode(model, tmp_path / "all.txt")
    assert len(reports) == len(all_solutions(puzzle)) == 6 and all(r.valid for r in reports)


@needs_minizinc
def test_unsatisfiable_is_reported_as_such(tmp_path, run_cli):
    assert len(all_solutions(INFEASIBLE)) == 0
    model = tmp_path / "inf.mzn"
    exports.dump(build(INFEASIBLE), model)
    answer = tmp_path / "inf.txt"
    answer.write_text(_solve(model))
    assert answer.read_text().strip() == "=====UNSATISFIABLE====="
    status, stdout, stderr = run_cli("decode", model, answer)
    assert status == 1 and stderr == "" and len(stdout.splitlines()) == 1 and "no solution" in stdout


def test_the_json_answer_is_read_as_minizinc_prints_it():
    doc = '{\n  "grid" : [[0, 1], [1, 0]]\n}\n----------\n'
    assert answers.detect(doc.encode()) and answers.loads(doc).grids[0].tolist() == json.loads(doc.split("\n-")[0])["grid"]


@needs_minizinc
def test_every_output_mode_gives_every_solution(tmp_path):
    puzzle = Puzzle(rows=[[1], [1], [1]], cols=[[1], [1], [1]])
    model = tmp_path / "m.mzn"
    exports.dump(build(puzzle), model)
    for options in OUTPUT_MODES:
        (tmp_path / "all.out").write_text(_solve(model, "-a", *options))
        reports = decode(model, tmp_path / "all.out")
        assert len(reports) == 6 and all(r.valid for r in reports), options


# -- what Gecode is given ------------------------------------------------------------------------
def _gecode_stats(path: Path) -> dict[str, str]:
    return dict(_STAT.findall(_solve(path, "-s")))


@needs_minizinc
@pytest.mark.parametrize("name", ["gecode-difficult", "gecode-webpbn65", "dejoue-webpbn-06574-forever", "colour"])
def test_gecode_gets_one_variable_per_cell_and_searches_as_the_textbook_model(name, tmp_path):
    puzzle = clues.load(COLOUR[0]) if name == "colour" else shared_puzzle(name)
    ours, plain = tmp_path / "ours.mzn", tmp_path / "plain.mzn"
    exports.dump(build(puzzle), ours)
    plain.write_text(plain_model(puzzle))
    a, b = _gecode_stats(ours), _gecode_stats(plain)
    assert int(a["flatIntVars"]) == puzzle.height * puzzle.width == int(b["flatIntVars"])
    assert int(a["nodes"]) == int(b["nodes"]) and a["failures"] == b["failures"]


@needs_minizinc
@pytest.mark.slow
def test_the_earlier_offset_cells_took_many_more_nodes(tmp_path):
    """Why the writer declares var 1..C+1: cells var 0..C read as grid + 1 double the variables and the search."""
    puzzle = shared_puzzle("dejoue-webpbn-06574-forever")
    offset = tmp_path / "offset.mzn"
    offset.write_text(offset_model(puzzle))
    ours = tmp_path / "ours.mzn"
    exports.dump(build(puzzle), ours)
    before, now = _gecode_stats(offset), _gecode_stats(ours)
    assert int(before["flatIntVars"]) == 2 * int(now["flatIntVars"])
    assert int(before["nodes"]) > 10 * int(now["nodes"])


# -- every output mode, read without minizinc ----------------------------------------------------
def test_statistics_and_timing_lines_are_skipped():
    text = ("% Generated FlatZinc statistics:\n%%%mzn-stat: flatIntVars=2\n%%%mzn-stat-end\n"
            "nonoqubo picture 1x2 legend .#\n#.\n% time elapsed: 0.09 s\n----------\n==========\n"
            "% time elapsed: 0.09 s\n%%%mzn-stat: nodes=3\n%%%mzn-stat-end\n")
    assert answers.detect(text.encode()) and answers.loads(text).grids[0].tolist() == [[1, 0]]


def test_a_picture_row_is_a_row_whatever_it_starts_with():
    text = "nonoqubo picture 2x2 legend .%\n%.\n.%\n% time elapsed: 0.1 s\n----------\n"
    assert answers.loads(text).grids[0].tolist() == [[1, 0], [0, 1]]


@pytest.mark.parametrize("dzn, grid", [
    ("grid = \n[| 1, 0\n | 0, 1\n |];\n", [[1, 0], [0, 1]]),
    ("grid = array2d(1..2, 1..2, [0, 1, 1, 0]);\n", [[0, 1], [1, 0]]),
    ("cell = [| 2, 1 |];\ngrid = [| 1, 0 |];\n", [[1, 0]]),
])
def test_the_dzn_answer_is_read(dzn, grid):
    assert answers.loads(dzn + "----------\n==========\n").grids[0].tolist() == grid


def test_the_json_stream_is_read():
    warning = '{"type": "warning", "message": "included file overrides"}\n\n'
    text = (warning + '{"type": "statistics", "statistics": {"flatIntVars": 2}}\n'
            '{"type": "solution", "output": {"default": "nonoqubo picture 1x2 legend .#\\n#.\\n", "raw": "x"}, "time": 9}\n'
            '{"type": "solution", "output": {"json": {"grid": [[0, 1]]}}}\n'
            '{"type": "solution", "output": {"dzn": "grid = [| 1, 1 |];\\n"}}\n'
            '{"type": "status", "status": "ALL_SOLUTIONS", "time": 93}\n')
    assert answers.detect(text.encode())
    assert [g.tolist() for g in answers.loads(text).grids] == [[[1, 0]], [[0, 1]], [[1, 1]]]


@pytest.mark.parametrize("text, error, message", [
    ('{"type": "status", "status": "UNSATISFIABLE"}\n', NoSolution, "no solution"),
    ('{"type": "status", "status": "UNKNOWN"}\n', SampleError, "status UNKNOWN"),
    ('{"type": "error", "message": "type error"}\n', SampleError, "type error"),
    ('{"type": "statistics"}\n', SampleError, "no solution"),
    ('{"type": "solution"}\n', FormatError, "output"),
    ('{"type": "solution", "output": {}}\nnot json\n', FormatError, ":1:"),
    ('{"type": "statistics"}\n[1]\n', FormatError, ":2:"),
    ("grid = [| 1, x |];\n----------\n", FormatError, "integers"),
    ("grid = [| 1, 0 | 1 |];\n----------\n", FormatError, "one length"),
    ("size = 3;\n----------\n", FormatError, "no grid"),
])
def test_what_minizinc_did_not_solve_or_is_broken_says_so(text, error, message):
    with pytest.raises(error, match=message):
        answers.loads(text, source="a.out")
