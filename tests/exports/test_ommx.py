"""OMMX: the ``.ommx`` model read by OMMX itself and solved by its adapters, OMMX answers decoded.

Independent checks: ``ommx.artifact.Artifact.load_archive`` reads what nonoqubo
writes; OMMX's own ``Instance.evaluate`` gives objective 0 at every known
solution and nonoqubo's energy elsewhere; the OpenJij, HiGHS and SCIP adapters
solve the instances and their answers decode to the known pictures.
"""

from __future__ import annotations

import io
import json
import tarfile

import numpy as np
import pytest

from tests.support import SHARED, hide_packages, shared_puzzle
from nonoqubo import exports
from nonoqubo.model.build import build
from nonoqubo.model.constrained import build_constrained
from nonoqubo.decoding import decode
from nonoqubo.model.encoding import Layout, parse_label
from nonoqubo.errors import FormatError, MissingDependency
from nonoqubo.exports import ommx as ommx_format
from nonoqubo.logic.presolve import presolve_qubo
from nonoqubo.model.puzzle import Puzzle, grid_from_picture

ommx_v1 = pytest.importorskip("ommx.v1")
from ommx.artifact import Artifact, ArtifactBuilder  # noqa: E402

LOGO_JSON = SHARED / "json" / "qbpp-logo.json"
#: puzzles whose known solution must have objective 0 in OMMX's evaluation (5x5 to 30x30)
PUZZLES = ["sgt-pattern-5x5", "gecode-pinwheel", "gecode-unknown", "qbpp-logo", "gecode-difficult",
           "gecode-webpbn27", "olsak-fred"]


def _solution_bits(puzzle: Puzzle, labels: list[str] | None = None) -> np.ndarray:
    bits = Layout.of(puzzle).encode(grid_from_picture(puzzle.solution))
    if labels is None:
        return bits
    index = {label: i for i, label in enumerate(Layout.of(puzzle).labels())}
    return bits[[index[label] for label in labels]]


def _write(model, path, fmt=None):
    exports.dump(model, path, fmt)
    return path


def _archive(tmp_path, name, add):
    """An artifact archive holding one layer added by ``add(builder)``."""
    path = tmp_path / name
    builder = ArtifactBuilder.new_archive_unnamed(str(path))
    add(builder)
    builder.build()
    return path


# -- the QUBO instance ------------------------------------------------------------------------
def test_logo_loaded_by_ommx_sampled_by_openjij_adapter_and_decoded(tmp_path, logo, run_cli):
    adapter = pytest.importorskip("ommx_openjij_adapter")
    path = _write(build(logo), tmp_path / "logo.ommx")
    artifact = Artifact.load_archive(path)
    instance = artifact.instance
    assert artifact.annotations["org.nonoqubo.kind"] == "qubo"
    assert len(instance.decision_variables) == 437 and instance.sense == ommx_v1.Instance.MINIMIZE
    sample_set = adapter.OMMXOpenJijSAAdapter.sample(instance, num_reads=4, num_sweeps=2000, seed=1)
    # the answer as bare protobuf bytes, and in an artifact archive, decoded by the CLI
    bare = tmp_path / "answer.pb"
    bare.write_bytes(sample_set.to_bytes())
    archived = _archive(tmp_path, "answer.ommx", lambda b: b.add_sample_set(sample_set))
    for answer in (bare, archived):
        status, out, err = run_cli("decode", path, answer, "--json")
        assert status == 0, err
        doc = json.loads(out)
        assert doc["num_samples"] == 4 and doc["num_valid"] >= 1
        assert doc["samples"][0]["picture"] == list(logo.solution)
    # OMMX's objective of every sample is nonoqubo's QUBO energy of it
    reports = decode(path, sample_set)
    objectives = sample_set.objectives
    assert [r.energy for r in reports] == [objectives[i] for i in sorted(objectives)]
    assert [r.reported_energy for r in reports] == [objectives[i] for i in sorted(objectives)]


