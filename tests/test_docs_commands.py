"""Every example README.md and the docs pages show runs, and prints what the page shows.

Every ```` ```console ```` and ```` ```python ```` block of ``README.md``, ``docs/*.md`` and
``docs/guides/*.md`` is run, page by page, from top to bottom, in a fresh temporary folder
(``examples/`` and ``tests/`` linked in, ``nonoqubo`` the working tree's): Sybil finds the blocks
and :mod:`tests.support.console` says how a console block runs and how its output is compared
(``...`` where lines or parts of a line are left out; times in seconds and table gaps normalised).
Nothing is written into the repository.  Each step of a page (a console command with its ``echo $?``,
a bash statement, a Python block) is a test of its own, so that no test takes minutes: the steps of
a page share its folder, in the page's order (:class:`tests.support.console.PageRun`; a step picked
alone with ``-k`` runs the steps before it first).

What a test cannot run is mapped, and the mapping checked instead:

* the virtual environment, the install and ``python -m pytest``: ``.ci/run`` runs exactly those
  lines in a fresh clone (the suite cannot install over itself or run itself);
* the docs build: :func:`test_the_docs_build_with_warnings_as_errors` runs that exact command;
* a block that needs what no test machine has (a D-Wave QPU, a cluster) is preceded by Sybil's
  ``<!-- skip: next "why" -->``, and :data:`MAY_SKIP` lists every such reason; a block that needs
  a program CI installs (MiniZinc) says ``<!-- skip: next if(not which("minizinc"), reason="...") -->``,
  so it runs wherever the program is, as the suite's other live tests do.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.console import PageRun, commands, folder, normal, parse, run, statements, steps

PAGES = {str(p.relative_to(ROOT)): p
         for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "guides").glob("*.md"))]}
#: pages whose commands take long (minor embeddings, campaigns): CI runs them, -m "not slow" skips them
SLOW = {"README.md", "docs/annealer-road.md", "docs/guides/annealer.md", "docs/guides/campaigns.md",
        "docs/guides/campaigns-at-scale.md", "docs/guides/hard-instances.md", "docs/guides/qoblib.md",
        "docs/guides/reports.md", "docs/guides/sampling.md", "docs/guides/tournaments.md",
        "docs/campaigns-reports.md", "docs/model.md", "docs/commands.md"}
#: commands .ci/run runs (in a fresh clone); a test checks that it does; the pages' blocks with them are skipped
CI_RUNS = ('python -m pip install -e ".[dev]"', "python -m pytest")
ENVIRONMENT = ("python3 -m venv .venv", ". .venv/bin/activate")
DOCS_BUILD = "python -m sphinx -W --keep-going -q -b html docs docs/_build/html"
#: the only reasons a page may give for a block that does not run here
MAY_SKIP = ("run by .ci/run", "needs a D-Wave QPU", "needs a Dask cluster", "needs a SLURM cluster",
            "needs minizinc and fzn-gecode on PATH")


def run_page(page: Path, where: Path) -> tuple[list[str], list[str]]:
    """Run every example *page* shows, in order, in *where*: (the problems found, the reasons of skipped blocks)."""
    return PageRun(page, where).run_all()


def _params() -> list:
    """A test per step of every page (a console command, a bash statement, a Python block): each takes seconds, not minutes."""
    return [pytest.param(name, index, marks=[pytest.mark.slow] if name in SLOW else [], id=f"{name}:{step.line}")
            for name, page in PAGES.items() for index, step in enumerate(steps(parse(page)))]


@pytest.fixture(scope="module")
def page_runs(tmp_path_factory) -> Callable[[str], PageRun]:
    """Each page's run, in a folder of its own that its steps share (module-wide, so later steps find earlier files)."""
    runs: dict[str, PageRun] = {}

    def page_run(name: str) -> PageRun:
        if name not in runs:
            runs[name] = PageRun(PAGES[name], tmp_path_factory.mktemp(re.sub(r"\W", "-", name)))
        return runs[name]

    return page_run


@pytest.mark.parametrize(("name", "index"), _params())
def test_every_example_a_page_shows_runs(name, index, page_runs):
    """One step of a page runs and prints what the page shows (the steps before it ran first, in the same folder)."""
    page = page_runs(name)
    problems, skipped = page.run(index)
    earlier = [line for line in page.failed if line < page.steps[index].line]
    assert not problems, "\n\n".join(problems) + (f"\n\n(earlier steps of {name} failed too, at lines {earlier})"
                                                   if earlier else "")
    assert set(skipped) <= set(MAY_SKIP), f"{name} skips a block for another reason: {skipped}"


