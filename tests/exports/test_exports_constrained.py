"""The constrained exports (LP, CQM) read back by their own readers, by dimod and by HiGHS,
and HiGHS solution files decoded."""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest

from tests.support import shared_puzzle
from nonoqubo.decoding import decode
from nonoqubo.model.constrained import build_constrained
from nonoqubo.model.encoding import Layout, bracket_name
from nonoqubo.errors import FormatError, SampleError
from nonoqubo.exports import cqm as cqm_format
from nonoqubo.exports import lp, mps
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.samples import highs as highs_sol

dimod = pytest.importorskip("dimod")

#: the logo and six more shared puzzles, one larger than 40x40 (each solves in well under a second)
HIGHS_PUZZLES = ["qbpp-logo", "gecode-webpbn529", "gecode-dragonfly", "loom-atrus", "olsak-fred",
                 "gecode-webpbn27", "gecode-webpbn21"]


def _highs(path, tmp_path=None, style=None):
    highspy = pytest.importorskip("highspy")
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", 60.0)
    assert h.readModel(str(path)) == highspy.HighsStatus.kOk
    h.run()
    if style is not None:
        out = tmp_path / f"solution-{style}.sol"
        h.writeSolution(str(out), style)
        return h, out.read_text()
    return h, None


def _full_assignment(puzzle, mapping):
    labels = Layout.of(puzzle).labels()
    return np.array([[mapping[label] for label in labels]], dtype=np.int8)


# -- LP text ----------------------------------------------------------------------------------
def test_lp_golden_body():
    m = build_constrained(Puzzle(rows=[[1], [1]], cols=[[1], [1]], name="diag"))
    text = lp.dumps(m)
    body = text[text.index("Minimize"):]
    assert body == (
        "Minimize\n obj: 0 y0_0_0\nSubject To\n"
        " cell_0_0: - 1 y0_0_0 + 1 z0_0_0 = 0\n"
        " cell_0_1: + 1 y0_0_0 + 1 z1_0_0 = 1\n"
        " cell_1_0: - 1 y1_0_0 - 1 z0_0_0 = -1\n"
        " cell_1_1: + 1 y1_0_0 - 1 z1_0_0 = 0\n"
        "Binary\n y0_0_0 y1_0_0 z0_0_0 z1_0_0\nEnd\n"
    )
    head = text[:text.index("Minimize")].splitlines()
    assert head[0].startswith("\\ nonoqubo constrained model, format 1")
    assert "\\ size: 2 2" in head and "\\ row 0: 1" in head and "\\ col 1: 1" in head
    assert '\\ name: "diag"' in head
    assert any("y3_1_2 is the QUBO++ label y3[1][2]" in line for line in head)
    assert lp.detect(text.encode()[:4096])


