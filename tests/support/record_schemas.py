"""Every run record, suite index and group record the test suite writes, held to its JSON Schema.

:func:`install` (called once by ``tests/conftest.py``) wraps the one writer of each format
(:meth:`RunRecord.to_dict`, :meth:`SuiteIndex.to_dict`, :meth:`GroupRecord.to_dict`): whatever a
test makes, through ``solve -o``, ``run``, ``suite``, a QOBLIB class or ``evaluate --json``, is
validated against ``schemas/run-record``, ``suite-index`` or ``evaluation`` as it is written, and a
record the schema refuses fails the test that wrote it.  :func:`validator` gives a test the
validator of one schema (``tests/records`` shows broken records are refused); :func:`a_run_file`
writes the run file the record tests start from.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from tests.support import ROOT, run_cli

#: the puzzle of the run files the record tests write
PICTURE = ["#..#", ".##.", "#..#"]

#: the schema of each record class, by the class's name
SCHEMAS = {"RunRecord": "run-record", "SuiteIndex": "suite-index", "GroupRecord": "evaluation"}


@functools.lru_cache(maxsize=None)
def validator(name: str) -> Any:
    """The Draft 2020-12 validator of ``schemas/NAME.schema.json``."""
    import jsonschema

    schema = json.loads((ROOT / "schemas" / f"{name}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def check(cls_name: str, doc: dict[str, Any]) -> None:
    """Validate *doc*, written by the class *cls_name*, against its schema (a group record as one of the groups)."""
    name = SCHEMAS[cls_name]
    validator(name).validate({"groups": [doc]} if name == "evaluation" else doc)


def a_run_file(root: Path) -> tuple[Path, Path]:
    """A clue file in *root* and the run file ``solve -o`` writes of it (its record names the clue file's sha256)."""
    from nonoqubo.clues import spec
    from nonoqubo.model.puzzle import Puzzle

    clues = root / "p.yaml"
    clues.write_text(spec.dumps(Puzzle.from_picture(PICTURE)))
    out = root / "run.json"
    status, _, err = run_cli("solve", clues, "--reads", 3, "--sweeps", 5, "--seed", 1, "-q", "-o", out)
    assert status in (0, 1), err
    return clues, out


def install() -> None:
    """Wrap each record class's ``to_dict`` so that every record a test writes is validated."""
    from nonoqubo import records

    for cls_name in SCHEMAS:
        cls = getattr(records, cls_name)
        if getattr(cls.to_dict, "_checked", False):
            continue
        plain = cls.to_dict

        def to_dict(self: Any, _plain: Any = plain, _name: str = cls_name) -> dict[str, Any]:
            doc = _plain(self)
            check(_name, json.loads(json.dumps(doc, default=str)))
            return doc

        to_dict._checked = True  # type: ignore[attr-defined]
        cls.to_dict = to_dict
