"""Annealing schedules as users write them: a beta range, a file of betas, an SQA schedule file.

Simulated annealing walks the inverse temperature ``beta`` from hot (small) to cold (large).
dwave-samplers' :class:`SimulatedAnnealingSampler` takes the walk three ways, and ``solve`` offers
all three (``sa``):

* ``--beta-range LO,HI``: the first and last beta; ``--beta-schedule linear`` or ``geometric``
  (dwave-samplers' default) says how the betas between them are spaced.  Without a range the
  sampler picks one from the model's biases (for nonoqubo's models about ``[0.02, 23]``);
* ``--beta-schedule custom FILE``: the betas themselves, one per line or a JSON list, which must
  never decrease (annealing cools); ``--sweeps`` then must not be given, since the schedule's
  length times ``--sweeps-per-beta`` is the number of sweeps;
* ``--sweeps-per-beta N``: how many sweeps each beta is held for.

OpenJij's simulated quantum annealing (``openjij-sqa``) takes ``--sqa-schedule FILE``: rows of
``s sweeps`` (beta fixed, ``--beta``) or ``s beta sweeps``, ``s`` the annealing parameter from 0
(all transverse field) to 1 (none), which must never decrease.

This module owns those readers; each refuses a bad value in one line that names the option
(and the file and line), before anything is sampled (:func:`~nonoqubo.solvers.samplers.check_options`
calls them).

Examples:
    >>> parse_beta_range("0.5,10")
    (0.5, 10.0)
    >>> parse_beta_range("10,0.5")
    Traceback (most recent call last):
    nonoqubo.errors.SolverError: --beta-range: LO must be below HI, not 10.0,0.5
    >>> betas_from_text("0.1\\n0.5\\n2", "betas.txt").tolist()
    [0.1, 0.5, 2.0]
    >>> betas_from_text("[1, 0.5]", "betas.json")
    Traceback (most recent call last):
    nonoqubo.errors.SolverError: --beta-schedule custom betas.json: beta 2 (0.5) is below beta 1 (1.0): a schedule must not decrease
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .._util.stream import read_bytes
from .._util.guard import json_loads
from ..errors import FormatError, SolverError

__all__ = ["SCHEDULE_TYPES", "betas_from_text", "format_beta_range", "parse_beta_range", "parse_beta_schedule", "read_betas",
           "read_sqa_schedule", "sqa_schedule_from_text"]

#: the spacings ``--beta-schedule`` takes (dwave-samplers' ``beta_schedule_type``)
SCHEDULE_TYPES = ("linear", "geometric", "custom")

#: a schedule file larger than this is refused (a schedule is a few thousand numbers)
_MAX_BYTES = 10_000_000


def parse_beta_range(text: str | Sequence[float]) -> tuple[float, float]:
    """``"LO,HI"`` (or a pair) as ``(LO, HI)``: both finite, ``0 < LO < HI``; a one-line error otherwise."""
    if isinstance(text, str):
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != 2:
            raise SolverError(f"--beta-range takes LO,HI (two numbers, e.g. 0.5,10), not {text!r}")
        try:
            lo, hi = float(parts[0]), float(parts[1])
        except ValueError:
            raise SolverError(f"--beta-range takes LO,HI (two numbers, e.g. 0.5,10), not {text!r}") from None
    else:
        if len(text) != 2:
            raise SolverError(f"--beta-range takes two numbers LO,HI, not {list(text)!r}")
        lo, hi = float(text[0]), float(text[1])
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo <= 0:
        raise SolverError(f"--beta-range: LO and HI must be finite and above 0, not {lo},{hi}")
    if lo >= hi:
        raise SolverError(f"--beta-range: LO must be below HI, not {lo},{hi}")
    return lo, hi


def parse_beta_schedule(words: Sequence[str]) -> tuple[str, str | None]:
    """``--beta-schedule``'s words as ``(kind, file)``: ``linear``, ``geometric``, or ``custom FILE``.

    Examples:
        >>> parse_beta_schedule(["custom", "betas.txt"]), parse_beta_schedule(["linear"])
        (('custom', 'betas.txt'), ('linear', None))
    """
    words = list(words)
    if len(words) == 1 and words[0] in ("linear", "geometric"):
        return words[0], None
    if len(words) == 2 and words[0] == "custom":
        return "custom", words[1]
    if words == ["custom"]:
        raise SolverError("--beta-schedule custom needs a FILE of betas (one per line, or a JSON list)")
    raise SolverError(f"--beta-schedule takes linear, geometric or custom FILE, not {' '.join(words)!r}")


def format_beta_range(beta_range: tuple[float, float]) -> str:
    """The range as the run record and a sweep's folder name write it: ``"0.5,10"``."""
    return ",".join(f"{v:g}" for v in beta_range)


