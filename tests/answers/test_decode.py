"""Decoder: exact penalty accounting, real solver outputs, models from files, the CLI."""

from __future__ import annotations

import json

import dimod
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import ROOT, SHARED, shared_puzzle, shared_puzzles
from nonoqubo import exports
from nonoqubo.model.build import build
from nonoqubo.model.constrained import build_constrained
from nonoqubo.answers.decode import Decoder
from nonoqubo.decoding import decode
from nonoqubo.inputs import load_model
from nonoqubo.model.encoding import Layout
from nonoqubo.errors import NonoquboError
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.samples import read_samples

LOGO_JSON = SHARED / "json" / "qbpp-logo.json"
#: puzzles for the energy tests: small to mid-sized shared ones
ENERGY_PUZZLES = ["qbpp-logo", "gecode-heart", "sgt-pattern-10x10", "olsak-hrib", "gecode-dragonfly"]


def listed_penalty(report) -> int:
    """The energy recomputed from the report's own lists (not from its summary)."""
    cells = sum((c.row_colour - c.column_colour) ** 2 for c in report.cell_conflicts)
    return len(report.broken_walls) + len(report.order_violations) + cells


def near_solutions(puzzle: Puzzle, rng: np.random.Generator, count: int, rate: float) -> np.ndarray:
    lay = Layout.of(puzzle)
    x = np.tile(lay.encode(puzzle.solution_grid()), (count, 1))
    x[rng.random(x.shape) < rate] ^= 1
    return x


@pytest.mark.parametrize("name", ENERGY_PUZZLES)
def test_listed_penalties_add_up_to_the_qubo_energy(name):
    puzzle = shared_puzzle(name)
    q = build(puzzle)
    rng = np.random.default_rng(abs(hash(name)) % 2**32)
    x = np.vstack([
        rng.integers(0, 2, (10, q.num_vars)),
        near_solutions(puzzle, rng, 10, 0.01),
        near_solutions(puzzle, rng, 10, 0.1),
    ]).astype(np.int8)
    reports = decode(puzzle, x)
    energy = q.energy(x)
    assert [r.energy for r in reports] == energy.tolist()
    assert [listed_penalty(r) for r in reports] == energy.tolist()
    assert [r.penalty_total for r in reports] == energy.tolist()
    assert any(r.broken_walls for r in reports) and any(r.order_violations for r in reports)
    # algebraic colours outside {0, 1} occur and are accounted for
    colours = {c.row_colour for r in reports for c in r.cell_conflicts}
    assert colours - {0, 1}


@settings(max_examples=25, deadline=None)
@given(
    picture=st.integers(2, 6).flatmap(
        lambda h: st.integers(2, 6).flatmap(
            lambda w: st.lists(st.lists(st.booleans(), min_size=w, max_size=w), min_size=h, max_size=h)
        )
    ),
    seed=st.integers(0, 2**32 - 1),
)
def test_penalties_match_energy_on_random_puzzles(picture, seed):
    puzzle = Puzzle.from_picture(np.array(picture, dtype=bool))
    q = build(puzzle)
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 2, (8, q.num_vars)).astype(np.int8)
    reports = decode(puzzle, x)
    assert [listed_penalty(r) for r in reports] == q.energy(x).tolist()
    for r in reports:
        assert r.valid == (r.energy == 0)
        if r.valid:
            assert puzzle.is_solution(r.grid) and not r.failing_lines


def _sa_file(tmp_path, puzzle: Puzzle, sweeps: int, reads: int, seed: int):
    from dwave.samplers import SimulatedAnnealingSampler

    q = build(puzzle)
    result = SimulatedAnnealingSampler().sample(q.to_bqm(), num_reads=reads, num_sweeps=sweeps, seed=seed)
    path = tmp_path / f"{puzzle.name or 'p'}-{sweeps}.sampleset.json"
    path.write_text(json.dumps(result.to_serializable()))
    return q, path


