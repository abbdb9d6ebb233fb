"""OMMX artifact archive (``.ommx``): the model as an ``ommx.v1.Instance`` for every OMMX adapter.

OMMX (Open Mathematical prograMming eXchange, https://github.com/Jij-Inc/ommx,
the ``ommx`` package 2.9) is an exchange format for optimisation problems; its
adapters hand one instance to OpenJij, D-Wave, Fixstars Amplify, Fujitsu's
Digital Annealer, SCIP, HiGHS, Python-MIP, Qiskit...  A ``.ommx`` file is an
*artifact archive*: an OCI image layout in a tar file (:mod:`nonoqubo._util.oci`)::

    index.json                  -> the manifest's digest
    blobs/sha256/<manifest>     JSON: "annotations" (artifact annotations) and
                                "layers": [{"mediaType", "digest", "annotations"}]
    blobs/sha256/<instance>     the ommx.v1.Instance protobuf
                                (mediaType application/org.ommx.v1.instance)

Written with ``ommx.artifact.ArtifactBuilder.new_archive_unnamed`` (an
unnamed image: a file to hand around, not one to push to a registry); read it
back with ``ommx.artifact.Artifact.load_archive(path).instance``, or take the
instance without a file from :func:`qubo_instance`.

The instance
    * one **binary** decision variable per model variable, ids ``0..N-1`` in
      nonoqubo's variable order; the QUBO++ label is carried by OMMX's
      metadata: ``y3[1][2]`` is name ``y`` with subscripts ``[3, 1, 2]``
      (``[i, k, p]``: row i, block k, wall position p; ``z`` for columns);
    * QUBO (the default): the objective is the expanded QUBO, integer
      coefficients, the constant as the offset, sense *minimise*: the
      objective of a solution is exactly 0, and positive for anything else;
    * ``--constrained``: a zero objective and one named constraint per row of
      the 0-1 ILP (:mod:`nonoqubo.model.constrained`; the names of the LP file,
      ``cell_i_j``, ``wall_y3_k1_p2``, ``order_z5_k0_p4``), in OMMX's form
      ``f(x) = 0`` or ``f(x) <= 0`` (a ``>=`` row is negated);
    * the title is the puzzle's name; the description says what the model is.

Annotations (on the artifact manifest and on the instance layer, all under
``org.nonoqubo.``, every value a string)::

    format      1 (this layout)          version    nonoqubo's version
    kind        "qubo" or "constrained"  name       the puzzle's title (if any)
    height, width                        rows, cols the clues, JSON lists
    background, colours                  colour puzzles: the palette, as in the clue spec
    solution    the known answer, JSON list of "#." strings (if known)
    variables, terms, offset             (qubo) counts and the constant
    constraints, counts                  (constrained) number and JSON per kind
    fixed       JSON {label: 0/1} of the variables presolve removed
    labels      how names and subscripts spell the labels

The instance layer also carries OMMX's own ``org.ommx.v1.instance.*``
annotations (title, description, created_by, variables, constraints).

Two ways to the same instance, never one Python call per term:

* :func:`qubo_instance` (an ``ommx.v1.Instance`` in memory) feeds the arrays
  to the raw ``Quadratic(columns=, rows=, values=, linear=)`` and
  ``Linear(terms)`` constructors of OMMX's Rust core (``ndarray.tolist()``);
* the ``.ommx`` writer encodes the same protobuf message from the arrays with
  NumPy (:func:`qubo_instance_bytes`, :mod:`nonoqubo.exports._protobuf`):
  on the random 100x100 (3.6 M terms) about 0.7 s and a few hundred MB
  instead of 2-8 s and 1.3 GB through the constructors.  The tests parse
  both and compare them field by field.

The constrained model goes through the constructors (one call per
constraint row and per variable).  Reading parses the tar and the manifest
with the standard library and the instance with OMMX's protobuf classes
(repeated fields straight into NumPy), so a damaged file gives one line
naming it.

Examples:
    >>> from nonoqubo.model.build import build
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> q = build(Puzzle(rows=[[1], [1]], cols=[[1], [1]], name="tiny"))
    >>> data = dumps(q)
    >>> loads(data, source="tiny.ommx") == q
    True
    >>> annotations_of(data, "tiny.ommx")["org.nonoqubo.kind"]
    'qubo'
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from typing import IO, Any

import numpy as np

from ..errors import FormatError, MissingDependency, UnsupportedFormat, located
from ..model.encoding import subscripted_label
from ..model.encodings import DOMAIN_WALL, Encoding, encoding_named
from ..model.qubo import Qubo
from .._util import oci as _oci
from .._util.guard import json_loads
from . import _metadata
from ._header import describe, to_qubo
from ._metadata import constrained_meta
from ._defaults import ALIASES, HEURISTIC, ISING, KIND, LEGACY_ENCODING, OFFSET

__all__ = [
    "PREFIX", "annotations_of", "detect", "dump", "dumps", "instance_blob",
    "instance_of", "layer_annotations", "loads", "model_annotations", "qubo_instance",
]

NAME = "ommx"
TITLE = "OMMX artifact archive: an ommx.v1.Instance for every OMMX adapter (--constrained: the 0-1 ILP)"
EXTENSIONS = ("ommx",)
BINARY = True
ORDER = 110
WRITE_BYTES_PER_TERM = 85  # the cauldron: 2.96 GB, rounded up

#: the namespace of nonoqubo's annotations
PREFIX = "org.nonoqubo."
#: how a message names an annotation (see :func:`._metadata.read`)
SPELL = "annotation " + PREFIX + "{}"
FORMAT_VERSION = 1
INSTANCE_MEDIA = "application/org.ommx.v1.instance"
#: what the constrained instance's labels mean (the 0-1 program is the domain wall's)
LABELS_NOTE = DOMAIN_WALL.labels_note


def _encoding(model: Any) -> Encoding:
    return encoding_named(getattr(model, "encoding", None))


def _ommx() -> Any:
    """The ``ommx`` package, with an install hint when it is missing."""
    try:
        import ommx.v1
        from ommx import _ommx_rust
    except ImportError:
        raise MissingDependency("ommx", "ommx", "the OMMX format") from None
    return _ommx_rust


# -- building the instance ---------------------------------------------------------------------
def _name_parts(labels: list[str]) -> tuple[list[str], list[list[int]]]:
    """Names and subscripts of QUBO++ labels (``y3[1][2]`` -> ``"y"``, ``[3, 1, 2]``)."""
    from ..model.encoding import parse_label

    names: list[str] = []
    subs: list[list[int]] = []
    for label in labels:
        parts = parse_label(label)
        if parts is None:  # a bare model with other labels: the label is the name
            names.append(label)
            subs.append([])
        else:
            names.append(parts[0])
            subs.append([parts[1], parts[2], parts[3]])
    return names, subs


def _variables(rust: Any, labels: list[str]) -> dict[int, Any]:
    """One binary decision variable per label, ids in order, named by the label."""
    names, subs = _name_parts(labels)
    binary = rust.DecisionVariable.binary
    return {i: binary(i, name, sub) for i, (name, sub) in enumerate(zip(names, subs))}


def _description(model: Any, kind: str) -> str:
    p = model.puzzle
    what = f"the {p.width}x{p.height} nonogram {p.name or ''}".replace("  ", " ").rstrip() if p else "a QUBO"
    if kind == "qubo":
        enc = _encoding(model)
        return (f"{what} as a QUBO ({enc.description}): "
                f"minimise; the objective is 0 exactly at a solution. {enc.labels_note}.")
    return (f"{what} as a 0-1 integer linear program with a zero objective: every feasible point is a "
            "solution. Constraints cell_i_j (row colour = column colour), wall_y3_k1_p2 "
            f"(w[k][p] >= w[k][p+1]), order_y3_k1_p2 (w[k+1][p] >= w[k][p]). {LABELS_NOTE}.")


def _title(model: Any) -> str:
    p = model.puzzle
    return (p.name if p is not None and p.name else None) or ("nonogram" if p is not None else "QUBO")


def _raw_instance(model: Any, kind: str) -> Any:
    """The Rust-core instance (``ommx._ommx_rust.Instance``) of *model*, built in bulk."""
    rust = _ommx()
    objective, constraints = (_qubo_objective if kind == "qubo" else _constraints)(rust, model)
    return rust.Instance.from_components(
        sense=rust.Sense.Minimize, objective=objective,
        decision_variables=_variables(rust, list(model.labels)), constraints=constraints,
        description=rust.InstanceDescription(name=_title(model), description=_description(model, kind),
                                             created_by="nonoqubo"),
    )


def _qubo_objective(rust: Any, qubo: Qubo) -> tuple[Any, dict[int, Any]]:
    """The QUBO as a quadratic function (from the arrays, one constructor call) and no constraints."""
    nz = np.flatnonzero(qubo.linear)
    linear = rust.Linear(dict(zip(nz.tolist(), qubo.linear[nz].astype(np.float64).tolist())),
                         float(qubo.offset))
    quad = rust.Quadratic(columns=qubo.col.tolist(), rows=qubo.row.tolist(),
                          values=qubo.quad.astype(np.float64).tolist(), linear=linear)
    return rust.Function.from_quadratic(quad), {}


def _constraints(rust: Any, model: Any) -> tuple[Any, dict[int, Any]]:
    """A zero objective and one named linear constraint per row of the constrained model."""
    from ..model.constrained import EQ, GE

    # OMMX states f(x) = 0 or f(x) <= 0: lhs - rhs for == and <=, rhs - lhs for >=
    flip = np.where(model.sense == GE, -1, 1).astype(np.int64)
    row_of = np.repeat(np.arange(model.num_constraints), np.diff(model.indptr))
    coefs = (model.coefs * flip[row_of]).astype(np.float64).tolist()
    consts = (-model.rhs * flip).astype(np.float64).tolist()
    idx = model.indices.tolist()
    ptr = model.indptr.tolist()
    eq, le = rust.Equality.EqualToZero, rust.Equality.LessThanOrEqualToZero
    is_eq = (model.sense == EQ).tolist()
    new_constraint, new_linear, from_linear = rust.Constraint, rust.Linear, rust.Function.from_linear
    constraints = {
        c: new_constraint(c, from_linear(new_linear(dict(zip(idx[ptr[c]:ptr[c + 1]], coefs[ptr[c]:ptr[c + 1]])),
                                                    consts[c])), eq if is_eq[c] else le, name)
        for c, name in enumerate(model.names)
    }
    return rust.Function.from_scalar(0.0), constraints


def _wrapped(model: Any, kind: str) -> Any:
    from ommx.v1 import Instance

    instance = Instance(_raw_instance(model, kind))
    instance.annotations.update(model_annotations(model, kind))
    return instance


def qubo_instance(qubo: Qubo) -> Any:
    """The ``ommx.v1.Instance`` of *qubo* (what ``.ommx`` holds), ready for any OMMX adapter."""
    return _wrapped(qubo, "qubo")


# -- the QUBO instance's bytes straight from the arrays ---------------------------------------
def qubo_instance_bytes(qubo: Qubo, annotations: Mapping[str, str]) -> bytes:
    """The ``ommx.v1.Instance`` protobuf of *qubo*, encoded from its arrays with NumPy.

    The same message :func:`qubo_instance` builds through OMMX's constructors
    (the tests parse both and compare them), written with :mod:`._protobuf`
    instead: a few array passes in place of millions of Python objects, several
    times faster and a fraction of the memory on millions of terms.  The
    small fields (description, sense, *annotations*) go through OMMX's own
    ``instance_pb2.Instance``; the variables and the objective are appended
    as further fields of the same message (protobuf merges concatenations).

    Wire layout (``ommx/v1/*.proto``)::

        Instance   1 description, 2 decision_variables (repeated), 3 objective,
                   5 sense, 11 annotations (map)
        DecisionVariable   1 id, 2 kind (1 = binary), 3 bound {1 lower, 2 upper},
                           4 name, 5 subscripts (packed int64)
        Function   3 quadratic
        Quadratic  1 rows, 2 columns (packed uint64), 3 values (packed double), 4 linear
        Linear     1 terms (repeated {1 id, 2 coefficient}), 2 constant
    """
    _ommx()
    from ommx.v1.instance_pb2 import Instance

    from . import _protobuf as pb

    head = Instance(
        description=Instance.Description(name=_title(qubo), description=_description(qubo, "qubo"),
                                         created_by="nonoqubo"),
        sense=Instance.SENSE_MINIMIZE,
        annotations={k: v for k, v in annotations.items() if not k.startswith("org.ommx.v1.")},
    ).SerializeToString()
    variables = pb.length_prefixed(2, _variable_messages(qubo))[0].tobytes()
    nz = np.flatnonzero(qubo.linear)
    fixed64 = pb.key(2, pb.FIXED64)
    terms = pb.join(pb.constant(pb.key(1, pb.VARINT), nz.size), pb.varints(nz),
                    pb.constant(fixed64, nz.size), _doubles(qubo.linear[nz]))
    linear = pb.length_prefixed(1, terms)[0].tobytes() + fixed64 + np.float64(qubo.offset).astype("<f8").tobytes()
    quadratic = (pb.packed_varints(1, qubo.row) + pb.packed_varints(2, qubo.col)
                 + pb.packed_doubles(3, qubo.quad) + pb.field(4, linear))
    return head + variables + pb.field(3, pb.field(3, quadratic))


def _doubles(values: np.ndarray) -> Any:
    """Float64 values as a batch of 8-byte items."""
    return np.ascontiguousarray(values, "<f8").view(np.uint8), np.full(values.size, 8, np.int64)


def _layout_parts(model: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """Names (``y``/``z`` as bytes) and ``(N, 3)`` subscripts ``[i, k, p]`` from the layout's arrays.

    None unless the model's labels are its puzzle's layout labels (less the
    fixed ones), in order; the labels are then never parsed one by one.
    """
    from ..model.encoding import Layout
    from ._header import follows_rule

    if model.puzzle is None or not follows_rule(model.labels, model.puzzle, model.fixed):
        return None
    lay = Layout.of(model.puzzle)
    keep = np.ones(lay.num_vars, bool)
    if model.fixed:
        keep = np.fromiter((label not in model.fixed for label in lay.labels()), bool, lay.num_vars)
    line = lay.block_line[lay.var_block][keep]
    is_row = line < lay.height
    subs = np.column_stack((np.where(is_row, line, line - lay.height), lay.block_k[lay.var_block][keep],
                            lay.var_p[keep]))
    return np.where(is_row, ord("y"), ord("z")).astype(np.uint8), subs


def _variable_messages(model: Any) -> Any:
    """One binary ``DecisionVariable`` message per variable (a :mod:`._protobuf` batch), ids in order."""
    from . import _protobuf as pb

    n = model.num_vars
    parts = _layout_parts(model)
    if parts is not None:
        name_batch = (parts[0], np.ones(n, np.int64))
        count = np.full(n, 3, np.int64)
        flat_values = parts[1].ravel()
    else:  # other labels: parse each (a bare model's labels are its names)
        names, subs = _name_parts(list(model.labels))
        encoded = [name.encode("utf-8") for name in names]
        name_batch = (np.frombuffer(b"".join(encoded), np.uint8), np.fromiter(map(len, encoded), np.int64, n))
        count = np.fromiter(map(len, subs), np.int64, n)
        flat_values = np.fromiter((x for sub in subs for x in sub), np.int64, int(count.sum()))
    # subscripts: packed varints, the field left out for a variable without any
    flat, flat_len = pb.varints(flat_values)
    payload = np.bincount(np.repeat(np.arange(n), count), weights=flat_len, minlength=n).astype(np.int64)
    has = count > 0
    size_data, size_len = pb.varints(payload[has])
    size_full = np.zeros(n, np.int64)
    size_full[has] = size_len
    subscripts = pb.join((np.tile(np.frombuffer(pb.key(5, pb.LEN), np.uint8), int(has.sum())), has.astype(np.int64)),
                         (size_data, size_full), (flat, payload))
    binary = pb.key(2, pb.VARINT) + b"\x01" + pb.field(3, pb.key(2, pb.FIXED64) + np.array([1.0], "<f8").tobytes())
    return pb.join(pb.constant(pb.key(1, pb.VARINT), n), pb.varints(np.arange(n)), pb.constant(binary, n),
                   pb.length_prefixed(4, name_batch), subscripts)


def layer_annotations(model: Any, kind: str) -> dict[str, str]:
    """The instance layer's annotations: OMMX's own (title, description, counts) and nonoqubo's."""
    ns = "org.ommx.v1.instance."
    out = {ns + "title": _title(model), ns + "description": _description(model, kind),
           ns + "created_by": "nonoqubo", ns + "variables": str(model.num_vars),
           ns + "constraints": str(0 if kind == "qubo" else model.num_constraints)}
    out.update(model_annotations(model, kind))
    return out


def model_annotations(model: Any, kind: str) -> dict[str, str]:
    """The ``org.nonoqubo.*`` annotations of *model*: the clue metadata (:mod:`._metadata`) as strings.

    Text stays text, numbers are written in decimal, structures in compact JSON;
    ``format`` is this layout's version and ``version`` nonoqubo's (the metadata's ``nonoqubo``).
    """
    meta = _metadata_of(model, kind)
    out = {"format": str(FORMAT_VERSION), "version": meta["nonoqubo"], "kind": kind}
    if "rows" in meta:
        if meta["name"] is not None:
            out["name"] = meta["name"]
        out["height"], out["width"] = str(len(meta["rows"])), str(len(meta["cols"]))
        palette = meta.get("palette", {})
        for key, value in (*palette.items(), ("rows", meta["rows"]), ("cols", meta["cols"])):
            out[key] = json.dumps(value, separators=(",", ":"))
        if "solution" in meta:
            out["solution"] = json.dumps(meta["solution"])
    keys = ("variables", "terms", "offset", "encoding", "weights") if kind == "qubo" else \
        ("variables", "constraints", "counts")
    for key in (*keys, *(("presolve",) if "presolve" in meta else ()), "fixed"):  # presolve: probing's files only
        value = meta[key]
        out[key] = value if isinstance(value, str) else str(int(value)) if key == "offset" else \
            str(value) if isinstance(value, int) else json.dumps(value, separators=(",", ":"))
    out["labels"] = _encoding(model).labels_note
    return {PREFIX + k: v for k, v in out.items()}


def _metadata_of(model: Any, kind: str) -> dict[str, Any]:
    """The clue metadata dict of *model* (a :class:`Qubo` for ``kind="qubo"``), known solution included."""
    if kind != "qubo":
        return constrained_meta(model, "ommx-constrained")
    meta = describe(model, NAME, labels_listed=True)  # the variables' names and subscripts spell the labels
    if model.puzzle is not None and model.puzzle.solution is not None:
        meta["solution"] = list(model.puzzle.solution)
    return meta


#: the annotations whose value is a JSON structure, and those that are a number
_JSON_KEYS = ("background", "colours", "rows", "cols", "solution", "weights", "counts", "fixed")
_NUMBER_KEYS = ("variables", "terms", "offset", "constraints")


def read_annotations(annotations: Mapping[str, str], source: str) -> dict[str, Any]:
    """The clue metadata dict of an archive's ``org.nonoqubo.*`` annotations (the inverse of :func:`model_annotations`).

    Only the syntax is read: a value that is not the JSON or the number it should be is
    kept as its text, for :func:`._metadata.read` to refuse by name.
    """
    ann = {k[len(PREFIX):]: v for k, v in annotations.items() if k.startswith(PREFIX)}
    meta: dict[str, Any] = {}
    if "version" in ann:
        meta["nonoqubo"] = ann["version"]
    for key, text in ann.items():
        if key in _JSON_KEYS:
            try:
                meta[key] = json_loads(text, source)
            except FormatError:
                meta[key] = text
        elif key in _NUMBER_KEYS:
            meta[key] = _decimal(text)
        elif key in ("name", "encoding", "presolve"):
            meta[key] = text
    if "rows" in meta or "cols" in meta:
        meta.setdefault("name", None)
    if "colours" in meta or "background" in meta:
        meta["palette"] = {"background": meta.pop("background", "white"), "colours": meta.pop("colours", ["black"])}
    return meta


def _decimal(text: str) -> Any:
    """An int or float from its decimal text; the text itself when it is neither."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


# -- writing the archive -----------------------------------------------------------------------
def instance_blob(raw: Any, annotations: Mapping[str, str]) -> bytes:
    """The instance layer's bytes: the Rust core's protobuf with *annotations* in its ``annotations`` map.

    Protobuf merges concatenated messages field by field, so the map is appended
    as a message of its own (``ommx.v1.Instance(annotations=...)``): the same
    bytes a reader parses as ``Instance.to_bytes()`` of the wrapped instance
    would give, without parsing and re-serialising 50 MB in Python.
    """
    from ommx.v1.instance_pb2 import Instance

    extra = {k: v for k, v in annotations.items() if not k.startswith("org.ommx.v1.")}
    return raw.to_bytes() + Instance(annotations=extra).SerializeToString()


def _check_kind(model: Any, want: str) -> None:
    is_qubo = isinstance(model, Qubo)
    if want == "qubo" and not is_qubo:
        raise UnsupportedFormat("the ommx format writes a QUBO; for the constrained model use ommx-constrained")
    if want == "constrained" and is_qubo:
        raise UnsupportedFormat("the ommx-constrained format writes the constrained model, not a QUBO")


def dump_model(model: Any, fp: IO[bytes], kind: str, *, progress: bool = False) -> None:
    """Write *model* (a Qubo for ``kind="qubo"``, a constrained model otherwise) as an archive."""
    from .._util.progress import bar

    _check_kind(model, kind)
    with bar(1, f"writing {NAME}", enabled=progress, unit=" file") as tick:
        annotations = model_annotations(model, kind)
        if kind == "qubo":
            blob = qubo_instance_bytes(model, annotations)
        else:
            blob = instance_blob(_raw_instance(model, kind), annotations)
        _oci.write_archive(INSTANCE_MEDIA, blob, layer_annotations(model, kind), annotations, fp)
        tick(1)


def dump(qubo: Qubo, fp: IO[bytes], *, ising: bool = False, progress: bool = False) -> None:
    """Write the OMMX artifact archive of *qubo* to *fp* (a binary file)."""
    if ising:
        raise UnsupportedFormat("the ommx format holds binary variables; it has no Ising form")
    dump_model(qubo, fp, "qubo", progress=progress)


def dumps(qubo: Qubo, *, ising: bool = False) -> bytes:
    """The ``.ommx`` bytes of *qubo*."""
    buf = io.BytesIO()
    dump(qubo, buf, ising=ising)
    return buf.getvalue()


# -- reading the archive -----------------------------------------------------------------------
detect = _oci.detect


def annotations_of(data: bytes, source: str = "<ommx>") -> dict[str, str]:
    """Every annotation of an archive's instance: the manifest's, then the instance layer's."""
    annotations, layers = _oci.read_archive(data, source)
    for media, layer_annotations, _ in layers:
        if media == INSTANCE_MEDIA:
            return {**layer_annotations, **annotations}
    return annotations


def instance_of(data: bytes, source: str) -> tuple[Any, dict[str, str]]:
    """The instance protobuf message (``ommx.v1.instance_pb2.Instance``) of an archive and its annotations.

    Raises:
        FormatError: no instance layer, or one that is not an OMMX instance.
    """
    _ommx()
    from google.protobuf.message import DecodeError
    from ommx.v1.instance_pb2 import Instance

    annotations, layers = _oci.read_archive(data, source)
    for media, layer_annotations, blob in layers:
        if media != INSTANCE_MEDIA:
            continue
        try:
            message = Instance.FromString(blob)
        except (DecodeError, ValueError) as exc:
            raise FormatError(located(source, None, f"the instance layer is not an ommx.v1.Instance: {exc}")) from None
        return message, {**layer_annotations, **annotations}
    kinds = ", ".join(sorted({m for m, _, _ in layers})) or "none"
    raise FormatError(located(source, None, f"the OMMX archive holds no instance (layers: {kinds}); "
                              "is it a solver's answer rather than a model?"))


def _labels(message: Any, source: str) -> list[str]:
    """The labels of the instance's variables, ids checked to be ``0..N-1`` in order."""
    variables = sorted(message.decision_variables, key=lambda v: v.id)
    ids = np.fromiter((v.id for v in variables), np.int64, len(variables))
    if not np.array_equal(ids, np.arange(ids.size)):
        raise FormatError(located(source, None, "the instance's variable ids are not 0..N-1 "
                                  "(nonoqubo's variable order); was it written by nonoqubo?"))
    return [subscripted_label(v.name, v.subscripts) for v in variables]


def _objective(message: Any, n: int, source: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]:
    """``(linear, row, col, quad, offset)`` of the objective, as arrays."""
    f = message.objective
    which = f.WhichOneof("function")
    linear = np.zeros(n, np.float64)
    empty = np.zeros(0, np.int64)
    row, col, quad = empty, empty, np.zeros(0, np.float64)

    def add_linear(lin: Any) -> float:
        terms = lin.terms  # one message per linear term: at most one per variable
        ids = np.fromiter((t.id for t in terms), np.int64, len(terms))
        coef = np.fromiter((t.coefficient for t in terms), np.float64, len(terms))
        if ids.size and (ids.min() < 0 or ids.max() >= n):
            raise FormatError(located(source, None, f"the objective refers to a variable outside 0..{n - 1}"))
        np.add.at(linear, ids, coef)
        return float(lin.constant)

    if which in (None, "constant"):
        offset = float(f.constant) if which else 0.0
    elif which == "linear":
        offset = add_linear(f.linear)
    elif which == "quadratic":
        q = f.quadratic
        row, col = np.asarray(q.rows, np.int64), np.asarray(q.columns, np.int64)
        quad = np.asarray(q.values, np.float64)
        if not row.size == col.size == quad.size:
            raise FormatError(located(source, None, "the objective's rows, columns and values differ in length"))
        offset = add_linear(q.linear) if q.HasField("linear") else 0.0
    else:
        raise FormatError(located(source, None, f"the objective is a {which}, not a QUBO"))
    return linear, row, col, quad, offset


def loads(data: bytes, *, source: str = "<ommx>") -> Any:
    """The model of a ``.ommx`` archive written by nonoqubo: a :class:`Qubo`, or the constrained model.

    Raises:
        FormatError: not an OMMX archive, no instance, no nonoqubo annotations,
            or an instance that differs from the model its annotations describe.
    """
    message, meta = instance_of(data, source)
    kind = meta.get(PREFIX + "kind")
    if kind is None:
        raise FormatError(located(source, None, f"no {PREFIX}kind annotation: not written by nonoqubo, "
                                  "so the clues of its variables are unknown"))
    if kind == "constrained":
        return _constrained(message, meta, source)
    if kind != "qubo":
        raise FormatError(located(source, None, f"unknown {PREFIX}kind {kind!r} (qubo or constrained)"))
    labels = _labels(message, source)
    linear, row, col, quad, offset = _objective(message, len(labels), source)
    header: dict[str, Any] = {"fixed": {}, **read_annotations(meta, source), "vartype": "BINARY"}
    return to_qubo(header, linear, row, col, quad, offset, source, labels, spell=SPELL)


def _constrained(message: Any, meta: Mapping[str, str], source: str) -> Any:
    """The constrained model its annotations describe, checked against the instance's constraints."""
    from ..model.constrained import EQ, GE, build_constrained

    clues = _metadata.read(read_annotations(meta, source), source, spell=SPELL)
    if clues.puzzle is None:
        raise FormatError(located(source, None, f"no {PREFIX}rows/{PREFIX}cols annotations: the clues are unknown"))
    try:
        model = build_constrained(clues.puzzle, clues.fixed or None, presolve=clues.presolve)
    except ValueError as exc:
        raise FormatError(located(source, None, f"the clues and fixed values in the annotations: {exc}")) from None
    if _labels(message, source) != list(model.labels):
        raise FormatError(located(source, None, "the instance's variables differ from those of its clues"))
    if len(message.constraints) != model.num_constraints:
        raise FormatError(located(source, None, f"the instance has {len(message.constraints)} constraints, "
                                  f"the model of its clues {model.num_constraints}"))
    by_name = {c.name: c for c in message.constraints}
    ptr, idx, cof = model.indptr.tolist(), model.indices.tolist(), model.coefs.tolist()
    sense, rhs = model.sense.tolist(), model.rhs.tolist()
    for c, name in enumerate(model.names):
        got = by_name.get(name)
        if got is None:
            raise FormatError(located(source, None, f"constraint {name} is missing from the instance"))
        flip = -1 if sense[c] == GE else 1
        want = {v: float(a * flip) for v, a in zip(idx[ptr[c]:ptr[c + 1]], cof[ptr[c]:ptr[c + 1]])}
        f = got.function
        lin = f.linear if f.WhichOneof("function") == "linear" else None
        terms = {} if lin is None else {t.id: t.coefficient for t in lin.terms if t.coefficient}
        constant = 0.0 if lin is None else lin.constant
        equality = got.equality == 1  # EQUALITY_EQUAL_TO_ZERO
        if lin is None or terms != want or constant != -rhs[c] * flip or equality != (sense[c] == EQ):
            raise FormatError(located(source, None, f"constraint {name} differs from the model of the clues"))
    return model

