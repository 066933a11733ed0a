"""The plugin's only rule: zombies arrive every round, a Shambling card's worth at a time.

The step `spawn` of Stalingrad's zombie turn is mapped to `dusk.arrivals` (see rulesets/dusk.yaml).
Each round, `arrivals.yaml` says how many cards are drawn; each card brings half its value in
zombies, rounded up, placed round the scenario's spawn squares by Stalingrad's own `spawn_at`
(the card is drawn by Shambling's own `draw_card`). Nothing of either game is copied.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from ecs_zombie.data import fail, need
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.registry import table
from ecs_zombie.schedule import system
from ecs_zombie.systems.shambling.board import draw_card
from ecs_zombie.systems.stalingrad.card_spawn import card_spawn_squares
from ecs_zombie.systems.stalingrad.spawn import (
    SPAWN_CALLS,
    SPAWN_CREATES,
    SPAWN_DECIDES,
    SPAWN_READS,
    SPAWN_REMOVES,
    SPAWN_WRITES,
    spawn_zombies,
)


@dataclass(frozen=True, slots=True)
class Arrivals:
    """Cards drawn per round (`rounds`), `default` for a round not listed."""

    rounds: dict[int, int]
    default: int

    def cards(self, tick: int) -> int:
        return self.rounds.get(tick, self.default)


@table("dusk.arrivals")
def arrivals_table(data: Any) -> Arrivals:
    default = need(data, "default", int, "arrivals")
    rounds_doc = need(data, "rounds", dict, "arrivals")
    rounds = {}
    for key, value in rounds_doc.items():
        if not str(key).isdigit() or not isinstance(value, int) or not 0 <= value <= 5:
            raise fail("each round maps to 0..5 cards", rounds_doc, key, f"rounds.{key}")
        rounds[int(key)] = value
    return Arrivals(rounds, default)


@system("dusk.arrivals", reads=(*SPAWN_READS, "Deck", "Card", "Tally"), writes=(*SPAWN_WRITES, "Deck"),
        creates=SPAWN_CREATES, removes=SPAWN_REMOVES, decides=SPAWN_DECIDES, calls=SPAWN_CALLS)
def arrivals(game: Game, halve: bool = True) -> Generator[Decision, object, None]:
    """Every round: the table's number of Shambling cards, each bringing half its value (rounded up)
    in zombies, or its whole value without `halve`."""
    squares = card_spawn_squares(game, "dusk")
    for _ in range(game.tables["dusk.arrivals"].cards(game.tick)):
        card = draw_card(game, "dusk arrivals")
        count = (card.value + 1) // 2 if halve else card.value
        game.log("dusk_arrivals", card=card.face, zombies=count)
        yield from spawn_zombies(game, count, squares)
