"""The library pipeline: puzzle -> models -> files -> figures, one way for every caller.

This module owns the orchestration that ``nonoqubo build``, ``nonoqubo info`` and
the instance suites (:mod:`nonoqubo.campaign.suite`) share, and the one set of
figure names they report:

* :meth:`Models.build` builds a puzzle's QUBO (timed); :meth:`Models.presolve`
  runs the presolve once (line logic, or with ``presolve="probe"`` probing on top of
  it) and fixes the variables it decides
  (:func:`nonoqubo.logic.presolve.fixings`); :meth:`Models.constrained` builds
  the constrained 0-1 model of the full or the presolved variant, once each;
  :meth:`Models.model` hands out the model a format of a kind (``"qubo"`` or
  ``"constrained"``) writes;
* :func:`write_files` writes models to several targets atomically: every file
  is renamed into place only when all are written;
* :class:`BuildPlan` is ``nonoqubo build``'s options, each checked once, before
  anything is read, built or written (the outputs and their formats, ``--ising``,
  the encoding and weights, the physical problem's options with their defaults);
* :meth:`Models.figures` and :meth:`Models.presolve_figures` are the figures
  (``info --json`` prints them, a suite's ``index.json`` keeps a selection);
  :func:`model_figures` those of a model read back from a file.

The figures of the presolved model are named ``variables_after_presolve``,
``terms_after_presolve``, ``linear_terms_after_presolve``,
``quadratic_terms_after_presolve`` and ``offset_after_presolve`` everywhere.

Each step of :class:`Models` may be wrapped by a caller in a progress display;
the pipeline itself prints nothing.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> models = Models.build(Puzzle.from_picture(["#.", "##"]))
    >>> models.figures()["variables"], models.presolve().num_vars
    (2, 0)
    >>> fig = models.presolve_figures()
    >>> fig["line_solvable"], fig["variables_after_presolve"], fig["offset_after_presolve"]
    (True, 0, 0)
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, ContextManager

from . import exports
from .errors import EmbeddingError, NonoquboError, UnsupportedFormat
from .logic.linesolve import LineSolveResult
from .logic.presolve import DEFAULT_PRESOLVE, check_presolve, fixings, logic_result
from .logic.probe import ProbeResult
from .model.build import build
from .model.constrained import ConstrainedModel, build_constrained
from .model.encodings import DEFAULT, Encoding, EncodingLike, geometry_of
from .model.weights import Weights
from .model.puzzle import Puzzle
from .model.qubo import Qubo
from .qpu.embedding import checked_on_its_topology, load_embedding

__all__ = ["BuildPlan", "Models", "kind_of", "logical_model", "model_figures", "qubo_to_embed", "write_files"]

#: ``step(message)``: a context manager around one long step (a progress spinner), or nothing
Step = Callable[[str], ContextManager[Any]]


def _no_step(message: str) -> ContextManager[Any]:
    return contextlib.nullcontext()


def kind_of(mod: ModuleType) -> str:
    """The kind of model an export format writes: ``"qubo"``, ``"constrained"``, or ``"puzzle"`` (a model of
    the puzzle itself, MiniZinc's, which is handed the QUBO its answers decode against)."""
    return getattr(mod, "KIND", "qubo")


@dataclass
class Models:
    """The models of one puzzle: the full QUBO, and once asked for, the presolved one and the constrained ones.

    Attributes:
        puzzle: the puzzle.
        qubo: its full QUBO.
        build_seconds: how long :func:`~nonoqubo.model.build.build` took.
        line: line logic's result (after :meth:`presolve`; with probing, line logic's on the probed grid).
        presolved: the QUBO with the variables the presolve decides fixed (after :meth:`presolve`).
        presolve_seconds: how long the presolve and the fixing took.
        presolve_method: ``"line"`` (line logic) or ``"probe"`` (probing on top of it).
        probe: probing's result (after :meth:`presolve` with ``"probe"``).
    """

    puzzle: Puzzle
    qubo: Qubo
    build_seconds: float = 0.0
    line: LineSolveResult | None = None
    presolved: Qubo | None = None
    presolve_seconds: float = 0.0
    presolve_method: str = DEFAULT_PRESOLVE
    probe: ProbeResult | None = None
    _constrained: dict[str, ConstrainedModel] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, puzzle: Puzzle, *, encoding: EncodingLike = DEFAULT, weights: Weights | None = None,
              presolve: str = DEFAULT_PRESOLVE) -> Models:
        """Build *puzzle*'s QUBO in *encoding* with *weights* (timed); :meth:`presolve` will run *presolve*."""
        check_presolve(presolve)
        start = time.perf_counter()
        qubo = build(puzzle, encoding=encoding, weights=weights)
        return cls(puzzle, qubo, time.perf_counter() - start, presolve_method=presolve)

    def presolve(self) -> Qubo:
        """The presolved QUBO: the presolve (:attr:`presolve_method`) runs once, the variables it decides are fixed.

        A ``qubo`` read from a file that is presolved already keeps its fixings and gains the
        rest, so presolving twice changes nothing.  A probed model says so (``Qubo.presolve``
        is ``"probe"``, written as the files' ``presolve`` metadata).

        Raises:
            PuzzleError: line logic (or probing) proves the puzzle has no solution.
        """
        if self.presolved is None:
            start = time.perf_counter()
            found = logic_result(self.puzzle, self.presolve_method)
            if isinstance(found, ProbeResult):
                self.probe, self.line = found, found.line
            else:
                self.line = found
            decided = fixings(self.puzzle, found, self.qubo.encoding)
            if self.qubo.fixed:
                decided = {label: value for label, value in decided.items() if label not in self.qubo.fixed}
            reduced = self.qubo.fix(decided)
            if self.probe is not None:
                reduced = dataclasses.replace(reduced, presolve="probe")
            self.presolved = reduced
            self.presolve_seconds = time.perf_counter() - start
        return self.presolved

    def constrained(self, variant: str = "full") -> ConstrainedModel:
        """The constrained 0-1 model, of the ``"full"`` puzzle or with the ``"presolved"`` variables fixed."""
        if variant not in self._constrained:
            reduced = self.presolve() if variant == "presolved" else None
            self._constrained[variant] = build_constrained(
                self.puzzle, fixed=dict(reduced.fixed) if reduced else None,
                presolve=reduced.presolve if reduced else None)
        return self._constrained[variant]

    def model(self, kind: str = "qubo", variant: str = "full") -> Any:
        """What a format of *kind* writes of *variant* (``"full"`` or ``"presolved"``)."""
        if kind == "constrained":
            return self.constrained(variant)
        return self.presolve() if variant == "presolved" else self.qubo

    # -- figures -------------------------------------------------------------------------------
    def figures(self) -> dict[str, Any]:
        """The figures of the puzzle and its full QUBO (``info --json``)."""
        puzzle, qubo = self.puzzle, self.qubo
        lay = geometry_of(puzzle, encoding=qubo.encoding)
        lo, hi = qubo.coefficient_range()
        degrees = qubo.degrees()
        return {
            "name": puzzle.name,
            "width": puzzle.width,
            "height": puzzle.height,
            "variables": qubo.num_vars,
            "row_variables": _row_vars(lay),
            "column_variables": qubo.num_vars - _row_vars(lay),
            "terms": qubo.num_terms,
            "linear_terms": qubo.num_linear,
            "quadratic_terms": qubo.num_quadratic,
            "offset": int(qubo.offset),
            **_encoding_figures(qubo),
            "coefficient_min": lo,
            "coefficient_max": hi,
            "max_degree": int(degrees.max()) if degrees.size else 0,
            "build_seconds": round(self.build_seconds, 4),
            **({"colours": [c.to_dict() for c in puzzle.palette.colours],
                "background": puzzle.palette.background.to_dict()} if puzzle.is_colour else {}),
        }

    def presolve_figures(self) -> dict[str, Any]:
        """What the presolve settles and the size of the presolved model (presolves if not done yet).

        With probing, ``settled_cells`` counts what line logic and probing settle together, and
        ``presolve`` (``"probe"``), ``line_settled_cells``, ``probe_solvable``, ``probe_rounds``,
        ``probe_probes`` (branches tried on cells), ``probe_variable_rounds`` and ``probe_variable_probes``
        (on the domain wall's variables, where cell probing left cells open) and
        ``probe_contradictions`` (of both) follow ``line_solver_passes``;
        line logic's figures are as they always were.

        Raises:
            PuzzleError: line logic (or probing) proves the puzzle has no solution.
        """
        reduced = self.presolve()
        res = self.line
        assert res is not None
        probe = self.probe
        probed: dict[str, Any] = {} if probe is None else {
            "presolve": "probe", "line_settled_cells": probe.line_settled,
            "probe_solvable": bool(probe.solved), "probe_rounds": probe.rounds, "probe_probes": probe.probes,
            "probe_variable_rounds": probe.variable_rounds, "probe_variable_probes": probe.variable_probes,
            "probe_contradictions": probe.contradictions}
        return {
            "settled_cells": res.settled,
            "cells": res.cells,
            "settled_percent": round(100.0 * res.fraction, 2),
            "line_solvable": bool(res.solved if probe is None else probe.line_settled == res.cells),
            "line_solver_passes": res.iterations,
            **probed,
            "fixed_variables": len(reduced.fixed),
            "variables_after_presolve": reduced.num_vars,
            "terms_after_presolve": reduced.num_terms,
            "linear_terms_after_presolve": reduced.num_linear,
            "quadratic_terms_after_presolve": reduced.num_quadratic,
            "offset_after_presolve": int(reduced.offset),
            "presolve_seconds": round(self.presolve_seconds, 4),
        }


