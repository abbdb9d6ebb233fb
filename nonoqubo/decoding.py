"""The decode road: a model or puzzle and a solver's samples -> reports, in one call.

``nonoqubo decode`` (and any program) calls :func:`decode_samples` once; it does every step
once, in this order:

1. the chain-break method is checked (:func:`check_chain_break`: only with an embedding, a known
   name, default ``majority``);
2. the model or puzzle is opened (:func:`nonoqubo.inputs.open_input`, ``what="any"``);
3. with an embedding, the logical model it is for is chosen (a clue file's full or presolved model,
   :func:`nonoqubo.pipeline.logical_model`) and the embedding checked against it;
4. the :class:`~nonoqubo.answers.decode.Decoder` is built, once, for that model;
5. the samples are parsed, once: a file (:func:`nonoqubo.samples.read_raw`; a name that is not a
   file is "No such file", never taken for text), standard input (``"-"``,
   :func:`nonoqubo.samples.parse_raw`), or none for a model with no variables; then matched to
   the model's variables, or with an embedding unembedded from qubits
   (:func:`nonoqubo.qpu.unembed.physical_batch`); the chain breaks a SampleSet carries are read
   from the same parse (:func:`nonoqubo.qpu.unembed.chain_breaks_of`);
6. the batch is analysed and the shown samples reported (:class:`Decoded`).

It sits in the work layer because it combines ``answers`` (decoding) with ``qpu`` (unembedding)
and ``inputs`` (opening).  :func:`decode` is :func:`nonoqubo.answers.decode.decode` that also
takes a path, the public ``nonoqubo.decode``.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> result = decode_samples(Puzzle.from_picture(["#.", ".#"]), [[0, 1, 0, 1], [1, 1, 0, 1]], which="all")
    >>> [r.valid for r in result.reports], result.best.index, result.summary()["num_valid"]
    ([True, False], 0, 1)
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any

from .answers.decode import Analysis, Decoder, Report, select
from .answers.decode import decode as answers_decode
from .errors import FormatError, NonoquboError, SampleError
from .inputs import open_input
from .pipeline import logical_model
from .qpu.unembed import CHAIN_BREAK_METHODS, chain_breaks_of, physical_batch
from .samples import RawSamples, SampleBatch, match, parse_raw, read_raw, samples_from

__all__ = ["Decoded", "check_chain_break", "decode", "decode_samples", "decoder_of", "no_samples"]

#: the chain-break method when none is named
DEFAULT_CHAIN_BREAK = "majority"


@dataclass
class Decoded:
    """What one decode found: the decoder, the samples, their analysis and the reports shown.

    Attributes:
        decoder: the decoder of the (logical) model the samples are for.
        batch: the samples, matched to the model's variables.
        analysis: every sample, vectorised (:meth:`Decoder.analyse`).
        reports: the reports of the samples shown (``which``), in sample order.
        best: the report of the best sample (one of *reports*, or made for it).
        chain_breaks: the chain breaks (``decode --json``'s ``"chain_breaks"``): of the unembedding,
            or what an unembedded SampleSet carried; None when there are none to report.
        model_name: how the model is named in the summary (its path, or what was given).
    """

    decoder: Decoder
    batch: SampleBatch
    analysis: Analysis
    reports: list[Report]
    best: Report
    chain_breaks: dict[str, Any] | None
    model_name: str

    @property
    def source(self) -> str:
        """Where the samples came from (the report's first line names it)."""
        return self.batch.source

    @property
    def notes(self) -> list[str]:
        """How labels were read another program's way, or ignored (``decode`` prints one line)."""
        return list(self.batch.extra.get("notes") or [])

    def summary(self) -> dict[str, Any]:
        """The summary of ``decode --json`` (``schemas/report.schema.json``, kind 'decode')."""
        decoder, analysis = self.decoder, self.analysis
        out: dict[str, Any] = {
            "model": self.model_name,
            "variables": len(decoder.labels),
            "fixed": len(decoder.fixed),
            "encoding": str(decoder.encoding),
            "weights": decoder.weights.as_dict(),
            "num_samples": len(analysis),
            "num_valid": int(analysis.valid.sum()),
            "best_energy": int(analysis.energy.min()),
        }
        if self.chain_breaks is not None:
            out["chain_breaks"] = self.chain_breaks
        return out


def check_chain_break(method: str | None, embedding: Any = None) -> str:
    """The chain-break method (default ``majority``), checked once.

    Raises:
        NonoquboError: a method without an embedding (nothing to unembed), or an unknown one.
    """
    if method is None:
        return DEFAULT_CHAIN_BREAK
    if not embedding:
        raise NonoquboError("--chain-break applies only with --embedding (samples on qubits)")
    if method not in CHAIN_BREAK_METHODS:
        raise NonoquboError(f"--chain-break: unknown method {method!r}; choose one of "
                            f"{', '.join(CHAIN_BREAK_METHODS)}")
    return method


def decoder_of(model_or_puzzle: Any, *, force: bool = False) -> Decoder:
    """The :class:`Decoder` of a puzzle, a model, or the file that holds one (opened by ``open_input``).

    Raises:
        FormatError: a model file whose labels contradict its own clues (naming the file), or that
            carries no clues; and every error of :func:`nonoqubo.inputs.open_input`.
    """
    if not isinstance(model_or_puzzle, (str, os.PathLike)):
        return Decoder(model_or_puzzle)
    path = os.fspath(model_or_puzzle)
    return _named(path, lambda: Decoder(open_input(path, what="any", command="decode", force=force)))


def _named(path: str, make: Any) -> Decoder:
    try:
        return make()
    except SampleError as exc:  # the file's labels contradict its own clues: name the file
        raise FormatError(f"{path}: {exc}") from None


def no_samples(decoder: Decoder, model: str) -> SampleBatch:
    """The one (empty) sample of a model with no variables; any other model needs SAMPLES.

    Raises:
        NonoquboError: the model has variables (naming how many).
    """
    if decoder.labels:
        raise NonoquboError(f"{model}: the model has {len(decoder.labels)} variables: give the solver's "
                            "SAMPLES file (only a model presolve left with no variables decodes without one)")
    return samples_from([[]], decoder.labels, fixed=decoder.fixed, source=f"{model} (no variables: no samples needed)")


def decode_samples(
    model_or_puzzle: Any,
    samples: Any = None,
    *,
    which: str = "best",
    format: str | None = None,
    spin: bool | None = None,
    embedding: str | os.PathLike[str] | None = None,
    chain_break: str | None = None,
    seed: int | None = None,
    force: bool = False,
) -> Decoded:
    """Decode *samples* of *model_or_puzzle*, every step once (see the module docstring).

    Args:
        model_or_puzzle: a model file or clue file (a path), a :class:`Puzzle`, or a model.
        samples: a samples file (a path: ``str`` or ``os.PathLike``), ``"-"`` for standard input,
            None for a model with no variables, or any in-memory form
            :meth:`Decoder.batch` takes (without *embedding*).
        which: show ``"best"`` (the lowest energy) or ``"all"``.
        format: the samples format (detected from the content when None).
        spin: the values are spins (True), 0/1 (False), or detected (None).
        embedding: EMB.json: the samples are on qubits, mapped back through its chains.
        chain_break: how a broken chain gives its variable's value (:data:`CHAIN_BREAK_METHODS`,
            default majority); only with *embedding*.
        seed: makes ``chain_break="weighted"`` repeatable.
        force: read a model (or take a puzzle) the memory guard says would not fit.

    Returns:
        The :class:`Decoded` result.

    Raises:
        NonoquboError: a bad option, a file that cannot be read (``OSError`` for a missing one,
            naming it), samples that do not fit the model.
    """
    method = check_chain_break(chain_break, embedding)
    name = os.fspath(model_or_puzzle) if isinstance(model_or_puzzle, (str, os.PathLike)) else \
        getattr(getattr(model_or_puzzle, "puzzle", model_or_puzzle), "name", None) or "<model>"
    if embedding is not None and samples is None:
        raise NonoquboError("--embedding: give the qubit samples (SAMPLES)")
    if embedding is None:
        decoder = decoder_of(model_or_puzzle, force=force)
        opened = None
    else:
        opened = open_input(name, what="any", command="decode", force=force) \
            if isinstance(model_or_puzzle, (str, os.PathLike)) else model_or_puzzle
    emb = None
    if opened is not None:
        assert embedding is not None
        qubo, emb = logical_model(opened, os.fspath(embedding))
        decoder = _named(name, lambda: Decoder(qubo))
    breaks: dict[str, Any] | None = None
    if samples is None:
        batch = no_samples(decoder, name)
    elif isinstance(samples, (str, os.PathLike)):
        raw, source = _parse(samples, format, empty_ok=not decoder.labels)
        if emb is not None:
            batch, unembedded = physical_batch(decoder, raw, emb, method, source, spin, seed)
            breaks = unembedded.summary()
        else:
            batch = match(raw, decoder.labels, spin=spin, fixed=decoder.fixed, source=source, puzzle=decoder.puzzle,
                          encoding=decoder.encoding)
            breaks = chain_breaks_of(raw)
    elif emb is not None:
        raise NonoquboError("--embedding: give the qubit samples as a file or standard input")
    else:
        batch = decoder.batch(samples, format=format, spin=spin)
    analysis = decoder.analyse(batch.bits)
    reports = decoder.reports(analysis, select(analysis, which), batch)
    best_index = int(select(analysis, "best")[0])
    best = next((r for r in reports if r.index == best_index), None) or decoder.report(analysis, best_index, batch)
    return Decoded(decoder, batch, analysis, reports, best, breaks, name)


def _parse(samples: str | os.PathLike[str], format: str | None, *, empty_ok: bool) -> tuple[RawSamples, str]:
    """The samples of a file, or of standard input for ``"-"``, parsed once."""
    if os.fspath(samples) == "-":
        return parse_raw(sys.stdin.read(), format=format, source="<stdin>", empty_ok=empty_ok)
    return read_raw(samples, format=format, empty_ok=empty_ok)


def decode(model_or_puzzle: Any, samples: Any, *, which: str = "all", format: str | None = None,
           spin: bool | None = None) -> list[Report]:
    """Decode samples into one :class:`Report` per sample shown (``nonoqubo.decode``).

    :func:`nonoqubo.answers.decode.decode`, whose arguments it takes, except that
    *model_or_puzzle* may also be a path (an exported model or a clue file, opened once).

    Examples:
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> [r.valid for r in decode(Puzzle.from_picture(["#.", ".#"]), [[0, 1, 0, 1], [1, 1, 0, 1]])]
        [True, False]
    """
    return answers_decode(decoder_of(model_or_puzzle), samples, which=which, format=format, spin=spin)
