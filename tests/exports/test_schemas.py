"""The clue-spec schema describes what the spec reader accepts and what its writer writes."""

from __future__ import annotations

import json

import jsonschema
import pytest
import yaml

from tests.support import ROOT, shared_puzzles
from nonoqubo.clues import spec
from nonoqubo.errors import FormatError

SCHEMA = json.loads((ROOT / "schemas" / "puzzle.schema.json").read_text())


def test_the_schema_is_valid_2020_12():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.slow  # every shared puzzle through jsonschema: 16 s
def test_every_shared_puzzle_and_every_written_spec_validates():
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for name, puzzle, doc in shared_puzzles():
        validator.validate(doc)
        validator.validate(yaml.safe_load(spec.dumps(puzzle)))
    validator.validate(yaml.safe_load((ROOT / "examples" / "qbpp-logo.yaml").read_text()))


@pytest.mark.parametrize(
    "doc",
    [
        {"rows": [[1]]},  # no cols
        {"rows": [[1]], "cols": [[1]], "columns": [[1]]},  # both spellings
        {"rows": [[1, -1]], "cols": [[1]]},  # negative block
        {"rows": [], "cols": [[1]]},  # no rows
        {"rows": [["x"]], "cols": [[1]]},  # not a number
        {"rows": [[1]], "cols": [[1]], "width": 0},
    ],
)
def test_the_schema_refuses_what_the_reader_refuses(doc):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, SCHEMA)
    with pytest.raises(FormatError):
        spec.from_dict(doc)
