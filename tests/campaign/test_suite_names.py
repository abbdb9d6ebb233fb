"""`nonoqubo suite` names its files after the puzzles: every spec of a Gecode file, Unicode kept."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from tests.support import SHARED

GECODE = SHARED / "originals" / "gecode" / "nonogram.cpp"
TINY = "height 1\nwidth 1\nrows\n1\ncolumns\n1\n"


def _names(out: Path) -> list[str]:
    return [e["name"] for e in json.loads((out / "index.json").read_text())["puzzles"]]


def test_every_gecode_spec_is_built_and_named_after_it(tmp_path: Path, run_cli) -> None:
    out = tmp_path / "s"
    status, _, err = run_cli("suite", GECODE, "-o", out, "-f", "qbsolv", "-j", "1")
    assert status == 0, err
    names = _names(out)
    assert len(names) == 19 and names[:3] == ["heart", "bear", "crocodile"]
    assert (out / "castle.qubo").is_file()
    entry = json.loads((out / "index.json").read_text())["puzzles"][8]
    assert entry["name"] == "castle" and entry["source"].endswith("#8")  # Gecode's -size 8


def test_unicode_names_are_kept_and_only_unsafe_characters_replaced(tmp_path: Path, run_cli) -> None:
    src = tmp_path / "in"
    src.mkdir()
    for name in ("café.non", "猫.non", "a b.non"):
        (src / name).write_text(TINY, encoding="utf-8")
    shutil.copy(SHARED / "originals" / "g" / "kolo.g", src / "kolo.g")
    out = tmp_path / "s"
    status, _, err = run_cli("suite", src, "-o", out, "-j", "1")
    assert status == 0, err
    assert sorted(_names(out)) == ["a_b", "café", "kolo", "猫"]
    assert (out / "café.qubo.json").is_file() and (out / "猫.qubo.json").is_file()


def test_a_missing_input_is_refused_before_the_output_folder_is_made(tmp_path: Path, run_cli) -> None:
    out = tmp_path / "s1"
    status, outp, err = run_cli("suite", tmp_path / "nope.yaml", "-o", out)
    assert (status, outp) == (2, "")
    assert err == f"nonoqubo: error: {tmp_path / 'nope.yaml'}: no such file or folder\n"
    assert not out.exists()


def test_an_empty_folder_is_named(tmp_path: Path, run_cli) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    status, _, err = run_cli("suite", empty, "-o", tmp_path / "s1")
    assert status == 2
    assert err == f"nonoqubo: error: {empty}: no clue file in this folder\n"
    assert sorted(os.listdir(tmp_path)) == ["empty"]


def test_a_dot_inside_a_file_name_is_kept(tmp_path: Path, run_cli) -> None:
    """Only the format endings come off: a suite member's own clue file keeps its whole name."""
    src = tmp_path / "in"
    src.mkdir()
    for name in ("random-20x20-d0.5-s1-0001.clues.json", "logo.v2.non", "plain.non"):
        (src / name).write_text(TINY if name.endswith(".non") else json.dumps({"rows": [[1]], "columns": [[1]]}))
    out = tmp_path / "s"
    status, _, err = run_cli("suite", src, "-o", out, "-j", "1")
    assert status == 0, err
    assert sorted(_names(out)) == ["logo.v2", "plain", "random-20x20-d0.5-s1-0001"]
    assert (out / "random-20x20-d0.5-s1-0001.qubo.json").is_file()
