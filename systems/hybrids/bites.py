"""The Director game's zombies biting as Singapore Zombie Apocalypse's (the hybrid `director-sza`).

The Director game wounds each survivor by 1 hit point per active zombie next to it
(`director.zombie_attack`). `hybrids.sza_bites` takes its place in the zombies' phase: each of those
zombies (the Director game's own `attackers_of`) makes one SZA melee attack on the survivor (the step
`melee_strike`, mapped to `sza.melee_strike`: a d100 against the zombie's Accuracy, then its bite's
1d10 and the Bonus Attack Value of its Strength), and the Director game's own `damage` takes what it
dealt from the survivor's hit points (the `hurt` marker, the tally and the `damage` event that its
other rules read).
"""

from __future__ import annotations

from collections.abc import Generator

from ecs_zombie.components import Wounds
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.schedule import system
from ecs_zombie.systems.director.board import Board, damage, survivors
from ecs_zombie.systems.director.zombies import attackers_of


@system("hybrids.sza_bites",
        reads=("Position", "Faction", "Markers", "MapTile", "Owner", "DirectorState", "FloorItem", "LadderLink",
               "Wounds"),
        writes=("Wounds", "Markers", "Tally"),
        calls={"melee_strike": ("attacker", "target", "pace", "why")})
def sza_bites(game: Game) -> Generator[Decision, object, None]:
    """Wound Players Adjacent to Zombies, each zombie's attack an SZA melee attack (stationary:
    Director zombies attack where they stand) whose damage the Director game's `damage` takes."""
    board = Board(game)
    world = game.world
    for ent in survivors(game):
        for zombie in attackers_of(game, board, ent):
            hurt = world.get(ent, Wounds)
            before = hurt.taken
            yield from game.run_step("melee_strike", {"attacker": zombie, "target": ent, "pace": "still",
                                                      "why": "bite"})
            dealt, hurt.taken = hurt.taken - before, before  # SZA says how much; the Director game takes it
            damage(game, ent, dealt, "zombies")
