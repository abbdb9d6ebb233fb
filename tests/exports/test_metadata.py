"""One clue-metadata dict (``exports/_metadata``): every format carries it, one reader checks it.

* The same model's metadata comes back equal from every export format (parametrised
  over the registry, so a new format is covered without a new test).
* A damaged value, in each syntax that carries the metadata (text header lines, LP and
  MPS comments, CQM's ``nonoqubo.json``, OMMX annotations, a JSON document), is refused
  with the one reader's message naming the file and the key, and the command line
  says it in one line with exit status 2.
"""

from __future__ import annotations

import json
import re

import pytest

from nonoqubo import exports
from nonoqubo.errors import FormatError
from nonoqubo.exports import _metadata, cqm, ommx
from nonoqubo.logic.presolve import presolve_qubo
from nonoqubo.model.build import build
from nonoqubo.model.constrained import build_constrained
from nonoqubo.model.palette import Palette
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.model.qubo import Qubo

#: the formats that carry the known solution (the others carry the clues only)
SOLUTION_FORMATS = {"lp", "mps", "cqm", "ommx", "ommx-constrained"}


@pytest.fixture(scope="module")
def puzzle() -> Puzzle:
    """A 4x3 two-colour puzzle with a title, a known solution and a field of its own."""
    return Puzzle.from_picture(["r.bb", ".bb.", "rr.b"], name="tiny colour", palette=Palette.of(["red", "blue"]),
                               author="me")


@pytest.fixture(scope="module")
def fixed(puzzle: Puzzle) -> dict[str, int]:
    """Two variables fixed to their values at the solution (so every model of them is consistent)."""
    return dict(list(presolve_qubo(puzzle).fixed.items())[:2])


def model_for(fmt: str, puzzle: Puzzle, fixed: dict[str, int]) -> object:
    """The model a format of *fmt*'s KIND is handed: the QUBO, fixings applied, or the constrained model."""
    if exports.get_format(fmt).KIND == "constrained":
        return build_constrained(puzzle, fixed)
    return build(puzzle, weights=(2, 1, 3)).fix(fixed)


def carried(model: object, *, solution: bool) -> dict[str, object]:
    """What the metadata says of *model*: clues, fixings, labels (and for a QUBO its encoding and weights)."""
    out = {**_metadata.clue_meta(model.puzzle, solution=solution), "fixed": dict(model.fixed),
           "labels": list(model.labels)}
    if isinstance(model, Qubo):
        out.update(encoding=model.encoding, weights=tuple(model.weights))
    return out


@pytest.mark.parametrize("fmt", [m.NAME for m in exports.formats()])
def test_every_format_gives_back_the_same_metadata(fmt, puzzle, fixed, tmp_path):
    model = model_for(fmt, puzzle, fixed)
    path = tmp_path / f"model.{exports.get_format(fmt).EXTENSIONS[0]}"
    exports.dump(model, path, fmt)
    back = exports.load(path, fmt)
    with_solution = fmt in SOLUTION_FORMATS
    assert carried(back, solution=with_solution) == carried(model, solution=with_solution)
    assert dict(back.fixed) == fixed and len(fixed) == 2
    if fmt == "cqm":  # the clue spec's own fields travel in the member's clue spec
        assert back.puzzle.meta == {"author": "me"}


def test_constrained_metadata_has_every_key_in_grammar_order(puzzle, fixed):
    meta = _metadata.constrained_meta(build_constrained(puzzle, fixed), "lp")
    assert list(meta) == [key for key in _metadata.KEYS if key in meta]
    assert meta["solution"] == list(puzzle.solution) and meta["about"] == {"author": "me"}
    assert _metadata.read(meta, "m.lp").puzzle == puzzle


# -- a damaged value, in each syntax -----------------------------------------------------------
def _text(fmt: str, puzzle: Puzzle, fixed: dict[str, int], line: str, new: str) -> str:
    """The file of *fmt* with the first line that starts with *line* replaced by *new*."""
    text = exports.dumps(model_for(fmt, puzzle, fixed), fmt)
    damaged, count = re.subn(f"^{re.escape(line)}.*$", new.replace("\\", "\\\\"), text, count=1, flags=re.M)
    assert count == 1
    return damaged


