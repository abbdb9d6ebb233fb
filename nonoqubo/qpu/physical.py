"""The physical problem: the logical model's Ising form on the qubits of an embedding, scaled.

This module owns what a QPU is actually asked to minimise: :func:`physical_problem` takes the
logical :class:`~nonoqubo.model.qubo.Qubo`, an embedding (each variable label -> its chain of
qubits) and the topology's graph, and gives a :class:`PhysicalProblem`:

1. **Ising form**: the QUBO over spins ``s = 2x - 1`` (:meth:`Qubo.to_ising`; its energies are
   the QUBO's, so a solution has energy 0 and every other state at least 1, in *logical units*).
2. **chains**: ``dwave.embedding.embed_bqm`` in SPIN space: a variable's ``h`` is spread evenly
   over its chain, a coupling ``J`` evenly over the couplers between the two chains, and every
   coupler inside a chain gets ``-chain_strength`` (with ``chain_strength`` per chain coupler
   added to the offset, so an intact chain costs nothing and each broken chain coupler costs
   ``2 * chain_strength``).  The chain strength is a number in logical units (``--chain-strength
   X``), or computed on the logical Ising model by Ocean's rule ``uniform-torque``
   (``dwave.embedding.chain_strength.uniform_torque_compensation``, prefactor 1.414: the default,
   as in Ocean's composites) or ``scaled`` (``...chain_strength.scaled``: the largest ``|h|``
   or ``|J|``).
3. **scaling**: every coefficient multiplied by one factor ``scale``, the largest that keeps
   ``h`` in the h range and ``J`` in the J range (what a QPU's ``auto_scale`` does; defaults
   ``h in [-4, 4]``, ``J in [-1, 1]``, an Advantage system's ``h_range`` / ``j_range``).  The
   file is meant to be sent with ``auto_scale=False``; it is already scaled.

The metadata (:meth:`PhysicalProblem.metadata`) records the scale factor, the chain strength
before and after scaling and how it was chosen, the ranges, the smallest nonzero coefficients
after scaling, and the energy gap after scaling.  **The gap recorded is a lower bound**: the
logical model's energies are integers and its solutions have energy 0, so any other logical
state lies at least 1 (logical unit) above them, and at least ``scale`` after scaling.  It is
not always the gap itself: brute force over every state of small puzzles (``tests/qpu``) finds
the first excited energy 2 on each of them.  The cell terms always add up to an even number
(over the grid the row view's colours add up to the row clues' total and the column view's to
the column clues', whatever the walls: the differences add up to 0, so their squares to an even
number), so an energy of 1 needs exactly one broken wall or order violation and no cell conflict.  ``chain_strength_bound`` is
a sufficient chain strength: with ``chain_strength`` above it, every ground state of the
physical problem has every chain intact, so its ground states are exactly the logical ones.
(Aligning a broken chain of variable ``v`` raises its other terms by at most ``L_v = |h_v| +
sum_u |J_vu|`` and saves at least ``2 * chain_strength``; the bound is ``max_v L_v / 2``.)
Ocean's default ``uniform-torque`` is usually below it: it is tuned for the annealing
dynamics, not for this guarantee.

**Precision**: the QPU does not realise ``h`` and ``J`` exactly.  D-Wave's documentation of
its integrated control errors (ICE: "Error Sources for Problem Representation", D-Wave QPU
documentation) describes errors ``delta h``, ``delta J`` of the order of a few hundredths in
the units of the ranges, and "4 to 5 bits" of effective precision.  :data:`DEFAULT_PRECISION`
is 0.02 (2 % of the largest ``|J|`` of the default J range, 1); when the smallest nonzero logical
coefficient after scaling falls below ``precision``, :attr:`PhysicalProblem.warning` says so in
one line (``nonoqubo build`` prints it on standard error).

The two files (:func:`dumps_json`, :func:`dumps_bqm`):

* ``phys.json``, the layout of a QPU request (``DWaveSampler.sample_ising(h, J)`` takes ``h``
  keyed by qubit and ``J`` keyed by qubit pairs)::

      {"nonoqubo": {"kind": "physical", "version", the metadata below,
                    "chains": {"<label>": [qubits], ...}},
       "h": {"<qubit>": bias, ...},                  every qubit of every chain (JSON keys are text)
       "J": [[q1, q2, bias], ...],                   q1 < q2, sorted
       "offset": number}                             the constant: energy = offset + h.s + J.ss

  ``"kind": "physical"`` comes first (older files have it after ``h`` and ``J``; they are
  recognised too: :func:`check_not_physical` reads the whole file when it must).

  sent with::

      doc = json.load(open("phys.json"))
      h = {int(q): v for q, v in doc["h"].items()}
      J = {(a, b): v for a, b, v in doc["J"]}
      DWaveSampler().sample_ising(h, J, auto_scale=False, num_reads=100)

* ``phys.bqm``, a dimod BQM file (SPIN, labelled by qubit), the metadata in its JSON header
  under ``"nonoqubo"`` (the BQM object has no ``info``): ``dimod.BinaryQuadraticModel.from_file``
  reads it as it is.

Examples:
    >>> from nonoqubo.model.qubo import Qubo
    >>> from nonoqubo.qpu.topology import parse_topology
    >>> q = Qubo.from_terms(["a", "b"], [2, 1], [(0, 1, -2)])
    >>> p = physical_problem(q, {"a": [0, 4], "b": [1]}, parse_topology("chimera:1"), chain_strength=2)
    >>> p.scale, p.chain_strength, p.scaled_chain_strength
    (0.5, 2.0, 1.0)
    >>> doc = json.loads(dumps_json(p))
    >>> doc["h"], doc["J"], doc["offset"]
    ({'0': 0.125, '1': 0.0, '4': 0.125}, [[0, 4, -1.0], [1, 4, -0.25]], 1.5)
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._version import __version__
from ..errors import MissingDependency, PhysicalError
from ..model.qubo import Qubo
from .embedding import check_embedding, model_summary
from .topology import Topology

__all__ = ["CHAIN_STRENGTH_RULES", "DEFAULT_H_RANGE", "DEFAULT_J_RANGE", "DEFAULT_PRECISION", "FORMATS",
           "PhysicalProblem", "build_physical", "chain_strength_bound", "check_not_physical", "dumps_bqm", "dumps_json",
           "is_physical", "logical_ising_bqm", "parse_chain_strength", "parse_range", "read_chain_strengths", "torque_prefactor", "physical_format",
           "physical_problem", "resolve_chain_strength", "write_physical"]

#: an Advantage system's h_range and j_range (the QPU properties' "h_range" / "j_range")
DEFAULT_H_RANGE = (-4.0, 4.0)
DEFAULT_J_RANGE = (-1.0, 1.0)
#: smallest coefficient (after scaling) a QPU realises faithfully: the order of D-Wave's documented
#: integrated control errors ("Error Sources for Problem Representation"), 2 % of the J range
DEFAULT_PRECISION = 0.02
#: the named chain-strength rules, Ocean's functions of dwave.embedding.chain_strength
CHAIN_STRENGTH_RULES = ("uniform-torque", "scaled")
#: Ocean's prefactor of uniform_torque_compensation
UNIFORM_TORQUE_PREFACTOR = 1.414


def _ocean() -> Any:
    try:
        import dwave.embedding as embedding
    except ImportError:
        raise MissingDependency("dwave-system", "dwave", "the physical problem (chains on qubits)") from None
    return embedding


# -- options -----------------------------------------------------------------------------------
def parse_chain_strength(text: str | float, option: str = "--chain-strength") -> float | str:
    """``uniform-torque`` (or ``uniform-torque:PREFACTOR``), ``scaled``, or a positive number (logical units).

    Examples:
        >>> parse_chain_strength("2.5"), parse_chain_strength("scaled"), parse_chain_strength("uniform-torque:2")
        (2.5, 'scaled', 'uniform-torque:2')
        >>> parse_chain_strength("strong")
        Traceback (most recent call last):
        nonoqubo.errors.PhysicalError: --chain-strength: 'strong' is neither a positive number nor one of uniform-torque, uniform-torque:PREFACTOR, scaled
    """
    if isinstance(text, str) and text.strip().lower() in CHAIN_STRENGTH_RULES:
        return text.strip().lower()
    if isinstance(text, str) and text.strip().lower().startswith("uniform-torque:"):
        factor = _positive(text.strip()[len("uniform-torque:"):])
        if factor is None:
            raise PhysicalError(f"{option}: {text!r}: the prefactor of uniform-torque:PREFACTOR must be a positive "
                                "number (Ocean's default is 1.414)")
        return f"uniform-torque:{factor:g}"
    value = _positive(text)
    if value is None:
        raise PhysicalError(f"{option}: {text!r} is neither a positive number nor one of "
                            f"{', '.join(CHAIN_STRENGTH_RULES[:1])}, uniform-torque:PREFACTOR, "
                            f"{', '.join(CHAIN_STRENGTH_RULES[1:])}")
    return value


def _positive(text: Any) -> float | None:
    """*text* as a finite positive number, else None."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) and value > 0 else None


