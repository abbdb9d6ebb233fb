"""Sample readers: every accepted form gives the same bits, and bad samples get clear errors."""

from __future__ import annotations

import json

import dimod
import numpy as np
import pytest

from tests.support import DATA, SHARED
from nonoqubo.model.build import build
from nonoqubo.answers.decode import decode
from nonoqubo.model.encoding import Layout, flat_name
from nonoqubo.errors import FormatError, SampleError, UnsupportedFormat
from nonoqubo.samples import formats, get_format, parse_samples, read_samples, samples_from

LOGO_JSON = SHARED / "json" / "qbpp-logo.json"


def _assignments(logo) -> np.ndarray:
    """A solution, a damaged solution and a random assignment of the logo's variables."""
    lay = Layout.of(logo)
    sol = lay.encode(logo.solution_grid())
    damaged = sol.copy()
    damaged[[3, 50, 200, 300]] ^= 1
    rng = np.random.default_rng(7)
    return np.stack([sol, damaged, rng.integers(0, 2, lay.num_vars).astype(np.int8)])


def _forms(labels: list[str], x: np.ndarray) -> dict[str, str]:
    """The same samples written in every text form nonoqubo reads."""
    spins = 2 * x.astype(int) - 1
    ss_bin = dimod.SampleSet.from_samples((x, labels), "BINARY", energy=np.zeros(len(x)))
    ss_spin = dimod.SampleSet.from_samples((spins, labels), "SPIN", energy=np.zeros(len(x)))
    order = np.random.default_rng(1).permutation(len(labels))
    ss_shuffled = dimod.SampleSet.from_samples((x[:, order], [labels[i] for i in order]), "BINARY", energy=np.zeros(len(x)))
    ss_int = dimod.SampleSet.from_samples((x[:, order], [int(i) for i in order]), "BINARY", energy=np.zeros(len(x)))
    return {
        "sampleset": json.dumps(ss_bin.to_serializable()),
        "sampleset-spin": json.dumps(ss_spin.to_serializable()),
        "sampleset-shuffled": json.dumps(ss_shuffled.to_serializable()),
        "sampleset-int-labels": json.dumps(ss_int.to_serializable()),
        "labelmap": json.dumps([dict(zip(labels, map(int, row))) for row in x]),
        "labelmap-flat": json.dumps([{flat_name(k): int(v) for k, v in zip(labels, row)} for row in x]),
        "labelmap-spin": json.dumps([dict(zip(labels, map(int, row))) for row in spins]),
        "json-list": json.dumps(x.tolist()),
        "bit-lines": "\n".join("".join(map(str, row)) for row in x),
        "number-lines": "# one sample per line\n" + "\n".join(" ".join(map(str, row)) for row in x),
        "spin-lines": "\n".join(",".join(map(str, row)) for row in spins),
    }


def test_every_form_gives_the_same_report(logo):
    labels = Layout.of(logo).labels()
    x = _assignments(logo)
    expected = [r.to_dict() for r in decode(logo, x)]
    assert [r["valid"] for r in expected] == [True, False, False]
    for name, text in _forms(labels, x).items():
        batch = parse_samples(text, labels)
        assert np.array_equal(batch.bits, x), name
        got = [r.to_dict() for r in decode(logo, batch)]
        for r in got:
            r.pop("reported_energy", None)
            r.pop("num_occurrences", None)
        assert got == expected, name


def test_single_sample_forms(logo):
    labels = Layout.of(logo).labels()
    x = _assignments(logo)[1]
    bits = "".join(map(str, x))
    texts = {
        "qbsolv": f"c verbose output\n{len(x)} Number of bits in solution\n{bits}\n"
                  "  12.00000 Energy of solution\n3 Number of Partitioned calls\n 0.01 seconds of classic cpu time\n",
        "qplib-sol": "objvar 12\n" + "".join(f"b{i + 1} {v}\n" for i, v in enumerate(x)),
        "qplib-sol-names": "objvar 12\n" + "".join(f"{flat_name(k)} {float(v)}\n" for k, v in zip(labels, x)),
        "labelmap-one": json.dumps(dict(zip(labels, map(bool, x)))),
        "json-one": json.dumps(x.tolist()),
    }
    for name, text in texts.items():
        batch = parse_samples(text, labels)
        assert batch.bits.tolist() == [x.tolist()], name
    assert parse_samples(texts["qbsolv"], labels).energies.tolist() == [12.0]
    assert get_format("qbsolv").detect(texts["qbsolv"])
    assert get_format("qplib-sol").detect(texts["qplib-sol"])


def test_in_memory_objects(logo):
    labels = Layout.of(logo).labels()
    x = _assignments(logo)
    ss = dimod.SampleSet.from_samples((x, labels), "BINARY", energy=[0, 1, 2], num_occurrences=[1, 2, 3])
    batch = samples_from(ss, labels)
    assert np.array_equal(batch.bits, x)
    assert batch.num_occurrences.tolist() == [1, 2, 3]

    class FakeSol:  # the duck type of a pyqbpp Sol (pyqbpp itself never runs in the test process)
        def __init__(self, row):
            self.values = dict(zip(labels, row))
            self.var_count = len(labels)

        def model_var(self, i):
            return labels[i]

        def get(self, v):
            return int(self.values[v])

    for obj in (x, x.tolist(), [dict(zip(labels, r)) for r in x.tolist()], FakeSol(x[1])):
        got = samples_from(obj, labels).bits
        assert np.array_equal(got, x if len(got) == 3 else x[1:2])
    reports = decode(logo, ss)
    assert [r.num_occurrences for r in reports] == [1, 2, 3]


