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

What the record is made from lives here too: :class:`ModelInfo`, the model of a group (its size and
model fields; ``Group.info``), :meth:`GroupRecord.of` (a group's figures made :func:`plain`, the
:data:`NOT_SCORED` ones of a group set aside None) and :class:`RecordMerge` / :func:`merged`, the
group's run records merged key by key into its ``run``.

Examples:
    >>> g = GroupRecord("logo", "sa", 4, 120, 8, 7, "logo", "domain-wall", "shape=1,order=1,cell=1", "scored",
    ...                 "run record", None, {"p": 0.5})
    >>> GroupRecord.from_dict(g.to_dict(), "e.json") == g
    True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model.encodings import DEFAULT
from ..model.weights import DEFAULT_WEIGHTS
from ._fields import Fields, check_version

__all__ = ["GROUP_RECORD_VERSION", "NOT_SCORED", "GroupRecord", "ModelInfo", "RecordMerge", "merged", "plain"]

GROUP_RECORD_VERSION = 1
#: the statuses a group has
STATUSES = ("scored", "solved by presolve", "unsolvable")


@dataclass(frozen=True)
class ModelInfo:
    """What a campaign knows of a group's model (``Group.info``): the file scored against and the facts of it.

    Made from a suite's index (:meth:`SuiteModel.described <nonoqubo.records.SuiteModel.described>`) or from
    a model file; ``evaluate`` replaces ``encoding``, ``weights`` and ``variables`` with those of the model
    a group's runs were scored against.  Its size and model fields go into the :class:`GroupRecord`.

    Attributes:
        path: the model file (or clue file) scored against.
        name, puzzle: the model's name, and the puzzle it is a variant of.
        width, height, variables: the puzzle's size and the variables sampled.
        encoding, weights: the model's encoding and weights (as ``--weights`` spells them).
        clues: the member's clue file a suite wrote beside its models (a run's own model is rebuilt from it).
        family: the random family it was drawn from, as the generator wrote it (None: a puzzle of a file).
        solutions, solutions_exact: CP-SAT's count of the puzzle's solutions (``suite --truth``; None: unknown).

    Examples:
        >>> info = ModelInfo("logo.bqm", "logo", 2, 1, 6, "logo", solutions=0, solutions_exact=True)
        >>> info.unsolvable, info.line_names
        (True, ['row 1', 'column 1', 'column 2'])
    """

    path: str
    name: str
    width: int
    height: int
    variables: int
    puzzle: str
    encoding: str = DEFAULT.name
    weights: str = str(DEFAULT_WEIGHTS)
    clues: str | None = None
    family: Mapping[str, Any] | None = None
    solutions: int | None = None
    solutions_exact: bool | None = None

    @property
    def unsolvable(self) -> bool:
        """CP-SAT proved the puzzle has no solution (0 solutions, exact)."""
        return self.solutions == 0 and bool(self.solutions_exact)

    @property
    def line_names(self) -> list[str]:
        """The puzzle's lines as a campaign names them (:meth:`Layout.line_name
        <nonoqubo.model.encoding.Layout.line_name>`, without the model): ``row 1``, ..., ``column 1``, ..."""
        return [f"row {i + 1}" for i in range(self.height)] + [f"column {j + 1}" for j in range(self.width)]


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
    def of(cls, model: str, setting: str, files: int, info: ModelInfo, status: str, grouped_by: str,
           setting_record: Mapping[str, Any] | None, raw: Mapping[str, Any], polished: Mapping[str, Any] | None,
           run: Mapping[str, Any] | None, failed_runs: int = 0) -> GroupRecord:
        """The record of a group: its model's fields from *info*, its stages' figures and run made :func:`plain`,
        and a group set aside (*status* not ``scored``) with its :data:`NOT_SCORED` figures None."""
        def stage(figures: Mapping[str, Any]) -> dict[str, Any]:
            return {**plain(dict(figures)), **(dict.fromkeys(NOT_SCORED) if status != "scored" else {})}

        return cls(model, setting, files, info.variables, info.width, info.height, info.puzzle, info.encoding,
                   info.weights, status, grouped_by, setting_record, stage(raw),
                   None if polished is None else stage(polished), plain(run), failed_runs=failed_runs)

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


