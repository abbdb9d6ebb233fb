"""The parser of the ``nonoqubo`` command line: argparse, and the three things it does not do itself.

**A value may start with a minus sign and a digit.**  ``--h-range -4,4``, ``--j-range -1,1`` and
``--beta-range -1,2`` give a range whose low end is negative.  argparse 3.10 to 3.12 take every
word that starts with ``-`` for an option unless it is a plain negative number (``-4``, ``-.5``),
and would refuse ``-4,4`` as an option it does not know.  argparse's own rule from 3.13 is wider:
a word that starts with ``-`` and a digit (or ``-.`` and a digit) is a value.  :class:`Parser`
applies that rule on every Python, so a range reaches the library as it was typed, and a bad one
(``--beta-range -1,2``) is refused there in one line naming the option.

**An option may say which words after it are its value.**  argparse gives an option a fixed
number of words, or "one if there is one" (``nargs="?"``), which takes the puzzle's name after a
bare switch.  An option whose action is a :class:`ReadsWords` decides from the words themselves
(:meth:`ReadsWords.words`); :class:`Parser` hands argparse that option with its value joined to
it (``--presolve=probe``), so argparse never guesses.  The rule lives with the option:

* :class:`OneOf`: the next word is the value only when it is one of the option's words
  (``--presolve [line|probe]``: ``--presolve probe`` is probing, ``info --presolve PUZZLE`` is a
  bare switch before the puzzle);
* :class:`TwoWords`: one word, or two when the first is the option's keyword
  (``--beta-schedule linear``, ``--beta-schedule custom FILE``).

No list of option names is kept anywhere else: a new option of either kind is an
``add_argument(..., action=OneOf, ...)`` like any other.

**A command loads when it runs.**  :class:`Commands` lists the sub-commands from a static table
of :class:`Command` (name, module, order, one-line help) and imports a command's module, and
builds its parser, only when that command is on the command line: ``nonoqubo --help`` and
``--version`` import no command.

Examples:
    >>> parser = Parser(prog="demo")
    >>> _ = parser.add_argument("puzzle")
    >>> _ = parser.add_argument("--range", metavar="LO,HI")
    >>> _ = parser.add_argument("--presolve", action=OneOf, one_of=("line", "probe"), const="line")
    >>> _ = parser.add_argument("--beta-schedule", action=TwoWords, first="custom")
    >>> parser.parse_args(["--presolve", "p.non", "--range", "-4,4"])
    Namespace(puzzle='p.non', range='-4,4', presolve='line', beta_schedule=None)
    >>> parser.parse_args(["p.non", "--presolve", "probe", "--beta-schedule", "custom", "b.txt"])
    Namespace(puzzle='p.non', range=None, presolve='probe', beta_schedule='custom b.txt')
    >>> parser.joined(["--presolve", "p.non", "--", "--presolve", "probe"])
    ['--presolve=line', 'p.non', '--', '--presolve', 'probe']
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

__all__ = ["Command", "Commands", "NEGATIVE_NUMBER", "OneOf", "Parser", "ReadsWords", "TwoWords"]

#: a word that is a value even though it starts with a minus sign: argparse's own rule from 3.13
NEGATIVE_NUMBER = re.compile(r"-\.?\d")


class ReadsWords(argparse.Action):
    """An option that says itself how many of the words after it are its value (see the module docstring).

    :class:`Parser` calls :meth:`words` for every occurrence of the option written as a word of
    its own (``--opt``; ``--opt=VALUE`` is given its value already) and hands argparse
    ``--opt=VALUE``: the words joined by a space, or the action's ``const`` when it takes none.
    """

    def words(self, after: Sequence[str]) -> int | None:
        """How many of the words *after* the option are its value; None: let argparse read them as usual."""
        raise NotImplementedError

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)


class OneOf(ReadsWords):
    """``--opt [WORD]``: the next word is the value when it is one of *one_of*; else the option is bare (``const``).

    A value given as ``--opt=WORD`` that is not one of them is refused, naming them.

    Examples:
        >>> action = OneOf(["--presolve"], "presolve", one_of=("line", "probe"), const="line")
        >>> action.words(["probe", "p.non"]), action.words(["p.non"]), action.words([])
        (1, 0, 0)
        >>> action.checked("guess")
        Traceback (most recent call last):
        ...
        argparse.ArgumentError: argument --presolve: must be one of line, probe, not 'guess'
    """

    def __init__(self, option_strings: Sequence[str], dest: str, *, one_of: Sequence[str], **kwargs: Any) -> None:
        kwargs.setdefault("nargs", "?")
        super().__init__(option_strings, dest, **kwargs)
        self.one_of = tuple(one_of)

    def words(self, after: Sequence[str]) -> int | None:
        return 1 if after and after[0] in self.one_of else 0

    def checked(self, value: Any) -> Any:
        """*value* when it is one of the option's words (raises :class:`argparse.ArgumentError` otherwise)."""
        if value not in self.one_of:
            raise argparse.ArgumentError(self, f"must be one of {', '.join(self.one_of)}, not {value!r}")
        return value

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        setattr(namespace, self.dest, self.checked(values))


