"""What ``solve`` and ``embed`` share of the QPU road: minorminer's search options, the files the QPU options read.

The options themselves are defined once, in solve's table (:data:`nonoqubo.solvers.options.OPTIONS`:
the ``qpu`` and ``search`` groups), and added to ``solve`` with the rest of a request's
(``cli/_request``); ``embed`` calls :func:`add_search_options` and :func:`search_options` for the
``search`` group.  :data:`QPU_EXAMPLES` closes ``solve --help``.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..qpu.sampler import SEARCH_KEYS
from ..solvers.options import OPTIONS
from ._common import topology_file
from ._request import add_option

__all__ = ["QPU_EXAMPLES", "add_search_options", "qpu_inputs", "search_options"]

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
    """``--chainlength-patience``, ``--threads``, ``--clique``: minorminer's knobs (cached by them), as solve's
    table defines them (:data:`nonoqubo.solvers.options.OPTIONS`, group ``search``)."""
    for entry in OPTIONS.values():
        if entry.group == "search":
            add_option(parser, entry)


def search_options(args: argparse.Namespace) -> dict[str, Any]:
    """The embedding search's options given (None: not given)."""
    return {key: getattr(args, key) for key in SEARCH_KEYS}


def qpu_inputs(args: argparse.Namespace) -> tuple[str | None, ...]:
    """The files the QPU options read (no output may be written over one)."""
    return (args.embedding, topology_file(args.topology), args.chain_strengths)
