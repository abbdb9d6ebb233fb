"""What every answer becomes: :class:`SampleBatch`, samples matched to a model's variables.

Every road in ends in one ``SampleBatch``: a file read by a format of this package and matched
(:func:`nonoqubo.samples.read_samples`), an in-memory object (:func:`nonoqubo.samples.samples_from`),
a sampler's own return (``solvers/``).  ``bits[s, i]`` is variable ``labels[i]`` of sample ``s``,
0/1 in the model's variable order, with the energies and counts the answer carried;
:mod:`nonoqubo.answers.decode` takes it from there.  The one maker from a reader's
:class:`~nonoqubo.samples.RawSamples` is :func:`nonoqubo.samples.match` (:mod:`._match`).

A private module: the rest of nonoqubo takes the class from the package, ``nonoqubo.samples``.

Examples:
    >>> import numpy as np
    >>> len(SampleBatch(bits=np.zeros((2, 3), np.int8), labels=["a", "b", "c"]))
    2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..errors import SampleError

__all__ = ["SampleBatch"]


@dataclass
class SampleBatch:
    """Samples matched to a model: ``bits[s, i]`` is variable ``labels[i]`` of sample ``s``.

    Attributes:
        bits: ``(S, N)`` int8 array of 0/1 in the model's variable order.
        labels: the model's labels (the columns of ``bits``).
        energies: the energies the file reported, if any (float64, ``(S,)``).
        num_occurrences: how often each sample was seen, if the file said (int64).
        spin: True when the input was given as spins.
        source: where the samples came from (for messages).
    """

    bits: np.ndarray
    labels: Sequence[str]
    energies: np.ndarray | None = None
    num_occurrences: np.ndarray | None = None
    spin: bool = False
    source: str = "<samples>"
    extra: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.bits.shape[0])

    def counted(self) -> SampleBatch:
        """This batch without the rows counted 0 times (``num_occurrences`` 0), with a note saying how many.

        A row a solver saw 0 times was never a sample: it has no energy to count, no picture, no
        solution to find.  :func:`~nonoqubo.samples.match` and every other maker of a batch end here,
        so no reader of a batch meets one.

        Raises:
            SampleError: every row is counted 0 times: there is no sample.

        Examples:
            >>> b = SampleBatch(bits=np.array([[1, 0], [0, 1]], np.int8), labels=["a", "b"],
            ...                 num_occurrences=np.array([0, 3]))
            >>> b.counted().bits.tolist(), b.counted().extra["notes"]
            ([[0, 1]], ['1 row counted 0 times (num_occurrences 0) left out: it is no sample'])
        """
        if self.num_occurrences is None:
            return self
        keep = np.asarray(self.num_occurrences) != 0
        if keep.all():
            return self
        if not keep.any():
            raise SampleError(f"{self.source}: every sample is counted 0 times (num_occurrences): there is no sample")
        dropped = int(keep.size - keep.sum())
        note = (f"{dropped} row{'s' if dropped > 1 else ''} counted 0 times (num_occurrences 0) left out: "
                f"{'they are' if dropped > 1 else 'it is'} no sample")
        return replace(self, bits=self.bits[keep], energies=None if self.energies is None else self.energies[keep],
                       num_occurrences=np.asarray(self.num_occurrences)[keep],
                       extra={**self.extra, "notes": [*self.extra.get("notes", []), note]})
