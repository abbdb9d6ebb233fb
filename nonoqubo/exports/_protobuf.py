"""Protocol Buffers wire format from NumPy arrays: many small messages and packed fields at once.

The wire format (https://protobuf.dev/programming-guides/encoding/) in the
four pieces a writer of large numeric messages needs::

    field      key = (number << 3) | wire type, as a varint; then the value
    varint     7 bits a byte, least significant first, high bit = "more follows"   (wire type 0)
    fixed64    8 bytes little-endian (a double)                                    (wire type 1)
    LEN        a varint byte count, then that many bytes (a sub-message, a string,
               or a *packed* run of varints / doubles)                             (wire type 2)

Messages concatenate: parsing ``A + B`` gives ``A`` merged with ``B`` (repeated
fields appended, sub-messages merged), so a message may be written in parts.

Here a *batch* is ``(data, lengths)``: ``data`` the uint8 bytes of many items
one after another, ``lengths`` each item's byte count.  :func:`varints`
encodes an array of integers as a batch (one item per value) with a handful
of NumPy passes, and :func:`join` glues
per-item batches side by side (item ``i`` of the result is item ``i`` of the
first batch, then of the second...), so a million small messages cost a few
array operations, not a million Python calls.

Examples:
    >>> data, lengths = varints(np.array([1, 300]))
    >>> data.tobytes().hex(), lengths.tolist()
    ('01ac02', [1, 2])
    >>> packed_varints(1, np.array([3, 270])).hex()   # field 1, packed: key 0a, length 3
    '0a03038e02'
"""

from __future__ import annotations

import numpy as np

__all__ = ["Batch", "constant", "field", "join", "key", "length_prefixed", "packed_doubles",
           "packed_varints", "varints"]

Batch = tuple[np.ndarray, np.ndarray]
VARINT, FIXED64, LEN = 0, 1, 2
_U8 = np.uint8


def key(number: int, wire: int) -> bytes:
    """The key of field *number* with wire type *wire*."""
    return varint_bytes((number << 3) | wire)


def varint_bytes(value: int) -> bytes:
    """One non-negative integer as a varint."""
    data, _ = varints(np.array([value], np.int64))
    return data.tobytes()


def varints(values: np.ndarray) -> Batch:
    """Every value (non-negative, below 2**63) as a varint: a batch with one item per value.

    One ``(N, L)`` matrix of 7-bit groups (``L`` the longest varint), the
    continuation bit set where more groups follow, filled a column at a time;
    then the groups each value needs, row by row, as one gather from the flat
    matrix (a byte ``k`` of value ``i`` comes from ``i * L + k``).
    """
    v = np.asarray(values).astype(np.int64, copy=False).ravel()
    if v.size and v.min() < 0:
        raise ValueError("varints are written for non-negative integers only")
    n = v.size
    lengths = 1 + np.searchsorted(_THRESHOLDS, v, side="right").astype(np.int64)
    if n == 0:
        return np.empty(0, _U8), lengths
    width = int(lengths.max())
    u = v.view(np.uint64)
    groups = np.empty((n, width), _U8)
    for k in range(width):
        rest = u >> np.uint64(7 * k) if k else u
        more = (rest >> np.uint64(7)) != 0
        groups[:, k] = (rest & np.uint64(0x7F)).astype(_U8) | (more.astype(_U8) << 7)
    if width == 1:
        return groups.reshape(-1), lengths
    starts = np.cumsum(lengths) - lengths
    src = np.repeat(np.arange(0, n * width, width) - starts, lengths)
    src += np.arange(src.size)
    return np.take(groups.reshape(-1), src), lengths


#: the smallest value that needs 2, 3, ... 9 bytes (9 bytes hold any value below 2**63)
_THRESHOLDS = np.array([1 << (7 * k) for k in range(1, 9)], np.int64)


def constant(piece: bytes, n: int) -> Batch:
    """The same bytes for each of *n* items."""
    return np.tile(np.frombuffer(piece, _U8), n), np.full(n, len(piece), np.int64)


def join(*batches: Batch) -> Batch:
    """Item ``i`` of every batch, side by side, for each ``i`` (all batches have as many items)."""
    n = batches[0][1].size
    lengths = np.zeros(n, np.int64)
    for _, size in batches:
        lengths += size
    out = np.empty(int(lengths.sum()), _U8)
    at = np.cumsum(lengths) - lengths  # where each item's next piece goes
    for data, size in batches:
        if data.size:
            # the destination of every byte: its item's cursor plus its offset within its piece,
            # that is its own position plus (cursor - where its piece starts in *data*)
            dest = np.repeat(at - (np.cumsum(size) - size), size)
            dest += np.arange(data.size, dtype=np.int64)
            out[dest] = data
        at = at + size
    return out, lengths


def length_prefixed(number: int, batch: Batch) -> Batch:
    """Each item as field *number* of wire type LEN (a sub-message or a string): key, length, bytes."""
    data, lengths = batch
    return join(constant(key(number, LEN), lengths.size), varints(lengths), batch)


def field(number: int, payload: bytes) -> bytes:
    """One LEN field: *payload* (a sub-message's bytes) as field *number*."""
    return key(number, LEN) + varint_bytes(len(payload)) + payload


def packed_varints(number: int, values: np.ndarray) -> bytes:
    """A packed repeated integer field (empty bytes for no values)."""
    if not np.asarray(values).size:
        return b""
    return field(number, varints(values)[0].tobytes())


def packed_doubles(number: int, values: np.ndarray) -> bytes:
    """A packed repeated double field (empty bytes for no values)."""
    if not np.asarray(values).size:
        return b""
    return field(number, np.asarray(values, "<f8").tobytes())