def _numbers(text: str, source: str, option: str) -> list[list[float]]:
    """The rows of numbers of a schedule file: a JSON list (of numbers or of rows), or text lines."""
    stripped = text.strip()
    if not stripped:
        raise SolverError(f"{option} {source}: the file is empty")
    if stripped.startswith("["):
        try:  # the guarded reader: no integer of thousands of digits, no nesting past its limit
            data = json_loads(stripped, source)
        except FormatError as exc:
            raise SolverError(f"{option} {exc}") from None
        rows = [row if isinstance(row, list) else [row] for row in data] if isinstance(data, list) else None
        if not rows or not all(all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in r) for r in rows):
            raise SolverError(f"{option} {source}: a JSON schedule is a non-empty list of numbers (or of rows of numbers)")
        return [[_float(v) for v in r] for r in rows]
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].replace(",", " ").strip()
        if not line:
            continue
        try:
            rows.append([float(v) for v in line.split()])
        except ValueError:
            raise SolverError(f"{option} {source}:{number}: not a number: {line!r}") from None
    if not rows:
        raise SolverError(f"{option} {source}: no numbers in the file")
    return rows


def _float(value: int | float) -> float:
    """*value* as a float; an integer past the floats (``10**400``) is infinite, which the checks refuse."""
    try:
        return float(value)
    except OverflowError:
        return math.copysign(math.inf, value)


def _read(path: str, option: str) -> str:
    try:  # a FIFO or <(...) is read once, as a stream, and kept: the check and the run read the same betas
        return read_bytes(path, f"{option} {path}", limit=_MAX_BYTES).decode("utf-8-sig")
    except OSError as exc:
        raise SolverError(f"{option} {path}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise SolverError(f"{option} {path}: not a text file") from None


def betas_from_text(text: str, source: str) -> np.ndarray:
    """The betas of a custom schedule (one per line, or a JSON list): finite, above 0, never decreasing."""
    option = "--beta-schedule custom"
    rows = _numbers(text, source, option)
    if any(len(r) != 1 for r in rows):
        raise SolverError(f"{option} {source}: one beta per line (or a JSON list of numbers)")
    betas = np.array([r[0] for r in rows], dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(betas) | (betas <= 0))
    if bad.size:
        raise SolverError(f"{option} {source}: beta {bad[0] + 1} ({betas[bad[0]]}) must be a finite number above 0")
    down = np.flatnonzero(np.diff(betas) < 0)
    if down.size:
        i = int(down[0])
        raise SolverError(f"{option} {source}: beta {i + 2} ({betas[i + 1]}) is below beta {i + 1} "
                          f"({betas[i]}): a schedule must not decrease")
    return betas


def read_betas(path: str) -> np.ndarray:
    """:func:`betas_from_text` of the file *path*."""
    return betas_from_text(_read(path, "--beta-schedule custom"), path)


def sqa_schedule_from_text(text: str, source: str) -> list[list[float]]:
    """OpenJij's SQA schedule: rows ``[s, sweeps]`` or ``[s, beta, sweeps]``, ``0 <= s <= 1`` never
    decreasing, beta above 0, sweeps a whole number of at least 1 (sweeps are returned as ints)."""
    option = "--sqa-schedule"
    rows = _numbers(text, source, option)
    width = len(rows[0])
    if width not in (2, 3) or any(len(r) != width for r in rows):
        raise SolverError(f"{option} {source}: every row is 's sweeps' or every row 's beta sweeps'")
    previous = -math.inf
    out: list[list[float]] = []
    for i, row in enumerate(rows, 1):
        s, sweeps = row[0], row[-1]
        if not 0 <= s <= 1:
            raise SolverError(f"{option} {source}: row {i}: s must be from 0 to 1, not {s:g}")
        if s < previous:
            raise SolverError(f"{option} {source}: row {i}: s ({s:g}) is below the row before ({previous:g}): "
                              "s must not decrease")
        if width == 3 and not (math.isfinite(row[1]) and row[1] > 0):
            raise SolverError(f"{option} {source}: row {i}: beta must be a finite number above 0, not {row[1]:g}")
        if sweeps != int(sweeps) or sweeps < 1:
            raise SolverError(f"{option} {source}: row {i}: sweeps must be a whole number of at least 1, not {sweeps:g}")
        previous = s
        out.append([*row[:-1], int(sweeps)])
    return out


def read_sqa_schedule(path: str) -> list[list[float]]:
    """:func:`sqa_schedule_from_text` of the file *path*."""
    return sqa_schedule_from_text(_read(path, "--sqa-schedule"), path)
