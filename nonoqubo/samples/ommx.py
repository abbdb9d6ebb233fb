"""OMMX answers: an ``ommx.v1.SampleSet`` or ``ommx.v1.Solution``, bare or in an artifact archive.

What OMMX adapters return (``OMMXOpenJijSAAdapter.sample(instance)`` gives a
SampleSet, ``OMMXHighsAdapter.solve(instance)`` a Solution), saved as
protobuf bytes or in an OCI artifact archive::

    open("answer.ommx-samples", "wb").write(sample_set.to_bytes())      # bare protobuf
    builder = ArtifactBuilder.new_archive_unnamed("answer.ommx")          # or an archive
    builder.add_sample_set(sample_set)   # or builder.add_solution(solution)
    builder.build()

These are binary files: the samples registry hands them over as bytes
(:func:`detect` / :func:`loads`).  A bare message is told by
parsing it with OMMX's own (strict) decoder, as a SampleSet first, then as a
Solution; an archive by its tar header, then its layers
(``application/org.ommx.v1.sample-set`` or ``.solution``; the first one found).

Every decision variable carries its name and subscripts; name ``y`` with
``[3, 1, 2]`` is nonoqubo's ``y3[1][2]`` (the ``.ommx`` model's naming, see
:mod:`nonoqubo.exports.ommx`).  Variables an adapter added to the model
(names starting with ``ommx.``: slack and encoding variables) are left out;
when no variable has a name, the ids are positions in nonoqubo's variable
order.  Every sample of a SampleSet is kept, in sample-id order, with its
objective as the reported energy (the QUBO energy for a QUBO model; 0 for the
constrained model).  Values within 1e-6 of 0 or 1 (a MIP solver's
tolerance) are rounded.

Examples:
    >>> from ommx.v1 import DecisionVariable, Instance
    >>> y = DecisionVariable.binary(0, name="y", subscripts=[0, 0, 0])
    >>> inst = Instance.from_components(decision_variables=[y], objective=y, constraints=[],
    ...                                 sense=Instance.MINIMIZE)
    >>> raw = loads(inst.evaluate({0: 1}).to_bytes(), source="x")
    >>> raw.labels, raw.values.tolist(), raw.energies.tolist()
    (['y0[0][0]'], [[1.0]], [1.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import FormatError, MissingDependency, located
from ..model.encoding import subscripted_label
from ._defaults import EXTENSIONS, HEURISTIC, KIND
from ._raw import RawSamples

__all__ = ["detect", "loads"]

NAME = "ommx"
TITLE = "OMMX SampleSet or Solution (to_bytes()), or an OMMX artifact archive holding one (binary)"
ALIASES = ("ommx-sampleset", "ommx-solution")
ORDER = 5
BINARY = True
LEGACY_ENCODING = None

SAMPLE_SET_MEDIA = "application/org.ommx.v1.sample-set"
SOLUTION_MEDIA = "application/org.ommx.v1.solution"
#: variables named with this prefix were added by an OMMX adapter (slack, encodings)
ADAPTER_PREFIX = "ommx."
_TOL = 1e-6


def _rust() -> Any:
    try:
        from ommx import _ommx_rust
    except ImportError:
        raise MissingDependency("ommx", "ommx", "reading OMMX answers") from None
    return _ommx_rust


def _is_archive(data: bytes) -> bool:
    from .._util.oci import detect

    return detect(data[:512])


def _decode(kind: str, data: bytes) -> tuple[Any, str]:
    """OMMX's decoder of *kind* (``SampleSet``/``Solution``) on *data*: ``(message, "")``,
    or ``(None, the first line of OMMX's complaint)``."""
    decoder = getattr(_rust(), kind)
    try:
        return decoder.from_bytes(data), ""
    except (KeyboardInterrupt, SystemExit, MemoryError):
        raise
    except BaseException as exc:  # RuntimeError, or pyo3's PanicException on hostile input
        return None, _first_line(exc)


def _first_line(exc: BaseException) -> str:
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    return lines[0] if lines else type(exc).__name__


def detect(head: bytes) -> bool:
    """An OCI artifact archive, or bytes OMMX decodes as a SampleSet or a Solution with variables."""
    if not isinstance(head, bytes):  # text, from a caller holding text already: never an OMMX answer
        return False
    if _is_archive(head):
        return True
    try:
        _rust()
    except MissingDependency:
        return False
    for kind in ("SampleSet", "Solution"):
        message, _ = _decode(kind, head)
        if message is not None and message.decision_variables:
            return True
    return False


def loads(data: bytes | str, *, source: str) -> RawSamples:
    """The samples of an OMMX SampleSet / Solution (bare or in an archive).

    Raises:
        FormatError: neither a SampleSet, a Solution nor an archive holding one, or text
            (an OMMX answer is binary and must be read from its file).
    """
    if isinstance(data, str):
        raise FormatError(located(source, None, "OMMX answers are binary protobuf or tar files; "
                                  "give the file's path, not text or standard input"))
    _rust()
    if _is_archive(data):
        from .._util.oci import read_archive

        _, layers = read_archive(data, source)
        for media, _, blob in layers:
            if media in (SAMPLE_SET_MEDIA, SOLUTION_MEDIA):
                kind = "SampleSet" if media == SAMPLE_SET_MEDIA else "Solution"
                message, error = _decode(kind, blob)
                if message is None:
                    raise FormatError(located(source, None, f"the archive's {kind} layer cannot be read: {error}"))
                return _from_sample_set(message, source) if kind == "SampleSet" else _from_solution(message, source)
        kinds = ", ".join(sorted({m for m, _, _ in layers})) or "none"
        raise FormatError(located(source, None, f"the OMMX archive holds no sample set or solution (layers: "
                                  f"{kinds}); a model (.ommx) goes first on the command line"))
    sample_set, error = _decode("SampleSet", data)
    if sample_set is not None and sample_set.decision_variables:
        return _from_sample_set(sample_set, source)
    solution, _ = _decode("Solution", data)
    if solution is not None and solution.decision_variables:
        return _from_solution(solution, source)
    why = error or "no decision variables"
    raise FormatError(located(source, None, f"not an OMMX SampleSet, Solution or artifact archive "
                              f"(as a SampleSet: {why})"))


def _labels(variables: list[Any]) -> tuple[list[Any], list[int]]:
    """The labels of the kept variables and their positions in *variables*."""
    keep = [i for i, v in enumerate(variables) if not v.name.startswith(ADAPTER_PREFIX)]
    if all(not variables[i].name and not variables[i].subscripts for i in keep):
        return [int(variables[i].id) for i in keep], keep
    return [subscripted_label(variables[i].name, variables[i].subscripts) for i in keep], keep


def _round(values: np.ndarray) -> np.ndarray:
    near = np.rint(values)
    return np.where(np.abs(values - near) <= _TOL, near, values)


def _from_sample_set(sample_set: Any, source: str) -> RawSamples:
    variables = sorted(sample_set.decision_variables, key=lambda v: v.id)
    ids = sorted(sample_set.sample_ids_list)
    if not ids:
        raise FormatError(located(source, None, "the OMMX SampleSet holds no samples"))
    labels, keep = _labels(variables)
    values = np.empty((len(ids), len(keep)), np.float64)
    for col, i in enumerate(keep):
        got = variables[i].samples
        try:
            values[:, col] = [got[s] for s in ids]
        except KeyError as exc:
            raise FormatError(located(source, None, f"variable {labels[col]!r} has no value in sample {exc}")) from None
    objectives = sample_set.objectives
    energies = np.array([objectives.get(s, np.nan) for s in ids], np.float64)
    return RawSamples(values=_round(values), labels=labels, energies=energies, vartype="BINARY")


def _from_solution(solution: Any, source: str) -> RawSamples:
    variables = sorted(solution.decision_variables, key=lambda v: v.id)
    labels, keep = _labels(variables)
    values = np.array([[variables[i].value for i in keep]], np.float64)
    return RawSamples(values=_round(values), labels=labels,
                      energies=np.array([solution.objective], np.float64), vartype="BINARY")
