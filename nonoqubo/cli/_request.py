"""The options of a solve on the command line: added from the library's one table, read into one request.

Every option of a solve is defined once, in :data:`nonoqubo.solvers.options.OPTIONS` (its name,
its kind of value, its metavar and help, its ``--help`` group); :func:`add_request_options` adds
the entries of some groups to a parser as argparse options (a ``whole`` option with ``type=int``,
a ``choice`` with its choices, a negatable ``switch`` as ``--X/--no-X``...), and
:func:`given_options` reads them back as ``{option name: value}`` of the options given, which
:meth:`nonoqubo.solvers.request.SolveRequest.from_options` makes the request of (so a sweep's
setting and a campaign plan's setting, which name options the same way, make theirs the same way).
``presolve``, ``encoding`` and ``weights`` are added by the groups several commands share
(``cli/_common``) and read here with the rest.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any

from ..solvers.options import CLI_GROUPS, KIND_TYPES, OPTIONS, SolveOption
from ..solvers.request import SolveRequest
from ..solvers.samplers import SAMPLERS
from ._options import CLI_OPTIONS, add
from ._parser import TwoWords

__all__ = ["add_option", "add_request_options", "dest_of", "given_options", "request_of_args"]


def dest_of(entry: SolveOption) -> str:
    """The argparse attribute an option's value lands in (``beta-range`` -> ``beta_range``)."""
    return entry.name.replace("-", "_")


def add_option(target: argparse.ArgumentParser | argparse._ArgumentGroup, entry: SolveOption) -> None:
    """One table entry as an argparse option of *target*.

    An option other commands take too (``--topology``, ``--embedding``, ``--chain-strength``) is added
    through the CLI's one definition of it (:func:`nonoqubo.cli._options.add`), the entry's help its detail.
    """
    if entry.name in CLI_OPTIONS:
        add(target, entry.name)
        return
    if entry.kind == "switch":
        action: Any = argparse.BooleanOptionalAction if entry.negatable else "store_true"
        target.add_argument(entry.flag, action=action, default=None, help=entry.help_text)
        return
    keywords: dict[str, Any] = {"default": entry.default, "help": entry.help_text}  # with its bound, if any
    if entry.metavar:
        keywords["metavar"] = entry.metavar
    if entry.kind in KIND_TYPES:
        keywords["type"] = KIND_TYPES[entry.kind]
    if entry.kind == "choice":
        keywords["choices"] = entry.choices or (SAMPLERS if entry.name == "sampler" else None)
    if entry.two_words:  # --beta-schedule custom FILE: the option reads its second word itself
        keywords.update(action=TwoWords, first=entry.two_words)
    target.add_argument(entry.flag, **keywords)


def add_request_options(parser: argparse.ArgumentParser, groups: Iterable[str]) -> None:
    """The table's options of *groups* (keys of :data:`~nonoqubo.solvers.options.CLI_GROUPS`), each group
    as ``solve --help`` shows it (``"sampling"`` on the parser itself, the others as titled groups)."""
    for group in groups:
        target = parser if not CLI_GROUPS[group] else parser.add_argument_group(CLI_GROUPS[group])
        for entry in OPTIONS.values():
            if entry.group == group:
                add_option(target, entry)


def given_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options of a solve that *args* holds, as ``{option name: value}`` (None: not given).

    ``--presolve`` reads as ``"line"``/``"probe"`` (or None); an option the command has no argument for is
    left out.
    """
    out: dict[str, Any] = {}
    for name, entry in OPTIONS.items():
        if name == "presolve":
            if hasattr(args, "presolve"):
                out[name] = (getattr(args, "presolve_method", None) or "line") if args.presolve else None
            continue
        if hasattr(args, dest_of(entry)):
            out[name] = getattr(args, dest_of(entry))
    return out


def request_of_args(args: argparse.Namespace, **changed: Any) -> SolveRequest:
    """The checked request of *args*'s options, with *changed* (option name -> value) put over them.

    Raises:
        SolverError, UnknownEncoding, WeightsError, QpuParameterError...: the first bad value, in one line,
            before anything is read.
    """
    return SolveRequest.from_options({**given_options(args), **changed}).check()
