"""The counter-charge pursuit roll (Night of the Shambling Dead, "Combat Phases", last paragraph).

After the rounds, a player who counter-charged rolls 2d6 (+1 with the Hero among the chargers):
`pursuit_threshold` (7) or more and the survivors stay; less and a further 1d6 of the chargers,
chosen by the player, pursue the enemy off the board and are lost. The roll is made even when every
enemy figure was destroyed.
"""

from __future__ import annotations

from collections.abc import Generator

from ecs_zombie.components import Markers
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.schedule import system
from ecs_zombie.systems.shambling.board import SURVIVORS, boards, figures, is_hero, player_side, remove_figure


@system("shambling.pursuit",
        reads=("Zone", "Faction", "Kind", "Markers", "Engaged", "Owner", "Tally", "Wounds"),
        writes=("Markers", "Engaged", "Tally"),
        decides=("shambling.pursue",))
def pursuit(game: Game, threshold: int = 7) -> Generator[Decision, object, None]:
    """Counter-chargers may rashly pursue into the night."""
    for seat, markers, _t in boards(game):
        if not markers.has("counter_charge"):
            continue
        chargers = [e for e in figures(game, seat, SURVIVORS) if game.world.get(e, Markers).has("charging")]
        if not chargers:
            continue
        bonus = 1 if any(is_hero(game, e) for e in chargers) else 0
        roll = game.roll("2d6", "pursuit roll") + bonus
        lost = 0
        if roll < threshold:
            lost = min(game.roll("1d6", "pursuers"), len(chargers))
        game.log("pursuit", board=seat, roll=roll, pursuing=lost)
        for _ in range(lost):
            ent = yield from game.decide(player_side(seat), "shambling.pursue", chargers)
            chargers.remove(ent)
            remove_figure(game, ent, "pursued")
