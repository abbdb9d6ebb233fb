"""The README is a front page that keeps its promises, and the docs pages keep the ones it moved there.

README.md is what a first visit needs (what nonoqubo is, the two commands, a short tour, the pages
of the manual): at most 200 lines.  Its install and test commands are the ones ``.ci/run`` runs,
and it keeps the line with the suite's test count and time.  The module Layout moved to
``docs/architecture.md`` and the sub-commands to ``docs/commands.md``; their tests moved with them:

* the Layout names every module of the package, except the format modules of the three
  registries (``clues/``, ``exports/``, ``samples/``): ``nonoqubo formats`` and the docs' format
  tables (written from the registries at build time) list them, so a new format is a new file
  with no page edit ("nothing else changes", ARCHITECTURE.md);
* the commands page shows every sub-command, and the README's tour shows them too.

Whether the commands and Python shown *run*, and print what the pages show, is
``tests/test_docs_commands.py``'s (every console and python block of README.md and docs/).
"""

from __future__ import annotations

import re
from pathlib import Path

from nonoqubo._util import discover
from tests.support import ROOT

README = (ROOT / "README.md").read_text()
DOCS = ROOT / "docs"
ARCH_PAGE = (DOCS / "architecture.md").read_text()
COMMANDS_PAGE = (DOCS / "commands.md").read_text()
REGISTRIES = ("nonoqubo.clues", "nonoqubo.exports", "nonoqubo.samples")
INSTALL = 'python -m pip install -e ".[dev]"'


def _format_module_files() -> set[Path]:
    """The files (below ROOT) of the registries' format modules, as discovery finds them."""
    return {ROOT.joinpath(*m.__name__.split(".")).with_suffix(".py") for pkg in REGISTRIES
            for m in discover.registry(pkg)}


def _layout() -> str:
    start = ARCH_PAGE.index("## Layout")
    return ARCH_PAGE[start:ARCH_PAGE.index("```", ARCH_PAGE.index("```", start) + 3)]


def _sub_commands() -> list[str]:
    from nonoqubo.cli import make_parser

    parser = make_parser()
    return list(parser._subparsers._group_actions[0].choices)  # type: ignore[union-attr]


def test_readme_is_a_front_page():
    assert len(README.splitlines()) <= 200
    assert README.startswith("# nonoqubo\n")
    for heading in ("## Quick start", "## A short tour", "## Documentation"):
        assert heading in README


def test_readme_install_and_test_commands_are_what_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text()
    quick = README[README.index("## Quick start"):README.index("## A short tour")]
    assert f"{INSTALL} && nonoqubo build examples/qbpp-logo.yaml -o logo.qubo" in quick
    assert f"{INSTALL} && python -m pytest" in quick
    assert f"\n{INSTALL}\n" in ci and "\npython -m pytest\n" in ci
    assert "virtual environment" in quick
    assert re.search(r"The whole suite \([\d,]+ tests\) took .+ in CI", README)


def test_readme_points_at_every_manual_page():
    for page in sorted(p.name for p in DOCS.glob("*.md") if p.name != "index.md"):
        assert f"docs/{page}" in README, f"README's Documentation does not name docs/{page}"


def test_layout_names_every_module_of_the_package():
    layout = _layout()
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*(?:\.py)?", layout))
    listed_by_the_program = _format_module_files()
    missing = []
    for path in sorted((ROOT / "nonoqubo").rglob("*.py")):
        if path in listed_by_the_program:
            continue
        stem = path.stem
        if path.parent.name == "nonoqubo":
            named = f"{stem}.py" in words
        else:  # a module of a sub-package is named by its stem in the package's line
            named = stem in words or stem == "__init__"
        if not named:
            missing.append(str(path.relative_to(ROOT)))
    assert not missing, f"docs/architecture.md's Layout does not name: {missing}"


def test_the_format_modules_are_left_to_the_registry():
    """What the Layout may leave out is exactly the registries' modules, and the pages point to their listing."""
    layout = _layout()
    found = _format_module_files()
    assert {p.parent.name for p in found} == {"clues", "exports", "samples"}
    assert all(p.is_file() for p in found)
    assert len(found) == sum(len(discover.registry(pkg)) for pkg in REGISTRIES)
    for package in ("clues/", "exports/", "samples/"):
        assert f"  {package}" in layout
    assert "nonoqubo formats" in README
    formats_page = (DOCS / "formats.md").read_text()
    for registry in ("clues", "exports", "samples", "encodings"):
        assert f"```{{nonoqubo-registry}} {registry}\n```" in formats_page


def test_the_commands_page_shows_every_sub_command():
    use_it = COMMANDS_PAGE[COMMANDS_PAGE.index("## Use it"):]
    for name in _sub_commands():
        assert f"nonoqubo {name} " in use_it, f"docs/commands.md has no example of 'nonoqubo {name}'"


def test_the_readme_tour_shows_every_sub_command():
    tour = README[README.index("## A short tour"):README.index("## Documentation")]
    for name in _sub_commands():
        assert re.search(rf"^\$ nonoqubo {name}\b", tour, re.M), f"README's tour has no 'nonoqubo {name}'"
