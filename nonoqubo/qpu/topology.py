"""QPU topologies: the qubit graph a model is embedded into, from a spec or a real QPU's properties.

This module owns ``--topology``.  Grammar (case-insensitive family names, spaces ignored)::

    chimera:M[,N[,T]]    Chimera C(M, N, T), N = M and T = 4 by default (D-Wave 2000Q: chimera:16)
    pegasus:M            Pegasus P(M), M >= 2 (Advantage: pegasus:16, 5,640 qubits)
    zephyr:M[,T]         Zephyr Z(M, T), T = 4 by default (Advantage2: zephyr:12,4, 4,800 qubits)
    NAME                 a QPU's name: Advantage_system4.1 (or any Advantage_systemN.M, advantage) is
                         pegasus:16, Advantage2_system1.6 (advantage2) zephyr:12,4, the Advantage2
                         prototypes zephyr:4,4 / zephyr:6,4, DW_2000Q_6 (2000q) chimera:16: the ideal
                         graph of that generation (:data:`nonoqubo.qpu.parameters.SOLVER_NAMES`)
    PATH.json            a real QPU's working graph: ``DWaveSampler().properties`` dumped to JSON
                         (``"qubits"``/``"couplers"``) or an object with ``"nodelist"``/``"edgelist"``
                         (the sampler's attributes); an optional ``"topology": {"type", "shape"}``
                         and ``"h_range"``/``"j_range"``; its solver properties (``annealing_time_range``,
                         ``extended_j_range``, ``per_qubit_coupling_range``, ...) are kept in
                         :attr:`Topology.properties`, the QPU parameters are checked against them

The ideal graphs come from ``dwave_networkx`` (extra ``dwave``), labelled by linear qubit index as
D-Wave's solvers number them.  A file's graph has exactly the qubits and couplers it lists: real QPUs
miss a few of the ideal ones, and an embedding found on the file never uses a missing qubit.

Examples:
    >>> t = parse_topology("chimera:2")
    >>> t.spec, t.shape, t.graph.number_of_nodes()
    ('chimera:2,2,4', (2, 2, 4), 32)
    >>> parse_topology("Zephyr: 1").describe()["qubits"]
    48
"""

from __future__ import annotations

import hashlib
import json
import re
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._util.guard import json_loads
from .._util.stream import is_file_like, read_bytes
from ..errors import FormatError, MissingDependency, TopologyError

if TYPE_CHECKING:
    import networkx

__all__ = ["FAMILIES", "MAX_COUPLERS", "MAX_QUBITS", "Topology", "dwave_networkx", "graph_size", "parse_topology"]

#: family -> (dwave_networkx generator, the shape's parameter names, their defaults after the first)
FAMILIES = {
    "chimera": ("chimera_graph", ("M", "N", "T")),
    "pegasus": ("pegasus_graph", ("M",)),
    "zephyr": ("zephyr_graph", ("M", "T")),
}
#: the largest size parameter taken (the largest QPUs are P16, Z(15,4)); a size is also refused when
#: the graph it makes is too large (:data:`MAX_QUBITS`, :data:`MAX_COUPLERS`)
MAX_SIZE = 64
#: the most qubits a topology may have: ~7 times Advantage2's Z(15,4) (7,440 qubits)
MAX_QUBITS = 50_000
#: the most couplers a topology may have: ~3.5 times Z(15,4)'s 71,736; dwave_networkx builds
#: 250,000 in ~2.5 s and ~150 MB (zephyr:15,64 would be 15 million: a hang, then no memory)
MAX_COUPLERS = 250_000
#: the largest qubit number a properties file may name (real QPUs number theirs below 10^5)
MAX_QUBIT_NUMBER = 2**31 - 1

_SPEC = re.compile(r"^(chimera|pegasus|zephyr)\s*:\s*([0-9][0-9\s,]*)$", re.IGNORECASE)