class TwoWords(ReadsWords):
    """``--opt WORD`` or ``--opt FIRST WORD``: two words when the first is ``first`` (``custom FILE``), stored joined.

    The value is one string, the two words joined by a space (``"custom betas.txt"``); a *first*
    followed by an option or by nothing is one word, for the library to refuse in its own words.

    Examples:
        >>> action = TwoWords(["--beta-schedule"], "beta_schedule", first="custom")
        >>> action.words(["custom", "b.txt", "p.non"]), action.words(["linear", "p.non"]), action.words(["custom", "-q"])
        (2, None, None)
    """

    def __init__(self, option_strings: Sequence[str], dest: str, *, first: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.first = first

    def words(self, after: Sequence[str]) -> int | None:
        if len(after) >= 2 and after[0] == self.first and not after[1].startswith("-"):
            return 2
        return None


class Parser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` with argparse's negative-number rule from 3.13 and :class:`ReadsWords`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = NEGATIVE_NUMBER  # argparse's own rule from 3.13

    def joined(self, args: Sequence[str]) -> list[str]:
        """*args* with every :class:`ReadsWords` option of this parser joined to its value (up to ``--``)."""
        out: list[str] = []
        items = list(args)
        i = 0
        while i < len(items):
            word = items[i]
            if word == "--":
                return out + items[i:]
            action = self._option_string_actions.get(word)
            count = action.words(items[i + 1:]) if isinstance(action, ReadsWords) else None
            if action is None or count is None:
                out.append(word)
                i += 1
                continue
            value = " ".join(items[i + 1:i + 1 + count]) if count else str(action.const)
            out.append(f"{word}={value}")
            i += 1 + count
        return out

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        words = sys.argv[1:] if args is None else [str(a) for a in args]
        self.check_spelling(words)
        return super().parse_known_args(self.joined(words), namespace)

    def check_spelling(self, words: Sequence[str]) -> None:
        """Refuse a ``--long`` option this parser does not know but one of its own resembles, naming that one.

        argparse would report it last, after a missing required option (``--ouput x`` for
        ``--output x`` read as "-o/--output is required"); this says "did you mean --output?" first.
        A parser with sub-commands leaves the words to them.

        Examples:
            >>> p = Parser(prog="demo", add_help=False)
            >>> _ = p.add_argument("-o", "--output", required=True)
            >>> p.check_spelling(["p.yaml", "--ouput", "x"])
            Traceback (most recent call last):
            ...
            SystemExit: 2
        """
        if any(isinstance(a, argparse._SubParsersAction) for a in self._actions):
            return
        known = [o for o in self._option_string_actions if o.startswith("--")]
        for word in words:
            if word == "--":
                return
            name = word.split("=", 1)[0]
            if not name.startswith("--") or name in self._option_string_actions \
                    or any(o.startswith(name) for o in known):  # argparse's abbreviations
                continue
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.75)
            if close:
                self.error(f"unrecognized argument {name}: did you mean {close[0]}?")

    def short_usage(self) -> str:
        """The usage in one line: the program, ``[options]`` and the positional arguments (``--help`` has the rest)."""
        words = [self.prog] + (["[options]"] if any(a.option_strings for a in self._actions) else [])
        for action in self._actions:
            if action.option_strings:
                continue
            if isinstance(action, argparse._SubParsersAction):
                words.append(f"{action.metavar or 'COMMAND'} ...")
                continue
            name = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
            words.append({"?": f"[{name}]", "*": f"[{name} ...]", "+": f"{name} [{name} ...]"}.get(
                str(action.nargs), name))
        return " ".join(words)

    def error(self, message: str) -> NoReturn:
        """Two lines on standard error, exit status 2: the usage in one line, then what is wrong.

        argparse prints the whole usage first (26 lines for ``solve``), which pushed the one line
        that matters off the screen.

        Examples:
            >>> import contextlib, io
            >>> p = Parser(prog="demo")
            >>> _ = p.add_argument("puzzle")
            >>> err = io.StringIO()
            >>> with contextlib.redirect_stderr(err), contextlib.suppress(SystemExit):
            ...     p.parse_args([])
            >>> print(err.getvalue(), end="")
            usage: demo [options] PUZZLE (demo --help lists the options)
            demo: error: the following arguments are required: puzzle
        """
        self.exit(2, f"usage: {self.short_usage()} ({self.prog} --help lists the options)\n{self.prog}: error: {message}\n")


@dataclass(frozen=True)
class Command:
    """One sub-command: what ``nonoqubo --help`` lists without importing it, and where it lives.

    Attributes:
        name: what users type (``nonoqubo NAME``).
        module: the module of :mod:`nonoqubo.cli` whose ``register(sub)`` adds it.
        order: its place in ``nonoqubo --help`` (smaller first; ties by name).
        help: its line in ``nonoqubo --help``.
    """

    name: str
    module: str
    order: int
    help: str


if TYPE_CHECKING:
    _SubParsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    _SubParsers = argparse._SubParsersAction


class Commands(_SubParsers):
    """The sub-commands of a :class:`Command` table: listed at once, each module imported when its command runs.

    ``parser.add_subparsers(action=Commands)``, then :meth:`add_table`, lists every command of the
    table in ``--help`` and accepts its name; the command's module is imported, and its
    ``register(sub)`` called, when argparse reaches the command's name (:meth:`load`).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table: dict[str, Command] = {}
        self.package = ""
        #: called with a command's name and parser once its module registered it (options every command shares)
        self.on_load: Any = None

    def add_table(self, table: Sequence[Command], package: str) -> None:
        """List the commands of *table* (in order, then by name), their modules in the package *package*."""
        self.package = package
        for command in sorted(table, key=lambda c: (c.order, c.name)):
            self.table[command.name] = command
            self._choices_actions.append(self._ChoicesPseudoAction(command.name, (), command.help))
        # the names argparse accepts (and lists in "invalid choice"): the table's, their parsers built or not
        self.choices = list(self.table)  # type: ignore[assignment]

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        """argparse's ``add_parser``; a command of the table is listed already, by the table's help."""
        if name in self.table:
            kwargs.pop("help", None)
        return super().add_parser(name, **kwargs)

    def load(self, name: str) -> argparse.ArgumentParser:
        """The parser of command *name*: its module imported and registered the first time.

        Raises:
            LookupError: *name* is not in the table, or its module registers no such command
                (a mistake in the table, which ``tests/cli/test_cli_commands.py`` catches).
        """
        if name not in self._name_parser_map:
            command = self.table[name]
            module = importlib.import_module(f"{self.package}.{command.module}")
            module.register(self)
            if name not in self._name_parser_map:
                raise LookupError(f"{module.__name__}.register adds no command {name!r}")
            if self.on_load is not None:
                self.on_load(name, self._name_parser_map[name])
        return self._name_parser_map[name]

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        self.load(values[0])
        super().__call__(parser, namespace, values, option_string)