def torque_prefactor(rule: float | str) -> float | None:
    """The uniform-torque prefactor of a parsed chain-strength *rule* (None for another rule)."""
    if rule == "uniform-torque":
        return UNIFORM_TORQUE_PREFACTOR
    if isinstance(rule, str) and rule.startswith("uniform-torque:"):
        return float(rule.split(":", 1)[1])
    return None


def read_chain_strengths(path: str, labels: Sequence[str], option: str = "--chain-strengths") -> dict[str, float]:
    """Per-chain strengths from JSON file *path*: ``{"<variable label>": strength, ...}`` in logical units.

    The variables the file names take its strength; the others keep ``--chain-strength``'s.

    Raises:
        PhysicalError: an unreadable file, a label that is no variable of the model, or a strength that
            is not a positive number (one line naming the file and the label).
    """
    from .._util.guard import json_loads
    from ..errors import FormatError

    from .._util.stream import read_bytes

    try:
        data = read_bytes(path, f"{option} {path}")  # a FIFO or <(...) read once, as a stream
        doc = json_loads(data, path)
    except OSError as exc:
        raise PhysicalError(f"{option} {path}: cannot read it ({exc.strerror or exc})") from None
    except FormatError as exc:
        raise PhysicalError(f"{option}: {exc}") from None
    if not isinstance(doc, dict):
        raise PhysicalError(f"{path}: per-chain strengths are a JSON object {{\"<variable label>\": strength}}")
    known = set(labels)
    out: dict[str, float] = {}
    for label, value in doc.items():
        if label not in known:
            raise PhysicalError(f"{path}: {label[:60]!r} is not a variable of the model sampled (its labels are "
                                "like 'y0[0][1]'; a presolved model has fewer)")
        strength = None if isinstance(value, bool) else _positive(value)
        if strength is None:
            raise PhysicalError(f"{path}: the strength of {label} must be a positive number, not {str(value)[:40]}")
        out[label] = strength
    return out