def dwave_networkx() -> Any:
    """The ``dwave_networkx`` module (its deprecation notice about dwave-graphs silenced), or MissingDependency."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import dwave_networkx as dnx
    except ImportError:
        raise MissingDependency("dwave-networkx", "dwave", "a QPU topology") from None
    return dnx


@dataclass(frozen=True, eq=False)
class Topology:
    """A qubit graph: the normalised spec, the family and shape, the graph, and the ranges a file gives.

    Attributes:
        spec: ``"pegasus:16"``, ``"zephyr:12,4"``, ``"chimera:16,16,4"``, or ``"file:PATH"``.
        family: ``"chimera"``, ``"pegasus"``, ``"zephyr"`` or ``"file"``.
        shape: the dwave_networkx shape; ``()`` for a file.
        graph: integer-labelled qubits and couplers.
        h_range, j_range: from a properties JSON that has them, else None.
        path: the file of a ``file:`` topology (as given), else None.
        file_family, file_shape: the ``"topology"`` a properties JSON declares, if any.
        properties: the solver properties a properties JSON gives (checked by
            :func:`nonoqubo.qpu.parameters.read_properties`), else empty.
    """

    spec: str
    family: str
    shape: tuple[int, ...]
    graph: networkx.Graph
    h_range: tuple[float, float] | None = None
    j_range: tuple[float, float] | None = None
    path: str | None = None
    file_family: str | None = None
    file_shape: tuple[int, ...] = field(default=())
    properties: dict[str, Any] = field(default_factory=dict)

    @property
    def num_qubits(self) -> int:
        return int(self.graph.number_of_nodes())

    @property
    def num_couplers(self) -> int:
        return int(self.graph.number_of_edges())

    def describe(self) -> dict[str, Any]:
        """``{"spec", "family", "shape", "qubits", "couplers"}`` (and the file's declared topology) for JSON."""
        out: dict[str, Any] = {"spec": self.spec, "family": self.family, "shape": list(self.shape),
                               "qubits": self.num_qubits, "couplers": self.num_couplers}
        if self.family == "file":
            out["graph_hash"] = self.graph_hash
            if self.file_family:
                out["declared"] = {"type": self.file_family, "shape": list(self.file_shape)}
        return out

    @property
    def graph_hash(self) -> str:
        """sha256 of the sorted qubits and couplers: what a file topology is cached by."""
        nodes = np.array(sorted(self.graph.nodes()), dtype="<i8")
        edges = np.array(sorted((min(a, b), max(a, b)) for a, b in self.graph.edges()), dtype="<i8").reshape(-1, 2)
        digest = hashlib.sha256(b"nonoqubo-qubit-graph-v1\n")
        digest.update(nodes.tobytes())
        digest.update(b"\0")
        digest.update(edges.tobytes())
        return digest.hexdigest()

    @property
    def key(self) -> str:
        """What identifies the graph in a cache: the spec of an ideal topology, the graph's hash for a file."""
        return f"file:{self.graph_hash}" if self.family == "file" else self.spec


def parse_topology(text: str, option: str = "--topology") -> Topology:
    """The topology *text* names (the module docstring gives the grammar).

    *option* is what a refusal names it by: ``--topology``, ``--embed`` (suite), or an embedding
    file's ``EMB.json: topology``.

    Raises:
        TopologyError: the text is no spec and no readable properties JSON, a size is 0 or too
            large, or the file lacks its qubits (one line naming the spec or file).
        MissingDependency: dwave-networkx is not installed.
    """
    from .parameters import topology_of_solver

    raw = str(text).strip()
    named = topology_of_solver(raw)
    if named is not None:
        family, numbers = named.split(":")
        return _ideal(family, numbers, f"{option} {_shown(raw)!r}")
    match = _SPEC.match(raw)
    if match:
        return _ideal(match.group(1).lower(), match.group(2), f"{option} {_shown(raw)!r}")
    if raw.lower().startswith("file:"):
        raw = raw[5:]
    if raw.lower().endswith(".json") or is_file_like(raw):  # a FIFO or <(...) too
        return _from_file(raw, option)
    raise TopologyError(
        f"{option} {_shown(text)!r}: not a topology; give chimera:M[,N,T], pegasus:M, zephyr:M[,T] "
        "(e.g. pegasus:16 for Advantage, zephyr:12,4 for Advantage2), a QPU's name (Advantage_system4.1, "
        "Advantage2_system1.6, advantage, advantage2, 2000q) or a QPU properties .json file")


def _shown(text: str) -> str:
    """*text* as a message shows it: at most 60 characters (a size of 5,000 digits is cut)."""
    text = str(text).strip()
    return text if len(text) <= 60 else text[:57] + "..."


def _ideal(family: str, numbers: str, where: str) -> Topology:
    """The ideal graph *family*:*numbers*; a refusal starts with *where* (the option, or the file declaring it)."""
    generator, names = FAMILIES[family]
    parts = [p.strip() for p in numbers.split(",")]
    if any(not p.isdigit() for p in parts) or len(parts) > len(names):
        raise TopologyError(f"{where}: {family} takes {family}:{','.join(names[:1])}"
                            + "".join(f"[,{n}" for n in names[1:]) + "]" * (len(names) - 1)
                            + " (whole numbers)")
    if any(len(p.lstrip("0")) > len(str(MAX_SIZE)) for p in parts):  # int() of 5,000 digits is Python's error
        raise TopologyError(f"{where}: sizes above {MAX_SIZE} are refused (the largest QPUs are "
                            "pegasus:16 and zephyr:15,4)")
    values = [int(p) for p in parts]
    if family == "chimera":
        m = values[0]
        n = values[1] if len(values) > 1 else m
        t = values[2] if len(values) > 2 else 4
        shape: tuple[int, ...] = (m, n, t)
    elif family == "zephyr":
        shape = (values[0], values[1] if len(values) > 1 else 4)
    else:
        shape = (values[0],)
    least = 2 if family == "pegasus" else 1
    if shape[0] < least or min(shape) < 1:
        raise TopologyError(f"{where}: {family} sizes start at {least}"
                            + (" (pegasus:1 has no qubits)" if family == "pegasus" else "")
                            + (" and every size is at least 1" if len(shape) > 1 else ""))
    if max(shape) > MAX_SIZE:
        raise TopologyError(f"{where}: sizes above {MAX_SIZE} are refused (the largest QPUs are "
                            "pegasus:16 and zephyr:15,4)")
    qubits, couplers = graph_size(family, shape)
    if qubits > MAX_QUBITS or couplers > MAX_COUPLERS:
        raise TopologyError(f"{where}: {family}:{','.join(map(str, shape))} has {qubits:,} qubits and "
                            f"{couplers:,} couplers, more than the {MAX_QUBITS:,} qubits and {MAX_COUPLERS:,} "
                            "couplers taken (the largest QPUs are pegasus:16 and zephyr:15,4)")
    graph = getattr(dwave_networkx(), generator)(*shape)
    spec = f"{family}:{','.join(str(v) for v in shape)}"
    return Topology(spec, family, shape, graph)


def graph_size(family: str, shape: tuple[int, ...]) -> tuple[int, int]:
    """The qubits and couplers of the ideal graph *family*:*shape*, counted without building it.

    Chimera C(m, n, t): ``2mnt`` qubits, ``mnt^2`` couplers inside the cells and ``t((m-1)n + m(n-1))``
    between them; Pegasus P(m) (dwave_networkx's default, fabric only): ``8(m-1)(3m-1)`` qubits,
    ``180m^2 - 360m + 164`` couplers; Zephyr Z(m, t): ``4tm(2m+1)`` qubits, ``16t(t+1)m^2 - 4tm - 6t``
    couplers (each formula checked against dwave_networkx in tests/qpu/test_topology.py).

    Examples:
        >>> graph_size("pegasus", (16,)), graph_size("zephyr", (12, 4))
        ((5640, 40484), (4800, 45864))
    """
    if family == "chimera":
        m, n, t = shape
        return 2 * m * n * t, m * n * t * t + t * ((m - 1) * n + m * (n - 1))
    if family == "pegasus":
        (m,) = shape
        return 8 * (m - 1) * (3 * m - 1), 180 * m * m - 360 * m + 164
    m, t = shape
    return 4 * t * m * (2 * m + 1), 16 * t * (t + 1) * m * m - 4 * t * m - 6 * t


def _pairs(value: Any, where: str, key: str) -> list[tuple[int, int]]:
    if not isinstance(value, list) or not all(
            isinstance(e, list) and len(e) == 2 and all(isinstance(q, int) and not isinstance(q, bool) for q in e)
            for e in value):
        raise TopologyError(f"{where}: {key!r} must be a list of [qubit, qubit] pairs of integers")
    return [(int(a), int(b)) for a, b in value]


def _range(props: dict[str, Any], key: str, where: str) -> tuple[float, float] | None:
    value = props.get(key)
    if value is None:
        return None
    if (not isinstance(value, list) or len(value) != 2 or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                                 for v in value) or not value[0] < value[1]):
        raise TopologyError(f"{where}: {key!r} must be [low, high] with low < high, not {json.dumps(value)[:60]}")
    return float(value[0]), float(value[1])


