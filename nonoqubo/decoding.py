"""The decode road: a model or puzzle and a solver's samples -> reports, in one call.

``nonoqubo decode`` (and any program) calls :func:`decode_samples` once; it does every step
once, in this order:

1. the chain-break method is checked (:func:`check_chain_break`: only with an embedding, a known
   name, default ``majority``);
2. the model or puzzle is opened (:func:`nonoqubo.inputs.open_input`, ``what="any"``), and the
   model the samples were drawn from is chosen (:func:`model_for`): the run record an answer of
   ``solve -o`` carries (:func:`nonoqubo.samples.record_of`, :func:`~nonoqubo.samples.recorded_model`:
   encoding, weights, presolve) is built from a clue file and said in :attr:`Decoded.model_note`; a
   model file, or an ``encoding``/``weights``/``presolve`` asked, that disagrees with it is refused
   in one line naming both; an answer with no record is decoded against the model asked
   (``decode --encoding``/``--weights``/``--presolve``, default the clue file's default model);
3. with an embedding, the logical model it is for is chosen (a clue file's full or presolved model,
   :func:`nonoqubo.pipeline.logical_model`) and the embedding checked against it;
4. the :class:`~nonoqubo.answers.decode.Decoder` is built, once, for that model;
5. the samples are read once (a file's bytes, a FIFO or ``<(...)`` too, or standard input's text:
   its run record of step 2 and its samples come from the same read) and parsed once: a file
   (:func:`nonoqubo.samples.raw_from_bytes`; a name that is not a file is "No such file", never
   taken for text), standard input (``"-"``, :func:`nonoqubo.samples.parse_raw`), or none for a
   model with no variables; then matched to
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

from .answers.decode import Analysis, Decoder, Report, Reports, select
from .errors import FormatError, NonoquboError, SampleError
from .inputs import open_input
from .logic.presolve import DEFAULT_PRESOLVE
from .model.encodings import DEFAULT, encoding_named
from .model.estimate import check_fits
from .model.puzzle import Puzzle
from .model.qubo import Qubo
from .model.weights import Weights
from .pipeline import Models, logical_model
from .qpu.unembed import CHAIN_BREAK_METHODS, chain_breaks_of, physical_batch
from ._util.stream import read_bytes
from .records import RunRecord
from .samples import (RawSamples, RecordedModel, SampleBatch, match, parse_raw, raw_from_bytes, read_raw, record_of,
                      recorded_model, samples_from, searched_text, the_record)

__all__ = ["Asked", "Decoded", "check_chain_break", "decode", "decode_samples", "decoder_of", "model_for",
           "no_samples"]

#: the class a decoder made already is (``Decoder`` itself is called by name below, once per decode)
_DECODER_CLASS = Decoder

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
        model_note: the one line saying that the model was built as the samples' run record names it
            (``decode`` prints it on standard error); None when no record chose the model.
    """

    decoder: Decoder
    batch: SampleBatch
    analysis: Analysis
    reports: list[Report]
    best: Report
    chain_breaks: dict[str, Any] | None
    model_name: str
    model_note: str | None = None

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


def _named(path: str, make: Any) -> Any:
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


@dataclass(frozen=True)
class Asked:
    """The model asked for explicitly (``decode --encoding``/``--weights``/``--presolve``); None: not asked.

    Examples:
        >>> asked = Asked.of(encoding="one-hot", weights="cell=2")
        >>> asked.encoding.name, str(asked.weights), asked.presolve, asked.options()
        ('one-hot', 'shape=1,order=1,cell=2', None, ['--encoding one-hot', '--weights shape=1,order=1,cell=2'])
    """

    encoding: Any = None
    weights: Weights | None = None
    presolve: str | None = None

    @classmethod
    def of(cls, encoding: Any = None, weights: Any = None, presolve: bool | str | None = None) -> Asked:
        """The model asked: an encoding (name or :class:`~nonoqubo.model.encodings.Encoding`), weights (text,
        mapping or :class:`Weights`) and a presolve (``"line"``, ``"probe"``; True is ``"line"``), each checked.

        Raises:
            UnknownEncoding, WeightsError, NonoquboError: one that is not one (naming the option).
        """
        from .logic.presolve import PRESOLVES

        if presolve is True:
            presolve = DEFAULT_PRESOLVE
        if presolve not in (None, False) and presolve not in PRESOLVES:
            raise NonoquboError(f"--presolve takes {' or '.join(PRESOLVES)}, not {presolve!r}")
        return cls(None if encoding is None else encoding_named(encoding, "--encoding"),
                   None if weights is None else Weights.of(weights, "--weights"), presolve or None)

    def options(self) -> list[str]:
        """The options asked, as ``decode`` spells them."""
        return ([f"--encoding {self.encoding.name}"] if self.encoding is not None else []) + \
            ([f"--weights {self.weights}"] if self.weights is not None else []) + \
            ([f"--presolve {self.presolve}"] if self.presolve else [])

    def against(self, recorded: RecordedModel) -> list[str]:
        """The options asked that differ from the model a run record names."""
        return ([f"--encoding {self.encoding.name}"] if self.encoding is not None
                and self.encoding.name != recorded.encoding.name else []) + \
            ([f"--weights {self.weights}"] if self.weights is not None
             and tuple(self.weights) != tuple(recorded.weights) else []) + \
            ([f"--presolve {self.presolve}"] if self.presolve and self.presolve != recorded.presolve else [])