def _row_vars(geo: Any) -> int:
    return int(getattr(geo, "num_row_vars", geo.layout.num_row_vars))


def _encoding_figures(model: Any) -> dict[str, Any]:
    """``encoding`` and ``weights`` of a model (a model without them is the domain wall at weights 1)."""
    return {"encoding": str(getattr(model, "encoding", DEFAULT)),
            "weights": Weights.of(getattr(model, "weights", None)).as_dict()}


def model_figures(model: Any) -> dict[str, Any]:
    """The figures of a model read from a file (a Qubo or a constrained model) and the metadata it carries."""
    puzzle = getattr(model, "puzzle", None)
    fixed = dict(getattr(model, "fixed", {}) or {})
    info: dict[str, Any] = {
        "name": getattr(puzzle, "name", None),
        "width": getattr(puzzle, "width", None),
        "height": getattr(puzzle, "height", None),
        "kind": "constrained" if hasattr(model, "num_constraints") else "qubo",
        "variables": model.num_vars,
        "fixed_variables": len(fixed),
        "fixed_to_one": sum(1 for v in fixed.values() if int(v)),
    }
    if fixed:  # which presolve fixed them: the file's ``presolve`` metadata (absent: line logic)
        info["presolved_by"] = getattr(model, "presolve", None) or "line"
    if info["kind"] == "constrained":
        info.update(constraints=model.num_constraints, nonzeros=model.num_nonzeros, constraint_kinds=model.counts())
        return info
    lo, hi = model.coefficient_range()
    degrees = model.degrees()
    info.update(terms=model.num_terms, linear_terms=model.num_linear, quadratic_terms=model.num_quadratic,
                offset=int(model.offset), **_encoding_figures(model), coefficient_min=lo, coefficient_max=hi,
                max_degree=int(degrees.max()) if degrees.size else 0)
    return info


