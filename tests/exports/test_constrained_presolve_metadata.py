"""The constrained models' files (LP, MPS, CQM, OMMX) say which presolve fixed their variables, as the
QUBO files do: ``presolve: probe`` after probing, no key after line logic, and no fixed variables when
none ran; read back, shown by ``info``, and a solver's answer decodes to the picture."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.support import SHARED, shared_puzzle
from nonoqubo import exports
from nonoqubo.decoding import decode
from nonoqubo.errors import FormatError
from nonoqubo.model.encoding import Layout
from nonoqubo.model.puzzle import Puzzle

pytest.importorskip("dimod")
DIFFICULT = SHARED / "json" / "gecode-difficult.json"  # line logic settles 0 of 225 cells, probing 12 (479 of 499 variables left)
#: every constrained format, the ending its file is written with, the build flags it needs
FORMATS = {m.NAME: m.EXTENSIONS[0] for m in exports.formats("constrained")}


def _build(run_cli, tmp_path, fmt, *presolve):
    out = tmp_path / f"{'-'.join(presolve) or 'full'}.{FORMATS[fmt]}"
    status, _, err = run_cli("build", DIFFICULT, *presolve, "--constrained", "-f", fmt, "-o", out)
    assert status == 0, err
    return out


def _answer(model, puzzle):
    """The known picture as the model's own variables (its fixed ones left out), flat LP names."""
    full = dict(zip(Layout.of(puzzle).labels(), Layout.of(puzzle).encode(puzzle.solution_grid()).tolist()))
    assert all(full[label] == value for label, value in model.fixed.items())  # no fixing cuts the answer off
    return {flat: full[label] for flat, label in zip(model.flat_labels, model.labels)}


def test_every_constrained_format_is_covered():
    assert set(FORMATS) == {"cqm", "lp", "mps", "ommx-constrained"}


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_probed_constrained_file_says_so_and_decodes(run_cli, tmp_path, fmt):
    puzzle = shared_puzzle("gecode-difficult")
    path = _build(run_cli, tmp_path, fmt, "--presolve", "probe")
    model = exports.load(str(path))
    assert (model.presolve, len(model.fixed), model.num_vars) == ("probe", 20, 479)
    status, text, _ = run_cli("info", "--json", path)
    assert status == 0 and json.loads(text)["presolved_by"] == "probe"
    status, text, _ = run_cli("info", path)
    assert "20 variables fixed by probing" in text
    (report,) = decode(str(path), [_answer(model, puzzle)])
    assert report.valid and report.energy == 0
    assert np.array_equal(report.grid, puzzle.solution_grid())


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_line_logic_and_no_presolve_write_no_key(run_cli, tmp_path, fmt):
    line = exports.load(str(_build(run_cli, tmp_path, fmt, "--presolve", "line")))
    full = exports.load(str(_build(run_cli, tmp_path, fmt)))
    assert (line.presolve, len(line.fixed), line.num_vars) == (None, 0, 499)  # line logic settles nothing here
    assert (full.presolve, len(full.fixed), full.num_vars) == (None, 0, 499)
    status, text, _ = run_cli("info", "--json", _build(run_cli, tmp_path, fmt))
    assert status == 0 and "presolved_by" not in json.loads(text)


def test_line_logic_that_fixes_variables_is_reported_as_line(run_cli, tmp_path):
    stalls = tmp_path / "stalls.json"  # line logic settles 4 of 12 cells, probing all
    stalls.write_text(json.dumps(Puzzle.from_picture([".##.", ".##.", "#..#"], name="stalls").to_dict()))
    for word, by in (("line", "line"), ("probe", "probe")):
        out = tmp_path / f"s-{word}.lp"
        assert run_cli("build", stalls, "--presolve", word, "-o", out)[0] == 0
        assert ("\\ presolve: probe" in out.read_text()) == (word == "probe")
        assert json.loads(run_cli("info", "--json", out)[1])["presolved_by"] == by
        (report,) = decode(str(out), [{}] if word == "probe" else [_answer(exports.load(str(out)),
                                                                        Puzzle.from_picture([".##.", ".##.", "#..#"]))])
        assert report.valid


def test_a_wrong_presolve_value_is_one_located_line(tmp_path):
    path = tmp_path / "bad.lp"
    text = exports.dumps(exports.load(str(_lp_probed(tmp_path))), "lp")
    path.write_text(text.replace("\\ presolve: probe", "\\ presolve: magic"))
    with pytest.raises(FormatError) as caught:
        exports.load(str(path))
    line = text.splitlines().index("\\ presolve: probe") + 1
    assert str(caught.value) == f"{path}:{line}: header 'presolve' must be probe (line logic writes no key), not 'magic'"


def _lp_probed(tmp_path):
    from nonoqubo.pipeline import Models

    models = Models.build(shared_puzzle("gecode-difficult"), presolve="probe")
    out = tmp_path / "probed.lp"
    exports.dump(models.constrained("presolved"), out, "lp")
    return out
