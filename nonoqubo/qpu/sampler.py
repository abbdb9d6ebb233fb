"""On a QPU, or its mock: dwave-system's ``FixedEmbeddingComposite`` around the model's Ising form.

This module owns the one sampling road through an embedding, for the two QPU samplers of the
sampler table (``nonoqubo.solvers.samplers``, whose ``mock-dwave`` and ``dwave`` entries adapt
their options to a :class:`QpuCall` and call :func:`sample_mock` or :func:`sample_dwave`):

* ``mock-dwave`` (:func:`sample_mock`): ``dwave.system.testing.MockDWaveSampler`` with the graph
  of ``--topology`` (or of the ``--solver``'s, or of the embedding's topology), its annealing done
  by :class:`~nonoqubo.qpu.mock.QpuEmulator` (dwave-samplers' simulated annealing on the
  *physical* problem, ``--sweeps``, ``--seed``).  The whole QPU road offline: the chains, the
  chain strength, the unembedding (majority vote) and the chain-break fractions are the real ones;
  its QPU timing is *estimated* (:func:`~nonoqubo.qpu.mock.estimated_timing`), never measured.
* ``dwave`` (:func:`sample_dwave`): the same on a real QPU, ``DWaveSampler()``, for a user whose
  Ocean configuration (``dwave setup``, ``dwave.conf`` or ``DWAVE_API_TOKEN``) names one; its
  graph and its ``h_range``/``j_range`` are the solver's.  With no solver or token it fails in
  one line.

Both take an ``embedding`` file (``nonoqubo embed``: for the model sampled) or find one with
:func:`nonoqubo.qpu.cache.embed` (cached), and a ``chain_strength`` (a number in the logical
model's units, ``uniform-torque`` (the default) or ``scaled``: :mod:`nonoqubo.qpu.physical`).
The logical model is sampled in its Ising form, so energies are the QUBO's.  A call returns a
:class:`QpuAnswer`: the samples (their batch's ``extra`` keeps the SampleSet's ``info`` under
``"sampleset_info"`` and its ``chain_break_fraction`` column under ``"sampleset_vectors"``), and
``reported``, what the call returned that a run record keeps (:data:`QPU_RECORD`: the problem
ids, the timing in microseconds with ``qpu_access_time``, the parameters sent, the embedding's
figures, the ranges, the chain strength and the chain breaks).

The options of a call (:data:`QPU_OPTIONS`, the keys of :attr:`QpuCall.options`) are checked by
:func:`check_qpu_options` against a solver's properties before anything is embedded or sent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._util.plain import json_safe
from ..errors import MissingDependency, QpuParameterError, SolverError
from ..model.qubo import Qubo
from ..samples import SampleBatch, samples_from
from . import cache
from .embedding import Step, check_search_options, load_embedding, no_step, topology_of_embedding
from .mock import QpuEmulator, estimated_timing
from .parameters import known_solver_names, solver_parameters, solver_properties, topology_of_solver
from .physical import (logical_ising_bqm, parse_chain_strength, read_chain_strengths, resolve_chain_strength,
                       torque_prefactor)
from .ranges import fit_ranges
from .topology import Topology, parse_topology
from .unembed import qpu_summary

__all__ = ["QPU_OPTIONS", "QPU_RECORD", "SEARCH_KEYS", "QpuAnswer", "QpuCall", "check_dwave_model",
           "check_mock_model", "check_mock_options", "check_qpu_options", "chain_break_report", "mock_topology",
           "sample_dwave", "sample_mock"]

#: the options only the QPU samplers take (key -> its ``solve`` option)
QPU_OPTIONS = {"topology": "--topology", "embedding": "--embedding", "chain_strength": "--chain-strength",
               "chain_strengths": "--chain-strengths", "solver": "--solver", "annealing_time": "--annealing-time",
               "anneal_schedule": "--anneal-schedule", "reinitialize_state": "--reinitialize-state",
               "num_spin_reversal_transforms": "--num-spin-reversal-transforms",
               "readout_thermalization": "--readout-thermalization",
               "programming_thermalization": "--programming-thermalization", "auto_scale": "--auto-scale",
               "answer_mode": "--answer-mode", "chainlength_patience": "--chainlength-patience",
               "threads": "--threads", "clique": "--clique"}
#: the embedding search's keys among them (:func:`nonoqubo.qpu.embedding.check_search_options`)
SEARCH_KEYS = ("chainlength_patience", "threads", "clique")
#: where a run record keeps what the QPU (or the mock) returned: ``info["nonoqubo"]["sampler_reported"]["qpu"]``
QPU_RECORD = "qpu"


@dataclass(frozen=True)
class QpuCall:
    """What one QPU (or mock) call is asked.

    Attributes:
        reads: the reads in all (split evenly among the spin-reversal transforms' problems).
        seed: the mock's annealing seed, the transforms' seed and the embedding search's (1 when None).
        sweeps: the mock's sweeps per read (None: as many as the annealing time stands for).
        options: the QPU options (:data:`QPU_OPTIONS`); None values count as not given.
        states: reverse annealing's logical starting states (0/1, the model's variable order;
            the first row is sent), or None for a forward anneal.
        step: ``step(message)``, a context manager around an embedding search (a status line).
    """

    reads: int
    seed: int | None = None
    sweeps: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    states: np.ndarray | None = field(default=None, compare=False, repr=False)
    step: Step | None = field(default=None, compare=False, repr=False)


@dataclass
class QpuAnswer:
    """The samples of a QPU call, and what it reported: ``{QPU_RECORD: the call's record, ...}``, which a run
    record keeps as its ``sampler_reported``."""

    batch: SampleBatch
    reported: dict[str, Any]


def _system() -> Any:
    try:
        import dwave.system as system
    except ImportError:
        raise MissingDependency("dwave-system", "dwave", "the QPU samplers (mock-dwave, dwave)") from None
    return system


def check_qpu_options(qpu: Mapping[str, Any], reads: int, properties: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The solver keywords of *qpu* checked against *properties* (default: an Advantage's), and the
    embedding search's and chain strengths' options checked: one line for the first bad one.

    Raises:
        QpuParameterError: a parameter the properties forbid (:mod:`nonoqubo.qpu.parameters`).
        EmbeddingError: a bad ``--threads``, ``--chainlength-patience``.
        PhysicalError: a bad ``--chain-strength``.
    """
    if qpu.get("chain_strength") is not None:
        parse_chain_strength(qpu["chain_strength"])
    check_search_options({k: qpu.get(k) for k in SEARCH_KEYS})
    if qpu.get("solver") is not None and qpu.get("topology") is None and topology_of_solver(qpu["solver"]) is None \
            and properties is None:
        raise QpuParameterError(f"--solver {str(qpu['solver'])[:60]!r}: not a QPU name nonoqubo knows the graph of "
                                f"({known_solver_names()}); give --topology too (a properties JSON of that QPU)")
    return solver_parameters(qpu, solver_properties(properties), reads)


def mock_topology(qpu: Mapping[str, Any]) -> Topology:
    """The topology of ``mock-dwave``: ``--topology``, else the ``--solver``'s graph, else the ``--embedding``'s."""
    if qpu.get("topology"):
        return parse_topology(str(qpu["topology"]))
    if qpu.get("solver"):
        return parse_topology(str(qpu["solver"]), "--solver")
    return topology_of_embedding(load_embedding(qpu["embedding"]))


def _mock_properties(topology: Topology) -> dict[str, Any]:
    """The properties the mock imitates: the topology's, with its h and J ranges."""
    ranges = {k: list(v) for k, v in (("h_range", topology.h_range), ("j_range", topology.j_range)) if v}
    return solver_properties({**topology.properties, **ranges})


def check_mock_options(qpu: Mapping[str, Any], reads: int, warm: bool) -> None:
    """``mock-dwave``'s parameters against the properties of the ``--topology`` or ``--solver`` it imitates,
    before any model is read (with only an ``--embedding``, its topology is read with the model:
    :func:`check_mock_model`).  *warm*: a warm start (reverse annealing) is given."""
    if qpu.get("topology") or qpu.get("solver"):
        topology = parse_topology(str(qpu.get("topology") or qpu["solver"]),
                                  "--topology" if qpu.get("topology") else "--solver")
        warm = warm or qpu.get("initial_states") is not None
        check_qpu_options({**qpu, "initial_states": True if warm else None}, reads, _mock_properties(topology))


def check_mock_model(qubo: Qubo, call: QpuCall) -> None:
    """``mock-dwave``'s checks before sampling: its parameters against the properties of its solver (the
    topology's, the ``--solver``'s or the embedding's), with the warm start as given, and an ``embedding``
    file for *qubo* on that topology.  Nothing is embedded or sampled."""
    topology = mock_topology(call.options)
    warm = True if call.states is not None or call.options.get("initial_states") is not None else None
    check_qpu_options({**call.options, "initial_states": warm}, call.reads, _mock_properties(topology))
    if call.options.get("embedding"):
        load_embedding(call.options["embedding"], qubo=qubo, topology=topology)


def check_dwave_model(qubo: Qubo, call: QpuCall) -> None:
    """``dwave``'s checks before it connects: the ``embedding`` file is for *qubo* (the QPU's graph, and
    the parameters against its properties, are checked once it answers, before anything is sampled)."""
    if call.options.get("embedding"):
        load_embedding(call.options["embedding"], qubo=qubo)


def _embedding_for(qubo: Qubo, topology: Topology, call: QpuCall) -> tuple[Any, dict]:
    """The embedding of *qubo* on *topology*: the embedding file (checked), else the cache's or a new one."""
    qpu = call.options
    if qpu.get("embedding"):
        emb = load_embedding(qpu["embedding"], qubo=qubo, topology=topology)
        return emb, {"from": str(qpu["embedding"]), **emb.figures}
    found = cache.embed(qubo, topology, seed=1 if call.seed is None else call.seed, tries=1,
                        presolved=bool(qubo.fixed), step=call.step or no_step,
                        search={k: qpu.get(k) for k in SEARCH_KEYS})
    if found.embedding is None:
        raise SolverError(f"no embedding of this model ({qubo.num_vars} variables, {qubo.num_quadratic} couplings) "
                          f"was found on {topology.spec}; try 'nonoqubo embed --tries N --timeout S', a larger "
                          "topology, or --presolve")
    return found.embedding, {"from": "cache" if found.cached else "minorminer (now cached)", **found.embedding.figures}


def _recorder(child: Any) -> Any:
    """A pass-through structured sampler over *child* that keeps the ``info`` of every problem it answers
    (one per spin-reversal transform), in its ``infos`` list."""
    import dimod

    class Recorder(dimod.Sampler, dimod.Structured):
        def __init__(self) -> None:
            self.infos: list[dict[str, Any]] = []

        @property
        def parameters(self) -> Any:
            return child.parameters

        @property
        def properties(self) -> Any:
            return child.properties

        @property
        def nodelist(self) -> Any:
            return child.nodelist

        @property
        def edgelist(self) -> Any:
            return child.edgelist

        def sample(self, bqm: Any, **kwargs: Any) -> Any:
            result = child.sample(bqm, **kwargs)
            result.resolve()
            self.infos.append(dict(result.info))
            return result

    return Recorder()


def _initial_state(call: QpuCall, qubo: Qubo) -> dict[str, int] | None:
    """Reverse annealing's logical starting state as ``{label: spin}`` (the first row of the states), or None."""
    states = call.options.get("initial_states")
    if states is None:
        states = call.states
    if states is None:
        return None
    bits = np.atleast_2d(np.asarray(states))
    if bits.shape[1] != qubo.num_vars:
        raise QpuParameterError(f"--initial-states: {bits.shape[1]} values a state, the model sampled has "
                                f"{qubo.num_vars} variables")
    return {label: int(2 * b - 1) for label, b in zip(qubo.labels, bits[0].tolist())}


def _sample(child: Any, qubo: Qubo, call: QpuCall, tick: Callable[[int, float], None], topology: Topology,
            name: str, properties: Mapping[str, Any], *, estimated: bool, **kwargs: Any) -> QpuAnswer:
    """FixedEmbeddingComposite(*child*) on *qubo*'s Ising form; the answer carries info and chain breaks.

    *estimated*: the child is the mock, whose QPU timing is estimated from the parameters, not measured.
    """
    system = _system()
    qpu = dict(call.options)
    initial = _initial_state(call, qubo)
    params = check_qpu_options({**qpu, "initial_states": None if initial is None else True}, call.reads, properties)
    emb, figures = _embedding_for(qubo, topology, call)
    bqm = logical_ising_bqm(qubo)
    rule = parse_chain_strength(qpu.get("chain_strength") or "uniform-torque")
    strength = resolve_chain_strength(rule, bqm)
    per_chain: float | dict[str, float] = strength
    if qpu.get("chain_strengths"):
        per_chain = {label: strength for label in qubo.labels}
        per_chain.update(read_chain_strengths(str(qpu["chain_strengths"]), qubo.labels))
    auto_scale = params.get("auto_scale", True)
    fit = fit_ranges(bqm, emb.chains, topology.graph.edges(), per_chain, properties, auto_scale=auto_scale)
    scale = 1.0 if auto_scale else fit["scale"]
    sent = bqm if auto_scale else bqm.copy()
    if not auto_scale:  # nonoqubo scales the problem into the ranges; the QPU takes it as it is
        sent.scale(scale)
        per_chain = {k: v * scale for k, v in per_chain.items()} if isinstance(per_chain, dict) else per_chain * scale
    recorder = _recorder(child)
    transforms = int(qpu.get("num_spin_reversal_transforms") or 0)
    sampler: Any = recorder
    reads = call.reads
    if transforms:
        try:
            from dwave.preprocessing import SpinReversalTransformComposite
        except ImportError:
            raise MissingDependency("dwave-preprocessing", "dwave", "--num-spin-reversal-transforms") from None
        sampler = SpinReversalTransformComposite(recorder, seed=call.seed)
        kwargs["num_spin_reversal_transforms"] = transforms
        reads = call.reads // transforms
    if initial is not None:
        kwargs["initial_state"] = initial
    kwargs.update({k: v for k, v in params.items() if k != "auto_scale"})
    kwargs.setdefault("answer_mode", "raw")
    composite = system.FixedEmbeddingComposite(sampler, embedding=emb.as_dict())
    try:
        result = composite.sample(sent, chain_strength=per_chain, num_reads=reads, return_embedding=True,
                                  auto_scale=auto_scale, **kwargs)
        result.resolve()
    except (SolverError, MissingDependency):
        raise
    except Exception as exc:  # the cloud client's and the solver's errors: one line
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SolverError(f"the {name} sampler failed: {type(exc).__name__}: {message}") from None
    if scale != 1.0:
        result.record.energy[:] = result.record.energy / scale
    tick(call.reads, float(result.record.energy.min()))
    info = json_safe(result.info)
    info["nonoqubo_qpu"] = {"sampler": name, "topology": topology.describe(), "embedding": figures,
                            "chain_strength": {"rule": rule if isinstance(rule, str) else "number",
                                               "value": strength, "per_chain_file": qpu.get("chain_strengths"),
                                               "uniform_torque_prefactor": torque_prefactor(rule)}}
    batch = samples_from(result, qubo.labels, spin=True, source=f"{name} sampler ({topology.spec})")
    batch.extra["sampleset_info"] = info
    fractions = np.asarray(result.record.chain_break_fraction, np.float64)
    vectors: dict[str, Any] = {"chain_break_fraction": fractions}
    if params.get("answer_mode") == "histogram":
        vectors["num_occurrences"] = np.asarray(result.record.num_occurrences, np.int64)
    batch.extra["sampleset_vectors"] = vectors
    record = _qpu_record(name, recorder.infos, params, properties, call, transforms, fit, figures, info, fractions,
                         getattr(child, "substitute_sampler", None), estimated)
    return QpuAnswer(batch, {QPU_RECORD: record})


def _qpu_record(name: str, infos: list[dict[str, Any]], params: Mapping[str, Any], properties: Mapping[str, Any],
                call: QpuCall, transforms: int, fit: Mapping[str, Any], figures: Mapping[str, Any],
                info: Mapping[str, Any], fractions: np.ndarray, emulator: Any, estimated: bool) -> dict[str, Any]:
    """What a run record keeps of a QPU call (:data:`QPU_RECORD`; the module docstring)."""
    problems = len(infos) or 1
    if estimated:
        timing: dict[str, Any] = estimated_timing(params, properties, call.reads // max(transforms, 1), problems)
        source = ("estimated: D-Wave's timing structure with dwave-system's mock figures and the parameters "
                  "given (nonoqubo.qpu.mock.estimated_timing), not a measurement")
    else:
        timing = {}
        for one in infos:  # every problem of the call (one per spin-reversal transform): summed
            for key, value in (one.get("timing") or {}).items():
                if isinstance(value, (int, float)):
                    timing[key] = timing.get(key, 0.0) + float(value) if "per_sample" not in key else float(value)
        timing["problems"] = problems
        source = "the QPU (SAPI's timing, microseconds)"
    context = info.get("embedding_context") or {}
    out = {
        "solver": properties.get("chip_id") or call.options.get("solver") or name,
        "problem_ids": [str(one.get("problem_id")) for one in infos if one.get("problem_id") is not None],
        "timing": json_safe(timing), "timing_source": source, "timing_unit": "microseconds",
        "parameters": json_safe(dict(params)), "num_spin_reversal_transforms": transforms,
        "reads_per_problem": call.reads // max(transforms, 1),
        "embedding": json_safe(dict(figures)), "ranges": json_safe(dict(fit)),
        "chain_strength": context.get("chain_strength") if isinstance(context.get("chain_strength"), (int, float))
        else None,
        "chain_break_method": context.get("chain_break_method"),
        "chain_breaks": {"mean": float(fractions.mean()) if fractions.size else 0.0,
                         "max": float(fractions.max()) if fractions.size else 0.0,
                         "reads_with_a_break": int((fractions > 0).sum())},
    }
    out["problem_id"] = out["problem_ids"][0] if out["problem_ids"] else None
    if emulator is not None and getattr(emulator, "translated", None):
        out["mock_annealer"] = json_safe(emulator.translated)
    return out


def sample_mock(qubo: Qubo, call: QpuCall, tick: Callable[[int, float], None]) -> QpuAnswer:
    """``mock-dwave``: FixedEmbeddingComposite over MockDWaveSampler (simulated annealing) on the topology.

    Its report adds ``num_sweeps``, the sweeps the emulator ran per read, beside the QPU record.
    """
    _system()
    try:
        import dwave.samplers  # noqa: F401
    except ImportError:
        raise MissingDependency("dwave-samplers", "dwave", "the 'mock-dwave' sampler") from None
    from dwave.system.testing import MockDWaveSampler

    topology = mock_topology(call.options)
    properties = _mock_properties(topology)
    family: str | None = topology.family
    shape = list(topology.shape)
    if family == "file":
        family, shape = topology.file_family, list(topology.file_shape)
        if not family:
            raise SolverError(f"{topology.spec}: the mock sampler needs the QPU's topology type; the properties "
                              "file has no \"topology\": {\"type\", \"shape\"}")
    nodes = sorted(topology.graph.nodes())
    edges = sorted((min(a, b), max(a, b)) for a, b in topology.graph.edges())
    emulator = QpuEmulator(properties, sweeps=call.sweeps, seed=call.seed)
    mock = MockDWaveSampler(nodelist=nodes, edgelist=edges, topology_type=family, topology_shape=shape,
                            substitute_sampler=emulator, parameter_warnings=False)
    mock.properties.update(properties)
    if call.options.get("solver"):
        mock.properties["chip_id"] = str(call.options["solver"])
    answer = _sample(mock, qubo, call, tick, topology, "mock-dwave", properties, estimated=True)
    answer.reported["num_sweeps"] = emulator.translated.get("num_sweeps")
    return answer


def sample_dwave(qubo: Qubo, call: QpuCall, tick: Callable[[int, float], None]) -> QpuAnswer:
    """``dwave``: FixedEmbeddingComposite over ``DWaveSampler()`` (the QPU the Ocean configuration names,
    or the ``solver`` option's)."""
    system = _system()
    solver = call.options.get("solver")
    try:
        qpu = system.DWaveSampler(**({"solver": str(solver)} if solver else {}))
    except Exception as exc:  # no token, no configuration, no solver, no network: the cloud client's errors
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SolverError(f"--sampler dwave: no D-Wave QPU is available{f' named {solver!r}' if solver else ''} "
                          f"({type(exc).__name__}: {message}); "
                          "configure one with 'dwave setup' or DWAVE_API_TOKEN (Ocean's dwave-cloud-client), "
                          "or use --sampler mock-dwave --topology T offline") from None
    props = qpu.properties
    declared = props.get("topology") or {}
    name = getattr(getattr(qpu, "solver", None), "name", "qpu")
    topology = Topology(spec=f"file:{name}", family="file", shape=(), graph=qpu.to_networkx_graph(),
                        h_range=tuple(props["h_range"]) if "h_range" in props else None,
                        j_range=tuple(props["j_range"]) if "j_range" in props else None,
                        file_family=declared.get("type"), file_shape=tuple(declared.get("shape") or ()))
    return _sample(qpu, qubo, call, tick, topology, "dwave", solver_properties(props), estimated=False,
                   label="nonoqubo")


def chain_break_report(batch: SampleBatch, reported: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """The ``"chain_breaks"`` report of a QPU call's batch (None for samples that came through no embedding).

    *reported* is what the call reported (:attr:`QpuAnswer.reported`); its QPU record is summarised as
    ``decode`` shows it.
    """
    vectors = batch.extra.get("sampleset_vectors") or {}
    if "chain_break_fraction" not in vectors:
        return None
    fractions = np.asarray(vectors["chain_break_fraction"], np.float64)
    weights = np.ones(fractions.size) if batch.num_occurrences is None else batch.num_occurrences.astype(np.float64)
    info = batch.extra.get("sampleset_info") or {}
    context = info.get("embedding_context") or {}
    out: dict[str, Any] = {"method": f"{context.get('chain_break_method') or 'majority_vote'} (FixedEmbeddingComposite)",
                           "overall": float((fractions * weights).sum() / weights.sum()) if weights.sum() else 0.0,
                           "per_sample": fractions.tolist()}
    if isinstance(context.get("embedding"), dict):
        out["chains"] = len(context["embedding"])
    if isinstance(context.get("chain_strength"), (int, float)):
        out["chain_strength"] = float(context["chain_strength"])
    record = (reported or {}).get(QPU_RECORD)
    if isinstance(record, Mapping):
        out["qpu"] = qpu_summary(dict(record))
    return out
