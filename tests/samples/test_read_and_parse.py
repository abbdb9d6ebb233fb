"""Readers take a path, parsers take text (networkx's read_*/parse_*): a name is never taken for samples."""

from __future__ import annotations

from pathlib import Path

import pytest

from nonoqubo.errors import UnsupportedFormat
from nonoqubo.samples import parse_raw, parse_samples, read_raw, read_samples

LABELS = ["a", "b"]


def test_a_name_that_is_not_a_file_is_no_such_file(tmp_path):
    missing = tmp_path / "missing.json"
    for name in (str(missing), missing):
        with pytest.raises(FileNotFoundError) as info:
            read_samples(name, LABELS)
        assert info.value.filename == str(missing)
        with pytest.raises(FileNotFoundError):
            read_raw(name)


def test_text_is_parsed_and_a_file_is_read(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("01\n11\n")
    assert read_samples(path, LABELS).bits.tolist() == parse_samples("01\n11\n", LABELS).bits.tolist() == [[0, 1], [1, 1]]
    assert read_samples(str(path), LABELS).source == str(path)
    assert parse_samples("01", LABELS).source == "<samples>"
    assert parse_samples("01", LABELS, source="<stdin>").source == "<stdin>"


def test_text_that_looks_like_a_path_is_text_and_a_path_is_a_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("01").write_text('{"a": 1, "b": 1}')  # a file named like samples' text
    assert parse_samples("01", LABELS).bits.tolist() == [[0, 1]]
    assert read_samples("01", LABELS).bits.tolist() == [[1, 1]]
    with pytest.raises(UnsupportedFormat, match="cannot tell the samples format"):
        parse_samples("missing.json", LABELS)


def test_the_parser_takes_text_only(tmp_path):
    with pytest.raises(TypeError, match="read a file with read_raw"):
        parse_raw(tmp_path / "s.txt")  # type: ignore[arg-type]
    raw, source = parse_raw("", empty_ok=True)
    assert raw.maps == [{}] and source == "<samples>"
