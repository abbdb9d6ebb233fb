"""The QPU workflow: dwave-system's ``FixedEmbeddingComposite`` over a mock or a real D-Wave QPU.

This module owns the run functions of two samplers of
:data:`~nonoqubo.solvers.samplers.SAMPLER_TABLE`:

* ``mock-dwave`` (:func:`run_mock`): ``dwave.system.testing.MockDWaveSampler`` with the graph of
  ``--topology`` (or of the embedding's topology), its annealing done by dwave-samplers'
  simulated annealing on the *physical* problem (``--sweeps``, ``--seed``).  The whole QPU road
  offline: the chains, the chain strength, the unembedding (majority vote) and the chain-break
  fractions are the real ones; the timing figures in ``info["timing"]`` are dwave-system's fixed
  demonstration values, so the run record's one ``timing.seconds_per_run`` (the measured wall clock
  of the call per read) is its time, and the record's ``sampler_reported`` gives the sweeps run.
* ``dwave`` (:func:`run_dwave`): the same on a real QPU, ``DWaveSampler()``, for a user whose Ocean
  configuration (``dwave setup``, ``dwave.conf`` or ``DWAVE_API_TOKEN``) names one; its graph and
  its ``h_range``/``j_range`` are the solver's.  With no solver or token configured it fails in
  one line.

Both take ``--embedding EMB.json`` (``nonoqubo embed``: it must be for the model sampled, the
presolved one with ``--presolve``) or find an embedding with :func:`nonoqubo.qpu.cache.embed`
(cached, so the next run takes it from the cache), and ``--chain-strength`` (a number in the
logical model's units, ``uniform-torque`` (the default) or ``scaled``:
:mod:`nonoqubo.qpu.physical`).  The logical model is sampled in its Ising form, so energies are
the QUBO's; the SampleSet's ``info`` keeps the timing, the ``embedding_context`` (the chains,
the chain-break method, the chain strength) and what nonoqubo chose (``info["nonoqubo_qpu"]``),
and its ``chain_break_fraction`` column is saved by ``solve -o`` for ``decode`` and ``evaluate``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import MissingDependency, SolverError
from ..model.qubo import Qubo
from ..samples import SampleBatch, samples_from
from .base import SAMPLER_INFO, SampleOptions, Tick, json_safe

__all__ = ["QPU_OPTIONS", "QPU_SAMPLERS", "qpu_chain_breaks", "run_dwave", "run_mock"]

#: the samplers that run through an embedding, and the options only they take
QPU_SAMPLERS = ("mock-dwave", "dwave")
QPU_OPTIONS = {"topology": "--topology", "embedding": "--embedding", "chain_strength": "--chain-strength"}
#: also in the QPU options: ``"step"``, ``step(message)`` a context manager around an embedding search (a status line)


def _system() -> Any:
    try:
        import dwave.system as system
    except ImportError:
        raise MissingDependency("dwave-system", "dwave", "the QPU samplers (mock-dwave, dwave)") from None
    return system


def _embedding_for(qubo: Qubo, topology: Any, qpu: Mapping[str, Any], seed: int | None) -> tuple[Any, dict]:
    """The embedding of *qubo* on *topology*: the --embedding file (checked), else the cache's or a new one."""
    from ..qpu import cache
    from ..qpu.embedding import load_embedding, no_step

    if qpu.get("embedding"):
        emb = load_embedding(qpu["embedding"], qubo=qubo, topology=topology)
        return emb, {"from": str(qpu["embedding"]), **emb.figures}
    found = cache.embed(qubo, topology, seed=1 if seed is None else seed, tries=1, presolved=bool(qubo.fixed),
                        step=qpu.get("step") or no_step)
    if found.embedding is None:
        raise SolverError(f"no embedding of this model ({qubo.num_vars} variables, {qubo.num_quadratic} couplings) "
                          f"was found on {topology.spec}; try 'nonoqubo embed --tries N --timeout S', a larger "
                          "topology, or --presolve")
    return found.embedding, {"from": "cache" if found.cached else "minorminer (now cached)", **found.embedding.figures}


def _sample(child: Any, qubo: Qubo, opts: SampleOptions, tick: Tick, topology: Any, name: str,
            **kwargs: Any) -> SampleBatch:
    """FixedEmbeddingComposite(*child*) on *qubo*'s Ising form; the batch carries info and chain breaks."""
    from ..qpu.physical import logical_ising_bqm, parse_chain_strength, resolve_chain_strength

    system = _system()
    qpu = dict(opts.qpu or {})
    emb, figures = _embedding_for(qubo, topology, qpu, opts.seed)
    bqm = logical_ising_bqm(qubo)
    rule = parse_chain_strength(qpu.get("chain_strength") or "uniform-torque")
    strength = resolve_chain_strength(rule, bqm)
    composite = system.FixedEmbeddingComposite(child, embedding=emb.as_dict())
    try:
        result = composite.sample(bqm, chain_strength=strength, num_reads=opts.reads, return_embedding=True,
                                  **kwargs)
        result.resolve()
    except (SolverError, MissingDependency):
        raise
    except Exception as exc:  # the cloud client's and the solver's errors: one line
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SolverError(f"the {name} sampler failed: {type(exc).__name__}: {message}") from None
    tick(opts.reads, float(result.record.energy.min()))
    info = json_safe(result.info)
    info["nonoqubo_qpu"] = {"sampler": name, "topology": topology.describe(), "embedding": figures,
                            "chain_strength": {"rule": rule if isinstance(rule, str) else "number",
                                               "value": strength}}
    # mock-dwave's "timing" is dwave-system's fixed demonstration figures: the run record's one
    # seconds_per_run (the wall clock of the call / reads, run_record) is its time, and evaluate reads that
    batch = samples_from(result, qubo.labels, spin=True, source=f"{name} sampler ({topology.spec})")
    batch.extra["sampleset_info"] = info
    batch.extra["sampleset_vectors"] = {"chain_break_fraction": np.asarray(result.record.chain_break_fraction,
                                                                           np.float64)}
    return batch


