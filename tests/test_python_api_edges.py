"""The Python API at the edges (issue 24, item 11): clue lists, serialised SampleSets, reprs, model clues."""

from __future__ import annotations

import dimod
import pytest

import nonoqubo
from tests.support import SHARED
from nonoqubo import clues

LOGO_JSON = SHARED / "json" / "qbpp-logo.json"


def test_build_takes_clue_lists():
    pair = nonoqubo.build([[[1], [1]], [[1], [1]]])
    mapping = nonoqubo.build({"rows": [[1], [1]], "columns": [[1], [1]]})
    puzzle = nonoqubo.build(nonoqubo.Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    assert pair == puzzle and mapping == puzzle and pair.puzzle == puzzle.puzzle


@pytest.mark.parametrize("bad", [[[1], [1, 1]], "1 1", 3, [[[1]], [[1]], [[1]]]])
def test_build_of_something_else_says_what_to_pass(bad):
    with pytest.raises(TypeError, match=r"build\(\) takes a Puzzle or its clues as \(rows, columns\)"):
        nonoqubo.build(bad)


def test_decode_reads_a_serialised_sampleset():
    q = nonoqubo.build(nonoqubo.Puzzle.from_picture(["#.", ".#"]))
    ss = dimod.SampleSet.from_samples([dict(zip(q.labels, [0, 1, 0, 1])), dict(zip(q.labels, [1, 1, 0, 1]))],
                                      "BINARY", energy=[0, 2])
    reports = nonoqubo.decode(q, ss.to_serializable())
    assert [r.valid for r in reports] == [True, False] and [r.reported_energy for r in reports] == [0, 2]


def test_a_report_repr_is_one_short_line():
    puzzle = clues.load(str(LOGO_JSON))
    q = nonoqubo.build(puzzle)
    report = nonoqubo.decode(q, [0] * q.num_vars)[0]
    text = repr(report)
    assert "\n" not in text and len(text) < 200 and "array" not in text
    assert text.startswith("<Report sample 0: INVALID, energy ") and text.endswith("15x15 picture>")


@pytest.mark.parametrize("fmt", ["qubo.json", "lp", "mps", "bqm", "ommx", "qubo"])
def test_convert_reads_the_clues_a_model_carries(fmt, run_cli, tmp_path):
    model = tmp_path / f"m.{fmt}"
    status, _, err = run_cli("build", str(LOGO_JSON), "-o", str(model), "-q")
    assert status == 0, err
    status, _, err = run_cli("convert", str(model), str(tmp_path / "back.non"))
    assert status == 0 and err.startswith(f"wrote {tmp_path / 'back.non'} (non clues, ") and err.count("\n") == 1, err
    back = clues.load(str(tmp_path / "back.non"))
    original = clues.load(str(LOGO_JSON))
    assert (back.rows, back.cols) == (original.rows, original.cols)


def test_convert_of_a_file_that_is_neither_keeps_the_clue_error(run_cli, tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text('{"title": "no clues"}')
    status, _, err = run_cli("convert", str(bad), str(tmp_path / "y.non"))
    assert status == 2 and err.count("\n") == 1 and str(bad) in err
