"""Canonical msgpack: the same value always gives the same bytes (map keys sorted, no floats tricks)."""

from __future__ import annotations

import hashlib
from typing import Any

import msgpack


def sort_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: sort_keys(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, list | tuple):
        return [sort_keys(v) for v in value]
    return value


def pack(value: Any) -> bytes:
    """Pack an already-canonical value (keys inserted in sorted order) with fixed options."""
    return msgpack.packb(value, use_bin_type=True, strict_types=False)


def pack_sorted(value: Any) -> bytes:
    return pack(sort_keys(value))


def digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()
