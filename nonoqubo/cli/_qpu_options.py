"""The QPU options of ``solve`` (and the embedding search's of ``embed``): one group each, read into one dict.

``solve`` calls :func:`add_qpu_options` and :func:`qpu_options`; ``embed`` calls
:func:`add_search_options` and :func:`search_options`.  The values go to the library as they are
(:data:`nonoqubo.solvers.qpu.QPU_OPTIONS` names every key); ``mock-dwave``'s are checked here
against its solver's properties, before the puzzle is read (``dwave``'s once the QPU's
properties are known, before any embedding).
"""

from __future__ import annotations

import argparse
from typing import Any

from ..qpu.parameters import ANSWER_MODES
from ._common import add_chain_strength_argument, topology_file

__all__ = ["add_qpu_options", "add_search_options", "qpu_options", "search_options"]

#: the option group's epilogue lines for ``solve --help``
QPU_EXAMPLES = """\
QPU parameters (mock-dwave checks them against its solver's properties, dwave against the QPU's):
  nonoqubo solve p.non --sampler mock-dwave --solver Advantage_system4.1 --annealing-time 100
  nonoqubo solve p.non --sampler mock-dwave --topology advantage2 --anneal-schedule "0,0 10,0.4 60,0.4 70,1"
  nonoqubo solve p.non --sampler mock-dwave --topology pegasus:6 --num-spin-reversal-transforms 5 --reads 50
  nonoqubo solve p.non --sampler mock-dwave --topology qpu-properties.json --no-auto-scale
  nonoqubo solve p.non --sampler dwave --solver Advantage2_system1.6 --chain-strength uniform-torque:2
"""


def add_search_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--chainlength-patience``, ``--threads``, ``--clique``: minorminer's knobs (cached by them)."""
    parser.add_argument("--chainlength-patience", type=int, default=None, metavar="N",
                        help="minorminer: rounds without a shorter chain before it stops improving (its default 10)")
    parser.add_argument("--threads", type=int, default=None, metavar="N",
                        help="minorminer: threads of one search (default 1)")
    parser.add_argument("--clique", action="store_true", default=None,
                        help="a clique embedding (minorminer.busclique): chains for a complete graph on the "
                             "model's variables, in one quick deterministic pass; Pegasus and Zephyr only; "
                             "longer chains than a search's")


def search_options(args: argparse.Namespace) -> dict[str, Any]:
    """The embedding search's options given (None: not given)."""
    return {"chainlength_patience": args.chainlength_patience, "threads": args.threads, "clique": args.clique}


def add_qpu_options(parser: argparse.ArgumentParser) -> None:
    """The option group "QPU samplers (mock-dwave, dwave)" of ``solve``."""
    qpu = parser.add_argument_group("QPU samplers (mock-dwave, dwave)")
    qpu.add_argument("--topology", metavar="T",
                     help="mock-dwave: the QPU graph (chimera:M[,N,T], pegasus:M, zephyr:M[,T], a QPU's name: "
                          "Advantage_system4.1, Advantage2_system1.6, advantage, advantage2; or a QPU's properties "
                          "JSON, whose ranges the parameters are checked against); default the --solver's graph, "
                          "else the --embedding's")
    qpu.add_argument("--embedding", metavar="EMB.json",
                     help="the chains to use ('nonoqubo embed'; for the presolved model with --presolve); default "
                          "found by minorminer and cached (as 'nonoqubo embed' caches)")
    add_chain_strength_argument(qpu)
    qpu.add_argument("--chain-strengths", metavar="FILE.json",
                     help="per-chain strengths, {\"<variable label>\": strength} in logical units; the variables "
                          "it does not name keep --chain-strength's")
    qpu.add_argument("--solver", metavar="NAME",
                     help="dwave: the QPU to use (DWaveSampler(solver=NAME)); mock-dwave: the QPU to imitate "
                          "(its graph, when there is no --topology)")
    qpu.add_argument("--annealing-time", type=float, metavar="US",
                     help="microseconds per anneal, within the solver's annealing_time_range (Advantage: 0.5 to "
                          "2000; default 20); mock-dwave: 50 SA sweeps per microsecond")
    qpu.add_argument("--anneal-schedule", metavar="SCHEDULE",
                     help="t,s points ('0,0 10,0.5 30,0.5 40,1') or a file of them: forward from s=0, or "
                          "reverse from s=1 (with --initial-states); ends at s=1, t increasing, at most "
                          "max_anneal_schedule_points (12)")
    qpu.add_argument("--reinitialize-state", action=argparse.BooleanOptionalAction, default=None,
                     help="reverse annealing: start every read from the initial state (the QPU's default), or "
                          "each from the previous read's answer")
    qpu.add_argument("--num-spin-reversal-transforms", type=int, metavar="N",
                     help="gauge transforms; the reads are split evenly among N problems (--reads a multiple of N)")
    qpu.add_argument("--readout-thermalization", type=float, metavar="US",
                     help="microseconds waited after each read (the solver's readout_thermalization_range)")
    qpu.add_argument("--programming-thermalization", type=float, metavar="US",
                     help="microseconds waited after programming (the solver's programming_thermalization_range)")
    qpu.add_argument("--auto-scale", action=argparse.BooleanOptionalAction, default=None,
                     help="the QPU scales h and J into h_range and j_range (the default); --no-auto-scale: "
                          "nonoqubo scales them, chains into extended_j_range, every qubit's couplings into "
                          "per_qubit_coupling_range")
    qpu.add_argument("--answer-mode", choices=ANSWER_MODES, default=None,
                     help="raw: every read (the default); histogram: distinct answers with their counts")
    add_search_options(parser.add_argument_group("embedding search (mock-dwave, dwave, without --embedding)"))


def qpu_options(args: argparse.Namespace) -> dict[str, Any]:
    """The QPU options of *args* as the ``qpu`` dict, ``mock-dwave``'s checked against its solver's properties.

    Raises:
        QpuParameterError, TopologyError, EmbeddingError, PhysicalError: one line for the first bad value.
    """
    qpu: dict[str, Any] = {
        "topology": args.topology, "embedding": args.embedding, "chain_strength": args.chain_strength,
        "chain_strengths": args.chain_strengths, "solver": args.solver, "annealing_time": args.annealing_time,
        "anneal_schedule": args.anneal_schedule, "reinitialize_state": args.reinitialize_state,
        "num_spin_reversal_transforms": args.num_spin_reversal_transforms,
        "readout_thermalization": args.readout_thermalization,
        "programming_thermalization": args.programming_thermalization, "auto_scale": args.auto_scale,
        "answer_mode": args.answer_mode, **search_options(args)}
    if getattr(args, "sampler", None) == "mock-dwave" and (args.topology or args.solver):
        from ..qpu.parameters import solver_properties
        from ..qpu.topology import parse_topology
        from ..solvers.qpu import check_qpu_options

        topology = parse_topology(args.topology or args.solver, "--topology" if args.topology else "--solver")
        ranges = {k: list(v) for k, v in (("h_range", topology.h_range), ("j_range", topology.j_range)) if v}
        warm = getattr(args, "initial_states", None)
        check_qpu_options({**qpu, "initial_states": warm}, args.reads,
                          solver_properties({**topology.properties, **ranges}))
    return qpu


def qpu_inputs(args: argparse.Namespace) -> tuple[str | None, ...]:
    """The files the QPU options read (no output may be written over one)."""
    return (args.embedding, topology_file(args.topology), args.chain_strengths)