def parse_range(text: str | Sequence[float], option: str) -> tuple[float, float]:
    """``LO,HI`` with ``LO < 0 < HI`` (finite numbers), as ``(LO, HI)``.

    Examples:
        >>> parse_range("-2,2", "--h-range")
        (-2.0, 2.0)
        >>> parse_range("1,-1", "--j-range")
        Traceback (most recent call last):
        nonoqubo.errors.PhysicalError: --j-range: '1,-1' must be LO,HI with LO < 0 < HI
    """
    parts = text.split(",") if isinstance(text, str) else list(text)
    try:
        lo, hi = (float(p) for p in parts)
    except (TypeError, ValueError):
        raise PhysicalError(f"{option}: {text!r} is not two numbers LO,HI (e.g. -1,1)") from None
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < 0 < hi):
        raise PhysicalError(f"{option}: {text!r} must be LO,HI with LO < 0 < HI")
    return lo, hi


# -- the logical model -------------------------------------------------------------------------
def logical_ising_bqm(qubo: Qubo) -> Any:
    """The logical model over spins (``Qubo.to_bqm("SPIN")``): the BQM the chains are made from."""
    return qubo.to_bqm("SPIN")


def resolve_chain_strength(rule: float | str, bqm: Any) -> float:
    """The chain strength (logical units) of *rule* for the logical spin *bqm*."""
    if not isinstance(rule, str):
        return float(rule)
    _ocean()
    from dwave.embedding import chain_strength as cs

    prefactor = torque_prefactor(rule)
    if prefactor is not None:
        return float(cs.uniform_torque_compensation(bqm, prefactor=prefactor))
    if rule == "scaled":
        return float(cs.scaled(bqm))
    raise PhysicalError(f"--chain-strength: unknown rule {rule!r}; choose a number or one of "
                        f"{', '.join(CHAIN_STRENGTH_RULES)}")


