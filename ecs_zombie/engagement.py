"""Contact between enemy pieces (base to base, in melee, on one square), kept in the core `Engaged`.

Symmetric and sorted: if a lists b, b lists a; lists stay in id order so that equal states encode
equally and rules that walk opponents walk them in a fixed order.
"""

from __future__ import annotations

from ecs_zombie.components import Engaged
from ecs_zombie.world import World


def engage(world: World, a: int, b: int) -> None:
    """Put two pieces in contact (a no-op when they already are)."""
    for x, y in ((a, b), (b, a)):
        ops = world.get(x, Engaged).opponents
        if y not in ops:
            ops.append(y)
            ops.sort()


def disengage_all(world: World, ent: int) -> None:
    """Break every contact `ent` has (it leaves, dies or moves away)."""
    ops = world.get(ent, Engaged).opponents
    for other in ops:
        if world.exists(other):
            theirs = world.get(other, Engaged).opponents
            if ent in theirs:
                theirs.remove(ent)
    ops.clear()