@pytest.mark.parametrize("name", PUZZLES)
def test_known_solution_has_objective_zero_in_ommx(name, tmp_path):
    puzzle = shared_puzzle(name)
    qubo = build(puzzle)
    instance = Artifact.load_archive(_write(qubo, tmp_path / f"{name}.ommx")).instance
    x = _solution_bits(puzzle)
    solution = instance.evaluate({i: int(v) for i, v in enumerate(x)})
    assert solution.objective == 0 and solution.feasible
    # elsewhere OMMX's objective is nonoqubo's energy (exact integers in float64)
    rng = np.random.default_rng(7)
    flips = rng.random((3, x.size)) < 0.05
    flips[np.arange(3), rng.integers(0, x.size, 3)] = True
    samples = np.where(flips, 1 - x, x)
    energies = qubo.energy(samples)
    for row, energy in zip(samples, energies):
        assert instance.evaluate({i: int(v) for i, v in enumerate(row)}).objective == energy > 0


def test_names_subscripts_ids_title_and_annotations(tmp_path, logo):
    qubo = build(logo)
    path = _write(qubo, tmp_path / "logo.ommx")
    artifact = Artifact.load_archive(path)
    instance = artifact.instance
    variables = instance.decision_variables
    assert [v.id for v in variables] == list(range(qubo.num_vars))
    for v, label in zip(variables, qubo.labels):
        kind, line, k, p = parse_label(label)
        assert (v.name, v.subscripts, v.kind) == (kind, [line, k, p], ommx_v1.DecisionVariable.BINARY)
    by_label = {f"{v.name}{v.subscripts[0]}[{v.subscripts[1]}][{v.subscripts[2]}]": v.id for v in variables}
    assert by_label["y3[1][2]"] == qubo.index["y3[1][2]"]
    assert instance.title == "qbpp-logo" and "domain-wall" in instance.description.description
    assert (instance.num_variables, instance.num_constraints) == (437, 0)
    want = {
        "format": "1", "kind": "qubo", "name": "qbpp-logo", "height": "15", "width": "15",
        "variables": "437", "terms": "2756", "offset": str(qubo.offset), "fixed": "{}",
        "rows": json.dumps([list(c) for c in logo.rows], separators=(",", ":")),
        "cols": json.dumps([list(c) for c in logo.cols], separators=(",", ":")),
        "solution": json.dumps(list(logo.solution)),
    }
    for notes in (artifact.annotations, instance.annotations):  # the manifest's and the layer's
        assert {k: notes["org.nonoqubo." + k] for k in want} == want
    # the objective: integer coefficients, the offset as its constant
    objective = instance.objective
    assert objective.constant_term == qubo.offset
    assert len(objective.quadratic_terms) == qubo.num_quadratic
    assert all(float(c).is_integer() for c in objective.quadratic_terms.values())
    # and nonoqubo reads it all back
    back = exports.load(path)
    assert back == qubo and back.puzzle.solution == logo.solution and back.puzzle.name == "qbpp-logo"


def test_presolved_model_keeps_its_fixings(tmp_path, run_cli):
    puzzle = shared_puzzle("gecode-webpbn27")
    qubo = presolve_qubo(puzzle, build(puzzle))
    assert 0 < qubo.num_vars < 2140 and qubo.fixed
    path = _write(qubo, tmp_path / "p.ommx")
    artifact = Artifact.load_archive(path)
    assert json.loads(artifact.annotations["org.nonoqubo.fixed"]) == dict(qubo.fixed)
    assert exports.load(path) == qubo
    instance = artifact.instance
    x = _solution_bits(puzzle, list(qubo.labels))
    solution = instance.evaluate({i: int(v) for i, v in enumerate(x)})
    assert solution.objective == 0
    answer = tmp_path / "answer.pb"
    answer.write_bytes(solution.to_bytes())
    status, out, err = run_cli("decode", path, answer)
    assert status == 0, err
    assert "\n".join(puzzle.solution) in out


