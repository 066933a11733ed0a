"""A house rule with a determinism bug in it, for the worked example of docs/debugging.md.

Rally (a house rule for Night of the Shambling Dead): once a game, at the end of the first turn
that a board's Front Line holds survivors, that board rolls 1d6 to rally; on a 6 the first wounded
survivor there loses a wound.

The bug: which boards have rallied is remembered in a module global, not in a component. The
first game in a process plays the rule as written; every later game in the same process finds its
boards already rallied and never rolls. Nothing in one game shows it.
"""

from __future__ import annotations

from ecs_zombie.components import Faction, Wounds, Zone
from ecs_zombie.game import Game
from ecs_zombie.schedule import system

_RALLIED: set[int] = set()  # BUG: outlives the game (the fix: a marker on the board's figures)


@system("rally.rally", reads=("Faction", "Wounds", "Zone"), writes=("Wounds",))
def rally(game: Game) -> None:
    """Each board with survivors in its Front Line rolls 1d6 to rally, once a game; a 6 heals a wound."""
    front: dict[int, list[int]] = {}
    for ent, (faction, _wounds, zone) in sorted(game.world.query(Faction, Wounds, Zone)):
        if faction.side == "survivors" and zone.name == "front":
            front.setdefault(zone.board, []).append(ent)
    for board in sorted(front):
        if board in _RALLIED:
            continue
        _RALLIED.add(board)
        if game.roll("1d6", f"rally on board {board}") == 6:
            wounded = [e for e in front[board] if game.world.get(e, Wounds).taken > 0]
            if wounded:
                game.world.get(wounded[0], Wounds).taken -= 1
            game.log("rallied", board=board, healed=wounded[0] if wounded else None)
