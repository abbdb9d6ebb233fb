"""On the annealer: QPU topologies, minor embeddings, and (``physical``, ``unembed``) the problem on qubits.

This package owns what lies between a logical QUBO and a D-Wave QPU:

* :mod:`.topology`: ``--topology`` (``chimera:M[,N,T]``, ``pegasus:M``, ``zephyr:M[,T]``, or a QPU's
  properties JSON) as a qubit graph;
* :mod:`.embedding`: chains of qubits for a model's variables (minorminer), their checks, EMB.json;
* :mod:`.cache`: :func:`~.cache.embed`, the one call that embeds a model, through the cache that lets
  a campaign embed each model once.

It is a work-layer package: it imports the model, line logic, ``_util`` and ``errors``; the Ocean
libraries (minorminer, dwave-networkx, dwave-system: extra ``dwave``) are imported inside the
functions that need them.
"""

from __future__ import annotations

from . import cache, embedding, topology
from .embedding import Embedding, interaction_graph_hash, load_embedding, topology_of_embedding
from .topology import Topology, parse_topology

__all__ = ["Embedding", "Topology", "cache", "embedding", "interaction_graph_hash", "load_embedding", "parse_topology",
           "topology", "topology_of_embedding"]
