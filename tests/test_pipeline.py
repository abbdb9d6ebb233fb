"""The library pipeline: ``build``, ``info`` and a suite report the same figures, under the same names."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from nonoqubo import exports
from nonoqubo.campaign.suite import run_suite
from nonoqubo.clues import load
from nonoqubo.logic.presolve import presolve_qubo
from nonoqubo.model.build import build
from nonoqubo.pipeline import Models, model_figures, write_files
from tests.support import SHARED

#: line logic settles part of the first and all of the second; the third is a colour puzzle
PUZZLES = ["json/gecode-non-unique.json", "json/qbpp-logo.json", "colour/olsak-acorn.json"]
BUILT = re.compile(r"built .*?: (\d+) variables, (\d+) terms \((\d+) linear \+ (\d+) quadratic\), offset (-?\d+) in")
PRESOLVED = re.compile(r"presolved: (\d+) -> (\d+) variables, (\d+) -> (\d+) terms, (\d+) fixed, offset (-?\d+)")


@pytest.mark.parametrize("name", PUZZLES)
def test_build_info_and_suite_report_the_same_figures(name, run_cli, tmp_path: Path) -> None:
    source = SHARED / name
    status, out, err = run_cli("info", source, "--json", "--presolve")
    assert status == 0, err
    info = json.loads(out)
    pre = info["presolve"]
    assert not [k for k in pre if k.endswith("_after")], "the presolved figures are named *_after_presolve"

    status, _, err = run_cli("build", source, "-o", tmp_path / "full.qubo.json")
    assert status == 0, err
    v, t, lin, quad, off = map(int, BUILT.search(err).groups())
    assert (v, t, lin, quad, off) == (info["variables"], info["terms"], info["linear_terms"],
                                      info["quadratic_terms"], info["offset"])
    status, _, err = run_cli("build", source, "-o", tmp_path / "pre.qubo.json", "--presolve")
    assert status == 0, err
    v0, v1, t0, t1, fixed, off1 = map(int, PRESOLVED.search(err).groups())
    assert (v0, t0) == (info["variables"], info["terms"])
    assert (v1, t1, fixed, off1) == (pre["variables_after_presolve"], pre["terms_after_presolve"],
                                     pre["fixed_variables"], pre["offset_after_presolve"])

    result = run_suite([str(source)], tmp_path / "suite", formats=["qubo-json"], presolve=True, jobs=1)
    (entry,) = result.entries
    assert entry["status"] == "ok", entry.get("error")
    for key in ("width", "height", "variables", "terms", "linear_terms", "quadratic_terms", "offset",
                "line_solvable", "variables_after_presolve", "terms_after_presolve", "offset_after_presolve"):
        assert entry[key] == (pre[key] if key in pre else info[key]), key
    files = {f["variant"]: f for f in entry["files"]}
    # the suite's files are the bytes `build` writes
    assert (tmp_path / "suite" / files["full"]["path"]).read_bytes() == (tmp_path / "full.qubo.json").read_bytes()
    assert (tmp_path / "suite" / files["presolved"]["path"]).read_bytes() == \
        (tmp_path / "pre.qubo.json").read_bytes()
    # and `info` on them reads the figures back
    back = model_figures(exports.load(tmp_path / "pre.qubo.json"))
    assert (back["variables"], back["terms"], back["offset"]) == (
        pre["variables_after_presolve"], pre["terms_after_presolve"], pre["offset_after_presolve"])


@pytest.mark.parametrize("name", PUZZLES)
def test_the_pipeline_presolves_as_presolve_qubo_does(name) -> None:
    puzzle = load(SHARED / name)
    models = Models.build(puzzle)
    reduced, reference = models.presolve(), presolve_qubo(puzzle, build(puzzle))
    assert reduced.same_model(reference)
    assert list(reduced.fixed.items()) == list(reference.fixed.items())
    assert models.presolve() is reduced  # line logic runs once
    assert models.model("qubo", "presolved") is reduced and models.model("qubo") is models.qubo
    assert models.constrained("presolved") is models.model("constrained", "presolved")


def test_write_files_leaves_nothing_behind_when_one_target_fails(tmp_path: Path) -> None:
    models = Models.build(load(SHARED / "json" / "qbpp-logo.json"))
    good, bad = tmp_path / "m.qubo", tmp_path / "missing" / "m.coo"
    with pytest.raises(Exception, match="cannot write"):
        write_files(models, [(str(good), exports.get_format("qbsolv")), (str(bad), exports.get_format("coo"))])
    assert sorted(p.name for p in tmp_path.iterdir()) == []
