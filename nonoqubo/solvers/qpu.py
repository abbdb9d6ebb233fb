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

from ..errors import MissingDependency, QpuParameterError, SolverError
from ..model.qubo import Qubo
from ..samples import SampleBatch, samples_from
from .base import SAMPLER_INFO, SampleOptions, Tick, json_safe

__all__ = ["QPU_OPTIONS", "QPU_SAMPLERS", "QPU_RECORD", "check_dwave_model", "check_mock_model", "check_qpu_options",
           "qpu_chain_breaks",
           "run_dwave", "run_mock"]

#: the samplers that run through an embedding, and the options only they take (key -> the option's name)
QPU_SAMPLERS = ("mock-dwave", "dwave")
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
#: where the run record keeps what the QPU (or the mock) returned: ``info["nonoqubo"]["sampler_reported"]["qpu"]``
#: (``problem_ids``, ``timing`` in µs with ``qpu_access_time``, ``parameters``, ``chain_breaks``...)
QPU_RECORD = "qpu"
#: also in the QPU options: ``"step"``, ``step(message)`` a context manager around an embedding search (a status line);
#: ``"initial_states"``, reverse annealing's logical state (0/1, the model's variable order; the warm-start library's)


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
    from ..qpu.embedding import check_search_options
    from ..qpu.parameters import solver_parameters, solver_properties, topology_of_solver
    from ..qpu.physical import parse_chain_strength

    if qpu.get("chain_strength") is not None:
        parse_chain_strength(qpu["chain_strength"])
    check_search_options({k: qpu.get(k) for k in SEARCH_KEYS})
    if qpu.get("solver") is not None and qpu.get("topology") is None and topology_of_solver(qpu["solver"]) is None \
            and properties is None:
        from ..qpu.parameters import known_solver_names

        raise QpuParameterError(f"--solver {str(qpu['solver'])[:60]!r}: not a QPU name nonoqubo knows the graph of "
                                f"({known_solver_names()}); give --topology too (a properties JSON of that QPU)")
    return solver_parameters(qpu, solver_properties(properties), reads)


def check_mock_model(qubo: Qubo, opts: SampleOptions) -> None:
    """``mock-dwave``'s checks before sampling: its parameters against the properties of its solver (the
    topology's, the ``--solver``'s or the embedding's), with the warm start (reverse annealing) as given,
    and an ``--embedding`` file for *qubo* on that topology.  Nothing is embedded or sampled."""
    from ..qpu.embedding import load_embedding
    from ..qpu.parameters import solver_properties

    qpu = dict(opts.qpu or {})
    topology = mock_topology(qpu)
    ranges = {k: list(v) for k, v in (("h_range", topology.h_range), ("j_range", topology.j_range)) if v}
    given = (qpu.get("initial_states"), opts.states, opts.initial_states)
    warm = True if any(state is not None for state in given) else None
    check_qpu_options({**qpu, "initial_states": warm}, opts.reads, solver_properties({**topology.properties, **ranges}))
    if qpu.get("embedding"):
        load_embedding(qpu["embedding"], qubo=qubo, topology=topology)


def check_dwave_model(qubo: Qubo, opts: SampleOptions) -> None:
    """``dwave``'s checks before it connects: the ``--embedding`` file is for *qubo* (the QPU's graph, and
    the parameters against its properties, are checked once it answers, before anything is sampled)."""
    from ..qpu.embedding import load_embedding

    if (opts.qpu or {}).get("embedding"):
        load_embedding(opts.qpu["embedding"], qubo=qubo)  # type: ignore[index]


def _embedding_for(qubo: Qubo, topology: Any, qpu: Mapping[str, Any], seed: int | None) -> tuple[Any, dict]:
    """The embedding of *qubo* on *topology*: the --embedding file (checked), else the cache's or a new one."""
    from ..qpu import cache
    from ..qpu.embedding import load_embedding, no_step

    if qpu.get("embedding"):
        emb = load_embedding(qpu["embedding"], qubo=qubo, topology=topology)
        return emb, {"from": str(qpu["embedding"]), **emb.figures}
    found = cache.embed(qubo, topology, seed=1 if seed is None else seed, tries=1, presolved=bool(qubo.fixed),
                        step=qpu.get("step") or no_step, search={k: qpu.get(k) for k in SEARCH_KEYS})
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