def test_cli_build_writes_both_kinds(tmp_path, run_cli):
    qubo_path, ilp_path = tmp_path / "logo.ommx", tmp_path / "logo-ilp.ommx"
    assert run_cli("build", LOGO_JSON, "-o", qubo_path, "-q")[0] == 0
    assert run_cli("build", LOGO_JSON, "--constrained", "-o", ilp_path, "-q")[0] == 0
    assert Artifact.load_archive(qubo_path).annotations["org.nonoqubo.kind"] == "qubo"
    assert Artifact.load_archive(ilp_path).annotations["org.nonoqubo.kind"] == "constrained"
    status, _, err = run_cli("build", LOGO_JSON, "--ising", "-o", tmp_path / "x.ommx")
    assert status == 2 and "cannot carry an Ising model" in err


# -- the constrained instance -----------------------------------------------------------------
def test_constrained_names_and_semantics_match_the_model(tmp_path, logo):
    model = build_constrained(logo)
    path = _write(model, tmp_path / "logo.ommx", "ommx-constrained")
    instance = Artifact.load_archive(path).instance
    assert [c.name for c in instance.constraints] == model.names
    assert instance.objective.degree() == 0 and instance.objective.constant_term == 0
    x = _solution_bits(logo)
    assert instance.evaluate({i: int(v) for i, v in enumerate(x)}).feasible
    # a broken assignment breaks exactly the constraints the model says, by name
    rng = np.random.default_rng(3)
    for _ in range(3):
        y = np.where(rng.random(x.size) < 0.03, 1 - x, x)
        solution = instance.evaluate({i: int(v) for i, v in enumerate(y)})
        broken = sorted(c.name for c in solution.constraints if not _holds(c))
        assert broken == sorted(model.constraint_violations(y)[0]) and broken
    assert exports.load(path).same_model(model)


def _holds(evaluated) -> bool:
    value = evaluated.evaluated_value
    return abs(value) < 1e-9 if evaluated.equality == ommx_v1.Constraint.EQUAL_TO_ZERO else value < 1e-9


@pytest.mark.parametrize("adapter_name", ["ommx_highs_adapter", "ommx_pyscipopt_adapter"])
def test_constrained_model_solved_by_mip_adapters_and_decoded(tmp_path, logo, run_cli, adapter_name):
    adapter = pytest.importorskip(adapter_name)
    solver = adapter.OMMXHighsAdapter if adapter_name == "ommx_highs_adapter" else adapter.OMMXPySCIPOptAdapter
    path = tmp_path / "logo.ommx"
    assert run_cli("build", LOGO_JSON, "--constrained", "-o", path, "-q")[0] == 0
    solution = solver.solve(Artifact.load_archive(path).instance)
    assert solution.feasible
    answer = _archive(tmp_path, "answer.ommx", lambda b: b.add_solution(solution))
    status, out, err = run_cli("decode", path, answer)
    assert status == 0, err
    assert "VALID, energy 0" in out and "\n".join(logo.solution) in out
    # against the clue file too
    bare = tmp_path / "answer.pb"
    bare.write_bytes(solution.to_bytes())
    assert run_cli("decode", LOGO_JSON, bare)[0] == 0


def test_constrained_presolved_with_fixings(tmp_path):
    puzzle = shared_puzzle("gecode-unknown")
    fixed = dict(presolve_qubo(puzzle, build(puzzle)).fixed)
    model = build_constrained(puzzle, fixed)
    back = ommx_format.loads(exports.get_format("ommx-constrained").dumps(model), source="x.ommx")
    assert back.same_model(model) and dict(back.fixed) == fixed


# -- OMMX answers -----------------------------------------------------------------------------
def test_in_memory_instance_sample_set_and_solution(logo):
    instance = ommx_format.qubo_instance(build(logo))  # the instance without a file
    assert instance.annotations["org.nonoqubo.kind"] == "qubo"
    x = _solution_bits(logo)
    solution = instance.evaluate({i: int(v) for i, v in enumerate(x)})
    (report,) = decode(logo, solution)
    assert report.valid and report.picture == logo.solution and report.reported_energy == 0
    samples = ommx_v1.Samples({0: {i: int(v) for i, v in enumerate(x)}, 1: {i: 0 for i in range(x.size)}})
    sample_set = instance.evaluate_samples(samples)
    reports = decode(logo, sample_set)
    assert [r.valid for r in reports] == [True, False]
    assert reports[1].energy == build(logo).offset == reports[1].reported_energy