def chain_strength_bound(qubo: Qubo) -> float:
    """``max_v (|h_v| + sum_u |J_vu|) / 2`` of the logical Ising model: above it every ground
    state of the physical problem has intact chains (see the module docstring)."""
    ising = qubo.to_ising()
    n = qubo.num_vars
    if n == 0:
        return 0.0
    local = np.abs(ising.h)
    absj = np.abs(ising.J)
    local = local + np.bincount(ising.row, weights=absj, minlength=n) + np.bincount(ising.col, weights=absj,
                                                                                    minlength=n)
    return float(local.max()) / 2.0


# -- the physical problem ----------------------------------------------------------------------
@dataclass
class PhysicalProblem:
    """The scaled Ising problem on qubits, with where it came from.

    Attributes:
        bqm: a dimod SPIN BQM labelled by qubit, already scaled.
        chains: variable label -> its qubits (the model's variable order).
        scale: the factor every coefficient of the embedded problem was multiplied by.
        chain_strength: in logical units (before scaling); ``scaled_chain_strength`` after.
        chain_strength_rule: ``"uniform-torque"``, ``"uniform-torque:PREFACTOR"``, ``"scaled"`` or ``"number"``.
        h_range, j_range: the ranges the coefficients were scaled into.
        precision: the threshold of the warning.
        smallest_logical: the smallest nonzero ``|h|`` or ``|J|`` of the logical Ising model, after scaling.
        smallest_physical: the smallest nonzero ``|h|`` or ``|J|`` programmed on the qubits (chains split them).
        chain_strength_bound: a sufficient chain strength (logical units; see the module docstring).
        model: figures of the logical model (hash, variables, edges).
        topology: what the topology says of itself (``Topology.describe()``), if known.
    """

    bqm: Any
    chains: dict[str, tuple[int, ...]]
    scale: float
    chain_strength: float
    chain_strength_rule: str
    h_range: tuple[float, float]
    j_range: tuple[float, float]
    precision: float
    smallest_logical: float
    smallest_physical: float
    chain_strength_bound: float
    model: dict[str, Any] = field(default_factory=dict)
    topology: dict[str, Any] | None = None

    @property
    def scaled_chain_strength(self) -> float:
        return self.chain_strength * self.scale

    @property
    def qubits(self) -> list[int]:
        return sorted(q for chain in self.chains.values() for q in chain)

    @property
    def warning(self) -> str | None:
        """One line when the smallest logical coefficient after scaling is below ``precision``."""
        if not self.smallest_logical or self.smallest_logical >= self.precision:
            return None
        return (f"warning: after scaling by {self.scale:.4g} the smallest logical coefficient is "
                f"{self.smallest_logical:.4g} (the smallest programmed on a qubit {self.smallest_physical:.4g}), "
                f"below the QPU's precision {self.precision:g} (--precision; D-Wave's integrated control errors): "
                f"the chain strength {self.chain_strength:.4g} sets the scale; a lower one or a presolved model "
                "keeps more of the problem above the noise")

    def metadata(self) -> dict[str, Any]:
        """What the files record of the problem (without the chains)."""
        return {
            "kind": "physical",  # first: what check_not_physical looks for (issue 33)
            "version": __version__,
            "model": dict(self.model),
            "topology": self.topology,
            "qubits": len(self.qubits),
            "couplers": int(self.bqm.num_interactions),
            "longest_chain": max((len(c) for c in self.chains.values()), default=0),
            "scale": self.scale,
            "chain_strength": {"rule": self.chain_strength_rule, "logical": self.chain_strength,
                               "scaled": self.scaled_chain_strength, "sufficient_bound": self.chain_strength_bound,
                               "uniform_torque_prefactor": torque_prefactor(self.chain_strength_rule)},
            "h_range": list(self.h_range),
            "j_range": list(self.j_range),
            "precision": self.precision,
            "smallest_logical_coefficient": self.smallest_logical,
            "smallest_physical_coefficient": self.smallest_physical,
            "gap": {"logical_lower_bound": 1, "scaled_lower_bound": self.scale,
                    "note": "integer logical energies, solutions at 0: every other chain-intact state is at "
                            "least this far above a solution (the true gap may be larger)"},
            "send_with": {"auto_scale": False},
        }

    def energy(self, spins: np.ndarray) -> np.ndarray:
        """Physical energies of ``(S, Q)`` spins in :attr:`qubits` order (scaled units)."""
        import dimod

        return np.asarray(dimod.SampleSet.from_samples_bqm((np.asarray(spins), self.qubits), self.bqm).record.energy)

    def summary(self) -> str:
        """The line ``build`` prints."""
        meta = self.metadata()
        return (f"physical problem: {meta['qubits']} qubits, {meta['couplers']} couplers, longest chain "
                f"{meta['longest_chain']}; chain strength {self.chain_strength:.4g} ({self.chain_strength_rule}; "
                f"{self.scaled_chain_strength:.4g} after scaling; intact chains guaranteed above "
                f"{self.chain_strength_bound:.4g}); scale {self.scale:.4g} into h {list(self.h_range)}, "
                f"J {list(self.j_range)}; gap >= {self.scale:.4g}")


