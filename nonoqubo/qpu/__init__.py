"""On the annealer: QPU topologies, minor embeddings, and (``physical``, ``unembed``) the problem on qubits.

This package owns what lies between a logical QUBO and a D-Wave QPU:

* :mod:`.topology`: ``--topology`` (``chimera:M[,N,T]``, ``pegasus:M``, ``zephyr:M[,T]``, or a QPU's
  properties JSON) as a qubit graph;
* :mod:`.embedding`: chains of qubits for a model's variables (minorminer), their checks, EMB.json;
* :mod:`.cache`: :func:`~.cache.embed`, the one call that embeds a model, through the cache that lets
  a campaign embed each model once;
* :mod:`.physical`: the one place the problem on qubits is made (chains, chain strength, scaling into
  the QPU's ranges, ``phys.bqm``/``phys.json``);
* :mod:`.unembed`: the one way qubit samples come back to the model's variables (chain-break methods,
  break fractions).

* :mod:`.sampler`: the QPU road itself, ``FixedEmbeddingComposite`` over the mock or a real QPU, and the
  record of what a call returned (the sampler table's ``mock-dwave`` and ``dwave`` entries call it).

It is handed models and builds none (ARCHITECTURE.md's layer ``qpu``): it imports ``errors``,
``_util``, ``_version``, the model, and the formats it reads and writes (``samples`` for qubit
samples, ``exports.bqm`` for ``phys.bqm``); ``inputs``, ``pipeline`` (which makes the model an
embedding is for), ``solvers``, ``campaign`` and ``cli`` use it.
Only the first three modules are imported with the package (the names below); the optional
libraries (minorminer, dwave-networkx, dwave-system: extra ``dwave``) and networkx are imported
inside the functions that need them, so ``import nonoqubo.qpu`` works without them.
"""

from __future__ import annotations

from . import cache, embedding, topology
from .embedding import Embedding, interaction_graph_hash, load_embedding, topology_of_embedding
from .topology import Topology, parse_topology

__all__ = ["Embedding", "Topology", "cache", "embedding", "interaction_graph_hash", "load_embedding", "parse_topology",
           "topology", "topology_of_embedding"]