def _initial_state(qpu: Mapping[str, Any], opts: SampleOptions, qubo: Qubo) -> dict[str, int] | None:
    """Reverse annealing's logical starting state as ``{label: spin}`` (its first row), or None."""
    states = qpu.get("initial_states")
    if states is None and opts.states is not None:  # matched already (nonoqubo.solvers.sampling.ready_options)
        states = opts.states
    if states is None and getattr(opts, "initial_states", None) is not None:  # solve --initial-states FILE|line
        from .initial import initial_states

        states = initial_states(qubo, str(opts.initial_states), 1, opts.seed)
    if states is None:
        return None
    bits = np.atleast_2d(np.asarray(states))
    if bits.shape[1] != qubo.num_vars:
        raise QpuParameterError(f"--initial-states: {bits.shape[1]} values a state, the model sampled has "
                                f"{qubo.num_vars} variables")
    return {label: int(2 * b - 1) for label, b in zip(qubo.labels, bits[0].tolist())}


def _sample(child: Any, qubo: Qubo, opts: SampleOptions, tick: Tick, topology: Any, name: str,
            properties: Mapping[str, Any], **kwargs: Any) -> SampleBatch:
    """FixedEmbeddingComposite(*child*) on *qubo*'s Ising form; the batch carries info and chain breaks."""
    from ..qpu.physical import (logical_ising_bqm, parse_chain_strength, read_chain_strengths,
                                resolve_chain_strength, torque_prefactor)
    from ..qpu.ranges import fit_ranges

    system = _system()
    qpu = dict(opts.qpu or {})
    initial = _initial_state(qpu, opts, qubo)
    params = check_qpu_options({**qpu, "initial_states": None if initial is None else True}, opts.reads, properties)
    emb, figures = _embedding_for(qubo, topology, qpu, opts.seed)
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
    reads = opts.reads
    if transforms:
        try:
            from dwave.preprocessing import SpinReversalTransformComposite
        except ImportError:
            raise MissingDependency("dwave-preprocessing", "dwave", "--num-spin-reversal-transforms") from None
        sampler = SpinReversalTransformComposite(recorder, seed=opts.seed)
        kwargs["num_spin_reversal_transforms"] = transforms
        reads = opts.reads // transforms
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
    tick(opts.reads, float(result.record.energy.min()))
    info = json_safe(result.info)
    info["nonoqubo_qpu"] = {"sampler": name, "topology": topology.describe(), "embedding": figures,
                            "chain_strength": {"rule": rule if isinstance(rule, str) else "number",
                                               "value": strength, "per_chain_file": qpu.get("chain_strengths"),
                                               "uniform_torque_prefactor": torque_prefactor(rule)}}
    # mock-dwave's "timing" is dwave-system's fixed demonstration figures: the run record's one
    # seconds_per_run (the wall clock of the call / reads, run_record) is its time, and evaluate reads that
    batch = samples_from(result, qubo.labels, spin=True, source=f"{name} sampler ({topology.spec})")
    batch.extra["sampleset_info"] = info
    fractions = np.asarray(result.record.chain_break_fraction, np.float64)
    vectors: dict[str, Any] = {"chain_break_fraction": fractions}
    if params.get("answer_mode") == "histogram":
        vectors["num_occurrences"] = np.asarray(result.record.num_occurrences, np.int64)
    batch.extra["sampleset_vectors"] = vectors
    record = _qpu_record(name, recorder.infos, params, properties, opts, transforms, fit, figures, info, fractions,
                         getattr(child, "substitute_sampler", None))
    batch.extra.setdefault(SAMPLER_INFO, {})[QPU_RECORD] = record
    return batch


