"""The options several commands take, each defined once: its names, its value, its one meaning.

``--quiet`` means "print less" in every command, ``--json`` "print JSON", ``--jobs`` "worker
processes": :data:`CLI_OPTIONS` holds each such option once (its flags, its argparse settings and
the words of its meaning), and every command adds it with :func:`add`, giving only what the option
does *there* (the *detail*: which lines ``--quiet`` silences, which document ``--json`` prints) and
its usage (a metavar, whether it is required, whether it repeats).  The help reads
``MEANING: DETAIL`` (or ``MEANING (DETAIL)``), so ``--help`` still teaches what the command does with it, and
``tests/cli/test_options.py`` parses every command's parser and fails for an option string that
two commands define with another meaning, type or default, or for one added outside this table.

Three of the options are a solve's too (:data:`nonoqubo.solvers.options.OPTIONS`: ``--topology``,
``--embedding``, ``--chain-strength``): their value (metavar, kind) is the solve table's, their
meaning this table's, and ``solve`` adds them through :func:`add` with the solve table's help as
the detail (``cli/_request``).  ``--presolve``, ``--encoding`` and ``--weights`` are added by their
own helpers in ``cli/_common`` (one definition each).

One name, one meaning: ``--seed`` is a solve's random seed (``solve``, a plan's ``seed``).  The
embedding search's seed is ``--embed-seed`` (``embed``, ``info --topology``, ``suite --embed``) and
the seed of ``decode --chain-break weighted`` is ``--chain-break-seed``; the ``--seed`` that
``embed`` and ``decode`` took before is a deprecated alias (:func:`add_deprecated`): it still works,
says its new name on standard error, and ``--help`` no longer shows it.

Examples:
    >>> import argparse
    >>> parser = argparse.ArgumentParser(prog="demo")
    >>> _ = add(parser, "quiet", "no progress bar")
    >>> _ = add(parser, "jobs")
    >>> parser.parse_args(["-q", "-j", "2"])
    Namespace(quiet=True, jobs=2)
    >>> CLI_OPTIONS["quiet"].help("no progress bar")
    'print less: no progress bar'
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._util.jobs import MOST_JOBS

__all__ = ["CLI_OPTIONS", "CliOption", "Deprecated", "add", "add_deprecated"]


@dataclass(frozen=True)
class CliOption:
    """One option of several commands.

    Attributes:
        flags: its names (``("-q", "--quiet")``).
        meaning: what it means in every command: the first words of its help.
        settings: its argparse settings (``action``, ``type``, ``default``, ``metavar``...), the same in
            every command.
        detail: the words after the meaning when a command gives none.
        solve: the name of the solve option it is (:data:`nonoqubo.solvers.options.OPTIONS`), whose
            metavar it takes and whose help is ``solve``'s detail; ``""`` for none.
    """

    flags: tuple[str, ...]
    meaning: str
    settings: Mapping[str, Any] = field(default_factory=dict)
    detail: str = ""
    solve: str = ""

    def help(self, detail: str | None = None) -> str:
        """``MEANING: DETAIL``, or ``MEANING (DETAIL)`` for a detail in brackets (*detail* None:
        :attr:`detail`; empty: the meaning alone)."""
        words = self.detail if detail is None else detail
        return f"{self.meaning}{' ' if words.startswith('(') else ': '}{words}" if words else self.meaning

    def argparse_settings(self) -> dict[str, Any]:
        """:attr:`settings`, with the solve option's metavar where it is one."""
        settings = dict(self.settings)
        if self.solve:
            from ..solvers.options import OPTIONS

            settings.setdefault("metavar", OPTIONS[self.solve].metavar)
        return settings