def model_for(opened: Any, recorded: RecordedModel | None, asked: Asked = Asked(), *, model_name: str,
              samples_name: str, force: bool = False) -> tuple[Any, str | None]:
    """The model samples are decoded against, and the line that says a run record chose it (None otherwise).

    Args:
        opened: what the model or clue file holds: a :class:`Puzzle`, a :class:`Qubo` or a constrained model.
        recorded: the model the samples' run record names (:func:`nonoqubo.samples.recorded_model`), or None.
        asked: the model asked for explicitly.
        model_name, samples_name: how messages name the model and the samples.
        force: build a model the memory guard says would not fit.

    A clue file's puzzle is built in the recorded encoding, weights and presolve (or the asked ones, or
    the defaults); a model file is decoded as it is (presolved when the record or *asked* says so).

    Raises:
        NonoquboError: options asked that disagree with the record; a model file whose encoding or weights
            disagree with the record or with the options asked; ``--presolve`` for a constrained model.
    """
    if recorded is not None and (conflicts := asked.against(recorded)):
        raise NonoquboError(
            f"{samples_name}: its run record says it was drawn from {recorded.words()}, but {', '.join(conflicts)} "
            f"{'ask' if len(conflicts) > 1 else 'asks'} for another model: leave out {' and '.join(c.split()[0] for c in conflicts)} (decode builds the "
            "model the record names), or decode the samples of a run of the model asked")
    presolve = asked.presolve or (recorded.presolve if recorded is not None else None)
    if not isinstance(opened, Puzzle):  # a model file: as it is
        encoding, weights = encoding_named(getattr(opened, "encoding", None)), Weights.of(getattr(opened, "weights", None))
        if recorded is not None and (recorded.encoding.name != encoding.name or tuple(recorded.weights) != tuple(weights)):
            raise NonoquboError(
                f"{samples_name}: its run record says it was drawn from the {recorded.encoding.name} model at weights "
                f"{recorded.weights}, but {model_name} is the {encoding.name} model at weights {weights}: give the "
                "model file it was drawn from, or its clue file (decode then builds the model the record names)")
        if (asked.encoding is not None and asked.encoding.name != encoding.name) or \
                (asked.weights is not None and tuple(asked.weights) != tuple(weights)):
            raise NonoquboError(f"{model_name}: a model file keeps its own encoding ({encoding.name}, weights {weights}); "
                                "--encoding and --weights apply to clue files")
        if not presolve:
            return opened, None
        if not isinstance(opened, Qubo) or opened.puzzle is None:
            if asked.presolve:
                raise NonoquboError(f"{model_name}: --presolve applies to a clue file or a QUBO model file that carries "
                                    "its clues, not to this model")
            return opened, None
        return Models(opened.puzzle, opened, presolve_method=presolve).presolve(), None
    built = RecordedModel(asked.encoding if asked.encoding is not None else
                          recorded.encoding if recorded is not None else DEFAULT,
                          asked.weights if asked.weights is not None else
                          recorded.weights if recorded is not None else Weights(), presolve)
    note = None if recorded is None else \
        f"{samples_name} records its run's model: decoding against {recorded.words()}, built from {model_name}"
    if built.encoding is DEFAULT and built.weights.is_default and not presolve:
        return opened, note  # the clue file's own model: the decoder needs no build
    check_fits(opened, model_name, force=force, encoding=built.encoding)
    models = Models.build(opened, encoding=built.encoding, weights=built.weights,
                          presolve=presolve or DEFAULT_PRESOLVE)
    return (models.presolve() if presolve else models.qubo), note


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
    encoding: Any = None,
    weights: Any = None,
    presolve: bool | str | None = None,
) -> Decoded:
    """Decode *samples* of *model_or_puzzle*, every step once (see the module docstring).

    Args:
        model_or_puzzle: a model file or clue file (a path), a :class:`Puzzle`, a model, or a :class:`Decoder`.
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
        encoding, weights, presolve: the model asked (:class:`Asked`), for samples that record no run;
            a run record's model is built without them, and one that differs is refused.

    Returns:
        The :class:`Decoded` result.

    Raises:
        NonoquboError: a bad option, a file that cannot be read (``OSError`` for a missing one,
            naming it), samples that do not fit the model, a model asked or given that is not the
            one the samples' run record names.
    """
    method = check_chain_break(chain_break, embedding)
    asked = Asked.of(encoding, weights, presolve)
    name = os.fspath(model_or_puzzle) if isinstance(model_or_puzzle, (str, os.PathLike)) else \
        getattr(getattr(model_or_puzzle, "puzzle", model_or_puzzle), "name", None) or "<model>"
    if embedding is not None and samples is None:
        raise NonoquboError("--embedding: give the qubit samples (SAMPLES)")
    if embedding is not None and asked.options():
        raise NonoquboError(f"{', '.join(o.split()[0] for o in asked.options())}: with --embedding the model is the one "
                            "the embedding was made for; give that model's file as MODEL")
    given = _samples_given(samples)
    samples_name, record = _record(samples, given)
    recorded = recorded_model(record, samples_name)
    note = None
    emb = None
    if isinstance(model_or_puzzle, _DECODER_CLASS):  # made already (the library's decode of a Decoder)
        decoder = model_or_puzzle
    else:
        opened = _named(name, lambda: open_input(name, what="any", command="decode", force=force)) \
            if isinstance(model_or_puzzle, (str, os.PathLike)) else model_or_puzzle
        if embedding is not None:
            opened, emb = logical_model(opened, os.fspath(embedding))
        model, note = model_for(opened, recorded, asked, model_name=name, samples_name=samples_name, force=force)
        decoder = _named(name, lambda: Decoder(model))
    breaks: dict[str, Any] | None = None
    if samples is None:
        batch = no_samples(decoder, name)
    elif isinstance(samples, (str, os.PathLike)):
        raw, source = _parse(samples, format, given, empty_ok=not decoder.labels)
        if emb is not None:
            batch, unembedded = physical_batch(decoder, raw, emb, method, source, spin, seed)
            breaks = unembedded.summary()
        else:
            batch = match(raw, decoder.labels, spin=spin, fixed=decoder.fixed, source=source, puzzle=decoder.puzzle,
                          encoding=decoder.encoding)
            breaks = chain_breaks_of(raw, source)
    elif emb is not None:
        raise NonoquboError("--embedding: give the qubit samples as a file or standard input")
    else:
        batch = decoder.batch(samples, format=format, spin=spin)
    analysis = decoder.analyse(batch.bits)
    reports = decoder.reports(analysis, select(analysis, which), batch)
    best_index = int(select(analysis, "best")[0])
    best = next((r for r in reports if r.index == best_index), None) or decoder.report(analysis, best_index, batch)
    return Decoded(decoder, batch, analysis, reports, best, breaks, name, note)


