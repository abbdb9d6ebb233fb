"""Warm starts: the states a sampler starts its reads from (``--initial-states``).

A warm start replaces the random first state of every read.  ``solve --initial-states`` takes

* ``line``: what line logic decides (:func:`nonoqubo.logic.presolve.fixings`), and for every
  variable it leaves open a random 0 or 1 (drawn from ``seed``; each read its own draw).  With
  ``--presolve`` the decided variables are out of the model already, so every state is random;
* ``probe``: the same with what probing decides (``fixings(..., method="probe")``: line logic, then
  one-cell probing, then probing of the model's variables; :mod:`nonoqubo.logic.probe`), so every
  state respects the probe's fixings.  A start is only a start: to keep the fixings for the whole
  anneal, take the fixed variables out of the model with ``--presolve probe``;
* a file of samples in any format ``decode`` reads (a SampleSet JSON an earlier ``solve -o``
  wrote, a 0/1 vector file, a MIP solution, MiniZinc's pictures...), matched to the model's
  variables as ``decode`` matches them (:meth:`~nonoqubo.answers.decode.Decoder.batch`): a sample of
  the full model starts a presolved one from its free variables, and another model's labels, or
  a vector of the wrong length, are refused in one line;
* a picture (``#``/``.`` text, or any clue file that carries its solution), encoded through the
  model's layout and encoding (grid -> block shifts -> the encoding's variables), as a CP
  solver's answer is.

Read ``r`` starts from state ``r mod K`` of the file's ``K`` states (a file of one state starts
every read from it).  A sampler that runs several anneals per read (``sa --restarts R``:
:attr:`~nonoqubo.solvers.samplers.SamplerSpec.starts_per_read`) is handed ``reads * R`` states,
anneal ``j`` of read ``r`` starting from state ``j * reads + r`` (so with ``line`` or ``probe``
every restart is its own random completion of the fixings).  :func:`initial_states` is the one function; the QPU samplers' reverse anneal
uses it too (``nonoqubo.solvers.initial.initial_states(qubo, spec, reads, seed)``).

Examples:
    >>> from nonoqubo.model.build import build
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> q = build(Puzzle.from_picture(["#.", "##"]))
    >>> initial_states(q, "line", 2, seed=1).shape == (2, q.num_vars)
    True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .._util.stream import is_file_like
from ..answers.decode import Decoder
from ..errors import FormatError, NonoquboError, SampleError, UnsupportedFormat
from ..logic.presolve import fixings
from ..model.qubo import Qubo
from ..samples import RawSamples, match

__all__ = ["LINE", "PROBE", "WORDS", "initial_states"]

#: the ``--initial-states`` value that asks for line logic's fixings plus random values
LINE = "line"
#: the ``--initial-states`` value that asks for probing's fixings plus random values
PROBE = "probe"
#: the values of ``--initial-states`` that are not a file: a presolve's fixings (its name) plus random values
WORDS = (LINE, PROBE)


def initial_states(qubo: Qubo, spec: str, reads: int, seed: int | None = None, *,
                   decoder: Decoder | None = None) -> np.ndarray:
    """The ``(reads, N)`` 0/1 matrix (int8, the model's variable order) read ``r`` starts from.

    Args:
        qubo: the model sampled (presolved or not); it must carry its puzzle.
        spec: ``"line"``, ``"probe"``, or the path of a samples file or a picture.
        reads: how many reads (rows).
        seed: seeds the random values of ``"line"`` (None: fresh randomness).
        decoder: the model's :class:`Decoder`, when one is made already.

    Raises:
        SampleError: the file's states are not the model's (unknown labels, wrong length),
            it is missing or unreadable, or the model carries no puzzle.
    """
    n = qubo.num_vars
    if spec in WORDS:
        if qubo.puzzle is None:
            raise SampleError(f"--initial-states {spec}: the model carries no clues for {spec} logic to read")
        known = fixings(qubo.puzzle, encoding=qubo.encoding, method=spec)
        fixed = np.array([known.get(str(label), -1) for label in qubo.labels], dtype=np.int8)
        states = np.random.default_rng(seed).integers(0, 2, size=(reads, n), dtype=np.int8)
        decided = fixed >= 0
        states[:, decided] = fixed[decided]
        return states
    bits = _file_states(qubo, spec, decoder)
    if bits.shape[1] != n:
        raise SampleError(f"--initial-states {spec}: its states have {bits.shape[1]} values but the model has {n} variables")
    return np.ascontiguousarray(bits[np.arange(reads) % len(bits)], dtype=np.int8)


def _file_states(qubo: Qubo, path: str, decoder: Decoder | None) -> np.ndarray:
    """The states of the file *path*, matched to *qubo*: as samples, else as a picture."""
    if not is_file_like(path):  # a FIFO or <(...) too: the samples reader reads it once, as a stream
        raise SampleError(f"--initial-states {path}: no such file (give a samples file, a picture, or 'line')")
    if qubo.puzzle is None:
        raise SampleError(f"--initial-states {path}: the model carries no clues to match the states to")
    decoder = decoder or Decoder(qubo)
    try:
        batch = decoder.batch(path)
    except UnsupportedFormat:  # not a samples format: maybe a picture of the answer
        return _picture_states(qubo, decoder, path)
    except (SampleError, FormatError) as exc:
        raise SampleError(f"--initial-states: {exc}") from None
    if len(batch) == 0:
        raise SampleError(f"--initial-states {path}: the file holds no state")
    return batch.bits


def _picture_states(qubo: Qubo, decoder: Decoder, path: str) -> np.ndarray:
    """A picture (or a clue file carrying its solution) encoded in the model's variables."""
    from ..clues import load

    try:
        read = load(path)
    except (NonoquboError, OSError) as exc:
        raise SampleError(f"--initial-states {path}: neither samples nor a picture ({exc})") from None
    grid = read.solution_grid()
    if grid is None:
        raise SampleError(f"--initial-states {path}: a clue file without a solution; give samples or a picture")
    puzzle: Any = qubo.puzzle
    if grid.shape != (puzzle.height, puzzle.width):
        raise SampleError(f"--initial-states {path}: a {grid.shape[1]}x{grid.shape[0]} picture, but the puzzle is "
                          f"{puzzle.width}x{puzzle.height}")
    raw = RawSamples(grids=[grid])
    try:
        return match(raw, decoder.labels, fixed=decoder.fixed, source=str(Path(path)), puzzle=puzzle,
                     encoding=decoder.encoding).bits
    except SampleError as exc:
        raise SampleError(f"--initial-states: {exc}") from None
