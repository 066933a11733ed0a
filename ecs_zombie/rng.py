"""Named random streams from one master seed, stable across Python and library versions.

Generator: PCG32 (O'Neill 2014, "PCG XSH RR 64/32"): a 64-bit LCG state with multiplier
6364136223846793005 and an odd increment, output by xorshift-high then a random rotation. It is
written here in pure Python so that the sequence depends on nothing but this file; the tests pin it
to the reference implementation's published vectors.

Streams: stream `name` of master seed `s` is seeded with the first 16 bytes of
SHA-256(b"ecs-zombie/stream/" + str(s) + b"/" + name): bytes 0-7 (big endian) are the initial
state, bytes 8-15 the sequence selector. A stream depends only on the seed and its own name, so
adding a stream or a system never shifts another.

Bounded integers: `below(n)` rejects raw outputs under (2**32 - n) % n and returns the rest modulo
n (the reference `pcg32_boundedrand_r`), so every value in [0, n) is exactly equally likely.
Shuffles: Fisher-Yates from the last position down, position i swapping with `below(i + 1)`.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence
from typing import Any

_MULT = 6364136223846793005
_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1


class PCG32:
    """PCG XSH RR 64/32; `state` and `inc` are the whole of it (what saves carry)."""

    __slots__ = ("inc", "state")

    def __init__(self, initstate: int = 0, initseq: int = 0) -> None:
        self.state = 0
        self.inc = ((initseq << 1) | 1) & _MASK64
        self.next32()
        self.state = (self.state + initstate) & _MASK64
        self.next32()

    def next32(self) -> int:
        old = self.state
        self.state = (old * _MULT + self.inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & _MASK32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & _MASK32

    def below(self, n: int) -> int:
        """An unbiased integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        if n == 1:
            return 0
        threshold = ((1 << 32) - n) % n
        while True:
            r = self.next32()
            if r >= threshold:
                return r % n

    def shuffle(self, items: MutableSequence[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def get_state(self) -> list[int]:
        return [self.state, self.inc]

    def restate(self, state: int, inc: int) -> PCG32:
        self.state, self.inc = state, inc
        return self

    @classmethod
    def from_state(cls, state: list[int]) -> PCG32:
        g = cls()
        g.state, g.inc = int(state[0]), int(state[1])
        return g


def derive(seed: int, name: str) -> PCG32:
    """The stream `name` of master seed `seed` (see the module docstring)."""
    # The seed as an object: compiled by mypyc, turning an int-typed value of 2**62 or more into text
    # (str() or an f-string) leaks the int; tests/engine/test_engine_compiled.py watches for leaks.
    text: object = seed
    digest = hashlib.sha256(f"ecs-zombie/stream/{text}/{name}".encode()).digest()
    return PCG32(int.from_bytes(digest[:8], "big"), int.from_bytes(digest[8:16], "big"))


def derive_seed(seed: int, *parts: int | str) -> int:
    """A child seed (e.g. game i of a batch): the first 8 bytes of SHA-256 over the parts, < 2**63."""
    text = "/".join(str(p) for p in (seed, *parts))
    digest = hashlib.sha256(b"ecs-zombie/seed/" + text.encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class Streams:
    """The game's named streams, created on first use and saved with the game."""

    __slots__ = ("_streams", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._streams: dict[str, PCG32] = {}

    def __call__(self, name: str) -> PCG32:
        g = self._streams.get(name)
        if g is None:
            g = self._streams[name] = derive(self.seed, name)
        return g

    def get_state(self, policy: bool = False) -> dict[str, list[int]]:
        """The game's streams, or (`policy=True`) the policies' own `policy/...` streams."""
        return {k: self._streams[k].get_state() for k in sorted(self._streams)
                if k.startswith(POLICY_PREFIX) == policy}

    def copy(self) -> Streams:
        """Independent streams at the same states."""
        other = Streams(self.seed)
        other._streams = {k: PCG32(0, 0).restate(g.state, g.inc) for k, g in self._streams.items()}
        return other

    def set_state(self, state: dict[str, list[int]]) -> None:
        self._streams.update({k: PCG32.from_state(v) for k, v in sorted(state.items())})


POLICY_PREFIX = "policy/"
