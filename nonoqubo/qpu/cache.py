"""The embedding cache, and the one call that embeds a model: look in the cache, else search and store.

Finding an embedding of a 15x15 nonogram on Advantage takes minutes; a campaign embeds the same
model for many runs.  :func:`embed` keeps every embedding it finds in a cache folder, one EMB.json a
file, named by the sha256 of what determines minorminer's result:

    (the model's interaction-graph hash, the topology (its spec, or a file's graph hash), seed, tries,
     timeout)

The folder is ``$NONOQUBO_CACHE/embeddings`` when ``NONOQUBO_CACHE`` is set, else
``$XDG_CACHE_HOME/nonoqubo/embeddings``, else ``~/.cache/nonoqubo/embeddings``.  A cached file is
checked again (every chain against the model and the graph) before it is used; one that fails is
searched again and replaced.  The cache is an optimisation: a folder that cannot be written is
skipped without a word, and ``use_cache=False`` (``--no-cache``) neither reads nor writes it.  The
timeout is part of the key: minorminer stops a search at its timeout and returns what it has, so a
search of 2.5 s and one of 600 s with the same seeds find different embeddings, and a request for
the longer search is never answered with the shorter one's (issue 33).  The figures of every
embedding say which effort found it (``"seed"``, ``"tries"``, ``"timeout"``).

Examples:
    >>> from nonoqubo.model.qubo import Qubo
    >>> from nonoqubo.qpu.topology import parse_topology
    >>> q = Qubo.from_terms(["a", "b"], [0, 0], [(0, 1, 1)])
    >>> found = embed(q, parse_topology("chimera:1"), use_cache=False)
    >>> found.embedding.figures["qubits"], found.cached
    (2, False)
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._util.atomic import atomic_write
from ..errors import NonoquboError
from ..model.qubo import Qubo
from . import embedding as _embedding
from .embedding import Embedding, Step, no_step, embedding_document, model_summary
from .topology import Topology

__all__ = ["Embedded", "cache_folder", "cache_key", "embed"]


@dataclass(frozen=True)
class Embedded:
    """What :func:`embed` returns: the embedding (None: none found), whether it came from the cache, the model's summary."""

    embedding: Embedding | None
    cached: bool
    model: dict[str, Any]
    cache_file: Path | None = None


def cache_folder() -> Path:
    """The folder embeddings are cached in (see the module docstring)."""
    root = os.environ.get("NONOQUBO_CACHE")
    if root:
        return Path(root).expanduser() / "embeddings"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "nonoqubo" / "embeddings"


def cache_key(model_hash: str, topology: Topology, seed: int, tries: int, timeout: float,
              search: Mapping[str, Any] | None = None) -> str:
    """The cache file's stem: sha256 of what changes minorminer's result (model hash, topology key, seed,
    tries, timeout per try, and the knobs of *search* that differ from their defaults:
    ``chainlength_patience``, ``threads``, ``clique``; a search with the defaults keeps the key it had).

    Examples:
        >>> from nonoqubo.qpu.topology import parse_topology
        >>> t = parse_topology("chimera:1")
        >>> cache_key("h", t, 1, 1, 2.5) == cache_key("h", t, 1, 1, 600.0)
        False
        >>> cache_key("h", t, 1, 1, 600) == cache_key("h", t, 1, 1, 600.0, {"threads": 1})
        True
        >>> cache_key("h", t, 1, 1, 600) == cache_key("h", t, 1, 1, 600, {"clique": True})
        False
    """
    extra = _embedding.check_search_options(search)
    key: list[Any] = [model_hash, topology.key, int(seed), int(tries), float(timeout)]
    if extra:
        key.append(sorted(extra.items()))
    text = json.dumps(key)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]