def test_adapter_added_variables_are_left_out(logo, tmp_path):
    """Variables an adapter adds (names starting with ``ommx.``) are not the model's."""
    from ommx.v1 import DecisionVariable, Instance

    qubo = build(logo)
    instance = Artifact.load_archive(_write(qubo, tmp_path / "logo.ommx")).instance
    extra = DecisionVariable.binary(qubo.num_vars, name="ommx.slack", subscripts=[0])
    bigger = Instance.from_components(decision_variables=[*instance.decision_variables, extra],
                                      objective=instance.objective, constraints=[], sense=Instance.MINIMIZE)
    state = {i: int(v) for i, v in enumerate(_solution_bits(logo))}
    state[qubo.num_vars] = 1
    (report,) = decode(logo, bigger.evaluate(state))
    assert report.valid


# -- bad input: one line naming the file, exit status 2 --------------------------------------
def _tar(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _oci(instance_blob: bytes, digest: str | None = None) -> bytes:
    """An OCI archive with one instance layer holding *instance_blob* (named by *digest*, default its own)."""
    import hashlib

    def sha(data: bytes) -> str:
        return hashlib.sha256(data).hexdigest()

    layer = digest or sha(instance_blob)
    manifest = json.dumps({"layers": [{"mediaType": ommx_format.INSTANCE_MEDIA, "digest": f"sha256:{layer}"}],
                           "annotations": {"org.nonoqubo.kind": "qubo"}}).encode()
    index = json.dumps({"manifests": [{"digest": f"sha256:{sha(manifest)}"}]}).encode()
    return _tar({"index.json": index, f"blobs/sha256/{sha(manifest)}": manifest, f"blobs/sha256/{layer}": instance_blob})


def _damaged_models(good: bytes) -> dict[str, bytes]:
    tampered = bytearray(good)
    at = good.index(b"qbpp-logo", 3000)  # inside the instance blob (the manifest and index come first or last)
    tampered[at] ^= 1
    return {
        "truncated": good[: len(good) // 2],
        "header only": good[:700],
        "no index": _tar({"blobs/sha256/aa": b"{}"}),
        "index not json": _tar({"index.json": b"{nope"}),
        "manifest missing": _tar({"index.json": b'{"manifests": [{"digest": "sha256:00"}]}'}),
        "instance garbage": _oci(b"\xff\xff\xff"),
        "blob tampered": bytes(tampered),
        "digest wrong": _oci(b"", digest="0" * 64),
        "zeros": bytes(4096),
    }


def test_damaged_model_files_give_one_line(tmp_path, logo, run_cli):
    good = _write(build(logo), tmp_path / "good.ommx").read_bytes()
    for what, data in _damaged_models(good).items():
        path = tmp_path / f"bad-{what.replace(' ', '-')}.ommx"
        path.write_bytes(data)
        with pytest.raises((FormatError, ValueError)) as info:
            exports.load(path)
        assert str(path) in str(info.value), what
        if what in ("instance garbage", "blob tampered"):
            assert ("not an ommx.v1.Instance" if what == "instance garbage" else "sha256 differs") in str(info.value)
        status, out, err = run_cli("decode", path, tmp_path / "good.ommx")
        assert status == 2 and out == "", what
        assert err.count("\n") == 1 and str(path) in err and "Traceback" not in err, (what, err)


def test_damaged_answers_give_one_line(tmp_path, logo, run_cli):
    model = _write(build(logo), tmp_path / "logo.ommx")
    instance = Artifact.load_archive(model).instance
    solution = instance.evaluate({i: int(v) for i, v in enumerate(_solution_bits(logo))}).to_bytes()
    cases = {"truncated.pb": solution[: len(solution) // 3], "model-as-answer.ommx": model.read_bytes(),
             "garbage.pb": b"\x00\x01\x02\xff" * 50}
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        status, out, err = run_cli("decode", model, path, "--samples-format", "ommx")
        assert status == 2 and out == "", name
        assert err.count("\n") == 1 and str(path) in err and "Traceback" not in err, (name, err)
    status, _, err = run_cli("decode", model, tmp_path / "garbage.pb")  # not recognised at all
    assert status == 2 and "binary file" in err


def test_missing_ommx_gets_an_install_hint(monkeypatch, logo):
    hide_packages(monkeypatch, "ommx")
    with pytest.raises(MissingDependency, match='pip install "nonoqubo\\[ommx\\]"'):
        ommx_format.dumps(build(logo))


def test_openjij_adapter_on_the_constrained_model_adds_variables_that_decode_ignores(tmp_path):
    adapter = pytest.importorskip("ommx_openjij_adapter")
    puzzle = Puzzle.from_picture(["#.#..", ".###.", "#...#", "##.##"])
    path = _write(build_constrained(puzzle), tmp_path / "small.ommx", "ommx-constrained")
    sample_set = adapter.OMMXOpenJijSAAdapter.sample(Artifact.load_archive(path).instance, num_reads=3,
                                                     seed=1, uniform_penalty_weight=4.0)
    names = {v.name for v in sample_set.raw.decision_variables}
    assert {"y", "z"} < names and any(n.startswith("ommx.") for n in names)  # slack / encoding variables
    reports = decode(path, sample_set)
    assert len(reports) == 3
    feasible = sample_set.feasible  # OMMX's verdict on the instance's own constraints
    assert [r.valid for r in reports] == [feasible[i] for i in sorted(feasible)]


# -- the NumPy protobuf writer against OMMX's constructors ------------------------------------
def _message(blob: bytes):
    """What a reader sees: the parsed instance, quadratic terms sorted (their order is free)."""
    from ommx.v1.instance_pb2 import Instance

    m = Instance.FromString(blob)
    q = m.objective.quadratic
    variables = [(v.id, v.kind, v.bound.lower, v.bound.upper, v.name, list(v.subscripts))
                 for v in m.decision_variables]
    return (sorted(zip(q.rows, q.columns, q.values)), sorted((t.id, t.coefficient) for t in q.linear.terms),
            q.linear.constant, variables, m.description, m.sense, dict(m.annotations), len(m.constraints))


def test_numpy_writer_gives_the_message_ommx_constructors_give(logo):
    from nonoqubo.model.qubo import Qubo

    webpbn27 = shared_puzzle("gecode-webpbn27")
    models = [
        build(logo),
        presolve_qubo(webpbn27, build(webpbn27)),  # labels with gaps: the layout less the fixed ones
        Qubo.from_terms(["a", "b[1]", "y0[0][0]"], [1, 0, -3], [(0, 1, 5), (1, 2, -2)], offset=7),
        Qubo.from_terms([], [], [], offset=0),
    ]
    for qubo in models:
        annotations = ommx_format.model_annotations(qubo, "qubo")
        fast = ommx_format.qubo_instance_bytes(qubo, annotations)
        reference = ommx_format.instance_blob(ommx_format._raw_instance(qubo, "qubo"), annotations)
        assert _message(fast) == _message(reference)
        assert ommx_v1.Instance.from_bytes(fast).objective.almost_equal(
            ommx_v1.Instance.from_bytes(reference).objective)


def test_varints_and_packed_fields_read_back_by_protobuf():
    from ommx.v1.quadratic_pb2 import Quadratic

    from nonoqubo.exports import _protobuf as pb

    rng = np.random.default_rng(5)
    ints = np.concatenate(([0, 1, 127, 128, 16383, 16384, 2**56 - 1, 2**56, 2**63 - 1],
                           rng.integers(0, 2**40, 1000), rng.integers(0, 300, 1000)))
    doubles = rng.normal(size=ints.size)
    data = pb.packed_varints(1, ints) + pb.packed_varints(2, ints[::-1]) + pb.packed_doubles(3, doubles)
    q = Quadratic.FromString(data)
    assert list(q.rows) == ints.tolist() and list(q.columns) == ints[::-1].tolist()
    assert list(q.values) == doubles.tolist()
    with pytest.raises(ValueError, match="non-negative"):
        pb.varints(np.array([3, -1]))
