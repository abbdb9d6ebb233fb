"""Grids of settings: ``solve --sweep``'s grammar, and the one expander of a grid into its settings.

A sweep is a grid: each swept option with its list of values, every combination one *setting*
(:func:`expand`, the one grid expander: a campaign plan's setting with lists expands by it too,
:func:`nonoqubo.campaign.plan.expansions`), named by :func:`setting_name`.  ``solve`` writes the
samples of each setting into a folder of its own, named by the setting, so ``nonoqubo evaluate
PUZZLE DIR`` (whose sub-folders are its settings) shows them side by side; the settings run as
tasks of the campaign runner (:mod:`nonoqubo.campaign.sweep`).

A sweep is given as

* ``OPTION=V1:V2:...`` (repeat ``--sweep`` for a grid): ``beta-range=0.1,10:0.5,10:1,10``
  is three settings, ``--sweep beta-range=0.5,10:1,10 --sweep sweeps=1000:10000`` four;
* a file (JSON or YAML) mapping each option to its list: ``{"beta-range": ["0.5,10", "1,10"],
  "sweeps": [1000, 10000]}``.

Option names are ``solve``'s long options without the dashes (``beta-range``, ``sweeps``,
``restarts``, ...); an unknown one is refused in one line before anything runs.

Examples:
    >>> grid = parse_sweep(["beta-range=0.5,10:1,10", "sweeps=100:1000"], {"beta-range", "sweeps"})
    >>> [name for name, _ in expand(grid)]
    ['beta-range=0.5,10_sweeps=100', 'beta-range=0.5,10_sweeps=1000', 'beta-range=1,10_sweeps=100', 'beta-range=1,10_sweeps=1000']
    >>> parse_sweep(["beta=1:2"], {"beta-range", "sweeps"})
    Traceback (most recent call last):
    nonoqubo.errors.SolverError: --sweep: solve has no sweepable option 'beta' (sweepable: beta-range, sweeps)
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .._util.stream import is_file_like, read_bytes
from ..errors import SolverError

__all__ = ["MAX_SETTINGS", "expand", "parse_sweep", "read_sweep_file", "setting_name"]

#: a sweep of more settings than this is refused (a typo, not an experiment)
MAX_SETTINGS = 1000


def _name(option: str) -> str:
    return option.strip().lstrip("-").replace("_", "-")


def read_sweep_file(path: str) -> dict[str, list[str]]:
    """The grid in the JSON or YAML file *path*: a mapping of option to a list of values (or one value)."""
    try:
        text = read_bytes(path, f"--sweep {path}", limit=1 << 20).decode("utf-8-sig")  # a FIFO read once
    except OSError as exc:
        raise SolverError(f"--sweep {path}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise SolverError(f"--sweep {path}: not a text file") from None
    import yaml

    try:
        data = json.loads(text) if path.lower().endswith(".json") else yaml.safe_load(text)
    except json.JSONDecodeError as exc:
        raise SolverError(f"--sweep {path}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    except yaml.YAMLError as exc:
        raise SolverError(f"--sweep {path}: not valid YAML ({str(exc).splitlines()[0]})") from None
    if not isinstance(data, dict) or not data:
        raise SolverError(f"--sweep {path}: a sweep file maps each option to its list of values")
    grid: dict[str, list[str]] = {}
    for option, values in data.items():
        values = values if isinstance(values, list) else [values]
        if not values or any(isinstance(v, (dict, list)) or v is None for v in values):
            raise SolverError(f"--sweep {path}: {option}: give a list of values (numbers or text)")
        grid[_name(str(option))] = [_text(v) for v in values]
    return grid


def _text(value: object) -> str:
    """A value as ``solve`` would be given it on the command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_sweep(specs: Sequence[str], sweepable: Iterable[str]) -> dict[str, list[str]]:
    """The grid of *specs* (each ``OPTION=V1:V2...`` or a sweep file), its options checked against *sweepable*.

    Raises:
        SolverError: an unknown option, an option swept twice, a value given twice, an empty value list, a file that
            cannot be read, or more than :data:`MAX_SETTINGS` settings.
    """
    allowed = sorted(sweepable)
    grid: dict[str, list[str]] = {}
    for spec in specs:
        if "=" in spec and not is_file_like(spec):
            option, _, given = spec.partition("=")
            part = {_name(option): [v.strip() for v in given.split(":")]}
        elif is_file_like(spec):
            part = read_sweep_file(spec)
        else:
            raise SolverError(f"--sweep takes OPTION=V1:V2... or a JSON/YAML file of option -> values, not {spec!r}")
        for option, values in part.items():
            if option not in allowed:
                raise SolverError(f"--sweep: solve has no sweepable option {option!r} (sweepable: {', '.join(allowed)})")
            if option in grid:
                raise SolverError(f"--sweep: {option} is swept twice; give all its values once")
            if not values or any(not v for v in values):
                raise SolverError(f"--sweep: {option} has an empty value")
            twice = next((v for i, v in enumerate(values) if v in values[:i]), None)
            if twice is not None:  # two settings of one name: the second run file would replace the first
                raise SolverError(f"--sweep: {option} has the value {twice} twice; give each value once")
            grid[option] = values
    total = 1
    for values in grid.values():
        total *= len(values)
    if total > MAX_SETTINGS:
        raise SolverError(f"--sweep: {total} settings; at most {MAX_SETTINGS} in one sweep")
    return grid


def expand(axes: Mapping[str, Sequence[Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Every combination of the axes' values, the first axis varying slowest, each with its name
    (:func:`setting_name` of its values as text: ``sweeps=100_beta-range=1,10``).

    The one grid expander: ``solve --sweep``'s grid and a campaign plan's setting with lists
    (:func:`nonoqubo.campaign.plan.expansions`, which puts the setting's name before it).
    """
    options = list(axes)
    out = []
    for combo in itertools.product(*(axes[o] for o in options)):
        values = dict(zip(options, combo))
        out.append((setting_name({k: _text(v) for k, v in values.items()}), values))
    return out


def setting_name(setting: dict[str, str]) -> str:
    """The folder name of a setting: ``option=value`` joined by ``_``; a file value by its name.

    Characters a folder name cannot hold (``/``, spaces...) become ``-``.
    """
    parts = []
    for option, value in setting.items():
        shown = " ".join(os.path.basename(w) if os.sep in w or "/" in w else w for w in value.split())
        parts.append(f"{option}={shown}")
    return re.sub(r"[^A-Za-z0-9=,.+_-]", "-", "_".join(parts))