def embed(qubo: Qubo, topology: Topology, *, seed: int = 1, tries: int = 1, timeout: float = 1000.0,
          use_cache: bool = True, presolved: bool = False, step: Step = no_step,
          search: Mapping[str, Any] | None = None) -> Embedded:
    """The embedding of *qubo* on *topology* from the cache, else :func:`~.embedding.find_embedding`'s (then cached).

    Args:
        qubo: the model to embed.
        topology: the QPU graph.
        seed, tries, timeout: minorminer's (see :func:`~.embedding.find_embedding`).
        use_cache: read and write the cache.
        presolved: recorded in the model's summary (the ``"model"`` object of EMB.json).
        step: wraps every try (a progress line).
        search: minorminer's other knobs (:func:`~.embedding.check_search_options`), part of the key.
    """
    model = model_summary(qubo, presolved=presolved)
    path = (cache_folder() / f"{cache_key(model['hash'], topology, seed, tries, timeout, search)}.json"
            if use_cache else None)
    if path is not None:
        hit = _read(path, qubo, topology)
        if hit is not None:
            return Embedded(hit, True, model, path)
    found = _embedding.find_embedding(qubo, topology, seed=seed, tries=tries, timeout=timeout, step=step,
                                      search=search)
    if found is not None and path is not None:
        _write(path, found, model, topology)
    return Embedded(found, False, model, path)


def _read(path: Path, qubo: Qubo, topology: Topology) -> Embedding | None:
    """The cached embedding at *path* when it is there and still valid, else None."""
    try:
        emb = _embedding.load_embedding(path, qubo=qubo, topology=topology)  # chains in the model's order
    except NonoquboError:  # unreadable, damaged or no longer valid: searched again
        return None
    if emb.topology != topology.spec and topology.family != "file":
        return None
    hit = Embedding(emb.chains, topology.spec, emb.model_hash, emb.figures, emb.model, topology.describe(), None)
    try:
        _embedding.verify(hit, qubo, topology)  # dwave's own check too, as for a new embedding
    except NonoquboError:
        return None
    return hit


def _write(path: Path, emb: Embedding, model: dict[str, Any], topology: Topology) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        doc = embedding_document(emb, model, topology, path)
        with atomic_write(path) as handle:
            handle.write(json.dumps(doc))
    except (OSError, NonoquboError):  # a read-only or full cache: the embedding is still returned
        return


#: what ``suite --embed`` keeps per puzzle in its index (``index.json``, ``index.csv``), and under which names
INDEX_EMBEDDING = ("embed_topology", "embed_status", "embed_qubits", "embed_longest_chain", "embed_mean_chain",
                   "embed_seconds", "embed_status_after_presolve", "embed_qubits_after_presolve",
                   "embed_longest_chain_after_presolve", "embed_mean_chain_after_presolve",
                   "embed_seconds_after_presolve")
#: the status of a presolved model with no variable left
NOTHING_TO_EMBED = "nothing to embed: presolve fixes every variable"


def fit_figures(qubo: Qubo, topology: Topology, *, presolved: bool = False, seed: int = 1, tries: int = 1,
                timeout: float = 1000.0, use_cache: bool = True, step: Step = no_step) -> dict[str, Any]:
    """Does *qubo* fit on *topology*: its size, and the embedding's figures (through the cache).

    Returns:
        ``{"variables", "edges", "max_degree", "status"}`` with status ``"ok"`` (then also
        ``"qubits", "longest_chain", "mean_chain", "seconds", "tries", "seed", "cached"``),
        ``"not found"`` (no embedding in *tries* searches of *timeout* seconds) or
        :data:`NOTHING_TO_EMBED` (a model with no variable).
    """
    model = model_summary(qubo, presolved=presolved)
    out: dict[str, Any] = {k: model[k] for k in ("variables", "edges", "max_degree")}
    if qubo.num_vars == 0:
        return {**out, "status": NOTHING_TO_EMBED}
    found = embed(qubo, topology, seed=seed, tries=tries, timeout=timeout, use_cache=use_cache,
                  presolved=presolved, step=step)
    if found.embedding is None:
        return {**out, "status": "not found", "tries": tries, "timeout": timeout}
    return {**out, "status": "ok", **found.embedding.figures, "cached": found.cached}


def index_columns(raw: dict[str, Any], presolved: dict[str, Any] | None, topology: Topology) -> dict[str, Any]:
    """The flat :data:`INDEX_EMBEDDING` entries of a suite's index from two :func:`fit_figures` results."""
    out: dict[str, Any] = {"embed_topology": topology.spec}
    for fig, suffix in ((raw, ""), (presolved, "_after_presolve")):
        if fig is None:
            continue
        out[f"embed_status{suffix}"] = fig["status"]
        for key in ("qubits", "longest_chain", "mean_chain", "seconds"):
            if key in fig:
                out[f"embed_{key}{suffix}"] = fig[key]
    return out