def _qpu_record(name: str, infos: list[dict[str, Any]], params: Mapping[str, Any], properties: Mapping[str, Any],
                opts: SampleOptions, transforms: int, fit: Mapping[str, Any], figures: Mapping[str, Any],
                info: Mapping[str, Any], fractions: np.ndarray, emulator: Any) -> dict[str, Any]:
    """What the run record keeps of a QPU call (:data:`QPU_RECORD`; the module docstring)."""
    from ..qpu.mock import estimated_timing

    problems = len(infos) or 1
    if name == "mock-dwave":
        timing: dict[str, Any] = estimated_timing(params, properties, opts.reads // max(transforms, 1), problems)
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
        "solver": properties.get("chip_id") or (opts.qpu or {}).get("solver") or name,
        "problem_ids": [str(one.get("problem_id")) for one in infos if one.get("problem_id") is not None],
        "timing": json_safe(timing), "timing_source": source, "timing_unit": "microseconds",
        "parameters": json_safe(dict(params)), "num_spin_reversal_transforms": transforms,
        "reads_per_problem": opts.reads // max(transforms, 1),
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


def mock_topology(qpu: Mapping[str, Any]) -> Any:
    """The topology of ``mock-dwave``: ``--topology``, else the ``--solver``'s graph, else the ``--embedding``'s."""
    from ..qpu.embedding import load_embedding, topology_of_embedding
    from ..qpu.topology import parse_topology

    if qpu.get("topology"):
        return parse_topology(str(qpu["topology"]))
    if qpu.get("solver"):
        return parse_topology(str(qpu["solver"]), "--solver")
    return topology_of_embedding(load_embedding(qpu["embedding"]))


def run_mock(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
    """``mock-dwave``: FixedEmbeddingComposite over MockDWaveSampler (simulated annealing) on the topology."""
    _system()
    try:
        import dwave.samplers  # noqa: F401
    except ImportError:
        raise MissingDependency("dwave-samplers", "dwave", "the 'mock-dwave' sampler") from None
    from dwave.system.testing import MockDWaveSampler

    from ..qpu.mock import QpuEmulator
    from ..qpu.parameters import solver_properties

    qpu = opts.qpu or {}
    topology = mock_topology(qpu)
    ranges = {k: list(v) for k, v in (("h_range", topology.h_range), ("j_range", topology.j_range)) if v}
    properties = solver_properties({**topology.properties, **ranges})
    family, shape = topology.family, list(topology.shape)
    if family == "file":
        family, shape = topology.file_family, list(topology.file_shape)
        if not family:
            raise SolverError(f"{topology.spec}: the mock sampler needs the QPU's topology type; the properties "
                              "file has no \"topology\": {\"type\", \"shape\"}")
    nodes = sorted(topology.graph.nodes())
    edges = sorted((min(a, b), max(a, b)) for a, b in topology.graph.edges())
    emulator = QpuEmulator(properties, sweeps=opts.sweeps, seed=opts.seed)
    mock = MockDWaveSampler(nodelist=nodes, edgelist=edges, topology_type=family, topology_shape=shape,
                            substitute_sampler=emulator, parameter_warnings=False)
    mock.properties.update(properties)
    if qpu.get("solver"):
        mock.properties["chip_id"] = str(qpu["solver"])
    batch = _sample(mock, qubo, opts, tick, topology, "mock-dwave", properties)
    batch.extra[SAMPLER_INFO]["num_sweeps"] = emulator.translated.get("num_sweeps")  # the sweeps run, in the record
    return batch


def run_dwave(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
    """``dwave``: FixedEmbeddingComposite over ``DWaveSampler()`` (the QPU the Ocean configuration names,
    or ``--solver NAME``)."""
    system = _system()
    from ..qpu.parameters import solver_properties
    from ..qpu.topology import Topology

    solver = (opts.qpu or {}).get("solver")
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
    properties = solver_properties(props)
    return _sample(qpu, qubo, opts, tick, topology, "dwave", properties, label="nonoqubo")


def qpu_chain_breaks(batch: SampleBatch) -> dict[str, Any] | None:
    """The ``"chain_breaks"`` report of a QPU sampler's batch (None for the other samplers)."""
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
    record = (batch.extra.get(SAMPLER_INFO) or {}).get(QPU_RECORD)
    if isinstance(record, dict):
        from ..qpu.unembed import qpu_summary

        out["qpu"] = qpu_summary(record)
    return out