HEADER_CASES = [  # (format, the line's start, the damaged line, the message)
    ("coo", "# offset=", '# offset="x"', r"m: metadata 'offset' must be a number, not 'x'"),
    ("qbsolv", "c fixed=", 'c fixed={"a":2}', r"m: metadata 'fixed' must be a mapping of labels to 0 or 1"),
    ("mtx", "% name=", "% name=7", r"m: metadata 'name' must be text, not 7"),
    ("minizinc", "% labels=", '% labels="rule"', r"m: metadata 'labels' must be \"layout\", \"listed\""),
    ("coo", "# vartype=", "# vartype=BOOL", r"m: metadata 'vartype' must be BINARY or SPIN, not 'BOOL'"),
    ("lp", "\\ name:", "\\ name: 7", r"m:\d+: header 'name' must be text, not 7"),
    ("mps", "* fixed:", "* fixed: y9_0_0=2", r"m:\d+: header 'fixed' must be a mapping of labels to 0 or 1"),
    ("lp", "\\ palette:", '\\ palette: {"colours":[]}', r"m:\d+: header 'palette' must be a mapping with"),
]


@pytest.mark.parametrize("fmt, old, new, says", HEADER_CASES)
def test_a_damaged_comment_value_is_the_one_readers_message(fmt, old, new, says, puzzle, fixed):
    data = _text(fmt, puzzle, fixed, old, new)
    with pytest.raises(FormatError, match=f"^{says}"):
        exports.loads(data, fmt, source="m")


def test_a_json_document_offset_of_the_wrong_type_is_one_line(puzzle, fixed):
    doc = json.loads(exports.dumps(model_for("qubo-json", puzzle, fixed), "qubo-json"))
    doc["offset"] = "x"
    with pytest.raises(FormatError, match=r"^m: metadata 'offset' must be a number, not 'x'$"):
        exports.loads(json.dumps(doc), "qubo-json", source="m")


def test_a_damaged_cqm_member_value_is_the_one_readers_message(puzzle, fixed, monkeypatch):
    written = cqm.metadata

    def damaged(model):
        doc = written(model)
        doc["fixed"] = {**doc["fixed"], "y0[0][0]": "one"}
        return doc

    monkeypatch.setattr(cqm, "metadata", damaged)
    data = exports.dumps(build_constrained(puzzle, fixed), "cqm")
    with pytest.raises(FormatError, match=r"^m: nonoqubo.json key 'fixed' must be a mapping of labels to 0 or 1"):
        exports.loads(data, "cqm", source="m")


@pytest.mark.parametrize("fmt", ["ommx", "ommx-constrained"])
@pytest.mark.parametrize("key, value, says", [
    ("fixed", '{"y0[0][0]":true}', "must be a mapping of labels to 0 or 1"),
    ("rows", "[[1],", "must be a list of clues, not '[[1],'"),
    ("offset", "x", "must be a number, not 'x'"),
])
def test_a_damaged_ommx_annotation_is_the_one_readers_message(fmt, key, value, says, puzzle, fixed, monkeypatch):
    written = ommx.model_annotations

    def damaged(model, kind):
        return {**written(model, kind), ommx.PREFIX + key: value}

    monkeypatch.setattr(ommx, "model_annotations", damaged)
    data = exports.dumps(model_for(fmt, puzzle, fixed), fmt)
    with pytest.raises(FormatError, match=f"^m: annotation org.nonoqubo.{key} {re.escape(says)}"):
        exports.loads(data, fmt, source="m")


def test_the_command_line_says_a_damaged_value_in_one_line(puzzle, fixed, tmp_path, run_cli):
    path = tmp_path / "model.lp"
    path.write_text(_text("lp", puzzle, fixed, "\\ name:", "\\ name: 7"))
    status, out, err = run_cli("decode", path, tmp_path / "none.sol")
    assert status == 2 and not out
    assert err.count("\n") == 1 and f"{path}:" in err and "header 'name' must be text, not 7" in err
