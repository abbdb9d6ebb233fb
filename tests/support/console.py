"""The pages' examples as tests: Sybil finds the blocks, this module runs a ``console`` block.

Every ```` ```console ```` and ```` ```python ```` block of ``README.md`` and ``docs/`` is an
example that runs (``tests/test_docs_commands.py``).  `Sybil <https://sybil.readthedocs.io>`_
lexes the Markdown (MyST) pages; Python blocks go to Sybil's own parser (a block that starts with
``>>>`` is a doctest, its output compared; any other block is executed); a ``console`` block goes to
:class:`ConsoleParser` below.  A page runs from top to bottom in a fresh folder (:func:`folder`),
so a later block may use what an earlier one wrote, as a reader who types them in order would.
The page is cut into :func:`steps` (a console command, a bash statement, a Python block), each the
test of its own that :class:`PageRun` runs, in order, in the page's one folder.

A console block is a terminal session::

    $ nonoqubo solve p.txt --seed 1 \\
        --reads 10 -o ps.json            # a line ending in a backslash goes on
    $ for m in a b; do                   # '> ' lines go on too (bash's second prompt)
    >   echo $m; done
    what the command prints (standard error and standard output, as a terminal shows them)
    ...

The lines after a ``$`` command, up to the next one, are its output, compared with what the command
prints by doctest's ``ELLIPSIS`` rule: ``...`` stands for text left out (a line of its own: any
number of lines, none too; inside a line:
part of it).  Two more rules, both for output that varies from one
run to the next, are applied to both sides before comparing (:func:`normal`):

* a time in seconds (``0.00 s``, ``5.50 s``, ``10.0 s``) is any time: :data:`TIME`;
* a run of two or more spaces (a table's column gap, whose width follows the widest cell) is one
  gap; trailing spaces and blank lines at the end are dropped.

Each command runs in a bash of its own, in the page's folder (files carry over, shell variables do
not); ``echo $?`` shows the exit status of the command before it.  A command must exit 0, unless
its block shows that it fails: an error line (``error:``), a verdict
``INVALID``, or an ``echo $?`` next.  A traceback always fails, even inside an elided part.  A block
that cannot run here (a real QPU, a cluster) is preceded by Sybil's ``<!-- skip: next "why" -->``;
the test lists those reasons.

A ``bash`` block is commands alone, for a reader to copy whole: it runs as one script
(:class:`BashParser`), every command of it must succeed, and its output is not compared.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from unittest import SkipTest

import pytest
from sybil import Document, Example
from sybil.example import SybilFailure
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser

from tests.support import ROOT

#: a time in seconds, as the commands print it (``in 0.00 s``, ``(5.50 s;``, ``10.0 s``)
TIME = re.compile(r"\b\d+(?:\.\d+)? s\b")
#: a table's column gap
GAP = re.compile(r" {2,}")
#: what a command that fails on purpose shows in its block
FAILS_ON_PURPOSE = re.compile(r"error:|INVALID")
#: the ``-`` of doctest's ELLIPSIS, and the flags output is compared with
FLAGS = doctest.ELLIPSIS
#: how long one command may take before the page fails
COMMAND_TIMEOUT = 600


@dataclass
class Command:
    """One ``$`` command of a console block, its line in the page, and the output lines shown under it."""

    text: str
    line: int
    output: list[str] = field(default_factory=list)


def commands(block: str, first_line: int = 1) -> list[Command]:
    """The commands of a console block's text, each with the output lines shown under it.

    >>> [(c.text, c.output) for c in commands("$ a \\\\\\n  b\\nout\\n$ for x; do\\n> y; done\\n")]
    [('a \\\\\\n  b', ['out']), ('for x; do\\ny; done', [])]
    """
    shown: list[Command] = []
    going_on = False  # the last command line ended in a backslash, or a '> ' line may follow
    for number, line in enumerate(block.splitlines(), start=first_line):
        if line.startswith("$ "):
            shown.append(Command(line[2:], number))
            going_on = True
        elif going_on and shown and shown[-1].text.endswith("\\"):
            shown[-1].text += "\n" + line
        elif going_on and shown and line.startswith("> "):
            shown[-1].text += "\n" + line[2:]
        else:
            going_on = False
            if not shown:
                raise ValueError(f"line {number}: output before any '$ ' command")
            shown[-1].output.append(line)
    return shown


def normal(text: str) -> str:
    """*text* as it is compared: times as ``T s``, column gaps as two spaces, no trailing blanks.

    >>> normal("a    b  in 0.03 s   \\n\\n")
    'a  b  in T s\\n'
    """
    lines = [GAP.sub("  ", TIME.sub("T s", line.rstrip())) for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return "".join(line + "\n" for line in lines)


def elided(want: str) -> str:
    """*want* with each ``...`` line joined to the next, so that it stands for any number of lines, none too.

    >>> import doctest
    >>> doctest.OutputChecker().check_output(elided("...\\nend\\n"), "end\\n", doctest.ELLIPSIS)
    True
    """
    return re.sub(r"(?m)^\.\.\.\n", "...", want)


def environment(where: Path) -> dict[str, str]:
    """The environment a page's commands run in: ``nonoqubo`` and ``python`` this checkout's, a cache of its own."""
    bin_dir = where / ".bin"
    bin_dir.mkdir(exist_ok=True)
    for name, command in (("nonoqubo", f'"{sys.executable}" -m nonoqubo'), ("python", f'"{sys.executable}"')):
        shim = bin_dir / name
        shim.write_text(f'#!/bin/sh\nexec {command} "$@"\n')
        shim.chmod(0o755)
    return dict(os.environ, PYTHONPATH=str(ROOT), PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
                NONOQUBO_CACHE=str(where / ".cache"), COLUMNS="200", LC_ALL="C.UTF-8")


def folder(where: Path) -> dict[str, str]:
    """Make *where* a fresh copy of a reader's clone (``examples/`` and ``tests/`` linked in); its environment."""
    for name in ("examples", "tests"):
        (where / name).symlink_to(ROOT / name)
    return environment(where)