def test_every_page_is_cut_into_steps_that_cover_its_commands():
    """The steps of a page hold every example of it once, in the page's order: a console block a step per
    command (its ``echo $?`` with it), a bash block a step per statement, with every line of the block."""
    from tests.support.console import BashParser, ConsoleParser

    for name, page in PAGES.items():
        document = parse(page)
        found = steps(document)
        assert [step.line for step in found] == sorted(step.line for step in found), name
        pieces = [(e, part) for step in found for e, _, part in step.pieces]
        starts = [e.start for e in {id(e): e for e, _ in pieces}.values()]
        assert starts == sorted(starts) and len(starts) == len(list(document)), name
        for example in document:  # (a new Example each time the document is read: the same by its start)
            parser = getattr(example.region.evaluator, "__self__", None)
            parts = [part.line for e, part in pieces if e.start == example.start and part]
            if isinstance(parser, ConsoleParser):
                shown = commands(example.parsed, example.line + 1)
                assert parts == [c.line for c in shown if c.text.strip() != "echo $?"], (name, example.line)
            elif isinstance(parser, BashParser):
                texts = [text for _, text in statements(example.parsed)]
                assert "\n".join(texts).split() == example.parsed.split(), (name, example.line)
                assert len(parts) == len(texts), (name, example.line)


#: the languages of blocks that are not commands: shown, never run (a command block must be console, bash or python)
NOT_COMMANDS = ("text", "yaml", "json", "toml", "csv", "")


def test_every_block_of_every_page_is_an_example():
    """Sybil finds every console, bash and python block of every page (none hides from the tests), and
    no page shows commands in a block of another language (sh, shell, zsh), which nothing would run."""
    from tests.support.console import BashParser, ConsoleParser

    for name, page in PAGES.items():
        text = page.read_text()
        examples = list(parse(page))
        console = [e for e in examples if isinstance(getattr(e.region.evaluator, "__self__", None), ConsoleParser)]
        assert len(console) == len(re.findall(r"^```console\n", text, re.M)), name
        bash = [e for e in examples if isinstance(getattr(e.region.evaluator, "__self__", None), BashParser)]
        assert len(bash) == len(re.findall(r"^```bash\n", text, re.M)), name
        python = {text.rfind("```python", 0, e.region.start) for e in examples if e not in console and e not in bash
                  and not isinstance(e.parsed, tuple)}
        assert len(python) == len(re.findall(r"^```python\n", text, re.M)), name
        fences = re.findall(r"^```(\S*)\n(?:.*?\n)*?```$", text, re.M)
        assert {f for f in fences if not f.startswith("{")} <= {"console", "bash", "python", *NOT_COMMANDS}, (
            name, set(fences))  # ({eval-rst} and other MyST directives are not code)


def _problems(folder: Path, text: str, name: str = "page.md") -> list[str]:
    """What :func:`run_page` finds wrong in a page of *text*, run in a fresh folder under *folder*."""
    page = folder / name
    page.write_text(text)
    work = folder / f"work-{len(list(folder.glob('work-*')))}"
    work.mkdir()
    return run_page(page, work)[0]


def test_a_bogus_option_in_a_bash_block_fails_its_page(tmp_path):
    text = ("text\n\n```bash\nnonoqubo info examples/qbpp-logo.yaml   # fine\n"
            "nonoqubo formats --bogus             # not an option\nnonoqubo formats\n```\n")
    problems = _problems(tmp_path, text)
    assert len(problems) == 1 and problems[0].startswith("page.md:3: line 5: the bash block fails there (exit 2)")
    assert "unrecognized arguments: --bogus" in problems[0]
    assert _problems(tmp_path, text.replace(" --bogus", "")) == []


def test_a_bogus_option_put_into_the_commands_page_fails_its_test(tmp_path):
    """Issue 53: ``--bogus`` put into docs/commands.md's block passed, as no bash block ran. The block's first
    lines (the files it makes) and its first command run; ``--bogus`` there fails the page."""
    text = PAGES["docs/commands.md"].read_text()
    start = text.index("```bash\n")
    block = text[start:text.index("```\n", start + 8) + 4]
    first = next(line for line in block.splitlines() if line.startswith("nonoqubo info "))
    bogus = block.replace(first, first.replace("nonoqubo info ", "nonoqubo info --bogus ", 1), 1)
    cut = bogus[:bogus.index("nonoqubo info --bogus")] + "nonoqubo info --bogus examples/qbpp-logo.yaml\n```\n"
    problems = _problems(tmp_path, cut, "commands.md")
    assert len(problems) == 1 and "unrecognized arguments: --bogus" in problems[0], problems