def plain(value: Any) -> Any:
    """JSON-safe plain Python: NumPy scalars become ``int``, ``float``, ``bool``; infinity the string ``"inf"``.

    Every number the JSON and CSV outputs hold passes here, so none is written as ``np.float64(...)``.

    Examples:
        >>> plain({"p": np.float64(0.25), "n": [np.int64(3), float("inf")]})
        {'p': 0.25, 'n': [3, 'inf']}
    """
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


#: the figures of a group set aside (solved by presolve, proven unsolvable) that are not given: they would mislead
NOT_SCORED = ("p", "p_lo", "p_hi", "r99", "r99_lo", "r99_hi", "tts99", "tts99_lo", "tts99_hi",
              "p_bound", "r99_bound", "tts99_bound")


# -- a group's run records, merged -----------------------------------------------------------
def _frozen(value: Any) -> Any:
    """A hashable stand-in for a JSON value, equal to another's exactly when the values are equal."""
    if isinstance(value, dict):
        return ("dict", frozenset((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", tuple(_frozen(v) for v in value))
    return value


def merged(records: Sequence[dict[str, Any] | None]) -> dict[str, Any] | None:
    """Run records (their summaries) merged key by key; where they differ, the list of the distinct values (None if any is missing).

    :class:`RecordMerge` gives the same as the records come, one at a time.
    """
    if not records or any(r is None for r in records):
        return None
    out: dict[str, Any] = {}
    for key in records[0]:  # type: ignore[union-attr]
        values = [r.get(key) for r in records]  # type: ignore[union-attr]
        if all(isinstance(v, dict) for v in values):
            out[key] = merged(values)
            continue
        seen: dict[Any, Any] = {}
        for v in values:
            seen.setdefault(_frozen(v), v)  # the first of equal values, in the order first seen
        distinct = list(seen.values())
        out[key] = distinct[0] if len(distinct) == 1 else distinct
    return out


class RecordMerge:
    """Run records merged key by key as they come: at the end :meth:`value` is :func:`merged` of them all.

    Per key of the first record it keeps the distinct values seen (hashed, not compared with every
    other: a group's 10,000 seeds cost linear time), or, while every value of the key is a dict, a
    merge of those dicts.  A key that is a dict in some files and not in the ones after is
    :attr:`mixed`: the distinct dicts were not kept, and the records are merged again from the
    files (``evaluate`` reads them again).

    Examples:
        >>> m = RecordMerge()
        >>> for seed in (1, 2, 1):
        ...     m.add({"sampler": "sa", "parameters": {"seed": seed, "sweeps": 10}})
        >>> m.value(), m.mixed
        ({'sampler': 'sa', 'parameters': {'seed': [1, 2], 'sweeps': 10}}, False)
    """

    def __init__(self) -> None:
        self.missing = False  # a record was None: the merge is None
        self.fields: dict[str, _Field] | None = None

    def add(self, record: dict[str, Any] | None) -> None:
        if self.missing:
            return
        if record is None:
            self.missing, self.fields = True, None
            return
        if self.fields is None:
            self.fields = {key: _Field() for key in record}
        for key, f in self.fields.items():
            f.add(record.get(key))

    @property
    def mixed(self) -> bool:
        return bool(self.fields) and any(f.mixed for f in self.fields.values())  # type: ignore[union-attr]

    def value(self) -> dict[str, Any] | None:
        if self.missing or self.fields is None:
            return None
        return {key: f.value() for key, f in self.fields.items()}


class _Field:
    """One key of :class:`RecordMerge`: its distinct values, or the merge of its dicts."""

    def __init__(self) -> None:
        self.nested: RecordMerge | None = None
        self.distinct: dict[Any, Any] = {}
        self.started = self.broken = False
        self.last: Any = None  # the value added before: the same again changes nothing

    def add(self, value: Any) -> None:
        if not self.started:
            self.started = True
            if isinstance(value, dict):
                self.nested = RecordMerge()
        elif value is self.last or (type(value) is type(self.last) and value == self.last
                                    and not (isinstance(value, float) and value != value)):
            return
        self.last = value
        if self.nested is None:
            self.distinct.setdefault(_frozen(value), value)
        elif isinstance(value, dict):
            self.nested.add(value)
        else:
            self.broken = True

    @property
    def mixed(self) -> bool:
        return self.broken or (self.nested is not None and self.nested.mixed)

    def value(self) -> Any:
        if self.nested is not None:
            return self.nested.value()
        values = list(self.distinct.values())
        return values[0] if len(values) == 1 else values
