"""End of turn: sudden-death losses outside combat, the end of the night, and the game's numbers.

A board with zombies and no survivors has fallen ("Sudden Death Loss"); so has (DESIGN CHOICE) a
board with no survivors at all (everyone killed in a gauntlet, fled or shot). The game ends for the
zombies when every board has fallen, and after the track's last turn ("Once this turn has been
completed the game ends") for the survivors if any board still stands.
"""

from __future__ import annotations

from typing import Any

from ecs_zombie.components import Faction, Kind, Markers, Owner, Tally
from ecs_zombie.game import Game
from ecs_zombie.registry import metrics
from ecs_zombie.schedule import system
from ecs_zombie.systems.core.track import current_turn
from ecs_zombie.systems.shambling.board import SURVIVORS, ZOMBIES, boards, figures
from ecs_zombie.systems.shambling.narration import clear_turn_markers


@system("shambling.turn_end", reads=("Zone", "Faction", "Markers", "Tally", "Kind", "Owner"), writes=("Markers",))
def turn_end(game: Game, track: str) -> None:
    """Clear the turn's markers, mark fallen boards, and end the game after the last turn."""
    clear_turn_markers(game)
    for seat, markers, _t in boards(game):
        if not figures(game, seat, SURVIVORS):
            markers.add("fallen")
            game.log("board_fallen", board=seat)
    standing = boards(game)
    turn = current_turn(game, track)
    if not standing:
        game.end(ZOMBIES)
    elif turn is None or turn.last:
        game.end(SURVIVORS)


@metrics("shambling.metrics")
def shambling_metrics(game: Game) -> dict[str, Any]:
    world = game.world
    survivors = heroes = zombies = 0
    for _e, (faction, kind) in world.query(Faction, Kind):
        if faction.side == SURVIVORS:
            survivors += 1
            heroes += kind.name == "hero"
        elif faction.side == ZOMBIES:
            zombies += 1
    totals: dict[str, int] = {}
    standing = 0
    for _e, (kind, _o, markers, tally) in world.query(Kind, Owner, Markers, Tally):
        if kind.name != "board":
            continue
        standing += not markers.has("fallen")
        for key, value in tally.counts.items():
            totals[key] = totals.get(key, 0) + value
    return {
        "survivors_left": survivors,
        "heroes_left": heroes,
        "zombies_destroyed": totals.get("zombies_destroyed", 0),
        "zombies_on_boards": zombies,
        "boards_standing": standing,
        "survivors_killed": totals.get("survivors_killed", 0),
        "survivors_fled": totals.get("survivors_fled", 0),
        "survivors_pursued": totals.get("survivors_pursued", 0),
        "survivors_turned": totals.get("survivors_turned", 0),
        "survivors_shot": totals.get("survivors_shot", 0),
    }
