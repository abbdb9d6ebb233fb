"""The README keeps its promises about the code: every module is in its Layout, every command in Use it."""

from __future__ import annotations

import re

from tests.support import ROOT

README = (ROOT / "README.md").read_text()


def _layout() -> str:
    start = README.index("## Layout")
    return README[start:README.index("```", README.index("```", start) + 3)]


def test_layout_names_every_module_of_the_package():
    layout = _layout()
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*(?:\.py)?", layout))
    missing = []
    for path in sorted((ROOT / "nonoqubo").rglob("*.py")):
        stem = path.stem
        if path.parent.name == "nonoqubo":
            named = f"{stem}.py" in words
        else:  # a module of a sub-package is named by its stem in the package's line
            named = stem in words or stem == "__init__"
        if not named:
            missing.append(str(path.relative_to(ROOT)))
    assert not missing, f"README Layout does not name: {missing}"


def test_use_it_shows_every_sub_command():
    from nonoqubo.cli import make_parser

    parser = make_parser()
    commands = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    use_it = README[README.index("## Use it"):README.index("## Real solvers")]
    for name in commands:
        assert f"nonoqubo {name} " in use_it, f"README 'Use it' has no example of 'nonoqubo {name}'"