def write_files(
    models: Models,
    targets: Sequence[tuple[str, ModuleType]],
    *,
    variant: str = "full",
    ising: bool = False,
    progress: bool = False,
    step: Step = _no_step,
) -> None:
    """Write the *variant* of *models* to every ``(path, format module)`` of *targets*.

    Every file is written to a temporary name and renamed into place only when all
    are written (``"-"`` is standard output).  QUBO writers show their own progress
    bar with *progress*; a constrained model (built here when first needed) and
    its writers run inside ``step(message)``.

    Raises:
        NonoquboError: a target cannot be written (no file is left behind).
    """
    for _, mod in targets:  # the constrained model first, in its own step (not inside an open file)
        if kind_of(mod) == "constrained" and variant not in models._constrained:
            with step("building the constrained model"):
                models.constrained(variant)
    with contextlib.ExitStack() as stack:
        for out, mod in targets:
            fh = stack.enter_context(exports.open_target(out, binary=bool(mod.BINARY)))
            kind = kind_of(mod)
            with step(f"writing {out}") if kind != "qubo" else contextlib.nullcontext():
                exports.write(models.model(kind, variant), fh, mod, ising=ising, progress=progress)


# -- the plan of a build -----------------------------------------------------------------------
@dataclass(frozen=True)
class BuildPlan:
    """What ``nonoqubo build`` will do, every option checked once, before anything is read or built.

    Made by :meth:`make`; the command then reads the input, builds and writes what the plan says.

    Attributes:
        source: the input (a clue file, ``"-"``, or with *embedding* a model file by its name).
        encoding: the :class:`~nonoqubo.model.encodings.Encoding` (looked up once); weights: the
            penalty weights (parsed).
        targets: ``(output, export format module)`` of a logical build, in ``-o`` order.
        physical: ``(output, "bqm" | "json")`` of a build with *embedding*; empty without one.
        reads_model: the input is a model file by its name, embedded as it is (``--embedding`` only).
        ising, presolve, constrained: the switches.
        presolve_method: the presolve ``--presolve`` names (``"line"``, the default, or ``"probe"``).
        embedding, chain_strength, h_range, j_range, precision: the physical problem's options,
            the QPU defaults filled in (``uniform-torque``, the topology's ranges, 0.02).
    """

    source: str
    encoding: Encoding
    weights: Weights
    targets: tuple[tuple[str, ModuleType], ...] = ()
    physical: tuple[tuple[str, str], ...] = ()
    reads_model: bool = False
    ising: bool = False
    presolve: bool = False
    constrained: bool = False
    embedding: str | None = None
    chain_strength: str = "uniform-torque"
    h_range: str | None = None
    j_range: str | None = None
    precision: float = 0.02
    presolve_method: str = DEFAULT_PRESOLVE

    @property
    def variant(self) -> str:
        """``"presolved"`` with --presolve, else ``"full"``."""
        return "presolved" if self.presolve else "full"

    @property
    def outputs(self) -> list[str]:
        """Every output, in ``-o`` order."""
        return [out for out, _ in (self.physical or self.targets)]

    @property
    def write_bytes_per_term(self) -> int:
        """The largest writing cost per term of the targets' formats (the memory guard's figure)."""
        return max((mod.WRITE_BYTES_PER_TERM for _, mod in self.targets), default=0)

    @property
    def has_constrained(self) -> bool:
        """A target writes the constrained model."""
        return any(kind_of(mod) == "constrained" for _, mod in self.targets)

    @classmethod
    def make(
        cls,
        source: str,
        outputs: Sequence[str],
        formats: Sequence[str] | None = None,
        *,
        from_format: str | None = None,
        encoding: str | None = None,
        weights: str | None = None,
        ising: bool = False,
        presolve: bool | str = False,
        constrained: bool = False,
        embedding: str | None = None,
        chain_strength: str | None = None,
        h_range: str | None = None,
        j_range: str | None = None,
        precision: float | None = None,
    ) -> BuildPlan:
        """The checked plan of ``build SOURCE -o OUT... [-f FORMAT...]`` and its options.

        *encoding* and *weights* are the texts given (None: not given); *presolve* is a switch or
        the presolve's name (``"line"``, ``"probe"``; True is line logic); each check is made once,
        here: the encoding and weights, a physical problem as input, the number of ``-f``, every
        output's format (and whether it can carry ``--ising`` or the constrained model), the QPU
        options, every output's folder (and that it is not the input), standard output or a file
        named twice.

        Raises:
            NonoquboError: the first option that is wrong, in one line (``UnsupportedFormat`` for a
                format, ``UnknownEncoding`` for the encoding, ``WeightsError`` for the weights, ``PhysicalError`` for the
                physical problem).
        """
        from ._util.atomic import check_distinct_outputs, check_not_input, check_writable
        from .inputs import is_model_input
        from .model.encodings import encoding_named, encodings
        from .model.weights import parse_weights
        from .qpu.physical import DEFAULT_PRECISION, check_not_physical, parse_chain_strength, parse_range, physical_format

        method = check_presolve(presolve) if isinstance(presolve, str) else DEFAULT_PRESOLVE
        presolve = bool(presolve)
        name = encoding_named(encoding, "--encoding")  # checked first: a bad --weights is one line
        parsed = Weights() if weights is None else parse_weights(weights)
        check_not_physical(source, "build")
        outs, fmts = list(outputs), list(formats or [])
        qpu_given = [flag for flag, value in (("--chain-strength", chain_strength), ("--h-range", h_range),
                                              ("--j-range", j_range), ("--precision", precision)) if value is not None]
        if embedding is None and qpu_given:
            raise NonoquboError(f"{qpu_given[0]} applies only with --embedding (the physical problem on qubits)")
        if embedding is not None:
            for flag, on in (("--ising", ising), ("--constrained", constrained)):
                if on:
                    raise NonoquboError(f"{flag} does not apply with --embedding: the physical problem is an Ising "
                                        "model on qubits (.bqm or .json)")
        elif constrained and not name.constrained:
            has = ", ".join(e.name for e in encodings() if e.constrained)
            raise NonoquboError(f"--constrained writes a 0-1 program, which the {name.name} encoding has none of "
                                f"(encodings with one: {has}); leave out --encoding {name.name}")
        elif constrained and weights is not None:
            raise NonoquboError("--constrained writes a 0-1 program (no penalties to weigh); it takes no --weights")
        if fmts and len(fmts) not in (1, len(outs)):
            raise NonoquboError(f"-f was given {len(fmts)} times for {len(outs)} outputs; give it once, or once per -o")
        named = [fmts[k] if len(fmts) > 1 else (fmts[0] if fmts else None) for k in range(len(outs))]
        targets: list[tuple[str, ModuleType]] = []
        physical: list[tuple[str, str]] = []
        reads_model = False
        if embedding is not None:
            physical = [(out, physical_format(out, fmt)) for out, fmt in zip(outs, named)]
            parse_chain_strength(chain_strength or "uniform-torque")
            for flag, value in (("--h-range", h_range), ("--j-range", j_range)):
                if value is not None:
                    parse_range(value, flag)
            if precision is not None and not (math.isfinite(precision) and precision >= 0):
                raise NonoquboError(f"--precision must be a number of at least 0, not {precision}")
        else:
            targets = [(out, _target_format(out, fmt, ising=ising, constrained=constrained))
                       for out, fmt in zip(outs, named)]
            for out, mod in targets:  # a 0-1 program by its format (.lp, .mps, .cqm), not only by --constrained
                if kind_of(mod) == "constrained" and not name.constrained:
                    has = ", ".join(e.name for e in encodings() if e.constrained)
                    raise NonoquboError(f"{out}: the {mod.NAME} format holds a 0-1 program, which the {name.name} "
                                        f"encoding has none of (encodings with one: {has}); write a QUBO format")
        for out in outs:
            check_writable(out)
            check_not_input(out, source, embedding)  # every file build reads: the clues or model, the embedding
        check_distinct_outputs(*(("-o", out) for out in outs))  # standard output or one file named twice
        if embedding is not None and is_model_input(source, from_format):
            if encoding is not None or weights is not None or presolve:
                raise NonoquboError(f"{source}: a model file is embedded as it is; --encoding, --weights and "
                                    "--presolve apply to clue files")
            reads_model = True
        return cls(source, name, parsed, tuple(targets), tuple(physical), reads_model, ising, presolve, constrained,
                   embedding, chain_strength or "uniform-torque", h_range, j_range,
                   DEFAULT_PRECISION if precision is None else precision, method)