@pytest.mark.parametrize(("name", "runs"), [
    ("qbpp-logo", [(10, 30), (1000, 10)]),
    ("gecode-dragonfly", [(20, 10)]),
    ("olsak-fred", [(20, 10)]),
    ("gecode-castle", [(10, 4)]),
])
def test_real_simulated_annealing_outputs(tmp_path, name, runs):
    pytest.importorskip("dwave.samplers")
    puzzle = shared_puzzle(name)
    seen_valid = seen_invalid = 0
    for sweeps, reads in runs:
        q, path = _sa_file(tmp_path, puzzle, sweeps, reads, seed=sweeps)
        batch = read_samples(path, q.labels)
        assert len(batch) == reads
        reports = decode(puzzle, batch)
        energy = q.energy(batch.bits)
        assert [r.energy for r in reports] == energy.tolist()
        assert np.array_equal(batch.energies, energy)  # the sampler's energies (offset included)
        for r in reports:
            assert listed_penalty(r) == r.energy
            if r.energy == 0:
                seen_valid += 1
                assert r.valid and puzzle.is_solution(r.grid)
                assert not (r.broken_walls or r.order_violations or r.cell_conflicts or r.failing_lines)
            else:
                seen_invalid += 1
                assert not r.valid
                assert r.broken_walls or r.order_violations or r.cell_conflicts
    assert seen_invalid > 0
    if name == "qbpp-logo":
        assert seen_valid > 0


def test_known_solutions_decode_valid():
    for name, puzzle, _ in shared_puzzles()[:45]:
        if puzzle.solution is None:
            continue
        x = Layout.of(puzzle).encode(puzzle.solution_grid())
        r = decode(puzzle, x)[0]
        assert r.valid and r.picture == puzzle.solution, name


def test_fixed_variables_are_completed(logo):
    q = build(logo)
    rng = np.random.default_rng(3)
    x = np.vstack([Layout.of(logo).encode(logo.solution_grid()), rng.integers(0, 2, (5, q.num_vars))]).astype(np.int8)
    fix_idx = [0, 7, 250]
    fixed = {q.labels[i]: int(x[0, i]) for i in fix_idx}
    reduced = q.fix(fixed)
    x[:, fix_idx] = x[0, fix_idx]
    keep = np.setdiff1d(np.arange(q.num_vars), fix_idx)
    got = decode(reduced, x[:, keep])
    want = decode(logo, x)
    assert [r.to_dict() for r in got] == [r.to_dict() for r in want]
    assert [r.energy for r in got] == reduced.energy(x[:, keep]).tolist()


def test_constrained_models_report_violated_constraints(logo):
    q = build(logo)
    calls = []

    class Model:  # the duck type of nonoqubo.model.constrained's model
        puzzle = logo
        labels = q.labels
        fixed: dict = {}

        def constraint_violations(self, full):
            calls.append(full.shape)
            return [["cell_1_1"] if row.any() else [] for row in full]

    x = np.zeros((2, q.num_vars), np.int8)
    x[1, 5] = 1
    reports = decode(Model(), x)
    assert [r.violated_constraints for r in reports] == [[], ["cell_1_1"]]
    assert calls == [(2, q.num_vars)]
    assert reports[1].to_dict()["violated_constraints"] == ["cell_1_1"]


def test_real_constrained_model(logo):
    model = build_constrained(logo)
    x = Layout.of(logo).encode(logo.solution_grid())
    bad = x.copy()
    bad[0] ^= 1
    reports = decode(model, np.stack([x, bad])[:, model.var_index])
    assert reports[0].valid and reports[0].violated_constraints == []
    assert not reports[1].valid and reports[1].violated_constraints


def test_model_files_carry_their_clues(tmp_path, logo):
    q = build(logo)
    x = Layout.of(logo).encode(logo.solution_grid())
    samples = np.stack([x, 1 - x])
    expected = [r.to_dict() for r in decode(logo, samples)]
    tried = 0
    for mod in exports.formats("qubo"):
        if not hasattr(mod, "loads"):
            continue
        path = tmp_path / f"logo.{mod.EXTENSIONS[0]}"
        exports.dump(q, path, mod.NAME)
        model = load_model(path)
        assert (model.puzzle.rows, model.puzzle.cols) == (logo.rows, logo.cols), mod.NAME
        got = [r.to_dict() for r in decode(path, samples)]
        assert got == expected, mod.NAME
        tried += 1
    assert tried


def test_clue_files_and_unknown_files(tmp_path, logo):
    assert load_model(LOGO_JSON) == logo
    assert load_model(ROOT / "examples" / "qbpp-logo.yaml").rows == logo.rows
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00\x01\x02 nothing")
    with pytest.raises(NonoquboError) as info:
        load_model(junk)
    assert "junk.bin" in str(info.value)


