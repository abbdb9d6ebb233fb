"""Physical samples -> logical samples: read qubit values, undo the chains, count the breaks.

This module owns ``decode --embedding``: samples a QPU (or anything else) returned for the
physical problem, one value per qubit, are mapped back through the embedding's chains with
``dwave.embedding.unembed_sampleset`` and one of its chain-break methods
(:data:`CHAIN_BREAK_METHODS`):

* ``majority`` (default): a chain takes the value most of its qubits have (``majority_vote``;
  a tie goes to +1, as dwave.embedding breaks it);
* ``discard``: samples with any broken chain are dropped (``discard``);
* ``weighted``: a chain takes the value of one of its qubits chosen at random
  (``weighted_random``: the chance of a value is the share of qubits that have it; as Ocean
  does it, one qubit per chain for every sample); ``seed`` (``decode --chain-break-seed``) makes it repeatable;
* ``minimize-energy``: broken chains are set one by one to the value that lowers the logical
  energy most (``MinimizeEnergy``).

A chain is *broken* in a sample when its qubits disagree.  :class:`Unembedded` reports, for
every sample read, the fraction of chains broken, and overall (over every read, counting
``num_occurrences``); ``discard`` also says how many samples were kept.

**Qubit samples** are read by any of ``decode``'s sample formats
(:func:`nonoqubo.samples.read_raw`) and matched here, by qubit: a label is a qubit number (an
integer, or its text: ``{"1234": -1}``, a SampleSet of the physical problem); vectors with no
labels hold one value per qubit of the embedding in increasing qubit order (the order of
``phys.json``'s ``h`` and of ``phys.bqm``).  Values are spins -1/+1 or 0/1 (detected, as
``decode`` does: a -1 means spins).  Qubits outside the chains are ignored; a chain's qubit
missing from a sample is an error naming the sample, the qubit and the variable.

A SampleSet that dwave-system's ``FixedEmbeddingComposite`` already unembedded is read as
today (its labels are the model's); :func:`chain_break_column` gives its
``chain_break_fraction`` column for the report.

Examples:
    >>> from nonoqubo.model.qubo import Qubo
    >>> from nonoqubo.samples import RawSamples
    >>> q = Qubo.from_terms(["a", "b"], [1, -1], [(0, 1, 1)])
    >>> raw = RawSamples(maps=[{0: 1, 1: 1, 2: -1}, {0: 1, 1: -1, 2: -1}])
    >>> u = unembed(raw, {"a": (0, 1), "b": (2,)}, q)
    >>> u.bits.tolist(), u.fractions.tolist(), u.overall
    ([[1, 0], [1, 0]], [0.0, 0.5], 0.25)
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import MissingDependency, NonoquboError, PhysicalError
from ..model.qubo import Qubo
from ..samples import RawSamples, checked_occurrences

__all__ = ["CHAIN_BREAK_METHODS", "Unembedded", "chain_break_column", "chain_breaks_of", "read_back_from",
           "physical_batch", "qubit_spins", "unembed"]

#: --chain-break NAME -> the dwave.embedding.chain_breaks function it uses
CHAIN_BREAK_METHODS = {"majority": "majority_vote", "discard": "discard", "weighted": "weighted_random",
                       "minimize-energy": "MinimizeEnergy"}


#: qubit numbers of samples are below 2^63 (int64; real QPUs number theirs below 10^5)
QUBIT_LIMIT = 2**63


@dataclass
class Unembedded:
    """Logical samples made from qubit samples, with the chain breaks of every sample read.

    Attributes:
        bits: ``(K, N)`` 0/1 in the model's variable order, one row per sample kept.
        kept: ``(K,)`` the index, among the samples read, of every row of ``bits``.
        broken: ``(S, N)`` True where variable ``v``'s chain is broken in sample ``s`` (every sample read).
        num_occurrences: ``(S,)`` how often each sample read was seen (1 when the file did not say).
        method: the chain-break method's name.
    """

    bits: np.ndarray
    kept: np.ndarray
    broken: np.ndarray
    num_occurrences: np.ndarray
    method: str
    #: the seed of ``weighted``'s random choice (None: unseeded, or a method that draws nothing)
    seed: int | None = None

    @property
    def fractions(self) -> np.ndarray:
        """``(S,)`` the fraction of chains broken in each sample read."""
        n = self.broken.shape[1]
        return self.broken.sum(axis=1) / n if n else np.zeros(self.broken.shape[0])

    @property
    def overall(self) -> float:
        """The fraction of chains broken over every read (``num_occurrences`` counted)."""
        weights = self.num_occurrences.astype(np.float64)
        return float((self.fractions * weights).sum() / weights.sum()) if weights.sum() else 0.0

    def summary(self) -> dict[str, Any]:
        """The ``"chain_breaks"`` object of ``decode --json``."""
        return {"method": self.method, "chains": int(self.broken.shape[1]), "overall": self.overall,
                "samples_read": int(self.broken.shape[0]), "samples_kept": int(self.kept.size),
                "per_sample": self.fractions.tolist(), "kept": self.kept.tolist(),
                **({"seed": self.seed} if self.seed is not None else {})}


def _labels_to_qubits(labels: Sequence[Any], source: str) -> np.ndarray:
    """Integer qubit numbers of sample labels (integers or their ASCII digits), each below :data:`QUBIT_LIMIT`."""
    out = np.empty(len(labels), np.int64)
    for k, label in enumerate(labels):
        text = label.strip() if isinstance(label, str) else None
        if isinstance(label, numbers.Integral) and not isinstance(label, bool):
            number = int(label)
        elif text is not None and text.isascii() and text.isdigit():  # "²" and "٣" pass str.isdigit()
            number = int(text) if len(text.lstrip("0")) <= 19 else QUBIT_LIMIT  # int() of 5,000 digits fails
        else:
            raise PhysicalError(f"{source}: the sample's variable {_shown(label)} is not a qubit number: with "
                                "--embedding the samples are the physical problem's, labelled by qubit (samples of "
                                "the model's variables decode without --embedding)")
        if not 0 <= number < QUBIT_LIMIT:
            raise PhysicalError(f"{source}: the sample's qubit {_shown(label)} is out of range: qubit numbers are "
                                f"0 .. {QUBIT_LIMIT - 1}")
        out[k] = number
    return out


def _shown(label: Any) -> str:
    """*label* as a message shows it: its repr, at most 40 characters."""
    text = repr(label) if not isinstance(label, int) or abs(label) < 10**30 else "(a number of over 30 digits)"
    return text if len(text) <= 40 else text[:37] + "..."


def qubit_spins(raw: RawSamples, chains: Mapping[str, Sequence[int]], source: str = "<samples>",
                spin: bool | None = None) -> np.ndarray:
    """``(S, Q)`` int8 spins of the chains' qubits, the chains in order, each chain's qubits in order.

    Raises:
        PhysicalError: a label that is not a qubit, a chain's qubit missing, a value that is not a
            spin or a bit, vectors of the wrong length.
    """
    if raw.grids is not None:
        raise PhysicalError(f"{source}: these answers are pictures, not qubit values: decode them without --embedding")
    columns = np.fromiter((q for chain in chains.values() for q in chain), np.int64)
    owner = [v for v, chain in chains.items() for _ in chain]
    if raw.maps is not None:
        if not raw.maps:
            raise PhysicalError(f"{source}: no samples")
        values = np.empty((len(raw.maps), columns.size), np.float64)
        for s, sample in enumerate(raw.maps):
            if not isinstance(sample, Mapping):
                raise PhysicalError(f"{source}: sample {s} is not a {{qubit: value}} object")
            qubits = _labels_to_qubits(list(sample), source)
            row = np.array([_number(v, source, s) for v in sample.values()], np.float64)
            values[s] = _pick(qubits, row[None, :], columns, owner, source, s)[0]
    else:
        if isinstance(raw.values, list) and len({len(row) for row in raw.values if isinstance(row, Sequence)}) > 1:
            raise PhysicalError(f"{source}: the samples do not all have the same length (one value a qubit each)")
        try:
            data = np.asarray(raw.values, dtype=np.float64) if not isinstance(raw.values, np.ndarray) else raw.values
        except (TypeError, ValueError):
            raise PhysicalError(f"{source}: the samples are not rows of numbers, one value a qubit") from None
        if data.ndim == 1:
            data = data[None, :]
        if data.ndim != 2 or data.shape[0] == 0:
            raise PhysicalError(f"{source}: no samples")
        if raw.labels is None:
            order = np.sort(columns)
            if data.shape[1] != order.size:
                raise PhysicalError(f"{source}: sample 0 has {data.shape[1]} values but the embedding has "
                                    f"{order.size} qubits (unlabelled vectors hold one value a qubit, in "
                                    "increasing qubit order)")
            values = _pick(order, data.astype(np.float64), columns, owner, source, 0)
        else:
            values = _pick(_labels_to_qubits(list(raw.labels), source), data.astype(np.float64), columns, owner,
                           source, 0)
    if spin is None:
        spin = raw.vartype.upper() == "SPIN" if raw.vartype else bool((values == -1).any())
    allowed = (-1, 1) if spin else (0, 1)
    bad = ~np.isin(values, allowed)
    if bad.any():
        s, k = (int(x) for x in np.argwhere(bad)[0])
        raise PhysicalError(f"{source}: sample {s}, qubit {int(columns[k])}: value {values[s, k]:g} is not "
                            + ("a spin -1/+1" if spin else "0 or 1 (or a spin -1/+1)"))
    return (values if spin else 2 * values - 1).astype(np.int8)


def _pick(qubits: np.ndarray, values: np.ndarray, columns: np.ndarray, owner: list[str], source: str,
          s: int) -> np.ndarray:
    """The columns of *values* (labelled *qubits*) at the chains' qubits *columns*."""
    order = np.argsort(qubits, kind="stable")
    ranked = qubits[order]
    if ranked.size > 1 and (np.diff(ranked) == 0).any():
        q = int(ranked[np.flatnonzero(np.diff(ranked) == 0)[0]])
        raise PhysicalError(f"{source}: sample {s} gives qubit {q} twice")
    at = np.searchsorted(ranked, columns)
    found = (at < ranked.size) & (ranked[np.minimum(at, max(ranked.size - 1, 0))] == columns) if ranked.size else \
        np.zeros(columns.size, bool)
    if not found.all():
        k = int(np.flatnonzero(~found)[0])
        more = int((~found).sum()) - 1
        raise PhysicalError(f"{source}: sample {s} lacks qubit {int(columns[k])} of the chain of {owner[k]}"
                            + (f" (and {more} more qubits)" if more else ""))
    return values[:, order[at]]


