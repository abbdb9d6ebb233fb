"""The README keeps its promises about the code: every module is in its Layout, every command in Use it.

The format modules of the three registries (``clues/``, ``exports/``, ``samples/``) are the
exception, and the reason is the registry itself: ``nonoqubo formats`` lists them from
:func:`nonoqubo._util.discover.registry` (name, title, extensions), so the one listing that cannot
go stale is generated, and a new format is a new file with no README edit ("nothing else
changes", ARCHITECTURE.md).  The Layout names what a reader cannot ask the program for: every
other module, private helpers included.
"""

from __future__ import annotations

import re
from pathlib import Path

from nonoqubo._util import discover
from tests.support import ROOT

README = (ROOT / "README.md").read_text()
REGISTRIES = ("nonoqubo.clues", "nonoqubo.exports", "nonoqubo.samples")


def _format_module_files() -> set[Path]:
    """The files (below ROOT) of the registries' format modules, as discovery finds them."""
    return {ROOT.joinpath(*m.__name__.split(".")).with_suffix(".py") for pkg in REGISTRIES
            for m in discover.registry(pkg)}


def _layout() -> str:
    start = README.index("## Layout")
    return README[start:README.index("```", README.index("```", start) + 3)]


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
    assert not missing, f"README Layout does not name: {missing}"


def test_the_format_modules_are_left_to_the_registry():
    """What the Layout may leave out is exactly the registries' modules, and README points to their listing."""
    layout = _layout()
    found = _format_module_files()
    assert {p.parent.name for p in found} == {"clues", "exports", "samples"}
    assert all(p.is_file() for p in found)
    assert len(found) == sum(len(discover.registry(pkg)) for pkg in REGISTRIES)
    for package in ("clues/", "exports/", "samples/"):
        assert f"  {package}" in layout
    assert "nonoqubo formats" in README


def test_use_it_shows_every_sub_command():
    from nonoqubo.cli import make_parser

    parser = make_parser()
    commands = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    use_it = README[README.index("## Use it"):README.index("## Real solvers")]
    for name in commands:
        assert f"nonoqubo {name} " in use_it, f"README 'Use it' has no example of 'nonoqubo {name}'"
