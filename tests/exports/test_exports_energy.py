"""Every export format, read back by the real reader or by a small reader written here from the
format's own specification (never nonoqubo's reader), gives Qubo.energy on random samples."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest

from nonoqubo import exports
from nonoqubo.model.build import build
from nonoqubo.model.encodings import DEFAULT, geometry_of, names

from tests.support import ROOT, shared_puzzle

PUZZLES = ["qbpp-logo", "gecode-heart", "sgt-pattern-10x10", "gecode-webpbn23"]
SAMPLES = 300


@pytest.fixture(scope="module", params=[(name, enc) for enc in names() for name in PUZZLES],
                ids=lambda p: f"{p[0]}-{p[1]}")
def model(request):
    name, encoding = request.param
    weights = None if encoding == DEFAULT.name else "shape=2,cell=3"  # every other encoding weighted
    return build(shared_puzzle(name), encoding=encoding, weights=weights)


def random_samples(n: int, seed: int = 7) -> np.ndarray:
    x = np.random.default_rng(seed).integers(0, 2, size=(SAMPLES, n))
    return x.astype(np.int64)


def comment_value(lines: list[str], marker: str, key: str) -> str:
    """The value of a 'key=value' comment line (continuations 'key+=' joined)."""
    out = []
    for line in lines:
        m = re.match(rf"^{re.escape(marker)} ?{key}(\+?)=(.*)$", line)
        if m:
            out.append(m.group(2))
    assert out, f"no {key}= comment"
    return "".join(out)


# -- the readers --------------------------------------------------------------------------
def energies_bqm(data: bytes, labels, x: np.ndarray, spin: bool) -> np.ndarray:
    import dimod
    from dimod.serialization.fileview import read_header

    bqm = dimod.BQM.from_file(io.BytesIO(data))
    assert bqm.vartype is (dimod.SPIN if spin else dimod.BINARY)
    assert list(bqm.variables) == list(labels)  # exactly the model's variables
    header = read_header(io.BytesIO(data), b"DIMODBQM").data
    assert header["nonoqubo"]["variables"] == len(labels)
    vals = 2 * x - 1 if spin else x
    return np.asarray(bqm.energies((vals, list(labels))))


def energies_bqm_json(text: str, labels, x, spin):
    import dimod

    bqm = dimod.BQM.from_serializable(json.loads(text))
    assert list(bqm.variables) == list(labels)
    return np.asarray(bqm.energies((2 * x - 1 if spin else x, list(labels))))


def energies_qubo_json(text: str, labels, x, spin):
    import jsonschema

    doc = json.loads(text)
    schema = json.loads((ROOT / "schemas" / "qubo.schema.json").read_text())
    jsonschema.validate(doc, schema, cls=jsonschema.Draft202012Validator)
    assert doc["labels"] == list(labels)
    v = (2 * x - 1) if spin else x
    q = doc["quadratic"]
    e = doc["offset"] + v @ np.array(doc["linear"], dtype=float)
    e = e + (v[:, q["row"]] * v[:, q["col"]]) @ np.array(q["bias"], dtype=float)
    return e


def energies_coo(text: str, labels, x, spin):
    from dimod.serialization import coo

    bqm = coo.loads(text)
    lines = text.splitlines()
    offset = float(comment_value(lines, "#", "offset"))
    cols = sorted(bqm.variables)
    v = (2 * x - 1) if spin else x
    return np.asarray(bqm.energies((v[:, cols], cols))) + offset


def energies_csv(text: str, labels, x, spin):
    lines = text.splitlines()
    offset = float(comment_value(lines, "#", "offset"))
    reader = csv.DictReader(line for line in lines if not line.startswith("#"))
    v = (2 * x - 1) if spin else x
    e = np.full(x.shape[0], offset)
    for row in reader:
        i, j = int(row["i"]), int(row["j"])
        assert row["label_i"] == labels[i] and row["label_j"] == labels[j]
        e += float(row["bias"]) * (v[:, i] if i == j else v[:, i] * v[:, j])
    return e


def energies_qbsolv(text: str, labels, x, spin):
    # dwavesystems/qbsolv README: 'p qubo 0 maxNodes nNodes nCouplers', nNodes diagonal lines, then
    # nCouplers lines i < j; comment lines start with 'c'; no offset (nonoqubo's 'c offset=' comment).
    lines = [ln for ln in text.splitlines()]
    offset = float(comment_value(lines, "c", "offset"))
    data = [ln.split() for ln in lines if ln and not ln.startswith("c")]
    p = data[0]
    assert p[:3] == ["p", "qubo", "0"]
    max_nodes, n_nodes, n_couplers = map(int, p[3:])
    assert max_nodes == len(labels) and len(data) - 1 == n_nodes + n_couplers
    e = np.full(x.shape[0], offset)
    for k, (i, j, w) in enumerate(data[1:]):
        i, j = int(i), int(j)
        assert (i == j) == (k < n_nodes) and i <= j
        e += float(w) * (x[:, i] if i == j else x[:, i] * x[:, j])
    return e


def energies_qs(text: str, labels, x, spin):
    # QOBLIB: '# ObjectiveOffset c', 'n m', 1-based i <= j; E = c + x'Qx, Q symmetric.
    lines = text.splitlines()
    assert lines[0].startswith("# ObjectiveOffset ")
    c = float(lines[0].split()[2])
    data = [ln.split() for ln in lines if not ln.startswith("#")]
    n, m = map(int, data[0])
    assert n == len(labels) and m == len(data) - 1
    Q = np.zeros((n, n))
    for i, j, q in data[1:]:
        i, j = int(i) - 1, int(j) - 1
        assert i <= j
        Q[i, j] += float(q)
        if i != j:
            Q[j, i] += float(q)
    xf = x.astype(float)
    return c + np.einsum("si,ij,sj->s", xf, Q, xf)


def energies_mqlib(text: str, labels, x, spin):
    # MQLib: 'n m', 1-based 'a b w', Q_ab = Q_ba = w, maximise x'Qx. nonoqubo's E = offset - x'Qx.
    lines = text.splitlines()
    offset = float(comment_value(lines, "#", "offset"))
    data = [ln.split() for ln in lines if not ln.startswith("#")]
    n, m = map(int, data[0])
    assert n == len(labels) and m == len(data) - 1
    Q = np.zeros((n, n))
    for a, b, w in data[1:]:
        a, b = int(a) - 1, int(b) - 1
        Q[a, b] = Q[b, a] = float(w)
    xf = x.astype(float)
    return offset - np.einsum("si,ij,sj->s", xf, Q, xf)


def energies_mtx(text: str, labels, x, spin):
    import scipy.io

    U = scipy.io.mmread(io.StringIO(text)).toarray()
    assert np.allclose(U, np.triu(U))
    offset = float(comment_value(text.splitlines(), "%", "offset"))
    xf = x.astype(float)
    return offset + np.einsum("si,ij,sj->s", xf, U, xf)


def energies_qplib(text: str, labels, x, spin):
    # QPLIB (Furini et al. 2019, App. B) as its real readers evaluate it (pyqplib obj_val; OMMX
    # load_qplib since ommx#1207, checked against QPLIB's published solutions): min 1/2 sum of
    # v x_h x_k over the listed lower-triangle entries (h >= k, 1-based) + b'x + c.  No names.
    lines = [ln.split("#", 1)[0].strip() for ln in text.splitlines()]
    it = iter(lines)
    next(it)
    assert next(it) in ("QBN", "QBB") and next(it) == "minimize"
    n = int(next(it))
    assert n == len(labels)
    L = np.zeros((n, n))
    for _ in range(int(next(it))):
        h, k, v = next(it).split()
        h, k = int(h) - 1, int(k) - 1
        assert h >= k
        L[h, k] = float(v)
    b = np.full(n, float(next(it)))
    for _ in range(int(next(it))):
        i, v = next(it).split()
        b[int(i) - 1] = float(v)
    c = float(next(it))
    next(it), next(it)
    for _ in range(int(next(it))):
        next(it)
    next(it)
    for _ in range(int(next(it))):
        next(it)
    assert int(next(it)) == 0 and int(next(it)) == 0  # no variable or constraint names
    xf = x.astype(float)
    return 0.5 * np.einsum("si,ij,sj->s", xf, L, xf) + xf @ b + c


def energies_npz(data: bytes, labels, x, spin):
    a = np.load(io.BytesIO(data), allow_pickle=False)
    assert a["labels"].tolist() == list(labels) and str(a["vartype"]) == "BINARY"
    return int(a["offset"]) + x @ a["linear"] + (x[:, a["row"]] * x[:, a["col"]]) @ a["quad"]


def energies_ommx(data: bytes, labels, x, spin):
    """OMMX's own reader and evaluator: Artifact.load_archive, then Instance.evaluate_samples."""
    import os
    import tempfile

    pytest.importorskip("ommx")
    from ommx.artifact import Artifact
    from ommx.v1 import Samples

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.ommx")
        Path(path).write_bytes(data)
        instance = Artifact.load_archive(path).instance
    variables = instance.decision_variables
    assert [f"{v.name}{v.subscripts[0]}[{v.subscripts[1]}][{v.subscripts[2]}]" for v in variables] == list(labels)
    ids = [v.id for v in variables]
    objectives = instance.evaluate_samples(Samples({s: dict(zip(ids, row)) for s, row in enumerate(x.tolist())})).objectives
    return np.array([objectives[s] for s in range(len(x))])


