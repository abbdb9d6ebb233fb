"""The encoding registry (issue 29, item 1): one object per encoding, one lookup, one error.

Everything here iterates :data:`nonoqubo.model.encodings.REGISTRY`, so a newly registered
encoding is put through it without a test edit.
"""

from __future__ import annotations

import dataclasses
import json
import pickle

import jsonschema
import numpy as np
import pytest

from nonoqubo.errors import EncodingError, NonoquboError, UnknownEncoding
from nonoqubo.model.build import build
from nonoqubo.model.encodings import (DEFAULT, DOMAIN_WALL, ONE_HOT, REGISTRY, Encoding, encoding_named,
                                      encoding_of_label, geometry_of, names)
from nonoqubo.model.geometry import Geometry
from nonoqubo.model.palette import Palette
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.model.qubo import Qubo
from tests.support import ROOT, shared_puzzle

IDS = [e.name for e in REGISTRY]
SCHEMAS = ROOT / "nonoqubo" / "schemas"


def test_the_registry_is_one_table_of_distinct_names_and_letters():
    assert DEFAULT is REGISTRY[0] is DOMAIN_WALL and ONE_HOT in REGISTRY
    assert names() == sorted(e.name for e in REGISTRY) and len(set(names())) == len(REGISTRY)
    letters = [letter for e in REGISTRY for letter in (e.row_letter, e.column_letter)]
    assert len(letters) == len(set(letters)) and all(len(x) == 1 and x.islower() for x in letters)


@pytest.mark.parametrize("enc", REGISTRY, ids=IDS)
def test_a_name_becomes_its_object_once_and_an_object_passes_through(enc):
    assert encoding_named(enc.name) is enc and encoding_named(enc) is enc
    assert str(enc) == enc.name and enc == enc.name and hash(enc) == hash(enc.name)
    assert pickle.loads(pickle.dumps(enc)) is enc  # by name, to a worker process and back
    assert enc.title and "\n" not in enc.title and enc.shape_words and enc.shape_section and enc.labels_note


def test_none_is_the_default_and_an_unknown_name_is_one_error_class():
    assert encoding_named(None) is DEFAULT
    for bad in ("two-hot", "", 3, "Domain-Wall"):
        with pytest.raises(UnknownEncoding) as info:
            encoding_named(bad, "--encoding")
        message = str(info.value)
        assert message == f"--encoding: unknown encoding {bad!r}; known: {', '.join(names())}"
        assert isinstance(info.value, (NonoquboError, ValueError))
    with pytest.raises(UnknownEncoding, match="known: " + ", ".join(names())):
        build(Puzzle(rows=[[1]], cols=[[1]]), encoding="two-hot")
    with pytest.raises(UnknownEncoding):
        Qubo.from_terms(["a"], [1], encoding="two-hot")


@pytest.mark.parametrize("enc", REGISTRY, ids=IDS)
def test_a_model_carries_the_object(enc):
    logo = shared_puzzle("qbpp-logo")
    q = build(logo, encoding=enc.name)
    assert q.encoding is enc and build(logo, encoding=enc).encoding is enc
    assert Qubo.from_terms(["a"], [1], encoding=enc.name).encoding is enc  # a name given: the object
    assert enc.owns_labels(q.labels, logo) and not any(
        e.owns_labels(q.labels, logo) for e in REGISTRY if e is not enc)
    assert all(encoding_of_label(label) is enc for label in list(q.labels)[:50])


@pytest.mark.parametrize("enc", REGISTRY, ids=IDS)
def test_every_geometry_meets_the_protocol_and_encodes_pictures_through_shifts(enc):
    logo = shared_puzzle("qbpp-logo")
    geo = geometry_of(logo, encoding=enc)
    assert isinstance(geo, Geometry) and type(geo) is type(enc.geometry_of(logo))
    grid = logo.solution_grid()
    shifts = geo.layout.shifts_of_grid(grid)
    bits = geo.encode(grid)
    assert bits.dtype == np.int8 and bits.shape == (geo.num_vars,)
    assert np.array_equal(bits, geo.encode_shifts(shifts))
    assert np.array_equal(geo.shifts_of_columns(bits[:, None])[0], shifts)
    assert int(build(logo, encoding=enc).energy(bits)[0]) == 0


@pytest.mark.parametrize("schema,path", [("qubo.schema.json", ("properties", "encoding")),
                                         ("report.schema.json", None)])
def test_the_schemas_take_every_registered_name_without_an_edit(schema, path):
    doc = json.loads((SCHEMAS / schema).read_text(encoding="utf-8"))
    text = json.dumps(doc)
    assert '"enum": ["domain-wall"' not in text  # a pattern, so that a new encoding needs no schema edit
    found = doc
    if path is None:  # the report's summary: find the one "encoding" property
        found = next(iter(_properties_named(doc, "encoding")))
    else:
        for key in path:
            found = found[key]
    for name in names():
        jsonschema.validate(name, found)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate("Two Hot", found)


def _properties_named(node, name):
    if isinstance(node, dict):
        if isinstance(node.get("properties"), dict) and name in node["properties"]:
            yield node["properties"][name]
        for value in node.values():
            yield from _properties_named(value, name)
    elif isinstance(node, list):
        for value in node:
            yield from _properties_named(value, name)


def test_an_encoding_without_a_colour_model_refuses_colour_puzzles_by_name():
    mono = dataclasses.replace(ONE_HOT, name="mono-hot", colour=False)
    colour = Puzzle.from_picture(["r.", ".g"], palette=Palette.of(["red", "green"]))
    with pytest.raises(EncodingError, match="the mono-hot encoding has no colour model; the puzzle has 2 colours"):
        build(colour, encoding=mono)
    assert build(Puzzle.from_picture(["#.", ".#"]), encoding=mono).encoding is mono


def test_the_cli_lists_the_registry_and_refuses_an_unknown_name(run_cli, tmp_path):
    status, out, _ = run_cli("build", "--help")
    assert status == 0 and all(e.name in out for e in REGISTRY)
    status, out, _ = run_cli("suite", "--help")
    assert status == 0 and all(e.name in out for e in REGISTRY)
    logo = ROOT / "tests" / "data" / "puzzles" / "json" / "qbpp-logo.json"
    status, _, err = run_cli("info", logo, "--encoding", "two-hot")
    assert status == 2 and err.strip().endswith(f"unknown encoding 'two-hot'; known: {', '.join(names())}")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_formats_lists_every_encoding(run_cli):
    status, out, _ = run_cli("formats")
    assert status == 0 and all(f"  {e.name}" in out and e.title in out for e in REGISTRY)
    doc = json.loads(run_cli("formats", "--json")[1])
    assert [e["name"] for e in doc["encodings"]] == [e.name for e in REGISTRY]
    assert [e["default"] for e in doc["encodings"]] == [e is DEFAULT for e in REGISTRY]


def test_encodings_sort_and_compare_by_name():
    assert sorted([ONE_HOT, DOMAIN_WALL]) == [DOMAIN_WALL, ONE_HOT] and DOMAIN_WALL != ONE_HOT
    assert isinstance(DOMAIN_WALL, Encoding) and DOMAIN_WALL != 3
