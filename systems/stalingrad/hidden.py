"""What a Stalingrad player cannot see: the type of a face-down zombie (and the dice and card
order, which the engine's search already re-samples). A search policy's fork gets every face-down
zombie's type drawn anew from the spawn section's type die, keeping the wounds it has taken."""

from __future__ import annotations

from ecs_zombie.components import Kind, Markers, Wounds
from ecs_zombie.dice import parse
from ecs_zombie.env.spec import conceals
from ecs_zombie.game import Game
from ecs_zombie.registry import hidden
from ecs_zombie.rng import PCG32


@hidden("stalingrad.hidden")
def face_down(game: Game, rng: PCG32) -> None:
    """Re-draw the type of every face-down (`hidden`) zombie from the spawn section's type die."""
    section = game.tables["stalingrad.spawn"]
    types = game.tables["stalingrad.zombies"]
    die = parse(section.type_die)
    for _ent, (markers, wounds, kind) in game.world.query(Markers, Wounds, Kind):
        if not markers.has("hidden"):
            continue
        roll = sum(1 + rng.below(die.sides) for _ in range(die.count)) + die.modifier
        kind.name = str(section.type_for(roll))
        wounds.limit = max(wounds.taken + 1, types[kind.name].hits)


# What the determinizer re-samples is what an observation must not show (ecs_zombie.env).
conceals("stalingrad.hidden", package="stalingrad", marker="hidden", fields=("Kind.name", "Wounds.limit"))