def _smallest(values: np.ndarray) -> float:
    nonzero = np.abs(values[values != 0])
    return float(nonzero.min()) if nonzero.size else 0.0


def _scale_factor(h: np.ndarray, j: np.ndarray, h_range: tuple[float, float], j_range: tuple[float, float]) -> float:
    """The largest factor that keeps ``h`` in *h_range* and ``J`` in *j_range* (1 with nothing to scale)."""
    need = 0.0
    for values, (lo, hi) in ((h, h_range), (j, j_range)):
        if values.size:
            need = max(need, float(values.max()) / hi, float(values.min()) / lo)
    return 1.0 / need if need > 0 else 1.0


def physical_problem(
    qubo: Qubo,
    chains: Mapping[str, Sequence[int]],
    topology: Topology,
    *,
    chain_strength: float | str = "uniform-torque",
    h_range: tuple[float, float] | str | None = None,
    j_range: tuple[float, float] | str | None = None,
    precision: float = DEFAULT_PRECISION,
    where: str = "embedding",
) -> PhysicalProblem:
    """Embed *qubo*'s Ising form on *chains* of *topology*'s qubits and scale it into the ranges.

    Args:
        qubo: the logical model (the one the embedding was made for).
        chains: variable label -> its qubits (``Embedding.chains``, or any such dict).
        topology: the qubit graph (:func:`~nonoqubo.qpu.topology.parse_topology`).
        chain_strength: a number (logical units) or one of :data:`CHAIN_STRENGTH_RULES`.
        h_range, j_range: the hardware's ranges; default the topology's (a properties JSON's
            ``h_range`` / ``j_range``), else :data:`DEFAULT_H_RANGE`, :data:`DEFAULT_J_RANGE`.
        precision: the warning's threshold (default :data:`DEFAULT_PRECISION`).
        where: the chains' file, for messages.

    Raises:
        EmbeddingError: chains that do not embed the model on the topology (one line, naming *where*).
        PhysicalError: a bad chain strength, range or precision.
        MissingDependency: dwave-system is not installed.
    """
    embedding = _ocean()
    rule = parse_chain_strength(chain_strength if isinstance(chain_strength, str) else str(chain_strength))
    h_range = parse_range(h_range, "--h-range") if h_range is not None else topology.h_range or DEFAULT_H_RANGE
    j_range = parse_range(j_range, "--j-range") if j_range is not None else topology.j_range or DEFAULT_J_RANGE
    if isinstance(precision, bool) or not (isinstance(precision, (int, float)) and math.isfinite(precision)
                                           and precision >= 0):
        raise PhysicalError(f"--precision: {precision!r} must be a number of at least 0")
    checked = {str(k): tuple(int(q) for q in v) for k, v in chains.items()}
    check_embedding(checked, where, qubo=qubo, topology=topology)
    ordered = {str(v): checked[str(v)] for v in qubo.labels}  # the model's order
    graph = topology.graph
    source = logical_ising_bqm(qubo)
    strength = resolve_chain_strength(rule, source)
    try:
        embedded = embedding.embed_bqm(source, ordered, graph, chain_strength=strength)
    except embedding.exceptions.EmbeddingError as exc:  # check_embedding names these first
        raise PhysicalError(f"embedding: {exc}") from None
    qubits = sorted(q for c in ordered.values() for q in c)
    embedded.add_variables_from((q, 0.0) for q in qubits if q not in embedded.variables)
    lin, (row, col, quad), offset = embedded.to_numpy_vectors(variable_order=qubits)
    scale = _scale_factor(lin, quad, h_range, j_range)
    bqm = embedded.copy()
    bqm.scale(scale)
    ising = qubo.to_ising()
    logical = np.concatenate((ising.h, ising.J))
    owner = np.empty(len(qubits), np.int64)  # the variable of each qubit, by position in qubits
    position = {qb: k for k, qb in enumerate(qubits)}
    for v, chain in enumerate(ordered.values()):
        owner[[position[qb] for qb in chain]] = v
    between = owner[row] != owner[col]  # couplers between chains (the others are chain couplers)
    physical = np.concatenate((lin, quad[between]))
    return PhysicalProblem(
        bqm=bqm, chains=ordered, scale=scale, chain_strength=strength,
        chain_strength_rule=rule if isinstance(rule, str) else "number",
        h_range=h_range, j_range=j_range, precision=float(precision),
        smallest_logical=_smallest(logical) * scale, smallest_physical=_smallest(physical) * scale,
        chain_strength_bound=chain_strength_bound(qubo), model=model_summary(qubo, presolved=bool(qubo.fixed)),
        topology=topology.describe(),
    )