def run(command: Command, where: Path, env: dict[str, str], may_fail: bool, status: int = 0) -> tuple[str | None, int]:
    """Run one shown command in *where*: (what is wrong, None when it printed what the page shows; its exit status).

    Each command runs in a bash of its own (the files carry over, as in the reader's folder; shell
    variables do not); ``echo $?`` prints *status*, the exit status of the command before it.
    """
    if command.text.strip() == "echo $?":
        done = subprocess.CompletedProcess(command.text, 0, f"{status}\n")
    else:
        done = subprocess.run(["bash", "-c", command.text], cwd=where, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=COMMAND_TIMEOUT)
    return _judge(command, done, may_fail), done.returncode


def _judge(command: Command, done: subprocess.CompletedProcess, may_fail: bool) -> str | None:
    got = normal(done.stdout)
    if "Traceback (most recent call last)" in got:
        return f"line {command.line}: $ {command.text}\nprints a traceback:\n{done.stdout[-3000:]}"
    if done.returncode != 0 and not may_fail:
        return f"line {command.line}: $ {command.text}\nexits {done.returncode}:\n{done.stdout[-3000:]}"
    want = elided(normal("\n".join(command.output)))
    if not doctest.OutputChecker().check_output(want, got, FLAGS):
        diff = doctest.OutputChecker().output_difference(doctest.Example("", want), got, FLAGS)
        return f"line {command.line}: $ {command.text}\ndoes not print what the page shows:\n{diff}"
    return None


@dataclass
class Part:
    """A piece of a block that runs on its own: a console command (with the ``echo $?`` after it) or a bash statement.

    *run* takes the document's namespace and returns what is wrong, or None.
    """

    line: int
    run: Callable[[dict], str | None]


class ConsoleParser(CodeBlockParser):
    """Sybil's Markdown code-block parser for ``console`` blocks: each block's commands run in the page's folder.

    The document's namespace holds ``folder`` (a :class:`~pathlib.Path`) and ``env`` (the
    environment of :func:`folder`); the page's test puts them there.  A block's :meth:`parts` are its
    commands, each with the ``echo $?`` lines after it: the page's test runs each as a test of its own.
    """

    language = "console"

    def parts(self, example: Example) -> list[Part]:
        """The block's commands, in order, each with the ``echo $?`` commands that show its exit status."""
        shown = commands(example.parsed, example.line + 1)  # the fence is the example's line
        groups: list[list[int]] = []
        for i, command in enumerate(shown):
            if command.text.strip() == "echo $?" and groups:
                groups[-1].append(i)
            else:
                groups.append([i])
        return [Part(shown[group[0]].line, partial(self._run, shown, group)) for group in groups]

    @staticmethod
    def _run(shown: list[Command], group: list[int], namespace: dict) -> str | None:
        where, env = namespace["folder"], namespace["env"]
        problems = []
        status = 0
        for i in group:
            command = shown[i]
            then = shown[i + 1].text if i + 1 < len(shown) else ""
            may_fail = bool(FAILS_ON_PURPOSE.search("\n".join(command.output))) or then == "echo $?"
            problem, status = run(command, where, env, may_fail, status)
            if problem:
                problems.append(problem)
        return "\n\n".join(problems) or None

    def evaluate(self, example: Example) -> str | None:
        problems = [problem for part in self.parts(example) if (problem := part.run(example.namespace))]
        return "\n\n".join(problems) or None