def mock_topology(qpu: Mapping[str, Any]) -> Any:
    """The topology of ``mock-dwave``: ``--topology``, else the ``--embedding``'s."""
    from ..qpu.embedding import load_embedding, topology_of_embedding
    from ..qpu.topology import parse_topology

    if qpu.get("topology"):
        return parse_topology(str(qpu["topology"]))
    return topology_of_embedding(load_embedding(qpu["embedding"]))


def run_mock(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
    """``mock-dwave``: FixedEmbeddingComposite over MockDWaveSampler (simulated annealing) on the topology."""
    _system()
    try:
        from dwave.samplers import SimulatedAnnealingSampler
    except ImportError:
        raise MissingDependency("dwave-samplers", "dwave", "the 'mock-dwave' sampler") from None
    from dwave.system.testing import MockDWaveSampler

    topology = mock_topology(opts.qpu or {})
    family, shape = topology.family, list(topology.shape)
    if family == "file":
        family, shape = topology.file_family, list(topology.file_shape)
        if not family:
            raise SolverError(f"{topology.spec}: the mock sampler needs the QPU's topology type; the properties "
                              "file has no \"topology\": {\"type\", \"shape\"}")
    substitute = {"num_sweeps": opts.sweeps or 1000}
    if opts.seed is not None:
        substitute["seed"] = opts.seed
    nodes = sorted(topology.graph.nodes())
    edges = sorted((min(a, b), max(a, b)) for a, b in topology.graph.edges())
    mock = MockDWaveSampler(nodelist=nodes, edgelist=edges, topology_type=family, topology_shape=shape,
                            substitute_sampler=SimulatedAnnealingSampler(), substitute_kwargs=substitute,
                            parameter_warnings=False)
    batch = _sample(mock, qubo, opts, tick, topology, "mock-dwave", answer_mode="raw")
    batch.extra[SAMPLER_INFO] = {"num_sweeps": substitute["num_sweeps"]}  # the sweeps run, in the run record
    return batch


def run_dwave(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
    """``dwave``: FixedEmbeddingComposite over ``DWaveSampler()`` (the QPU the Ocean configuration names)."""
    system = _system()
    from ..qpu.topology import Topology

    try:
        qpu = system.DWaveSampler()
    except Exception as exc:  # no token, no configuration, no solver, no network: the cloud client's errors
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SolverError(f"--sampler dwave: no D-Wave QPU is available ({type(exc).__name__}: {message}); "
                          "configure one with 'dwave setup' or DWAVE_API_TOKEN (Ocean's dwave-cloud-client), "
                          "or use --sampler mock-dwave --topology T offline") from None
    props = qpu.properties
    declared = props.get("topology") or {}
    name = getattr(getattr(qpu, "solver", None), "name", "qpu")
    topology = Topology(spec=f"file:{name}", family="file", shape=(), graph=qpu.to_networkx_graph(),
                        h_range=tuple(props["h_range"]) if "h_range" in props else None,
                        j_range=tuple(props["j_range"]) if "j_range" in props else None,
                        file_family=declared.get("type"), file_shape=tuple(declared.get("shape") or ()))
    return _sample(qpu, qubo, opts, tick, topology, "dwave", answer_mode="raw", label="nonoqubo")


def qpu_chain_breaks(batch: SampleBatch) -> dict[str, Any] | None:
    """The ``"chain_breaks"`` report of a QPU sampler's batch (None for the other samplers)."""
    vectors = batch.extra.get("sampleset_vectors") or {}
    if "chain_break_fraction" not in vectors:
        return None
    fractions = np.asarray(vectors["chain_break_fraction"], np.float64)
    weights = np.ones(fractions.size) if batch.num_occurrences is None else batch.num_occurrences.astype(np.float64)
    info = batch.extra.get("sampleset_info") or {}
    context = info.get("embedding_context") or {}
    out: dict[str, Any] = {"method": f"{context.get('chain_break_method', 'majority_vote')} (FixedEmbeddingComposite)",
                           "overall": float((fractions * weights).sum() / weights.sum()) if weights.sum() else 0.0,
                           "per_sample": fractions.tolist()}
    if isinstance(context.get("embedding"), dict):
        out["chains"] = len(context["embedding"])
    if isinstance(context.get("chain_strength"), (int, float)):
        out["chain_strength"] = float(context["chain_strength"])
    return out
