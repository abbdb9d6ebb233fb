"""Minor embeddings of a model's interaction graph into a QPU topology: find, check, write, read.

This module owns EMB.json, the file ``nonoqubo embed`` writes and ``build``/``decode``/``solve
--embedding`` read.  Its layout (one JSON object)::

    {"nonoqubo": "0.1.0", "kind": "embedding",
     "topology": {"spec": "pegasus:16", "family": "pegasus", "shape": [16], "qubits": 5640, "couplers": 40484},
     "model": {"hash": "<sha256>", "variables": 437, "edges": 2357, "max_degree": 20, "name": "...",
               "presolved": false},
     "figures": {"qubits": 3100, "longest_chain": 21, "mean_chain": 7.1, "seconds": 123.4, "tries": 3, "seed": 1,
                 "timeout": 1000.0},
     "embedding": {"y0[0][1]": [q1, q2, ...], ...}}

``"embedding"`` maps every variable label of the model to its chain of qubits: the form dwave-system's
``FixedEmbeddingComposite`` takes.  A file topology's ``"spec"`` is ``"file:PATH"``, and ``"path"``
gives that file relative to the EMB.json's folder.  The model's hash is
:func:`interaction_graph_hash`: its labels and quadratic pairs, not its biases, since an embedding
depends only on which variables interact.

An embedding is valid for a model on a topology when (``dwave.embedding.verify_embedding``):
every variable has a non-empty chain, no qubit is in two chains, every qubit is in the graph,
every chain is connected in the graph, and every quadratic pair of the model has a coupler
between its two chains.  :func:`check_embedding` tests all of it with NumPy on the graph's edges;
:func:`load_embedding` refuses a file that fails any part in one line naming the file and the
variable or qubit.

Examples:
    >>> from nonoqubo.model.qubo import Qubo
    >>> q = Qubo.from_terms(["a", "b", "c"], [0, 0, 0], [(0, 1, 1), (1, 2, 1), (0, 2, 1)])
    >>> emb = find_embedding(q, parse_topology("chimera:1"), seed=1)
    >>> sorted(emb.chains) == ["a", "b", "c"], emb.figures["longest_chain"] <= 2
    (True, True)
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ContextManager

import numpy as np

from .._util.atomic import atomic_write
from .._util.guard import json_loads
from .._version import __version__
from ..errors import EmbeddingError, FormatError, MissingDependency, TopologyError
from ..model.qubo import Qubo
from .topology import Topology, parse_topology

__all__ = ["Embedding", "MAX_TIMEOUT", "MAX_TRIES", "SEARCH_DEFAULTS", "SEED_LIMIT", "Step", "check_embedding",
           "check_search", "check_search_options",
           "checked_on_its_topology", "checked_embedding", "chain_figures", "embedding_document", "find_embedding",
           "interaction_graph_hash", "load_embedding", "model_summary", "no_step", "topology_of_embedding",
           "write_embedding"]

#: ``step(message)``: a context manager around one try (a progress line), or nothing
Step = Callable[[str], ContextManager[Any]]


def no_step(message: str) -> ContextManager[Any]:
    return contextlib.nullcontext()


@dataclass(frozen=True, eq=False)
class Embedding:
    """Chains of qubits for a model's variables, on one topology.

    Attributes:
        chains: variable label -> its qubits, in the model's variable order.
        topology: the :attr:`Topology.spec` it was found for.
        model_hash: :func:`interaction_graph_hash` of the model it embeds.
        figures: ``{"qubits", "longest_chain", "mean_chain", "seconds", "tries", "seed", "timeout"}``: the
            effort that found it is part of what it is (files written before issue 33 lack ``"timeout"``).
        model: what the file says of the model (variables, edges, max_degree, name, presolved).
        topology_info: the file's ``"topology"`` object (:meth:`Topology.describe`, plus ``"path"``).
        source: the EMB.json it was read from, if any.
    """

    chains: dict[str, tuple[int, ...]]
    topology: str
    model_hash: str
    figures: dict[str, Any]
    model: dict[str, Any] = field(default_factory=dict)
    topology_info: dict[str, Any] = field(default_factory=dict)
    source: str | None = None

    def as_dict(self) -> dict[str, list[int]]:
        """label -> list of qubits (``FixedEmbeddingComposite(sampler, embedding=...)``)."""
        return {label: list(chain) for label, chain in self.chains.items()}


def interaction_graph_hash(qubo: Qubo) -> str:
    """sha256 (hex) of the model's labels, in order, and its quadratic pairs (not the biases).

    Two models with the same variables and the same interacting pairs embed the same way.

    Examples:
        >>> a = Qubo.from_terms(["x", "y"], [1, 2], [(0, 1, 3)])
        >>> b = Qubo.from_terms(["x", "y"], [5, 0], [(0, 1, -7)])
        >>> interaction_graph_hash(a) == interaction_graph_hash(b)
        True
        >>> interaction_graph_hash(a) == interaction_graph_hash(Qubo.from_terms(["x", "y"], [1, 2]))
        False
    """
    digest = hashlib.sha256(b"nonoqubo-interaction-graph-v1\n")
    digest.update("\n".join(qubo.labels).encode("utf-8"))
    digest.update(b"\0")
    digest.update(np.asarray(qubo.row, dtype="<i8").tobytes())
    digest.update(b"\0")
    digest.update(np.asarray(qubo.col, dtype="<i8").tobytes())
    return digest.hexdigest()


def model_summary(qubo: Qubo, *, presolved: bool = False) -> dict[str, Any]:
    """The ``"model"`` object of EMB.json: hash, variables, edges, max degree, name, presolved."""
    degrees = qubo.degrees()
    return {"hash": interaction_graph_hash(qubo), "variables": qubo.num_vars, "edges": qubo.num_quadratic,
            "max_degree": int(degrees.max()) if degrees.size else 0,
            "name": getattr(qubo.puzzle, "name", None), "presolved": bool(presolved)}


def chain_figures(chains: Mapping[str, tuple[int, ...]] | Mapping[str, list[int]]) -> dict[str, Any]:
    """``{"qubits", "longest_chain", "mean_chain"}`` of some chains."""
    lengths = np.fromiter((len(c) for c in chains.values()), dtype=np.int64, count=len(chains))
    if not lengths.size:
        return {"qubits": 0, "longest_chain": 0, "mean_chain": 0.0}
    return {"qubits": int(lengths.sum()), "longest_chain": int(lengths.max()),
            "mean_chain": round(float(lengths.mean()), 3)}


#: the seeds minorminer is given: those ``solve --seed`` takes (minorminer's own limit is 2^64 - 1)
SEED_LIMIT = 2**32
#: the most searches one embedding may run: each takes up to its timeout, so 1,000 tries of the
#: default 1,000 s are already 11 days
MAX_TRIES = 1000
#: the longest time limit of one search, in seconds (a day)
MAX_TIMEOUT = 86_400.0


def check_search(seed: Any, tries: Any, timeout: Any, prefix: str = "--") -> None:
    """Refuse, in one line naming the option, a search that minorminer cannot run or that would not end.

    ``seed`` a whole number ``0 .. 2^32 - 1`` (as ``solve --seed``), ``tries`` ``1 ..``
    :data:`MAX_TRIES`, ``timeout`` a finite number of seconds in ``(0,`` :data:`MAX_TIMEOUT` ``]``.
    *prefix* makes the option names: ``--`` for ``embed`` (``--seed``), ``--embed-`` for ``info``
    and ``suite`` (``--embed-seed``).

    Examples:
        >>> check_search(1, 1, 10.0)
        >>> check_search(-1, 1, 10.0)
        Traceback (most recent call last):
        ...
        nonoqubo.errors.EmbeddingError: --seed -1: give a whole number from 0 to 4294967295
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise EmbeddingError(f"{prefix}seed {_number_text(seed)}: give a whole number from 0 to {SEED_LIMIT - 1}")
    if isinstance(tries, bool) or not isinstance(tries, int) or not 1 <= tries <= MAX_TRIES:
        raise EmbeddingError(f"{prefix}tries {_number_text(tries)}: give a whole number from 1 to {MAX_TRIES} "
                             "(each try searches for up to its timeout)")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= MAX_TIMEOUT:
        raise EmbeddingError(f"{prefix}timeout {_number_text(timeout)}: give a positive number of seconds, at most "
                             f"{MAX_TIMEOUT:g} (a day)")