@pytest.mark.parametrize("name", ["qbpp-logo", "olsak-kondor", "gecode-castle"])
def test_lp_lines_short_and_dimod_reads_the_same_rows(name):
    puzzle = shared_puzzle(name)
    m = build_constrained(puzzle)
    text = lp.dumps(m)
    assert max(len(line) for line in text.splitlines()) < 255
    back = dimod.lp.loads(text)  # an independent LP parser (dimod's, HiGHS-based)
    assert set(back.variables) == set(m.flat_labels)
    assert len(back.constraints) == m.num_constraints
    flat = m.flat_labels
    for c in range(0, m.num_constraints, max(1, m.num_constraints // 300)):
        comp = back.constraints[m.names[c]]
        want = {flat[v]: float(a) for v, a in zip(m.indices[m.indptr[c]:m.indptr[c + 1]],
                                                   m.coefs[m.indptr[c]:m.indptr[c + 1]])}
        assert dict(comp.lhs.iter_linear()) == want
        assert comp.sense.value == m.sense_of(c) and comp.rhs == m.rhs[c]


def test_lp_long_rows_wrap():
    # many short blocks: a cell of a 120-wide row is hit by many walls
    rng = np.random.default_rng(3)
    grid = rng.random((6, 120)) < 0.5
    m = build_constrained(Puzzle.from_picture(grid))
    text = lp.dumps(m)
    assert max(len(line) for line in text.splitlines()) < 255
    assert lp.loads(text, source="wide.lp").same_model(m)
    assert dimod.lp.loads(text).num_constraints() == m.num_constraints


def test_lp_round_trip_with_fixed_and_solution(logo):
    lay = Layout.of(logo)
    sol = lay.encode(logo.solution_grid())
    labels = lay.labels()
    fixed = {labels[i]: int(sol[i]) for i in range(0, len(labels), 3)}
    m = build_constrained(logo, fixed)
    text = lp.dumps(m)
    assert "\\ fixed: y0_0_0=" in text
    back = lp.loads(text, source="logo.lp")
    assert back.same_model(m)
    assert back.puzzle.solution == logo.solution and back.puzzle.name == logo.name
    assert dict(back.fixed) == fixed


def test_lp_refuses_a_body_that_differs_from_its_header(logo):
    text = lp.dumps(build_constrained(logo))
    bad = text.replace(" wall_y3_k1_p2: + 1 y3_1_2 - 1 y3_1_3 >= 0", " wall_y3_k1_p2: + 1 y3_1_2 - 1 y3_1_3 >= 1")
    assert bad != text
    with pytest.raises(FormatError, match=r"logo\.lp:\d+: constraint wall_y3_k1_p2 differs"):
        lp.loads(bad, source="logo.lp")
    with pytest.raises(FormatError, match="no 'nonoqubo constrained model' header"):
        lp.loads(text[text.index("Minimize"):], source="plain.lp")
    # the same rows spelled differently still read (through the row-by-row check)
    respelled = text.replace(" - 1 ", " -1 ").replace(" >= 0\n", "  >=  0\n")
    assert respelled != text and lp.loads(respelled, source="logo.lp").same_model(build_constrained(logo))
    head, binary = text.split("Binary\n")
    with pytest.raises(FormatError, match=r"logo\.lp:\d+: the Binary section lists"):
        lp.loads(head + "Binary\n" + binary.replace("y0_0_0", "y0_0_9", 1), source="logo.lp")


# -- HiGHS ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", HIGHS_PUZZLES)
def test_highs_solves_the_lp_and_it_decodes_to_the_solution(name, tmp_path):
    puzzle = shared_puzzle(name)
    m = build_constrained(puzzle)
    path = tmp_path / f"{name}.lp"
    path.write_text(lp.dumps(m))
    h, text = _highs(path, tmp_path, style=0)
    assert h.modelStatusToString(h.getModelStatus()) == "Optimal"
    raw = highs_sol.loads(text, source="highs.sol")
    full = _full_assignment(puzzle, {bracket_name(k): int(v) for k, v in raw.maps[0].items()})
    assert m.constraint_violations(full) == [[]]
    lay = Layout.of(puzzle)
    row_grid, col_grid = lay.grids(lay.shifts(full))
    assert np.array_equal(row_grid[0], puzzle.solution_grid())
    assert np.array_equal(col_grid[0], puzzle.solution_grid())


def test_highs_non_unique_gives_a_valid_solution(tmp_path):
    puzzle = shared_puzzle("gecode-non-unique")
    m = build_constrained(puzzle)
    path = tmp_path / "nu.lp"
    path.write_text(lp.dumps(m))
    _, text = _highs(path, tmp_path, style=1)
    raw = highs_sol.loads(text, source="nu.sol")
    full = _full_assignment(puzzle, {bracket_name(k): int(v) for k, v in raw.maps[0].items()})
    assert m.constraint_violations(full) == [[]]
    lay = Layout.of(puzzle)
    grid = lay.grids(lay.shifts(full))[0][0]
    assert puzzle.is_solution(grid)


def test_highs_with_fixed_variables(tmp_path, logo):
    lay = Layout.of(logo)
    sol = lay.encode(logo.solution_grid())
    labels = lay.labels()
    m = build_constrained(logo, {labels[i]: int(sol[i]) for i in range(0, len(labels), 2)})
    path = tmp_path / "fixed.lp"
    path.write_text(lp.dumps(m))
    _, text = _highs(path, tmp_path, style=0)
    raw = highs_sol.loads(text, source="fixed.sol")
    assert set(raw.maps[0]) == set(m.flat_labels)
    reduced = np.array([[raw.maps[0][n] for n in m.flat_labels]], np.int8)
    full = m.full_assignment(reduced)
    assert np.array_equal(full[0], sol)


def test_decode_command_reads_the_lp_and_the_highs_file(tmp_path, run_cli):
    logo = shared_puzzle("qbpp-logo")
    m = build_constrained(logo)
    path = tmp_path / "logo.lp"
    path.write_text(lp.dumps(m))
    _highs(path, tmp_path, style=0)
    (report,) = decode(str(path), str(tmp_path / "solution-0.sol"))
    assert report.valid and report.violated_constraints == []
    status, out, err = run_cli("decode", str(path), str(tmp_path / "solution-0.sol"))
    assert status == 0, err
    assert "VALID" in out


def test_decode_reports_violated_constraints_by_name(tmp_path, logo):
    m = build_constrained(logo)
    sol = Layout.of(logo).encode(logo.solution_grid())
    sample = dict(zip(m.flat_labels, sol.tolist()))
    sample["y3_1_2"] ^= 1  # breaks the wall of row 3's block 1 and two cells
    (report,) = decode(m, sample)
    assert not report.valid
    assert set(report.violated_constraints) == set(m.constraint_violations(
        np.array([[sample[n] for n in m.flat_labels]]))[0])
    assert any(n.startswith("cell_3_") for n in report.violated_constraints)


# -- HiGHS solution files ---------------------------------------------------------------------
def test_highs_reader_styles_and_errors(tmp_path):
    tiny = tmp_path / "tiny.lp"
    tiny.write_text(lp.dumps(build_constrained(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))))
    texts = {}
    for style in (0, 1):
        _, texts[style] = _highs(tiny, tmp_path, style=style)
        assert highs_sol.detect(texts[style])
    maps = [highs_sol.loads(texts[s], source="t.sol").maps[0] for s in (0, 1)]
    assert maps[0] == maps[1] and set(maps[0]) == {"y0_0_0", "y1_0_0", "z0_0_0", "z1_0_0"}
    infeasible = tmp_path / "inf.lp"
    infeasible.write_text("Subject To\n c: x + y >= 3\nBinary\n x y\nEnd\n")
    for style in (0, 1):
        _, text = _highs(infeasible, tmp_path, style=style)
        with pytest.raises(SampleError, match="no solution .model status: Infeasible"):
            highs_sol.loads(text, source="inf.sol")
    _, sparse = _highs(tiny, tmp_path, style=4)
    with pytest.raises(SampleError, match="style 0"):
        highs_sol.loads(sparse, source="sparse.sol")
    assert not highs_sol.detect("y0_0_0 1\n")
    with pytest.raises(FormatError, match=r"t\.sol:10: expected '<name> <value>'"):
        highs_sol.loads(texts[0].replace("\ny0_0_0 ", "\ny0_0_0 1 ", 1), source="t.sol")


# -- CQM file ---------------------------------------------------------------------------------
def test_cqm_file_has_the_constraints_as_built(logo):
    m = build_constrained(logo)
    built = m.to_cqm()
    data = cqm_format.dumps(m)
    back = dimod.ConstrainedQuadraticModel.from_file(io.BytesIO(data))
    assert list(back.variables) == list(built.variables)
    assert set(back.constraints) == set(built.constraints)
    for label, comp in built.constraints.items():
        other = back.constraints[label]
        assert dict(other.lhs.iter_linear()) == dict(comp.lhs.iter_linear())
        assert (other.sense, other.rhs, other.lhs.offset) == (comp.sense, comp.rhs, comp.lhs.offset)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert "nonoqubo.json" in zf.namelist()
    assert cqm_format.detect(data[:64])
    again = cqm_format.loads(data, source="logo.cqm")
    assert again.same_model(m) and again.puzzle.solution == logo.solution


def test_cqm_with_fixed_round_trip(logo):
    lay = Layout.of(logo)
    sol = lay.encode(logo.solution_grid())
    labels = lay.labels()
    m = build_constrained(logo, {labels[i]: int(sol[i]) for i in range(1, len(labels), 4)})
    back = cqm_format.loads(cqm_format.dumps(m), source="f.cqm")
    assert back.same_model(m) and dict(back.fixed) == dict(m.fixed)


def test_cqm_refuses_foreign_and_tampered_files(logo):
    m = build_constrained(logo)
    plain = m.to_cqm().to_file().read()
    with pytest.raises(FormatError, match="without the 'nonoqubo.json' member"):
        cqm_format.loads(plain, source="plain.cqm")
    with pytest.raises(FormatError, match="not a dimod CQM"):
        cqm_format.loads(b"PK\x03\x04junk", source="x.cqm")
    other = build_constrained(shared_puzzle("gecode-heart"))
    buf = io.BytesIO(other.to_cqm().to_file().read())
    with zipfile.ZipFile(buf, "a") as zf:
        zf.writestr("nonoqubo.json", json.dumps(cqm_format.metadata(m)))
    with pytest.raises(FormatError, match="variables"):
        cqm_format.loads(buf.getvalue(), source="mixed.cqm")


def test_cqm_sampleset_decodes(logo):
    m = build_constrained(logo)
    sol = Layout.of(logo).encode(logo.solution_grid())
    rng = np.random.default_rng(5)
    rows = np.concatenate((sol[None, :], rng.integers(0, 2, (3, m.num_vars))))
    cqm = m.to_cqm()
    sampleset = dimod.SampleSet.from_samples_cqm((rows, m.labels), cqm)
    reports = decode(m, sampleset)
    feasible = dict(zip(range(len(rows)), sampleset.record.is_feasible))
    assert [r.valid for r in reports] == [bool(feasible[r.index]) for r in reports]
    assert sum(r.valid for r in reports) == 1


def test_registry_finds_the_constrained_formats():
    from nonoqubo import exports

    names = {mod.NAME for mod in exports.formats("constrained")}
    assert {"lp", "cqm", "mps"} <= names
    assert exports.format_for_path("model.lp").NAME == "lp"
    assert exports.format_for_path("model.cqm").NAME == "cqm"


# -- MPS (written by HiGHS) -------------------------------------------------------------------
def test_mps_round_trip_and_highs_solves_it(tmp_path, logo):
    pytest.importorskip("highspy")
    lay = Layout.of(logo)
    sol = lay.encode(logo.solution_grid())
    labels = lay.labels()
    m = build_constrained(logo, {labels[i]: int(sol[i]) for i in range(0, len(labels), 5)})
    text = mps.dumps(m)
    assert text.startswith("* nonoqubo constrained model") and mps.detect(text.encode()[:4096])
    assert " BV BOUND" in text and "ENDATA" in text
    assert mps.loads(text, source="logo.mps").same_model(m)
    path = tmp_path / "logo.mps"
    path.write_text(text)
    _, sol_text = _highs(path, tmp_path, style=0)
    raw = highs_sol.loads(sol_text, source="logo.sol")
    reduced = np.array([[raw.maps[0][n] for n in m.flat_labels]], np.int8)
    assert np.array_equal(m.full_assignment(reduced)[0], sol)
    name = m.names[10]
    line = next(ln for ln in text.splitlines() if ln.split()[-1:] == [name] and ln.startswith(" "))
    with pytest.raises(FormatError, match="constraints differ"):
        mps.loads(text.replace(line, line.replace(line.split()[0], "L" if line.split()[0] != "L" else "G", 1), 1),
                  source="bad.mps")


def test_fully_fixed_model_solves_to_the_empty_sample(tmp_path, logo):
    lay = Layout.of(logo)
    sol = lay.encode(logo.solution_grid())
    m = build_constrained(logo, dict(zip(lay.labels(), sol.tolist())))
    path = tmp_path / "empty.lp"
    path.write_text(lp.dumps(m))
    for style in (0, 1):
        _, text = _highs(path, tmp_path, style=style)
        assert highs_sol.detect(text)
        assert highs_sol.loads(text, source="empty.sol").maps == [{}]
        (report,) = decode(str(path), str(tmp_path / f"solution-{style}.sol"))
        assert report.valid
