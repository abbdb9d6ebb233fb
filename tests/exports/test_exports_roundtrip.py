"""load(dump(q)) == q for every QUBO format: labels, terms, offset, clues, fixed variables;
the registry; errors; a real annealer on the written .bqm file."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import re

import numpy as np
import pytest
from tests.support import shared_puzzle

from nonoqubo import exports
from nonoqubo.model.build import build
from nonoqubo.model.encoding import Layout
from nonoqubo.model.encodings import DEFAULT, REGISTRY, geometry_of
from nonoqubo.errors import FormatError, NonoquboError, UnsupportedFormat
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.model.qubo import Qubo

QUBO_FORMATS = sorted(m.NAME for m in exports.formats("qubo"))
ISING_FORMATS = sorted(m.NAME for m in exports.formats("qubo") if m.ISING)


#: the models every format must carry: the default, and every other registered encoding with weights (both
#: recorded in the file)
MODELS = [{}, *({"encoding": e.name, "weights": "shape=2,order=3,cell=5"} for e in REGISTRY if e is not DEFAULT)]
MODEL_IDS = [DEFAULT.name, *(f"{e.name}-weighted" for e in REGISTRY if e is not DEFAULT)]


def clues_only(q: Qubo) -> Qubo:
    """*q* with its puzzle reduced to what files carry (clues and name, no solution)."""
    p = q.puzzle
    return dataclasses.replace(q, puzzle=Puzzle(p.rows, p.cols, p.name))


@pytest.fixture(scope="module")
def logo_qubo():
    return clues_only(build(shared_puzzle("qbpp-logo")))


@pytest.fixture(scope="module", params=MODELS, ids=MODEL_IDS)
def any_logo(request):
    """The logo's model in each encoding (one-hot with weights)."""
    return clues_only(build(shared_puzzle("qbpp-logo"), **request.param))


@pytest.mark.parametrize("fmt", QUBO_FORMATS)
@pytest.mark.parametrize("name", ["qbpp-logo", "olsak-sachovnice", "gecode-heart", "loom-atrus"])
@pytest.mark.parametrize("options", MODELS, ids=MODEL_IDS)
def test_load_dump_is_identity(fmt, name, options, tmp_path):
    q = clues_only(build(shared_puzzle(name), **options))
    path = tmp_path / f"m.{exports.get_format(fmt).EXTENSIONS[0]}"
    exports.dump(q, path)
    back = exports.load(path)
    assert back == q
    assert back.puzzle == q.puzzle and back.puzzle.name == q.puzzle.name
    assert list(back.labels) == list(q.labels)
    assert back.encoding == q.encoding and back.weights == q.weights


@pytest.mark.parametrize("fmt", ISING_FORMATS)
def test_ising_file_loads_as_the_binary_model(fmt, any_logo):
    back = exports.loads(exports.dumps(any_logo, fmt, ising=True), fmt)
    assert back == any_logo and back.encoding == any_logo.encoding


@pytest.mark.parametrize("fmt", QUBO_FORMATS)
def test_fixed_variables_and_rule_labels_survive(fmt, any_logo):
    geo = geometry_of(any_logo.puzzle, encoding=any_logo.encoding)
    grid = shared_puzzle("qbpp-logo").solution_grid()
    solution = geo.encode(grid)
    fix = {any_logo.labels[i]: int(solution[i]) for i in range(0, any_logo.num_vars, 7)}
    reduced = any_logo.fix(fix)
    back = exports.loads(exports.dumps(reduced, fmt), fmt)
    assert back == reduced and dict(back.fixed) == fix
    assert list(back.labels) == [lab for lab in geo.labels() if lab not in fix]


@pytest.mark.parametrize("fmt", QUBO_FORMATS)
def test_a_bare_model_keeps_its_own_labels(fmt):
    q = Qubo.from_terms(["a", "b", "c", "d"], [-1, 0, 3, 0], [(0, 1, 2), (1, 2, -5), (0, 3, 7)], offset=-9)
    back = exports.loads(exports.dumps(q, fmt), fmt)
    assert back == q and back.puzzle is None
    x = np.array(np.meshgrid(*[[0, 1]] * 4)).reshape(4, -1).T
    np.testing.assert_array_equal(back.energy(x), q.energy(x))


def test_text_formats_write_integers_and_no_scientific_notation(logo_qubo):
    for m in exports.formats("qubo"):
        if m.BINARY:
            continue
        text = m.dumps(logo_qubo)
        assert not re.search(r"\d[eE][+-]?\d|(?<![\d.])\d+\.0\b", text.replace("1.0E+20", "").replace("3.0.0", "")), m.NAME


