"""The group record ``evaluate --json`` writes: one (model, setting) of a campaign and its figures.

``evaluate`` makes one :class:`GroupRecord` per group (:func:`nonoqubo.campaign.evaluate.records`)
and writes its :meth:`~GroupRecord.to_dict` into the ``groups`` list of its JSON; a script (or a
later nonoqubo) reads one back with :meth:`GroupRecord.from_dict`.  Its JSON Schema is
``schemas/evaluation.schema.json``::

    {"version": 1, "model": "logo", "setting": "sa", "files": 4, "variables": 120, "width": 8, "height": 7,
     "puzzle": "logo", "encoding": "domain-wall", "weights": "shape=1,order=1,cell=1", "status": "scored",
     "grouped_by": "run record", "setting_record": {...} | null,
     "raw": {"p": 0.5, ...}, "polished": {...} (with --polish), "run": {...} | null, "failed_runs": 0}

``failed_runs``: the group's runs that left no samples (campaign tasks their time limit stopped; a group
record without it, written before, had none).

Examples:
    >>> g = GroupRecord("logo", "sa", 4, 120, 8, 7, "logo", "domain-wall", "shape=1,order=1,cell=1", "scored",
    ...                 "run record", None, {"p": 0.5})
    >>> GroupRecord.from_dict(g.to_dict(), "e.json") == g
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ._fields import Fields, check_version

__all__ = ["GROUP_RECORD_VERSION", "GroupRecord"]

GROUP_RECORD_VERSION = 1
#: the statuses a group has
STATUSES = ("scored", "solved by presolve", "unsolvable")


@dataclass(frozen=True)
class GroupRecord:
    """One group of an evaluation (the module docstring)."""

    model: str
    setting: str
    files: int
    variables: int
    width: int
    height: int
    puzzle: str
    encoding: str
    weights: str
    status: str
    grouped_by: str
    setting_record: Mapping[str, Any] | None
    raw: Mapping[str, Any]
    polished: Mapping[str, Any] | None = None
    run: Mapping[str, Any] | None = None
    version: int = GROUP_RECORD_VERSION
    failed_runs: int = 0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": self.version, "model": self.model, "setting": self.setting,
                               "files": self.files, "variables": self.variables, "width": self.width,
                               "height": self.height, "puzzle": self.puzzle, "encoding": self.encoding,
                               "weights": self.weights, "status": self.status, "grouped_by": self.grouped_by,
                               "setting_record": None if self.setting_record is None else dict(self.setting_record),
                               "raw": dict(self.raw)}
        if self.polished is not None:
            out["polished"] = dict(self.polished)
        out["run"] = None if self.run is None else dict(self.run)
        out["failed_runs"] = self.failed_runs
        return out

    def csv_rows(self, setting_is: str = "") -> list[dict[str, Any]]:
        """The rows ``evaluate --csv`` writes of the group: one per stage (``raw``, then ``polished``), the
        group's fields beside that stage's figures, its lists as ``line:share;...`` and ``row,column:share;...``
        (the best picture left out); *setting_is*: the setting in words (``setting_is``, after ``status``)."""
        rows = []
        for stage, figures in (("raw", self.raw), ("polished", self.polished)):
            if figures is None:
                continue
            f = {k: v for k, v in figures.items() if k != "best_picture"}
            f["worst_lines"] = ";".join(f"{x['line']}:{x['share']:.4g}" for x in f["worst_lines"])
            f["worst_cells"] = ";".join(f"{x['row']},{x['column']}:{x['share']:.4g}" for x in f["worst_cells"])
            rows.append({"model": self.model, "setting": self.setting, "stage": stage, "files": self.files,
                         "failed_runs": self.failed_runs, "variables": self.variables, "width": self.width, "height": self.height,
                         "puzzle": self.puzzle, "encoding": self.encoding, "weights": self.weights, **f,
                         "status": self.status, "setting_is": setting_is})
        return rows

    @classmethod
    def from_dict(cls, doc: Any, source: str) -> GroupRecord:
        """The group of *doc*, every field checked (:class:`~nonoqubo.errors.RecordError`, one line naming *source*)."""
        where = f"{source}: group record"
        f = Fields(doc, where)
        check_version(doc, "version", (GROUP_RECORD_VERSION,), where)
        status = f.text("status")
        if status not in STATUSES:
            raise f.fail("status", " or ".join(STATUSES), status)
        return cls(f.text("model"), f.text("setting"), f.integer("files"), f.integer("variables"),
                   f.integer("width"), f.integer("height"), f.text("puzzle"), f.text("encoding"), f.text("weights"),
                   status, f.text("grouped_by"), f.mapping("setting_record", True), f.mapping("raw"),
                   f.mapping("polished", True), f.mapping("run", True), failed_runs=f.integer("failed_runs", True) or 0)
