"""The files a campaign keeps, each owned by one class: its format, its version, its reading.

* :mod:`~nonoqubo.records.run`: the run record a run file carries (:class:`RunRecord`), the model it
  names (:class:`RecordedModel`) and a run's identity (:class:`RunIdentity`, compared whole);
* :mod:`~nonoqubo.records.index`: a suite's ``index.json`` (:class:`SuiteIndex`) and its models
  (:meth:`SuiteIndex.models`, the one list ``run``, ``evaluate`` and the QOBLIB writer use);
* :mod:`~nonoqubo.records.group`: the group record ``evaluate --json`` writes (:class:`GroupRecord`), its
  plain numbers (:func:`plain`) and the merge of a group's run records (:class:`RecordMerge`).

Each is a frozen dataclass with ``to_dict`` / ``from_dict``; ``from_dict`` checks the ``version``
and every field's type, and refuses in one line naming the file (values quoted short:
:func:`~nonoqubo.records._fields.quoted`).  Their JSON Schemas are in ``schemas/``
(``run-record``, ``suite-index``, ``evaluation``).  The package sits above ``samples`` in the
layer table: ``samples`` reads a run record when it reads an answer.
"""

from __future__ import annotations

from ._fields import decode_at, quoted
from .group import GROUP_RECORD_VERSION, NOT_SCORED, GroupRecord, ModelInfo, RecordMerge, merged, plain
from .index import (INDEX_CSV, INDEX_JSON, NOT_KEPT, SUITE_INDEX_VERSION, IndexEntry, IndexFile, SuiteIndex, SuiteModel, check_digests,
                    file_digest, safe_name, up_to_date)
from .run import RUN_IDENTITY, RUN_RECORD_VERSION, RecordedModel, RunFailure, RunIdentity, RunModel, RunRecord

__all__ = ["GROUP_RECORD_VERSION", "INDEX_JSON", "RUN_IDENTITY", "RUN_RECORD_VERSION", "SUITE_INDEX_VERSION",
           "GroupRecord", "INDEX_CSV", "NOT_SCORED", "RecordMerge", "merged", "plain", "IndexEntry", "IndexFile", "ModelInfo", "NOT_KEPT", "RecordedModel", "RunFailure", "RunIdentity", "RunModel", "RunRecord",
           "SuiteIndex", "SuiteModel", "check_digests", "decode_at", "file_digest", "quoted", "safe_name", "up_to_date"]
