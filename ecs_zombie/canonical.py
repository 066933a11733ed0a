"""Canonical msgpack: the same value always gives the same bytes (map keys in insertion order, which
callers make sorted; the smallest encoding of every value, as the msgpack spec asks).

Packing goes through ormsgpack, a Rust packer that writes exactly the bytes msgpack's own packer
writes (`msgpack.packb(value, use_bin_type=True)`; a property test pins that) at two to three times
its speed on states and event logs, which matters because a replay packs the state after every
tick. Whatever ormsgpack declines (a map key that is not a string, a subclass of a plain type) is
packed by msgpack. Unpacking stays with msgpack, for its size limits.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgpack
import ormsgpack

# Refuse rather than convert what msgpack would refuse or pack differently: those go to msgpack.
_STRICT = (ormsgpack.OPT_PASSTHROUGH_BIG_INT | ormsgpack.OPT_PASSTHROUGH_DATACLASS
           | ormsgpack.OPT_PASSTHROUGH_DATETIME | ormsgpack.OPT_PASSTHROUGH_ENUM
           | ormsgpack.OPT_PASSTHROUGH_SUBCLASS | ormsgpack.OPT_PASSTHROUGH_UUID)


def sort_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: sort_keys(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, list | tuple):
        return [sort_keys(v) for v in value]
    return value


def pack(value: Any) -> bytes:
    """Pack an already-canonical value (keys inserted in sorted order) with fixed options."""
    try:
        return ormsgpack.packb(value, option=_STRICT)
    except TypeError:
        return msgpack.packb(value, use_bin_type=True, strict_types=False)


def pack_sorted(value: Any) -> bytes:
    return pack(sort_keys(value))


def array_header(length: int) -> bytes:
    """The header of a packed array of `length` items (what precedes their packed bytes)."""
    if length <= 15:
        return bytes((0x90 | length,))
    return (b"\xdc" + length.to_bytes(2, "big")) if length <= 0xFFFF else (b"\xdd" + length.to_bytes(4, "big"))


def map_header(length: int) -> bytes:
    """The header of a packed map of `length` pairs."""
    if length <= 15:
        return bytes((0x80 | length,))
    return (b"\xde" + length.to_bytes(2, "big")) if length <= 0xFFFF else (b"\xdf" + length.to_bytes(4, "big"))


def map_pairs(packed_map: bytes, length: int) -> bytes:
    """The packed key-value pairs of a packed map of `length` pairs, without its header."""
    return packed_map[len(map_header(length)):]


def digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()
