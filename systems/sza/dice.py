"""The book's dice ("Using the Dice"): d10 read 1..10 (a 0 is a 10); d100 from two d10s.

Percentile: the dark die is the tens digit, the light die the units digit, each face 0..9; 00 is
100 ("0 and 0 -> 100", "7 and 2 -> 72", "0 and 6 -> 6"). It is rolled as two separate 1d10 through
`game.roll_dice`, so a dice script forces it: a d10 scripted as 10 shows the face "0".
NdX sums (2d10, 1d20, ...) are `game.roll` itself.
"""

from __future__ import annotations

from ecs_zombie.game import Game


def read_percentile(tens: int, units: int) -> int:
    """The d100 result of a tens d10 and a units d10, each rolled 1..10 (10 showing the face 0)."""
    value = (tens % 10) * 10 + units % 10
    return 100 if value == 0 else value


def percentile(game: Game, why: str) -> int:
    tens = game.roll_dice("1d10", why + " (tens)")[0]
    units = game.roll_dice("1d10", why + " (units)")[0]
    return read_percentile(tens, units)