# -- files -------------------------------------------------------------------------------------
def dumps_json(problem: PhysicalProblem) -> str:
    """``phys.json``: ``h`` by qubit, ``J`` as ``[q1, q2, bias]``, ``offset`` and the metadata."""
    qubits = problem.qubits
    lin, (row, col, quad), offset = problem.bqm.to_numpy_vectors(variable_order=qubits)
    q = np.asarray(qubits, dtype=np.int64)
    a, b = q[row], q[col]
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    order = np.lexsort((hi, lo))
    meta = problem.metadata()
    meta["chains"] = {v: list(c) for v, c in problem.chains.items()}
    doc = {
        "nonoqubo": meta,  # first, so its "kind" opens the file whatever the size of h and J
        "h": {str(k): v for k, v in zip(qubits, lin.tolist())},
        "J": [[int(x), int(y), v] for x, y, v in zip(lo[order].tolist(), hi[order].tolist(), quad[order].tolist())],
        "offset": float(offset),
    }
    return json.dumps(doc)


def dumps_bqm(problem: PhysicalProblem) -> bytes:
    """``phys.bqm``: dimod's BQM file of the problem (SPIN, labelled by qubit), the metadata in its header."""
    from dimod.serialization.fileview import read_header

    from ..exports.bqm import META_KEY, make_header

    import io

    bqm = problem.bqm
    ordered = type(bqm)(bqm.vartype)  # the variables in increasing qubit order, as phys.json lists them
    ordered.add_linear_from((q, bqm.get_linear(q)) for q in problem.qubits)
    ordered.add_quadratic_from(bqm.quadratic)
    ordered.offset = bqm.offset
    data = ordered.to_file().read()
    header = read_header(io.BytesIO(data), b"DIMODBQM")
    meta = problem.metadata()
    meta["chains"] = {v: list(c) for v, c in problem.chains.items()}
    body = data[14 + int.from_bytes(data[10:14], "little"):]
    return make_header({**header.data, META_KEY: meta}, header.version) + body


#: the files of the physical problem, by format name and file ending
FORMATS = {"bqm": ".bqm", "json": ".json"}


def physical_format(path: str, name: str | None = None) -> str:
    """``"bqm"`` or ``"json"``: the physical problem's format of output *path* (or named *name*).

    Raises:
        PhysicalError: another format (one line: the two it can be).
    """
    if name is None:
        if path == "-":
            raise PhysicalError("'-o -' needs a format with --embedding: add -f json or -f bqm")
        name = next((fmt for fmt, ending in FORMATS.items() if path.lower().endswith(ending)), None)
    if name not in FORMATS:
        raise PhysicalError(f"{path}: with --embedding the output is the physical problem on qubits, written as "
                            "a dimod BQM file (.bqm, -f bqm) or the QPU-request JSON (.json, -f json); "
                            f"not {name or 'this file ending'}")
    return name


def build_physical(qubo: Qubo, embedding_path: str, *, chain_strength: float | str = "uniform-torque",
                   h_range: tuple[float, float] | str | None = None, j_range: tuple[float, float] | str | None = None,
                   precision: float = DEFAULT_PRECISION, outputs: Sequence[str] = ()) -> PhysicalProblem:
    """The physical problem of *qubo* on the embedding in file *embedding_path* (on its own topology).

    *outputs* are the files the problem will be written to: none may be the topology file the
    embedding names (a QPU properties JSON), checked as soon as it is known.

    Raises:
        EmbeddingError: the embedding is for another model, or not valid on its topology.
        TopologyError: the embedding's topology cannot be read.
        PhysicalError: a bad chain strength, range or precision.
    """
    from .embedding import checked_on_its_topology, load_embedding

    embedding, topology = checked_on_its_topology(load_embedding(embedding_path), str(embedding_path), qubo)
    if topology.path is not None:
        from .._util.atomic import check_not_input

        for out in outputs:
            check_not_input(out, topology.path)
    return physical_problem(qubo, embedding.chains, topology, chain_strength=chain_strength, h_range=h_range,
                            j_range=j_range, precision=precision, where=str(embedding_path))


