"""The one registry protocol (nonoqubo._util.discover) holds for every clue, QUBO and sample format module."""

from __future__ import annotations

import codecs
import inspect
import pkgutil
import sys
import types

import pytest

from nonoqubo import clues, exports, samples
from nonoqubo._util import discover, text
from nonoqubo.campaign import suite
from nonoqubo.errors import FormatError, SampleError
from nonoqubo.model import estimate

REGISTRIES = ("nonoqubo.clues", "nonoqubo.exports", "nonoqubo.samples")
KINDS = {"nonoqubo.clues": {"puzzle"}, "nonoqubo.exports": {"qubo", "constrained", "puzzle"}, "nonoqubo.samples": {"samples"}}
MODULES = [(pkg, m) for pkg in REGISTRIES for m in discover.registry(pkg)]


def _id(case):
    return f"{case[0].rpartition('.')[2]}:{case[1].NAME}"


@pytest.mark.parametrize("case", MODULES, ids=[_id(c) for c in MODULES])
def test_every_format_module_defines_the_protocol(case):
    package, mod = case
    assert discover.problems(mod, package) == []
    assert mod.NAME == mod.NAME.lower() and mod.TITLE and "\n" not in mod.TITLE
    assert all(isinstance(e, str) and e == e.lower() and not e.startswith(".") for e in mod.EXTENSIONS)
    assert all(isinstance(a, str) and a == a.lower() for a in mod.ALIASES)
    assert mod.KIND in KINDS[package]
    if mod.LEGACY_ENCODING is not None:
        assert not mod.BINARY
        codecs.lookup(mod.LEGACY_ENCODING)


@pytest.mark.parametrize("case", MODULES, ids=[_id(c) for c in MODULES])
def test_detect_takes_the_head_as_bytes(case):
    _, mod = case
    params = list(inspect.signature(mod.detect).parameters.values())
    assert [p.name for p in params] == ["head"]
    assert params[0].annotation in (bytes, "bytes")
    assert mod.detect(b"") is False
    assert isinstance(mod.detect(b"\xff\xfe not text \x00"), bool)


@pytest.mark.parametrize("package", REGISTRIES)
def test_names_and_aliases_pick_one_module(package):
    mods = discover.registry(package)
    names = [m.NAME for m in mods]
    assert len(set(names)) == len(names)
    for m in mods:
        assert discover.find(mods, m.NAME.upper()) is m
        for alias in m.ALIASES:
            assert alias not in names and discover.find(mods, alias) is m


def test_a_module_that_forgets_a_name_is_told():
    mod = types.ModuleType("nonoqubo.exports.new")
    for name, value in vars(sys.modules["nonoqubo.exports.coo"]).items():
        if name.isupper() or name in ("detect", "loads", "dumps", "dump"):
            setattr(mod, name, value)
    assert discover.problems(mod, "nonoqubo.exports") == []
    del mod.OFFSET
    mod.ORDER = "40"
    assert discover.problems(mod, "nonoqubo.exports") == ["ORDER is a str, not <class 'int'>", "OFFSET is missing"]


def test_discovery_is_cached(monkeypatch):
    for package in REGISTRIES:
        discover.registry(package)

    def refuse(*args, **kwargs):
        raise AssertionError("discovery ran again")

    monkeypatch.setattr(pkgutil, "iter_modules", refuse)
    assert clues.get_format("non").NAME == "non"
    assert exports.get_format("coo").NAME == "coo" and exports.formats()[0].NAME == "qubo-json"
    assert samples.get_format("gurobi").NAME == "gurobi"
    assert discover.registry("nonoqubo.samples") is discover.registry("nonoqubo.samples")