def test_sample_files_in_data_dir(logo):
    """Committed fixtures: a qbsolv answer and a QPLIB .sol of the logo's solution."""
    labels = Layout.of(logo).labels()
    sol = Layout.of(logo).encode(logo.solution_grid())
    for name in ("logo-answer.qbsolv.txt", "logo-solution.sol"):
        batch = read_samples(DATA / "samples" / name, labels)
        assert batch.bits.tolist() == [sol.tolist()], name
        assert decode(logo, batch)[0].valid


def test_registry_discovers_modules():
    names = list(formats())
    assert {"sampleset", "labelmap", "vector", "qbsolv", "qplib-sol"} <= set(names)
    assert names[-1] == "vector"  # the catch-all is tried last
    with pytest.raises(UnsupportedFormat, match="unknown samples format 'nope'"):
        get_format("nope")


def test_fixed_labels_are_tolerated_in_label_maps(logo):
    q = build(logo)
    fixed = {q.labels[0]: 0}
    reduced = q.fix(fixed)
    sample = {label: 0 for label in q.labels}
    batch = parse_samples(json.dumps(sample), reduced.labels, fixed=reduced.fixed)
    assert batch.bits.shape == (1, q.num_vars - 1)


# -- errors ----------------------------------------------------------------------------------
LABELS = ["y0[0][0]", "y1[0][0]", "z0[0][0]", "z1[0][0]"]


@pytest.mark.parametrize(
    ("text", "kwargs", "error", "message"),
    [
        ('{"y0[0][0]": 1, "y1[0][0]": 0, "z0[0][0]": 1}', {}, SampleError, "sample 0 lacks variable 'z1[0][0]'"),
        ('[{"y0[0][0]": 1, "y1[0][0]": 0, "z0[0][0]": 1, "z1[0][0]": 0},'
         ' {"y0[0][0]": 1, "y1[0][0]": 0, "z0[0][0]": 1, "z1[0][0]": 0, "q": 1}]', {}, SampleError,
         "sample 1 has unknown variable 'q'"),
        ("0101\n0121", {}, SampleError, "sample 1, variable 'z0[0][0]': value 2"),
        ("0 1 -1 1", {}, SampleError, "sample 0, variable 'y0[0][0]': value 0: spins must be -1 or +1"),
        ("0101\n010", {}, SampleError, "sample 1 has 3 values but the model has 4 variables"),
        ("[0, 1, 0, 1, 1]", {}, SampleError, "sample 0 has 5 values but the model has 4 variables"),
        ("0101", {"spin": True}, SampleError, "value 0: spins must be -1 or +1"),
        ('{"y0[0][0]": 1, "y0_0_0": 1, "y1[0][0]": 0, "z0[0][0]": 1, "z1[0][0]": 0}', {}, SampleError, "twice"),
        ('{"y0[0][0]": "x", "y1[0][0]": 0, "z0[0][0]": 1, "z1[0][0]": 0}', {}, SampleError, "'x' is not a number"),
        ("objvar 1\nb1 1\nb2 0\nb3 1\nb9 1\n", {}, SampleError, "unknown variable index 8"),
        ("hello world", {}, UnsupportedFormat, "cannot tell the samples format"),
        ("[0, 1,", {}, FormatError, "invalid JSON"),
        ('{"type": "SampleSet", "broken": 1}', {}, FormatError, "dimod cannot read this SampleSet"),
        ("3 Number of bits in solution\n0101\n", {}, FormatError, "expected 3 bits"),
    ],
)
def test_bad_samples(text, kwargs, error, message):
    with pytest.raises(error) as info:
        parse_samples(text, LABELS, source="s.txt", **kwargs)
    assert message in str(info.value)
    assert str(info.value).startswith("s.txt")


def test_bad_samples_exit_status_2(run_cli, tmp_path):
    puzzle = tmp_path / "p.yaml"
    puzzle.write_text("rows: [[1], [1]]\ncols: [[1], [1]]\n")
    cases = {
        "missing.json": ('{"y0[0][0]": 1}', "lacks variable 'y1[0][0]'"),
        "unknown.json": ('{"y0[0][0]": 1, "y1[0][0]": 0, "z0[0][0]": 1, "z1[0][0]": 0, "w": 1}', "unknown variable 'w'"),
        "value.txt": ("0130", "sample 0, variable 'z0[0][0]': value 3"),
        "length.txt": ("0101\n01011", "sample 1 has 5 values"),
    }
    for name, (text, message) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        status, out, err = run_cli("decode", puzzle, path)
        assert status == 2, name
        assert out == ""
        assert err.startswith("nonoqubo: error: ") and message in err, (name, err)
        assert "Traceback" not in err


def test_cli_samples_format_option(run_cli, tmp_path):
    puzzle = tmp_path / "p.yaml"
    puzzle.write_text("rows: [[1], [1]]\ncols: [[1], [1]]\n")
    samples = tmp_path / "s.txt"
    samples.write_text("0101\n")
    status, out, _ = run_cli("decode", puzzle, samples, "--samples-format", "vector")
    assert status == 0 and "VALID" in out
    status, _, err = run_cli("decode", puzzle, samples, "--samples-format", "nope")
    assert status == 2 and "unknown samples format 'nope'" in err
    status, _, err = run_cli("decode", puzzle, tmp_path / "missing.txt")
    assert status == 2 and "missing.txt" in err