def _from_file(path: str, option: str = "--topology") -> Topology:
    try:
        data = read_bytes(path, f"{option} {path}")  # a FIFO or <(...) read once, as a stream
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        name = path if path.isprintable() else repr(_shown(path))  # a newline in the name stays on the one line
        raise TopologyError(f"{option} {name}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        doc = json_loads(data, path)
    except FormatError as exc:
        raise TopologyError(str(exc)) from None
    if isinstance(doc, dict) and isinstance(doc.get("properties"), dict):
        doc = {**doc["properties"], **{k: v for k, v in doc.items() if k != "properties"}}
    if not isinstance(doc, dict):
        raise TopologyError(f"{path}: a QPU topology file is a JSON object with 'nodelist' (or 'qubits')")
    nodes_key = "nodelist" if "nodelist" in doc else "qubits" if "qubits" in doc else None
    if nodes_key is None:
        raise TopologyError(f"{path}: no 'nodelist' (or 'qubits'): the file does not list the QPU's working "
                            "qubits (save DWaveSampler().properties, or its nodelist and edgelist)")
    nodes = doc[nodes_key]
    if not isinstance(nodes, list) or not all(isinstance(q, int) and not isinstance(q, bool)
                                              and 0 <= q <= MAX_QUBIT_NUMBER for q in nodes):
        raise TopologyError(f"{path}: {nodes_key!r} must be a list of qubit numbers (integers from 0 to "
                            f"{MAX_QUBIT_NUMBER})")
    if not nodes:
        raise TopologyError(f"{path}: {nodes_key!r} is empty: a QPU with no working qubit")
    if len(nodes) > MAX_QUBITS:
        raise TopologyError(f"{path}: {len(nodes):,} qubits, more than the {MAX_QUBITS:,} a topology may have")
    declared = doc.get("topology")
    family: str | None = None
    shape: tuple[int, ...] = ()
    if isinstance(declared, dict):
        family = str(declared.get("type", "")).lower() or None
        raw_shape = declared.get("shape", [])
        if isinstance(raw_shape, list) and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 10**6
                                               for v in raw_shape):
            shape = tuple(int(v) for v in raw_shape)
    edges_key = "edgelist" if "edgelist" in doc else "couplers" if "couplers" in doc else None
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(sorted(set(nodes)))
    if edges_key is not None:
        if isinstance(doc[edges_key], list) and len(doc[edges_key]) > MAX_COUPLERS:
            raise TopologyError(f"{path}: {len(doc[edges_key]):,} couplers, more than the {MAX_COUPLERS:,} a "
                                "topology may have")
        edges = _pairs(doc[edges_key], path, edges_key)
        node_set = set(nodes)
        stray = next((q for e in edges for q in e if q not in node_set), None)
        if stray is not None:
            raise TopologyError(f"{path}: {edges_key!r} names qubit {stray}, which is not in {nodes_key!r}")
        graph.add_edges_from(edges)
    elif family in FAMILIES and shape:
        ideal = _ideal(family, ",".join(map(str, shape)), f"{path}: its \"topology\"")
        graph.add_edges_from(ideal.graph.subgraph(nodes).edges())
    else:
        raise TopologyError(f"{path}: no 'edgelist' (or 'couplers'), and no 'topology' type and shape to "
                            "derive the couplers from")
    if not graph.number_of_edges():  # minorminer cannot embed anything that interacts into it
        raise TopologyError(f"{path}: no coupler joins two of its {graph.number_of_nodes():,} qubits"
                            + (f" (the declared {family}:{','.join(map(str, shape))} couplers miss every "
                               "qubit listed)" if edges_key is None else "")
                            + ": a QPU graph needs its working couplers ('couplers' or 'edgelist')")
    from .parameters import read_properties

    return Topology(f"file:{path}", "file", (), graph, _range(doc, "h_range", path), _range(doc, "j_range", path),
                    path=path, file_family=family, file_shape=shape, properties=read_properties(doc, path))
