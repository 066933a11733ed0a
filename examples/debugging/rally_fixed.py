"""The Rally house rule of `rally.py` with its bug fixed (docs/debugging.md): which boards have
rallied is kept in the game's own state, a `Tally` count per board, so every game starts afresh
and a save carries it."""

from __future__ import annotations

from ecs_zombie.components import Faction, Tally, Wounds, Zone
from ecs_zombie.game import Game
from ecs_zombie.schedule import system


@system("rally_fixed.rally", reads=("Faction", "Tally", "Wounds", "Zone"), writes=("Tally", "Wounds"))
def rally(game: Game) -> None:
    """Each board with survivors in its Front Line rolls 1d6 to rally, once a game; a 6 heals a wound."""
    front: dict[int, list[int]] = {}
    for ent, (faction, _wounds, zone) in sorted(game.world.query(Faction, Wounds, Zone)):
        if faction.side == "survivors" and zone.name == "front":
            front.setdefault(zone.board, []).append(ent)
    tally = game.world.query1(Tally)[0][1]
    for board in sorted(front):
        key = f"rallied on board {board}"
        if tally.counts.get(key):
            continue
        tally.bump(key)
        if game.roll("1d6", f"rally on board {board}") == 6:
            wounded = [e for e in front[board] if game.world.get(e, Wounds).taken > 0]
            if wounded:
                game.world.get(wounded[0], Wounds).taken -= 1
            game.log("rallied", board=board, healed=wounded[0] if wounded else None)