def write_physical(problem: PhysicalProblem, outputs: Sequence[tuple[str, str]]) -> None:
    """Write *problem* to every ``(path, format)`` of *outputs*; each file renamed into place when all are written."""
    import contextlib

    from .._util.atomic import atomic_write

    with contextlib.ExitStack() as stack:
        for path, fmt in outputs:
            binary = fmt == "bqm"
            handle = stack.enter_context(atomic_write(path, binary=binary))
            handle.write(dumps_bqm(problem) if binary else dumps_json(problem))


#: what to do instead, per command that was given a physical-problem file
PHYSICAL_HINTS = {
    "decode": "decode its samples against the logical model (or the clue file) with --embedding EMB.json",
    "info": "give 'info' the logical model or the clue file (the physical problem's figures are in its "
            "\"nonoqubo\" metadata)",
    "solve": "solve the logical model or the clue file (--sampler mock-dwave embeds it itself)",
    "embed": "embed the logical model or the clue file",
    "build": "build from the logical model or the clue file",
}


def check_not_physical(path: str, command: str = "decode") -> None:
    """Refuse, in one line, a physical-problem file where a logical model is expected.

    Its variables are qubits and its samples decode against the logical model with
    ``--embedding``; the line says what *command* wants instead (:data:`PHYSICAL_HINTS`).
    A file is one when it is a JSON object or a dimod BQM file that holds ``"kind": "physical"``
    (:func:`is_physical`: anywhere in the JSON, anywhere in the BQM file's header).
    """
    if path != "-" and is_physical(path):
        raise PhysicalError(f"{path}: a physical problem on qubits ('build --embedding'), not a model: "
                            f"{PHYSICAL_HINTS.get(command, PHYSICAL_HINTS['decode'])}")


#: the mark of a physical problem: what :func:`dumps_json` and :func:`dumps_bqm` write in the metadata
PHYSICAL_MARK = b'"kind": "physical"'
#: the bytes read at a time when the mark is looked for
_CHUNK = 1 << 20


def is_physical(path: str) -> bool:
    """Does file *path* hold a physical problem (:data:`PHYSICAL_MARK` in a JSON object or a BQM header)?

    The mark is looked for in the whole JSON file (older phys.json files have it after ``h`` and
    ``J``, past any fixed-size head) and in the whole header of a BQM file (its metadata, with the
    chains, can exceed 64 KB), a megabyte at a time; an unreadable file is not (its reader says why).

    Inside a JSON string a quote is escaped, so the mark is JSON structure, never part of a label.
    """
    from .._util.stream import is_stream, read_bytes

    keep = len(PHYSICAL_MARK) - 1  # the mark may straddle two reads
    try:
        if is_stream(path):  # a FIFO or <(...): read once, whole, and kept for its reader
            data = read_bytes(path, path)
            return data.lstrip().startswith((b"{", b"DIMODBQM")) and PHYSICAL_MARK in data
        with open(path, "rb") as handle:
            buf = handle.read(max(_CHUNK, 64))  # the BQM header length is in bytes 10..14
            if buf.startswith(b"DIMODBQM"):
                limit: int | None = 14 + int.from_bytes(buf[10:14], "little")  # the header's end
            elif buf.lstrip().startswith(b"{"):
                limit = None  # the whole file
            else:
                return False
            start = 0  # the offset of buf[0] in the file
            while True:
                if PHYSICAL_MARK in (buf if limit is None else buf[:max(0, limit - start)]):
                    return True
                if limit is not None and start + len(buf) >= limit:
                    return False
                chunk = handle.read(_CHUNK)
                if not chunk:
                    return False
                start += max(0, len(buf) - keep)
                buf = buf[-keep:] + chunk
    except (OSError, ValueError):  # ValueError: a NUL byte in the name
        return False