def _is_stdin(samples: Any) -> bool:
    return isinstance(samples, (str, os.PathLike)) and os.fspath(samples) == "-"


def _samples_given(samples: Any) -> str | bytes | None:
    """The samples as read, once: standard input's text, or a file's bytes (a FIFO or ``<(...)`` too).

    None for samples that are not a path, and for a file that cannot be read (the samples reader
    names it, after the model, where ``decode`` always has).
    """
    if samples is None or not isinstance(samples, (str, os.PathLike)):
        return None
    if _is_stdin(samples):
        return sys.stdin.read()
    try:
        return read_bytes(os.fspath(samples), os.fspath(samples))
    except OSError:
        return None


def _record(samples: Any, given: str | bytes | None) -> tuple[str, RunRecord | None]:
    """How messages name the samples, and the run record they carry (None: none, or no samples)."""
    if samples is None:
        return "<no samples>", None
    if isinstance(given, str):
        return "<stdin>", the_record(given, "<stdin>")
    if isinstance(samples, (str, os.PathLike)):
        path = os.fspath(samples)  # a file that cannot be read is the samples reader's to name
        return path, None if given is None else the_record(searched_text(given), path)
    return "the samples", record_of(samples)


def _parse(samples: str | os.PathLike[str], format: str | None, given: str | bytes | None, *,
           empty_ok: bool) -> tuple[RawSamples, str]:
    """The samples of standard input's text or a file's bytes, read once (:func:`_samples_given`), parsed once."""
    if isinstance(given, str):
        return parse_raw(given, format=format, source="<stdin>", empty_ok=empty_ok)
    if isinstance(given, bytes):
        return raw_from_bytes(given, format=format, source=os.fspath(samples), empty_ok=empty_ok)
    return read_raw(samples, format=format, empty_ok=empty_ok)


def decode(model_or_puzzle: Any, samples: Any, *, which: str = "all", format: str | None = None,
           spin: bool | None = None, encoding: Any = None, weights: Any = None,
           presolve: bool | str | None = None) -> Reports:
    """Decode samples into one :class:`Report` per sample shown (``nonoqubo.decode``).

    :func:`nonoqubo.answers.decode.decode`, whose arguments it takes, except that
    *model_or_puzzle* may also be a path (an exported model or a clue file, opened once), and that
    samples which record their run (a SampleSet ``solve`` returned or wrote) are decoded against the
    model the record names (its encoding, weights and presolve; :func:`model_for`): the run's own
    energies.  *encoding*, *weights* and *presolve* ask for a model when the samples record none.

    Returns:
        :class:`~nonoqubo.answers.decode.Reports`: a list of the reports in sample order, that Jupyter
        shows as their pictures and verdicts.

    Examples:
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> [r.valid for r in decode(Puzzle.from_picture(["#.", ".#"]), [[0, 1, 0, 1], [1, 1, 0, 1]])]
        [True, False]
    """
    result = decode_samples(model_or_puzzle, samples, which=which, format=format, spin=spin,
                            encoding=encoding, weights=weights, presolve=presolve)
    return Reports(result.reports)