def test_decoder_reuses_index_arrays(logo):
    d = Decoder(logo)
    q = build(logo)
    x = np.random.default_rng(0).integers(0, 2, (50, q.num_vars)).astype(np.int8)
    a = d.analyse(x)
    assert a.energy.tolist() == q.energy(x).tolist()
    assert a.grid.shape == (50, 15, 15) and a.failing.shape == (50, 30)


# -- the CLI ---------------------------------------------------------------------------------
def _write_samples(tmp_path, logo, rows) -> str:
    labels = Layout.of(logo).labels()
    ss = dimod.SampleSet.from_samples((np.asarray(rows), labels), "BINARY", energy=build(logo).energy(rows))
    path = tmp_path / "samples.json"
    path.write_text(json.dumps(ss.to_serializable()))
    return str(path)


def test_cli_decode_valid_and_invalid(run_cli, tmp_path, logo):
    x = Layout.of(logo).encode(logo.solution_grid())
    bad = x.copy()
    bad[[0, 100, 300]] ^= 1
    path = _write_samples(tmp_path, logo, np.stack([bad, x]))
    status, out, err = run_cli("decode", LOGO_JSON, path)
    assert status == 0, err
    assert "2 samples, 1 valid, best energy 0" in out
    assert "sample 1 (best): VALID" in out  # the same number as the JSON report's "index"
    assert json.loads(run_cli("decode", LOGO_JSON, path, "--json")[1])["samples"][0]["index"] == 1
    assert "\n".join(logo.solution) in out
    status, out, _ = run_cli("decode", LOGO_JSON, _write_samples(tmp_path, logo, bad[None]))
    assert status == 1
    assert "INVALID, energy" in out and "cells where the row and the column disagree" in out


def test_cli_decode_json_matches_schema(run_cli, tmp_path, logo):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "nonoqubo" / "schemas" / "report.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    x = Layout.of(logo).encode(logo.solution_grid())
    rng = np.random.default_rng(5)
    rows = np.vstack([x, rng.integers(0, 2, (3, x.size))]).astype(np.int8)
    path = _write_samples(tmp_path, logo, rows)
    status, out, _ = run_cli("decode", LOGO_JSON, path, "--json", "--all")
    assert status == 0
    doc = json.loads(out)
    jsonschema.validate(doc, schema)
    assert doc["num_samples"] == 4 and doc["num_valid"] == 1 and len(doc["samples"]) == 4
    for sample in doc["samples"]:
        pen = sample["penalties"]
        assert sample["energy"] == pen["wall_shape"] + pen["block_order"] + pen["cells"]
        assert pen["cells"] == sum(c["penalty"] for c in sample["cell_conflicts"])
        assert sample["reported_energy"] == sample["energy"]
    status, out, _ = run_cli("decode", LOGO_JSON, path, "--json", "--best")
    assert len(json.loads(out)["samples"]) == 1


def test_cli_decode_image_and_stdin(run_cli, tmp_path, logo):
    x = Layout.of(logo).encode(logo.solution_grid())
    image = tmp_path / "out.svg"
    text = "".join(map(str, 1 - x))
    status, out, err = run_cli("decode", LOGO_JSON, "-", "--image", image, stdin=text)
    assert status == 1, err
    svg = image.read_text()
    from nonoqubo.answers.render import WRONG

    assert svg.startswith("<svg") and WRONG in svg


def test_cli_decode_spin_option(run_cli, tmp_path, logo):
    x = Layout.of(logo).encode(logo.solution_grid())
    path = tmp_path / "spins.txt"
    path.write_text(" ".join(str(2 * v - 1) for v in x))
    assert run_cli("decode", LOGO_JSON, path)[0] == 0
    assert run_cli("decode", LOGO_JSON, path, "--spin")[0] == 0
    status, _, err = run_cli("decode", LOGO_JSON, path, "--binary")
    assert status == 2 and "value -1" in err


def test_cli_decode_constrained_lp_model(run_cli, tmp_path, logo):
    model = build_constrained(logo)
    path = tmp_path / "logo.lp"
    exports.dump(model, path, "lp")
    samples = tmp_path / "zeros.txt"
    samples.write_text("0" * len(model.labels))
    status, out, err = run_cli("decode", path, samples, "--json")
    assert status == 1, err
    doc = json.loads(out)["samples"][0]
    assert doc["violated_constraints"] and not doc["valid"]
    x = Layout.of(logo).encode(logo.solution_grid())
    samples.write_text("".join(map(str, x)))
    status, out, _ = run_cli("decode", path, samples, "--json")
    assert status == 0 and json.loads(out)["samples"][0]["violated_constraints"] == []