def test_a_step_picked_alone_runs_the_steps_before_it_and_a_wrong_output_fails_its_step_only(tmp_path):
    """A page's steps share its folder: the third step, run first (``-k``), finds the file the first made;
    a wrong output fails the step that prints it, and the later steps still run and pass."""
    page = tmp_path / "page.md"
    page.write_text("```bash\nprintf 'a\\n' > made.txt\ncat made.txt\n```\n\n"
                    "```console\n$ cat made.txt\nb\n$ wc -l < made.txt\n1\n```\n")
    (work := tmp_path / "work").mkdir()
    run = PageRun(page, work)
    assert [step.line for step in run.steps] == [2, 3, 7, 9]
    assert run.run(3) == ([], []) and run.done == 4  # the steps before it ran first: made.txt is there
    assert run.failed == [7]  # (the third step, run on the way, printed 'a')
    problems, _ = run.run(2)
    assert len(problems) == 1 and "page.md:6: line 7: $ cat made.txt" in problems[0] and run.failed == [7]


def test_a_wrong_output_is_caught(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```console\n$ nonoqubo info examples/qbpp-logo.yaml\nvariables:   999\n...\n```\n")
    work = tmp_path / "work"
    work.mkdir()
    problems, _ = run_page(page, work)
    assert len(problems) == 1 and "variables:  999" in problems[0] and "page.md:1: line 2:" in problems[0]


def test_lines_left_out_unmarked_are_caught(tmp_path):
    """Output shown without an elision marker must be all the output: a dropped line fails."""
    page = tmp_path / "page.md"
    page.write_text("```console\n$ nonoqubo info examples/qbpp-logo.yaml\npuzzle 'QUBO++ logo': 15 x 15 (width x height)\n"
                    "variables:   437 (198 row + 239 column)\n```\n")
    work = tmp_path / "work"
    work.mkdir()
    problems, _ = run_page(page, work)
    assert len(problems) == 1 and "terms:" in problems[0]
    page.write_text(page.read_text().replace("column)\n", "column)\n...\n"))
    (work2 := tmp_path / "work2").mkdir()
    assert run_page(page, work2)[0] == []


def test_a_failing_command_is_caught_unless_the_page_shows_it_fails(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```console\n$ nonoqubo info nowhere.yaml\n...\n```\n")
    (work := tmp_path / "work").mkdir()
    problems, _ = run_page(page, work)
    assert len(problems) == 1 and "exits 2" in problems[0]
    page.write_text("```console\n$ nonoqubo info nowhere.yaml\nnonoqubo: error: ...\n```\n")
    (work2 := tmp_path / "work2").mkdir()
    assert run_page(page, work2)[0] == []


def test_a_python_block_output_is_compared(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```python\n>>> import nonoqubo\n>>> nonoqubo.build(nonoqubo.load_puzzle('examples/qbpp-logo.yaml'))"
                    ".num_vars\n436\n```\n")
    (work := tmp_path / "work").mkdir()
    problems, _ = run_page(page, work)
    assert len(problems) == 1 and "437" in problems[0]


def test_the_console_reader():
    shown = commands("$ nonoqubo solve p.txt \\\n    --seed 1\nsa sampler: ...\n$ for a in b; do\n>   echo $a; done\nb\n", 10)
    assert [(c.text, c.line, c.output) for c in shown] == [
        ("nonoqubo solve p.txt \\\n    --seed 1", 10, ["sa sampler: ..."]), ("for a in b; do\n  echo $a; done", 13, ["b"])]
    assert normal("built in 0.00 s\nx   y\n\n") == normal("built in 12.5 s\nx  y\n")


def test_what_is_not_run_here_is_run_by_ci():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    for command in CI_RUNS + (DOCS_BUILD,):
        assert command in ci, f".ci/run does not run {command!r}"
    readme = PAGES["README.md"].read_text()
    assert 'python -m pip install -e ".[dev]" && python -m pytest' in readme


def test_a_traceback_fails_even_where_elided(tmp_path):
    from tests.support.console import Command, environment

    env = environment(tmp_path)
    problem, status = run(Command("python -c 'raise SystemExit(__import__(\"x_no_such_module\"))'", 1, ["..."]),
                          tmp_path, env, may_fail=True)
    assert problem and "traceback" in problem and status == 1


def test_echo_status_shows_the_exit_status_of_the_command_before(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```console\n$ nonoqubo info nowhere.yaml\nnonoqubo: error: ...\n$ echo $?\n2\n```\n")
    (work := tmp_path / "work").mkdir()
    assert run_page(page, work)[0] == []
    page.write_text("```console\n$ nonoqubo info nowhere.yaml\n...\n$ echo $?\n0\n```\n")
    (work2 := tmp_path / "work2").mkdir()
    problems = run_page(page, work2)[0]
    assert len(problems) == 1 and "Got:\n    2" in problems[0]


@pytest.mark.slow
def test_the_docs_build_with_warnings_as_errors(tmp_path):
    out = tmp_path / "html"
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "docs", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    formats = (out / "formats.html").read_text()
    from nonoqubo import clues, exports, samples

    for module in [*clues.formats(), *exports.formats(), *samples.formats().values()]:
        assert module.__name__ in formats, f"the formats page has no row for {module.__name__}"
    assert "437" in (out / "model.html").read_text()
    assert (out / "guides" / "logo-walkthrough.html").is_file()
    campaign = (out / "campaigns-reports.html").read_text()
    assert "campaign-p-vs-size.svg" in campaign and (out / "_images" / "campaign-p-vs-size.svg").is_file()
    # issue 53: the figures' captions short and left-aligned; a YAML comment a command prints is output
    captions = re.findall(r'<figure class="nonoqubo-figure[^"]*"[^>]*>.*?<figcaption>(.*?)</figcaption>', campaign, re.S)
    assert len(captions) >= 5 and all(len(re.sub(r"<[^>]+>", "", c)) < 400 for c in captions), captions
    assert "nonoqubo.css" in campaign and "text-align: left" in (out / "_static" / "nonoqubo.css").read_text()
    walk = (out / "guides" / "logo-walkthrough.html").read_text()
    assert '<span class="gp">$ </span>' in walk and '<span class="gp"># </span>' not in walk
    assert '<span class="go"># The 15x15 puzzle' in walk


@pytest.mark.slow
def test_solve_help_names_a_file_the_suite_example_writes(tmp_path):
    """solve --help's suite example writes the model file its next example samples."""
    from nonoqubo.cli.solve import DESCRIPTION

    lines = [line.strip() for line in DESCRIPTION.splitlines()]
    suite = next(line for line in lines if line.startswith("nonoqubo suite "))
    model = next(w for line in lines if line.startswith("nonoqubo solve ab/") for w in line.split() if w.startswith("ab/"))
    env = folder(tmp_path)
    done = subprocess.run(["bash", "-c", suite + " -j 1"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / model).is_file(), sorted(p.name for p in (tmp_path / "ab").iterdir())[:5]


def _page_commands(name: str) -> list[str]:
    """The ``$`` commands of a page's console blocks, in order."""
    from tests.support.console import ConsoleParser

    return [c.text for e in parse(PAGES[name]) if isinstance(getattr(e.region.evaluator, "__self__", None), ConsoleParser)
            for c in commands(e.parsed)]


def test_the_readme_tour_reads_gecode_examples_where_the_repository_has_them():
    """Issue 42: the tour ran ``info nonogram.cpp --name castle``, a file no clone has at its top."""
    cpp = [c for c in _page_commands("README.md") if "nonogram.cpp" in c]
    assert cpp == ["nonoqubo info tests/data/puzzles/originals/gecode/nonogram.cpp --name castle"]
    assert (ROOT / "tests/data/puzzles/originals/gecode/nonogram.cpp").is_file()


@pytest.mark.parametrize("made", ["p.txt", "narrow-qpu.json", "pin.json", "unk.json", "embu.json"])
def test_the_annealer_guide_makes_each_file_before_it_reads_it(made):
    """Issue 42: docs/guides/annealer.md read p.txt before saying what it was, and narrow-qpu.json,
    pin.json and unk.json were never made; now a command of the page writes each one first."""
    page = _page_commands("docs/guides/annealer.md")
    first_use = next(i for i, c in enumerate(page) if re.search(rf"(^|[\s'\"]){re.escape(made)}([\s'\"]|$)", c))
    writes = re.compile(rf"(>\s*|cp \S+ |-o |open\('){re.escape(made)}")
    assert writes.search(page[first_use]), f"the first command that names {made} does not make it: {page[first_use]}"


def _where_next(text: str) -> list[str]:
    """The items of a page's "Where next" section (each ``- `` line with the lines that continue it)."""
    part = text.split("\n## Where next\n", 1)[1].split("\n#", 1)[0]
    return [item.strip() for item in re.split(r"\n- ", "\n" + part.strip())[1:]]


@pytest.mark.parametrize("name", [n for n, p in PAGES.items() if "\n## Where next\n" in p.read_text()])
def test_every_where_next_item_links_to_a_page_that_exists(name):
    """Issue 53: getting-started's "Where next" named a guide that does not exist and linked nothing."""
    items = _where_next(PAGES[name].read_text())
    assert items, name
    for item in items:
        links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", item)
        assert links, f"{name}: a 'Where next' item links nowhere: {item!r}"
        for link in links:
            assert (PAGES[name].parent / link).is_file(), f"{name}: {link} does not exist"


def test_the_where_next_check_catches_a_missing_page_and_an_unlinked_item():
    items = _where_next("# P\n\n## Where next\n\n- [The model](model.md): how.\n- The Python API in a notebook.\n\n## Other\n")
    assert items == ["[The model](model.md): how.", "The Python API in a notebook."]
    assert not re.findall(r"\]\(([^)#]+)\)", items[1])
