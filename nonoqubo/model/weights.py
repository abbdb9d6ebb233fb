"""Penalty weights: how much each family of the energy counts, and the ``--weights`` grammar.

Every encoding's energy is three families of terms, each 0 exactly when its
rule holds::

    E = A * shape + B * order + C * cells

``shape`` keeps each block's variables a valid code of one shift (the domain
wall's broken walls, one-hot's ``(1 - sum_s x[k][s])^2``), ``order`` keeps
consecutive blocks of a line in order, ``cells`` is ``sum (R_c - C_c)^2``.
With positive integer weights the model stays integer, ``>= 0``, and 0 exactly
at the solutions.  The default is 1 each (the QUBO++ case study's model).

Grammar of a weights text (``--weights``, and the ``weights`` metadata of a
file as the dict ``{"shape": A, "order": B, "cell": C}``)::

    weights := item ("," item)*
    item    := ("shape" | "order" | "cell") "=" positive integer

A family not named keeps weight 1; naming one twice is refused.

Examples:
    >>> parse_weights("shape=2,cell=3")
    Weights(shape=2, order=1, cell=3)
    >>> str(Weights(2, 1, 3)), Weights.of({"shape": 2}).as_dict()
    ('shape=2,order=1,cell=3', {'shape': 2, 'order': 1, 'cell': 1})
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from ..errors import WeightsError

__all__ = ["DEFAULT_WEIGHTS", "FAMILIES", "Weights", "parse_weights"]

#: the family names, in the order of :class:`Weights`
FAMILIES = ("shape", "order", "cell")
_INT = re.compile(r"^\+?[0-9]{1,9}$")


class Weights(NamedTuple):
    """The positive integer weight of each family (see the module docstring)."""

    shape: int = 1
    order: int = 1
    cell: int = 1

    def __str__(self) -> str:
        return ",".join(f"{k}={v}" for k, v in zip(FAMILIES, self))

    @property
    def is_default(self) -> bool:
        return tuple(self) == (1, 1, 1)

    def as_dict(self) -> dict[str, int]:
        return dict(zip(FAMILIES, (int(v) for v in self)))

    @classmethod
    def of(cls, value: Any, source: str = "weights") -> Weights:
        """Weights from a :class:`Weights`, a ``{family: int}`` mapping, a weights text or None (the default).

        Raises:
            WeightsError: an unknown family, a weight that is not a positive integer (named with *source*).
        """
        if value is None:
            return DEFAULT_WEIGHTS
        if isinstance(value, Weights):
            return value
        if isinstance(value, str):
            return parse_weights(value, source)
        if isinstance(value, Mapping):
            unknown = [k for k in value if k not in FAMILIES]
            if unknown:
                raise WeightsError(f"{source}: unknown family {unknown[0]!r} (families: {', '.join(FAMILIES)})")
            out = {}
            for key, v in value.items():
                if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                    raise WeightsError(f"{source}: {key}={v!r}: a weight is a positive integer")
                out[key] = int(v)
            return cls(**out)
        if isinstance(value, (tuple, list)) and len(value) == 3:
            return cls.of(dict(zip(FAMILIES, value)), source)
        raise WeightsError(f"{source}: weights are 'shape=A,order=B,cell=C', not {value!r}")


DEFAULT_WEIGHTS = Weights()


def parse_weights(text: str, source: str = "--weights") -> Weights:
    """The :class:`Weights` of ``shape=A,order=B,cell=C`` (any subset, any order).

    Raises:
        WeightsError: one line naming *source* and the item that is wrong.

    Examples:
        >>> parse_weights("order=5")
        Weights(shape=1, order=5, cell=1)
        >>> parse_weights("shape=0")
        Traceback (most recent call last):
        ...
        nonoqubo.errors.WeightsError: --weights: shape=0: a weight is a positive integer (1, 2, ...)
    """
    seen: dict[str, int] = {}
    items = text.split(",")
    for item in items:
        key, eq, value = item.strip().partition("=")
        key, value = key.strip(), value.strip()
        if not eq:
            raise WeightsError(f"{source}: {item.strip()!r} is not family=weight "
                               f"(e.g. shape=2,order=1,cell=3)")
        if key not in FAMILIES:
            raise WeightsError(f"{source}: unknown family {key!r} in {item.strip()!r} "
                               f"(families: {', '.join(FAMILIES)})")
        if key in seen:
            raise WeightsError(f"{source}: {key} is given twice")
        if not _INT.match(value) or int(value) < 1:
            raise WeightsError(f"{source}: {key}={value}: a weight is a positive integer (1, 2, ...)")
        seen[key] = int(value)
    return Weights(**seen)