@pytest.mark.parametrize("fmt", QUBO_FORMATS)
def test_every_file_is_self_describing(fmt, any_logo):
    logo_qubo = any_logo
    data = exports.dumps(logo_qubo, fmt)
    head = data if isinstance(data, bytes) else data.encode()
    if fmt == "npz":  # strings are UTF-32 arrays there
        head = str(np.load(io.BytesIO(data))["meta"]).replace(" ", "").encode()
    if fmt == "bqm":  # dimod writes its JSON header with spaces
        head = head.replace(b" ", b"")
    # name, a clue, the offset (120 for the domain wall), the encoding
    for needle in (b"qbpp-logo", b"[4,4]", str(logo_qubo.offset).encode(), str(logo_qubo.encoding).encode()):
        assert needle in head, (fmt, needle)
    assert logo_qubo.encoding != "domain-wall" or logo_qubo.offset == 120
    assert exports.loads(data) == logo_qubo  # the format sniffed from the content


def test_long_clue_lists_wrap_over_short_comment_lines():
    picture = np.ones((5, 300), bool)
    picture[4] = False  # 300 columns of clue [4] in height 5: one variable each
    wide = Puzzle.from_picture(picture)
    q = build(wide)
    assert q.num_vars == 300
    text = exports.dumps(q, "coo")
    comments = [ln for ln in text.splitlines() if ln.startswith("#")]
    assert len(comments) > 20 and max(map(len, comments)) <= 120
    assert exports.loads(text, "coo").puzzle.rows == wide.rows


def test_registry_extensions_pick_the_longest_suffix():
    assert exports.format_for_path("a/logo.qubo.json").NAME == "qubo-json"
    assert exports.format_for_path("x.BQM.JSON").NAME == "bqm-json"
    assert exports.format_for_path("x.json").NAME == "qubo-json"
    assert exports.format_for_path("x.qubo").NAME == "qbsolv"
    assert exports.get_format("qubo").NAME == "qbsolv"
    with pytest.raises(UnsupportedFormat, match="known formats: .*qubo-json.*qplib"):
        exports.get_format("hdf5")
    with pytest.raises(UnsupportedFormat, match="cannot tell"):
        exports.format_for_path("x.txt")


def test_every_module_declares_the_contract():
    for m in exports.formats():
        assert m.NAME and m.TITLE and "\n" not in m.TITLE and m.EXTENSIONS
        assert isinstance(m.BINARY, bool) and isinstance(m.ISING, bool)
        assert getattr(m, "KIND", "qubo") in ("qubo", "constrained", "puzzle")
        for fn in ("dumps", "dump", "loads"):
            assert callable(getattr(m, fn)), (m.NAME, fn)


def test_load_sniffs_content_when_the_extension_lies(logo_qubo, tmp_path):
    path = tmp_path / "model.json"  # a dimod document under the default JSON extension
    path.write_text(exports.dumps(logo_qubo, "bqm-json"))
    assert exports.load(path) == logo_qubo


def test_ising_refused_by_formats_that_cannot_carry_it(logo_qubo, tmp_path):
    with pytest.raises(UnsupportedFormat, match="cannot carry an Ising model.*bqm"):
        exports.dump(logo_qubo, tmp_path / "x.qubo", ising=True)
    assert not list(tmp_path.iterdir())


def _unwritable(where, tmp_path):
    """A target that cannot be written, and the folder that must be left as it was.

    Every case but the read-only folder holds for root too (the suite runs as root in CI):
    a missing folder, a regular file used as a folder, an existing folder as the target
    (the temporary file is written, then the rename fails, so its removal is tested), and
    ``/dev/full`` (a device, written directly, that refuses every byte).
    """
    if where == "missing folder":
        return tmp_path / "missing" / "x.coo", tmp_path, "No such file or directory"
    if where == "under a file":
        (tmp_path / "file").write_text("a regular file\n")
        return tmp_path / "file" / "x.coo", tmp_path, "Not a directory"
    if where == "a folder":
        (tmp_path / "x.coo").mkdir()
        (tmp_path / "x.coo" / "keep").write_text("kept\n")
        return tmp_path / "x.coo", tmp_path, "Is a directory"
    if where == "full device":
        if not os.path.exists("/dev/full"):
            pytest.skip("this system has no /dev/full")
        return "/dev/full", tmp_path, "No space left on device"
    if os.geteuid() == 0:
        pytest.skip("root writes into a read-only folder; the other cases stand for it")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    return ro / "x.coo", ro, "Permission denied"