#: the options several commands take, by name; a command adds one with :func:`add`
CLI_OPTIONS: dict[str, CliOption] = {
    "quiet": CliOption(("-q", "--quiet"), "print less", {"action": "store_true"}),
    "json": CliOption(("--json",), "print JSON instead of text", {"action": "store_true"}),
    "output": CliOption(("-o", "--output"), "where to write", {"default": None}),
    "format": CliOption(("-f", "--format"), "the export format (see 'nonoqubo formats')",
                        {"action": "append", "metavar": "FORMAT"}),
    # its bound (1 to _util.jobs.MOST_JOBS) is checked by _util.jobs.workers before any work, in one line
    # (an argparse type would print the usage too)
    "jobs": CliOption(("-j", "--jobs"), f"worker processes, at least 1 and at most {MOST_JOBS:,}",
                      {"type": int, "default": None, "metavar": "N"}, detail="(default: every CPU)"),
    "samples-format": CliOption(("--samples-format",), "the samples' format, when the content does not tell",
                                {"metavar": "FORMAT"}),
    "chain-break": CliOption(("--chain-break",), "how a broken chain (qubits that disagree) gives its variable's value",
                             {"metavar": "METHOD", "default": None}),
    "encoding": CliOption(("--encoding",), "the encoding of the block shifts", {"default": None, "metavar": "NAME"}),
    "weights": CliOption(("--weights",), "positive integer penalty weights: energy = A*shape + B*order + C*cells "
                         "(default 1 each)", {"default": None, "metavar": "shape=A,order=B,cell=C"}),
    "topology": CliOption(("--topology", "-t"), "a QPU topology: pegasus:M, zephyr:M[,T], chimera:M[,N[,T]], a QPU's "
                          "name (Advantage_system4.1, advantage2...) or its properties .json", {"default": None},
                          solve="topology"),
    "embedding": CliOption(("--embedding",), "an embedding file ('nonoqubo embed', each variable's chain of qubits)",
                           {"default": None}, solve="embedding"),
    "chain-strength": CliOption(("--chain-strength",), "the coupling that holds each chain's qubits together",
                                {"default": None}, solve="chain-strength"),
}


def add(target: argparse.ArgumentParser | argparse._ArgumentGroup, name: str, detail: str | None = None, *,
        metavar: str | None = None, required: bool = False, repeat: bool = False) -> argparse.Action:
    """Add option *name* of :data:`CLI_OPTIONS` to *target*, its help ``MEANING: DETAIL``.

    Args:
        detail: what the option does in this command (None: the table's own detail; for a solve
            option, the solve table's help).
        metavar: how this command names the value (``-o OUT``, ``-o DIR``); the table's otherwise.
        required: the command cannot run without it.
        repeat: the option may be given several times, its values a list (``build -o A -o B``).
    """
    option = CLI_OPTIONS[name]
    settings = option.argparse_settings()
    if detail is None and option.solve:
        from ..solvers.options import OPTIONS

        detail = OPTIONS[option.solve].help_text
    if metavar is not None:
        settings["metavar"] = metavar
    if required:
        settings["required"] = True
    if repeat:
        settings["action"] = "append"
    return target.add_argument(*option.flags, **settings, help=option.help(detail))


class Deprecated(argparse.Action):
    """An old name of an option: it stores its value where the new name does and says the new name on
    standard error (``--help`` does not show it)."""

    def __init__(self, option_strings: list[str], dest: str, instead: str = "", why: str = "",
                 convert: Callable[[str], Any] = str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.instead, self.why, self.convert = instead, why, convert

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        print(f"{parser.prog}: {option_string} is deprecated here, say {self.instead}"
              + (f" ({self.why})" if self.why else ""), file=sys.stderr)
        try:
            setattr(namespace, self.dest, self.convert(values))
        except ValueError:
            parser.error(f"argument {self.instead}: invalid value: {values!r}")


def add_deprecated(target: argparse.ArgumentParser | argparse._ArgumentGroup, old: str, instead: str, dest: str, *,
                   why: str = "", convert: Callable[[str], Any] = str) -> None:
    """*old*, a hidden alias of *instead* (the same *dest*), which says *instead* (and *why*) when used."""
    target.add_argument(old, action=Deprecated, instead=instead, why=why, dest=dest, convert=convert,
                        default=argparse.SUPPRESS, help=argparse.SUPPRESS)