def _target_format(out: str, name: str | None, *, ising: bool, constrained: bool) -> ModuleType:
    """The export format of output *out* (named, else by its extension), checked against the switches."""
    if name:
        mod = exports.get_format(name)
    elif out == "-":
        raise UnsupportedFormat("'-o -' needs a format: add -f FORMAT (see 'nonoqubo formats')")
    else:
        mod = exports.format_for_path(out, "constrained" if constrained else None)
    if ising and not getattr(mod, "ISING", False):
        able = ", ".join(m.NAME for m in exports.formats() if getattr(m, "ISING", False))
        raise UnsupportedFormat(f"{out}: the {mod.NAME} format cannot carry an Ising model; --ising works with: {able}")
    if constrained and kind_of(mod) != "constrained":
        able = ", ".join(m.NAME for m in exports.formats("constrained")) or "none installed"
        raise NonoquboError(f"{out}: --constrained writes the constrained model, which the {mod.NAME} format "
                            f"(a QUBO format) cannot hold; constrained formats: {able}")
    return mod


# -- the model an embedding is for ----------------------------------------------------------------
def qubo_to_embed(model: Any, *, presolve: bool, source: str) -> tuple[Qubo, bool]:
    """The QUBO ``embed`` embeds, and whether it is presolved.

    *model* is a :class:`Puzzle` (its QUBO is built) or a :class:`Qubo` read from a file (taken as
    written; a file written by ``build --presolve`` is presolved already).  With *presolve* the
    variables line logic decides are fixed first (a model file needs its clues for that).

    Raises:
        EmbeddingError: a constrained model, or --presolve on a model file without clues.
        PuzzleError: line logic proves the puzzle has no solution.
    """
    if isinstance(model, Puzzle):
        models = Models.build(model)
        return (models.presolve(), True) if presolve else (models.qubo, False)
    if not isinstance(model, Qubo):
        raise EmbeddingError(f"{source}: a constrained model has no QUBO to embed; embed the clue file, or a "
                             "QUBO built without --constrained")
    if model.fixed or not presolve:
        return model, bool(model.fixed)
    if model.puzzle is None:
        raise EmbeddingError(f"{source}: --presolve needs the clues, and this model file carries none; "
                             "embed the clue file, or a model built with 'build --presolve'")
    return Models(model.puzzle, model).presolve(), True


def logical_model(model: Any, embedding_path: str | Path) -> tuple[Qubo, Any]:
    """The logical model an embedding file is for, and the embedding (checked against it).

    *model* is what ``decode`` read: a :class:`Qubo` (a model file; the embedding must be for it)
    or a :class:`~nonoqubo.model.puzzle.Puzzle` (a clue file: its full model, or its presolved
    one when the embedding says it was made for a presolved model).

    Raises:
        EmbeddingError: the embedding is for another model, or not valid on its topology (a chain not
            connected, chains swapped, another topology's qubits): one line naming the file.
        TopologyError: its topology cannot be read.
    """
    emb = load_embedding(embedding_path)  # read once; checked below against the model it is for
    if isinstance(model, Puzzle):
        models = Models.build(model)
        qubo = models.presolve() if emb.model.get("presolved") else models.qubo
    else:
        qubo = model
    return qubo, checked_on_its_topology(emb, os.fspath(embedding_path), qubo)[0]  # as build and solve check it
