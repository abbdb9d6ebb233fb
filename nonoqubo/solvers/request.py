"""One solve request: what a run is asked (sampler, its options, presolve, encoding, weights), as one value.

A :class:`SolveRequest` is what ``nonoqubo solve`` builds from its command line, what each setting
of ``solve --sweep`` and each task of a campaign plan (``nonoqubo run``) is, and what a run file
records: one value, made one of three ways and checked in one place.

* :meth:`SolveRequest.of` from Python keywords: the sampler, the fields of
  :class:`~nonoqubo.solvers.base.SampleOptions` (``reads``, ``seed``, ``sweeps``, the knobs, the
  OpenJij ``schedule`` and the ``qpu`` dicts) and the request's own ``presolve``, ``encoding`` and
  ``weights``; ``solve(puzzle, "sa", reads=5)`` is ``solve(puzzle, SolveRequest.of("sa", reads=5))``;
* :meth:`SolveRequest.from_options` from *option names* as ``solve`` spells them (``beta-range``,
  ``time-limit``, ``topology``...; :mod:`nonoqubo.solvers.options` defines each once), with text or
  YAML/JSON values: a sweep's setting, a plan's setting, the command line's given options;
* :meth:`SolveRequest.with_seed` the same request at another seed (a campaign's tasks).

:meth:`~SolveRequest.check` refuses a bad value or an option the sampler does not take, in one line,
before any model is read (the sampler table's :func:`~nonoqubo.solvers.samplers.check_options`,
and the presolve's name).  What the model must allow (``tabu``'s tenure, an embedding for this
model, a warm start matched to it) is checked by :func:`nonoqubo.solvers.sampling.prepare`.

:meth:`~SolveRequest.parameters` is the run record's ``parameters``: one flat dict of plain values
(``reads``, ``seed``, ``sweeps``, ``time_limit``, ``workers``, ``count`` always, then the OpenJij
options, the QPU options and the knobs that were given, and ``presolve``), which ``evaluate``
groups a *setting* by, all but :data:`RUN_IDENTITY` (the seed and the number of reads, which say
which runs and how many).  :meth:`~SolveRequest.identity` is the identity of its run on a model (the
model file's digest, encoding, weights, presolve, and every parameter), and :meth:`~SolveRequest.matches`
tells whether a run file's record has that identity, whole (a campaign skips a task whose file matches).

Examples:
    >>> request = SolveRequest.from_options({"sampler": "sa", "reads": "20", "beta-range": "0.5,10",
    ...                                      "presolve": "probe"})
    >>> request.sampler, request.options.reads, request.options.beta_range, request.presolve
    ('sa', 20, (0.5, 10.0), 'probe')
    >>> request.with_seed(3).parameters()
    {'reads': 20, 'seed': 3, 'sweeps': None, 'time_limit': None, 'workers': None, 'count': None, 'beta_range': '0.5,10', 'presolve': 'probe'}
    >>> SolveRequest.of("tabu", sweeps=100).check()
    Traceback (most recent call last):
    nonoqubo.errors.SolverError: --sweeps does not apply to the tabu sampler (it applies to: sa, openjij-sa, openjij-sqa, pt, pa, lines, mock-dwave)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from .._util.plain import json_safe
from ..errors import SolverError
from ..logic.presolve import PRESOLVES
from ..model.encodings import Encoding, EncodingLike, encoding_named
from ..model.weights import Weights
from ..records import RUN_IDENTITY, RunIdentity, RunRecord  # the run record owns it
from ..records.run import canonical
from .base import KNOBS, SampleOptions
from .options import MOST_SPIN_UPDATES, bounded_values, check_bounds, parse_value, split_given
from .qpu import QPU_OPTIONS
from .samplers import SamplerSpec, check_options, sampler_spec
from .tempering import DEFAULT_SWEEPS
from .schedule import format_beta_range, parse_beta_range, parse_beta_schedule

__all__ = ["RUN_IDENTITY", "SolveRequest", "presolve_name"]

#: the SampleOptions fields a request is given (``states`` and ``step`` are made when it runs)
_SAMPLING = tuple(f.name for f in fields(SampleOptions) if f.name not in ("states", "step"))


def presolve_name(value: bool | str | None) -> str | None:
    """The presolve asked for: None (none), ``"line"`` (True, line logic) or ``"probe"``.

    Raises:
        SolverError: another name.

    Examples:
        >>> presolve_name(True), presolve_name(False), presolve_name("probe")
        ('line', None, 'probe')
    """
    if value is None or value is False:
        return None
    if value is True:
        return "line"
    if isinstance(value, str) and value in PRESOLVES:
        return value
    raise SolverError(f"--presolve takes {' or '.join(PRESOLVES)} (or true/false), not {value!r}")


@dataclass(frozen=True)
class SolveRequest:
    """What one solve is asked: the sampler, its options, and how the model is made.

    Attributes:
        sampler: a name of :data:`~nonoqubo.solvers.samplers.SAMPLER_TABLE`.
        options: the sampler's options (reads, seed, sweeps, time limit, knobs, OpenJij schedule, QPU).
        presolve: None (sample the whole model), ``"line"`` (fix what line logic decides first) or
            ``"probe"`` (what probing decides too).
        encoding, weights: how a clue file's QUBO is built (None: the default encoding, weights 1);
            a model file keeps its own, and a request that names others for it is refused.
    """

    sampler: str = "sa"
    options: SampleOptions = field(default_factory=SampleOptions)
    presolve: str | None = None
    encoding: Encoding | None = None
    weights: Weights | None = None

    # -- made -----------------------------------------------------------------------------------
    @classmethod
    def of(cls, sampler: str = "sa", *, presolve: bool | str | None = None, encoding: EncodingLike | None = None,
           weights: Weights | Mapping[str, int] | str | None = None, **sampling: Any) -> SolveRequest:
        """The request of Python keywords: *sampling* the fields of :class:`SampleOptions` (a beta range may be
        its text ``"LO,HI"``; a ``beta_schedule`` of ``"custom FILE"`` is the kind and its file).

        Raises:
            TypeError: a keyword that is not a field of :class:`SampleOptions` (a typo of a knob).
            SolverError, UnknownEncoding, WeightsError: a presolve, encoding or weights that is not one.
        """
        unknown = sorted(set(sampling) - set(_SAMPLING))
        if unknown:
            raise TypeError(f"unknown sampling option {unknown[0]!r}; the options are {', '.join(_SAMPLING)} "
                            f"(the knobs: {', '.join(KNOBS)})")
        if isinstance(sampling.get("beta_range"), str):
            sampling["beta_range"] = parse_beta_range(sampling["beta_range"])
        elif sampling.get("beta_range") is not None:
            sampling["beta_range"] = tuple(sampling["beta_range"])
        kind = sampling.get("beta_schedule")
        if isinstance(kind, str) and kind.split(None, 1)[0] == "custom" and len(kind.split(None, 1)) == 2:
            sampling["beta_schedule"], sampling["beta_schedule_file"] = parse_beta_schedule(kind.split(None, 1))
        for group in ("schedule", "qpu"):  # None values count as not given: kept out, so equal requests compare equal
            if sampling.get(group) is not None:
                sampling[group] = {k: v for k, v in sampling[group].items() if v is not None} or None
        return cls(sampler, SampleOptions(**sampling), presolve_name(presolve),
                   None if encoding is None else encoding_named(encoding, "--encoding"),
                   None if weights is None else Weights.of(weights, "--weights"))

    @classmethod
    def from_options(cls, values: Mapping[str, Any], *, where: str = "") -> SolveRequest:
        """The request of *values*, option names as ``solve`` spells them (``beta-range``, ``time-limit``;
        :data:`nonoqubo.solvers.options.OPTIONS`) with text or YAML/JSON values; a value of None is not given.

        Args:
            values: option name -> value.
            where: what names the values in a message (``plan.yaml: setting sa``), before the option.

        Raises:
            SolverError (and UnknownEncoding, WeightsError): an unknown option or a value of the wrong kind,
                one line: ``WHERE: OPTION: what is wrong``.
        """
        prefix = f"{where}: " if where else ""
        parsed: dict[str, Any] = {}
        for name, value in values.items():
            if value is None:
                continue
            try:
                parsed[name] = parse_value(name, value)
            except SolverError as exc:
                raise SolverError(f"{prefix}{exc}") from None
        parts = split_given(parsed)
        sampling = dict(parts["options"])
        if parts["schedule"]:
            sampling["schedule"] = parts["schedule"]
        if parts["qpu"]:
            sampling["qpu"] = parts["qpu"]
        try:
            return cls.of(**parts["request"], **sampling)
        except SolverError as exc:
            raise SolverError(f"{prefix}{exc}") from None
        except (TypeError, ValueError) as exc:  # WeightsError, UnknownEncoding are ValueErrors with their place
            if isinstance(exc, TypeError):
                raise SolverError(f"{prefix}{exc}") from None
            raise type(exc)(f"{prefix}{exc}") from None

    def with_seed(self, seed: int | None) -> SolveRequest:
        """This request at *seed* (read ``r`` uses ``seed + r``)."""
        return replace(self, options=replace(self.options, seed=seed))

    # -- checked --------------------------------------------------------------------------------
    @property
    def spec(self) -> SamplerSpec:
        """The sampler's table entry (:class:`SolverError` for an unknown sampler)."""
        return sampler_spec(self.sampler)

    def check(self) -> SolveRequest:
        """Refuse, in one line and before any model is read, a bad value or an option the sampler does not
        take (:func:`~nonoqubo.solvers.samplers.check_options`), a count or a time past its bound
        (:func:`~nonoqubo.solvers.options.check_bounds`); the request itself when it is good."""
        check_bounds(bounded_values(self.options))  # first: no count that would not run in a day or fit in memory
        check_options(self.options, self.sampler)
        self.check_work()  # nor a product of counts: the work of one variable already too much
        presolve_name(self.presolve)
        return self

    def check_work(self, variables: int | None = None) -> None:
        """Refuse a run whose work, reads x replicas x sweeps x *variables* spin updates (as ``run --dry-run``
        counts it: :meth:`~nonoqubo.solvers.samplers.SamplerSpec.spin_updates`), is past the sampler's bound
        (:data:`~nonoqubo.solvers.options.MOST_SPIN_UPDATES`, for a sampler whose
        :attr:`~nonoqubo.solvers.samplers.SamplerSpec.work_bounded`: ``pt``, ``pa``).

        Without *variables* (before the model is read) the work of one variable is checked: what no
        model can make smaller.

        Raises:
            SolverError: one line with the work, how it is made and the bound.

        Examples:
            >>> SolveRequest.of("pt", reads=10, replicas=1_000_000).check_work(17)
            Traceback (most recent call last):
            nonoqubo.errors.SolverError: --sampler pt: 170,000,000,000 spin updates (10 reads x 1,000,000 replicas x 1,000 sweeps x 17 variables); at most 100,000,000,000 a run: lower --reads, --replicas or --sweeps
        """
        spec = self.spec
        if not spec.work_bounded:
            return
        most = MOST_SPIN_UPDATES
        options = self.options
        n = max(1, variables or 0)
        work = spec.spin_updates(options, n, DEFAULT_SWEEPS)
        if work <= most:
            return
        states = spec.states_per_read(options) if spec.states_per_read is not None else 1
        made = (f"{options.reads:,} reads x {states:,} replicas x {options.sweeps or DEFAULT_SWEEPS:,} sweeps"
                + (f" x {n:,} variables" if variables else ", before the model's variables"))
        raise SolverError(f"--sampler {self.sampler}: {'' if variables else 'at least '}{work:,} spin updates ({made}); "
                          f"at most {most:,} a run: lower --reads, --replicas or --sweeps")

    # -- recorded -------------------------------------------------------------------------------
    def parameters(self) -> dict[str, Any]:
        """The run record's ``parameters`` (the module docstring): one flat dict of plain values.

        Examples:
            >>> SolveRequest.of("openjij-sqa", reads=5, schedule={"trotter": 8}).parameters()
            {'reads': 5, 'seed': None, 'sweeps': None, 'time_limit': None, 'workers': None, 'count': None, 'trotter': 8, 'presolve': False}
            >>> SolveRequest.of("mock-dwave", qpu={"topology": "pegasus:6", "annealing_time": 100.0}).parameters()["annealing_time"]
            100.0
        """
        options = self.options
        record: dict[str, Any] = {"reads": options.reads, "seed": options.seed, "sweeps": options.sweeps,
                                  "time_limit": options.time_limit, "workers": options.workers,
                                  "count": options.count}
        record.update({k: v for k, v in (options.schedule or {}).items() if v is not None})
        record.update({k: json_safe(v) for k, v in (options.qpu or {}).items()
                       if k in QPU_OPTIONS and v is not None})
        for name in KNOBS:
            value = getattr(options, name)
            if value is not None:
                record[name] = format_beta_range(value) if name == "beta_range" else value
        record["presolve"] = {None: False, "line": True}.get(self.presolve, self.presolve)
        return record

    def setting_parameters(self) -> dict[str, Any]:
        """:meth:`parameters` but the ones that say which runs and how many (:data:`RUN_IDENTITY`)."""
        return {k: v for k, v in self.parameters().items() if k not in RUN_IDENTITY}

    def identity(self, digest: str | None, encoding: str, weights: Weights) -> RunIdentity:
        """The identity (:class:`~nonoqubo.records.RunIdentity`) of this request's run on the model file of sha256
        *digest*, in *encoding* at *weights*: what its run file must record to be this run."""
        return RunIdentity(digest, encoding, str(weights), self.presolve, self.sampler, canonical(self.parameters()))

    def matches(self, record: RunRecord, digest: str | None, encoding: str, weights: Weights) -> bool:
        """Whether a run file's record is this request's run on that model: the two identities, compared whole
        (the model's digest, encoding, weights and presolve, the sampler, every parameter, the seed too)."""
        return record.identity() == self.identity(digest, encoding, weights)

    def describe(self) -> str:
        """The request in ``solve``'s words: ``sa --reads 20 --seed 3 --beta-range 0.5,10 --presolve probe``."""
        words = [self.sampler]
        for key, value in self.parameters().items():
            if value is None or value is False or (key == "reads" and value == SampleOptions.reads):
                continue
            flag = "--" + key.replace("_", "-")
            words.append(flag if value is True and key != "presolve" else
                         "--presolve" if key == "presolve" and value is True else f"{flag} {value}")
        if self.encoding is not None:
            words.append(f"--encoding {self.encoding.name}")
        if self.weights is not None:
            words.append(f"--weights {self.weights}")
        return " ".join(words)


