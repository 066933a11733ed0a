"""Dice notation and dice rolling, with an optional script of forced values.

Notation: `NdX`, `dX`, `NdX+M`, `NdX-M`, and `d%` for d100 (the percentile die, 1..100 with 00
read as 100). It is parsed by a regular expression, never evaluated.

A roll of `NdX` draws N independent dice, each `1 + below(X)` from the stream it is given; a dice
script, when present, supplies the next dice in order instead (one value per die) and the seeded
stream takes over when it runs out. A scripted value impossible for the die is a `ScriptError`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ecs_zombie.errors import ScriptError
from ecs_zombie.limits import MAX_SCRIPT
from ecs_zombie.rng import PCG32

_NOTATION = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+|%)\s*(?:([+-])\s*(\d+))?\s*$")
MAX_DICE = 1000
MAX_SIDES = 1000


@dataclass(frozen=True, slots=True)
class DiceSpec:
    """A parsed dice expression."""

    count: int
    sides: int
    modifier: int = 0

    def __str__(self) -> str:
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{mod}"

    @property
    def minimum(self) -> int:
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.modifier


_CACHE: dict[str, DiceSpec] = {}


def parse(text: object) -> DiceSpec:
    """Parse dice notation; raises `ValueError` naming the text when it is not dice (or not text)."""
    if not isinstance(text, str):
        raise ValueError(f"not dice notation: {text!r} (expected e.g. 1d6, 2d6+1, d100, d%)")
    spec = _CACHE.get(text)
    if spec is not None:
        return spec
    m = _NOTATION.match(text)
    if not m:
        raise ValueError(f"not dice notation: {text!r} (expected e.g. 1d6, 2d6+1, d100, d%)")
    count = int(m.group(1)) if m.group(1) else 1
    sides = 100 if m.group(2) == "%" else int(m.group(2))
    mod = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    if not 1 <= count <= MAX_DICE or not 2 <= sides <= MAX_SIDES:
        raise ValueError(f"dice out of range: {text!r} (1..{MAX_DICE} dice of 2..{MAX_SIDES} sides)")
    spec = _CACHE[text] = DiceSpec(count, sides, mod)
    return spec


class DiceScript:
    """Forced die values, consumed in order by every die the game rolls."""

    __slots__ = ("pos", "values")

    def __init__(self, values: Iterable[int] | None = None, pos: int = 0) -> None:
        self.values = list(values or [])
        self.pos = pos

    def __bool__(self) -> bool:
        return self.pos < len(self.values)

    def take(self, sides: int) -> int:
        value = self.values[self.pos]
        if not 1 <= value <= sides:
            raise ScriptError(
                f"dice script value {value} (position {self.pos + 1}) is impossible for a d{sides}"
            )
        self.pos += 1
        return value


def roll_die(sides: int, stream: PCG32, script: DiceScript | None) -> int:
    if script:
        return script.take(sides)
    return 1 + stream.below(sides)


def parse_script(text: str) -> list[int]:
    """`3,5,6` -> [3, 5, 6]: ASCII digits only (a superscript two is no die value), each a value some
    die can show (1..MAX_SIDES), at most MAX_SCRIPT of them; anything else is a `ScriptError`. Whether
    a value fits the die rolled is known when it is rolled (a `ScriptError` then)."""
    values: list[int] = []
    for i, part in enumerate(p.strip() for p in text.split(",")):
        if not part:
            continue
        if not (part.isascii() and part.isdigit()) or not 1 <= int(part) <= MAX_SIDES:
            raise ScriptError(f"dice script entry {i + 1} is not a positive whole number up to {MAX_SIDES}: "
                              f"{part[:20]!r}")
        values.append(int(part))
        if len(values) > MAX_SCRIPT:
            raise ScriptError(f"a dice script holds at most {MAX_SCRIPT} values")
    return values