def _number_text(value: Any) -> str:
    """*value* as a message shows it (a whole number of thousands of digits is not spelled out)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**20:
        return f"{'-' if value < 0 else ''}(a number of more than 20 digits)"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _minorminer() -> Any:
    try:
        import minorminer
    except ImportError:
        raise MissingDependency("minorminer", "dwave", "finding an embedding") from None
    return minorminer


def find_embedding(qubo: Qubo, topology: Topology, *, seed: int = 1, tries: int = 1,
                   timeout: float = 1000.0, step: Step = no_step,
                   search: Mapping[str, Any] | None = None) -> Embedding | None:
    """The best of *tries* minorminer embeddings of *qubo*'s interaction graph, or None when none was found.

    Try ``i`` (from 0) runs ``minorminer.find_embedding`` with ``random_seed = seed + i`` and
    *timeout* seconds; the best is the one with the shortest longest chain, then the fewest qubits.
    Variables with no quadratic term get one unused qubit each.  The result is checked with
    ``dwave.embedding.verify_embedding`` before it is returned.

    Args:
        qubo: the model (its ``row``/``col`` arrays are the interaction graph).
        topology: where to embed it.
        seed, tries, timeout: as above (``tries >= 1``, ``timeout > 0``).
        step: wraps every try; it is handed the line to show (``embedding on pegasus:16: try 2/3,
            best so far: longest chain 5, 300 qubits``).
        search: minorminer's other knobs (:func:`check_search_options`): ``chainlength_patience``,
            ``threads``, or ``clique`` (True: ``minorminer.busclique.find_clique_embedding``, the
            chains of a complete graph on as many variables, found in one deterministic pass; any
            model of that size fits them, the chains are longer than a search's).
    """
    check_search(seed, tries, timeout)
    extra = check_search_options(search)
    if extra.get("clique"):
        return _clique_embedding(qubo, topology, seed=seed, step=step)
    knobs = {k: v for k, v in extra.items() if k in ("chainlength_patience", "threads")}
    mm = _minorminer()
    n = qubo.num_vars
    edges = list(zip(np.asarray(qubo.row).tolist(), np.asarray(qubo.col).tolist()))
    target = list(topology.graph.edges())
    isolated = np.flatnonzero(qubo.degrees() == 0)
    best: dict[int, list[int]] | None = None
    best_key: tuple[int, int] | None = None
    best_figures: dict[str, Any] | None = None
    start = time.perf_counter()
    for i in range(tries):
        so_far = (f", best so far: longest chain {best_figures['longest_chain']}, {best_figures['qubits']} qubits"
                  if best_figures else "")
        with step(f"embedding on {topology.spec}: try {i + 1}/{tries}{so_far}"):
            if edges:
                found = mm.find_embedding(edges, target, random_seed=int(seed) + i, timeout=float(timeout), **knobs)
            else:
                found = {}
        placed = {int(v): [int(q) for q in c] for v, c in found.items()}
        chains: dict[int, list[int]] | None = placed
        if edges and len(placed) != n - isolated.size:
            chains = None  # no embedding this try
        elif isolated.size:
            chains = _place_isolated(placed, isolated, topology)
        if chains is not None:
            lengths = [len(c) for c in chains.values()]
            key = (max(lengths, default=0), sum(lengths))
            if best_key is None or key < best_key:
                best, best_key = chains, key
                best_figures = chain_figures({str(v): c for v, c in chains.items()})
    seconds = time.perf_counter() - start
    if best is None:
        return None
    labels = list(qubo.labels)
    emb = Embedding({labels[v]: tuple(best[v]) for v in range(n)}, topology.spec, interaction_graph_hash(qubo),
                    {**chain_figures({labels[v]: best[v] for v in range(n)}), "seconds": round(seconds, 3),
                     "tries": int(tries), "seed": int(seed), "timeout": float(timeout), **knobs},
                    topology_info=topology.describe())
    verify(emb, qubo, topology)
    return emb


#: minorminer's knobs besides seed, tries and timeout, with their defaults (a search with the defaults
#: is cached under the same key as before they existed)
SEARCH_DEFAULTS: dict[str, Any] = {"chainlength_patience": 10, "threads": 1, "clique": False}
#: the most threads one search may use
MAX_THREADS = 256


def check_search_options(search: Mapping[str, Any] | None, prefix: str = "--") -> dict[str, Any]:
    """The minorminer knobs of *search* that differ from :data:`SEARCH_DEFAULTS`, checked (one line each).

    ``chainlength_patience`` (minorminer's: how many rounds without a shorter chain it keeps
    improving, default 10) a whole number of at least 0, ``threads`` 1 to :data:`MAX_THREADS`,
    ``clique`` a flag.

    Examples:
        >>> check_search_options({"threads": 2, "chainlength_patience": 10, "clique": None})
        {'threads': 2}
        >>> check_search_options({"threads": 0})
        Traceback (most recent call last):
        nonoqubo.errors.EmbeddingError: --threads 0: give a whole number from 1 to 256
    """
    out: dict[str, Any] = {}
    for key, value in (search or {}).items():
        if value is None:
            continue
        if key not in SEARCH_DEFAULTS:
            raise EmbeddingError(f"unknown embedding option {key!r}; known: {', '.join(SEARCH_DEFAULTS)}")
        flag = prefix + key.replace("_", "-")
        if key == "clique":
            value = bool(value)
        elif isinstance(value, bool) or not isinstance(value, int):
            raise EmbeddingError(f"{flag} {value!r}: give a whole number")
        elif key == "threads" and not 1 <= value <= MAX_THREADS:
            raise EmbeddingError(f"{flag} {value}: give a whole number from 1 to {MAX_THREADS}")
        elif key == "chainlength_patience" and not 0 <= value <= 10**6:
            raise EmbeddingError(f"{flag} {value}: give a whole number from 0 to 1000000")
        if value != SEARCH_DEFAULTS[key]:
            out[key] = value
    return out


def _clique_graph(topology: Topology) -> Any:
    """*topology*'s graph with the dwave_networkx attributes busclique needs (a file's: its declared family)."""
    from .topology import dwave_networkx

    graph = topology.graph
    family = graph.graph.get("family") or topology.file_family
    if family == "chimera":  # minorminer 0.2's busclique aborts the interpreter on Chimera graphs
        raise EmbeddingError(f"{topology.spec}: --clique embeds on Pegasus and Zephyr (Advantage, Advantage2); "
                             "on Chimera use minorminer's search (drop --clique)")
    if "family" in graph.graph:
        return graph
    family, shape = topology.file_family, tuple(topology.file_shape)
    if family not in ("chimera", "pegasus", "zephyr") or not shape:
        raise EmbeddingError(f"{topology.spec}: a clique embedding needs the QPU's family and shape; the "
                             "properties file has no \"topology\": {\"type\", \"shape\"}")
    generator = getattr(dwave_networkx(), f"{family}_graph")
    return generator(*shape, node_list=sorted(graph.nodes()), edge_list=sorted(graph.edges()))


def _clique_embedding(qubo: Qubo, topology: Topology, *, seed: int, step: Step) -> Embedding | None:
    """busclique's chains for a complete graph on the model's variables (None: no clique that large fits)."""
    _minorminer()
    from minorminer.busclique import find_clique_embedding

    n = qubo.num_vars
    start = time.perf_counter()
    with step(f"clique embedding of {n} variables on {topology.spec} (busclique)"):
        found = find_clique_embedding(n, _clique_graph(topology), seed=int(seed), use_cache=False) if n else {}
    if n and len(found) != n:
        return None
    labels = list(qubo.labels)
    chains = {labels[v]: tuple(int(q) for q in found[v]) for v in range(n)}
    emb = Embedding(chains, topology.spec, interaction_graph_hash(qubo),
                    {**chain_figures(chains), "seconds": round(time.perf_counter() - start, 3), "tries": 1,
                     "seed": int(seed), "timeout": 0.0, "clique": True},
                    topology_info=topology.describe())
    verify(emb, qubo, topology)
    return emb


def _place_isolated(chains: dict[int, list[int]], isolated: np.ndarray,
                    topology: Topology) -> dict[int, list[int]] | None:
    """Give each variable without a partner one qubit no chain uses (None when the graph runs out)."""
    used = {q for c in chains.values() for q in c}
    free = (q for q in sorted(topology.graph.nodes()) if q not in used)
    out = dict(chains)
    for v in isolated.tolist():
        q = next(free, None)
        if q is None:
            return None
        out[int(v)] = [int(q)]
    return out


def verify(emb: Embedding, qubo: Qubo, topology: Topology) -> None:
    """``dwave.embedding.verify_embedding`` of *emb* for *qubo* on *topology*; EmbeddingError if it fails."""
    try:
        from dwave.embedding import verify_embedding
    except ImportError:
        raise MissingDependency("dwave-system", "dwave", "checking an embedding") from None
    import networkx as nx

    source = nx.Graph()
    source.add_nodes_from(qubo.labels)
    labels = qubo.labels
    source.add_edges_from((labels[a], labels[b]) for a, b in zip(np.asarray(qubo.row).tolist(),
                                                                np.asarray(qubo.col).tolist()))
    try:
        verify_embedding(emb.as_dict(), source, topology.graph)
    except Exception as exc:  # dwave.embedding's EmbeddingError family
        raise EmbeddingError(f"the embedding on {topology.spec} is not valid for the model: {exc}") from None


def check_embedding(chains: Mapping[str, tuple[int, ...]], where: str, *, qubo: Qubo | None = None,
                    topology: Topology | None = None, model_hash: str | None = None) -> None:
    """Refuse, in one line naming *where* and the variable or qubit, chains that do not embed the model.

    With *qubo*: every variable has a chain and no chain names another variable, the model's hash
    is *model_hash* (when given), no chain is empty and no qubit is in two chains.  With *topology*:
    every qubit is in the graph and every chain is connected; with both: every quadratic pair of the
    model has a coupler between its chains.
    """
    for label, chain in chains.items():
        if not chain:
            raise EmbeddingError(f"{where}: the chain of {label} is empty")
    labels = list(chains)
    if qubo is not None:
        index = qubo.index
        stray = next((lab for lab in labels if lab not in index), None)
        missing = next((lab for lab in qubo.labels if lab not in chains), None)
        if stray is not None or missing is not None:
            what = f"has no chain for variable {missing}" if missing is not None else \
                f"has a chain for {stray}, which is not a variable of the model"
            raise EmbeddingError(f"{where}: {what}: this embedding is for another model "
                                 f"({len(chains)} chains, the model has {qubo.num_vars} variables); "
                                 "embed this model with 'nonoqubo embed'")
        if model_hash is not None and model_hash != interaction_graph_hash(qubo):
            raise EmbeddingError(f"{where}: this embedding is for another model (its interaction graph hash "
                                 f"{model_hash[:12]}… is not the model's {interaction_graph_hash(qubo)[:12]}…: "
                                 "the same variables, other interacting pairs); embed this model with "
                                 "'nonoqubo embed'")
        labels = list(qubo.labels)
    sizes = np.fromiter((len(chains[lab]) for lab in labels), dtype=np.int64, count=len(labels))
    owner = np.repeat(np.arange(len(labels), dtype=np.int64), sizes)
    qubits = np.fromiter((q for lab in labels for q in chains[lab]), dtype=np.int64, count=int(sizes.sum()))
    order = np.argsort(qubits, kind="stable")
    dup = np.flatnonzero(np.diff(qubits[order]) == 0)
    if dup.size:
        q = int(qubits[order][dup[0]])
        a, b = labels[owner[order][dup[0]]], labels[owner[order][dup[0] + 1]]
        where_q = "twice in the chain of " + a if a == b else f"in the chains of both {a} and {b}"
        raise EmbeddingError(f"{where}: qubit {q} is {where_q}")
    if topology is None:
        return
    nodes = np.array(sorted(topology.graph.nodes()), dtype=np.int64)
    known = np.isin(qubits, nodes)
    if not known.all():
        k = int(np.flatnonzero(~known)[0])
        raise EmbeddingError(f"{where}: qubit {int(qubits[k])} of the chain of {labels[owner[k]]} is not in "
                             f"the {topology.spec} graph ({topology.num_qubits} qubits)")
    var_of = np.full(nodes.size, -1, dtype=np.int64)  # by the qubit's position among the graph's qubits
    var_of[np.searchsorted(nodes, qubits)] = owner
    tedges = np.array(list(topology.graph.edges()), dtype=np.int64).reshape(-1, 2)
    va, vb = var_of[np.searchsorted(nodes, tedges[:, 0])], var_of[np.searchsorted(nodes, tedges[:, 1])]
    inner = (va == vb) & (va >= 0)
    _check_connected(qubits, owner, tedges[inner], labels, where, topology.spec)
    if qubo is None:
        return
    cross = (va != vb) & (va >= 0) & (vb >= 0)
    lo, hi = np.minimum(va[cross], vb[cross]), np.maximum(va[cross], vb[cross])
    n = max(len(labels), 1)
    have = np.unique(lo * n + hi)
    need = np.asarray(qubo.row, dtype=np.int64) * n + np.asarray(qubo.col, dtype=np.int64)
    ok = np.isin(need, have)
    if not ok.all():
        t = int(np.flatnonzero(~ok)[0])
        a, b = labels[int(qubo.row[t])], labels[int(qubo.col[t])]
        raise EmbeddingError(f"{where}: no coupler of {topology.spec} joins the chains of {a} and {b}, "
                             "which interact in the model")


def _check_connected(qubits: np.ndarray, owner: np.ndarray, inner: np.ndarray, labels: list[str],
                     where: str, spec: str) -> None:
    """Every chain is one connected piece of the graph: union-find over the couplers inside chains."""
    parent = {int(q): int(q) for q in qubits.tolist()}

    def find(q: int) -> int:
        while parent[q] != q:
            parent[q] = parent[parent[q]]
            q = parent[q]
        return q

    for a, b in inner.tolist():
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    roots = np.fromiter((find(q) for q in qubits.tolist()), dtype=np.int64, count=qubits.size)
    # a chain is connected when all its qubits share one root
    first = np.full(len(labels), -1, dtype=np.int64)
    seen_first = np.unique(owner, return_index=True)
    first[seen_first[0]] = roots[seen_first[1]]
    bad = np.flatnonzero(roots != first[owner])
    if bad.size:
        k = int(bad[0])
        chain = qubits[owner == owner[k]].tolist()
        raise EmbeddingError(f"{where}: the chain of {labels[owner[k]]} ({', '.join(map(str, chain[:8]))}"
                             f"{', …' if len(chain) > 8 else ''}) is not connected on {spec}: qubit "
                             f"{int(qubits[k])} has no path to the others through the chain")


def embedding_document(emb: Embedding, model: Mapping[str, Any], topology: Topology,
                       out_path: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """The JSON object of EMB.json (the module docstring gives the layout)."""
    info = topology.describe()
    if topology.path is not None:
        base = Path(out_path).resolve().parent if out_path not in (None, "-") else Path.cwd()
        info["path"] = os.path.relpath(Path(topology.path).resolve(), base)
    return {"nonoqubo": __version__, "kind": "embedding", "topology": info, "model": dict(model),
            "figures": dict(emb.figures), "embedding": emb.as_dict()}


def write_embedding(path: str | os.PathLike[str], emb: Embedding, model: Mapping[str, Any],
                    topology: Topology) -> None:
    """Write EMB.json atomically (nothing is left behind when it fails)."""
    doc = embedding_document(emb, model, topology, path)
    with atomic_write(path) as handle:
        handle.write(_dumps(doc))


def _dumps(doc: Mapping[str, Any]) -> str:
    """One chain a line: readable, and diffs show which chains changed."""
    head = {k: v for k, v in doc.items() if k != "embedding"}
    text = json.dumps(head, indent=1)[:-2]
    chains = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in doc["embedding"].items())
    return f"{text},\n \"embedding\": {{\n{chains}\n }}\n}}\n"


def load_embedding(path: str | os.PathLike[str], *, qubo: Qubo | None = None,
                   topology: Topology | None = None) -> Embedding:
    """Read EMB.json, checked against *qubo* and *topology* when given (see :func:`check_embedding`).

    Raises:
        EmbeddingError: the file is not an embedding, is for another model, or is not valid on the
            topology: one line naming the file and the variable or qubit.
    """
    where = os.fspath(path)
    from .._util.stream import read_bytes

    try:
        data = read_bytes(where, where)  # a FIFO or <(...) read once, as a stream (checked, then used)
    except OSError as exc:
        raise EmbeddingError(f"{where}: cannot read the embedding ({exc.strerror or exc})") from None
    try:
        doc = json_loads(data, where)
    except FormatError as exc:
        raise EmbeddingError(f"{exc} (an embedding file is JSON, as 'nonoqubo embed' writes it)") from None
    return checked_embedding(embedding_from_document(doc, where), where, qubo=qubo, topology=topology)


def checked_embedding(emb: Embedding, where: str, *, qubo: Qubo | None = None,
                      topology: Topology | None = None) -> Embedding:
    """*emb* (read from *where*) checked against *qubo* and *topology* (:func:`check_embedding`, with
    the file's model hash), its chains in *qubo*'s variable order when given.

    Raises:
        EmbeddingError: it is for another model, or not valid on the topology (one line).
    """
    check_embedding(emb.chains, where, qubo=qubo, topology=topology,
                    model_hash=emb.model_hash if qubo is not None else None)
    if qubo is None:
        return emb
    return Embedding({lab: emb.chains[lab] for lab in qubo.labels}, emb.topology, emb.model_hash, emb.figures,
                     emb.model, emb.topology_info, emb.source)


def checked_on_its_topology(emb: Embedding, where: str, qubo: Qubo) -> tuple[Embedding, Topology]:
    """*emb* checked against *qubo* and the topology it names, and that topology: the one check every
    command that reads EMB.json for a model makes (``build``, ``solve`` and ``decode --embedding``).

    A chain that is not connected, chains swapped so that two interacting variables have no coupler,
    or a topology name the qubits are not on are refused here, before any sample is decoded.

    Raises:
        EmbeddingError: the embedding is for another model, or is not valid on its topology (one line).
        TopologyError: its topology cannot be read (one line naming the file).
    """
    topology = topology_of_embedding(emb)
    return checked_embedding(emb, where, qubo=qubo, topology=topology), topology


def embedding_from_document(doc: Any, where: str) -> Embedding:
    """An :class:`Embedding` from the parsed JSON of EMB.json; EmbeddingError naming *where* when malformed."""
    if not isinstance(doc, dict) or not isinstance(doc.get("embedding"), dict):
        raise EmbeddingError(f"{where}: not an embedding file: no \"embedding\" object mapping variables to "
                             "qubits (write one with 'nonoqubo embed')")
    chains: dict[str, tuple[int, ...]] = {}
    for label, chain in doc["embedding"].items():
        if not isinstance(chain, list) or not all(isinstance(q, int) and not isinstance(q, bool) for q in chain):
            raise EmbeddingError(f"{where}: the chain of {label} must be a list of qubit numbers")
        chains[str(label)] = tuple(int(q) for q in chain)
    top = doc.get("topology")
    spec = top.get("spec") if isinstance(top, dict) else top
    if not isinstance(spec, str):
        raise EmbeddingError(f"{where}: no topology spec (\"topology\": {{\"spec\": ...}})")
    model = given if isinstance(given := doc.get("model"), dict) else {}
    model_hash = model.get("hash")
    if not isinstance(model_hash, str):
        raise EmbeddingError(f"{where}: no model hash (\"model\": {{\"hash\": ...}})")
    figures = given if isinstance(given := doc.get("figures"), dict) else {}
    if not figures:
        figures = chain_figures(chains)
    return Embedding(chains, spec, model_hash, dict(figures), dict(model),
                     dict(top) if isinstance(top, dict) else {"spec": spec}, where)


def topology_of_embedding(emb: Embedding) -> Topology:
    """The topology *emb* was found for (a file topology: its ``"path"``, relative to the EMB.json's folder).

    Raises:
        TopologyError: the spec does not parse, or the file topology cannot be found.
    """
    spec = emb.topology
    if not spec.startswith("file:"):
        return parse_topology(spec, f"{emb.source or 'the embedding'}: topology")
    candidates = []
    rel = emb.topology_info.get("path")
    if isinstance(rel, str) and emb.source:
        candidates.append(Path(emb.source).resolve().parent / rel)
    candidates.append(Path(spec[5:]))
    for candidate in candidates:
        if candidate.is_file():
            topology = parse_topology(os.fspath(candidate))
            wanted = emb.topology_info.get("graph_hash")
            if wanted and topology.graph_hash != wanted:
                raise TopologyError(f"{candidate}: this QPU graph is not the one the embedding "
                                    f"{emb.source or ''} was found on (its qubits or couplers changed)")
            return topology
    raise TopologyError(f"{emb.source or 'the embedding'}: its topology file {spec[5:]} is not found "
                        f"(looked for {', '.join(map(str, candidates))})")
