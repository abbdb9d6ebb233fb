"""The problem a QPU is sent, checked against its ranges: h, J, the extended J range and the per-qubit sums.

A D-Wave solver refuses a problem whose coefficients lie outside its properties' ranges.  With
``auto_scale`` (the default) the QPU multiplies every ``h`` and ``J`` by the one factor that puts
them inside ``h_range`` and ``j_range``; without it the problem is taken as sent, and may use
``extended_j_range`` (couplers down to -2 on an Advantage, what strong chains need) as long as the
couplings of every qubit add up to a value inside ``per_qubit_coupling_range`` ([-18, 15]).

:func:`fit_ranges` embeds the logical spin model on the chains (``dwave.embedding.embed_bqm``, as
``FixedEmbeddingComposite`` does), then:

* ``auto_scale=True``: applies the QPU's factor (h into ``h_range``, J into ``j_range``) and checks
  the per-qubit sums;
* ``auto_scale=False``: chooses nonoqubo's factor, the largest that keeps ``h`` in ``h_range``, the
  couplers *between* chains in ``j_range``, the chain couplers in ``extended_j_range`` and every
  qubit's sum in ``per_qubit_coupling_range``, so that chains may be up to twice as strong as the
  strongest logical coupling; the caller sends the model multiplied by it (``scale``).

Either way a problem outside a range is refused in one line naming the worst qubit or coupler.

Examples:
    >>> import dimod
    >>> from nonoqubo.qpu.parameters import solver_properties
    >>> bqm = dimod.BQM({"a": 0.0, "b": 0.0}, {("a", "b"): -1.0}, 0.0, "SPIN")
    >>> fit = fit_ranges(bqm, {"a": [0, 4], "b": [1]}, [(0, 4), (1, 4)], 3.0, solver_properties(), auto_scale=False)
    >>> fit["scale"], fit["chain_coupler_min"]
    (0.6666666666666666, -2.0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import MissingDependency, QpuParameterError

__all__ = ["fit_ranges"]


def fit_ranges(bqm: Any, chains: Mapping[str, Sequence[int]], couplers: Iterable[tuple[int, int]],
               chain_strength: float | Mapping[str, float], properties: Mapping[str, Any], *,
               auto_scale: bool = True) -> dict[str, Any]:
    """The scale of the embedded problem and its figures; QpuParameterError when it leaves a range.

    Args:
        bqm: the logical SPIN model (labels: the chains' keys).
        chains: label -> its qubits.
        couplers: the QPU's couplers (the target graph's edges).
        chain_strength: one strength, or one per label (logical units, before any scaling).
        properties: the solver's (``h_range``, ``j_range``, ``extended_j_range``,
            ``per_qubit_coupling_range``: :func:`~nonoqubo.qpu.parameters.solver_properties`).
        auto_scale: who scales (see the module docstring).

    Returns:
        ``{"auto_scale", "scale", "h_max", "j_min", "j_max", "chain_coupler_min",
        "per_qubit_min", "per_qubit_max", "ranges"}``: the factor and the extremes after scaling.
    """
    try:
        from dwave.embedding import embed_bqm
    except ImportError:
        raise MissingDependency("dwave-system", "dwave", "checking the physical problem's ranges") from None
    import networkx as nx

    target = nx.Graph()
    target.add_edges_from(couplers)
    target.add_nodes_from(q for chain in chains.values() for q in chain)
    strength = dict(chain_strength) if isinstance(chain_strength, Mapping) else float(chain_strength)
    embedded = embed_bqm(bqm, {k: list(v) for k, v in chains.items()}, target, chain_strength=strength)
    qubits = sorted(int(q) for chain in chains.values() for q in chain)
    embedded.add_variables_from((q, 0.0) for q in qubits if q not in embedded.variables)
    lin, (row, col, quad), _ = embedded.to_numpy_vectors(variable_order=qubits)
    owner = np.empty(len(qubits), np.int64)
    position = {q: k for k, q in enumerate(qubits)}
    for v, chain in enumerate(chains.values()):
        owner[[position[int(q)] for q in chain]] = v
    inside = owner[row] == owner[col]
    h_lo, h_hi = (float(x) for x in properties["h_range"])
    j_lo, j_hi = (float(x) for x in properties["j_range"])
    x_lo, x_hi = (float(x) for x in properties.get("extended_j_range", properties["j_range"]))
    p_lo, p_hi = (float(x) for x in properties.get("per_qubit_coupling_range", [-np.inf, np.inf]))
    sums = np.bincount(row, weights=quad, minlength=len(qubits)) + np.bincount(col, weights=quad,
                                                                                 minlength=len(qubits))
    if auto_scale:
        limits = [(lin, h_lo, h_hi), (quad, j_lo, j_hi)]
    else:
        limits = [(lin, h_lo, h_hi), (quad[~inside], j_lo, j_hi), (quad[inside], x_lo, x_hi), (sums, p_lo, p_hi)]
    need = 0.0
    for values, lo, hi in limits:
        if values.size:
            need = max(need, float(values.max()) / hi if hi > 0 else 0.0, float(values.min()) / lo if lo < 0 else 0.0)
    scale = 1.0 / need if need > 0 else 1.0
    scaled_sums = sums * scale
    if scaled_sums.size:
        worst = int(np.argmin(scaled_sums)) if -scaled_sums.min() / -p_lo >= scaled_sums.max() / p_hi \
            else int(np.argmax(scaled_sums))
        value = float(scaled_sums[worst])
        if not p_lo - 1e-9 <= value <= p_hi + 1e-9:
            raise QpuParameterError(
                f"the physical problem leaves the solver's per_qubit_coupling_range [{p_lo:g}, {p_hi:g}]: the "
                f"couplings of qubit {qubits[worst]} add up to {value:.4g} after "
                f"{'the QPU' if auto_scale else 'nonoqubo'}'s scaling by {scale:.4g}; lower --chain-strength, "
                "or embed with shorter chains")
    if not auto_scale:  # nonoqubo's own scale: every coefficient inside by construction; say so if not
        for name, values, lo, hi in (("h", lin, h_lo, h_hi), ("coupler", quad, x_lo, x_hi)):
            scaled = values * scale
            if scaled.size and (scaled.min() < lo - 1e-9 or scaled.max() > hi + 1e-9):
                k = int(np.argmax(np.maximum(scaled - hi, lo - scaled)))
                where = f"qubit {qubits[k]}" if name == "h" else f"coupler ({qubits[row[k]]}, {qubits[col[k]]})"
                raise QpuParameterError(f"the physical problem leaves the solver's range [{lo:g}, {hi:g}]: {where} "
                                        f"has {scaled[k]:.4g}")
    chain_j = quad[inside] * scale
    return {"auto_scale": bool(auto_scale), "scale": scale,
            "h_max": float(np.abs(lin).max() * scale) if lin.size else 0.0,
            "j_min": float(quad.min() * scale) if quad.size else 0.0,
            "j_max": float(quad.max() * scale) if quad.size else 0.0,
            "chain_coupler_min": float(chain_j.min()) if chain_j.size else 0.0,
            "per_qubit_min": float(scaled_sums.min()) if scaled_sums.size else 0.0,
            "per_qubit_max": float(scaled_sums.max()) if scaled_sums.size else 0.0,
            "ranges": {"h_range": [h_lo, h_hi], "j_range": [j_lo, j_hi], "extended_j_range": [x_lo, x_hi],
                       "per_qubit_coupling_range": [p_lo, p_hi]}}