READERS = {
    "ommx": energies_ommx,
    "bqm": energies_bqm, "bqm-json": energies_bqm_json, "qubo-json": energies_qubo_json, "coo": energies_coo,
    "csv": energies_csv, "qbsolv": energies_qbsolv, "qs": energies_qs, "mqlib": energies_mqlib,
    "mtx": energies_mtx, "qplib": energies_qplib, "npz": energies_npz,
}


def test_every_qubo_format_has_a_reader_here():
    assert {m.NAME for m in exports.formats("qubo")} == set(READERS)


@pytest.mark.parametrize("fmt", sorted(READERS))
def test_file_energy_matches_qubo_energy(model, fmt, tmp_path: Path):
    path = tmp_path / f"model.{exports.get_format(fmt).EXTENSIONS[0]}"
    exports.dump(model, path)
    mod = exports.format_for_path(path)
    assert mod.NAME == fmt
    data = path.read_bytes() if mod.BINARY else path.read_text()
    x = random_samples(model.num_vars)
    # the known solution too: energy 0 in every file
    geo = geometry_of(model.puzzle, encoding=model.encoding)
    grid = model.puzzle.solution_grid()
    sol = geo.encode(grid)
    x = np.vstack([x, sol])
    got = READERS[fmt](data, list(model.labels), x, False)
    want = model.energy(x)
    np.testing.assert_array_equal(np.asarray(got, dtype=float), want.astype(float))
    assert want[-1] == 0


@pytest.mark.parametrize("fmt", sorted(m.NAME for m in exports.formats("qubo") if m.ISING))
def test_ising_file_energy_matches_binary_energy(model, fmt, tmp_path: Path):
    path = tmp_path / f"model.{exports.get_format(fmt).EXTENSIONS[0]}"
    exports.dump(model, path, ising=True)
    mod = exports.get_format(fmt)
    data = path.read_bytes() if mod.BINARY else path.read_text()
    x = random_samples(model.num_vars, seed=11)
    got = READERS[fmt](data, list(model.labels), x, True)
    np.testing.assert_array_equal(np.asarray(got, dtype=float), model.energy(x).astype(float))


def test_ising_formats_are_exactly_the_five():
    assert {m.NAME for m in exports.formats("qubo") if m.ISING} == {"bqm", "bqm-json", "qubo-json", "coo", "csv"}