@pytest.mark.parametrize("where", ["missing folder", "under a file", "a folder", "full device", "read-only folder"])
def test_unwritable_path_leaves_nothing(logo_qubo, tmp_path, where):
    target, folder, reason = _unwritable(where, tmp_path)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    try:
        with pytest.raises(NonoquboError, match=f"^cannot write {re.escape(str(target))}: {reason}$"):
            exports.dump(logo_qubo, target, "coo")
        assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    finally:
        folder.chmod(0o700)


@pytest.mark.parametrize("fmt, damage, message", [
    ("coo", lambda t: t.replace("\n0 1 -1\n", "\n0 1 x\n"), r":\d+: 'x' is not a number"),
    ("coo", lambda t: t.replace("\n0 1 -1\n", "\n0 1\n"), r":\d+: expected 3 numbers"),
    ("coo", lambda t: "\n".join(ln for ln in t.split("\n") if not ln.startswith("# labels")), "no nonoqubo metadata"),
    ("qbsolv", lambda t: t.replace("p qubo 0 437 399 2357", "p qubo 0 437 398 2357"), "announces 398 diagonal"),
    ("qbsolv", lambda t: t.replace("p qubo", "p qbuo"), r":\d+: expected 'p qubo"),
    ("qs", lambda t: t.replace("\n437 2756\n", "\n437 2755\n"), "announces 2755 entries"),
    ("mtx", lambda t: t.replace("real general", "real symmetric"), "real general"),
    ("qplib", lambda t: t.replace("QBN", "QCQP"), "QBN/QBB"),
    ("qubo-json", lambda t: t[:-5], "invalid JSON"),
    ("qubo-json", lambda t: t.replace('"format_version": 1', '"format_version": 9'), "format_version 9"),
    ("bqm-json", lambda t: t.replace('"info": {', '"inf0": {'), "no nonoqubo metadata"),
    ("csv", lambda t: t.replace("i,j,label_i", "a,b,c"), "header row"),
])
def test_damaged_files_give_located_errors(logo_qubo, fmt, damage, message):
    text = exports.dumps(logo_qubo, fmt)
    bad = damage(text)
    assert bad != text
    with pytest.raises(FormatError, match=message) as info:
        exports.loads(bad, fmt, source="bad.file")
    assert str(info.value).startswith("bad.file:")


def test_out_of_range_index_is_refused(logo_qubo):
    text = exports.dumps(logo_qubo, "coo").replace("\n0 1 -1\n", "\n0 999 -1\n")
    with pytest.raises(FormatError, match="outside the 437 variables"):
        exports.loads(text, "coo")


def test_simulated_annealing_on_the_written_bqm_file_finds_the_logo(tmp_path):
    samplers = pytest.importorskip("dwave.samplers")
    import dimod

    puzzle = shared_puzzle("qbpp-logo")
    q = build(puzzle)
    path = tmp_path / "logo.bqm"
    exports.dump(q, path)
    with open(path, "rb") as fh:
        bqm = dimod.BinaryQuadraticModel.from_file(fh)
    result = samplers.SimulatedAnnealingSampler().sample(bqm, num_reads=10, num_sweeps=2000, seed=5)
    best = result.first
    assert best.energy == 0
    x = np.array([[best.sample[label] for label in q.labels]])
    assert q.energy(x).tolist() == [0]
    lay = Layout.of(puzzle)
    rows_view, cols_view = lay.grids(lay.shifts(x))
    assert np.array_equal(rows_view[0], puzzle.solution_grid())
    assert np.array_equal(cols_view[0], puzzle.solution_grid())


def test_qubo_json_dumps_to_stdout_through_the_registry(logo_qubo, capsys):
    exports.dump(logo_qubo, "-", "qubo-json")
    doc = json.loads(capsys.readouterr().out)
    assert doc["num_terms"] == 2756 and doc["offset"] == 120


def test_npz_keys_are_the_documented_ones(logo_qubo):
    arrays = np.load(io.BytesIO(exports.dumps(logo_qubo, "npz")))
    assert set(arrays.files) == {"labels", "linear", "row", "col", "quad", "offset", "vartype", "clues", "fixed", "meta"}
    assert json.loads(str(arrays["clues"]))["rows"][0] == [7]


def test_csv_quotes_awkward_labels():
    import csv as csv_module

    labels = ["a,b", 'say "hi"', " padded", "plain"]
    q = Qubo.from_terms(labels, [1, -2, 3, 0], [(0, 1, 4), (2, 3, -1)], offset=2)
    text = exports.dumps(q, "csv")
    rows = list(csv_module.DictReader(ln for ln in text.splitlines() if not ln.startswith("#")))
    assert [r["label_i"] for r in rows] == ["a,b", "a,b", 'say "hi"', " padded", " padded"]
    assert exports.loads(text, "csv") == q