#: the lines put before a ``bash`` block: stop at the first command that fails, and say which line it was
BASH_PROLOGUE = "set -eo pipefail\ntrap 'echo \"bash block line $((LINENO - 2)) exits $?\" >&2' ERR\n"


def statements(block: str) -> list[tuple[int, str]]:
    """A bash block cut into its statements: (the line each starts on, counted from 0; its text).

    A statement goes on over a line ending in a backslash and over an unfinished compound command
    (``for ...; do`` up to its ``done``: bash -n says whether the text so far is complete); comment
    lines go with the statement after them.

    >>> statements("# make\\na x \\\\\\n  y\\n\\nfor m in 1; do\\n  b; done\\nc\\n")
    [(0, '# make\\na x \\\\\\n  y'), (4, 'for m in 1; do\\n  b; done'), (6, 'c')]
    """
    found: list[tuple[int, str]] = []
    chunk: list[str] = []
    start, command = 0, False
    for number, line in enumerate(block.splitlines()):
        if not chunk:
            if not line.strip():
                continue
            start = number
        chunk.append(line)
        command = command or not (not line.strip() or line.lstrip().startswith("#"))
        if not command or line.endswith("\\"):
            continue
        text = "\n".join(chunk)
        if subprocess.run(["bash", "-n"], input=text, text=True, capture_output=True).returncode == 0:
            found.append((start, text))
            chunk, command = [], False
    if chunk:
        found.append((start, "\n".join(chunk)))
    return found


class BashParser(CodeBlockParser):
    """Sybil's Markdown code-block parser for ``bash`` blocks: each statement runs as a script in the page's folder.

    A ``bash`` block shows commands without their output (a reader copies it whole): each of its
    :func:`statements` runs as a bash script with ``set -eo pipefail``, in order, in the page's
    folder (the files carry over; a block that set shell variables for later lines would be one
    statement), so every command in it must succeed (an unknown option, a missing file, a failing
    stage of a pipe all fail the page) and none may print a traceback.  A block that needs what a
    test machine lacks is skipped with a reason, as a console block is.
    """

    language = "bash"

    def parts(self, example: Example) -> list[Part]:
        """The block's statements, in order."""
        first = example.line + 1  # the block's first line in the page (the fence is the example's line)
        return [Part(first + offset, partial(self._run, first + offset, text)) for offset, text in statements(example.parsed)]

    @staticmethod
    def _run(first: int, script: str, namespace: dict) -> str | None:
        where, env = namespace["folder"], namespace["env"]
        done = subprocess.run(["bash", "-c", BASH_PROLOGUE + script], cwd=where, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=COMMAND_TIMEOUT)
        if "Traceback (most recent call last)" in done.stdout:
            return f"line {first}: the bash block prints a traceback:\n{done.stdout[-3000:]}"
        if done.returncode != 0:
            failed = re.search(r"bash block line (\d+) exits (\d+)", done.stdout)
            where_line = first + int(failed.group(1)) - 1 if failed else first
            return f"line {where_line}: the bash block fails there (exit {done.returncode}):\n{done.stdout[-3000:]}"
        return None

    def evaluate(self, example: Example) -> str | None:
        for part in self.parts(example):
            if problem := part.run(example.namespace):
                return problem
        return None


#: the parsers of every page: console and bash blocks, Python blocks (doctest or code), skip directives
PARSERS = (ConsoleParser(), BashParser(), PythonCodeBlockParser(doctest_optionflags=FLAGS), SkipParser())


def parse(page: Path) -> Document:
    """The page's examples, in the order a reader meets them."""
    return Document.parse(str(page), *PARSERS)