def _number(value: Any, source: str, s: int) -> float:
    if isinstance(value, (numbers.Real, str)):  # a Real has a float (a complex number is no Real)
        try:
            return float(value)
        except ValueError:
            pass
    raise PhysicalError(f"{source}: sample {s}: {value!r} is not a number")


def unembed(raw: RawSamples, chains: Mapping[str, Sequence[int]], qubo: Qubo, method: str = "majority",
            source: str = "<samples>", spin: bool | None = None, *, seed: int | None = None) -> Unembedded:
    """Map qubit samples *raw* through *chains* to samples of *qubo* (see the module docstring).

    *seed* makes ``weighted`` (the one method that draws at random) repeatable: NumPy's global
    generator, which ``dwave.embedding.weighted_random`` draws from, is seeded for the call and
    put back as it was afterwards.

    Raises:
        PhysicalError: an unknown method, a seed out of range, samples that do not cover the chains,
            or (``discard``) no sample without a broken chain.
        MissingDependency: dwave-system is not installed.
    """
    from .embedding import SEED_LIMIT

    if method not in CHAIN_BREAK_METHODS:
        raise PhysicalError(f"--chain-break: unknown method {method!r}; choose one of "
                            f"{', '.join(CHAIN_BREAK_METHODS)}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT):
        raise PhysicalError(f"--chain-break-seed {seed if isinstance(seed, int) and abs(seed) < 10**20 else '(out of range)'}: "
                            f"the chain-break seed is a whole number from 0 to {SEED_LIMIT - 1}")
    try:
        import dimod
        from dwave.embedding import chain_breaks, unembed_sampleset
    except ImportError:
        raise MissingDependency("dwave-system", "dwave", "decoding qubit samples (--embedding)") from None
    labels = [str(v) for v in qubo.labels]
    chains = {v: tuple(int(q) for q in chains[v]) for v in labels}
    spins = qubit_spins(raw, chains, source, spin)
    sizes = np.fromiter((len(c) for c in chains.values()), np.int64, len(chains))
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
    if spins.shape[1]:
        broken = np.maximum.reduceat(spins, starts, axis=1) != np.minimum.reduceat(spins, starts, axis=1)
    else:
        broken = np.zeros((spins.shape[0], 0), bool)
    given = checked_occurrences(raw.num_occurrences, spins.shape[0], source)  # a reader checked it; an API caller too
    occurrences = np.ones(spins.shape[0], np.int64) if given is None else given
    columns = [q for c in chains.values() for q in c]
    target = dimod.SampleSet.from_samples((spins, columns), dimod.SPIN, energy=np.zeros(spins.shape[0]),
                                          num_occurrences=occurrences)
    source_bqm = qubo.to_bqm("SPIN")
    name = CHAIN_BREAK_METHODS[method]
    breaker = chain_breaks.MinimizeEnergy(source_bqm, chains) if name == "MinimizeEnergy" else \
        getattr(chain_breaks, name)
    kept = np.flatnonzero(~broken.any(axis=1)) if method == "discard" else np.arange(spins.shape[0])
    if not kept.size:
        raise PhysicalError(f"{source}: every one of the {spins.shape[0]} samples has a broken chain, so "
                            "--chain-break discard leaves none; use majority, weighted or minimize-energy")
    state = np.random.get_state() if seed is not None else None
    try:
        if seed is not None:
            np.random.seed(seed)
        logical = unembed_sampleset(target, chains, source_bqm, chain_break_method=breaker)
    finally:
        if state is not None:
            np.random.set_state(state)
    values = np.asarray(logical.record.sample)
    order = [logical.variables.index(v) for v in labels]
    bits = ((values[:, order] + 1) // 2).astype(np.int8)
    return Unembedded(bits=bits, kept=kept, broken=broken, num_occurrences=occurrences, method=method,
                      seed=seed if name == "weighted_random" else None)


def chain_break_column(path: str | Path) -> dict[str, Any] | None:
    """The ``chain_break_fraction`` column (and the chain strength) of a dimod SampleSet JSON file.

    :func:`chain_breaks_of` the file's samples; None for any other file, or one that cannot be read.
    """
    from ..samples import get_format, read_raw

    try:
        data = Path(path).read_bytes()
        if not get_format("sampleset").detect(data[:1 << 20]):
            return None
        raw, source = read_raw(path, format="sampleset")
    except (OSError, NonoquboError):  # the samples reader reports a damaged file
        return None
    return chain_breaks_of(raw, source)


def chain_breaks_of(raw: RawSamples, source: str | None = None) -> dict[str, Any] | None:
    """The ``"chain_breaks"`` report of samples that ``FixedEmbeddingComposite`` already unembedded.

    What a dimod SampleSet's ``chain_break_fraction`` column and ``embedding_context`` say
    (:attr:`RawSamples.info`, read with the samples); None for samples without that column.
    The QPU call's record read back from the file *source* says where its embedding came from as
    read back (:func:`read_back_from`): the file's record of the run, not the run's "now cached".
    """
    fractions = raw.info.get("chain_break_fraction")
    if fractions is None:
        return None
    fractions = np.asarray(fractions, np.float64)
    occurrences = np.ones(fractions.size) if raw.num_occurrences is None else \
        np.asarray(raw.num_occurrences, np.float64)
    out: dict[str, Any] = {"method": "from the sample set", "per_sample": fractions.tolist(),
                           "overall": float((fractions * occurrences).sum() / occurrences.sum())
                           if occurrences.sum() else 0.0}
    context = raw.info.get("embedding_context")
    if isinstance(context, dict):
        for key in ("chain_break_method", "chain_strength"):
            if context.get(key) is not None:
                out[key] = context[key]
        if isinstance(context.get("embedding"), dict):
            out["chains"] = len(context["embedding"])
    qpu = raw.info.get("qpu")
    if isinstance(qpu, dict):
        out["qpu"] = qpu_summary(qpu)
        found = out["qpu"]["embedding"].get("from")
        if source is not None and found:
            out["qpu"]["embedding"]["from"] = read_back_from(str(found), source)
    return out


def read_back_from(found: str, source: str) -> str:
    """Where an embedding came from, as a run file read back says it: the file's run record, and how the run
    got it (the run's own words, ``minorminer (now cached)``, ``cache`` or the embedding file, were true then).

    Examples:
        >>> read_back_from("minorminer (now cached)", "mock.json")
        "mock.json's run record (the run found it with minorminer)"
        >>> read_back_from("cache", "mock.json"), read_back_from("emb.json", "mock.json")
        ("mock.json's run record (the run took it from the embedding cache)", "mock.json's run record (the run read it from emb.json)")
    """
    how = ("found it with minorminer" if found.startswith("minorminer") else
           "took it from the embedding cache" if found == "cache" else f"read it from {found}")
    return f"{source}'s run record (the run {how})"


def qpu_summary(record: dict[str, Any]) -> dict[str, Any]:
    """What ``decode`` shows of a QPU call's record (``info["nonoqubo"]["sampler_reported"]["qpu"]``): the
    solver, the problem ids, the access time and its parts (µs), whether they are estimated, the parameters,
    the embedding's figures (qubits, longest and mean chain, where it came from) and the chain-break method."""
    raw = record.get("timing")
    timing: dict[str, Any] = raw if isinstance(raw, dict) else {}
    return {"solver": record.get("solver"), "problem_ids": list(record.get("problem_ids") or []),
            "timing": {k: v for k, v in timing.items() if isinstance(v, (int, float)) and not isinstance(v, bool)},
            "estimated": bool(timing.get("estimated")), "parameters": record.get("parameters") or {},
            "num_spin_reversal_transforms": record.get("num_spin_reversal_transforms") or 0,
            "embedding": {k: v for k, v in (record.get("embedding") or {}).items()
                          if k in ("qubits", "longest_chain", "mean_chain", "from")},
            "chain_break_method": record.get("chain_break_method")}


def physical_batch(decoder: Any, raw: RawSamples, embedding: Any, method: str = "majority",
                   source: str = "<samples>", spin: bool | None = None,
                   seed: int | None = None) -> tuple[Any, Unembedded]:
    """The qubit samples *raw* (read once by the caller), unembedded through *embedding*, as a batch of
    *decoder*'s model (*spin*: the values are spins, 0/1, or None: detected; *seed*: see :func:`unembed`)."""
    from ..samples import samples_from

    result = unembed(raw, embedding.chains, decoder.model, method, source, spin, seed=seed)
    batch = samples_from(result.bits, decoder.labels, spin=False, fixed=decoder.fixed, source=source)
    batch.num_occurrences = result.num_occurrences[result.kept]
    return batch.counted(), result  # a read counted 0 times is no sample