def test_a_new_format_is_a_new_file(tmp_path, monkeypatch):
    pkg = tmp_path / "fakeformats"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "_helper.py").write_text("NAME = 'hidden'\nORDER = 0\n")
    (pkg / "late.py").write_text("NAME = 'late'\nORDER = 20\n")
    (pkg / "early.py").write_text("NAME = 'early'\nORDER = 10\nALIASES = ('first',)\n")
    (pkg / "notes.py").write_text("TEXT = 'no NAME: not a format'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = discover.registry("fakeformats")
    assert [m.NAME for m in found] == ["early", "late"]
    assert discover.find(found, "FIRST").NAME == "early"


#: the listing (and content-sniffing) order of the formats that exist today; a new module may
#: stand anywhere in its registry (its ORDER decides), but these keep their order among themselves
KNOWN_ORDER = {
    "nonoqubo.clues": ["spec", "gecode", "xml", "non", "nin", "taai", "mk", "g", "cwd", "sgt", "picture", "pbm", "ppm",
                       "png"],
    "nonoqubo.exports": ["qubo-json", "bqm", "bqm-json", "coo", "csv", "qbsolv", "qs", "mqlib", "mtx", "qplib", "cqm",
                         "lp", "mps", "npz", "ommx", "ommx-constrained", "minizinc"],
    "nonoqubo.samples": ["ommx", "sampleset", "gurobi-json", "minizinc", "highs", "labelmap", "cbc", "glpk", "gurobi",
                         "scip", "mqlib", "qbsolv", "qplib-sol", "vector"],
}
#: how the solvers that read these files report the energy: facts of those solvers, not of the registry
KNOWN_OFFSETS = {"qbsolv": "excluded", "coo": "excluded", "csv": "excluded", "mtx": "excluded", "mqlib": "negated",
                 "qs": "carried", "qubo-json": "carried", "bqm": "carried", "qplib": "carried", "lp": "carried"}
#: the writers measured to peak above the build's own memory (benchmarks/README.md), bytes per term
KNOWN_HEAVY_WRITERS = {"cqm": 280, "lp": 50, "mps": 70, "ommx": 85, "ommx-constrained": 160, "coo": 0, "qbsolv": 0}
GROUND = {"carried": 0, "excluded": -120, "negated": 120}


@pytest.mark.parametrize("package", REGISTRIES)
def test_each_listing_is_in_the_modules_own_order(package):
    """Every registry lists (and sniffs) by the modules' ORDER, then NAME: no list is kept anywhere else."""
    listed = {"nonoqubo.clues": lambda: [m.NAME for m in clues.formats()],
              "nonoqubo.exports": lambda: [m.NAME for m in exports.formats()],
              "nonoqubo.samples": lambda: list(samples.formats())}[package]()
    mods = sorted(discover.registry(package), key=lambda m: (m.ORDER, m.NAME))
    assert listed == [m.NAME for m in mods]
    assert [name for name in listed if name in KNOWN_ORDER[package]] == KNOWN_ORDER[package]


@pytest.mark.parametrize("mod", discover.registry("nonoqubo.exports"), ids=lambda m: m.NAME)
def test_the_offset_convention_is_read_from_the_format_module(mod):
    if mod.KIND == "qubo":
        assert suite.ground_state(mod.NAME, "qubo", 120)[0] == GROUND[mod.OFFSET]
    else:  # a constrained or puzzle model has no offset to convey: its ground state is feasibility
        assert suite.ground_state(mod.NAME, mod.KIND, 120)[0] == 0
    assert mod.OFFSET == KNOWN_OFFSETS.get(mod.NAME, mod.OFFSET)


def test_the_known_offsets_are_the_solvers_conventions(monkeypatch):
    assert {name: exports.get_format(name).OFFSET for name in KNOWN_OFFSETS} == KNOWN_OFFSETS
    monkeypatch.setattr(exports.get_format("qs"), "OFFSET", "excluded")
    assert suite.ground_state("qs", "qubo", 120) == (-120, "minimise, offset not in the terms: E - offset")


def test_write_memory_is_read_from_the_format_module(monkeypatch, logo):
    heavy = {m.NAME: m.WRITE_BYTES_PER_TERM for m in exports.formats()}
    assert {name: heavy[name] for name in KNOWN_HEAVY_WRITERS} == KNOWN_HEAVY_WRITERS
    for name, per_term in heavy.items():
        assert exports.write_bytes_per_term([name]) == per_term
    assert exports.write_bytes_per_term(list(heavy)) == max(heavy.values())
    plain = estimate.check_fits(logo, "logo", memory=1 << 40, write_bytes_per_term=exports.write_bytes_per_term(["coo"]))
    heaviest = max(heavy, key=heavy.get)
    most = estimate.check_fits(logo, "logo", memory=1 << 40,
                               write_bytes_per_term=exports.write_bytes_per_term(["coo", heaviest]))
    assert most.bytes == plain.terms * heavy[heaviest]
    monkeypatch.setattr(exports.get_format("coo"), "WRITE_BYTES_PER_TERM", 1000)
    assert exports.write_bytes_per_term(["coo"]) == 1000


def test_one_bytes_to_text_step():
    assert text.decode(b"\xef\xbb\xbfwidth 1", "a", what="x") == "width 1"
    assert text.decode("kept\ufeff", "a", what="x") == "kept\ufeff"
    assert text.decode(b"Fran\xe7ois", "a.non", what="x", legacy="latin-1") == "François"
    with pytest.raises(FormatError, match=r"^a\.coo: not UTF-8 text \(byte 0xe7 at offset 4\)$"):
        text.decode(b"Fran\xe7ois", "a.coo", what="QUBO text file")
    with pytest.raises(SampleError, match=r"^s: this is a binary file, not a samples file$"):
        text.decode(b"0 1\x00", "s", what="samples file", error=SampleError)
    assert text.head_text(b"\xef\xbb\xbfP1 \xff") == "P1 \ufffd"


def test_each_registry_decodes_through_the_one_step(tmp_path):
    latin = tmp_path / "x.sol"
    latin.write_bytes(b"# Objective value = 0\n# mod\xe8le\ny0_0_0 1\n")
    assert samples.read_samples(latin, ["y0[0][0]"]).bits.tolist() == [[1]]
    coo = tmp_path / "x.coo"
    coo.write_bytes(b"# nonoqubo \xe7\n0 0 1\n")
    with pytest.raises(FormatError, match="not UTF-8 text"):
        exports.load(coo)
    with pytest.raises(FormatError, match="this is a binary file, not a text clue file"):
        clues.loads(b"5 5\x00", "nin")