@dataclass
class Step:
    """One test of a page: a part of a console or bash block, or a whole Python block (with the skip directives before it).

    *pieces* are (example, the index of its part, the part), the part None for an example Sybil
    evaluates whole (a Python statement, a skip directive).
    """

    line: int
    pieces: list[tuple[Example, int, Part | None]]


def steps(document: Document) -> list[Step]:
    """The page's examples cut into steps, in the order a reader meets them.

    A console block gives a step per command (with its ``echo $?``), a bash block a step per
    statement; a Python block's statements (doctest examples) make one step; a skip directive goes
    with the step after it.
    """
    found: list[Step] = []
    waiting: list[tuple[Example, int, Part | None]] = []  # skip directives, Python statements of one block
    fence = -1  # the start of the Python block the waiting statements come from
    for example in document:
        parser = getattr(example.region.evaluator, "__self__", None)
        if isinstance(parser, (ConsoleParser, BashParser)):
            if fence >= 0:
                found.append(Step(waiting[0][0].line, waiting))
                waiting, fence = [], -1
            for i, part in enumerate(parser.parts(example)):
                found.append(Step(part.line, [*waiting, (example, i, part)]))
                waiting = []
        elif isinstance(example.parsed, tuple):  # a skip directive: (action, reason)
            if fence >= 0:
                found.append(Step(waiting[0][0].line, waiting))
                waiting, fence = [], -1
            waiting.append((example, 0, None))
        else:
            start = document.text.rfind("```", 0, example.region.start)
            if fence >= 0 and start != fence:
                found.append(Step(waiting[0][0].line, waiting))
                waiting = []
            fence = start
            waiting.append((example, 0, None))
    if waiting:
        found.append(Step(waiting[0][0].line, waiting))
    return found


class PageRun:
    """A page run step by step in one folder: a test a step, the files of earlier steps kept for later ones.

    :meth:`run` runs one step (after any earlier step not run yet, so that a test picked alone with
    ``-k`` finds the files the page made before it) and returns what is wrong and why a block was skipped.
    """

    def __init__(self, page: Path, where: Path) -> None:
        self.page, self.where = page, where
        self.document = parse(page)
        # which: what a page's "skip: next if(not which(...), reason=...)" asks of the machine
        self.document.namespace.update(folder=where, env=folder(where), which=shutil.which)
        self.steps = steps(self.document)
        self.done = 0  # the steps before this one have run
        self.failed: list[int] = []  # the lines of the steps that failed
        self._skipped: dict[int, str] = {}  # id of an example skipped by a directive: the reason

    def run(self, index: int) -> tuple[list[str], list[str]]:
        """Run step *index* (and the earlier ones not run yet): (the problems of step *index*, the skip reasons)."""
        while self.done < index:
            self._note(self.done, self._run(self.done)[0])
            self.done += 1
        problems, skipped = self._run(index)
        self._note(index, problems)
        self.done = max(self.done, index + 1)
        return problems, skipped

    def _note(self, index: int, problems: list[str]) -> None:
        if problems and self.steps[index].line not in self.failed:
            self.failed.append(self.steps[index].line)

    def _run(self, index: int) -> tuple[list[str], list[str]]:
        problems, skipped = [], []
        with pytest.MonkeyPatch.context() as mp:
            mp.chdir(self.where)  # a Python block opens files where the console blocks wrote them
            for example, i, part in self.steps[index].pieces:
                try:
                    if part is None:
                        example.evaluate()
                    elif i == 0:  # the skip directives decide for the whole block, at its first part
                        self.document.evaluate(example, lambda e, part=part: part.run(e.namespace))
                    elif id(example) in self._skipped:
                        raise SkipTest(self._skipped[id(example)])
                    elif problem := part.run(example.namespace):
                        raise SybilFailure(example, problem)
                except SkipTest as why:
                    self._skipped[id(example)] = str(why)
                    skipped.append(str(why))
                except SybilFailure as failure:
                    problems.append(f"{self.page.name}:{example.line}: {failure.result}")
        return problems, skipped

    def run_all(self) -> tuple[list[str], list[str]]:
        """Run every step of the page in order: (every problem found, every skip reason)."""
        problems: list[str] = []
        skipped: list[str] = []
        for index in range(len(self.steps)):
            found, why = self.run(index)
            problems += found
            skipped += why
        return problems, skipped
